import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { errnoOf, LINK_UNSUPPORTED } from './errors.js';
import type { Folder } from './folder.js';

// Temporary files: one recognisable pattern, `.bi.<name hash>.<writer>.<random>.<role>`, short
// whatever the target's name, so a 255-byte name can still be written. The writer names the
// process whose life stands for the writer's (see Writer). The role says what a leftover is:
// `tmp`, new content never put in place; `old`, a file taken aside while a change was committed,
// put back if its name is free (its writer was killed in that instant), otherwise superseded.
// Another writer's temporaries are touched only once it is known to be gone: never by their age,
// as a file taken aside keeps the times of its last save.

export const TEMPORARY_NAME = /^\.bi\.([0-9a-f]{8})\.([0-9a-z]+)-([0-9a-z]+)(?:-([0-9a-z]+))?\.[0-9a-f]{8}\.(tmp|old)$/;

export type TemporaryRole = 'tmp' | 'old';

/**
 * The process whose life stands for a writer's: the server itself, or, for a server in a sandbox
 * with a PID namespace of its own, its launcher outside (the sandbox dies with the launcher, and
 * the launcher exits when the server does), so that its number means something to every other
 * server on the host.
 */
export interface Writer {
  readonly pid: number;
  /** Its PID namespace, by inode number: a pid means something only there. 0 where there is none to tell (macOS). */
  readonly namespace: number;
  /** When it started, in clock ticks after boot: a pid taken again by another process is not it. 0 where unknown. */
  readonly started: number;
}

/** How this process names itself in its temporaries, and learns whether another writer lives. */
export interface Writers {
  readonly self: Writer;
  /** True, false, or undefined when it cannot be told: such a writer may live, and its temporaries stay. */
  alive(writer: Writer): boolean | undefined | Promise<boolean | undefined>;
}

const BASE = 36;

