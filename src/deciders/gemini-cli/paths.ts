// Gemini CLI's own path rules (its core's utils/paths.js and workspaceContext.js), over the
// decider's disk: percent-decoding before links are resolved, its link resolution that keeps a
// missing tail, the two ways it tells whether a path is under a folder, and the names it refuses.
import type { Platform } from '../../core/index.js';
import { nodePath, nodeRealpath, type NodePath } from '../shared/node.js';
import type { DeciderFileSystem } from '../types.js';

/** Node's path as Gemini CLI's process calls it: `relative` from its own working folder. */
export type ProcessPath = Omit<NodePath, 'relative'> & { relative(from: string, to: string): string };

/** The disk and the platform as Gemini CLI's process sees them. */
export interface GeminiHost {
  readonly platform: Platform;
  readonly fs: DeciderFileSystem;
  readonly path: ProcessPath;
  /** The working folder as the process sees it: its real path (getcwd(3) resolves links). */
  readonly processCwd: string;
}

export function geminiHost(platform: Platform, fs: DeciderFileSystem, cwd: string): GeminiHost {
  const node = nodePath(platform);
  const given = node.resolve('/', cwd);
  const processCwd = realpathOf({ fs, platform }, given) ?? given;
  return { platform, fs, processCwd, path: { ...node, relative: (from, to) => node.relative(processCwd, from, to) } };
}

/** A path Gemini CLI could not resolve (a loop of links, a lookup the disk refused): it throws. */
export class GeminiPathError extends Error {}

/** A path as the disk is asked about it: Windows takes `/` as `\`. */
export function onDisk(platform: Platform, path: string): string {
  return platform === 'win32' ? path.replace(/\//g, '\\') : path;
}

/**
 * fs.realpathSync of an existing entry, or undefined when there is none. Gemini CLI uses Node's
 * own walk on Linux and macOS (links resolved, names kept as typed: on macOS a name typed in
 * another case stays so) and the system's on Windows (which gives the stored case).
 */
export function realpathOf(host: Pick<GeminiHost, 'fs' | 'platform'>, given: string): string | undefined {
  const path = onDisk(host.platform, given);
  if (host.fs.realpath && host.platform !== 'darwin') return host.fs.realpath(path) ?? undefined;
  const real = nodeRealpath(host.fs, path, host.platform);
  return real.ok ? real.path : undefined;
}

/** Whether an entry exists, links followed (fs.existsSync). */
export function exists(host: GeminiHost, path: string): boolean {
  return realpathOf(host, path) !== undefined;
}

/**
 * robustRealpath: the real path of what exists; a link whose target is missing is followed to
 * where it points; a missing tail is kept as written under its parent's real path.
 */
function robustRealpath(host: GeminiHost, path: string, visited: Set<string>): string {
  const key = host.platform === 'win32' ? path.toLowerCase() : path;
  if (visited.has(key)) throw new GeminiPathError(`Infinite recursion detected in robustRealpath: ${path}`);
  visited.add(key);
  const real = realpathOf(host, path);
  if (real !== undefined) return stripExtendedLengthPrefix(real);
  const look = host.fs.lstat(onDisk(host.platform, path));
  if (look.kind === 'error') throw new GeminiPathError(`${look.errno}: ${path}`);
  if (look.kind === 'symlink') {
    const target = host.fs.readlink(onDisk(host.platform, path));
    if (!target.ok) throw new GeminiPathError(`${target.errno}: ${path}`);
    return robustRealpath(host, host.path.resolve(host.path.dirname(path), target.target), visited);
  }
  const parent = host.path.dirname(path);
  if (parent === path) return path;
  return host.path.join(robustRealpath(host, parent, visited), host.path.basename(path));
}

function stripExtendedLengthPrefix(path: string): string {
  if (/^[\\/]{2}\?[\\/](?:UNC|unc)[\\/]/.test(path)) return `\\\\${path.slice(8)}`;
  if (/^[\\/]{2}\?[\\/]/.test(path)) return path.slice(4);
  return path;
}

/** decodeURIComponent, or the text unchanged when it holds a malformed escape (Gemini CLI catches the error). */
export function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * resolveToRealPath: percent-decoded (`%2e%2e` becomes `..`), made absolute against the process's
 * working folder, links resolved. Throws a GeminiPathError where Gemini CLI throws.
 */
export function resolveToRealPath(host: GeminiHost, path: string): string {
  if (path.includes('\0')) throw new GeminiPathError(`Invalid path: ${path}`);
  return robustRealpath(host, host.path.resolve(host.processCwd, percentDecoded(path)), new Set());
}

/** isSubpath: by path.relative, folding case on macOS and Windows. */
export function isSubpath(host: GeminiHost, parent: string, child: string): boolean {
  const { path } = host;
  let p = path.resolve(host.processCwd, parent);
  let c = path.resolve(host.processCwd, child);
  if (host.platform === 'darwin') {
    p = p.toLowerCase();
    c = c.toLowerCase();
  }
  return isRelativeInside(path, path.relative(p, c));
}

/** WorkspaceContext.isPathWithinRoot: by path.relative, which folds case on Windows only (not on macOS). */
export function isPathWithinRoot(host: GeminiHost, path: string, root: string): boolean {
  return isRelativeInside(host.path, host.path.relative(root, path));
}

function isRelativeInside(path: ProcessPath, relative: string): boolean {
  return !relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative);
}

