import fs, { type BigIntStats } from 'node:fs';
import { inFolder, parentOf, type CheckedPath } from './anchor.js';
import { commitReplacing, type Base } from './commit.js';
import { fsError, sameVersion } from './errors.js';
import { readIn, readOpen } from './read.js';
import { sweepAgain, sweepOnce, withTemporary } from './temporary.js';

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

export type WriteResult =
  | { readonly kind: 'written'; readonly created: boolean; readonly stats: BigIntStats }
  /** The file at the name is not the one the change was computed from: nothing of the change is left. */
  | { readonly kind: 'changed'; readonly why: string };

export interface WriteOptions {
  /** What the change was computed from; by default what is at the name when the write starts. */
  readonly base?: Base;
  /** Runs with the new content written and not yet in place, immediately before the commit: a throw abandons the write and leaves nothing. */
  readonly beforeCommit?: () => void;
}

/**
 * Before a change to a checked path: a file that a writer killed in its commit had taken aside
 * from that name is back, and what else a gone writer left of it is removed (temporary.ts).
 */
export async function settleTemporaries(target: CheckedPath): Promise<void> {
  const { folder, name, release } = parentOf(target);
  try {
    await sweepOnce(folder, name);
  } finally {
    release();
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
export async function writeFile(target: CheckedPath, data: string | Uint8Array, options: WriteOptions = {}): Promise<WriteResult> {
  const { folder, name, release } = parentOf(target);
  try {
    // First: a file a killed writer had taken aside goes back before anything is compared with it.
    await sweepOnce(folder, name);
    const existing = folder.lstat(name);
    if (existing?.isDirectory()) throw fsError('EISDIR', `${target.path} is a folder; write_file writes files`);
    const base: Base = options.base ?? (existing === undefined ? { kind: 'absent' } : { kind: 'present', stats: existing });
    return await withTemporary(folder, name, 'tmp', async (temporary): Promise<WriteResult> => {
      try {
        const fd = folder.createExclusive(temporary, existing?.isFile() ? 0o600 : 0o666);
        try {
          fs.writeFileSync(fd, data);
          // Keep an existing file's permissions; a new one gets the usual 0666 less the umask.
          if (existing?.isFile()) fs.fchmodSync(fd, Number(existing.mode & 0o7777n));
        } finally {
          fs.closeSync(fd);
        }
        options.beforeCommit?.();
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
    release();
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
