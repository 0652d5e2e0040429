import { createHash, randomBytes } from 'node:crypto';
import fs, { constants, type BigIntStats, type Dirent } from 'node:fs';
import nodePath from 'node:path';
import { splitAbsolute, type Platform, type SplitPath } from '../core/index.js';

/**
 * Anchored I/O: every filesystem call a tool makes after the core's verdict goes through here.
 *
 * On Linux each folder of a checked path is opened from the workspace root's descriptor down,
 * with O_DIRECTORY|O_NOFOLLOW through its parent's descriptor, and every open, create, rename,
 * link, unlink, mkdir, rmdir, lstat, readlink and readdir acts through the last folder's
 * descriptor: `/proc/self/fd/N/name` resolves `name` inside the folder that N holds open,
 * whatever its path has become, as openat(2) would (Go's os.Root and Rust's cap-std work this
 * way). A folder swapped for a link after the check stops the walk, and nothing is done.
 *
 * Where Node cannot anchor (macOS, Windows, a Linux without /proc) the same calls go through
 * path strings, each folder lstat-checked on the way down and files identity-checked after
 * opening: that narrows the window between check and use but cannot close it; the tools
 * re-check before a change, and the sandbox layer covers the rest.
 */

/** The file at a checked path is no longer the one that was checked: nothing was done. */
export class ChangedError extends Error {
  readonly code = 'ECHANGED';
  constructor(readonly target: string, detail: string) {
    super(`${target} changed while it was being checked (${detail}); nothing was done. Try again.`);
  }
}

export type AnchorMode = 'descriptor' | 'path';
export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
// O_NONBLOCK: a FIFO swapped in cannot block the open; the fstat check then refuses it.
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
/** Linux's O_PATH (the same on x86_64 and aarch64; Node does not name it): a descriptor that names an entry without opening it. */
const O_PATH = 0o10000000;
const FOLDER_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

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

export function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * Runs one filesystem call and, when it fails, reports it under the path the agent knows rather
 * than the descriptor path it went through.
 */
function attempt<T>(display: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string' || error instanceof ChangedError) throw error;
    const description = DESCRIPTIONS[code] ?? (error as Error).message.split(',')[0]!.replace(/^[A-Z]+:\s*/, '');
    throw fsError(code, `${display} ${description}`);
  }
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

function sameIdentity(a: { dev: bigint; ino: bigint }, b: { dev: bigint; ino: bigint }): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function lstatOrUndefined(target: string): BigIntStats | undefined {
  return fs.lstatSync(target, { bigint: true, throwIfNoEntry: false });
}

/** What separates names on this host: a backslash is an ordinary character in a POSIX name. */
const HOST_SEPARATOR = nodePath.sep === '\\' ? /[/\\\0]/ : /[/\0]/;

/**
 * A name this module acts on: one entry in a folder, never `.` or `..`, empty, or holding a
 * separator or NUL (as Go's os.Root and cap-std refuse them), whoever the caller is.
 */
function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || HOST_SEPARATOR.test(name)) throw fsError('EINVAL', `${JSON.stringify(name)} is not a name of an entry in a folder`);
}

/** One open folder of a checked path. */
export class Folder {
  private closed = false;

  constructor(
    /** The folder's checked path, for messages and results: never used to act when there is a descriptor. */
    readonly path: string,
    private readonly fd: number | null,
    private readonly owned: boolean,
  ) {}

  get anchored(): boolean {
    return this.fd !== null;
  }

  /** Names `name` inside this folder: through the descriptor when there is one. Every operation on an entry names it here. */
  child(name: string): string {
    checkName(name);
    return this.fd !== null ? `/proc/self/fd/${this.fd}/${name}` : nodePath.join(this.path, name);
  }

  /** The checked path of an entry, for messages and results. */
  pathOf(name: string): string {
    return nodePath.join(this.path, name);
  }

