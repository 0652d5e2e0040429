import type { BigIntStats } from 'node:fs';
import { ChangedError, errnoOf, sameVersion } from './errors.js';
import type { Folder } from './folder.js';
import { withTemporary } from './temporary.js';

/** link(2) cannot make this name here (another filesystem, no hard links, a protected file): rename instead. */
export const LINK_UNSUPPORTED = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/** What a change was computed from: nothing at the name, or the file as it was seen then. */
export type Base =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'present';
      readonly stats: BigIntStats;
      /** A closer look, when the metadata agrees: whether the file now at `name` (in `folder`) is still the one the change was computed from. */
      readonly sameContent?: (folder: Folder, name: string) => boolean;
    };

/** When done, `stats` are the new file's as written: what the agent knows is at the name now. */
export type Committed = { readonly done: true; readonly stats: BigIntStats } | { readonly done: false; readonly why: string };

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
 * shows in step 2; one that opens the name after step 1 makes a new file, which step 3 keeps.
 * The new content is never at the name unless the base was. The name is empty between steps 1
 * and 3; a writer killed there leaves the old file under a `.old` temporary, which its next write
 * of that file puts back. Where the filesystem makes no hard links, step 3 is a rename: there a
 * save landing in that instant is replaced.
 */
export function commitReplacing(folder: Folder, name: string, temporary: string, base: Base): Committed {
  // Without a descriptor the folder is named by its path: one swapped since the write shows here.
  const ours = folder.lstat(temporary);
  if (ours === undefined) throw new ChangedError(folder.pathOf(name), 'its folder changed while the new content was written');
  if (base.kind === 'absent') return linkInPlace(folder, temporary, name, ours) ? { done: true, stats: ours } : { done: false, why: 'a file was made at that name meanwhile' };
  return withTemporary(folder, name, 'old', (aside): Committed => {
    try {
      folder.rename(name, folder, aside);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return { done: false, why: 'it was deleted meanwhile' };
      throw error;
    }
    let placed = false;
    try {
      const was = folder.lstat(aside);
      if (was === undefined || !sameVersion(was, base.stats) || !(base.sameContent?.(folder, aside) ?? true)) {
        return { done: false, why: 'it was saved by another program meanwhile' };
      }
      placed = linkInPlace(folder, temporary, name, ours);
      return placed ? { done: true, stats: ours } : { done: false, why: 'it was saved again meanwhile' };
    } finally {
      if (!placed) putBack(folder, aside, name);
    }
  });
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

/** Puts what was taken aside back at its name, unless the name was made again (then that is newer, and kept). */
function putBack(folder: Folder, aside: string, name: string): void {
  try {
    folder.link(aside, folder, name);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST') throw error;
  }
}
