import type { BigIntStats } from 'node:fs';
import { ChangedError, errnoOf, LINK_UNSUPPORTED, sameVersion } from './errors.js';
import type { Folder } from './folder.js';
import { putBack, withTemporary } from './temporary.js';

/** What a change was computed from: nothing at the name, or the file as it was seen then. */
export type Base =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly stats: BigIntStats;
      /** A closer look, when the metadata agrees: whether the file now at `name` (in `folder`) is still the one the change was computed from. */
      readonly sameContent?: (folder: Folder, name: string) => boolean;
    };

/**
 * When done, `stats` are the new file's as written: what the agent knows is at the name now; and
 * `replaced`, the file it replaced, held open by its descriptor (the caller closes it), to see a
 * save that still lands in it.
 */
export type Committed =
  | { readonly done: true; readonly stats: BigIntStats; readonly replaced?: { readonly fd: number; readonly stats: BigIntStats } }
  | { readonly done: false; readonly why: string };

/**
 * Puts the file written at `temporary` in place at `name`, only if what is at `name` is still
 * `base`, so a change never replaces a save it did not see (another program's, the user's editor):
 *
 * 1. what is at the name is taken aside atomically, by rename to a private temporary;
 * 2. what was taken aside is compared with the base: another file (a save that landed first)
 *    goes straight back, and nothing of the change is left;
 * 3. the new file is put in with link(2), which fails if the name was made again meanwhile (a
 *    save in that instant): that save is kept, and what was taken aside is older than it.
 *
 * An editor that saves in place truncates the file as it opens it, so a save begun before step 1
 * shows in step 2 (letHeldUpWritersIn gives it the moment to); one that opens the name after
 * step 1 makes a new file, which step 3 keeps. The new content is at the name only if the base
 * was. An editor held up inside open(2) across the whole commit (it looked the name up before
 * step 1) saves into what was taken aside: seen at once, its save goes back; seen later, through
 * the descriptor the caller is handed, the caller puts it back over the new file (write.ts).
 * A lease (fcntl F_SETLEASE) would rule that writer out; Node offers none.
 *
 * The name is empty between steps 1 and 3; a writer killed there leaves the old file under a
 * `.old` temporary, which the next change of that file, by any server, puts back once that writer
 * is known to be gone (temporary.ts). Where the filesystem makes no hard links, step 3 is a
 * rename: there a save landing in that instant is replaced.
 */
export function commitReplacing(folder: Folder, name: string, temporary: string, base: Base): Committed {
  // Without a descriptor the folder is named by its path: one swapped since the write shows here.
  const ours = folder.lstat(temporary);
  if (ours === undefined) throw new ChangedError(folder.pathOf(name), 'its folder changed while the new content was written');
  if (base.kind === 'absent') {
    return linkInPlace(folder, temporary, name, ours) ? { done: true, stats: ours } : { done: false, why: 'a file was made at that name meanwhile' };
  }
  return withTemporary(folder, name, 'old', (aside, keep): Committed => {
    try {
      folder.rename(name, folder, aside);
    } catch (error) {
      // Deleted, or another writer's commit has the name empty for a moment.
      if (errnoOf(error) === 'ENOENT') return { done: false, why: 'it was deleted or replaced meanwhile' };
      throw error;
    }
    let placed = false;
    try {
      letHeldUpWritersIn();
      const was = folder.lstat(aside);
      if (was === undefined || !sameVersion(was, base.stats) || !(base.sameContent?.(folder, aside) ?? true)) {
        return { done: false, why: 'it was saved by another program meanwhile' };
      }
      placed = linkInPlace(folder, temporary, name, ours);
      if (!placed) return { done: false, why: 'it was saved again meanwhile' };
      // A writer that had looked the name up just before step 1 and was held up inside open(2)
      // truncates and writes what was taken aside only now: then that save is the newest.
      const still = folder.lstat(aside);
      if (still === undefined) return { done: true, stats: ours };
      if (sameVersion(still, was)) return { done: true, stats: ours, ...heldOpen(folder, aside, still) };
      restore(folder, name, aside, ours);
      placed = true;
      return { done: false, why: 'it was saved by another program meanwhile' };
    } finally {
      if (!placed) putBackOrKeep(folder, aside, name, keep);
    }
  });
}

/** Puts what was taken aside back; what cannot be put back is kept under its temporary name, never removed. */
function putBackOrKeep(folder: Folder, aside: string, name: string, keep: () => void): void {
  try {
    if (!putBack(folder, aside, name)) keep();
  } catch (error) {
    keep();
    throw error;
  }
}

/**
 * Takes the new file out again and puts the save taken aside back; if the new file was itself
 * written to meanwhile (an editor saving in place into it), that is the newest save, and stays;
 * so it does if the save taken aside is gone.
 */
function restore(folder: Folder, name: string, aside: string, ours: BigIntStats): void {
  withTemporary(folder, name, 'old', (second, keep) => {
    try {
      folder.rename(name, folder, second);
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
      putBack(folder, aside, name);
      return;
    }
    const now = folder.lstat(second);
    if (now !== undefined && sameVersion(now, ours) && putBack(folder, aside, name)) return;
    putBackOrKeep(folder, second, name, keep);
  });
}

/** The regular file taken aside, open for reading, so a save landing in it later is seen; none for a link or anything else. */
function heldOpen(folder: Folder, aside: string, stats: BigIntStats): { replaced?: { fd: number; stats: BigIntStats } } {
  if (!stats.isFile()) return {};
  try {
    return { replaced: { fd: folder.openFile(aside).fd, stats } };
  } catch {
    return {};
  }
}

/** Gives the new file its name without replacing anything; false when the name was made meanwhile. */
function linkInPlace(folder: Folder, temporary: string, name: string, ours: BigIntStats): boolean {
  try {
    folder.link(temporary, folder, name);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    if (!LINK_UNSUPPORTED.has(errnoOf(error) ?? '')) throw error;
    if (folder.lstat(name) !== undefined) return false;
    folder.rename(temporary, folder, name);
    return folder.lstat(name)?.ino === ours.ino;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Sleeps about 0.1 ms between taking the file aside and comparing it. An editor saving in place
 * that had looked the name up just before waits for the rename's lock on the file, then needs a
 * CPU to truncate it; with every CPU busy it may get none until the commit is over. Sleeping
 * gives it one, so its truncation shows in the comparison (measured: a few saves in 10,000 lost
 * without this, none with it, against an editor saving every 0.45 ms on two busy cores).
 */
function letHeldUpWritersIn(): void {
  Atomics.wait(sleeper, 0, 0, 0.05);
}
