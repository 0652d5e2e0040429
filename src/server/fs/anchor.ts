import fs, { type BigIntStats } from 'node:fs';
import { descriptorPathsWork } from '../../host/protection.js';
import { splitAbsolute, type EntryKind, type Platform, type SplitPath } from '../../core/index.js';
import { DescriptorFolder } from './descriptorFolder.js';
import { attempt, ChangedError, entryTypeOf, fsError } from './errors.js';
import { checkName, FOLDER_FLAGS, type Folder } from './folder.js';
import { KeptFolders, mountOf, type FolderLease } from './keptFolders.js';
import { PathFolder } from './pathFolder.js';

export type AnchorMode = 'descriptor' | 'path';

/**
 * A path this layer may act on: the names of an entry below a workspace root, each checked to be
 * one entry (never `.`, `..` or empty), made only by Anchor.checked from a path the root's own
 * names lead. The operations take nothing else, so no string reaches them unchecked.
 */
export interface CheckedPath {
  readonly anchor: Anchor;
  /** The checked real path, for messages and results. */
  readonly path: string;
  /** The names below the root; empty for the root itself. */
  readonly names: readonly string[];
  /** The folders of the call that checked it, opened once and closed when the call ends. */
  readonly held: HeldFolders | undefined;
  /** What the check's own look found at the path, a link there not followed (Anchor.lookup), for a call that only describes it. */
  readonly seen: BigIntStats | undefined;
  readonly [checkedBrand]: true;
}
declare const checkedBrand: unique symbol;

/** What became of the granted path since its folder was opened. */
export type WorkspaceChange =
  | { readonly kind: 'gone'; readonly detail: string }
  | { readonly kind: 'replaced'; readonly detail: string }
  | { readonly kind: 'unmounted'; readonly detail: string };

/** Folders below one root kept open across calls (KeptFolders). */
const MAX_KEPT_FOLDERS = 16;

/** A workspace root held open for the life of the server; every walk starts here. */
export class Anchor {
  private readonly kept: KeptFolders;

  private constructor(
    readonly rootPath: string,
    readonly platform: Platform,
    readonly mode: AnchorMode,
    private readonly rootSplit: SplitPath,
    private readonly root: Folder,
    /** The root folder as it was opened: what the granted path must still name. */
    readonly identity: BigIntStats,
  ) {
    this.kept = new KeptFolders(MAX_KEPT_FOLDERS, root instanceof DescriptorFolder ? mountOf(root.fd) : undefined);
  }

  /**
   * Opens and verifies a workspace root: a folder reached without a link at its last name, whose
   * descriptor names exactly the real path the core resolved.
   */
  static open(rootPath: string, platform: Platform, mode: AnchorMode = descriptorPathsWork(platform) ? 'descriptor' : 'path'): Anchor {
    const split = splitAbsolute(rootPath, platform);
    if (split === null) throw new Error(`${rootPath} is not an absolute path`);
    if (mode === 'descriptor') {
      const fd = attempt(rootPath, () => fs.openSync(rootPath, FOLDER_FLAGS));
      try {
        const opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
        if (opened !== rootPath) throw new ChangedError(rootPath, `the folder opened is ${opened}`);
        return new Anchor(rootPath, platform, mode, split, new DescriptorFolder(rootPath, fd, false), fs.fstatSync(fd, { bigint: true }));
      } catch (error) {
        fs.closeSync(fd);
        throw error;
      }
    }
    const stats = attempt(rootPath, () => fs.lstatSync(rootPath, { bigint: true }));
    if (!stats.isDirectory()) throw fsError('ENOTDIR', `${rootPath} is not a folder`);
    return new Anchor(rootPath, platform, mode, split, new PathFolder(rootPath, [{ path: rootPath, stats }]), stats);
  }

