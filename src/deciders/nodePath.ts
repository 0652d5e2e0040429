// Node's `path` as the modelled programs use it (`path.posix` on Linux and macOS, `path.win32` on
// Windows): lexical only, as Node's is, with `resolve` taking its base explicitly since a decider
// has no process working folder. The programs' quirks come from these rules (a `..` above the root
// dropped, `relative` comparing Windows paths without case), so they are spelled out here rather
// than borrowed from the core, whose normalisation refuses what Node lets through.
import type { Platform } from '../core/index.js';

export interface NodePath {
  readonly sep: '/' | '\\';
  /** The separator of a list of paths in one variable (PATH, GEMINI_CLI_IDE_WORKSPACE_PATH). */
  readonly delimiter: ':' | ';';
  isAbsolute(path: string): boolean;
  normalize(path: string): string;
  /** `path.resolve(base, ...segments)`; `base` should be absolute (it stands for the process's working folder). */
  resolve(base: string, ...segments: string[]): string;
  relative(from: string, to: string): string;
  dirname(path: string): string;
  basename(path: string): string;
  extname(path: string): string;
  join(...segments: string[]): string;
}

/** The names of a path without its root, `.` dropped and `..` applied (kept at the front only when `allowAboveRoot`). */
function applyDots(names: readonly string[], allowAboveRoot: boolean): string[] {
  const out: string[] = [];
  for (const name of names) {
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (allowAboveRoot) out.push('..');
      continue;
    }
    out.push(name);
  }
  return out;
}

/**
 * dirname as Node scans for it: the path up to the last separator that follows a name, never
 * into the root (`rootLength` characters), one separator of a run left when the run ends a name.
 */
function dirnameOf(path: string, rootLength: number, isSeparator: (c: string) => boolean): string {
  let end = -1;
  let inSeparators = true;
  for (let i = path.length - 1; i >= Math.max(rootLength, 1); i--) {
    if (!isSeparator(path[i]!)) inSeparators = false;
    else if (!inSeparators) {
      end = i;
      break;
    }
  }
  if (end === -1) return rootLength === 0 ? '.' : path.slice(0, rootLength);
  return path.slice(0, end);
}

function extnameOf(base: string): string {
  const dot = base.lastIndexOf('.');
  return dot <= 0 || base === '..' ? '' : base.slice(dot);
}

const posix: NodePath = {
  sep: '/',
  delimiter: ':',
  isAbsolute: (path) => path.startsWith('/'),
  normalize(path) {
    if (path === '') return '.';
    const absolute = path.startsWith('/');
    const names = applyDots(path.split('/'), !absolute).join('/');
    const trailing = path.endsWith('/') ? '/' : '';
    if (absolute) return `/${names}${names === '' ? '' : trailing}`;
    return `${names === '' ? '.' : names}${trailing}`;
  },
  resolve(base, ...segments) {
    let joined = '';
    for (const segment of [base, ...segments].reverse()) {
      if (segment === '') continue;
      joined = joined === '' ? segment : `${segment}/${joined}`;
      if (segment.startsWith('/')) break;
    }
    return `/${applyDots(joined.split('/'), false).join('/')}`;
  },
  relative(from, to) {
    const a = applyDots(posix.resolve('/', from).split('/'), false);
    const b = applyDots(posix.resolve('/', to).split('/'), false);
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
  },
  dirname(path) {
    if (path === '') return '.';
    const parent = dirnameOf(path, path.startsWith('/') ? 1 : 0, (c) => c === '/');
    // `//a`: Node keeps a root written with two slashes.
    return parent === '/' && /^\/\/[^/]/.test(path) ? '//' : parent;
  },
  basename(path) {
    const trimmed = path.replace(/\/+$/, '');
    return trimmed.slice(trimmed.lastIndexOf('/') + 1);
  },
  extname: (path) => extnameOf(posix.basename(path)),
  join(...segments) {
    const joined = segments.filter((segment) => segment !== '').join('/');
    return joined === '' ? '.' : posix.normalize(joined);
  },
};

