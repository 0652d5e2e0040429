import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, type BigIntStats, type Dirent } from 'node:fs';
import path from 'node:path';

/** The file at a checked path is no longer the one that was checked: nothing was done. */
export class ChangedError extends Error {
  constructor(readonly target: string, detail: string) {
    super(`${target} changed while it was being checked (${detail}); nothing was done. Try again.`);
  }
}

// O_NOFOLLOW: a link swapped in at the last name fails the open instead of being followed.
// O_NONBLOCK: a FIFO swapped in cannot block the open; the fstat check then refuses it.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Opens a checked regular file for reading and proves the descriptor is that file before a byte
 * is read: its device and inode match the checked path's, and on Linux the descriptor's own path
 * (`/proc/self/fd/N`) is the checked path. A link or another file swapped in between the check
 * and the open is caught here.
 */
export async function openVerified(checkedPath: string): Promise<{ handle: fsp.FileHandle; stats: BigIntStats }> {
  const before = await fsp.lstat(checkedPath, { bigint: true });
  if (!before.isFile()) throw Object.assign(new Error(`${checkedPath} is not a regular file`), { code: before.isDirectory() ? 'EISDIR' : 'EINVAL' });
  const handle = await fsp.open(checkedPath, READ_FLAGS);
  try {
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile() || !sameIdentity(stats, before)) throw new ChangedError(checkedPath, 'another file is there now');
    if (process.platform === 'linux') {
      const opened = await fsp.readlink(`/proc/self/fd/${handle.fd}`);
      if (opened !== checkedPath) throw new ChangedError(checkedPath, `the open file is ${opened}`);
    }
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export async function readVerified(checkedPath: string, maxBytes: number): Promise<Buffer> {
  const { handle, stats } = await openVerified(checkedPath);
  try {
    if (stats.size > BigInt(maxBytes)) {
      throw Object.assign(new Error(`${checkedPath} is ${stats.size} bytes, more than the ${maxBytes} this tool reads`), { code: 'EFBIG' });
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export async function identityOf(target: string): Promise<Identity> {
  const stats = await fsp.lstat(target, { bigint: true });
  return { dev: stats.dev, ino: stats.ino };
}

/**
 * Writes through a temporary file created exclusively in the checked directory, then renames it
 * over the target: an error leaves either the old file or the new one, never half of one, and
 * the rename replaces a link at the target rather than following it. `recheck` runs immediately
 * before the rename; if it refuses, the temporary file is removed and nothing changes.
 */
export async function writeAtomic<R>(
  target: string,
  data: string | Uint8Array,
  recheck: () => R | undefined,
): Promise<R | undefined> {
  const directory = path.dirname(target);
  const directoryBefore = await identityOf(directory);
  const existing = await fsp.lstat(target).catch(() => undefined);
  const mode = existing?.isFile() ? existing.mode & 0o7777 : 0o666;
  const temporary = path.join(directory, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fsp.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  let renamed = false;
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const refusal = recheck();
    if (refusal !== undefined) return refusal;
    if (!sameIdentity(await identityOf(directory), directoryBefore)) throw new ChangedError(directory, 'the folder was replaced');
    await fsp.rename(temporary, target);
    renamed = true;
    return undefined;
  } finally {
    if (!renamed) await fsp.unlink(temporary).catch(() => undefined);
  }
}

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

/** Works for a Dirent and for lstat's Stats alike; a link is checked first so it is never taken for its target. */
export function entryTypeOf(entry: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }): EntryType {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  return 'other';
}

/** Code-unit order: the same on every host and locale, so listings are stable. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// O_NOFOLLOW: a link swapped in at the last name fails the open instead of being followed.
const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Lists a checked folder and proves the listing is of that folder, as openVerified does for files.
 * On Linux the folder is opened, its descriptor's own path (`/proc/self/fd/N`) must be the checked
 * path, and it is listed and its entries looked up through that descriptor, so a folder (or an
 * ancestor) swapped after the check is never read. Elsewhere Node has no descriptor-relative
 * calls: the folder's identity is compared before and after, which narrows the window but cannot
 * close it. `child(name)` names an entry through the verified folder; it is valid only inside `use`.
 */
export async function inVerifiedDirectory<T>(
  directory: string,
  use: (entries: Dirent[], child: (name: string) => string) => Promise<T>,
): Promise<T> {
  if (process.platform === 'linux') {
    const handle = await fsp.open(directory, DIRECTORY_FLAGS).catch(async (error: NodeJS.ErrnoException) => {
      // Linux reports a link under O_NOFOLLOW | O_DIRECTORY as ENOTDIR (or ELOOP): say what happened.
      const link = (error.code === 'ENOTDIR' || error.code === 'ELOOP') && (await fsp.lstat(directory).catch(() => undefined))?.isSymbolicLink();
      throw link ? new ChangedError(directory, 'a link is there now') : error;
    });
    try {
      const base = `/proc/self/fd/${handle.fd}`;
      const opened = await fsp.readlink(base);
      if (opened !== directory) throw new ChangedError(directory, `the open folder is ${opened}`);
      const entries = await fsp.readdir(base, { withFileTypes: true });
      entries.sort((a, b) => compareNames(a.name, b.name));
      return await use(entries, (name) => `${base}/${name}`);
    } finally {
      await handle.close();
    }
  }
  const before = await fsp.lstat(directory, { bigint: true });
  if (before.isSymbolicLink()) throw new ChangedError(directory, 'a link is there now');
  if (!before.isDirectory()) throw Object.assign(new Error(`${directory} is not a folder`), { code: 'ENOTDIR' });
  const entries = await fsp.readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => compareNames(a.name, b.name));
  const result = await use(entries, (name) => path.join(directory, name));
  if (!sameIdentity(await identityOf(directory), before)) throw new ChangedError(directory, 'the folder was replaced');
  return result;
}

export function readDirectoryVerified(directory: string): Promise<Dirent[]> {
  return inVerifiedDirectory(directory, async (entries) => entries);
}
