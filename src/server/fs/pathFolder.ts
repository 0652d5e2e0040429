import fs, { constants, type BigIntStats, type Dirent } from 'node:fs';
import nodePath from 'node:path';
import { attempt, ChangedError, compareNames, errnoOf, fsError, rethrow, sameInode } from './errors.js';
import { checkName, EntryCalls, O_NOFOLLOW, O_NONBLOCK, regularFileOnly, type Folder } from './folder.js';

// O_NONBLOCK: a FIFO swapped in between the lstat and the open cannot block it; the fstat then refuses it.
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/** A folder as it was when a walk passed through it. */
interface WalkedFolder {
  readonly path: string;
  readonly stats: BigIntStats;
}

/**
 * A folder named by its checked path, where Node cannot anchor (macOS, Windows, a Linux without
 * /proc): each folder is lstat-checked on the way down and each file's identity checked after
 * opening; before every change, and after a file is opened or a folder listed, the folder's walk
 * from the root is proven again (each folder on it still the one walked to, none a link). That
 * narrows the window between check and use but cannot close it; the sandbox layer covers the rest.
 */
export class PathFolder extends EntryCalls implements Folder {
  readonly anchored = false;

  /**
   * @param walk each folder from the root down to this one, as lstat saw it when walked to: the
   *   root's identity as its anchor opened it, then one per name.
   */
  constructor(
    readonly path: string,
    private readonly walk: readonly WalkedFolder[],
  ) {
    super();
  }

  /** A folder on the walk moved, deleted, or swapped for a link or another folder since: what is done here would land out of sight. */
  protected override proveWalk(): void {
    for (const { path, stats } of this.walk) {
      const now = attempt(path, () => fs.lstatSync(path, { bigint: true, throwIfNoEntry: false }));
      if (now === undefined) throw new ChangedError(path, 'it was moved or deleted since it was walked to');
      if (now.isSymbolicLink()) throw new ChangedError(path, 'a link is there now');
      if (!sameInode(now, stats)) throw new ChangedError(path, 'another folder is there now');
    }
  }

  protected child(name: string): string {
    checkName(name);
    return nodePath.join(this.path, name);
  }

  stat(): BigIntStats {
    return attempt(this.path, () => fs.lstatSync(this.path, { bigint: true }));
  }

  list(): Dirent[] {
    const entries = attempt(this.path, () => fs.readdirSync(this.path, { withFileTypes: true }));
    this.proveWalk();
    return entries.sort((a, b) => compareNames(a.name, b.name));
  }

  names(): string[] {
    const names = attempt(this.path, () => fs.readdirSync(this.path));
    this.proveWalk();
    return names.sort(compareNames);
  }

  openFolder(name: string): Folder {
    const display = this.pathOf(name);
    const stats = this.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${display} does not exist`);
    if (stats.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
    if (!stats.isDirectory()) throw fsError('ENOTDIR', `${display} is not a folder`);
    return new PathFolder(display, [...this.walk, { path: display, stats }]);
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
      this.proveWalk();
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
