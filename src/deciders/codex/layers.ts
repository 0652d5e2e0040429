// Codex's configuration layers, read where Codex reads them and merged as it merges them (its
// config loader): the system config.toml, $CODEX_HOME/config.toml, the file --profile chooses,
// each trusted project's .codex/config.toml from the project's root down to the working folder,
// and the legacy managed_config.toml over them all. The configurations Codex will not start with
// are found here too.
import { joinSplit, type Platform, type SplitPath } from '../../core/index.js';
import type { ConfigFile, DeciderContext, Fix, RuleSource } from '../types.js';
import { absolutize, realFolder, show } from './paths.js';
import { isTable, lineOf, mergeTables, parseToml, tableSpan, tomlString, valueAt, type TomlTable } from './toml.js';

export type LayerKind = 'system' | 'user' | 'profile' | 'project' | 'managed';

export interface ConfigLayer {
  readonly kind: LayerKind;
  readonly file: string;
  /** The file's text; undefined when there is no such file. */
  readonly text: string | undefined;
  /** What the layer sets; empty when the file is absent or ignored. */
  readonly table: TomlTable;
  /** Why Codex loads the layer but does not apply it (an untrusted project). */
  readonly disabled?: string;
  /** The folder its relative paths are taken from: the file's own. */
  readonly base: SplitPath;
}

/** A configuration Codex stops at, before it asks its model anything. */
export interface Refusal {
  readonly reason: string;
  readonly source: RuleSource;
  readonly fixes: readonly Fix[];
}

export interface Configuration {
  readonly codexHome: string;
  /** The working folder as Codex takes it: its real path (Codex asks the kernel for it). */
  readonly cwd: SplitPath;
  /** Lowest precedence first. */
  readonly layers: readonly ConfigLayer[];
  /** Files Codex reads whose effect this model does not follow beyond saying they are there. */
  readonly unmodelled: readonly ConfigFile[];
  /** The enabled layers, merged. */
  readonly merged: TomlTable;
  readonly projectRoot: SplitPath;
  readonly repoRoot: SplitPath | undefined;
  readonly refusal?: Refusal;
}

export interface Setting {
  readonly value: unknown;
  readonly layer: ConfigLayer;
  readonly source: RuleSource;
}

export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
const APPROVAL_POLICIES = ['untrusted', 'on-failure', 'on-request', 'never'];

/** Keys a project's own .codex/config.toml may not set (they choose where credentials go, or what runs). */
const PROJECT_DENYLIST = ['openai_base_url', 'chatgpt_base_url', 'apps_mcp_product_sku', 'model_provider', 'model_providers', 'notify', 'profile', 'profiles', 'experimental_realtime_webrtc_call_base_url', 'experimental_realtime_ws_base_url', 'otel'];

const LAYER_ROLES: Readonly<Record<LayerKind, string>> = {
  system: 'system config.toml',
  user: 'user config.toml ($CODEX_HOME)',
  profile: 'profile (--profile)',
  project: "project's .codex/config.toml",
  managed: 'managed_config.toml (legacy managed configuration)',
};

export function roleOf(layer: ConfigLayer): string {
  return LAYER_ROLES[layer.kind];
}

/** The highest enabled layer that sets `path`, with the line it is set on. */
export function settingOf(config: Configuration, path: readonly string[]): Setting | undefined {
  for (let i = config.layers.length - 1; i >= 0; i--) {
    const layer = config.layers[i]!;
    if (layer.disabled !== undefined) continue;
    const value = valueAt(layer.table, path);
    if (value === undefined) continue;
    const line = layer.text !== undefined ? lineOf(layer.text, path) : undefined;
    return { value, layer, source: { text: `${path.join('.')} = ${showValue(value)}`, file: layer.file, ...(line !== undefined ? { line } : {}) } };
  }
  return undefined;
}

export function showValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (Array.isArray(value)) return `[${value.map(showValue).join(', ')}]`;
  if (isTable(value)) return `{ ${Object.entries(value).map(([key, inner]) => `${key} = ${showValue(inner)}`).join(', ')} }`;
  return String(value);
}

