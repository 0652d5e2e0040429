// The reference server's own path helpers (dist/path-utils.js and dist/path-validation.js of
// @modelcontextprotocol/server-filesystem 2026.8.31), as they behave on the platform given: its
// platform tests are the context's platform here, and its `path` the platform's Node path.
import type { Platform } from '../../core/index.js';
import { nodePath } from '../shared/node.js';

const DRIVE = /^[a-zA-Z]:/;
const UNIX_STYLE_DRIVE = /^\/[a-zA-Z]\//;

/** convertToWindowsPath: `/c/x` becomes `C:\x` on Windows only; `/mnt/...` (WSL) is never changed. */
function convertToWindowsPath(p: string, platform: Platform): string {
  if (p.startsWith('/mnt/')) return p;
  if (UNIX_STYLE_DRIVE.test(p) && platform === 'win32') return `${p.charAt(1).toUpperCase()}:${p.slice(2).replace(/\//g, '\\')}`;
  if (DRIVE.test(p)) return p.replace(/\//g, '\\');
  return p;
}

/**
 * normalizePath: surrounding whitespace and one quote at each end dropped; a POSIX absolute path
 * only has its repeated and trailing slashes removed (no `..` resolved); anything else goes
 * through the platform's path.normalize, with a Windows drive letter upper-cased.
 */
export function normalizePath(input: string, platform: Platform): string {
  let p = input.trim().replace(/^["']|["']$/g, '');
  const unix = p.startsWith('/') && (/^\/mnt\/[a-z]\//i.test(p) || platform !== 'win32' || !UNIX_STYLE_DRIVE.test(p));
  if (unix) return p.replace(/\/+/g, '/').replace(/(?<!^)\/$/, '');
  p = convertToWindowsPath(p, platform);
  if (p.startsWith('\\\\')) p = `\\\\${p.replace(/^\\{2,}/, '\\\\').slice(2).replace(/\\\\/g, '\\')}`;
  else p = p.replace(/\\\\/g, '\\');
  if (platform === 'win32' && /^[a-zA-Z]:$/.test(p)) p += '\\';
  const path = nodePath(platform);
  let normalized = path.normalize(p);
  if (p.startsWith('\\\\') && !normalized.startsWith('\\\\')) normalized = `\\${normalized}`;
  if (DRIVE.test(normalized)) {
    const result = normalized.replace(/\//g, '\\');
    return /^[a-z]:/.test(result) ? result.charAt(0).toUpperCase() + result.slice(1) : result;
  }
  return platform === 'win32' ? normalized.replace(/\//g, '\\') : normalized;
}

/**
 * isPathWithinAllowedDirectories: both sides through path.resolve(path.normalize(...)), then the
 * path equal to a directory or starting with the directory and a separator (the filesystem root
 * and a bare drive root are special cases). Strings, compared with case, by prefix.
 */
export function isPathWithinAllowedDirectories(absolutePath: string, allowedDirectories: readonly string[], platform: Platform, cwd: string): boolean {
  if (!absolutePath || allowedDirectories.length === 0 || absolutePath.includes('\x00')) return false;
  const path = nodePath(platform);
  const normalizedPath = path.resolve(cwd, path.normalize(absolutePath));
  return allowedDirectories.some((dir) => {
    if (!dir || dir.includes('\x00')) return false;
    const normalizedDir = path.resolve(cwd, path.normalize(dir));
    if (normalizedPath === normalizedDir) return true;
    if (normalizedDir === path.sep) return normalizedPath.startsWith(path.sep);
    if (path.sep === '\\' && /^[A-Za-z]:\\?$/.test(normalizedDir)) {
      return normalizedPath.charAt(0).toLowerCase() === normalizedDir.charAt(0).toLowerCase() && normalizedPath.startsWith(normalizedDir.replace(/\\?$/, '\\'));
    }
    return normalizedPath.startsWith(normalizedDir + path.sep);
  });
}
