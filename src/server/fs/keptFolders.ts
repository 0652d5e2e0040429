import fs, { type BigIntStats } from 'node:fs';
import type { DescriptorFolder } from './descriptorFolder.js';

/** A folder lent to one call; `release` gives it back when the call ends. */
export interface FolderLease<F> {
  readonly folder: F;
  release(): void;
}

interface Kept {
  readonly owner: KeptFolders;
  readonly key: string;
  readonly folder: DescriptorFolder;
  /** The folder as it was opened: what its path must still lead to. */
  readonly identity: BigIntStats;
  /** When it was last lent (`lendings`): the least recent is given up first. */
  lastLent: number;
  /** Calls holding it now: it is closed only once none does. */
  users: number;
  /** No longer lent: closed when its last user releases it. */
  dropped: boolean;
}

/** Folders kept below every root together: each is an open descriptor, and a server may serve many roots. */
const MAX_KEPT_IN_ALL = 64;
/** Every root's kept folders. */
const everyKept = new Set<Kept>();
/** Loans so far, in every root: a clock for the order of lending (kept in each entry, so that a loan moves nothing in the maps). */
let lendings = 0;

/**
 * Folders below a workspace root kept open across calls (Linux descriptors only), so that a call
 * in a folder an earlier call walked to does not walk again. A kept folder is lent only while it
 * is still the one its checked path names, proven at each loan: the kernel's name for it is that
 * path (a folder moved, deleted, or reached through a link has another), and the path, resolved
 * now, leads to it (a folder mounted over is no longer reached). Anything else drops it and the
 * call walks from the root. Few are kept (per root, and for every root together), none on
 * another mount than the root's (an open descriptor would keep a filesystem mounted inside the
 * workspace, or a bind mount, from being unmounted), and one is closed only when no call holds
 * it, since a closed descriptor's number may be reused by the next open.
 */
export class KeptFolders {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly limit: number,
    /** The root's mount (mountOf): only folders on it are kept; none where it is not known. */
    private readonly mount: string | undefined,
  ) {}

  /** The folder at `path` (key: its names below the root): kept, if still there, or opened now by `open`. */
  lend(key: string, path: string, open: () => DescriptorFolder): FolderLease<DescriptorFolder> {
    const kept = this.kept.get(key);
    if (kept !== undefined) {
      if (stillAt(kept, path)) {
        kept.lastLent = ++lendings;
        return lentOnce(kept);
      }
      this.forget(kept);
    }
    const folder = open();
    let identity: BigIntStats;
    try {
      identity = folder.stat();
    } catch (error) {
      folder.dispose();
      throw error;
    }
    const opened: Kept = { owner: this, key, folder, identity, lastLent: ++lendings, users: 0, dropped: this.mount === undefined || mountOf(folder.fd) !== this.mount };
    if (!opened.dropped) {
      // The least recently lent goes first: this root's own, then any root's.
      while (this.kept.size >= this.limit) this.forget(leastRecent(this.kept.values()));
      while (everyKept.size >= MAX_KEPT_IN_ALL) {
        const oldest = leastRecent(everyKept);
        oldest.owner.forget(oldest);
      }
      this.kept.set(key, opened);
      everyKept.add(opened);
    }
    return lentOnce(opened);
  }

  /** Drops every kept folder: each is closed once no call holds it. */
  clear(): void {
    for (const entry of [...this.kept.values()]) this.forget(entry);
  }

  /** How many are kept now. */
  get size(): number {
    return this.kept.size;
  }

  /** Keeps `entry` no longer, and drops it. */
  private forget(entry: Kept): void {
    this.kept.delete(entry.key);
    everyKept.delete(entry);
    drop(entry);
  }
}

/** The entry lent longest ago (a few dozen at most). */
function leastRecent(entries: Iterable<Kept>): Kept {
  let oldest: Kept | undefined;
  for (const entry of entries) if (oldest === undefined || entry.lastLent < oldest.lastLent) oldest = entry;
  return oldest!;
}

/** No longer lent: closed now, or when its last user gives it back. */
function drop(entry: Kept): void {
  entry.dropped = true;
  if (entry.users === 0) entry.folder.dispose();
}

/** The mount a descriptor was opened on, as the kernel numbers it (`mnt_id` in /proc/self/fdinfo); undefined where that is not shown. */
export function mountOf(fd: number): string | undefined {
  try {
    return /^mnt_id:\s*(\d+)$/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'))?.[1];
  } catch {
    return undefined;
  }
}

/** A loan of `entry`: a dropped one is closed when its last user gives it back. */
function lentOnce(entry: Kept): FolderLease<DescriptorFolder> {
  entry.users += 1;
  let released = false;
  return {
    folder: entry.folder,
    release: () => {
      if (released) return;
      released = true;
      entry.users -= 1;
      if (entry.dropped && entry.users === 0) entry.folder.dispose();
    },
  };
}

/** Whether a kept folder is still the one at `path`: its kernel name is the path, and the path leads to it. */
function stillAt(entry: Kept, path: string): boolean {
  try {
    if (fs.readlinkSync(`/proc/self/fd/${entry.folder.fd}`) !== path) return false;
    const now = fs.lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return now !== undefined && now.isDirectory() && now.dev === entry.identity.dev && now.ino === entry.identity.ino;
  } catch {
    return false;
  }
}
