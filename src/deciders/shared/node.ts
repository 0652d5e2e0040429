// What a program written for Node.js does with a path, for the deciders that model one (the
// reference filesystem server, Gemini CLI, Claude Code...): `path.resolve`, `path.normalize`,
// `path.join`, `path.relative`, `path.dirname` of `path.posix` or `path.win32` as the platform
// says, `fs.realpath` through the port, and the usual `~` expansion. Deciders are pure, so none of
// this can import node:path; test/deciders/node.test.ts holds each function to Node's own.
import { resolveReal, splitAbsolute, joinSplit, type Platform } from '../../core/index.js';
import type { DeciderFileSystem } from '../types.js';

/** Node's `path` functions for one platform; `resolve` takes the process's working folder first. */
export interface NodePath {
  readonly sep: '/' | '\\';
  /** The separator of a list of paths in one variable (PATH). */
  readonly delimiter: ':' | ';';
  isAbsolute(path: string): boolean;
  normalize(path: string): string;
  /** `path.resolve(...paths)` in a process whose working folder is `cwd`. */
  resolve(cwd: string, ...paths: readonly string[]): string;
  join(...paths: readonly string[]): string;
  /** `path.relative(from, to)`, in a process whose working folder is `cwd`. */
  relative(cwd: string, from: string, to: string): string;
  dirname(path: string): string;
  basename(path: string): string;
  extname(path: string): string;
}

/** The extension of a last name as Node finds it: from its last dot, unless that dot begins the name. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || name === '..' ? '' : name.slice(dot);
}

/**
 * The names of a path after its root, `.` dropped and `..` taken back, as Node normalises them:
 * a `..` above the start is kept only where the path is relative.
 */
function normalNames(rest: string, separators: RegExp, relative: boolean): string[] {
  const names: string[] = [];
  for (const name of rest.split(separators)) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (names.length > 0 && names[names.length - 1] !== '..') names.pop();
      else if (relative) names.push('..');
      continue;
    }
    names.push(name);
  }
  return names;
}

const POSIX_SEPARATORS = /\/+/;

const posix: NodePath = {
  sep: '/',
  delimiter: ':',
  isAbsolute: (path) => path.startsWith('/'),
  normalize(path) {
    if (path === '') return '.';
    const absolute = path.startsWith('/');
    const trailing = path.endsWith('/');
    const names = normalNames(path, POSIX_SEPARATORS, !absolute).join('/');
    if (names === '') return absolute ? '/' : trailing ? './' : '.';
    return `${absolute ? '/' : ''}${names}${trailing ? '/' : ''}`;
  },
  resolve(cwd, ...paths) {
    let joined = '';
    let absolute = false;
    for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
      const path = i >= 0 ? paths[i]! : cwd;
      if (path === '') continue;
      joined = `${path}/${joined}`;
      absolute = path.startsWith('/');
    }
    const names = normalNames(joined, POSIX_SEPARATORS, !absolute).join('/');
    return absolute ? `/${names}` : names === '' ? '.' : names;
  },
  join(...paths) {
    const kept = paths.filter((path) => path !== '');
    return kept.length === 0 ? '.' : posix.normalize(kept.join('/'));
  },
  relative(cwd, from, to) {
    const a = posix.resolve(cwd, from).split('/').filter(Boolean);
    const b = posix.resolve(cwd, to).split('/').filter(Boolean);
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
  },
  dirname(path) {
    if (path === '') return '.';
    const trimmed = path.replace(/(?<=.)\/+$/, '');
    const last = trimmed.lastIndexOf('/');
    if (last === -1) return '.';
    if (last === 0) return '/';
    return trimmed.slice(0, last).replace(/(?<=.)\/+$/, '');
  },
  basename(path) {
    const trimmed = path.replace(/\/+$/, '');
    return trimmed.slice(trimmed.lastIndexOf('/') + 1);
  },
  extname: (path) => extensionOf(posix.basename(path)),
};

const WIN32_SEPARATORS = /[\\/]+/;
const isWin32Separator = (char: string | undefined) => char === '\\' || char === '/';