function systemFolder(ctx: DeciderContext): string {
  return ctx.platform === 'win32' ? `${ctx.env.ProgramData ?? ctx.env.PROGRAMDATA ?? 'C:\\ProgramData'}\\OpenAI\\Codex` : '/etc/codex';
}

const join = (folder: string, name: string, platform: Platform) => `${folder}${folder.endsWith(platform === 'win32' ? '\\' : '/') ? '' : platform === 'win32' ? '\\' : '/'}${name}`;

/** $CODEX_HOME, or ~/.codex; the text of a refusal when it is set to a folder that is not there. */
function codexHomeOf(ctx: DeciderContext, root: SplitPath): { home: string; missing?: string } {
  const set = ctx.env.CODEX_HOME;
  if (set !== undefined && set !== '') {
    const split = absolutize(set, root, ctx.platform);
    const real = realFolder(ctx.fs, split, ctx.platform);
    return real ? { home: show(real, ctx.platform) } : { home: show(split, ctx.platform), missing: set };
  }
  return { home: show(absolutize('.codex', absolutize(ctx.home, root, ctx.platform), ctx.platform), ctx.platform) };
}

export function loadConfiguration(ctx: DeciderContext): Configuration {
  const platform = ctx.platform;
  const top = { prefix: platform === 'win32' ? 'C:\\' : '/', names: [] };
  const given = absolutize(ctx.cwd, top, platform);
  const cwd = realFolder(ctx.fs, given, platform) ?? given;
  const { home: codexHome, missing: missingHome } = codexHomeOf(ctx, top);
  const homeSplit = absolutize(codexHome, top, platform);
  const system = systemFolder(ctx);
  const layers: ConfigLayer[] = [];
  const unmodelled: ConfigFile[] = [];
  let refusal: Refusal | undefined;
  const refuse = (value: Refusal) => {
    refusal ??= value;
  };

  const read = (kind: LayerKind, file: string, base: SplitPath): ConfigLayer => {
    const text = ctx.fs.readText(file);
    if (text === undefined) return { kind, file, text, table: {}, base };
    const parsed = parseToml(text);
    if (parsed.ok) return { kind, file, text, table: parsed.table, base };
    refuse({
      reason: `Codex stops at start: ${file} is not valid TOML (${parsed.reason}).`,
      source: { text: parsed.reason, file, ...(parsed.line !== undefined ? { line: parsed.line } : {}) },
      fixes: [{ text: `Correct the TOML of ${file}${parsed.line !== undefined ? ` at line ${parsed.line}` : ''}.`, file, ...(parsed.line !== undefined ? { line: parsed.line } : {}) }],
    });
    return { kind, file, text, table: {}, base };
  };

  const sandboxFlag = ctx.flags?.sandbox;
  if (sandboxFlag !== undefined && !(SANDBOX_MODES as readonly string[]).includes(sandboxFlag)) {
    refuse({
      reason: `Codex stops at start: --sandbox takes ${SANDBOX_MODES.join(', ')}, not ${tomlString(sandboxFlag)}.`,
      source: { text: `--sandbox ${sandboxFlag}`, flag: `--sandbox ${sandboxFlag}` },
      fixes: [{ text: 'Pass --sandbox workspace-write.', flag: '--sandbox workspace-write' }],
    });
  }
  if (missingHome !== undefined) {
    refuse({
      reason: `Codex stops at start: CODEX_HOME is ${tomlString(missingHome)}, which is not a folder.`,
      source: { text: `CODEX_HOME=${missingHome}` },
      fixes: [{ text: `Make the folder ${codexHome}, or unset CODEX_HOME to use ~/.codex.`, path: codexHome }],
    });
  }

  const systemBase = absolutize(system, top, platform);
  unmodelled.push(presence(ctx, join(system, 'requirements.toml', platform), 'requirements.toml (constraints from an administrator)'));
  layers.push(read('system', join(system, 'config.toml', platform), systemBase));
  const user = read('user', join(codexHome, 'config.toml', platform), homeSplit);
  layers.push(user);

  const profile = ctx.flags?.profile;
  if (profile !== undefined) {
    const selector = user.table.profile === profile;
    const table = isTable(user.table.profiles) && Object.hasOwn(user.table.profiles, profile);
    const profileFile = join(codexHome, `${profile}.config.toml`, platform);
    if (selector || table) {
      const header = user.text !== undefined ? tableSpan(user.text, ['profiles', profile]) : undefined;
      const selectorLine = user.text !== undefined && selector ? lineOf(user.text, ['profile']) : undefined;
      const fixes: Fix[] = [];
      if (selectorLine !== undefined) fixes.push({ text: `Delete the legacy selector \`profile = ${tomlString(profile)}\` from ${user.file}.`, file: user.file, line: selectorLine, add: '' });
      if (header !== undefined) {
        const body = user.text!.split(/\r?\n/).slice(header.line, header.line - 1 + header.lines).join('\n');
        fixes.push({ text: `Delete the legacy [profiles.${profile}] table (lines ${header.line}-${header.line + header.lines - 1}) from ${user.file}, and put its keys into ${profileFile}.`, file: user.file, line: header.line, lines: header.lines, add: '' });
        fixes.push({ text: `Write the keys of [profiles.${profile}] into ${profileFile}, the file --profile ${profile} reads.`, file: profileFile, add: `${body}\n` });
      }
      refuse({
        reason: `Codex stops at start: --profile \`${profile}\` cannot be used while ${user.file} contains legacy \`profile = "${profile}"\` or \`[profiles.${profile}]\` config; move those settings into ${profileFile} and remove the legacy profile selector/table.`,
        source: { text: selector ? `profile = ${tomlString(profile)}` : `[profiles.${profile}]`, file: user.file, ...((selectorLine ?? header?.line) !== undefined ? { line: (selectorLine ?? header?.line)! } : {}) },
        fixes,
      });
    }
    layers.push(read('profile', profileFile, homeSplit));
  }

  const beforeProjects = layers.reduce<TomlTable>((merged, layer) => mergeTables(merged, layer.table), {});
  const trust = trustOf(beforeProjects, layers, platform, refuse);
  const markersValue = valueAt(beforeProjects, ['project_root_markers']);
  const markers = Array.isArray(markersValue) && markersValue.every((marker) => typeof marker === 'string') ? (markersValue as string[]) : ['.git'];
  const ancestors = cwd.names.map((_, i) => ({ prefix: cwd.prefix, names: cwd.names.slice(0, cwd.names.length - i) })).concat([{ prefix: cwd.prefix, names: [] }]);
  const exists = (split: SplitPath, name: string) => ctx.fs.lstat(show({ prefix: split.prefix, names: [...split.names, name] }, platform)).kind !== 'missing';
  const projectRoot = markers.length === 0 ? cwd : (ancestors.find((dir) => markers.some((marker) => exists(dir, marker))) ?? cwd);
  const repoRoot = ancestors.find((dir) => exists(dir, '.git'));
  const trustedAs = (dir: SplitPath) => trust(show(dir, platform)) ?? trust(show(projectRoot, platform)) ?? (repoRoot ? trust(show(repoRoot, platform)) : undefined);

  for (const dir of ancestors.slice(0, ancestors.findIndex((candidate) => joinSplit(candidate, platform) === joinSplit(projectRoot, platform)) + 1).reverse()) {
    const dotCodex = { prefix: dir.prefix, names: [...dir.names, '.codex'] };
    const folder = realFolder(ctx.fs, dotCodex, platform);
    if (!folder || show(folder, platform) === codexHome || show(dotCodex, platform) === codexHome) continue;
    const file = join(show(dotCodex, platform), 'config.toml', platform);
    const level = trustedAs(dir);
    if (level?.value === 'trusted') {
      const layer = read('project', file, dotCodex);
      layers.push({ ...layer, table: withoutDenied(layer.table) });
      continue;
    }
    const text = ctx.fs.readText(file);
    const parsed = text === undefined ? undefined : parseToml(text);
    const disabled =
      level?.value === 'untrusted'
        ? `${show(dir, platform)} is marked as untrusted in ${level.file}: Codex loads this file but does not apply it.`
        : `${show(dir, platform)} is not a trusted project in ${user.file}: Codex loads this file but does not apply it.`;
    layers.push({ kind: 'project', file, text, table: parsed?.ok ? withoutDenied(parsed.table) : {}, disabled, base: dotCodex });
  }

  const managedFile = platform === 'win32' ? join(codexHome, 'managed_config.toml', platform) : join(system, 'managed_config.toml', platform);
  layers.push(read('managed', managedFile, platform === 'win32' ? homeSplit : systemBase));

  const merged = layers.filter((layer) => layer.disabled === undefined).reduce<TomlTable>((all, layer) => mergeTables(all, layer.table), {});
  const configuration: Configuration = { codexHome, cwd, layers, unmodelled, merged, projectRoot, repoRoot };
  if (refusal === undefined) refusal = invalidSettings(configuration);
  return refusal === undefined ? configuration : { ...configuration, refusal };
}

