import fs, { type BigIntStats, type Dirent } from 'node:fs';
import nodePath from 'node:path';
import type { CheckedPath } from './anchor.js';
import { commitReplacing, type Base } from './commit.js';
import { attempt, ChangedError, entryTypeOf, errnoOf, fsError, LINK_UNSUPPORTED, rethrow, sameVersion, type EntryType } from './errors.js';
import type { Folder } from './folder.js';
import { sweepAgain, sweepOnce, withTemporary } from './temporary.js';

// The operations the tools perform. Each takes a CheckedPath (the core's verdict, its names
// checked again by the anchor) and acts on it through anchored folders only, one entry at a time.

function readOpen(fd: number, size: bigint, maxBytes: number, display: string): Buffer {
  // The size goes with the error: a caller with a budget tells "not now" from "never".
  if (size > BigInt(maxBytes)) throw Object.assign(fsError('EFBIG', `${display} is ${size} bytes, more than the ${maxBytes} this tool reads`), { size: Number(size) });
  // The file may grow after fstat: read at most one byte past the limit to notice.
  const chunks: Buffer[] = [];
  let total = 0;
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(Number(size), 1), maxBytes) + 1);
  for (;;) {
    const read = fs.readSync(fd, buffer, 0, buffer.length, null);
    if (read === 0) break;
    chunks.push(buffer.subarray(0, read));
    total += read;
    if (total > maxBytes) throw fsError('EFBIG', `${display} is more than the ${maxBytes} bytes this tool reads`);
    buffer = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

function fileName(target: CheckedPath): string {
  const name = target.names.at(-1);
  if (name === undefined) throw fsError('EISDIR', `${target.path} is the workspace folder, not a file`);
  return name;
}

export function inFolder<T>(target: CheckedPath, use: (folder: Folder, name: string) => T): T {
  const name = fileName(target);
  return target.anchor.with(target.names.slice(0, -1), (folder) => use(folder, name));
}

/** Reads the regular file `name` of an open folder, at most `maxBytes` (EFBIG past them, with the size). */
export function readIn(folder: Folder, name: string, maxBytes: number, display: string): { bytes: Buffer; stats: BigIntStats } {
  const { fd, stats } = folder.openFile(name);
  try {
    return { bytes: readOpen(fd, stats.size, maxBytes, display), stats };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a checked regular file, at most `maxBytes`. A FIFO, socket or device is never opened. */
export function readFile(target: CheckedPath, maxBytes: number): { bytes: Buffer; stats: BigIntStats } {
  return inFolder(target, (folder, name) => readIn(folder, name, maxBytes, target.path));
}

/** A base for a change computed from `bytes`: the file must still have those stats, and those bytes. */
export function contentBase(stats: BigIntStats, bytes: Buffer): Base {
  return {
    kind: 'present',
    stats,
    sameContent: (folder, name) => {
      try {
        return readIn(folder, name, bytes.length, name).bytes.equals(bytes);
      } catch {
        return false;
      }
    },
  };
}

export type WriteResult<R> =
  | { readonly kind: 'written'; readonly created: boolean; readonly stats: BigIntStats }
  | { readonly kind: 'refused'; readonly refusal: R }
  /** The file at the name is not the one the change was computed from: nothing of the change is left. */
  | { readonly kind: 'changed'; readonly why: string };

export interface WriteOptions<R> {
  /** What the change was computed from; by default what is at the name when the write starts. */
  readonly base?: Base;
  /**
   * Runs with the new content written and not yet in place, immediately before the commit: a
   * second check can stop the write there. A refusal, or a throw, abandons it and leaves nothing.
   */
  readonly beforeCommit?: () => R | undefined;
}

/**
 * Before a change to a checked path: a file that a writer killed in its commit had taken aside
 * from that name is back, and what else a gone writer left of it is removed (temporary.ts).
 */
export async function settleTemporaries(target: CheckedPath): Promise<void> {
  const folder = target.anchor.folder(target.names.slice(0, -1));
  try {
    await sweepOnce(folder, fileName(target));
  } finally {
    folder.close();
  }
}

/** What is at a checked path now, as a write's base, once settled. */
export async function baseOf(target: CheckedPath): Promise<Base> {
  await settleTemporaries(target);
  return inFolder(target, (folder, name) => {
    const stats = folder.lstat(name);
    return stats === undefined ? { kind: 'absent' } : { kind: 'present', stats };
  });
}

/**
 * Writes through a temporary file created exclusively in the anchored folder, then committed over
 * the target (commit.ts) only if the target is still the file the change was computed from: the
 * file holds the old content or the new, never a mix, a link at the target is replaced rather
 * than followed, and a save made meanwhile is never replaced. Whatever fails, the temporary file
 * is removed. The data is not flushed before the commit: that keeps a failed or killed write from
 * leaving half a file, not a power cut just after one (see the README).
 */
export async function writeFile<R>(target: CheckedPath, data: string | Uint8Array, options: WriteOptions<R> = {}): Promise<WriteResult<R>> {
  const name = fileName(target);
  const folder = target.anchor.folder(target.names.slice(0, -1));
  try {
    // First: a file a killed writer had taken aside goes back before anything is compared with it.
    await sweepOnce(folder, name);
    const existing = folder.lstat(name);
    if (existing?.isDirectory()) throw fsError('EISDIR', `${target.path} is a folder; write_file writes files`);
    const base: Base = options.base ?? (existing === undefined ? { kind: 'absent' } : { kind: 'present', stats: existing });
    return await withTemporary(folder, name, 'tmp', async (temporary): Promise<WriteResult<R>> => {
      try {
        const fd = folder.createExclusive(temporary, existing?.isFile() ? 0o600 : 0o666);
        try {
          fs.writeFileSync(fd, data);
          // Keep an existing file's permissions; a new one gets the usual 0666 less the umask.
          if (existing?.isFile()) fs.fchmodSync(fd, Number(existing.mode & 0o7777n));
        } finally {
          fs.closeSync(fd);
        }
        const refusal = options.beforeCommit?.();
        if (refusal !== undefined) return { kind: 'refused', refusal };
        const committed = commitReplacing(folder, name, temporary, base);
        if (!committed.done) return { kind: 'changed', why: committed.why };
        if (committed.replaced !== undefined) keepLateSave(target, committed.replaced, committed.stats);
        return { kind: 'written', created: base.kind === 'absent', stats: committed.stats };
      } catch (error) {
        // The next write of this file sweeps again: a full disk may be what earlier leftovers cost.
        sweepAgain(folder, name);
        throw error;
      }
    });
  } finally {
    folder.close();
  }
}

/** How long a replaced file is watched for a save that had looked its name up before the commit. */
const LATE_SAVE_MS = 20;
/** Replaced files watched at once; past this, one is let go unwatched. */
const MAX_WATCHED = 64;
let watched = 0;

/**
 * An editor that had looked the name up before the commit, and was held up inside open(2) until
 * after it, saves into the file the commit replaced (it truncates and writes through the inode it
 * found). That save came last, so it is what the name should hold: a while after the commit, if
 * the replaced file changed, its content is written back over the new file, only if the new file
 * is still there untouched (a later save is newer still).
 */
function keepLateSave(target: CheckedPath, replaced: { readonly fd: number; readonly stats: BigIntStats }, ours: BigIntStats): void {
  if (watched >= MAX_WATCHED) {
    fs.closeSync(replaced.fd);
    return;
  }
  watched += 1;
  setTimeout(() => {
    watched -= 1;
    try {
      const now = fs.fstatSync(replaced.fd, { bigint: true });
      if (sameVersion(now, replaced.stats)) return;
      const bytes = readOpen(replaced.fd, now.size, MAX_LATE_SAVE_BYTES, target.path);
      writeFile(target, bytes, { base: { kind: 'present', stats: ours } }).catch(() => undefined);
    } catch {
      // too large, or gone with its folder: the late save is not put back
    } finally {
      fs.closeSync(replaced.fd);
    }
  }, LATE_SAVE_MS).unref();
}

/** A late save larger than this is not put back. */
const MAX_LATE_SAVE_BYTES = 16 * 1024 * 1024;

/** Makes a checked folder and any missing folders above it, each through its anchored parent. Returns whether the folder itself was made. */
export function makeDirectories(target: CheckedPath): boolean {
  let folder = target.anchor.folder([]);
  let created = false;
  try {
    for (const name of target.names) {
      let next: Folder;
      try {
        next = folder.openFolder(name);
        created = false;
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw error;
        try {
          folder.mkdir(name);
          created = true;
        } catch (mkdirError) {
          // Made meanwhile by someone else: open whatever is there, which must be a folder.
          if (errnoOf(mkdirError) !== 'EEXIST') throw mkdirError;
          created = false;
        }
        next = folder.openFolder(name);
      }
      folder.close();
      folder = next;
    }
    return created;
  } finally {
    folder.close();
  }
}

/**
 * Descriptors kept while removing a deep tree: the folders nearest the one being emptied, every
 * REMOVE_SPAN-th within REMOVE_SPAN² levels of it, and every REMOVE_SPAN²-th above that. A folder
 * closed to stay under this is reopened, when the removal climbs back to it, from the nearest open
 * one above it, each folder through its parent: a few descriptors for any depth, and each level
 * reopened a bounded number of times.
 */
const REMOVE_SPAN = 32;

function keptOpen(depth: number, top: number): boolean {
  const distance = top - depth;
  return distance < REMOVE_SPAN || (depth % REMOVE_SPAN === 0 && distance < REMOVE_SPAN * REMOVE_SPAN) || depth % (REMOVE_SPAN * REMOVE_SPAN) === 0;
}

interface Removal {
  readonly name: string;
  folder: Folder | undefined;
  entries: Dirent[] | undefined;
  index: number;
}

/** Empties and removes the folder `name` inside `parent`, depth first with an explicit stack (no recursion), never following a link. */
function removeTree(parent: Folder, name: string): void {
  const stack: Removal[] = [];
  const folderAt = (depth: number): Folder => (depth < 0 ? parent : stack[depth]!.folder!);
  /** The folder of the frame at `depth`, reopened from the nearest open one above it if it was closed. */
  const open = (depth: number): Folder => {
    if (stack[depth]!.folder !== undefined) return stack[depth]!.folder!;
    let from = depth - 1;
    while (from >= 0 && stack[from]!.folder === undefined) from -= 1;
    for (let level = from + 1; level <= depth; level += 1) {
      const frame = stack[level]!;
      frame.folder = folderAt(level - 1).openFolder(frame.name);
      const above = level - 1;
      if (above > from && !keptOpen(above, depth)) {
        stack[above]!.folder!.close();
        stack[above]!.folder = undefined;
      }
    }
    return stack[depth]!.folder!;
  };
  const push = (within: number, child: string) => {
    const folder = open(within).openFolder(child);
    stack.push({ name: child, folder, entries: undefined, index: 0 });
    // One level deeper, only the folders now REMOVE_SPAN or REMOVE_SPAN² levels up can fall out of what is kept.
    const top = stack.length - 1;
    for (const depth of [top - REMOVE_SPAN, top - REMOVE_SPAN * REMOVE_SPAN]) {
      const frame = stack[depth];
      if (frame?.folder !== undefined && !keptOpen(depth, top)) {
        frame.folder.close();
        frame.folder = undefined;
      }
    }
  };
  try {
    stack.push({ name, folder: parent.openFolder(name), entries: undefined, index: 0 });
    while (stack.length > 0) {
      const depth = stack.length - 1;
      const frame = stack[depth]!;
      const folder = open(depth);
      frame.entries ??= folder.list();
      const entry = frame.entries[frame.index];
      if (entry === undefined) {
        // Emptied: removed through its parent's descriptor.
        folder.close();
        frame.folder = undefined;
        stack.pop();
        (depth === 0 ? parent : open(depth - 1)).rmdir(frame.name);
        continue;
      }
      frame.index += 1;
      if (entry.isDirectory()) {
        push(depth, entry.name);
        continue;
      }
      try {
        folder.unlink(entry.name);
      } catch (error) {
        // Replaced by a folder since the listing: remove it as one.
        const code = errnoOf(error);
        if (code !== 'EISDIR' && code !== 'EPERM') throw error;
        push(depth, entry.name);
      }
    }
  } finally {
    for (const frame of stack) frame.folder?.close();
  }
}

/**
 * Deletes a checked entry. A link is removed itself; a folder's contents are removed through
 * descriptors of each folder, never following a link. `expected` is what the check saw there: if
 * something else is there now, nothing is done.
 */
export function remove(target: CheckedPath, expected: EntryType, recursive: boolean): void {
  if (target.names.length === 0) throw new Error('the workspace folder itself is never deleted');
  inFolder(target, (folder, name) => {
    const stats = folder.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${target.path} does not exist`);
    const kind = entryTypeOf(stats);
    if (kind !== expected) throw new ChangedError(target.path, `a ${kind} is there now, where the check saw a ${expected}`);
    if (kind !== 'directory') folder.unlink(name);
    else if (recursive) removeTree(folder, name);
    else folder.rmdir(name);
  });
}

export function destinationExists(destination: string): NodeJS.ErrnoException {
  return fsError('EEXIST', `${destination} already exists; move_file never overwrites. Delete it first (delete_path) or choose another name.`);
}

/**
 * Moves a checked entry between two anchored folders, never replacing anything and never
 * unlinking a name it did not check. A file or link is taken aside atomically (rename to a private
 * temporary beside it), so whatever is at the source in that instant is what moves, a save
 * included; it then gets its new name with link(2), which fails if the destination exists (and
 * the entry goes back). A folder is renamed after its destination is confirmed absent. Nothing is
 * copied. `expected` is what the check saw at the source: if something else is there, nothing is
 * done.
 */
export function move(source: CheckedPath, destination: CheckedPath, expected: EntryType): void {
  if (source.names.length === 0) throw new Error('move_file never moves the workspace folder itself');
  if (destination.names.length === 0) throw destinationExists(destination.path);
  const toName = fileName(destination);
  inFolder(source, (sourceFolder, fromName) => {
    let destinationFolder: Folder;
    try {
      destinationFolder = destination.anchor.folder(destination.names.slice(0, -1));
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
      throw fsError('ENOENT', `the destination's folder ${nodePath.dirname(destination.path)} does not exist; create it first with create_directory`);
    }
    try {
      const stats = sourceFolder.lstat(fromName);
      if (stats === undefined) throw fsError('ENOENT', `${source.path} does not exist`);
      const kind = entryTypeOf(stats);
      if (kind !== expected) throw new ChangedError(source.path, `a ${kind} is there now, where the check saw a ${expected}`);
      if (destinationFolder.lstat(toName) !== undefined) throw destinationExists(destination.path);
      // Linux links a symlink itself; macOS and the BSDs would link its target, which may lie outside.
      if (kind === 'directory' || (kind === 'symlink' && source.anchor.platform !== 'linux')) {
        renameIfAbsent(sourceFolder, fromName, destinationFolder, toName, destination.path);
        return;
      }
      withTemporary(sourceFolder, fromName, 'old', (aside) => {
        sourceFolder.rename(fromName, sourceFolder, aside);
        const taken = sourceFolder.lstat(aside);
        if (taken === undefined || entryTypeOf(taken) !== kind) {
          putBackEntry(sourceFolder, aside, fromName, taken);
          throw new ChangedError(source.path, `a ${taken === undefined ? 'missing entry' : entryTypeOf(taken)} was there when it was moved, where the check saw a ${expected}`);
        }
        try {
          sourceFolder.link(aside, destinationFolder, toName);
        } catch (error) {
          const code = errnoOf(error) ?? '';
          if (LINK_UNSUPPORTED.has(code) && destinationFolder.lstat(toName) === undefined) {
            sourceFolder.rename(aside, destinationFolder, toName);
            return;
          }
          putBackEntry(sourceFolder, aside, fromName, taken);
          if (code === 'EEXIST') throw destinationExists(destination.path);
          rethrow(destination.path, error);
        }
      });
    } finally {
      destinationFolder.close();
    }
  });
}

/** Gives an entry taken aside its name back; a name made again meanwhile holds something newer, and keeps it. */
function putBackEntry(folder: Folder, aside: string, name: string, taken: BigIntStats | undefined): void {
  try {
    if (taken?.isDirectory()) {
      if (folder.lstat(name) === undefined) folder.rename(aside, folder, name);
    } else folder.link(aside, folder, name);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST' && errnoOf(error) !== 'ENOENT') throw error;
  }
}

/**
 * rename(2) replaces what is at the destination, so absence is confirmed first. Only an empty
 * folder made at the destination in the instant between can be replaced: a file or a link there
 * makes a folder's rename fail.
 */
function renameIfAbsent(sourceFolder: Folder, fromName: string, destinationFolder: Folder, toName: string, destination: string): void {
  if (destinationFolder.lstat(toName) !== undefined) throw destinationExists(destination);
  attempt(destination, () => sourceFolder.rename(fromName, destinationFolder, toName));
}

/** What is at a checked path, never following a link at its last name, with a link's target text. */
export function describe(target: CheckedPath): { stats: BigIntStats; linkTarget: string | undefined } {
  if (target.names.length === 0) return target.anchor.with([], (folder) => ({ stats: folder.stat(), linkTarget: undefined }));
  return inFolder(target, (folder, name) => {
    const stats = folder.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${target.path} does not exist`);
    return { stats, linkTarget: stats.isSymbolicLink() ? folder.readlink(name) : undefined };
  });
}

/** Opens a checked folder for listing; the caller closes it. */
export function openFolder(target: CheckedPath): Folder {
  return target.anchor.folder(target.names);
}
