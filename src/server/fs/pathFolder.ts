import fs, { constants, type BigIntStats, type Dirent } from 'node:fs';
import nodePath from 'node:path';
import { attempt, ChangedError, compareNames, errnoOf, fsError, rethrow, sameInode } from './errors.js';
import { checkName, EntryCalls, O_NOFOLLOW, O_NONBLOCK, regularFileOnly, type Folder } from './folder.js';

// O_NONBLOCK: a FIFO swapped in between the lstat and the open cannot block it; the fstat then refuses it.
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/**
 * A folder named by its checked path, where Node cannot anchor (macOS, Windows, a Linux without
 * /proc): each folder is lstat-checked on the way down and each file's identity checked after
 * opening. That narrows the window between check and use but cannot close it; the tools check
 * again before a change, and the sandbox layer covers the rest.
 */
export class PathFolder extends EntryCalls implements Folder {
  readonly anchored = false;

  constructor(readonly path: string) {
    super();
  }

  protected child(name: string): string {
    checkName(name);
    return nodePath.join(this.path, name);
  }

  stat(): BigIntStats {
    return attempt(this.path, () => fs.lstatSync(this.path, { bigint: true }));
  }

  list(): Dirent[] {
    return attempt(this.path, () => fs.readdirSync(this.path, { withFileTypes: true })).sort((a, b) => compareNames(a.name, b.name));
  }

  names(): string[] {
    return attempt(this.path, () => fs.readdirSync(this.path)).sort(compareNames);
  }

  openFolder(name: string): Folder {
    const display = this.pathOf(name);
    const stats = this.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${display} does not exist`);
    if (stats.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
    if (!stats.isDirectory()) throw fsError('ENOTDIR', `${display} is not a folder`);
    return new PathFolder(display);
  }

  /** lstat first, so a FIFO or device is described and never opened; then the opened inode must be the one lstat saw. */
  openFile(name: string): { fd: number; stats: BigIntStats } {
    const display = this.pathOf(name);
    const before = this.lstat(name);
    if (before === undefined) throw fsError('ENOENT', `${display} does not exist`);
    if (before.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
    regularFileOnly(before, display);
    let fd: number;
    try {
      fd = fs.openSync(this.child(name), READ_FLAGS);
    } catch (error) {
      if (errnoOf(error) === 'ELOOP') throw new ChangedError(display, 'a link is there now');
      return rethrow(display, error);
    }
    try {
      const stats = fs.fstatSync(fd, { bigint: true });
      regularFileOnly(stats, display);
      if (!sameInode(stats, before)) throw new ChangedError(display, 'another file is there now');
      return { fd, stats };
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  close(): void {
    // nothing is held open
  }

  dispose(): void {
    // nothing is held open
  }
}