function presence(ctx: DeciderContext, path: string, role: string): ConfigFile {
  return { path, role, found: ctx.fs.readText(path) !== undefined, used: false };
}

function withoutDenied(table: TomlTable): TomlTable {
  return Object.fromEntries(Object.entries(table).filter(([key]) => !PROJECT_DENYLIST.includes(key)));
}

/**
 * The trust level `[projects."<path>"]` gives a folder, and the file that gives it. A level Codex
 * does not know stops it at start.
 */
function trustOf(merged: TomlTable, layers: readonly ConfigLayer[], platform: Platform, refuse: (refusal: Refusal) => void): (key: string) => { value: string; file: string; line?: number } | undefined {
  const projects = merged.projects;
  if (!isTable(projects)) return () => undefined;
  for (const [key, project] of Object.entries(projects)) {
    const level = isTable(project) ? project.trust_level : undefined;
    if (level === undefined || level === 'trusted' || level === 'untrusted') continue;
    const where = sourceIn(layers, ['projects', key, 'trust_level']);
    refuse({
      reason: `Codex stops at start: unknown variant ${showValue(level)}, expected \`trusted\` or \`untrusted\`, in projects.${key}.trust_level.`,
      source: { text: `trust_level = ${showValue(level)}`, ...where },
      fixes: [{ text: `Write trust_level = "trusted" for ${key}.`, ...where, add: 'trust_level = "trusted"' }],
    });
  }
  // Windows paths are looked up without regard to letter case.
  const keyOf = (key: string) => (platform === 'win32' ? Object.keys(projects).find((candidate) => candidate.toLowerCase() === key.toLowerCase()) : key);
  return (path) => {
    const key = keyOf(path);
    if (key === undefined) return undefined;
    const project = projects[key];
    const level = isTable(project) ? project.trust_level : undefined;
    if (typeof level !== 'string') return undefined;
    return { value: level, ...sourceIn(layers, ['projects', key, 'trust_level']) };
  };
}