  /**
   * Whether the granted path still names the folder held open: a folder moved away, deleted and
   * made again, or unmounted (lazily, or under a sandbox that kept its own mount) leaves the
   * descriptor on a folder the path no longer names, where a change would be made out of sight.
   */
  change(): WorkspaceChange | undefined {
    let now: BigIntStats | undefined;
    try {
      now = fs.lstatSync(this.rootPath, { bigint: true, throwIfNoEntry: false });
    } catch (error) {
      return { kind: 'gone', detail: `${this.rootPath} cannot be reached now (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    const held = this.identity;
    if (now === undefined) return { kind: 'gone', detail: `nothing is at ${this.rootPath} now: the folder was moved away or deleted` };
    if (now.dev === held.dev && now.ino === held.ino) return undefined;
    if (!now.isDirectory()) return { kind: 'replaced', detail: `${this.rootPath} is not a folder now` };
    if (now.dev !== held.dev) {
      return { kind: 'unmounted', detail: `${this.rootPath} is on another filesystem now: the workspace's filesystem was unmounted, or another was mounted over it` };
    }
    const deleted = this.mode === 'descriptor' && this.root.stat().nlink === 0n;
    return {
      kind: 'replaced',
      detail: deleted
        ? `the folder at ${this.rootPath} was deleted and another made at that path`
        : `the folder at ${this.rootPath} was moved away and another is at that path now`,
    };
  }

  /**
   * The names of a path below the root. The core decided it is inside; this layer does not take
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

  /** A real path the core found inside, as a CheckedPath of this root; its folders are opened once for the call that `held` belongs to. */
  checked(target: string, held?: HeldFolders): CheckedPath {
    return { anchor: this, path: target, names: this.namesOf(target), held, seen: held?.seenAt(target) } as unknown as CheckedPath;
  }

  /**
   * What is at a path below the root, looked up through the folder holding it, which is opened
   * for the call (`held`) as its operations will use it: the realpath stage's lookup
   * (LinklessLookup), so that one walk both resolves the path and opens its folder. Only through
   * a descriptor, whose walk proves each name is no link; undefined wherever the stage must
   * resolve the names itself (a link on the way, an error, past the folders a call holds).
   */
  lookup(target: string, held: HeldFolders): EntryKind | undefined {
    if (this.mode !== 'descriptor') return undefined;
    try {
      const names = this.namesOf(target);
      const name = names.at(-1);
      if (name === undefined) return undefined;
      const folder = held.folder(this, names.slice(0, -1));
      if (folder === undefined) return undefined;
      const stats = folder.lstat(name);
      if (stats === undefined) return 'missing';
      held.saw(target, stats);
      return entryTypeOf(stats);
    } catch {
      return undefined;
    }
  }

  /** Opens the folder at `names` below the root, each through its parent without following a link. The caller closes it. */
  folder(names: readonly string[]): Folder {
    // Through a descriptor, a folder two names deep or more is opened at once when the kernel's
    // name for it proves the walk (DescriptorFolder.openBelow).
    if (names.length > 1 && this.root instanceof DescriptorFolder) {
      const direct = this.root.openBelow(names, this.pathBelow(names.join('/')));
      if (direct !== undefined) return direct;
    }
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

  /**
   * The folder at `names` for one call, and what gives it back when the call ends: through a
   * descriptor, one kept from an earlier call while its path still leads to it, else walked to
   * now and kept for the next (KeptFolders).
   */
  lend(names: readonly string[]): FolderLease<Folder> {
    if (names.length === 0 || !(this.root instanceof DescriptorFolder)) {
      const folder = this.folder(names);
      return { folder, release: () => folder.close() };
    }
    const key = names.join('/');
    return this.kept.lend(key, this.pathBelow(key), () => this.folder(names) as DescriptorFolder);
  }

  /** The path of the folder `below` names (checked names joined by "/", as descriptors exist only on Linux), as path.join would spell it. */
  private pathBelow(below: string): string {
    return this.rootPath.endsWith('/') ? this.rootPath + below : `${this.rootPath}/${below}`;
  }

  /** How many folders below the root are kept open for later calls. */
  get keptFolders(): number {
    return this.kept.size;
  }

  /** Closes the folders kept for later calls, each once no call holds it: the granted path names another folder now. */
  forgetKept(): void {
    this.kept.clear();
  }

  with<T>(names: readonly string[], use: (folder: Folder) => T): T {
    const folder = this.folder(names);
    try {
      return use(folder);
    } finally {
      folder.close();
    }
  }

  /** Closes the root and the folders kept below it. */
  close(): void {
    this.kept.clear();
    this.root.dispose();
  }
}

/** Folders one call holds at once; past this, one is opened for each use, as without a call. */
const MAX_HELD_FOLDERS = 16;

/**
 * The folders one call holds through an anchor, by their names below the root: each found once
 * (kept from an earlier call, or walked to), however many operations of the call act in it (a
 * write's sweep, its base and its commit), and all given back when the call ends.
 */
export class HeldFolders {
  private readonly open = new Map<string, FolderLease<Folder>>();
  private ended = false;
  /** The entry the last lookup found, until a check takes it (seenAt). */
  private looked: { readonly path: string; readonly stats: BigIntStats } | undefined;

  /** The folder at `names`, held for the call; undefined once the call has ended, or past MAX_HELD_FOLDERS. */
  folder(anchor: Anchor, names: readonly string[]): Folder | undefined {
    if (this.ended) return undefined;
    const key = names.join('/');
    let lease = this.open.get(key);
    if (lease === undefined) {
      if (this.open.size >= MAX_HELD_FOLDERS) return undefined;
      lease = anchor.lend(names);
      this.open.set(key, lease);
    }
    return lease.folder;
  }

  /** What a lookup found at `path` through one of these folders. */
  saw(path: string, stats: BigIntStats): void {
    this.looked = { path, stats };
  }

  /** What the last lookup found, if it was of `path`; taken once. */
  seenAt(path: string): BigIntStats | undefined {
    const looked = this.looked;
    this.looked = undefined;
    return looked?.path === path ? looked.stats : undefined;
  }

  /** The call ended: its folders are given back, and a later use (a late save put back) opens its own. */
  close(): void {
    this.ended = true;
    for (const lease of this.open.values()) lease.release();
    this.open.clear();
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

/**
 * The anchor of a grant whose path still names its folder, or what happened to that folder. A
 * folder the path names again (made again, or mounted again) is opened and checked as at start,
 * for the next call; this one is refused, so no change is reported done in a folder the path no
 * longer names.
 */
export function currentAnchor(grant: { readonly realPath: string }, platform: Platform): { anchor: Anchor } | { change: WorkspaceChange } {
  let anchor: Anchor;
  try {
    anchor = anchorOf(grant, platform);
  } catch (error) {
    return { change: { kind: 'gone', detail: `${grant.realPath} cannot be opened now: ${(error as Error).message}` } };
  }
  const change = anchor.change();
  if (change === undefined) return { anchor };
  // Dropped, never closed: a call still running holds it, and a closed descriptor's number may be
  // reused by the next open, which that call would then act in.
  anchors.delete(grant);
  anchor.forgetKept();
  return { change };
}

/** The last name of a checked path: the entry an operation acts on, in the folder that holds it. */
export function fileName(target: CheckedPath): string {
  const name = target.names.at(-1);
  if (name === undefined) throw fsError('EISDIR', `${target.path} is the workspace folder, not a file`);
  return name;
}

/**
 * The folder holding a checked path's last name, and that name: the call's, or opened now
 * through the anchor; `release` closes only what was opened now.
 */
export function parentOf(target: CheckedPath): { folder: Folder; name: string; release(): void } {
  const name = fileName(target);
  const names = target.names.slice(0, -1);
  const held = target.held?.folder(target.anchor, names);
  if (held !== undefined) return { folder: held, name, release: () => undefined };
  const folder = target.anchor.folder(names);
  return { folder, name, release: () => folder.close() };
}

/** Runs `use` on the folder holding a checked path's last name, and that name. */
export function inFolder<T>(target: CheckedPath, use: (folder: Folder, name: string) => T): T {
  const { folder, name, release } = parentOf(target);
  try {
    return use(folder, name);
  } finally {
    release();
  }
}

/** Opens a checked folder for listing; the caller closes it. */
export function openFolder(target: CheckedPath): Folder {
  return target.anchor.folder(target.names);
}