  /** The folder itself, for readdir only: `/proc/self/fd/N` is itself a link, so never lstat it. */
  private self(): string {
    return this.fd !== null ? `/proc/self/fd/${this.fd}` : this.path;
  }

  stat(): BigIntStats {
    return attempt(this.path, () => (this.fd !== null ? fs.fstatSync(this.fd, { bigint: true }) : fs.lstatSync(this.path, { bigint: true })));
  }

  /** The entries, sorted by name. */
  list(): Dirent[] {
    const entries = attempt(this.path, () => fs.readdirSync(this.self(), { withFileTypes: true }));
    return entries.sort((a, b) => compareNames(a.name, b.name));
  }

  names(): string[] {
    return attempt(this.path, () => fs.readdirSync(this.self())).sort(compareNames);
  }

  /** What is at `name`, never following a link there; undefined when nothing is. */
  lstat(name: string): BigIntStats | undefined {
    return attempt(this.pathOf(name), () => lstatOrUndefined(this.child(name)));
  }

  readlink(name: string): string {
    return attempt(this.pathOf(name), () => fs.readlinkSync(this.child(name)));
  }

  /** Opens the folder `name` inside this one without following a link; a link there means the disk changed since the check. */
  openFolder(name: string): Folder {
    const display = this.pathOf(name);
    if (this.fd === null) {
      const stats = this.lstat(name);
      if (stats === undefined) throw fsError('ENOENT', `${display} does not exist`);
      if (stats.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
      if (!stats.isDirectory()) throw fsError('ENOTDIR', `${display} is not a folder`);
      return new Folder(display, null, true);
    }
    try {
      return new Folder(display, fs.openSync(this.child(name), FOLDER_FLAGS), true);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Linux reports a link under O_NOFOLLOW|O_DIRECTORY as ENOTDIR or ELOOP: say which it was.
      if ((code === 'ENOTDIR' || code === 'ELOOP') && this.lstat(name)?.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
      return rethrow(display, error);
    }
  }

  /**
   * Opens the regular file `name` for reading without following a link, and proves the
   * descriptor is a regular file before a byte is read. Without a folder descriptor, the file's
   * identity before and after the open must also agree.
   */
  openFile(name: string): { fd: number; stats: BigIntStats } {
    const display = this.pathOf(name);
    const before = this.fd === null ? this.lstat(name) : undefined;
    if (this.fd === null) {
      if (before === undefined) throw fsError('ENOENT', `${display} does not exist`);
      if (before.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
      if (!before.isFile()) throw fsError(before.isDirectory() ? 'EISDIR' : 'EINVAL', `${display} is not a regular file`);
    }
    let fd: number;
    try {
      fd = this.fd === null ? fs.openSync(this.child(name), READ_FLAGS) : this.openRegular(name, display);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ChangedError(display, 'a link is there now');
      return rethrow(display, error);
    }
    try {
      const stats = fs.fstatSync(fd, { bigint: true });
      if (stats.isDirectory()) throw fsError('EISDIR', `${display} is a folder, not a file`);
      if (!stats.isFile()) throw fsError('EINVAL', `${display} is not a regular file`);
      if (before !== undefined && !sameIdentity(stats, before)) throw new ChangedError(display, 'another file is there now');
      return { fd, stats };
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  /**
   * Opens a regular file for reading without ever opening anything else: the entry is first taken
   * with O_PATH, which opens nothing (a FIFO's blocked writer is not released, a device's open has
   * no effect), its type read from that descriptor, and only a regular file is then opened, through
   * /proc/self/fd/N, which reaches that same inode whatever the name holds by then.
   */
  private openRegular(name: string, display: string): number {
    const entry = fs.openSync(this.child(name), O_PATH | O_NOFOLLOW);
    try {
      const stats = fs.fstatSync(entry);
      if (stats.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
      if (stats.isDirectory()) throw fsError('EISDIR', `${display} is a folder, not a file`);
      if (!stats.isFile()) throw fsError('EINVAL', `${display} is not a regular file`);
      return fs.openSync(`/proc/self/fd/${entry}`, constants.O_RDONLY);
    } finally {
      fs.closeSync(entry);
    }
  }

  /** Closes the descriptor this folder owns; the root's stays open for the life of the anchor. */
  close(): void {
    if (this.owned) this.dispose();
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.fd !== null) fs.closeSync(this.fd);
  }
}

function rethrow(display: string, error: unknown): never {
  return attempt(display, () => {
    throw error;
  });
}

/** Whether `/proc/self/fd/N/name` can stand for openat(2) here: Linux with /proc mounted. */
function descriptorPathsWork(platform: Platform): boolean {
  return platform === 'linux' && fs.existsSync('/proc/self/fd');
}

/** Where a checked path is below the root: the names of its folder, and its own name (undefined for the root itself). */
export interface Located {
  readonly folder: readonly string[];
  readonly name: string | undefined;
}

/** A workspace root held open for the life of the server; every walk starts here. */
export class Anchor {
  private constructor(
    readonly rootPath: string,
    readonly platform: Platform,
    readonly mode: AnchorMode,
    private readonly rootSplit: SplitPath,
    private readonly root: Folder,
  ) {}

  /**
   * Opens and verifies a workspace root: a folder reached without a link at its last name, whose
   * descriptor names exactly the real path the core resolved.
   */
  static open(rootPath: string, platform: Platform, mode: AnchorMode = descriptorPathsWork(platform) ? 'descriptor' : 'path'): Anchor {
    const split = splitAbsolute(rootPath, platform);
    if (split === null) throw new Error(`${rootPath} is not an absolute path`);
    let root: Folder;
    if (mode === 'descriptor') {
      const fd = attempt(rootPath, () => fs.openSync(rootPath, FOLDER_FLAGS));
      const opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (opened !== rootPath) {
        fs.closeSync(fd);
        throw new ChangedError(rootPath, `the folder opened is ${opened}`);
      }
      root = new Folder(rootPath, fd, false);
    } else {
      const stats = attempt(rootPath, () => fs.lstatSync(rootPath));
      if (!stats.isDirectory()) throw fsError('ENOTDIR', `${rootPath} is not a folder`);
      root = new Folder(rootPath, null, false);
    }
    return new Anchor(rootPath, platform, mode, split, root);
  }

  /**
   * The names of a path below the root. The core decided it is inside; this module does not take
   * that on trust: the root's own names must lead it, name for name, and every name after them
   * must be a name (checkName), so `/ws/../x` or a sibling `/wsx/y` is refused here too.
   */
  namesOf(target: string): string[] {
    const split = splitAbsolute(target, this.platform);
    const root = this.rootSplit;
    if (split === null || split.prefix !== root.prefix || split.names.length < root.names.length || root.names.some((name, i) => split.names[i] !== name)) {
      throw fsError('EINVAL', `${target} is not below the workspace ${this.rootPath}`);
    }
    const below = split.names.slice(root.names.length);
    for (const name of below) checkName(name);
    return below;
  }

  locate(target: string): Located {
    const names = this.namesOf(target);
    return { folder: names.slice(0, -1), name: names.at(-1) };
  }

  /** Opens the folder at `names` below the root, each through its parent without following a link. The caller closes it. */
  folder(names: readonly string[]): Folder {
    let current = this.root;
    try {
      for (const name of names) {
        const next = current.openFolder(name);
        current.close();
        current = next;
      }
      return current;
    } catch (error) {
      current.close();
      throw error;
    }
  }

  with<T>(names: readonly string[], use: (folder: Folder) => T): T {
    const folder = this.folder(names);
    try {
      return use(folder);
    } finally {
      folder.close();
    }
  }

  /** Closes the root; for tests, which open many anchors in one process. */
  close(): void {
    this.root.dispose();
  }
}

const anchors = new WeakMap<object, Anchor>();

/** The anchor of a grant, opened on first use (the server opens every grant's at start-up). */
export function anchorOf(grant: { readonly realPath: string }, platform: Platform): Anchor {
  let anchor = anchors.get(grant);
  if (anchor === undefined) {
    anchor = Anchor.open(grant.realPath, platform);
    anchors.set(grant, anchor);
  }
  return anchor;
}

// ---------------------------------------------------------------------------------------------
// Temporary files: one recognisable pattern, `.bi.<name hash>.<pid>-<pid namespace>.<random>.tmp`
// (both numbers in base 36),
// short whatever the target's name, so a 255-byte name can still be written. A pid means something
// only in its PID namespace, and every sandboxed server has one of its own (where it is pid 2 or 3).
// ---------------------------------------------------------------------------------------------

export const TEMPORARY_NAME = /^\.bi\.([0-9a-f]{8})\.([0-9a-z]+)-([0-9a-z]+)\.[0-9a-f]{8}\.tmp$/;

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

export function temporaryNameFor(name: string): string {
  return `.bi.${nameHash(name)}.${writerTag}.${randomHex4()}.tmp`;
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
  try {
    return Date.now() - fs.lstatSync(folder.child(entry)).mtimeMs > FOREIGN_TEMPORARY_STALE_MS;
  } catch {
    return false;
  }
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

function sweepOnce(folder: Folder, name: string): void {
  const target = folder.pathOf(name);
  if (swept.has(target)) return;
  if (target.length <= MAX_SWEPT_PATH_CHARS) {
    if (swept.size >= MAX_SWEPT) swept.clear();
    swept.add(target);
  }
  removeStaleTemporaries(folder, name);
}

/** Removes temporary files of `name` that a killed writer left beside it; never one still being written. */
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
      fs.unlinkSync(folder.child(entry));
    } catch {
      // another writer's cleanup got there first
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The operations the tools perform. Each takes a checked path (the core's verdict) and acts on it
// through anchored folders only.
// ---------------------------------------------------------------------------------------------

function readOpen(fd: number, size: bigint, maxBytes: number, display: string): Buffer {
  if (size > BigInt(maxBytes)) throw fsError('EFBIG', `${display} is ${size} bytes, more than the ${maxBytes} this tool reads`);
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

function fileName(located: Located, target: string): string {
  if (located.name === undefined) throw fsError('EISDIR', `${target} is the workspace folder, not a file`);
  return located.name;
}

/** Reads a checked regular file, at most `maxBytes`. */
export function readFile(anchor: Anchor, target: string, maxBytes: number): { bytes: Buffer; stats: BigIntStats } {
  const located = anchor.locate(target);
  const name = fileName(located, target);
  return anchor.with(located.folder, (folder) => {
    const { fd, stats } = folder.openFile(name);
    try {
      return { bytes: readOpen(fd, stats.size, maxBytes, target), stats };
    } finally {
      fs.closeSync(fd);
    }
  });
}


/**
 * Writes through a temporary file created exclusively in the anchored folder, then renamed over
 * the target within it: the file holds the old content or the new, never a mix, and a link at the
 * target is replaced rather than followed. Whatever fails, the temporary file is removed. The
 * data is not flushed before the rename: that keeps a failed or killed write from leaving half a
 * file, not a power cut just after one (see the README).
 *
 * `beforeReplace` runs immediately before the new file replaces the old, and can look at what is
 * at the name now: it may throw, or return a refusal; either way the write is abandoned.
 */
export function writeFile<R>(
  anchor: Anchor,
  target: string,
  data: string | Uint8Array,
  beforeReplace?: (current: () => BigIntStats | undefined) => R | undefined,
): { created: boolean; refusal: R | undefined } {
  const located = anchor.locate(target);
  const name = fileName(located, target);
  return anchor.with(located.folder, (folder) => {
    const existing = folder.lstat(name);
    if (existing?.isDirectory()) throw fsError('EISDIR', `${target} is a folder; write_file writes files`);
    sweepOnce(folder, name);
    const temporary = temporaryNameFor(name);
    inFlight.add(temporary);
    let placed = false;
    try {
      const fd = attempt(target, () => fs.openSync(folder.child(temporary), CREATE_FLAGS, existing?.isFile() ? 0o600 : 0o666));
      try {
        fs.writeFileSync(fd, data);
        // Keep an existing file's permissions; a new one gets the usual 0666 less the umask.
        if (existing?.isFile()) fs.fchmodSync(fd, Number(existing.mode & 0o7777n));
      } finally {
        fs.closeSync(fd);
      }
      const refusal = beforeReplace?.(() => folder.lstat(name));
      if (refusal !== undefined) return { created: false, refusal };
      attempt(target, () => fs.renameSync(folder.child(temporary), folder.child(name)));
      placed = true;
      return { created: existing === undefined, refusal: undefined };
    } catch (error) {
      // The next write of this file sweeps again: it starts from a fresh walk.
      swept.delete(folder.pathOf(name));
      throw error;
    } finally {
      if (!placed) {
        try {
          fs.unlinkSync(folder.child(temporary));
        } catch {
          // it was never created
        }
      }
      inFlight.delete(temporary);
    }
  });
}

/** Makes a checked folder and any missing folders above it, each through its anchored parent. Returns whether the folder itself was made. */
export function makeDirectories(anchor: Anchor, target: string): boolean {
  const names = anchor.namesOf(target);
  let folder = anchor.folder([]);
  let created = false;
  try {
    for (const name of names) {
      let next: Folder;
      try {
        next = folder.openFolder(name);
        created = false;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        try {
          attempt(folder.pathOf(name), () => fs.mkdirSync(folder.child(name)));
          created = true;
        } catch (mkdirError) {
          // Made meanwhile by someone else: open whatever is there, which must be a folder.
          if ((mkdirError as NodeJS.ErrnoException).code !== 'EEXIST') throw mkdirError;
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
        const holder = depth === 0 ? parent : open(depth - 1);
        // The path for a message is joined only on failure: deep down it is long.
        try {
          fs.rmdirSync(holder.child(frame.name));
        } catch (error) {
          rethrow(holder.pathOf(frame.name), error);
        }
        continue;
      }
      frame.index += 1;
      if (entry.isDirectory()) {
        push(depth, entry.name);
        continue;
      }
      try {
        fs.unlinkSync(folder.child(entry.name));
      } catch (error) {
        // Replaced by a folder since the listing: remove it as one.
        if ((error as NodeJS.ErrnoException).code !== 'EISDIR' && (error as NodeJS.ErrnoException).code !== 'EPERM') rethrow(folder.pathOf(entry.name), error);
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
export function remove(anchor: Anchor, target: string, expected: EntryType, recursive: boolean): void {
  const located = anchor.locate(target);
  if (located.name === undefined) throw new Error('the workspace folder itself is never deleted');
  const name = located.name;
  anchor.with(located.folder, (folder) => {
    const stats = folder.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${target} does not exist`);
    const kind = entryTypeOf(stats);
    if (kind !== expected) throw new ChangedError(target, `a ${kind} is there now, where the check saw a ${expected}`);
    if (kind !== 'directory') attempt(target, () => fs.unlinkSync(folder.child(name)));
    else if (recursive) removeTree(folder, name);
    else attempt(target, () => fs.rmdirSync(folder.child(name)));
  });
}

/** link(2) cannot make this name here (another filesystem, no hard links, a protected file): rename instead. */
const LINK_UNSUPPORTED = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

export function destinationExists(destination: string): NodeJS.ErrnoException {
  return fsError('EEXIST', `${destination} already exists; move_file never overwrites. Delete it first (delete_path) or choose another name.`);
}

/**
 * Moves a checked entry between two anchored folders. A file or link gets its new name with
 * link(2), which never replaces anything, and loses the old one only once the new one is proven
 * to be it. A folder is renamed after its destination is confirmed absent. Nothing is copied.
 * `expected` is what the check saw at the source: if something else is there now, nothing is done.
 */
export function move(anchor: Anchor, source: string, destination: string, expected: EntryType): void {
  const from = anchor.locate(source);
  const to = anchor.locate(destination);
  if (from.name === undefined) throw new Error('move_file never moves the workspace folder itself');
  if (to.name === undefined) throw destinationExists(destination);
  const fromName = from.name;
  const toName = to.name;
  anchor.with(from.folder, (sourceFolder) => {
    let destinationFolder: Folder;
    try {
      destinationFolder = anchor.folder(to.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw fsError('ENOENT', `the destination's folder ${nodePath.dirname(destination)} does not exist; create it first with create_directory`);
    }
    try {
      const stats = sourceFolder.lstat(fromName);
      if (stats === undefined) throw fsError('ENOENT', `${source} does not exist`);
      const kind = entryTypeOf(stats);
      if (kind !== expected) throw new ChangedError(source, `a ${kind} is there now, where the check saw a ${expected}`);
      if (destinationFolder.lstat(toName) !== undefined) throw destinationExists(destination);
      // Linux links a symlink itself; macOS and the BSDs would link its target, which may lie outside.
      const useLink = kind === 'file' || (kind === 'symlink' && anchor.platform === 'linux');
      if (useLink) {
        try {
          fs.linkSync(sourceFolder.child(fromName), destinationFolder.child(toName));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? '';
          if (code === 'EEXIST') throw destinationExists(destination);
          if (!LINK_UNSUPPORTED.has(code)) rethrow(destination, error);
          return renameIfAbsent(sourceFolder, fromName, destinationFolder, toName, destination);
        }
        // The new name must be the checked entry, and the old one still it, before the old one goes.
        // The type is compared too, as a freed inode number is soon reused.
        const made = destinationFolder.lstat(toName);
        const still = sourceFolder.lstat(fromName);
        if (made === undefined || !sameIdentity(made, stats) || entryTypeOf(made) !== kind || still === undefined || !sameIdentity(still, stats)) {
          if (made !== undefined && sameIdentity(made, stats)) fs.unlinkSync(destinationFolder.child(toName));
          throw new ChangedError(source, 'another entry was there when it was moved');
        }
        try {
          attempt(source, () => fs.unlinkSync(sourceFolder.child(fromName)));
        } catch (error) {
          // Leave things as they were: one name, the original.
          try {
            fs.unlinkSync(destinationFolder.child(toName));
          } catch {
            // already gone
          }
          throw error;
        }
        return;
      }
      renameIfAbsent(sourceFolder, fromName, destinationFolder, toName, destination);
    } finally {
      destinationFolder.close();
    }
  });
}

/**
 * rename(2) replaces what is at the destination, so absence is confirmed first. Only an empty
 * folder made at the destination in the instant between can be replaced: a file or a link there
 * makes a folder's rename fail.
 */
function renameIfAbsent(sourceFolder: Folder, fromName: string, destinationFolder: Folder, toName: string, destination: string): void {
  if (destinationFolder.lstat(toName) !== undefined) throw destinationExists(destination);
  attempt(destination, () => fs.renameSync(sourceFolder.child(fromName), destinationFolder.child(toName)));
}

/** What is at a checked path, never following a link at its last name, with a link's target text. */
export function describe(anchor: Anchor, target: string): { stats: BigIntStats; linkTarget: string | undefined } {
  const located = anchor.locate(target);
  if (located.name === undefined) return anchor.with([], (folder) => ({ stats: folder.stat(), linkTarget: undefined }));
  const name = located.name;
  return anchor.with(located.folder, (folder) => {
    const stats = folder.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${target} does not exist`);
    return { stats, linkTarget: stats.isSymbolicLink() ? folder.readlink(name) : undefined };
  });
}

/** Opens a checked folder for listing; the caller closes it. */
export function openFolder(anchor: Anchor, target: string): Folder {
  return anchor.folder(anchor.namesOf(target));
}