/** A Windows path's root: the device (`C:`, `\\host\share`, `\\?\...`) and whether it is rooted after it. */
interface Win32Root {
  readonly device: string;
  readonly rooted: boolean;
  readonly rest: string;
}

function win32Root(path: string): Win32Root {
  const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)(?:[\\/]|$)/.exec(path);
  if (unc) return { device: `\\\\${unc[1]}\\${unc[2]}`, rooted: true, rest: path.slice(unc[0].length) };
  const drive = /^([A-Za-z]):/.exec(path);
  if (drive) {
    const after = path.slice(2);
    return { device: `${drive[1]}:`, rooted: /^[\\/]/.test(after), rest: after };
  }
  return { device: '', rooted: /^[\\/]/.test(path), rest: path };
}

const win32Names = (rest: string) => rest.split(/[\\/]/);

const win32: NodePath = {
  sep: '\\',
  delimiter: ';',
  isAbsolute(path) {
    const root = win32Root(path);
    return root.rooted;
  },
  normalize(path) {
    if (path === '') return '.';
    const root = win32Root(path);
    const names = applyDots(win32Names(root.rest), !root.rooted).join('\\');
    const trailing = /[\\/]$/.test(path) ? '\\' : '';
    const head = root.device + (root.rooted ? '\\' : '');
    if (names === '') return root.rooted ? head : `${head}.${trailing}`;
    return `${head}${names}${trailing}`;
  },
  resolve(base, ...segments) {
    let device = '';
    let tail = '';
    let rooted = false;
    for (const segment of [base, ...segments].reverse()) {
      if (segment === '') continue;
      const root = win32Root(segment);
      if (root.device !== '' && device !== '' && root.device.toLowerCase() !== device.toLowerCase()) continue;
      if (device === '') device = root.device;
      if (!rooted) {
        tail = tail === '' ? root.rest : `${root.rest}\\${tail}`;
        rooted = root.rooted;
      }
      if (rooted && device !== '') break;
    }
    const names = applyDots(win32Names(tail), false).join('\\');
    return `${device}\\${names}`;
  },
  relative(from, to) {
    const a = win32.resolve('C:\\', from);
    const b = win32.resolve('C:\\', to);
    const ra = win32Root(a);
    const rb = win32Root(b);
    if (ra.device.toLowerCase() !== rb.device.toLowerCase()) return b;
    const na = applyDots(win32Names(ra.rest), false);
    const nb = applyDots(win32Names(rb.rest), false);
    let common = 0;
    while (common < na.length && common < nb.length && na[common]!.toLowerCase() === nb[common]!.toLowerCase()) common++;
    return [...na.slice(common).map(() => '..'), ...nb.slice(common)].join('\\');
  },
  dirname(path) {
    if (path === '') return '.';
    const root = win32Root(path);
    const rootLength = path.length - root.rest.length + (root.device.startsWith('\\\\') ? 0 : /^[\\/]/.test(root.rest) ? 1 : 0);
    return dirnameOf(path, rootLength, (c) => c === '\\' || c === '/');
  },
  basename(path) {
    // Only a drive is set apart; a UNC root's share is a name like any other.
    const names = (/^[A-Za-z]:/.test(path) ? path.slice(2) : path).replace(/[\\/]+$/, '');
    return names.slice(Math.max(names.lastIndexOf('\\'), names.lastIndexOf('/')) + 1);
  },
  extname: (path) => extnameOf(win32.basename(path)),
  join(...segments) {
    const joined = segments.filter((segment) => segment !== '').join('\\');
    return joined === '' ? '.' : win32.normalize(joined);
  },
};

/** Node's path functions for the platform a program runs on. */
export function nodePath(platform: Platform): NodePath {
  return platform === 'win32' ? win32 : posix;
}