function readNumber(read: () => string | undefined): number {
  try {
    const value = Number(read());
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

/** Field 22 of /proc/<pid>/stat, after the command's name in parentheses (which may hold anything). */
function startTimeOf(pid: number | 'self'): number {
  return readNumber(() => {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  });
}

/** This process as a writer. */
export function thisProcess(): Writer {
  return {
    pid: process.pid,
    namespace: readNumber(() => /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1]),
    started: startTimeOf('self'),
  };
}

const HERE = thisProcess();

/**
 * Whether a writer lives, as this process can see: only in its own PID namespace, by its process's
 * start time where both are known (so a pid reused since is not mistaken for it), else by signal 0.
 */
export function writerAliveHere(writer: Writer): boolean | undefined {
  if (writer.namespace !== HERE.namespace) return undefined;
  if (writer.started !== 0 && HERE.started !== 0) {
    const started = startTimeOf(writer.pid);
    if (started !== 0) return started === writer.started;
  }
  try {
    process.kill(writer.pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM';
  }
}

let writers: Writers = { self: HERE, alive: writerAliveHere };
let writerTag = tagOf(HERE);

/** How this process names itself and asks after others: a sandboxed server stands in its launcher's name, and asks it. */
export function useWriters(chosen: Writers): void {
  writers = chosen;
  writerTag = tagOf(chosen.self);
}

/** A writer as its temporaries name it; the inverse of writerOfTag. */
export function tagOf(writer: Writer): string {
  return `${writer.pid.toString(BASE)}-${writer.namespace.toString(BASE)}-${writer.started.toString(BASE)}`;
}

export function writerOfTag(tag: string): Writer | undefined {
  const parts = /^([0-9a-z]+)-([0-9a-z]+)(?:-([0-9a-z]+))?$/.exec(tag);
  if (!parts) return undefined;
  const [pid, namespace, started] = [parts[1], parts[2], parts[3] ?? '0'].map((part) => parseInt(part!, BASE));
  return Number.isSafeInteger(pid) && Number.isSafeInteger(namespace) && Number.isSafeInteger(started) ? { pid: pid!, namespace: namespace!, started: started! } : undefined;
}

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
 * Gives a file taken aside its name back, unless the name was made again meanwhile (what is there
 * is newer, and is kept); where the filesystem makes no hard links, by rename while the name is
 * free. True when the name holds a file now, so the temporary may go; false when it could not be
 * put back (it is gone itself), so nothing more may be removed.
 */
export function putBack(folder: Folder, aside: string, name: string): boolean {
  try {
    folder.link(aside, folder, name);
    return true;
  } catch (error) {
    const code = errnoOf(error) ?? '';
    if (code === 'EEXIST') return true;
    if (code === 'ENOENT') return folder.lstat(name) !== undefined;
    if (!LINK_UNSUPPORTED.has(code) || folder.lstat(name) !== undefined) throw error;
    folder.rename(aside, folder, name);
    return true;
  }
}

/**
 * A gone writer's temporary: a file it had taken aside goes back to its name if that is free and
 * it has no other name (it is the last copy of the file) and the writer never put its new file in
 * place (`committed`: the file taken aside is then an older version); otherwise it is removed, as
 * is new content never put in place.
 */
function clearLeftover(folder: Folder, temporary: string, name: string, role: TemporaryRole, committed: boolean): void {
  if (role === 'old' && !committed) {
    const stats = folder.lstat(temporary);
    if (stats === undefined) return;
    if (stats.nlink < 2n && !putBack(folder, temporary, name)) return;
  }
  try {
    folder.unlink(temporary);
  } catch (error) {
    // put back by rename, or cleared by another writer's sweep
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
}

/**
 * A temporary name reserved for one change: never swept while `use` runs (or, when it returns a
 * promise, until that settles), removed (if still there) after, unless `use` called `keep`: then
 * it holds the only copy of a file that could not be given its name back, and stays for a sweep.
 */
export function withTemporary<T>(folder: Folder, name: string, role: TemporaryRole, use: (temporary: string, keep: () => void) => T): T {
  const temporary = temporaryNameFor(name, role);
  inFlight.add(temporary);
  let kept = false;
  const release = () => {
    if (!kept) {
      try {
        folder.unlink(temporary);
      } catch {
        // placed, put back, or never made
      }
    }
    inFlight.delete(temporary);
  };
  let result: T;
  try {
    result = use(temporary, () => (kept = true));
  } catch (error) {
    release();
    throw error;
  }
  if (result instanceof Promise) return result.finally(release) as T;
  release();
  return result;
}

function sameWriter(a: Writer, b: Writer): boolean {
  return a.pid === b.pid && a.namespace === b.namespace && a.started === b.started;
}

/**
 * Targets whose temporary files this process has swept and found nothing of a live writer's. A
 * killed writer's leftovers are removed by the first write of the same file in each process, by
 * every write while another writer's temporaries are there, and by the next one after a write
 * fails (a full disk may be what they cost): not by every write, as listing the folder is a good
 * part of a small write's cost. Cleared when full, which only means sweeping again; a target with
 * a very long path is swept every time rather than kept.
 */
const swept = new Set<string>();
const MAX_SWEPT = 1024;
const MAX_SWEPT_PATH_CHARS = 1024;

/**
 * Before a change to `name`: what a writer that is gone had taken aside from it goes back, and
 * what else it left of that name is removed. Asks whether each writer lives (a sandboxed server
 * asks its launcher), so it may wait.
 */
export async function sweepOnce(folder: Folder, name: string): Promise<void> {
  const target = folder.pathOf(name);
  if (swept.has(target)) return;
  const settled = await removeStaleTemporaries(folder, name);
  if (settled && target.length <= MAX_SWEPT_PATH_CHARS) {
    if (swept.size >= MAX_SWEPT) swept.clear();
    swept.add(target);
  }
}

/** The next write of this target sweeps again. */
export function sweepAgain(folder: Folder, name: string): void {
  swept.delete(folder.pathOf(name));
}

/**
 * Removes the temporary files of `name` whose writers are gone, never one that may still be in
 * use. A file such a writer had taken aside goes back to its name if the name is free, unless the
 * writer had put its new file in place (its new content has a second name: the target's, or the
 * temporary name another writer's commit moved it to, which empties the name for a moment). True
 * when nothing of a writer that may live was found.
 */
async function removeStaleTemporaries(folder: Folder, name: string): Promise<boolean> {
  const prefix = `.bi.${nameHash(name)}.`;
  let names: string[];
  try {
    names = folder.names();
  } catch {
    return false;
  }
  const gone: { readonly entry: string; readonly tag: string; readonly role: TemporaryRole }[] = [];
  let settled = true;
  for (const entry of names) {
    if (!entry.startsWith(prefix)) continue;
    const match = TEMPORARY_NAME.exec(entry);
    const tag = match ? `${match[2]}-${match[3]}${match[4] === undefined ? '' : `-${match[4]}`}` : '';
    const writer = writerOfTag(tag);
    if (writer === undefined) continue;
    if (!inFlight.has(entry) && (sameWriter(writer, writers.self) || (await writers.alive(writer)) === false)) gone.push({ entry, tag, role: match![5] as TemporaryRole });
    else settled = false;
  }
  const committed = new Set(gone.filter(({ role, entry }) => role === 'tmp' && (folder.lstat(entry)?.nlink ?? 0n) >= 2n).map(({ tag }) => tag));
  for (const { entry, tag, role } of gone) {
    try {
      clearLeftover(folder, entry, name, role, committed.has(tag));
    } catch {
      settled = false;
    }
  }
  return settled;
}