/**
 * The root of a Windows path as Node reads it: the device (`C:`, `\\server\share`), where the
 * rest begins, and whether the path is absolute. `uncAlone` is what a bare `\\server\share`
 * becomes: normalize adds a separator, resolve keeps it as the device.
 */
function win32Root(path: string): { device: string; rootEnd: number; absolute: boolean; uncAlone?: string } {
  if (path.length === 0) return { device: '', rootEnd: 0, absolute: false };
  if (isWin32Separator(path[0])) {
    if (!isWin32Separator(path[1])) return { device: '', rootEnd: 1, absolute: true };
    // `\\server\share`: a server name, separators, a share name.
    const server = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)[\\/]?/.exec(path);
    if (server) {
      const device = `\\\\${server[1]}\\${server[2]}`;
      if (server[0].length === path.length && !isWin32Separator(path[path.length - 1])) return { device, rootEnd: path.length, absolute: true, uncAlone: device };
      return { device, rootEnd: server[0].length, absolute: true };
    }
    return { device: '', rootEnd: 1, absolute: true };
  }
  if (/^[A-Za-z]:/.test(path)) {
    const absolute = isWin32Separator(path[2]);
    return { device: path.slice(0, 2), rootEnd: absolute ? 3 : 2, absolute };
  }
  return { device: '', rootEnd: 0, absolute: false };
}

const win32: NodePath = {
  sep: '\\',
  delimiter: ';',
  isAbsolute: (path) => isWin32Separator(path[0]) || /^[A-Za-z]:[\\/]/.test(path),
  normalize(path) {
    if (path.length === 0) return '.';
    if (path.length === 1) return isWin32Separator(path) ? '\\' : path;
    const root = win32Root(path);
    if (root.uncAlone !== undefined) return `${root.uncAlone}\\`;
    let tail = normalNames(path.slice(root.rootEnd), WIN32_SEPARATORS, !root.absolute).join('\\');
    if (tail === '' && !root.absolute) tail = '.';
    if (tail !== '' && isWin32Separator(path[path.length - 1])) tail += '\\';
    return root.absolute ? `${root.device}\\${tail}` : `${root.device}${tail}`;
  },
  resolve(cwd, ...paths) {
    let device = '';
    let tail = '';
    let absolute = false;
    for (let i = paths.length - 1; i >= -1; i--) {
      let path: string;
      if (i >= 0) {
        path = paths[i]!;
        if (path === '') continue;
      } else if (device === '') path = cwd;
      else {
        // A drive-relative path (`D:x`) resolves against that drive's own folder: the process's
        // when it is on that drive, the drive's root otherwise.
        path = cwd.slice(0, 2).toLowerCase() === device.toLowerCase() || cwd[2] !== '\\' ? cwd : `${device}\\`;
      }
      const root = win32Root(path);
      if (root.device !== '') {
        if (device === '') device = root.device;
        else if (root.device.toLowerCase() !== device.toLowerCase()) continue;
      }
      if (absolute) {
        if (device !== '') break;
      } else {
        tail = `${path.slice(root.rootEnd)}\\${tail}`;
        absolute = root.absolute;
        if (absolute && device !== '') break;
      }
    }
    const names = normalNames(tail, WIN32_SEPARATORS, !absolute).join('\\');
    return absolute ? `${device}\\${names}` : `${device}${names}` || '.';
  },
  join(...paths) {
    const kept = paths.filter((path) => path !== '');
    if (kept.length === 0) return '.';
    let joined = kept.join('\\');
    // A first part that is not a UNC root does not make one by joining (`\\` + `server`).
    if (isWin32Separator(kept[0]![0]) && !/^[\\/]{2}[^\\/]/.test(kept[0]!)) joined = joined.replace(/^[\\/]{2,}/, '\\');
    return win32.normalize(joined);
  },
  relative(cwd, from, to) {
    const a = win32.resolve(cwd, from);
    const b = win32.resolve(cwd, to);
    if (a.toLowerCase() === b.toLowerCase()) return '';
    const split = (path: string) => {
      const root = win32Root(path);
      return { root: path.slice(0, root.rootEnd).toLowerCase(), names: path.slice(root.rootEnd).split('\\').filter(Boolean) };
    };
    const left = split(a);
    const right = split(b);
    if (left.root !== right.root) return b;
    let common = 0;
    while (common < left.names.length && common < right.names.length && left.names[common]!.toLowerCase() === right.names[common]!.toLowerCase()) common++;
    return [...left.names.slice(common).map(() => '..'), ...right.names.slice(common)].join('\\');
  },
  dirname(path) {
    const root = win32Root(path);
    const rootText = path.slice(0, root.rootEnd);
    const rest = path.slice(root.rootEnd).replace(/[\\/]+$/, '');
    const last = Math.max(rest.lastIndexOf('\\'), rest.lastIndexOf('/'));
    if (last === -1) return rootText === '' ? '.' : rootText;
    return `${rootText}${rest.slice(0, last).replace(/[\\/]+$/, '')}` || rootText;
  },
  basename(path) {
    // Only a drive is set apart: a UNC root's share is a name like any other.
    const names = (/^[A-Za-z]:/.test(path) ? path.slice(2) : path).replace(/[\\/]+$/, '');
    return names.slice(Math.max(names.lastIndexOf('\\'), names.lastIndexOf('/')) + 1);
  },
  extname: (path) => extensionOf(win32.basename(path)),
};

