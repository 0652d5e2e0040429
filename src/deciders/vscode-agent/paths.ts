// A path as VS Code's agent takes it: the model's text made a file URI (resolveFilePath), the
// URI's file-system path (`fsPath`: a Windows drive letter lowered), normalised, found in a
// workspace folder by string containment (case ignored except on Linux), and its real path as
// Node's realpath gives it, or its nearest existing folder's with the rest joined on.
import type { Platform } from '../../core/index.js';
import { nodePath, nodeRealpath } from '../shared/node.js';
import type { DeciderFileSystem } from '../types.js';

const separatorOf = (platform: Platform) => (platform === 'win32' ? '\\' : '/');

/** `extpath.isEqualOrParent`: `path` is `parent` or below it, by string, case ignored except on Linux. */
export function isEqualOrParent(path: string, parent: string, platform: Platform): boolean {
  const separator = separatorOf(platform);
  if (path === parent) return true;
  if (path === '' || parent === '' || parent.length > path.length) return false;
  if (platform !== 'linux') {
    if (path.slice(0, parent.length).toLowerCase() !== parent.toLowerCase()) return false;
    if (parent.length === path.length) return true;
    const at = parent.endsWith(separator) ? parent.length - 1 : parent.length;
    return path.charAt(at) === separator;
  }
  return path.startsWith(parent.endsWith(separator) ? parent : parent + separator);
}

/** A native path as `URI.file(path).fsPath` gives it back: on Windows `/` made `\` and the drive letter lowered. */
export function fsPathOf(path: string, platform: Platform): string {
  if (platform !== 'win32') return path;
  const native = path.replace(/\//g, '\\');
  return /^[A-Za-z]:/.test(native) ? native[0]!.toLowerCase() + native.slice(1) : native;
}

export type Resolved =
  | { readonly ok: true; readonly path: string; readonly how: string }
  | { readonly ok: false; readonly reason: string; readonly scheme?: string };

/**
 * The model's path made a file path as the tools' `resolveFilePath` does: an absolute path as it
 * is (on Windows a drive path, or `\...`, repeated backslashes collapsed; a `/...` path given the
 * drive of the workspace folder that holds it), a URI parsed (a `file:` URI's path decoded);
 * anything else is refused, as the tools refuse a relative path.
 */
export function resolveFilePath(input: string, platform: Platform, folders: readonly string[]): Resolved {
  const posixAbsolute = input.startsWith('/');
  const windowsAbsolute = platform === 'win32' && (/^[A-Za-z]:/.test(input) || input.startsWith('\\'));
  if (posixAbsolute || windowsAbsolute) {
    let path = input;
    if (windowsAbsolute) path = (input.startsWith('\\\\') ? '\\' : '') + input.replace(/\\+/g, '\\');
    if (posixAbsolute && platform === 'win32') {
      const drive = folders.map((folder) => /^([A-Za-z]):/.exec(folder)?.[1]).find((letter) => letter !== undefined && folders.some((folder) => isEqualOrParent(fsPathOf(`${letter}:${path}`, platform), folder, platform)));
      if (drive !== undefined) return { ok: true, path: fsPathOf(`${drive}:${path}`, platform), how: `a path from the root: given the drive ${drive}: of the workspace folder that holds it` };
    }
    return { ok: true, path: fsPathOf(path, platform), how: 'an absolute path, taken as it is' };
  }
  const scheme = /^(\w[\w\d+.-]*):\S/.exec(input)?.[1];
  if (scheme !== undefined) {
    if (scheme.toLowerCase() !== 'file') return { ok: false, reason: `a ${scheme}: URI names no file on this disk`, scheme };
    const afterAuthority = input.replace(/^file:\/\/[^/]*/i, '');
    let decoded: string;
    try {
      decoded = decodeURIComponent(afterAuthority);
    } catch {
      return { ok: false, reason: 'its URI does not parse (a % not followed by two hex digits)' };
    }
    const path = platform === 'win32' && /^\/[A-Za-z]:/.test(decoded) ? decoded.slice(1) : decoded;
    return { ok: true, path: fsPathOf(path, platform), how: 'a file: URI, its path percent-decoded' };
  }
  return { ok: false, reason: `Invalid input path: ${input}. Be sure to use an absolute path.` };
}

/** `normalizePath` of a file URI: the platform's `path.normalize` of its fsPath (`.` and `..` taken). */
export function normalized(path: string, platform: Platform): string {
  return fsPathOf(nodePath(platform).normalize(path), platform);
}

/** The first workspace folder at or above `path`, as the workspace service finds it. */
export function folderOf(path: string, folders: readonly string[], platform: Platform): string | undefined {
  return folders.find((folder) => isEqualOrParent(path, folder, platform));
}

/**
 * The real path as the tools find it: Node's realpath; for a path that does not exist, the real
 * path of its nearest existing folder with the missing names joined on (stopping at `folder`,
 * resolved whole); the path itself when nothing above it resolves.
 */
export function realPathOf(fs: DeciderFileSystem, path: string, platform: Platform, folder?: string): string {
  const node = nodePath(platform);
  const whole = nodeRealpath(fs, path, platform);
  if (whole.ok) return fsPathOf(whole.path, platform);
  const missing = [node.basename(path)];
  for (let at = node.dirname(path); ; at = node.dirname(at)) {
    if (folder !== undefined && isEqualOrParent(at, folder, platform) && isEqualOrParent(folder, at, platform)) {
      const real = nodeRealpath(fs, folder, platform);
      return real.ok ? fsPathOf(node.join(real.path, ...missing), platform) : path;
    }
    if (node.dirname(at) === at) return path;
    const real = nodeRealpath(fs, at, platform);
    if (real.ok) return fsPathOf(node.join(real.path, ...missing), platform);
    missing.unshift(node.basename(at));
  }
}

/**
 * `assertPathIsSafe`: a NUL anywhere; on Windows also an alternate data stream, a character
 * Windows forbids, a device path or name, a name ending in a dot or a space, an 8.3 short name.
 * Undefined when safe.
 */
export function unsafePath(path: string, platform: Platform): string | undefined {
  if (path.includes('\0')) return `Path contains null bytes: ${path}`;
  if (platform !== 'win32') return undefined;
  if (path.indexOf(':', 2) !== -1) return `Path contains invalid characters (alternate data stream): ${path}`;
  if (/[<>"|?*]/.test(path.length > 2 ? path.slice(2) : path)) return `Path contains invalid characters: ${path}`;
  if (path.startsWith('\\\\.') || path.startsWith('\\\\?')) return `Path is a reserved device path: ${path}`;
  for (const name of path.split('\\')) {
    if (name === '') continue;
    if (/^(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\.|$)/i.test(name)) return `Reserved device name in path: ${path}`;
    if (name.endsWith('.') || name.endsWith(' ')) return `Path contains invalid trailing characters: ${path}`;
    const tilde = name.indexOf('~');
    if (tilde !== -1 && /^\d/.test(name.slice(tilde + 1))) return `Path appears to use short filename format (8.3 names): ${path}. Please use the full path.`;
  }
  return undefined;
}
