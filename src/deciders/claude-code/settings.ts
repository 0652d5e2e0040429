// Claude Code's settings files, where it reads them and what it takes from them: the permission
// rules (every layer's lists kept, each rule with its file and line), the added working folders,
// the starting mode (the highest layer that sets it), and whether the working folder is trusted,
// which decides whether the project's own grants count.
import type { Platform } from '../../core/index.js';
import { lineOf } from '../jsonSettings.js';
import { expandHome, nodePath, nodeRealpath } from '../shared/node.js';
import type { DeciderContext, DeciderFileSystem } from '../types.js';

/** The settings layers, highest first: the order a single value such as the mode is taken in. */
export const LAYERS = ['managed', 'flag', 'local', 'project', 'user'] as const;
export type Layer = (typeof LAYERS)[number];

export const ROLES: Readonly<Record<Layer, string>> = {
  managed: 'managed settings',
  flag: '--settings',
  local: 'local settings',
  project: 'project settings',
  user: 'user settings',
};

export type Behavior = 'allow' | 'ask' | 'deny';
export const BEHAVIORS: readonly Behavior[] = ['deny', 'ask', 'allow'];

export const MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk', 'auto'] as const;
export type Mode = (typeof MODES)[number];

/** The part of a settings file that decides a path. */
export interface SettingsValue {
  readonly permissions?: {
    readonly allow?: unknown;
    readonly ask?: unknown;
    readonly deny?: unknown;
    readonly additionalDirectories?: unknown;
    readonly defaultMode?: unknown;
    readonly disableBypassPermissionsMode?: unknown;
  };
  readonly allowManagedPermissionRulesOnly?: unknown;
}

/** One settings file Claude Code looks for, as found. */
export interface SettingsSource {
  readonly layer: Layer;
  /** Absent for `--settings` given inline as JSON. */
  readonly path?: string;
  readonly found: boolean;
  readonly text?: string;
  readonly value?: SettingsValue;
  /** Why a file that is there was not used. */
  readonly error?: string;
  /** Where a rule written `/path` in this file is anchored. */
  readonly ruleRoot: string;
}

/** `~/.claude.json`: where accepting the trust dialog is recorded. */
export interface GlobalConfig {
  readonly path: string;
  readonly found: boolean;
  readonly value?: { readonly projects?: Readonly<Record<string, { readonly hasTrustDialogAccepted?: unknown }>>; readonly bypassPermissionsModeAccepted?: unknown };
}

/** Everything the decision reads besides the path: the files, and where the session runs. */
export interface Setup {
  readonly platform: Platform;
  readonly fs: DeciderFileSystem;
  readonly home: string;
  /** `$CLAUDE_CONFIG_DIR`, or `~/.claude`. */
  readonly configDir: string;
  /** The working folder as the process has it: its real path. */
  readonly cwd: string;
  /** `--add-dir`, each as given and as resolved. */
  readonly addDirs: readonly { readonly given: string; readonly path: string }[];
  readonly sources: readonly SettingsSource[];
  readonly global: GlobalConfig;
  readonly env: DeciderContext['env'];
}

/** Where managed settings live, per platform (Claude Code 2.1.332's own paths). */
export function managedFolder(platform: Platform): string {
  return platform === 'darwin' ? '/Library/Application Support/ClaudeCode' : platform === 'win32' ? 'C:\\Program Files\\ClaudeCode' : '/etc/claude-code';
}

function parseSettings(text: string): { value?: SettingsValue; error?: string } {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'it does not hold a JSON object' };
    return { value: value as SettingsValue };
  } catch (error) {
    return { error: `it is not valid JSON (${(error as Error).message})` };
  }
}

/** One settings file as Claude Code reads it: its text, its value, or why it is not used. */
export function readSource(fs: DeciderFileSystem, layer: Layer, path: string, ruleRoot: string): SettingsSource {
  const text = fs.readText(path);
  if (text === undefined) return { layer, path, found: false, ruleRoot };
  return { layer, path, found: true, text, ruleRoot, ...parseSettings(text) };
}

/** The real path of a path that exists (`fs.realpath`), or the path as given. */
function realOr(fs: DeciderFileSystem, path: string, platform: Platform): string {
  const real = nodeRealpath(fs, path, platform);
  return real.ok ? real.path : path;
}

