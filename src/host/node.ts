import * as fs from 'node:fs';
import type { FileSystemPort, FsLookup, Platform } from '../core/index.js';

/** The platform whose rules the host's own paths follow. Other Unix systems follow POSIX, as Linux does. */
export function hostPlatform(): Platform {
  if (process.platform === 'win32' || process.platform === 'darwin') return process.platform;
  return 'linux';
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
}

/** The core's filesystem port over `node:fs`: lookups only, never a write. */
export const nodeFileSystem: FileSystemPort = {
  lstat(path: string): FsLookup {
    try {
      const stats = fs.lstatSync(path, { bigint: true });
      const kind = stats.isSymbolicLink() ? 'symlink' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';
      return { kind, dev: stats.dev, ino: stats.ino };
    } catch (error) {
      const errno = errnoOf(error);
      // ENOTDIR: a file stands where a folder was expected, so nothing below it can exist.
      if (errno === 'ENOENT' || errno === 'ENOTDIR') return { kind: 'missing' };
      return { kind: 'error', errno };
    }
  },
  readlink(path: string) {
    try {
      return { ok: true, target: fs.readlinkSync(path) };
    } catch (error) {
      return { ok: false, errno: errnoOf(error) };
    }
  },
};
