/**
 * The disk as the deciders see it inside this server: the granted workspaces and nothing else,
 * sandbox or not. Each thing a decider asks of what lies outside (a settings file in the home
 * folder, a folder beside the workspace, what a link inside leads to) is noted, and answered from
 * an imagined outside: nothing there, or folders everywhere, so that the caller can tell whether
 * the answer mattered. A file's text is read as the tools read one: traced by the core, then
 * through the workspace's anchored I/O; a file outside has no text to imagine.
 */
import { isInside, splitAbsolute, traceAgainst, type FsLookup, type Platform, type SplitPath } from '../../core/index.js';
import type { DeciderFileSystem } from '../../deciders/types.js';
import { nodeDeciderFileSystem } from '../../host/node.js';
import { anchorOf, readFile } from '../fs/index.js';
import type { Grant } from '../grants.js';

/** A settings file larger than this is not read here: no program's is. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface ConfinedDisk extends DeciderFileSystem {
  /** The entries looked up that lie outside the granted workspaces, or under one of `hidden`. */
  readonly unseen: Set<string>;
  /** The files whose text (or owner) was asked for there: what they hold cannot be imagined. */
  readonly unread: Set<string>;
}

/** What the outside is taken to hold: nothing, or a folder at every path (each its own, empty). */
export type ImaginedOutside = 'nothing' | 'folders';

/**
 * A decider's disk confined to `grants`. `hidden` are folders never to look in even where a grant
 * holds them (the stand-in home folders: the real one is not known here).
 */
export function confinedDisk(grants: readonly Grant[], platform: Platform, hidden: readonly string[], outside: ImaginedOutside = 'nothing'): ConfinedDisk {
  const unseen = new Set<string>();
  const unread = new Set<string>();
  const imagined = new Map<string, bigint>();
  const imaginedFolder = (path: string): FsLookup => {
    let ino = imagined.get(path);
    if (ino === undefined) imagined.set(path, (ino = BigInt(imagined.size + 1)));
    return { kind: 'directory', dev: 0n, ino };
  };
  // Every grant was prepared with the server's own port.
  const disk = grants[0]!.root.ctx.fs!;
  const splitOf = (path: string) => splitAbsolute(path, platform);
  const exactly = { foldCase: false, foldUnicode: false } as Grant['root']['comparison'];
  const hiddenSplits = hidden.flatMap((folder) => splitOf(folder) ?? []);
  const rootOf = (grant: Grant): SplitPath => grant.root.real ?? grant.root.split;
  const isHidden = (split: SplitPath) => hiddenSplits.some((folder) => isInside(folder, split, exactly));
  /** The grant whose folder holds the path by its names, unless the path lies in a hidden folder. */
  const holding = (split: SplitPath | null) => (split === null || isHidden(split) ? undefined : grants.find((grant) => isInside(rootOf(grant), split, grant.root.comparison)));
  /** A folder above a grant, or a grant's own spelling: seen at start-up, and a folder by definition of a real path. */
  const above = (split: SplitPath) => grants.some((grant) => [rootOf(grant), splitOf(grant.path)].some((root) => root !== null && isInside(split, root, exactly)));
  // Whether each folder asked about traces inside its grant: no link on its way leads out.
  const traced = new Map<string, boolean>();
  const staysInside = (grant: Grant, folder: string) => {
    let inside = traced.get(folder);
    if (inside === undefined) {
      inside = traceAgainst(grant.root, folder, { followFinal: true }).verdict === 'inside';
      traced.set(folder, inside);
    }
    return inside;
  };
  /** An entry inside a grant whose folder is reached without leaving it (the kernel would follow a link out on the way). */
  const inside = (path: string): boolean => {
    const split = splitOf(path);
    const grant = holding(split);
    if (split === null || grant === undefined) return false;
    if (split.names.length === rootOf(grant).names.length) return true;
    const names = split.names.slice(0, -1);
    return staysInside(grant, platform === 'win32' ? `${split.prefix}${names.join('\\')}` : `/${names.join('/')}`);
  };
  /** An entry whose metadata may be looked up: inside, or a folder above a grant. */
  const described = (path: string): boolean => {
    const split = splitOf(path);
    if (split === null || isHidden(split)) return false;
    return holding(split) !== undefined ? inside(path) : above(split);
  };
  /** `look` where the entry is seen, else the imagined outside's answer, the path noted. */
  const lookAt = <T>(path: string, seen: boolean, look: () => T, nothing: T, folder: () => T): T => {
    if (seen) return look();
    unseen.add(path);
    return outside === 'folders' ? folder() : nothing;
  };
  const notRead = (path: string) => {
    unread.add(path);
    return undefined;
  };
  return {
    unseen,
    unread,
    lstat: (path) => lookAt<FsLookup>(path, described(path), () => disk.lstat(path), { kind: 'missing' }, () => imaginedFolder(path)),
    readlink: (path) => lookAt(path, described(path), () => disk.readlink(path), { ok: false, errno: 'ENOENT' }, () => ({ ok: false, errno: 'EINVAL' })),
    listNames: (folder, max) => lookAt(folder, inside(folder), () => disk.listNames?.(folder, max) ?? null, null, () => []),
    ...(platform === 'win32' ? { longName: (path: string) => lookAt(path, described(path), () => disk.longName?.(path) ?? null, null, () => null) } : {}),
    ownership: (path, options) => (inside(path) ? nodeDeciderFileSystem.ownership?.(path, options) : notRead(path)),
    readText(path) {
      const grant = holding(splitOf(path));
      const trace = grant === undefined ? undefined : traceAgainst(grant.root, path, { followFinal: true });
      // Outside, or a link that leads out: what it names is not to be read here.
      if (grant === undefined || trace === undefined || trace.verdict !== 'inside' || trace.path === null) return notRead(path);
      if (trace.kind !== 'file') return undefined;
      try {
        return readFile(anchorOf(grant, platform).checked(trace.path), MAX_CONFIG_BYTES).bytes.toString('utf8');
      } catch {
        return notRead(path);
      }
    },
  };
}