/** The file and line of the highest layer writing `path`. */
function sourceIn(layers: readonly ConfigLayer[], path: readonly string[]): { file: string; line?: number } {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!;
    if (layer.disabled !== undefined || valueAt(layer.table, path) === undefined) continue;
    const line = layer.text !== undefined ? lineOf(layer.text, path) : undefined;
    return { file: layer.file, ...(line !== undefined ? { line } : {}) };
  }
  return { file: layers[0]!.file };
}

/** A fix that rewrites the line setting `path` (or deletes it, with `add` empty). */
function rewrite(setting: Setting, text: string, add: string): Fix {
  return { text, file: setting.layer.file, ...(setting.source.line !== undefined ? { line: setting.source.line } : {}), add };
}

/** Values Codex cannot read, and the settings it no longer takes: each stops it at start. */
function invalidSettings(config: Configuration): Refusal | undefined {
  const mode = settingOf(config, ['sandbox_mode']);
  if (mode && !(SANDBOX_MODES as readonly unknown[]).includes(mode.value)) {
    return {
      reason: `Codex stops at start: unknown variant ${showValue(mode.value)}, expected one of ${SANDBOX_MODES.map((name) => `\`${name}\``).join(', ')} in \`sandbox_mode\`.`,
      source: mode.source,
      fixes: [rewrite(mode, 'Write one of the three modes Codex knows.', 'sandbox_mode = "workspace-write"')],
    };
  }
  const approval = settingOf(config, ['approval_policy']);
  if (approval && typeof approval.value === 'string' && !APPROVAL_POLICIES.includes(approval.value)) {
    return {
      reason: `Codex stops at start: unknown variant ${showValue(approval.value)} in \`approval_policy\`.`,
      source: approval.source,
      fixes: [rewrite(approval, 'Write an approval policy Codex knows.', 'approval_policy = "on-request"')],
    };
  }
  const wrongType = typeProblem(config);
  if (wrongType) return wrongType;
  const legacy = settingOf(config, ['profile']);
  if (legacy && typeof legacy.value === 'string') {
    const name = legacy.value;
    return {
      reason: `Codex stops at start: legacy \`profile = "${name}"\` config is no longer supported; use \`--profile ${name}\` with \`${name}.config.toml\` instead.`,
      source: legacy.source,
      fixes: [rewrite(legacy, `Delete the legacy selector \`profile = ${tomlString(name)}\`, and choose a profile with --profile ${name}, from ${name}.config.toml in $CODEX_HOME.`, '')],
    };
  }
  if (approval?.value === 'untrusted') {
    return {
      reason: 'Codex stops at start: approval_policy = "untrusted" is no longer supported; remove this setting.',
      source: approval.source,
      fixes: [rewrite(approval, 'Delete the approval_policy = "untrusted" line.', '')],
    };
  }
  return undefined;
}