/** normalizePath (folder trust): absolute, forward slashes, lower case on macOS and Windows. */
export function normalizePath(host: GeminiHost, path: string): string {
  const absolute = host.path.resolve(host.processCwd, path).replace(/\\/g, '/');
  return host.platform === 'linux' ? absolute : absolute.toLowerCase();
}

/** A name without the spaces and dots Windows drops from its end. */
export function trimTrailingSpacesAndDots(name: string): string {
  return name.replace(/[ .]+$/, '');
}

const SHORT_NAMES = [/^(git|gi[0-9a-f]{4})~\d+$/, /^(env|en[0-9a-f]{4})~\d+$/, /^(node_m|no[0-9a-f]{4})~\d+$/, /^(gha-cr|gh[0-9a-f]{4})~\d+\.jso(n)?$/];

/**
 * The first name of a relative path that Gemini CLI keeps agents out of: `.git`, `.env`,
 * `node_modules` and `gha-creds-*.json`, compared after cutting an NTFS stream (`:x`), dropping
 * trailing dots and spaces and lowering the case, and their 8.3 short names; on every platform.
 */
export function blockedSegment(relative: string): string | undefined {
  for (const segment of relative.split(/[/\\]/)) {
    const clean = trimTrailingSpacesAndDots(segment.split(':')[0]!).toLowerCase();
    if (clean === '.git' || clean === '.env' || clean === 'node_modules') return segment;
    if ((clean.startsWith('gha-creds-') && clean.endsWith('.json')) || SHORT_NAMES.some((pattern) => pattern.test(clean))) return segment;
  }
  return undefined;
}

/**
 * resolveDefensiveToolPath: a path the model wrote as an `@` reference (`@src/a.ts`) loses its
 * `@` unless a name beginning with `@` is there.
 */
export function withoutReferenceMark(host: GeminiHost, filePath: string, targetDir: string): string {
  const clean = filePath.replace(/\0/g, '');
  if (exists(host, host.path.resolve(targetDir, clean))) return clean;
  if (!clean.startsWith('@') || clean.length === 1) return clean;
  const stripped = clean.slice(1).replace(/^[\\/]+/, '');
  if (clean.startsWith('@/') || clean.startsWith('@\\')) return stripped.length > 0 ? stripped : clean;
  const first = stripped.split(/[\\/]/)[0];
  if (!first) return clean;
  return exists(host, host.path.resolve(targetDir, `@${first}`)) ? clean : stripped;
}

/**
 * The disk of a simulated platform: nothing of this machine is read, so the folders the program
 * is started with (its working folder, the folders added, the home folder) are taken as existing
 * folders with no link on them, and nothing else is there.
 */
export function simulatedDisk(platform: Platform, folders: readonly string[]): DeciderFileSystem {
  const node = nodePath(platform);
  // One spelling per folder: normalised, no separator at the end but a root's, case folded where the disk folds it.
  const key = (path: string) => {
    const normal = node.normalize(path);
    const trimmed = /^([A-Za-z]:)?[\\/]$/.test(normal) ? normal : normal.replace(/[\\/]+$/, '');
    return platform === 'linux' ? trimmed : trimmed.toLowerCase();
  };
  const known = new Set<string>();
  for (const folder of folders) {
    for (let current = node.resolve(folders[0] ?? '/', folder); ; current = node.dirname(current)) {
      known.add(key(current));
      if (node.dirname(current) === current) break;
    }
  }
  return {
    lstat: (path) => (known.has(key(path)) ? { kind: 'directory', dev: 0n, ino: 0n } : { kind: 'missing' }),
    readlink: () => ({ ok: false, errno: 'EINVAL' }),
    readText: () => undefined,
  };
}
