// The writable roots of workspace-write (the working folder, `writable_roots`, --add-dir, /tmp and
// $TMPDIR) with the folders each keeps read-only at its top, and the two checks a change meets:
// Codex's own check of a patch, on the path as written, and the sandbox's, on the real path.
import { isInside, type Comparison, type Platform, type SplitPath } from '../../core/index.js';
import type { DeciderContext, RuleSource } from '../types.js';
import { settingOf, showValue, type Configuration, type Setting } from './layers.js';
import { absolutize, BYTEWISE, realFolder, show } from './paths.js';

/**
 * Read-only at the top of every writable root, whether or not they exist yet (as observed in
 * 0.171.0: `.git`, `.codex`, `.agents` and `.aws`); a repository's `.git` deeper down is writable.
 */
export const PROTECTED_NAMES = ['.git', '.codex', '.agents', '.aws'] as const;

export type RootKind = 'cwd' | 'writable_roots' | 'add-dir' | 'slash-tmp' | 'tmpdir';

export interface WritableRoot {
  readonly kind: RootKind;
  /** As Codex holds it: absolute, `.` and `..` taken away by name, links not followed. */
  readonly written: SplitPath;
  /** The folder the sandbox makes writable: the real path; null when nothing is there to bind. */
  readonly real: SplitPath | null;
  readonly source: RuleSource;
  /** The folder a `.git` file at its top points to (a worktree's or a submodule's), read-only too. */
  readonly gitdir?: SplitPath;
}

export interface Exclusion {
  readonly kind: 'slash-tmp' | 'tmpdir';
  readonly setting: Setting;
  /** The root it kept out, when there was one to keep out. */
  readonly root: WritableRoot | null;
}

export interface Roots {
  readonly roots: readonly WritableRoot[];
  readonly exclusions: readonly Exclusion[];
  /** The `writable_roots` that applied, from the highest layer setting it. */
  readonly setting?: Setting;
  /** Entries written relative, with the folder they were taken from. */
  readonly relative: readonly { readonly entry: string; readonly base: string }[];
}

export function makeRoot(ctx: DeciderContext, written: SplitPath, kind: RootKind, source: RuleSource): WritableRoot {
  const real = realFolder(ctx.fs, written, ctx.platform);
  const gitdir = gitdirOf(ctx, written);
  return { kind, written, real, source, ...(gitdir ? { gitdir } : {}) };
}

function gitdirOf(ctx: DeciderContext, root: SplitPath): SplitPath | undefined {
  const dotGit = { prefix: root.prefix, names: [...root.names, '.git'] };
  if (ctx.fs.lstat(show(dotGit, ctx.platform)).kind !== 'file') return undefined;
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(ctx.fs.readText(show(dotGit, ctx.platform)) ?? '');
  return pointer ? absolutize(pointer[1]!, root, ctx.platform) : undefined;
}

export function writableRootsOf(config: Configuration, ctx: DeciderContext): Roots {
  const platform = ctx.platform;
  const roots: WritableRoot[] = [makeRoot(ctx, config.cwd, 'cwd', { text: `the working folder ${show(config.cwd, platform)}` })];
  const relative: { entry: string; base: string }[] = [];
  const setting = settingOf(config, ['sandbox_workspace_write', 'writable_roots']);
  if (setting && Array.isArray(setting.value)) {
    for (const entry of setting.value as string[]) {
      const written = absolutize(entry, setting.layer.base, platform, ctx.home);
      if (!isAbsoluteEntry(entry, platform)) relative.push({ entry, base: show(setting.layer.base, platform) });
      roots.push(makeRoot(ctx, written, 'writable_roots', { text: `writable_roots entry ${showValue(entry)}`, file: setting.layer.file, ...(setting.source.line !== undefined ? { line: setting.source.line } : {}) }));
    }
  }
  for (const dir of ctx.addDirs) roots.push(makeRoot(ctx, absolutize(dir, config.cwd, platform, ctx.home), 'add-dir', { text: `--add-dir ${dir}`, flag: `--add-dir ${dir}` }));

  const exclusions: Exclusion[] = [];
  for (const { kind, key, root } of tempRoots(ctx)) {
    const excluded = settingOf(config, ['sandbox_workspace_write', key]);
    if (excluded?.value === true) exclusions.push({ kind, setting: excluded, root });
    else if (root) roots.push(root);
  }
  return { roots, exclusions, ...(setting ? { setting } : {}), relative };
}

