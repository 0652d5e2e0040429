import fs, { constants, type BigIntStats, type Dirent } from 'node:fs';
import nodePath from 'node:path';
import { attempt, fsError } from './errors.js';

/**
 * One open folder of a checked path, in the shape of Go's os.Root: every call names one entry of
 * this folder, never a path. Two implementations: descriptorFolder.ts acts through the folder's
 * own descriptor (Linux), pathFolder.ts through its checked path with identity checks (elsewhere).
 */
export interface Folder {
  /** The folder's checked path, for messages and results: never used to act when there is a descriptor. */
  readonly path: string;
  /** Whether calls act through a descriptor, so a folder swapped since the check is never entered. */
  readonly anchored: boolean;
  /** The checked path of an entry, for messages and results. */
  pathOf(name: string): string;
  /** The folder itself. */
  stat(): BigIntStats;
  /** The entries, sorted by name. */
  list(): Dirent[];
  names(): string[];
  /** What is at `name`, never following a link there; undefined when nothing is. */
  lstat(name: string): BigIntStats | undefined;
  readlink(name: string): string;
  /** The folder `name` inside this one, without following a link; a link there means the disk changed since the check. */
  openFolder(name: string): Folder;
  /** The regular file `name`, open for reading, proven a regular file before anything is opened or read. */
  openFile(name: string): { fd: number; stats: BigIntStats };
  /** Creates `name` for writing; fails if anything is there, a dangling link included. */
  createExclusive(name: string, mode: number): number;
  /** rename(2): replaces what is at `toName`. */
  rename(name: string, to: Folder, toName: string): void;
  /** link(2): never replaces anything (EEXIST). */
  link(name: string, to: Folder, toName: string): void;
  unlink(name: string): void;
  mkdir(name: string): void;
  rmdir(name: string): void;
  /** Closes what this folder owns; the workspace root stays open for the life of its anchor. */
  close(): void;
  /** Closes the folder whoever owns it. */
  dispose(): void;
}

export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
export const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
export const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
export const FOLDER_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
export const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

/** What separates names on this host: a backslash is an ordinary character in a POSIX name. */
const HOST_SEPARATOR = nodePath.sep === '\\' ? /[/\\\0]/ : /[/\0]/;

/**
 * A name this layer acts on: one entry in a folder, never `.` or `..`, empty, or holding a
 * separator or NUL (as Go's os.Root and cap-std refuse them), whoever the caller is.
 */
export function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || HOST_SEPARATOR.test(name)) throw fsError('EINVAL', `${JSON.stringify(name)} is not a name of an entry in a folder`);
}

export function regularFileOnly(stats: { isDirectory(): boolean; isFile(): boolean }, display: string): void {
  if (stats.isDirectory()) throw fsError('EISDIR', `${display} is a folder, not a file`);
  if (!stats.isFile()) throw fsError('EINVAL', `${display} is not a regular file: a FIFO, socket or device is described, never opened`);
}

/**
 * The calls on one entry, the same in both implementations but for how an entry is named:
 * `child` gives the name through the folder's descriptor, or through its checked path; and what
 * is proven before a change: nothing more through a descriptor, the folder's own walk from the
 * root again through a path (`proveWalk`).
 */
export abstract class EntryCalls {
  abstract readonly path: string;

  /** `name` as the system calls are given it; checked to be one entry first. */
  protected abstract child(name: string): string;

  /** Throws when this folder is no longer the one walked to. */
  protected proveWalk(): void {
    // a descriptor is the folder walked to, whatever its path has become
  }

  pathOf(name: string): string {
    return nodePath.join(this.path, name);
  }

  lstat(name: string): BigIntStats | undefined {
    return attempt(this.pathOf(name), () => fs.lstatSync(this.child(name), { bigint: true, throwIfNoEntry: false }));
  }

  readlink(name: string): string {
    return attempt(this.pathOf(name), () => fs.readlinkSync(this.child(name)));
  }

  createExclusive(name: string, mode: number): number {
    this.proveWalk();
    return attempt(this.pathOf(name), () => fs.openSync(this.child(name), CREATE_FLAGS, mode));
  }

  /** Both folders are of one implementation: an anchor makes only one kind. */
  rename(name: string, to: Folder, toName: string): void {
    const other = to as unknown as EntryCalls;
    this.proveWalk();
    other.proveWalk();
    attempt(this.pathOf(name), () => fs.renameSync(this.child(name), other.child(toName)));
  }

  link(name: string, to: Folder, toName: string): void {
    const other = to as unknown as EntryCalls;
    this.proveWalk();
    other.proveWalk();
    attempt(to.pathOf(toName), () => fs.linkSync(this.child(name), other.child(toName)));
  }

  unlink(name: string): void {
    this.proveWalk();
    attempt(this.pathOf(name), () => fs.unlinkSync(this.child(name)));
  }

  mkdir(name: string): void {
    this.proveWalk();
    attempt(this.pathOf(name), () => fs.mkdirSync(this.child(name)));
  }

  rmdir(name: string): void {
    this.proveWalk();
    attempt(this.pathOf(name), () => fs.rmdirSync(this.child(name)));
  }
}