/** Node's `path` as it behaves on `platform` (`path.posix` on Linux and macOS). */
export function nodePath(platform: Platform): NodePath {
  return platform === 'win32' ? win32 : posix;
}

/**
 * The usual `~` expansion of a Node program (`os.homedir()` joined with the rest): `~` alone and
 * `~/...`; `~user`, and `~\` on Windows, are left as they are.
 */
export function expandHome(path: string, home: string, platform: Platform): string {
  return path === '~' || path.startsWith('~/') ? nodePath(platform).join(home, path.slice(1)) : path;
}

/** Why `fs.realpath` failed, as Node's error code says it. */
export type RealpathError = 'ENOENT' | 'ENOTDIR' | 'ELOOP' | 'ENAMETOOLONG' | string;

/**
 * `fs.realpath(path)` through the port: every link resolved, or the error Node would throw. A
 * name below a file is `ENOTDIR`; a missing name, or a link to nothing, `ENOENT`. `path` is taken
 * as `path.resolve` would give it.
 */
export function nodeRealpath(fs: DeciderFileSystem, path: string, platform: Platform, cwd = path): { ok: true; path: string } | { ok: false; error: RealpathError } {
  const absolute = nodePath(platform).resolve(cwd, path);
  const split = splitAbsolute(absolute, platform);
  if (split === null) return { ok: false, error: 'ENOENT' };
  const resolved = resolveReal(fs, split, platform, { followFinal: true });
  if (!resolved.ok) {
    if (resolved.code === 'ERR_SYMLINK_LOOP') return { ok: false, error: 'ELOOP' };
    if (resolved.code === 'ERR_NAME_TOO_LONG') return { ok: false, error: 'ENAMETOOLONG' };
    if (resolved.code === 'ERR_PERMISSION') return { ok: false, error: /\((E[A-Z]+)\)/.exec(resolved.reason)?.[1] ?? 'EACCES' };
    return { ok: false, error: 'ENOENT' };
  }
  const { real, kind, existingAncestor } = resolved.value;
  if (kind !== 'missing') return { ok: true, path: joinSplit(real, platform) };
  // The port says `missing` below a file too: the kernel says ENOTDIR there.
  const above = existingAncestor === undefined ? undefined : fs.lstat(existingAncestor).kind;
  return { ok: false, error: above === 'file' || above === 'other' ? 'ENOTDIR' : 'ENOENT' };
}

/** The entries of a folder as `fs.readdir` lists them, or the error it throws. */
export function nodeReaddir(fs: DeciderFileSystem, folder: string, max = 100_000): { ok: true; names: readonly string[] } | { ok: false; error: RealpathError } {
  const names = fs.listNames?.(folder, max);
  if (names !== null && names !== undefined) return { ok: true, names };
  const kind = fs.lstat(folder).kind;
  return { ok: false, error: kind === 'missing' ? 'ENOENT' : kind === 'file' || kind === 'other' ? 'ENOTDIR' : 'EACCES' };
}
