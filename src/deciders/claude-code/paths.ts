// The path as Claude Code's file tools take it, and the spellings it judges: the path asked
// (`~` expanded, made absolute against the working folder, `..` taken away by name), then each
// path a link on the way turns it into, down to where it lands. A rule is tried on every
// spelling; the working folders must hold every one of them.
import { resolveReal, splitAbsolute, joinSplit, type LinkHop, type Platform } from '../../core/index.js';
import { expandHome, nodePath, nodeRealpath } from '../shared/node.js';
import type { DeciderFileSystem } from '../types.js';

export interface Spelled {
  /** The path asked, absolute. */
  readonly requested: string;
  /** The path asked, then each landing of a link followed, then where it lands; no repeats. */
  readonly spellings: readonly string[];
  /** Where it lands, every link followed (a missing tail kept). */
  readonly landing: string;
  readonly links: readonly LinkHop[];
  /** The last name is itself a link. */
  readonly leafIsLink: boolean;
  /** Where it leads could not be told (a loop, a name that cannot be looked up): Claude Code refuses. */
  readonly unresolved?: string;
}

/** The path as the Read, Write and Edit tools take `input`. */
export function requestedPath(input: string, cwd: string, home: string, platform: Platform): string {
  return nodePath(platform).resolve(cwd, expandHome(input, home, platform));
}

/** The spellings of an absolute path, looked up through the disk. */
export function spell(requested: string, fs: DeciderFileSystem, platform: Platform): Spelled {
  const split = splitAbsolute(requested, platform);
  const leafIsLink = fs.lstat(requested).kind === 'symlink';
  if (split === null) return { requested, spellings: [requested], landing: requested, links: [], leafIsLink };
  const landings: string[] = [];
  const resolved = resolveReal(fs, split, platform, {
    followFinal: true,
    judgeTarget: (_hop, _link, landing) => {
      landings.push(joinSplit(landing, platform));
      return undefined;
    },
  });
  const unique = (paths: readonly string[]) => [...new Set(paths)];
  if (resolved.ok) {
    const landing = joinSplit(resolved.value.real, platform);
    return { requested, spellings: unique([requested, ...landings, landing]), landing, links: resolved.value.links, leafIsLink };
  }
  if (resolved.code === 'ERR_SYMLINK_DANGLING' || resolved.code === 'ERR_SYMLINK_ESCAPE') {
    // A link to nothing lands where its text says: that is where a write would go.
    const landing = resolved.landed ? joinSplit(resolved.landed, platform) : (landings.at(-1) ?? requested);
    return { requested, spellings: unique([requested, ...landings, landing]), landing, links: resolved.links, leafIsLink };
  }
  return { requested, spellings: unique([requested, ...landings]), landing: landings.at(-1) ?? requested, links: resolved.links, leafIsLink, unresolved: resolved.reason };
}

/** A working folder: the session's, or one added; each with its own spellings (the path given and its real path). */
export interface WorkingFolder {
  readonly path: string;
  readonly spellings: readonly string[];
  /** Where it came from, for people: `the working folder`, `--add-dir`, a settings file's `additionalDirectories`. */
  readonly origin: string;
  readonly file?: string;
  readonly line?: number;
  readonly flag?: string;
}

export function workingFolder(path: string, fs: DeciderFileSystem, platform: Platform, origin: Omit<WorkingFolder, 'path' | 'spellings'>): WorkingFolder {
  const real = nodeRealpath(fs, path, platform);
  return { path, spellings: real.ok && real.path !== path ? [path, real.path] : [path], ...origin };
}

/**
 * Whether `path` is `folder` or below it, by whole names as Node's `path.relative` sees them:
 * letter case counts (Windows' `path.relative` alone ignores it).
 */
export function isWithin(path: string, folder: string, platform: Platform): boolean {
  const relative = nodePath(platform).relative(folder, folder, path);
  return relative === '' || (relative !== '..' && !relative.startsWith('../') && !relative.startsWith('..\\') && !nodePath(platform).isAbsolute(relative));
}

/** The working folder (any spelling of it) that holds `path`, or undefined. */
export function folderHolding(path: string, folders: readonly WorkingFolder[], platform: Platform): WorkingFolder | undefined {
  return folders.find((folder) => folder.spellings.some((spelling) => isWithin(path, spelling, platform)));
}
