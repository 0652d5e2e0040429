/// <reference types="mocha" />
/**
 * "Audit Workspace Boundaries" on the demo workspace (scripts/demo-workspace.ts): its findings
 * reach the Problems panel as diagnostics from "Boundary Inspector", one per finding, and a
 * re-run replaces them.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuditSummary } from '../../../src/shared/messages';
import { EXTENSION_ID, waitFor, workspaceFolder } from './helpers';
import { patience } from '../../patience';

const SOURCE = 'Boundary Inspector';

interface Published {
  readonly path: string;
  readonly code: string;
  /** Where the code links: the entry's trace in the inspector (a command link). */
  readonly target: vscode.Uri | null;
  readonly severity: vscode.DiagnosticSeverity;
  readonly line: number;
  readonly message: string;
}

function published(): Published[] {
  return vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) =>
    diagnostics
      .filter((diagnostic) => diagnostic.source === SOURCE)
      .map((diagnostic) => ({
        path: uri.fsPath,
        code: String(typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code),
        target: typeof diagnostic.code === 'object' ? diagnostic.code.target : null,
        severity: diagnostic.severity,
        line: diagnostic.range.start.line,
        message: diagnostic.message,
      })),
  );
}

function audit(): Thenable<AuditSummary[] | undefined> {
  return vscode.commands.executeCommand<AuditSummary[] | undefined>('boundaryInspector.auditWorkspace');
}

suite('Audit (Problems panel)', function () {
  this.timeout(patience(120_000));

  suiteSetup(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  test('the audit command puts each finding in the Problems panel, on its entry', async () => {
    const notes = workspaceFolder().uri.fsPath;
    const summaries = await audit();
    assert.ok(summaries, 'the command ran no audit');
    assert.equal(summaries.length, 1, JSON.stringify(summaries));
    const [summary] = summaries;
    assert.equal(summary!.error, null);
    assert.equal(summary!.root, workspaceFolder().uri.toString());
    assert.ok(summary!.scanned > 0);

    const found = published();
    const expected: readonly [string, string][] = [
      ['link-escapes', 'escape'],
      ['link-dangling', 'dangling'],
      ['case-twins', 'TODO.md'],
      ['case-twins', 'todo.md'],
      ['unicode-twins', 'caf\u00e9'],
      ['unicode-twins', 'cafe\u0301'],
    ];
    for (const [code, name] of expected) {
      const entry = path.join(notes, name);
      assert.ok(
        found.some((diagnostic) => diagnostic.code === code && diagnostic.path === entry),
        `no ${code} diagnostic on ${entry}; published: ${JSON.stringify(found.map(({ path: at, code: kind }) => [kind, at]))}`,
      );
    }
    for (const diagnostic of found) {
      assert.equal(diagnostic.line, 0);
      assert.equal(diagnostic.severity, diagnostic.code === 'hard-link' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning, diagnostic.code);
      assert.notEqual(diagnostic.message, '');
    }
    // One diagnostic per finding.
    assert.equal(found.length, summary!.total);
  });

  test("each code links to its entry's trace in the inspector, one id per entry, and twins are told apart by their code points", async () => {
    const found = published();
    const idOf = new Map<string, string>();
    for (const diagnostic of found) {
      const target = diagnostic.target;
      assert.equal(target?.scheme, 'command', `${diagnostic.code} on ${diagnostic.path} links to ${target?.toString()}`);
      assert.equal(target.path, 'boundaryInspector.showFinding');
      // As the Problems panel reads a command link's arguments: percent-decoded, then JSON.
      const args = JSON.parse(decodeURIComponent(target.query)) as unknown[];
      assert.equal(args.length, 1);
      assert.match(String(args[0]), /^[a-z0-9]+$/, 'an id that decoding cannot change');
      const known = idOf.get(diagnostic.path);
      if (known !== undefined) assert.equal(args[0], known, `two ids for ${diagnostic.path}`);
      idOf.set(diagnostic.path, String(args[0]));
    }
    assert.equal(new Set(idOf.values()).size, idOf.size, 'two entries share an id');
    // The link runs the command: the inspector opens.
    await vscode.commands.executeCommand('boundaryInspector.showFinding', idOf.values().next().value);
    await waitFor(
      () => (vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('boundaryInspector.inspector'))) ? true : undefined),
      'the finding\'s link opened no inspector',
      15_000,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const notes = workspaceFolder().uri.fsPath;
    const cafe = (name: string) => found.find((diagnostic) => diagnostic.code === 'unicode-twins' && diagnostic.path === path.join(notes, name))?.message ?? '';
    assert.match(cafe('caf\u00e9'), /\("\u00e9" \(U\+00E9\) in this name, "e\u0301" \(U\+0065 U\+0301\) in the other\)/u);
    assert.match(cafe('cafe\u0301'), /\("e\u0301" \(U\+0065 U\+0301\) in this name, "\u00e9" \(U\+00E9\) in the other\)/u);
  });

  test('a finding offers quick fixes: trace it in Boundary Inspector (as its code links), reveal it in the Explorer, read about its kind', async () => {
    const file = vscode.Uri.file(path.join(workspaceFolder().uri.fsPath, 'TODO.md'));
    await vscode.workspace.openTextDocument(file);
    // The editor hands a provider the diagnostics it has for the document: asked until it has them.
    // By title: the editor hands `vscode.open` back under its internal id.
    const titles = ['Trace in Boundary Inspector', 'Reveal in Explorer', 'Read about "case-twins"'];
    const ours = await waitFor(async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', file, new vscode.Range(0, 0, 0, 0));
      const found = actions.filter((action) => titles.includes(action.title));
      return found.length > 0 ? found : undefined;
    }, 'no quick fix on the finding', 10_000);
    assert.deepEqual(ours.map((action) => action.title), titles);
    const linked = published().find((diagnostic) => diagnostic.path === file.fsPath)!.target!;
    assert.equal(ours[0]!.command?.command, 'boundaryInspector.showFinding');
    assert.deepEqual(ours[0]!.command?.arguments, JSON.parse(decodeURIComponent(linked.query)));
    assert.equal(ours[1]!.command?.arguments?.[0]?.toString(), file.toString());
    assert.match(ours[2]!.command?.arguments?.[0]?.toString() ?? '', /\/docs\/findings\.md#case-twins$/);
  });

  test('a second run replaces the diagnostics, it does not add to them', async () => {
    const before = published().length;
    assert.ok(before > 0);
    await audit();
    assert.equal(published().length, before);
  });
});
