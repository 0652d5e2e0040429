import fs, { constants, type BigIntStats, type Dirent } from 'node:fs';
import { attempt, ChangedError, compareNames, errnoOf, rethrow } from './errors.js';
import { checkName, EntryCalls, FOLDER_FLAGS, O_NOFOLLOW, regularFileOnly, type Folder } from './folder.js';

/** Linux's O_PATH (the same on x86_64 and aarch64; Node does not name it): a descriptor that names an entry without opening it. */
const O_PATH = 0o10000000;

/**
 * A folder held by its descriptor: `/proc/self/fd/N/name` resolves `name` inside the folder that N
 * holds open, whatever its path has become, as openat(2) would. A folder swapped for a link after
 * the check stops the walk, and nothing is done.
 */
export class DescriptorFolder extends EntryCalls implements Folder {
  readonly anchored = true;
  private closed = false;

  constructor(
    readonly path: string,
    readonly fd: number,
    private readonly owned: boolean,
  ) {
    super();
  }

  /** `name` through the descriptor: every call on an entry names it here. */
  protected child(name: string): string {
    checkName(name);
    return `/proc/self/fd/${this.fd}/${name}`;
  }

  stat(): BigIntStats {
    return attempt(this.path, () => fs.fstatSync(this.fd, { bigint: true }));
  }

  list(): Dirent[] {
    // `/proc/self/fd/N` is itself a link: readdir follows it to the folder; it is never lstat-ed.
    return attempt(this.path, () => fs.readdirSync(`/proc/self/fd/${this.fd}`, { withFileTypes: true })).sort((a, b) => compareNames(a.name, b.name));
  }

  names(): string[] {
    return attempt(this.path, () => fs.readdirSync(`/proc/self/fd/${this.fd}`)).sort(compareNames);
  }

  openFolder(name: string): Folder {
    const display = this.pathOf(name);
    try {
      return new DescriptorFolder(display, fs.openSync(this.child(name), FOLDER_FLAGS), true);
    } catch (error) {
      const code = errnoOf(error);
      // Linux reports a link under O_NOFOLLOW|O_DIRECTORY as ENOTDIR or ELOOP: say which it was.
      if ((code === 'ENOTDIR' || code === 'ELOOP') && this.lstat(name)?.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
      return rethrow(display, error);
    }
  }

  /**
   * The folder several names below this one in one open, or undefined where the walk name by
   * name must decide. The open follows a link on the way, so the kernel's own name for what it
   * opened must then be `display`, the checked path: a folder reached through a link, moved or
   * deleted has another. Opening a folder changes nothing, and the walk says what changed.
   */
  openBelow(names: readonly string[], display: string): DescriptorFolder | undefined {
    for (const name of names) checkName(name);
    let fd: number;
    try {
      fd = fs.openSync(`/proc/self/fd/${this.fd}/${names.join('/')}`, FOLDER_FLAGS);
    } catch {
      return undefined;
    }
    let opened: string | undefined;
    try {
      opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // the walk decides
    }
    if (opened === display) return new DescriptorFolder(display, fd, true);
    fs.closeSync(fd);
    return undefined;
  }

  /**
   * The entry is first taken with O_PATH, which opens nothing (a FIFO's blocked writer is not
   * released, a device's open has no effect), its type read from that descriptor, and only a
   * regular file is then opened, through /proc/self/fd/N, which reaches that same inode whatever
   * the name holds by then.
   */
  openFile(name: string): { fd: number; stats: BigIntStats } {
    const display = this.pathOf(name);
    let entry: number;
    try {
      entry = fs.openSync(this.child(name), O_PATH | O_NOFOLLOW);
    } catch (error) {
      return rethrow(display, error);
    }
    try {
      const stats = fs.fstatSync(entry, { bigint: true });
      if (stats.isSymbolicLink()) throw new ChangedError(display, 'a link is there now');
      regularFileOnly(stats, display);
      return { fd: attempt(display, () => fs.openSync(`/proc/self/fd/${entry}`, constants.O_RDONLY)), stats };
    } finally {
      fs.closeSync(entry);
    }
  }

  close(): void {
    if (this.owned) this.dispose();
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}
