import * as fs from 'node:fs';
import { delimiter, join, win32 as win32Path } from 'node:path';
import type { FileSystemPort, FsLookup, Platform } from '../core/index.js';
import type { DeciderFileSystem } from '../deciders/types.js';

/** The platform whose rules the host's own paths follow. Other Unix systems follow POSIX, as Linux does. */
export function hostPlatform(): Platform {
  if (process.platform === 'win32' || process.platform === 'darwin') return process.platform;
  return 'linux';
}

/** The first executable named `command` in `env.PATH`, or undefined. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const directory of (env.PATH ?? '').split(delimiter)) {
    if (directory === '') continue;
    const candidate = join(directory, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The real path of an existing file, or the path as given when it cannot be resolved. */
export function realPathOr(target: string): string {
  try {
    return fs.realpathSync.native(target);
  } catch {
    return target;
  }
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
}

const MISSING: FsLookup = Object.freeze({ kind: 'missing' });

/** The core's filesystem port over `node:fs`: lookups only, never a write. */
export const nodeFileSystem: FileSystemPort = {
  lstat(path: string): FsLookup {
    try {
      // Number stats, and no error built for a missing name: a trace looks up every name of a path.
      const stats = fs.lstatSync(path, { throwIfNoEntry: false });
      if (stats === undefined) return MISSING;
      const kind = stats.isSymbolicLink() ? 'symlink' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';
      if (Number.isSafeInteger(stats.dev) && Number.isSafeInteger(stats.ino)) return { kind, dev: BigInt(stats.dev), ino: BigInt(stats.ino) };
      // An identity past 2^53 (NTFS file ids, some XFS inodes) is read again exactly.
      const exact = fs.lstatSync(path, { bigint: true });
      return { kind, dev: exact.dev, ino: exact.ino };
    } catch (error) {
      const errno = errnoOf(error);
      // ENOTDIR: a file stands where a folder was expected, so nothing below it can exist.
      if (errno === 'ENOENT' || errno === 'ENOTDIR') return MISSING;
      return { kind: 'error', errno };
    }
  },
  realpath(path: string) {
    try {
      return fs.realpathSync.native(path);
    } catch {
      return null;
    }
  },
  readlink(path: string) {
    try {
      return { ok: true, target: fs.readlinkSync(path) };
    } catch (error) {
      return { ok: false, errno: errnoOf(error) };
    }
  },
  listNames: listNamesBounded,
  // Only Windows volumes keep 8.3 short names (PROGRA~1 for "Program Files").
  ...(process.platform === 'win32' ? { longName: windowsLongName } : {}),
};

/** The deciders' port: the core's, and the text of a configuration file. Never a write. */
export const nodeDeciderFileSystem: DeciderFileSystem = {
  ...nodeFileSystem,
  readText(path: string) {
    try {
      return fs.readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  ownership(path: string, options?: { readonly noFollow?: boolean }) {
    try {
      const stats = options?.noFollow === true ? fs.lstatSync(path) : fs.statSync(path);
      return { uid: stats.uid, mode: stats.mode };
    } catch {
      return undefined;
    }
  },
};

/**
 * At most `max` names of a folder, read a few at a time so a huge folder is never read whole.
 * On Linux the folder is opened without following a link at its last name and listed through
 * that descriptor, so a link swapped in after the caller looked is refused, not listed;
 * elsewhere a link there is refused when looked up just before.
 */
function listNamesBounded(folder: string, max: number): readonly string[] | null {
  if (max <= 0) return [];
  let fd: number | undefined;
  let dir: fs.Dir | undefined;
  try {
    if (process.platform === 'linux') {
      fd = fs.openSync(folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
      dir = fs.opendirSync(`/proc/self/fd/${fd}`, { bufferSize: Math.min(max, 32) });
    } else {
      if (fs.lstatSync(folder).isSymbolicLink()) return null;
      dir = fs.opendirSync(folder, { bufferSize: Math.min(max, 32) });
    }
    const names: string[] = [];
    while (names.length < max) {
      const entry = dir.readSync();
      if (entry === null) break;
      names.push(entry.name);
    }
    return names;
  } catch {
    return null;
  } finally {
    dir?.closeSync();
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The long name of the last name of `entryPath`, without following a link there.
 * GetFinalPathNameByHandle (fs.realpathSync.native) spells every name long but follows links,
 * so for a link (or junction) the entry is found among its folder's entries by identity.
 */
function windowsLongName(entryPath: string): string | null {
  try {
    const entry = fs.lstatSync(entryPath, { bigint: true });
    if (!entry.isSymbolicLink()) return win32Path.basename(fs.realpathSync.native(entryPath));
    const folder = win32Path.dirname(entryPath);
    for (const name of fs.readdirSync(folder)) {
      const other = fs.lstatSync(win32Path.join(folder, name), { bigint: true });
      if (other.dev === entry.dev && other.ino === entry.ino) return name;
    }
    return null;
  } catch {
    return null;
  }
}
