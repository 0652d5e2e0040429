import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Folder } from './folder.js';

// Temporary files: one recognisable pattern, `.bi.<name hash>.<pid>-<pid namespace>.<random>.<role>`
// (both numbers in base 36), short whatever the target's name, so a 255-byte name can still be
// written. A pid means something only in its PID namespace, and every sandboxed server has one of
// its own (where it is pid 2 or 3). The role says what a leftover is: `tmp`, new content never
// put in place; `old`, a file taken aside while a change was committed, put back if its name is
// free (the writer was killed in that instant), otherwise superseded.

export const TEMPORARY_NAME = /^\.bi\.([0-9a-f]{8})\.([0-9a-z]+)-([0-9a-z]+)\.[0-9a-f]{8}\.(tmp|old)$/;

export type TemporaryRole = 'tmp' | 'old';

/** A writer in another PID namespace cannot be asked whether it lives: its temporaries are stale past this age. */
export const FOREIGN_TEMPORARY_STALE_MS = 10 * 60 * 1000;

/** This process's PID namespace, by its inode number (base 36, as the pid, to keep names short); 0 where it cannot be read. */
const pidNamespace = (() => {
  try {
    return Number(/\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1] ?? 0).toString(36);
  } catch {
    return '0';
  }
})();
const writerTag = `${process.pid.toString(36)}-${pidNamespace}`;
/** Temporaries this process is using now: never swept. */
const inFlight = new Set<string>();

/** Hashes of recently written names: a client rewrites the same files. */
const recentHashes = new Map<string, string>();
const MAX_RECENT_HASHES = 1024;

function nameHash(name: string): string {
  let hash = recentHashes.get(name);
  if (hash === undefined) {
    hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
    if (recentHashes.size >= MAX_RECENT_HASHES) recentHashes.clear();
    recentHashes.set(name, hash);
  }
  return hash;
}

/** Random bytes drawn a page at a time: one getrandom call serves a thousand names. */
let randomPool = Buffer.alloc(0);
let randomAt = 0;

function randomHex4(): string {
  if (randomAt + 4 > randomPool.length) {
    randomPool = randomBytes(4096);
    randomAt = 0;
  }
  randomAt += 4;
  return randomPool.toString('hex', randomAt - 4, randomAt);
}

export function temporaryNameFor(name: string, role: TemporaryRole = 'tmp'): string {
  return `.bi.${nameHash(name)}.${writerTag}.${randomHex4()}.${role}`;
}

/**
 * A temporary name reserved for one change: never swept while `use` runs (or, when it returns a
 * promise, until that settles), removed (if still there) after.
 */
export function withTemporary<T>(folder: Folder, name: string, role: TemporaryRole, use: (temporary: string) => T): T {
  const temporary = temporaryNameFor(name, role);
  inFlight.add(temporary);
  const release = () => {
    try {
      folder.unlink(temporary);
    } catch {
      // placed, put back, or never made
    }
    inFlight.delete(temporary);
  };
  let result: T;
  try {
    result = use(temporary);
  } catch (error) {
    release();
    throw error;
  }
  if (result instanceof Promise) return result.finally(release) as T;
  release();
  return result;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the writer of a temporary file is gone: asked of the process in this namespace, judged by the file's age in another. */
function writerGone(folder: Folder, entry: string, pid: number, namespace: string): boolean {
  if (namespace === pidNamespace && pidNamespace !== '0') return pid === process.pid || !processAlive(pid);
  const stats = folder.lstat(entry);
  return stats !== undefined && Date.now() - Number(stats.mtimeMs) > FOREIGN_TEMPORARY_STALE_MS;
}

/**
 * Targets whose stale temporary files this process has swept. A killed writer's leftovers are
 * removed by the first write of the same file in each process, and by the next one after a write
 * fails (a full disk may be what they cost): not by every write, as listing the folder is a good
 * part of a small write's cost. Cleared when full, which only means sweeping again; a target with
 * a very long path is swept every time rather than kept.
 */
const swept = new Set<string>();
const MAX_SWEPT = 1024;
const MAX_SWEPT_PATH_CHARS = 1024;

export function sweepOnce(folder: Folder, name: string): void {
  const target = folder.pathOf(name);
  if (swept.has(target)) return;
  if (target.length <= MAX_SWEPT_PATH_CHARS) {
    if (swept.size >= MAX_SWEPT) swept.clear();
    swept.add(target);
  }
  removeStaleTemporaries(folder, name);
}

/** The next write of this target sweeps again. */
export function sweepAgain(folder: Folder, name: string): void {
  swept.delete(folder.pathOf(name));
}

/**
 * Removes temporary files of `name` that a killed writer left beside it, never one still being
 * written; a file a killed writer had taken aside goes back to its name if the name is free.
 */
function removeStaleTemporaries(folder: Folder, name: string): void {
  const prefix = `.bi.${nameHash(name)}.`;
  let names: string[];
  try {
    names = folder.names();
  } catch {
    return;
  }
  for (const entry of names) {
    if (!entry.startsWith(prefix)) continue;
    const match = TEMPORARY_NAME.exec(entry);
    if (!match || inFlight.has(entry)) continue;
    if (!writerGone(folder, entry, parseInt(match[2]!, 36), match[3]!)) continue;
    try {
      if (match[4] === 'old' && folder.lstat(name) === undefined) folder.link(entry, folder, name);
    } catch {
      // the name was taken meanwhile: what is there now is newer
    }
    try {
      folder.unlink(entry);
    } catch {
      // another writer's cleanup got there first
    }
  }
}
