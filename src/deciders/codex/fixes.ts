// What would let a refused change through, each offer tried on the model first (a fix that would
// not turn the decision to allow is not offered). A fix with a line replaces that line (and
// `lines` - 1 after it) with `add`; a fix without one adds `add` at the end of its file, making
// the file when there is none.
import type { DeciderContext, Fix } from '../types.js';
import type { Configuration, ConfigLayer, SandboxMode } from './layers.js';
import { judgeChange, type ChangeTool } from './judge.js';
import type { ModeChoice } from './mode.js';
import { realFolder, show, type Landing } from './paths.js';
import { makeRoot, type Roots, type WritableRoot } from './roots.js';
import { entries, tomlString } from './toml.js';
import type { SplitPath } from '../../core/index.js';

export interface ChangeRequest {
  readonly config: Configuration;
  readonly ctx: DeciderContext;
  readonly mode: ModeChoice;
  readonly tool: ChangeTool;
  readonly written: SplitPath;
  readonly land: Landing;
  /** The roots workspace-write would have (whatever the mode now is). */
  readonly roots: Roots;
}

const lineAt = (text: string, line: number) => text.split(/\r?\n/)[line - 1] ?? '';

function userLayer(config: Configuration): ConfigLayer {
  return config.layers.find((layer) => layer.kind === 'user')!;
}

/** A top-level `key = value` line for a layer's file: before its first line, so no table takes it in. */
function topLevel(layer: ConfigLayer, keyLine: string): Pick<Fix, 'file' | 'line' | 'add'> {
  if (layer.text === undefined || layer.text.trim() === '') return { file: layer.file, add: keyLine };
  return { file: layer.file, line: 1, add: `${keyLine}\n${lineAt(layer.text, 1)}` };
}

/** The mode set wherever it is set now: the line that sets it, or a new top-level line in config.toml. */
function modeFix(r: ChangeRequest, mode: SandboxMode, why: string): Fix[] {
  const keyLine = `sandbox_mode = ${tomlString(mode)}`;
  const flag: Fix = { text: `Pass --sandbox ${mode}${why}.`, flag: `--sandbox ${mode}` };
  if (r.mode.by === 'flag') return [flag];
  const setting = r.mode.by === 'config' ? r.mode.setting : undefined;
  if (setting && setting.source.line !== undefined) return [{ text: `Set ${keyLine} in ${setting.layer.file}${why}.`, file: setting.layer.file, line: setting.source.line, add: keyLine }, flag];
  const user = userLayer(r.config);
  return [{ text: `Add ${keyLine} at the top of ${user.file}${why}.`, ...topLevel(user, keyLine) }, flag];
}

/** Whether the change would pass with these roots. */
function passes(r: ChangeRequest, roots: readonly WritableRoot[]): boolean {
  return judgeChange(r.tool, r.written, r.land, roots).allowed;
}

/** The nearest folder at or above `split` that is there (through links), as written. */
function existingFolder(r: ChangeRequest, split: SplitPath): SplitPath | undefined {
  for (let depth = split.names.length; depth >= 0; depth--) {
    const candidate = { prefix: split.prefix, names: split.names.slice(0, depth) };
    if (realFolder(r.ctx.fs, candidate, r.ctx.platform)) return candidate;
  }
  return undefined;
}

/** The folders to add as writable roots, tried from the narrowest: the one the path names, then the one it lands in. */
function rootsToAdd(r: ChangeRequest): SplitPath[] | undefined {
  const parent = (split: SplitPath) => ({ prefix: split.prefix, names: split.names.slice(0, -1) });
  const named = existingFolder(r, parent(r.written));
  const landed = existingFolder(r, parent(r.land.real));
  // When Codex's own check passed, the folder the write lands in is the narrower change; else the one it names.
  const patchPasses = r.tool === 'apply_patch' && judgeChange(r.tool, r.written, r.land, r.roots.roots).patch?.writable === true;
  const first = r.tool === 'shell-write' || patchPasses ? [landed, named] : [named, landed];
  const candidates = [first[0] ? [first[0]] : [], first[1] ? [first[1]] : [], named && landed ? [named, landed] : []].filter((set) => set.length > 0);
  for (const set of candidates) {
    const extra = set.map((split) => makeRoot(r.ctx, split, 'writable_roots', { text: show(split, r.ctx.platform) }));
    if (passes(r, [...r.roots.roots, ...extra])) return set;
  }
  return undefined;
}

