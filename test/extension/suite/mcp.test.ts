/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { EXTENSION_ID, harnessInfo, invoke, mcpTools, readRefusals, waitFor, workspaceFolder, type LoggedRefusal, type ToolOutput } from './helpers';
import { patience } from '../../patience';

/** The demo workspace's files, from the harness, or derived from the open folder (notes/ beside notes-evil/). */
function demo() {
  const info = harnessInfo();
  if (info) return info.demo;
  const notes = workspaceFolder().uri.fsPath;
  return {
    notes,
    hello: path.join(notes, 'hello.txt'),
    helloText: readFileSync(path.join(notes, 'hello.txt'), 'utf8'),
    cSharpNotes: path.join(notes, 'c#', 'notes.md'),
    evilSecret: path.join(notes, '..', 'notes-evil', 'secret.md'),
    outsideSecret: path.join(notes, '..', 'outside', 'secret.txt'),
  };
}

/**
 * What the model is handed for read_text_file: the file's text itself. The editor hands a tool's
 * structured result to the model in place of its text when there is one, so this tool has none.
 */
function content(output: ToolOutput): string {
  return output.text;
}

interface ListedWorkspace {
  readonly uri: string;
  readonly path: string;
  readonly rights: string;
}

/** list_workspaces' structured content (the editor passes it on as JSON text), else parsed from its text. */
function listedWorkspaces(output: ToolOutput): ListedWorkspace[] {
  for (const item of [output.json, ...output.data]) {
    if (item && typeof item === 'object' && Array.isArray((item as { workspaces?: unknown }).workspaces)) {
      return (item as { workspaces: ListedWorkspace[] }).workspaces;
    }
  }
  const lines = output.text.split('\n').filter((line) => /^file:\S* \((read|read-write)\)$/.test(line.trim()));
  return lines.map((line) => {
    const [uri, rights] = line.trim().split(' ') as [string, string];
    return { uri, path: vscode.Uri.parse(uri).fsPath, rights: rights.slice(1, -1) };
  });
}

suite('MCP server (through the editor)', function () {
  this.timeout(patience(120_000));

  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  test('exactly one server, granting exactly the workspace folders', async () => {
    const listTools = await mcpTools('list_workspaces');
    assert.equal(listTools.length, 1, `one server definition expected, tools: ${listTools.map((tool) => tool.name).join(', ')}`);
    assert.match(listTools[0]!.name, /boundary/i);

    const output = await invoke('list_workspaces', {});
    const listed = listedWorkspaces(output);
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.ok(folders.length > 0);
    assert.deepEqual(
      listed.map((workspace) => workspace.path),
      folders.map((folder) => folder.uri.fsPath),
      `listed: ${output.text}`,
    );
    assert.deepEqual(
      listed.map((workspace) => vscode.Uri.parse(workspace.uri).toString()),
      folders.map((folder) => folder.uri.toString()),
    );
    for (const workspace of listed) assert.equal(workspace.rights, 'read-write');
  });

  test('reads a file inside the workspace', async () => {
    const { hello, helloText } = demo();
    const output = await invoke('read_text_file', { workspaceUri: workspaceFolder().uri.toString(), path: vscode.Uri.file(hello).toString() });
    assert.equal(content(output), helloText, output.text);
    assert.equal(readFileSync(hello, 'utf8'), helloText);
  });

  test('reads a file in a folder named c# (%23 in its URI)', async () => {
    const { cSharpNotes } = demo();
    const uri = pathToFileURL(cSharpNotes).href;
    assert.match(uri, /c%23\/notes\.md$/);
    const output = await invoke('read_text_file', { workspaceUri: workspaceFolder().uri.toString(), path: uri });
    assert.equal(content(output), readFileSync(cSharpNotes, 'utf8'), output.text);
  });

  test('refuses to delete a file in the sibling-prefix folder notes-evil', async () => {
    const { evilSecret } = demo();
    const uri = pathToFileURL(evilSecret).href;
    const output = await invoke('delete_path', { workspaceUri: workspaceFolder().uri.toString(), path: uri });
    assert.match(output.text, /ERR_OUTSIDE/, output.text);
    assert.ok(existsSync(evilSecret), 'notes-evil/secret.md must still exist');
  });

  test('refuses a read through the escaping link', async () => {
    const output = await invoke('read_text_file', { workspaceUri: workspaceFolder().uri.toString(), path: 'escape/secret.txt' });
    assert.match(output.text, /ERR_SYMLINK_ESCAPE/, output.text);
    assert.doesNotMatch(output.text, /Outside the workspace: reached only/);
  });

  test('writes the delete refusal to the refusal log the extension names', async () => {
    const api = vscode.extensions.getExtension<{ refusalLogPath: string }>(EXTENSION_ID)?.exports;
    assert.ok(api, 'the extension exports its API');
    const { evilSecret } = demo();
    const entry = await waitFor<LoggedRefusal>(
      () => (existsSync(api.refusalLogPath) ? readRefusals(api.refusalLogPath).find((line) => line.code === 'ERR_OUTSIDE' && line.tool === 'delete_path') : undefined),
      `no ERR_OUTSIDE delete_path line in ${api.refusalLogPath}`,
      10_000,
    );
    assert.equal(entry.input, pathToFileURL(evilSecret).href);
    assert.equal(entry.workspaceUri, workspaceFolder().uri.toString());
    assert.equal(entry.stage, 'containment');
  });
});
