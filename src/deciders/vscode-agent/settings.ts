// The settings VS Code's agent consults for a file, merged as VS Code merges them: the default,
// then user settings, then workspace settings (and a folder's, where the setting allows). An
// object setting keeps its default entries in their order, a later layer's value replacing an
// entry in place and a new entry appended; a list or a word is replaced whole. An application
// setting (`chat.tools.edits.autoApprove`, `chat.tools.global.autoApprove`) is read from user
// settings alone: in workspace settings it is ignored. The extension gives the layers from VS
// Code's own `inspect`; the command line reads the files where VS Code keeps them.
import type { Platform } from '../../core/index.js';
import { isJsonObject, lineOf, readJsoncSettings } from '../jsonSettings.js';
import { nodePath } from '../shared/node.js';
import type { DeciderContext, RuleSource, VsCodeContext } from '../types.js';

/** `chat.tools.edits.autoApprove`'s default in VS Code 1.139.1, in its order. */
export const DEFAULT_AUTO_APPROVE: Readonly<Record<string, boolean>> = {
  '**/*': true,
  '**/.git/**': false,
  '**/{package.json,server.xml,build.rs,web.config,.gitattributes,.env,Cargo.toml}': false,
  '**/{.npmrc,.yarnrc,.yarnrc.yml,.pnpmfile.js,.pnpmfile.cjs,.pnpmfile.mjs,pnpm-workspace.yaml}': false,
  '**/*.{code-workspace,csproj,fsproj,vbproj,vcxproj,proj,targets,props,gradle,gradle.kts}': false,
  '**/gradle.properties': false,
  '**/ruby_lsp/*/addon': false,
  '**/*.lock': false,
  '**/*-lock.{yaml,json}': false,
  '**/.mcp.json': false,
  '**/.npmrc': false,
  '**/.vscode/*.json': false,
  '**/.github/agents/**': false,
  '**/.github/hooks/**': false,
  '**/.claude/agents/**': false,
  '**/.claude/settings.json': false,
  '**/.claude/settings.local.json': false,
  '**/.codex/agents/**': false,
  '**/.codex/config.toml': false,
  '**/.codex/hooks.json': false,
};

/** `chat.hookFilesLocations`' default: its keys count, whatever their values. */
export const DEFAULT_HOOK_FILES: Readonly<Record<string, boolean>> = {
  '.github/hooks': true,
  '.claude/settings.local.json': true,
  '.claude/settings.json': true,
  '~/.copilot/hooks': true,
  '~/.claude/settings.json': true,
};

export const AUTO_APPROVE = 'chat.tools.edits.autoApprove';
export const HOOK_FILES = 'chat.hookFilesLocations';
export const READ_ACCESS = 'github.copilot.chat.additionalReadAccessPaths';
export const PERMISSIONS_DEFAULT = 'chat.permissions.default';
export const GLOBAL_AUTO_APPROVE = 'chat.tools.global.autoApprove';
export const ELIGIBLE = 'chat.tools.eligibleForAutoApproval';

/** The settings read, and where VS Code lets each be set: `application` ones in user settings only. */
const SCOPES: Readonly<Record<string, 'application' | 'window'>> = {
  [AUTO_APPROVE]: 'application',
  [GLOBAL_AUTO_APPROVE]: 'application',
  [HOOK_FILES]: 'window',
  [READ_ACCESS]: 'window',
  [PERMISSIONS_DEFAULT]: 'window',
  [ELIGIBLE]: 'window',
};
export const VSCODE_SETTINGS = Object.keys(SCOPES);
/** Whether VS Code reads a setting from user settings alone. */
export const isApplicationSetting = (setting: string) => SCOPES[setting] === 'application';

export type LayerRole = 'user settings' | 'workspace settings' | 'workspace folder settings';

/** One layer of settings: its values by setting, and its file where it is known (for the lines). */
export interface SettingsLayer {
  readonly role: LayerRole;
  readonly values: Readonly<Record<string, unknown>>;
  readonly file?: string;
  readonly text?: string;
  /** Where the settings sit in the file: under `settings` in a `.code-workspace` file. */
  readonly at?: readonly string[];
}

function sourceIn(layer: SettingsLayer, at: readonly (string | number)[], written: string): RuleSource {
  if (layer.file === undefined) return { text: `${written} (${layer.role})` };
  return { text: written, file: layer.file, ...(layer.text !== undefined ? { line: lineOf(layer.text, [...(layer.at ?? []), ...at]) } : {}) };
}

const DEFAULT_SOURCE = (written: string): RuleSource => ({ text: `${written} (VS Code's default)` });

/** The layers that apply to a setting, and a note for each value found where it does not. */
function applying(setting: string, layers: readonly SettingsLayer[], unapplied: { setting: string; source: RuleSource; why: string }[]): SettingsLayer[] {
  return layers.filter((layer) => {
    if (layer.values[setting] === undefined) return false;
    if (isApplicationSetting(setting) && layer.role !== 'user settings') {
      unapplied.push({ setting, source: sourceIn(layer, [setting], `"${setting}"`), why: `${setting} is an application setting: VS Code reads it from user settings only and ignores it in ${layer.role}` });
      return false;
    }
    return true;
  });
}