/** `writable_roots` with more entries, in the file whose `writable_roots` applies, else in config.toml. */
function writableRootsFix(r: ChangeRequest, dirs: readonly string[]): Fix {
  const listed = dirs.map(tomlString).join(', ');
  const setting = r.roots.setting;
  const text = `Add ${dirs.join(' and ')} to writable_roots in ${setting?.layer.file ?? userLayer(r.config).file}.`;
  if (setting?.layer.text !== undefined) {
    const entry = entries(setting.layer.text).find((candidate) => !candidate.header && candidate.path.join('.') === 'sandbox_workspace_write.writable_roots');
    if (!entry) return { text, file: setting.layer.file, ...(setting.source.line !== undefined ? { line: setting.source.line } : {}) };
    const line = lineAt(setting.layer.text, entry.line);
    if (entry.end === entry.line) {
      const close = line.lastIndexOf(']');
      const open = line.indexOf('[');
      const empty = line.slice(open + 1, close).trim() === '';
      return { text, file: setting.layer.file, line: entry.line, add: `${line.slice(0, close).trimEnd()}${empty ? '' : ', '}${listed}${line.slice(close)}` };
    }
    return { text, file: setting.layer.file, line: entry.line, add: `${line}${/[[,]\s*$/.test(line) ? '' : ','}\n  ${listed},` };
  }
  // The table may be a [header], dotted keys at the top, or an inline table (which cannot take a line of its own).
  const user = userLayer(r.config);
  const spelled = user.text !== undefined ? entries(user.text).filter((entry) => entry.path[0] === 'sandbox_workspace_write') : [];
  const header = spelled.find((entry) => entry.header && entry.path.length === 1);
  if (header) return { text, file: user.file, line: header.line, add: `${lineAt(user.text!, header.line)}\nwritable_roots = [${listed}]` };
  const inline = spelled.find((entry) => !entry.header && entry.path.length === 1);
  if (inline) return { text, file: user.file, line: inline.line };
  if (spelled.length > 0) return { text, ...topLevel(user, `sandbox_workspace_write.writable_roots = [${listed}]`) };
  return { text, file: user.file, add: `[sandbox_workspace_write]\nwritable_roots = [${listed}]` };
}

/** Fixes for a change refused in read-only mode. */
export function readOnlyFixes(r: ChangeRequest): Fix[] {
  const workspace = passes(r, r.roots.roots);
  const fixes: Fix[] = [];
  if (workspace && r.mode.by === 'default') {
    const user = userLayer(r.config);
    const key = show(r.config.cwd, r.ctx.platform);
    fixes.push({ text: `Mark ${key} as a trusted project in ${user.file}: with no sandbox_mode set, Codex then runs it in workspace-write.`, file: user.file, add: `[projects.${tomlString(key)}]\ntrust_level = "trusted"` });
  }
  if (r.ctx.platform === 'win32') fixes.push({ text: 'Turn on Codex\'s own Windows sandbox with [windows] sandbox = "unelevated" in config.toml: without it, Codex runs workspace-write as read-only.', file: userLayer(r.config).file });
  return [...fixes, ...modeFix(r, workspace ? 'workspace-write' : 'danger-full-access', workspace ? '' : ': Codex then writes anywhere, with no sandbox and no protected folders')];
}

/** Fixes for a change refused in workspace-write. */
export function workspaceFixes(r: ChangeRequest): Fix[] {
  const platform = r.ctx.platform;
  const fixes: Fix[] = [];
  for (const exclusion of r.roots.exclusions) {
    if (!exclusion.root || !passes(r, [...r.roots.roots, exclusion.root])) continue;
    const key = exclusion.kind === 'slash-tmp' ? 'exclude_slash_tmp' : 'exclude_tmpdir_env_var';
    const { layer, source } = exclusion.setting;
    // The line as written (a dotted key, an inline table), its `true` made `false`.
    const add = source.line !== undefined && layer.text !== undefined ? lineAt(layer.text, source.line).replace(new RegExp(`(${key}\\s*=\\s*)true`), '$1false') : undefined;
    fixes.push({ text: `Set ${key} = false in ${layer.file}.`, file: layer.file, ...(add !== undefined ? { line: source.line!, add } : {}) });
  }
  if (r.tool === 'apply_patch' && r.land.resolved && show(r.land.real, platform) !== show(r.written, platform)) {
    if (judgeChange(r.tool, r.land.real, r.land, r.roots.roots).allowed) fixes.push({ text: `Write to ${show(r.land.real, platform)}, the path without links, which both of Codex's checks let through.`, path: show(r.land.real, platform) });
  }
  const dirs = rootsToAdd(r)?.map((split) => show(split, platform));
  if (dirs) {
    fixes.push(writableRootsFix(r, dirs));
    fixes.push({ text: `Pass ${dirs.map((dir) => `--add-dir ${dir}`).join(' ')}.`, flag: dirs.map((dir) => `--add-dir ${dir}`).join(' ') });
  }
  if (fixes.length === 0) fixes.push(...modeFix(r, 'danger-full-access', ': Codex then writes anywhere, with no sandbox and no protected folders'));
  return fixes;
}
