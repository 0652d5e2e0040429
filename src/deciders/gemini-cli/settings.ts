// Gemini CLI's settings layers (packages/cli/src/config/settings.ts): where each file is, how a
// system file others could write is skipped, how `$VAR` is expanded, and how the layers merge:
// defaults, system defaults, user, workspace (a trusted folder only), system last, objects key
// by key and `context.includeDirectories` concatenated.
import { isJsonObject, lineOf, readJsonSettings, type JsonPath } from '../jsonSettings.js';
import type { RuleSource } from '../types.js';
import { exists, normalizePath, realpathOf, resolveToRealPath, type GeminiHost } from './paths.js';

export type LayerRole = 'system defaults' | 'user settings' | 'workspace settings' | 'system settings';

export interface SettingsLayer {
  readonly role: LayerRole;
  readonly path: string;
  readonly found: boolean;
  readonly text?: string;
  /** Its settings, `$VAR` expanded; empty when absent, skipped or broken. */
  readonly value: Readonly<Record<string, unknown>>;
  /** Why Gemini CLI set a file that is there aside (a system file others could write, the home folder's own). */
  readonly skipped?: string;
  /** Why it could not be read: Gemini CLI stops at start. */
  readonly error?: string;
}

/** The settings this model reads, at their schema's defaults. */
const DEFAULTS = {
  general: { defaultApprovalMode: 'default', plan: { enabled: true } },
  context: { includeDirectories: [], fileFiltering: { respectGitIgnore: true, respectGeminiIgnore: true, customIgnoreFilePaths: [] } },
  security: { folderTrust: { enabled: true }, disableYoloMode: false },
};

/** The schema's merge strategies for the arrays this model reads; other arrays are replaced. */
function strategyOf(path: readonly string[]): 'concat' | 'union' | undefined {
  const key = path.join('.');
  if (key === 'context.includeDirectories') return 'concat';
  if (key === 'context.fileFiltering.customIgnoreFilePaths') return 'union';
  return undefined;
}

function mergeInto(target: Record<string, unknown>, source: Readonly<Record<string, unknown>>, path: readonly string[]): void {
  for (const key of Object.keys(source)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const value = source[key];
    if (value === undefined) continue;
    const here = [...path, key];
    const current = target[key];
    const strategy = strategyOf(here);
    if (Array.isArray(current) && strategy !== undefined) {
      const added = Array.isArray(value) ? value : [value];
      target[key] = strategy === 'concat' ? current.concat(added) : [...new Set([...current, ...added])];
    } else if (isJsonObject(value)) {
      if (!isJsonObject(current)) target[key] = {};
      mergeInto(target[key] as Record<string, unknown>, value, here);
    } else target[key] = value;
  }
}

/** customDeepMerge over the defaults and the layers given, in order. */
function mergeLayers(layers: readonly Readonly<Record<string, unknown>>[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const layer of [structuredClone(DEFAULTS) as Record<string, unknown>, ...layers]) mergeInto(merged, layer, []);
  return merged;
}

/** The value at a dotted path of merged settings. */
export function settingAt(settings: Readonly<Record<string, unknown>>, at: JsonPath): unknown {
  let value: unknown = settings;
  for (const key of at) {
    if (!isJsonObject(value) && !Array.isArray(value)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** `$VAR`, `${VAR}` and `${VAR:-default}` in every string, from the program's environment; unknown names stay as written. */
function expandVariables(value: unknown, env: Readonly<Record<string, string | undefined>>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g, (match, bare?: string, braced?: string, fallback?: string) => {
      const found = env[bare ?? braced ?? ''];
      return typeof found === 'string' ? found : (fallback ?? match);
    });
  }
  if (Array.isArray(value)) return value.map((item) => expandVariables(item, env));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandVariables(item, env)]));
  return value;
}

function loadLayer(host: GeminiHost, role: LayerRole, path: string, env: Readonly<Record<string, string | undefined>>): SettingsLayer {
  const file = readJsonSettings(host.fs, path);
  if (!file.found) return { role, path, found: false, value: {} };
  const text = file.text === undefined ? {} : { text: file.text };
  if (file.error !== undefined) return { role, path, found: true, ...text, value: {}, error: file.error };
  if (!isJsonObject(file.value)) return { role, path, found: true, ...text, value: {}, error: 'Settings file is not a valid JSON object.' };
  return { role, path, found: true, ...text, value: expandVariables(file.value, env) as Record<string, unknown> };
}

/**
 * Why a system file is not to be trusted: it, a folder above it or where a link leads is not
 * owned by root or can be written by its group or others (isFileAndDirectorySecureSync, POSIX).
 * Undefined when it is safe, or when the disk cannot tell owners (then Gemini CLI's check is not
 * modelled: on Windows it asks PowerShell for the ACLs).
 */
