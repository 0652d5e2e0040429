// Paths as Codex makes them: absolute against a folder and cleaned of `.` and `..` by name alone
// (its AbsolutePathBuf, which never looks at the disk), and where the kernel would take them
// (every link followed), for the sandbox.
import { joinSplit, resolveReal, splitAbsolute, type Comparison, type EntryKind, type FileSystemPort, type Platform, type SplitPath } from '../../core/index.js';
import { classifyPath } from '../../core/stages/parse.js';

/** Codex compares paths name by name, each name as its bytes: no case or Unicode folding on any platform. */
export const BYTEWISE: Comparison = { foldCase: false, foldUnicode: false, basis: 'Codex compares paths name by name, as bytes' };

export const show = (split: SplitPath, platform: Platform): string => joinSplit(split, platform);

/**
 * `path` made absolute against `base`, its `.` and `..` taken away by name (a `..` at the top
 * stays there). With `home`, a leading `~` or `~/` is the home folder, as in Codex's settings.
 */
export function absolutize(path: string, base: SplitPath, platform: Platform, home?: string): SplitPath {
  const tilde = path === '~' || path.startsWith('~/') || (platform === 'win32' && path.startsWith('~\\'));
  if (home !== undefined && tilde) {
    return clean(absolutize(home, base, platform), path.slice(1).split(platform === 'win32' ? /[\\/]/ : '/'));
  }
  const names = path.split(platform === 'win32' ? /[\\/]/ : '/');
  switch (classifyPath(path, platform)) {
    case 'absolute':
    case 'rooted':
      return clean({ prefix: base.prefix, names: [] }, names);
    case 'drive': {
      const prefix = `${path[0]!.toUpperCase()}:\\`;
      return clean({ prefix, names: [] }, names.slice(1));
    }
    case 'drive-relative': {
      const prefix = `${path[0]!.toUpperCase()}:\\`;
      return clean(prefix === base.prefix ? base : { prefix, names: [] }, path.slice(2).split(/[\\/]/));
    }
    case 'unc':
    case 'device': {
      const split = splitAbsolute(path.replace(/\//g, '\\'), platform);
      return split ? clean({ prefix: split.prefix, names: [] }, [...split.names]) : clean(base, names);
    }
    default:
      return clean(base, names);
  }
}

function clean(start: SplitPath, names: readonly string[]): SplitPath {
  const kept = [...start.names];
  for (const name of names) {
    if (name === '' || name === '.') continue;
    if (name === '..') kept.pop();
    else kept.push(name);
  }
  return { prefix: start.prefix, names: kept };
}

/** Where a path lands on disk, every link followed. */
export interface Landing {
  readonly real: SplitPath;
  /** What is there; `missing` for a file still to be made. */
  readonly kind: EntryKind;
  /** Whether the folder that would hold it exists (a new file can be made there). */
  readonly folderExists: boolean;
  /** False when a link loop or a lookup error kept the path from being resolved: `real` is then the path as given. */
  readonly resolved: boolean;
  /** Whether a link was followed on the way. */
  readonly throughLink: boolean;
}

export function landing(fs: FileSystemPort, split: SplitPath, platform: Platform): Landing {
  const result = resolveReal(fs, split, platform, { followFinal: true });
  if (result.ok) {
    const { real, kind, existingAncestor, links } = result.value;
    const folder = joinSplit({ prefix: real.prefix, names: real.names.slice(0, -1) }, platform);
    return { real, kind, folderExists: kind !== 'missing' || existingAncestor === folder, resolved: true, throughLink: links.length > 0 };
  }
  // A dangling link: the kernel makes its target, when the target's folder exists.
  if (result.landed !== undefined && (result.code === 'ERR_SYMLINK_DANGLING' || result.code === 'ERR_SYMLINK_ESCAPE')) {
    const folder = resolveReal(fs, { prefix: result.landed.prefix, names: result.landed.names.slice(0, -1) }, platform, { followFinal: true });
    return { real: result.landed, kind: 'missing', folderExists: folder.ok && folder.value.kind === 'directory', resolved: true, throughLink: true };
  }
  return { real: split, kind: 'missing', folderExists: false, resolved: false, throughLink: result.links.length > 0 };
}

/** The real path of an existing folder, or null when nothing (or no folder) is there. */
export function realFolder(fs: FileSystemPort, split: SplitPath, platform: Platform): SplitPath | null {
  const result = resolveReal(fs, split, platform, { followFinal: true });
  return result.ok && result.value.kind === 'directory' ? result.value.real : null;
}
