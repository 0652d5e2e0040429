import type { BigIntStats } from 'node:fs';
import { quotedIfHidden } from '../../core/index.js';

/** The file at a checked path is no longer the one that was checked: nothing was done. */
export class ChangedError extends Error {
  readonly code = 'ECHANGED';
  constructor(readonly target: string, detail: string) {
    super(`${target} changed while it was being checked (${detail}); nothing was done. Try again.`);
  }
}

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  EEXIST: 'already exists',
  ENOTDIR: 'is not a folder',
  EISDIR: 'is a folder',
  ENOTEMPTY: 'is a folder that is not empty',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'is on a read-only filesystem',
  ENOSPC: 'no space left on the device',
  EXDEV: 'is on another filesystem',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'is a link, which is not followed here',
  EBUSY: 'is in use (a mount point?)',
};

/** link(2) cannot make this name here (another filesystem, no hard links, a protected file): rename instead. */
export const LINK_UNSUPPORTED: ReadonlySet<string> = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

export function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** Nothing is at `path`, which the call needed: ENOENT under the path the agent knows. */
export function notThere(path: string): NodeJS.ErrnoException {
  return Object.assign(fsError('ENOENT', `${quotedIfHidden(path)} ${DESCRIPTIONS['ENOENT']}`), { display: true, path });
}

export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Runs one filesystem call and, when it fails, reports it under the path the agent knows rather
 * than the descriptor path it went through. The errno code is kept, for callers that act on it.
 */
export function attempt<T>(display: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    const code = errnoOf(error);
    if (code === undefined || error instanceof ChangedError || (error as { display?: boolean }).display === true) throw error;
    const description = DESCRIPTIONS[code] ?? (error as Error).message.split(',')[0]!.replace(/^[A-Z]+:\s*/, '');
    throw Object.assign(fsError(code, `${quotedIfHidden(display)} ${description}`), { display: true, path: display });
  }
}

export function rethrow(display: string, error: unknown): never {
  return attempt(display, () => {
    throw error;
  });
}

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

/** The same inode: the type is compared too, as a freed inode number is soon reused. */
export function sameInode(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && entryTypeOf(a) === entryTypeOf(b);
}

/**
 * The same file with the same content as far as its metadata can tell: inode, size, and the
 * modification time in nanoseconds (Linux 6.13 and later stamp a change finely once a time has
 * been read, so two saves in one clock tick still differ).
 */
export function sameVersion(a: BigIntStats, b: BigIntStats): boolean {
  return sameInode(a, b) && a.size === b.size && a.mtimeNs === b.mtimeNs;
}