function insecurity(host: GeminiHost, file: string): string | undefined {
  const { fs, path } = host;
  const ownership = fs.ownership?.bind(fs);
  if (!ownership || host.platform === 'win32' || !exists(host, file)) return undefined;
  const ancestors = (dir: string): string[] => {
    const out: string[] = [];
    for (let current = dir; ; current = path.dirname(current)) {
      out.push(current);
      if (path.dirname(current) === current) return out;
    }
  };
  const check = (entry: string, what: 'Directory' | 'File'): string | undefined => {
    const look = fs.lstat(entry);
    if (look.kind === 'missing') return undefined;
    if (look.kind === 'symlink') {
      const link = ownership(entry, { noFollow: true });
      if (link && link.uid !== 0) return `the link ${entry} is not owned by root`;
    }
    const stats = ownership(entry);
    if (!stats) return undefined;
    if (stats.uid !== 0) return `${what} '${entry}' is not owned by root (uid 0)`;
    if ((stats.mode & 0o022) !== 0) return `${what} '${entry}' is writable by group or others (mode ${(stats.mode & 0o7777).toString(8)})`;
    return undefined;
  };
  const real = realpathOf(host, file) ?? file;
  const entries: [string, 'Directory' | 'File'][] = [...ancestors(path.dirname(file)).map((dir): [string, 'Directory'] => [dir, 'Directory']), [file, 'File']];
  if (real !== file) entries.push([real, 'File'], ...ancestors(path.dirname(real)).map((dir): [string, 'Directory'] => [dir, 'Directory']));
  for (const [entry, what] of entries) {
    const reason = check(entry, what);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** Storage.isWorkspaceHomeDir: the working folder and the home folder are one (real paths, case folded on macOS and Windows). */
function isWorkspaceHomeDir(host: GeminiHost, home: string): boolean {
  try {
    return normalizePath(host, resolveToRealPath(host, host.processCwd)) === normalizePath(host, resolveToRealPath(host, home));
  } catch {
    return false;
  }
}

function systemSettingsPath(host: GeminiHost, env: Readonly<Record<string, string | undefined>>): string {
  const configured = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (configured) return configured;
  if (host.platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (host.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

export interface SettingsFiles {
  /** In merge order: system defaults, user, workspace, system. */
  readonly layers: readonly SettingsLayer[];
}

/** Reads the four settings files as Gemini CLI does at start (the workspace's is applied only once the folder is trusted). */
export function readSettingsFiles(host: GeminiHost, home: string, env: Readonly<Record<string, string | undefined>>): SettingsFiles {
  const { path } = host;
  const system = systemSettingsPath(host, env);
  const systemDefaults = env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || path.join(path.dirname(system), 'system-defaults.json');
  const loadSystem = (role: LayerRole, file: string): SettingsLayer => {
    const reason = insecurity(host, file);
    if (reason === undefined) return loadLayer(host, role, file, env);
    return { role, path: file, found: true, value: {}, skipped: `Security Warning: Skipping ${role} file '${file}': ${reason}` };
  };
  const user = loadLayer(host, 'user settings', path.join(home, '.gemini', 'settings.json'), env);
  const workspacePath = path.join(host.processCwd, '.gemini', 'settings.json');
  // Started in the home folder, the workspace's file is the user's own: read once, as the user's.
  const atHome = isWorkspaceHomeDir(host, home);
  const workspace = atHome
    ? { role: 'workspace settings' as const, path: workspacePath, found: exists(host, workspacePath), value: {}, skipped: 'the working folder is the home folder: this file is read as the user settings' }
    : loadLayer(host, 'workspace settings', workspacePath, env);
  return { layers: [loadSystem('system defaults', systemDefaults), user, workspace, loadSystem('system settings', system)] };
}

/** The merged settings, the workspace's only when trusted (the trust check itself never sees them). */
export function mergedSettings(files: SettingsFiles, withWorkspace: boolean): Record<string, unknown> {
  return mergeLayers(files.layers.filter((layer) => withWorkspace || layer.role !== 'workspace settings').map((layer) => layer.value));
}

/** The layer that last set a setting, in merge order, with the line it is on. */
export function sourceOf(files: SettingsFiles, at: JsonPath, withWorkspace: boolean): { readonly layer: SettingsLayer; readonly source: RuleSource } | undefined {
  let found: { layer: SettingsLayer; source: RuleSource } | undefined;
  for (const layer of files.layers) {
    if (!withWorkspace && layer.role === 'workspace settings') continue;
    const value = settingAt(layer.value, at);
    if (value === undefined || layer.text === undefined) continue;
    found = { layer, source: { text: `${at.join('.')}: ${JSON.stringify(value)}`, file: layer.path, line: lineOf(layer.text, at) } };
  }
  return found;
}
