import type { BigIntStats } from 'node:fs';
import { sameVersion } from './fs/index.js';
import { MAX_REMEMBERED_READS } from './limits.js';

/**
 * What a connection last read, file by file, as agent editors keep it: the identity of each file
 * (inode, size, modification time in nanoseconds) when the connection last read it or wrote it.
 * A write or edit of a file that has changed on disk since is refused, so an agent never writes
 * over a save it never saw; a file it never read can still be written. Bounded: the least
 * recently used file is forgotten first, and a forgotten file is one never read.
 */
export class ReadMemory {
  private readonly files = new Map<string, { readonly stats: BigIntStats; readonly at: number }>();

  constructor(private readonly capacity = MAX_REMEMBERED_READS) {}

  remember(path: string, stats: BigIntStats): void {
    this.files.delete(path);
    this.files.set(path, { stats, at: Date.now() });
    if (this.files.size > this.capacity) this.files.delete(this.files.keys().next().value!);
  }

  forget(path: string): void {
    this.files.delete(path);
  }

  /** When the file at `path` was read, if what is there now (undefined: nothing) is not what was read. */
  changedSince(path: string, now: BigIntStats | undefined): number | undefined {
    const read = this.files.get(path);
    if (read === undefined || (now !== undefined && sameVersion(now, read.stats))) return undefined;
    return read.at;
  }
}

/** "10:02:17": the local time of day a read was made, as the refusal names it. */
export function timeOfDay(at: number): string {
  const time = new Date(at);
  return [time.getHours(), time.getMinutes(), time.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}
