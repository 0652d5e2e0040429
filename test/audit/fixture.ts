// Workspaces on the real disk for the audit's tests: one holding every kind of finding, one
// holding nothing to report (though it has links, dotted names and hard-linkable neighbours).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_KEPT_FINDINGS } from '../../src/audit/audit.js';

export const NFC = 'caf\u00e9';
export const NFD = 'cafe\u0301';
/** Names that read as others on screen: a bidi override (Trojan Source), a zero-width space, a line separator, DEL. */
export const HIDDEN_NAMES = ['invoice\u202etxt.exe', 'zero\u200bwidth.md', 'line\u2028break', 'del\u007f'];

export interface Fixture {
  /** Holds `ws`, `clean` and `outside`. */
  readonly base: string;
  /** Every kind of finding. */
  readonly ws: string;
  /** Nothing to report. */
  readonly clean: string;
  readonly outside: string;
  /** False where the disk folds case (then README.md and readme.md cannot both exist). */
  readonly caseSensitive: boolean;
  /** A folder made unlistable with chmod 000; root lists it anyway. */
  readonly locked: string;
  /** A folder whose path is longer than PATH_MAX, so no path-based call can reach it. */
  readonly tooDeep: string | undefined;
  readonly cleanup: () => void;
}

function write(file: string, text = 'x\n'): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/**
 * Nests folders in a new folder `from` until the path passes PATH_MAX (4096 on Linux), each made
 * from inside the last (`cd -P` changes folder by the relative name), as no call taking the whole
 * path can. Returns the deepest folder, or undefined where there is no such limit to pass.
 */
function nestPastPathMax(from: string): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const name = 'd'.repeat(200);
  fs.mkdirSync(from);
  const script = `cd "$1" && for i in $(seq 1 22); do mkdir ${name} && cd -P ${name} || exit 1; done && mkdir inner`;
  const made = spawnSync('sh', ['-c', script, 'sh', from], { encoding: 'utf8' });
  if (made.status !== 0) return undefined;
  return path.join(from, ...Array<string>(22).fill(name), 'inner');
}