/** Reads every file Claude Code would read for a decision, in the layers' order. */
export function readSetup(context: DeciderContext): Setup {
  const { platform, fs, home, env } = context;
  const path = nodePath(platform);
  // The working folder as a process started there has it (`getcwd`: every link resolved).
  const cwd = realOr(fs, path.resolve(context.cwd, context.cwd), platform);
  const configDir = env.CLAUDE_CONFIG_DIR ? path.resolve(cwd, expandHome(env.CLAUDE_CONFIG_DIR, home, platform)) : path.join(home, '.claude');
  const sources: SettingsSource[] = [];

  const managed = managedFolder(platform);
  sources.push(readSource(fs, 'managed', path.join(managed, 'managed-settings.json'), cwd));
  const dropIns = path.join(managed, 'managed-settings.d');
  for (const name of [...(fs.listNames?.(dropIns, 1000) ?? [])].filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort()) {
    sources.push(readSource(fs, 'managed', path.join(dropIns, name), cwd));
  }
  // `--settings <file-or-json>`.
  const flag = context.flags?.settings;
  if (flag !== undefined) {
    const given = flag.trim();
    if (given.startsWith('{')) sources.push({ layer: 'flag', found: true, text: given, ruleRoot: cwd, ...parseSettings(given) });
    else {
      const file = path.resolve(cwd, expandHome(flag, home, platform));
      sources.push(readSource(fs, 'flag', file, path.dirname(file)));
    }
  }
  sources.push(readSource(fs, 'local', path.join(cwd, '.claude', 'settings.local.json'), cwd));
  const userFile = path.join(configDir, 'settings.json');
  const projectFile = path.join(cwd, '.claude', 'settings.json');
  // Started in the home folder, the project's file is the user's: it is read once, as the user's.
  if (projectFile !== userFile) sources.push(readSource(fs, 'project', projectFile, cwd));
  sources.push(readSource(fs, 'user', userFile, configDir));

  const globalPath = env.CLAUDE_CONFIG_DIR ? path.join(configDir, '.claude.json') : path.join(home, '.claude.json');
  const globalText = fs.readText(globalPath);
  const globalValue = (globalText === undefined ? undefined : parseSettings(globalText).value) as GlobalConfig['value'];
  const global: GlobalConfig = { path: globalPath, found: globalText !== undefined, ...(globalValue ? { value: globalValue } : {}) };

  const addDirs = context.addDirs.map((given) => ({ given, path: path.resolve(cwd, expandHome(given, home, platform)) }));
  return { platform, fs, home, configDir, cwd, addDirs, sources, global, env };
}

/**
 * The 1-based line of `permissions.<key>` in a settings file, or of the entry `value` in that
 * list; the nearest enclosing setting's where it is not there (a fix adds it there).
 */
export function permissionLine(source: { readonly text?: string; readonly value?: SettingsValue }, key: keyof NonNullable<SettingsValue['permissions']>, value?: string): number | undefined {
  if (source.text === undefined) return undefined;
  const list = source.value?.permissions?.[key];
  const index = value !== undefined && Array.isArray(list) ? list.indexOf(value) : -1;
  return lineOf(source.text, ['permissions', key, ...(index >= 0 ? [index] : [])]);
}

/** The strings of a list setting, skipping what is not a string (Claude Code reports those and goes on). */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** Where the working folder's trust is recorded, and whether it is given. */
export interface Trust {
  readonly trusted: boolean;
  /** The key in `projects` that counts: the git repository's top folder, or the working folder. */
  readonly key: string;
  readonly how: string;
}

/**
 * Whether the working folder is trusted: `projects[<key>].hasTrustDialogAccepted` in
 * `~/.claude.json`, the key being the top of the git repository holding the working folder, or
 * the working folder itself outside any repository (`CLAUDE_CODE_SANDBOXED` trusts every folder).
 */
export function trustOf(setup: Setup): Trust {
  const path = nodePath(setup.platform);
  let key = setup.cwd;
  for (let folder = setup.cwd; ; folder = path.dirname(folder)) {
    if (setup.fs.lstat(path.join(folder, '.git')).kind !== 'missing') {
      key = folder;
      break;
    }
    if (path.dirname(folder) === folder) break;
  }
  if (setup.env.CLAUDE_CODE_SANDBOXED) return { trusted: true, key, how: 'CLAUDE_CODE_SANDBOXED is set: every folder is trusted' };
  const record = setup.global.value?.projects?.[key];
  if (record?.hasTrustDialogAccepted === true) return { trusted: true, key, how: `${setup.global.path} marks ${key} trusted (projects["${key}"].hasTrustDialogAccepted)` };
  return {
    trusted: false,
    key,
    how: setup.global.found
      ? `${setup.global.path} does not mark ${key} trusted (no projects["${key}"].hasTrustDialogAccepted: true)`
      : `${setup.global.path} is absent, so no folder is trusted`,
  };
}
