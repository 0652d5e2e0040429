/** What the extension-host tests share: the demo workspace, the MCP tools, the harness's control folder. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RefusalEntry } from '../../../src/shared/messages';
import { patience } from '../../patience';

export const EXTENSION_ID = 'boundary-inspector.boundary-inspector';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns something other than undefined, or throws `message` after `timeout` ms on a quiet machine (patience.ts). */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, message: string, timeout = 30_000, interval = 250): Promise<T> {
  const limit = patience(timeout);
  const deadline = Date.now() + limit;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`${message} (waited ${limit} ms)${lastError ? `: ${String(lastError)}` : ''}`);
    await sleep(interval);
  }
}

export function workspaceFolder(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the tests need an open folder (the demo workspace)');
  return folder;
}

/**
 * The harness's control folder: BI_TEST_CONTROL from the extension environment, or `control`
 * beside the demo's base (runs/<run>/demo/notes -> runs/<run>/control). Null when the suite runs
 * without the harness (desktop VS Code).
 */
export function controlDir(): string | null {
  const fromEnv = process.env['BI_TEST_CONTROL'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder?.uri.scheme === 'file') {
    const beside = path.join(folder.uri.fsPath, '..', '..', 'control');
    if (existsSync(path.join(beside, 'harness.json'))) return beside;
  }
  return null;
}

/**
 * Hands the workbench to the harness for one round of checks from outside (uiChecks.ts): writes
 * `<control>/<name>-ready.json` with `info`, and waits for `<name>-done.json`. The extension host
 * must stay up meanwhile: the pages being checked talk to it.
 */
export async function handOver(name: string, info: Record<string, unknown> = {}, timeout = 480_000): Promise<{ ok: boolean; failures?: string[] }> {
  const control = controlDir();
  if (control === null) throw new Error('no control folder: nothing drives the workbench');
  writeFileSync(path.join(control, `${name}-ready.json`), JSON.stringify({ time: new Date().toISOString(), ...info }));
  const done = path.join(control, `${name}-done.json`);
  await waitFor(() => (existsSync(done) ? true : undefined), `the harness never finished its ${name} checks`, timeout, 500);
  return JSON.parse(readFileSync(done, 'utf8')) as { ok: boolean; failures?: string[] };
}

/** What the harness tells the suite (written before the browser opens the workbench). */
export interface HarnessInfo {
  /** Where the extension host's logs are (the user data's logs/ folder under code-server). */
  /** Whether something outside drives the inspector's UI (the offline harness; not runDesktop.ts). */
  readonly drivesUi: boolean;
  readonly demo: {
    readonly notes: string;
    readonly evilSecret: string;
    readonly hello: string;
    readonly helloText: string;
    readonly cSharpNotes: string;
    readonly outsideSecret: string;
  };
}

export function harnessInfo(): HarnessInfo | null {
  const control = controlDir();
  if (control === null) return null;
  return JSON.parse(readFileSync(path.join(control, 'harness.json'), 'utf8')) as HarnessInfo;
}

/**
 * VS Code's measure of the extension's activation: its row of the "Extension Activation Stats"
 * table in "Developer: Startup Performance", times the extension host reported (Date.now(), whole ms).
 */
export interface ActivationTimes {
  readonly extension: string;
  /** Activated at startup ("Eager"). */
  readonly startup: boolean;
  /** require() of the main module. */
  readonly loadCodeMs: number;
  /** The synchronous activate() call. */
  readonly callActivateMs: number;
  /** From activate()'s return until the promise it returned settled. */
  readonly finishActivateMs: number;
  /** What "Show Running Extensions" shows as the activation time: load code + call activate. */
  readonly activationMs: number;
  /** The activation event ("api" when a test's activate() came first). */
  readonly event: string;
  readonly vscodeVersion: string;
}

// ---------------------------------------------------------------------------------------------
// MCP, through the editor: the extension's provider gives the editor a server definition; the
// editor starts it and exposes its tools as language-model tools named mcp_<label>_<tool>.

function findTools(suffix: string): vscode.LanguageModelToolInformation[] {
  return vscode.lm.tools.filter((tool) => tool.name.startsWith('mcp_') && tool.name.endsWith(`_${suffix}`));
}

/** Starts the MCP servers (retrying: right after activation the first start can do nothing) until `suffix` is a tool. */
export async function mcpTools(suffix: string, timeout = 90_000): Promise<vscode.LanguageModelToolInformation[]> {
  const limit = patience(timeout);
  const deadline = Date.now() + limit;
  let lastError: unknown;
  for (;;) {
    const found = findTools(suffix);
    if (found.length > 0) return found;
    if (Date.now() > deadline) {
      const names = vscode.lm.tools.map((tool) => tool.name).join(', ') || 'none';
      throw new Error(`no MCP tool ending in _${suffix} after ${limit} ms (tools: ${names})${lastError ? `; last start error: ${String(lastError)}` : ''}`);
    }
    try {
      await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
    } catch (error) {
      lastError = error;
    }
    if (findTools(suffix).length === 0) await sleep(1000);
  }
}

export async function mcpTool(suffix: string): Promise<string> {
  const tools = await mcpTools(suffix);
  const ours = tools.filter((tool) => /boundary/i.test(tool.name));
  return (ours[0] ?? tools[0]!).name;
}

export interface ToolOutput {
  readonly text: string;
  /** The text parsed as JSON: the editor hands a tool's structured content to the model as JSON text. */
  readonly json: Record<string, unknown> | null;
  /** JSON data parts, if the editor passes structured content that way. */
  readonly data: unknown[];
  readonly result: vscode.LanguageModelToolResult;
}

export async function invoke(suffix: string, input: Record<string, unknown>): Promise<ToolOutput> {
  const name = await mcpTool(suffix);
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  const texts: string[] = [];
  const data: unknown[] = [];
  for (const part of result.content as unknown[]) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
    else if (part !== null && typeof part === 'object' && 'data' in part && part.data instanceof Uint8Array) {
      // A LanguageModelDataPart (newer API than the @types/vscode this project builds against).
      const decoded = new TextDecoder().decode(part.data);
      try {
        data.push(JSON.parse(decoded));
      } catch {
        data.push(decoded);
      }
    } else if (part !== null && typeof part === 'object' && 'value' in part && typeof part.value === 'string') {
      texts.push(part.value);
    }
  }
  const text = texts.join('\n');
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
  } catch {
    // plain text
  }
  return { text, json, data, result };
}

// ---------------------------------------------------------------------------------------------
// The refusal log, at the path the extension exports.

export type LoggedRefusal = RefusalEntry;

export function readRefusals(file: string): LoggedRefusal[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LoggedRefusal);
}
