import { joinSplit, separator, type SplitPath } from '../paths.js';
import { passed, refused, type StageContext, type StageOutcome } from '../stage.js';
import type { Decoded } from './decode.js';
import { visible } from '../visible.js';

export interface Normalised {
  readonly path: string;
  readonly split: SplitPath;
}

/**
 * Win32 naming rules: the last dots and spaces of a name are dropped when a file is opened, so
 * `secret.txt.` and `.. ` name `secret.txt` and `..`. A name of dots alone (`...`) is kept.
 */
function win32Name(name: string): string {
  const last = name.charCodeAt(name.length - 1);
  if (last !== 0x20 && last !== 0x2e) return name;
  const trimmed = name.replace(/[ .]+$/, '');
  if (trimmed !== '') return trimmed;
  const dots = name.trimEnd();
  return dots === '.' || dots === '..' ? dots : name;
}

function resolveNames(prefix: string, base: readonly string[], rest: string, ctx: StageContext, notes: string[]): SplitPath {
  const names = [...base];
  const win32 = ctx.platform === 'win32';
  let climbedAboveTop = false;
  let trimmed = false;
  for (const rawName of rest.split(win32 ? /[\\/]/ : '/')) {
    const name = win32 ? win32Name(rawName) : rawName;
    if (name !== rawName) trimmed = true;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (names.length === 0) climbedAboveTop = true;
      else names.pop();
      continue;
    }
    names.push(name);
  }
  if (trimmed) notes.push('trailing dots or spaces of a name dropped, as Windows does when it opens a file');
  if (climbedAboveTop) notes.push(`".." above ${visible(prefix)} stays at ${visible(prefix)}`);
  return { prefix, names };
}

const NOT_ABSOLUTE_REASON =
  'A workspace root must be absolute: a relative root would depend on the directory the server was started in. Give a file:///... URI or an absolute path.';

/**
 * Stage 4: make the path absolute against the root (never the working directory), resolve `.`
 * and `..` lexically, collapse separators, drop a trailing separator, and spell it the
 * platform's way (`\` and an upper-case drive letter on win32).
 */
export function normalise(decoded: Decoded, ctx: StageContext, root: SplitPath | undefined): StageOutcome<Normalised> {
  const { path, kind } = decoded;
  const win32 = ctx.platform === 'win32';
  const rule = `make absolute against the root, resolve "." and ".." lexically, ${win32 ? 'Win32 rules (path.win32)' : 'POSIX rules (path.posix)'}`;
  const notes: string[] = [];
  const standsAlone = kind === 'absolute' || kind === 'drive' || kind === 'unc';

  if (!standsAlone && root === undefined) {
    return refused('normalise', { input: path, rule }, 'ERR_NOT_ABSOLUTE', NOT_ABSOLUTE_REASON);
  }

  let split: SplitPath;
  if (!win32) {
    if (kind === 'absolute') split = resolveNames('/', [], path, ctx, notes);
    else {
      notes.push('relative: resolved against the root');
      split = resolveNames(root!.prefix, root!.names, path, ctx, notes);
    }
  } else if (kind === 'drive') {
    split = resolveNames(`${path[0]!.toUpperCase()}:\\`, [], path.slice(3), ctx, notes);
  } else if (kind === 'unc') {
    const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)(?:[\\/]|$)/.exec(path);
    if (!unc) {
      return refused(
        'normalise',
        { input: path, rule },
        'ERR_NOT_ABSOLUTE',
        'The UNC path names a server but no share (\\\\server\\share\\...), so it does not name a folder.',
      );
    }
    split = resolveNames(`\\\\${unc[1]}\\${unc[2]}\\`, [], path.slice(unc[0].length), ctx, notes);
  } else if (kind === 'drive-relative') {
    const drive = `${path[0]!.toUpperCase()}:\\`;
    if (drive === root!.prefix) {
      notes.push(`drive-relative: resolved against the root, the current folder of ${drive.slice(0, 2)} here`);
      split = resolveNames(drive, root!.names, path.slice(2), ctx, notes);
    } else {
      notes.push(`drive-relative on another drive than the root's: its current folder is unknown, so taken from ${drive}`);
      split = resolveNames(drive, [], path.slice(2), ctx, notes);
    }
  } else if (kind === 'rooted') {
    notes.push(`rooted: resolved against the root's drive ${root!.prefix}`);
    split = resolveNames(root!.prefix, [], path, ctx, notes);
  } else {
    notes.push('relative: resolved against the root');
    split = resolveNames(root!.prefix, root!.names, path, ctx, notes);
  }

  const output = joinSplit(split, ctx.platform);
  if (/[\\/]{2,}/.test(path.slice(kind === 'unc' ? 2 : 0)) || (path.length > 1 && /[\\/]$/.test(path))) {
    notes.push(`separators collapsed to single "${separator(ctx.platform)}"`);
  }
  return passed('normalise', { input: path, output, rule, notes }, { path: output, split });
}
