import type { BigIntStats, Dirent } from 'node:fs';
import type { Folder } from './fs/index.js';
import { MAX_REMEMBERED_LISTING_ENTRIES, MAX_REMEMBERED_LISTINGS } from './limits.js';

/**
 * A folder's times tick coarsely (a jiffy on Linux, two seconds on FAT): a change in the same tick
 * as a reading leaves them as they were. A reading is kept only when the folder's last change is
 * older than this, so any later change shows as a new change time.
 */
export const SETTLED_MS = 2_000;

/**
 * The sorted entries of the folders a connection listed last, so that a listing's later pages
 * are cut from one reading instead of reading and sorting the whole folder again for each page.
 * A reading serves only while the folder is the same inode with the same change time (ctime:
 * unlike the modification time, nothing can set it back).
 */
export class ListingMemory {
  private readonly listings = new Map<string, { readonly stats: BigIntStats; readonly entries: readonly Dirent[] }>();

  constructor(
    private readonly capacity = MAX_REMEMBERED_LISTINGS,
    private readonly maxEntries = MAX_REMEMBERED_LISTING_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  /** The folder's entries, sorted by name: the kept reading while the folder has not changed. */
  entriesOf(folder: Folder): readonly Dirent[] {
    const stats = folder.stat();
    const kept = this.listings.get(folder.path);
    this.listings.delete(folder.path);
    if (kept !== undefined && unchanged(kept.stats, stats)) {
      this.listings.set(folder.path, kept);
      return kept.entries;
    }
    // Stated before the reading: a change while reading shows as a newer ctime next time.
    const entries = folder.list();
    if (this.now() - Number(stats.ctimeMs) > SETTLED_MS && entries.length <= this.maxEntries) {
      this.listings.set(folder.path, { stats, entries });
      if (this.listings.size > this.capacity) this.listings.delete(this.listings.keys().next().value!);
    }
    return entries;
  }
}

function unchanged(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.ctimeNs === b.ctimeNs && a.mtimeNs === b.mtimeNs;
}