const isAbsoluteEntry = (entry: string, platform: Platform) => entry === '~' || entry.startsWith('~/') || (platform === 'win32' ? /^(?:[A-Za-z]:)?[\\/]/.test(entry) : entry.startsWith('/'));

/** /tmp (when it is a folder; not on Windows) and $TMPDIR (when set to an absolute path), writable unless excluded. */
function tempRoots(ctx: DeciderContext): { kind: 'slash-tmp' | 'tmpdir'; key: string; root: WritableRoot | null }[] {
  const platform = ctx.platform;
  const top = { prefix: platform === 'win32' ? 'C:\\' : '/', names: [] };
  const slashTmp = platform === 'win32' ? null : { prefix: '/', names: ['tmp'] };
  const tmpdir = ctx.env.TMPDIR;
  const tmpdirSplit = tmpdir !== undefined && tmpdir !== '' && isAbsoluteEntry(tmpdir, platform) ? absolutize(tmpdir, top, platform, ctx.home) : null;
  return [
    { kind: 'slash-tmp', key: 'exclude_slash_tmp', root: slashTmp && realFolder(ctx.fs, slashTmp, platform) ? makeRoot(ctx, slashTmp, 'slash-tmp', { text: '/tmp, writable in workspace-write unless exclude_slash_tmp = true' }) : null },
    { kind: 'tmpdir', key: 'exclude_tmpdir_env_var', root: tmpdirSplit ? makeRoot(ctx, tmpdirSplit, 'tmpdir', { text: `$TMPDIR (${tmpdir}), writable in workspace-write unless exclude_tmpdir_env_var = true` }) : null },
  ];
}

export interface Check {
  readonly writable: boolean;
  /** The root that lets the path through. */
  readonly root?: WritableRoot;
  /** The protected folder that kept it read-only, and the root it sits at the top of. */
  readonly protectedBy?: { readonly root: WritableRoot; readonly folder: SplitPath };
}

/**
 * The most specific entry holding the path decides, as in Codex's filesystem policy: each root is
 * a writable entry and each of its protected folders a read-only one, so a nested root's `.git`
 * stays read-only under an outer root, and a protected folder named as a root of its own (as
 * specific as the protection) is writable: at equal depth, write wins over read.
 */
function check(target: SplitPath, roots: readonly WritableRoot[], pick: (root: WritableRoot) => SplitPath | null, comparison: Comparison): Check {
  let best: { depth: number; root: WritableRoot; folder?: SplitPath } | undefined;
  const consider = (depth: number, root: WritableRoot, folder?: SplitPath) => {
    if (!best || depth > best.depth || (depth === best.depth && folder === undefined && best.folder !== undefined)) best = { depth, root, ...(folder ? { folder } : {}) };
  };
  for (const root of roots) {
    const base = pick(root);
    if (!base || !isInside(base, target, comparison)) continue;
    consider(base.names.length, root);
    const folders = [...PROTECTED_NAMES.map((name) => ({ prefix: base.prefix, names: [...base.names, name] })), ...(root.gitdir ? [root.gitdir] : [])];
    for (const folder of folders) if (isInside(folder, target, comparison)) consider(folder.names.length, root, folder);
  }
  if (!best) return { writable: false };
  return best.folder ? { writable: false, protectedBy: { root: best.root, folder: best.folder } } : { writable: true, root: best.root };
}

/**
 * Codex's own check of a patch (assess_patch_safety): the path as written against the roots as
 * written, names compared as bytes (another `comparison` asks what a folding disk would say).
 */
export function patchCheck(path: SplitPath, roots: readonly WritableRoot[], comparison: Comparison = BYTEWISE): Check {
  return check(path, roots, (root) => root.written, comparison);
}

/** The sandbox's: where the write lands against the roots' real paths; a root that does not exist makes nothing writable. */
export function sandboxCheck(real: SplitPath, roots: readonly WritableRoot[]): Check {
  return check(real, roots, (root) => root.real, BYTEWISE);
}
