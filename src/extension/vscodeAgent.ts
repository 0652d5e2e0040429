/**
 * VS Code's own agent's inputs as this window has them, for the vscode-agent decider: the
 * workspace folders, and each setting the agent's file tools consult as `inspect` reports it
 * (user, then workspace). The user settings file is not named: where it lies depends on the
 * profile and the build, so a user value's source says its layer instead. A workspace value of
 * an application setting, which VS Code ignores, is read from the workspace's file so the trace
 * can say it was ignored.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { contextFromLayers, isApplicationSetting, VSCODE_SETTINGS, type SettingsLayer, type VsCodeContext } from '../deciders/index.js';
import { parse } from 'jsonc-parser/lib/esm/main.js';

/** The workspace's settings file: the `.code-workspace` file, else the one folder's `.vscode/settings.json`. */
function workspaceSettingsFile(folders: readonly string[]): { file: string; at: readonly string[] } | undefined {
  const workspaceFile = vscode.workspace.workspaceFile;
  if (workspaceFile?.scheme === 'file') return { file: workspaceFile.fsPath, at: ['settings'] };
  return folders.length === 1 ? { file: path.join(folders[0]!, '.vscode', 'settings.json'), at: [] } : undefined;
}

export function vscodeAgentContext(): VsCodeContext {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  const configuration = vscode.workspace.getConfiguration();
  const workspace = workspaceSettingsFile(folders);
  const text = workspace === undefined ? undefined : readText(workspace.file);
  const written = text === undefined ? {} : (valueAt(parse(text, [], { allowTrailingComma: true }), workspace!.at) as Record<string, unknown>);
  const user: Record<string, unknown> = {};
  const inWorkspace: Record<string, unknown> = {};
  for (const setting of VSCODE_SETTINGS) {
    const inspected = configuration.inspect(setting);
    if (inspected?.globalValue !== undefined) user[setting] = inspected.globalValue;
    const workspaceValue = inspected?.workspaceValue ?? (isApplicationSetting(setting) ? written[setting] : undefined);
    if (workspaceValue !== undefined) inWorkspace[setting] = workspaceValue;
  }
  const layers: SettingsLayer[] = [
    { role: 'user settings', values: user },
    { role: 'workspace settings', values: inWorkspace, ...(workspace !== undefined ? { file: workspace.file, at: workspace.at } : {}), ...(text !== undefined ? { text } : {}) },
  ];
  const files = workspace === undefined ? [] : [{ path: workspace.file, role: 'workspace settings', found: text !== undefined }];
  return contextFromLayers(folders, layers, files);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function valueAt(value: unknown, at: readonly string[]): unknown {
  let here = value;
  for (const key of at) here = typeof here === 'object' && here !== null ? (here as Record<string, unknown>)[key] : undefined;
  return typeof here === 'object' && here !== null ? here : {};
}