export function makeFixture(): Fixture {
  const base = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-audit-')));
  const ws = path.join(base, 'ws');
  const clean = path.join(base, 'clean');
  const outside = path.join(base, 'outside');

  write(path.join(outside, 'secret.txt'), 'outside\n');
  write(path.join(outside, 'shared.txt'), 'one file, two names\n');
  fs.mkdirSync(path.join(ws, 'inside'), { recursive: true });
  write(path.join(ws, 'inside', 'file.txt'));
  // Links out: absolute, relative, and one that leaves and comes back in through a link outside.
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'escape-abs'));
  fs.symlinkSync('../outside/secret.txt', path.join(ws, 'escape-rel'));
  fs.symlinkSync(path.join(ws, 'inside'), path.join(outside, 'back-in'));
  fs.symlinkSync('../outside/back-in/file.txt', path.join(ws, 'comes-back'));
  // A dangling link outside is an escape too: whether its target exists is not looked up.
  fs.symlinkSync(path.join(outside, 'no-such-file'), path.join(ws, 'escape-dangling'));
  fs.symlinkSync('missing.txt', path.join(ws, 'dangling'));
  fs.symlinkSync('loop-b', path.join(ws, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(ws, 'loop-b'));
  fs.symlinkSync('inside/file.txt', path.join(ws, 'fine-link'));
  // A chain of two links that stays inside.
  fs.symlinkSync('fine-link', path.join(ws, 'fine-chain'));

  write(path.join(ws, 'README.md'));
  let caseSensitive = true;
  try {
    fs.writeFileSync(path.join(ws, 'readme.md'), 'x\n', { flag: 'wx' });
  } catch {
    caseSensitive = false;
  }
  write(path.join(ws, 'names', NFC));
  write(path.join(ws, 'names', NFD));
  for (const name of ['CON.txt', 'aux', 'name.', 'name ', 'a:b', 'a?b', 'ctl\u0001']) write(path.join(ws, 'portable', name));
  for (const name of HIDDEN_NAMES) write(path.join(ws, 'hidden', name));
  // KELVIN SIGN and a Latin k: case twins that look alike.
  if (caseSensitive) for (const name of ['\u212a.txt', 'k.txt']) write(path.join(ws, 'kelvin', name));
  fs.linkSync(path.join(outside, 'shared.txt'), path.join(ws, 'hard.txt'));
  // Two names, both inside: still a hard link, and said to be all inside.
  write(path.join(ws, 'twice-a.txt'));
  fs.linkSync(path.join(ws, 'twice-a.txt'), path.join(ws, 'twice-b.txt'));
  const locked = path.join(ws, 'locked');
  write(path.join(locked, 'hidden.txt'));
  fs.chmodSync(locked, 0o000);
  const tooDeep = nestPastPathMax(path.join(ws, 'deep'));

  // Nothing here is a finding.
  fs.mkdirSync(path.join(clean, 'src', 'nested'), { recursive: true });
  write(path.join(clean, 'src', 'index.ts'));
  write(path.join(clean, 'src', 'nested', 'a.b.c.txt'));
  write(path.join(clean, '.hidden'));
  write(path.join(clean, 'console.log'));
  write(path.join(clean, 'auxiliary.txt'));
  write(path.join(clean, 'icon.png'));
  write(path.join(clean, 'read.md'));
  write(path.join(clean, 'readme.md'));
  write(path.join(clean, NFC));
  write(path.join(clean, 'spaced name.txt'));
  fs.symlinkSync('src/index.ts', path.join(clean, 'link-to-file'));
  fs.symlinkSync('src', path.join(clean, 'link-to-folder'));
  fs.symlinkSync('.', path.join(clean, 'link-to-self'));
  // Lexically out and back in by names: the server follows it, so it is no escape.
  fs.symlinkSync('../clean/src/index.ts', path.join(clean, 'link-out-and-in-by-name'));

  return {
    base,
    ws,
    clean,
    outside,
    caseSensitive,
    locked,
    tooDeep,
    cleanup: () => {
      fs.chmodSync(locked, 0o755);
      // rm walks by descriptors, so it removes a tree deeper than PATH_MAX.
      spawnSync('rm', ['-rf', base]);
    },
  };
}

/** A name Windows cannot hold (a ":" and a trailing dot), all of one length so that every finding costs the same bytes. */
export function unportableName(index: number): string {
  return `f:${String(index).padStart(7, '0')}.`;
}

/** Files named unportableName(from) to unportableName(to - 1) in `folder`: one not-portable finding each. */
export function makeUnportable(folder: string, from: number, to: number): void {
  fs.mkdirSync(folder, { recursive: true });
  for (let index = from; index < to; index++) fs.writeFileSync(path.join(folder, unportableName(index)), '');
}

/**
 * A workspace with more findings than an audit keeps, met in this order: two names of one file
 * (hard links, the least serious kind), MAX_KEPT_FINDINGS names that are not portable, then a
 * link that escapes (the most serious). What is kept: the link, and all but the last name.
 */
export function makeFindingFlood(ws: string): { readonly escape: string; readonly lastName: string } {
  write(path.join(ws, 'a-hard', 'one'));
  fs.linkSync(path.join(ws, 'a-hard', 'one'), path.join(ws, 'a-hard', 'two'));
  makeUnportable(path.join(ws, 'flood'), 0, MAX_KEPT_FINDINGS);
  // In a folder of its own, so it is met after the flood (a folder's own entries are examined before its folders are walked).
  fs.mkdirSync(path.join(ws, 'z'));
  fs.symlinkSync(path.dirname(ws), path.join(ws, 'z', 'escape'));
  return { escape: path.join(ws, 'z', 'escape'), lastName: path.join(ws, 'flood', unportableName(MAX_KEPT_FINDINGS - 1)) };
}

/**
 * A folder below `under`, 14 folders of 250-character names deep, as in a tree anyone can commit:
 * a finding there has a path of about 3.5 KB.
 */
export function nestLongNames(under: string): string {
  const deep = path.join(under, ...Array.from({ length: 14 }, (_, i) => String.fromCharCode(0x61 + i).repeat(250)));
  fs.mkdirSync(deep, { recursive: true });
  return deep;
}

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