function typeProblem(config: Configuration): Refusal | undefined {
  const expect = (path: string[], ok: (value: unknown) => boolean, what: string): Refusal | undefined => {
    const setting = settingOf(config, path);
    if (!setting || ok(setting.value)) return undefined;
    return {
      reason: `Codex stops at start: invalid type in \`${path.join('.')}\`: expected ${what}, found ${showValue(setting.value)}.`,
      source: setting.source,
      fixes: [{ text: `Write ${path.join('.')} as ${what}.`, file: setting.layer.file, ...(setting.source.line !== undefined ? { line: setting.source.line } : {}) }],
    };
  };
  const isBoolean = (value: unknown) => typeof value === 'boolean';
  return (
    expect(['sandbox_workspace_write'], isTable, 'a table') ??
    expect(['sandbox_workspace_write', 'writable_roots'], (value) => Array.isArray(value) && value.every((entry) => typeof entry === 'string'), 'an array of paths') ??
    expect(['sandbox_workspace_write', 'exclude_slash_tmp'], isBoolean, 'a boolean') ??
    expect(['sandbox_workspace_write', 'exclude_tmpdir_env_var'], isBoolean, 'a boolean') ??
    expect(['sandbox_workspace_write', 'network_access'], isBoolean, 'a boolean') ??
    expect(['windows', 'sandbox'], (value) => value === 'elevated' || value === 'unelevated', '"elevated" or "unelevated"')
  );
}

/** Every file Codex reads for this decision, found or not, and whether it shaped it. */
export function configFiles(config: Configuration, used: ReadonlySet<string>): ConfigFile[] {
  return [
    ...config.unmodelled,
    ...config.layers.map((layer) => ({ path: layer.file, role: roleOf(layer) + (layer.disabled !== undefined ? ', not applied' : ''), found: layer.text !== undefined, used: used.has(layer.file) })),
  ];
}