/** An object setting merged: the default's entries in order, a later value in place, a new entry appended. */
function mergedObject(setting: string, defaults: Readonly<Record<string, unknown>>, layers: readonly SettingsLayer[]): Map<string, { value: unknown; source: RuleSource }> {
  const merged = new Map<string, { value: unknown; source: RuleSource }>();
  for (const [key, value] of Object.entries(defaults)) merged.set(key, { value, source: DEFAULT_SOURCE(`"${key}": ${JSON.stringify(value)}`) });
  for (const layer of layers) {
    const object = layer.values[setting];
    if (!isJsonObject(object)) continue;
    for (const [key, value] of Object.entries(object)) merged.set(key, { value, source: sourceIn(layer, [setting, key], `"${key}": ${JSON.stringify(value)}`) });
  }
  return merged;
}

/** The last layer's value of a setting that is replaced whole. */
function lastValue(setting: string, layers: readonly SettingsLayer[]): { value: unknown; source: RuleSource } | undefined {
  const layer = layers.at(-1);
  return layer === undefined ? undefined : { value: layer.values[setting], source: sourceIn(layer, [setting], `"${setting}": ${JSON.stringify(layer.values[setting])}`) };
}

/** The agent's settings from the layers, in VS Code's order of precedence (user, workspace, folder). */
export function contextFromLayers(workspaceFolders: readonly string[], layers: readonly SettingsLayer[], files?: VsCodeContext['files']): VsCodeContext {
  const unapplied: { setting: string; source: RuleSource; why: string }[] = [];
  const layersOf = (setting: string) => applying(setting, layers, unapplied);
  // A value VS Code coerces: an entry of autoApprove is approved only when it is `true`.
  const autoApprove = [...mergedObject(AUTO_APPROVE, DEFAULT_AUTO_APPROVE, layersOf(AUTO_APPROVE))].map(([glob, { value, source }]) => ({ glob, approve: value === true, source }));
  const hookFiles = [...mergedObject(HOOK_FILES, DEFAULT_HOOK_FILES, layersOf(HOOK_FILES))].map(([location, { source }]) => ({ location, source }));
  const readLayer = layersOf(READ_ACCESS).at(-1);
  const readValue = readLayer?.values[READ_ACCESS];
  const readAccessPaths = readLayer !== undefined && Array.isArray(readValue)
    ? readValue.flatMap((path, index) => (typeof path === 'string' ? [{ path, source: sourceIn(readLayer, [READ_ACCESS, index], JSON.stringify(path)) }] : []))
    : [];
  const permissions = lastValue(PERMISSIONS_DEFAULT, layersOf(PERMISSIONS_DEFAULT));
  const global = lastValue(GLOBAL_AUTO_APPROVE, layersOf(GLOBAL_AUTO_APPROVE));
  const eligible = [...mergedObject(ELIGIBLE, {}, layersOf(ELIGIBLE))].flatMap(([tool, { value, source }]) => (typeof value === 'boolean' ? [{ tool, eligible: value, source }] : []));
  return {
    workspaceFolders,
    autoApprove,
    hookFiles,
    readAccessPaths,
    ...(typeof permissions?.value === 'string' ? { permissionsDefault: { value: permissions.value, source: permissions.source } } : {}),
    ...(global !== undefined && (typeof global.value === 'boolean' || isJsonObject(global.value)) ? { globalAutoApprove: global as { value: boolean | Record<string, boolean>; source: RuleSource } } : {}),
    ...(eligible.length > 0 ? { eligibleForAutoApproval: eligible } : {}),
    ...(unapplied.length > 0 ? { unapplied } : {}),
    ...(files !== undefined ? { files } : {}),
  };
}

/**
 * VS Code's user settings file on that platform: `$VSCODE_APPDATA`, else `%APPDATA%` on Windows,
 * `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` or `~/.config` on Linux; then `Code/User/settings.json`.
 */
export function userSettingsFile(platform: Platform, home: string, env: Readonly<Record<string, string | undefined>>): string {
  const path = nodePath(platform);
  const appData =
    env.VSCODE_APPDATA ||
    (platform === 'win32' ? env.APPDATA || path.join(home, 'AppData', 'Roaming') : platform === 'darwin' ? path.join(home, 'Library', 'Application Support') : env.XDG_CONFIG_HOME || path.join(home, '.config'));
  return path.join(appData, 'Code', 'User', 'settings.json');
}

/** A settings file's values by setting id: its flat keys (`"chat.tools.edits.autoApprove": {...}`). */
function valuesOf(value: unknown): Record<string, unknown> {
  if (!isJsonObject(value)) return {};
  return Object.fromEntries(VSCODE_SETTINGS.flatMap((setting) => (value[setting] !== undefined ? [[setting, value[setting]]] : [])));
}

/**
 * The agent's settings as VS Code would read them on that machine, for the command line: the
 * workspace folders are the working folder and each added folder; user settings from their file;
 * workspace settings from the working folder's `.vscode/settings.json`.
 */
export function readVsCodeContext(context: DeciderContext): VsCodeContext {
  const path = nodePath(context.platform);
  const folders = [context.cwd, ...context.addDirs].map((folder) => path.resolve(context.cwd, folder));
  const sources: { role: LayerRole; path: string }[] = [
    { role: 'user settings', path: userSettingsFile(context.platform, context.home, context.env) },
    { role: 'workspace settings', path: path.join(folders[0]!, '.vscode', 'settings.json') },
  ];
  const read = sources.map((source) => ({ ...source, file: readJsoncSettings(context.fs, source.path) }));
  const layers = read.filter(({ file }) => file.found).map(({ role, file }): SettingsLayer => ({ role, values: valuesOf(file.value), file: file.path, ...(file.text !== undefined ? { text: file.text } : {}) }));
  return contextFromLayers(folders, layers, read.map(({ role, file }) => ({ path: file.path, role, found: file.found })));
}
