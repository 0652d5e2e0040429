// Oracles for the fuzzer: where an input really lands, computed without src/core, from the
// reference implementations Node ships (url.fileURLToPath, path.posix), the kernel
// (fs.realpathSync.native), and ports of what Windows and its filesystems do: Wine's
// RtlGetFullPathName_U collapse (path.win32.normalize agrees with it on plain paths, as the tests
// check, but keeps the trailing dots and spaces Win32 drops), the NTFS upcase table, and APFS's
// canonical caseless match. The core may refuse more than an oracle would; it must never judge
// inside what an oracle places outside or what the design says must be refused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Answer =
  | { readonly verdict: 'inside' | 'outside'; readonly path: string }
  /** A rule of the pipeline (docs/pipeline.md) the core must apply, or an input Node's own converter will not turn into a path. */
  | { readonly verdict: 'must-refuse'; readonly rule: string }
  /** The platform would open nothing at all: a link loop, or a name `..` that only Win32 resolves. */
  | { readonly verdict: 'nowhere'; readonly why: string };

/** The parse stage: a scheme of two or more characters makes a URI; anything else is a path. */
export function looksLikeUri(input: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]+:/.test(input);
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** Component-wise containment: the root's names are a prefix of the target's. */
function within(root: readonly string[], target: readonly string[], same: (a: string, b: string) => boolean): boolean {
  return root.length <= target.length && root.every((name, i) => same(name, target[i]!));
}

const posixNames = (p: string): string[] => p.split('/').filter((name) => name !== '');

// ------------------------------------------------------------------------------------------------
// POSIX meaning (Linux and macOS): a file: URI through fileURLToPath, a path taken literally
// ------------------------------------------------------------------------------------------------

/** What a request names on a POSIX system, before any folder is consulted. */
export function posixMeaning(input: string): { readonly ok: true; readonly path: string } | { readonly ok: false; readonly rule: string } {
  let named = input;
  if (looksLikeUri(input)) {
    if (!/^file:/i.test(input)) return { ok: false, rule: 'not a file: URI' };
    try {
      // Decodes once, drops a query or fragment, accepts only an empty or "localhost" host.
      named = fileURLToPath(input, { windows: false });
    } catch (error) {
      return { ok: false, rule: `fileURLToPath refuses it (${errorCode(error)})` };
    }
  }
  if (named === '') return { ok: false, rule: 'empty' };
  if (named.includes('\0')) return { ok: false, rule: 'a NUL, which no path the kernel takes may hold' };
  return { ok: true, path: named };
}

// ------------------------------------------------------------------------------------------------
// Linux, on the real filesystem
// ------------------------------------------------------------------------------------------------

export interface LinuxRoot {
  readonly given: string;
  /** The root as a path, `.` and `..` resolved by name. */
  readonly lexical: string;
  /** Where the kernel says the root is. */
  readonly real: string;
}

export function linuxRoot(given: string): LinuxRoot {
  const lexical = path.posix.resolve(looksLikeUri(given) ? fileURLToPath(given, { windows: false }) : given);
  return { given, lexical, real: fs.realpathSync.native(lexical) };
}

export type Landing = { readonly kind: 'landed'; readonly path: string } | { readonly kind: 'nowhere'; readonly why: string };

/** Linux's MAXSYMLINKS, for the dangling links this walk follows itself. */
const MAX_HOPS = 40;

function readlinkOrNull(candidate: string): string | null {
  try {
    return fs.readlinkSync(candidate);
  } catch {
    return null;
  }
}

/**
 * Where the kernel lands for an absolute path, name by name: each existing prefix is resolved by
 * the kernel (realpath(3): links followed, `..` taken after them, physically); a dangling link is
 * followed to where it points, as open(O_CREAT) and mkdir would create there; below the first
 * name that does not exist nothing can exist, so the rest are names to create (`..` among them
 * climbs back out of a name still to create, and names are looked up again from there, as
 * `mkdir -p` would). With `followFinal` false a link at the last name is the subject itself.
 */
export function kernelLanding(absolute: string, followFinal: boolean): Landing {
  const pending = absolute.split('/');
  let current = '/';
  const toCreate: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      if (toCreate.length > 0) toCreate.pop();
      else current = path.posix.dirname(current);
      continue;
    }
    if (toCreate.length > 0) {
      toCreate.push(name);
      continue;
    }
    const candidate = path.posix.join(current, name);
    if (pending.length === 0 && !followFinal) return { kind: 'landed', path: candidate };
    try {
      current = fs.realpathSync.native(candidate);
      continue;
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return { kind: 'nowhere', why: `${code} at ${candidate}` };
    }
    const target = readlinkOrNull(candidate);
    if (target !== null) {
      hops += 1;
      if (hops > MAX_HOPS) return { kind: 'nowhere', why: `more than ${MAX_HOPS} links from ${absolute}` };
      if (target.startsWith('/')) current = '/';
      pending.unshift(...target.split('/'));
      continue;
    }
    toCreate.push(name);
  }
  return { kind: 'landed', path: path.posix.join(current, ...toCreate) };
}

/**
 * The Linux oracle. The request's own `..` are taken by name first (path.posix.resolve), which
 * is the reading the product acts on: the trace's path, never the input string, reaches the
 * disk. Links are then resolved by the kernel, and the landing compared with the root's real
 * path, name by name, case and Unicode form significant (Linux filesystems keep names as bytes).
 */
export function judgeLinux(input: string, root: LinuxRoot, followFinal: boolean): Answer {
  const meaning = posixMeaning(input);
  if (!meaning.ok) return { verdict: 'must-refuse', rule: meaning.rule };
  const landing = kernelLanding(path.posix.resolve(root.lexical, meaning.path), followFinal);
  if (landing.kind === 'nowhere') return { verdict: 'nowhere', why: landing.why };
  const inside = within(posixNames(root.real), posixNames(landing.path), (a, b) => a === b);
  return { verdict: inside ? 'inside' : 'outside', path: landing.path };
}

/**
 * The same input handed to the kernel as it is: relative names from the root's folder, and the
 * request's own `..` taken after the links before them (`escape/..` is the parent of the link's
 * target, not the root). Not the reading the product acts on; the fuzzer counts where the two
 * part, because a tool that opens the input string itself would follow this one.
 */
export function kernelReading(input: string, root: LinuxRoot, followFinal: boolean): Landing | null {
  const meaning = posixMeaning(input);
  if (!meaning.ok) return null;
  return kernelLanding(meaning.path.startsWith('/') ? meaning.path : `${root.real}/${meaning.path}`, followFinal);
}

export function insideLinuxRoot(root: LinuxRoot, landed: string): boolean {
  return within(posixNames(root.real), posixNames(landed), (a, b) => a === b);
}

// ------------------------------------------------------------------------------------------------
// macOS, simulated: APFS compares names by their canonical caseless form
// ------------------------------------------------------------------------------------------------

/**
 * Unicode full case folding (CaseFolding.txt, statuses C and F) of one code point. lower(upper(
 * lower(c))) agrees with it for every character these generators produce (ß and ẞ to "ss",
 * ſ to s, the Kelvin sign to k, µ to μ, ς to σ, İ to i + U+0307) except ı, which CaseFolding
 * leaves alone outside Turkic locales.
 */
function foldCodePoint(char: string): string {
  if (char === '\u0131') return char;
  return char.toLowerCase().toUpperCase().toLowerCase();
}

/**
 * APFS (xnu's utf8_normalizeOptCaseFoldAndCompare) compares the "canonical caseless form" of two
 * names on a case-insensitive volume: NFD(fold(NFD(name))), Unicode D145.
 */
export function apfsKey(name: string): string {
  return Array.from(name.normalize('NFD'), foldCodePoint).join('').normalize('NFD');
}

export interface PosixSimRoot {
  readonly given: string;
  readonly lexical: string;
}

export function posixSimRoot(given: string): PosixSimRoot {
  return { given, lexical: path.posix.resolve(looksLikeUri(given) ? fileURLToPath(given, { windows: false }) : given) };
}

export function judgeDarwin(input: string, root: PosixSimRoot): Answer {
  const meaning = posixMeaning(input);
  if (!meaning.ok) return { verdict: 'must-refuse', rule: meaning.rule };
  const target = path.posix.resolve(root.lexical, meaning.path);
  const inside = within(posixNames(root.lexical), posixNames(target), (a, b) => apfsKey(a) === apfsKey(b));
  return { verdict: inside ? 'inside' : 'outside', path: target };
}

// ------------------------------------------------------------------------------------------------
// Windows, simulated: Win32 path rules and NTFS name comparison
// ------------------------------------------------------------------------------------------------

/**
 * The NTFS upcase table Windows Vista and later write to $UpCase, built as ntfs-3g's
 * ntfs_upcase_table_build does. It maps UTF-16 code units one to one; ı (U+0131), ſ (U+017F),
 * µ (U+00B5), the Kelvin sign and anything beyond the BMP upcase to themselves.
 */
const NTFS_UPCASE: Uint16Array = (() => {
  const run: readonly (readonly [number, number, number])[] = [
    [0x0061, 0x007b, -32], [0x00e0, 0x00f7, -32], [0x00f8, 0x00ff, -32], [0x0256, 0x0258, -205], [0x028a, 0x028c, -217],
    [0x037b, 0x037e, 130], [0x03ac, 0x03ad, -38], [0x03ad, 0x03b0, -37], [0x03b1, 0x03c2, -32], [0x03c2, 0x03c3, -31],
    [0x03c3, 0x03cc, -32], [0x03cc, 0x03cd, -64], [0x03cd, 0x03cf, -63], [0x0430, 0x0450, -32], [0x0450, 0x0460, -80],
    [0x0561, 0x0587, -48], [0x1f00, 0x1f08, 8], [0x1f10, 0x1f16, 8], [0x1f20, 0x1f28, 8], [0x1f30, 0x1f38, 8],
    [0x1f40, 0x1f46, 8], [0x1f51, 0x1f52, 8], [0x1f53, 0x1f54, 8], [0x1f55, 0x1f56, 8], [0x1f57, 0x1f58, 8],
    [0x1f60, 0x1f68, 8], [0x1f70, 0x1f72, 74], [0x1f72, 0x1f76, 86], [0x1f76, 0x1f78, 100], [0x1f78, 0x1f7a, 128],
    [0x1f7a, 0x1f7c, 112], [0x1f7c, 0x1f7e, 126], [0x1f80, 0x1f88, 8], [0x1f90, 0x1f98, 8], [0x1fa0, 0x1fa8, 8],
    [0x1fb0, 0x1fb2, 8], [0x1fb3, 0x1fb4, 9], [0x1fcc, 0x1fcd, -9], [0x1fd0, 0x1fd2, 8], [0x1fe0, 0x1fe2, 8],
    [0x1fe5, 0x1fe6, 7], [0x1ffc, 0x1ffd, -9], [0x2170, 0x2180, -16], [0x24d0, 0x24ea, -26], [0x2c30, 0x2c5f, -48],
    [0x2d00, 0x2d26, -7264], [0xff41, 0xff5b, -32],
  ];
  const dup: readonly (readonly [number, number])[] = [
    [0x0100, 0x012f], [0x0132, 0x0137], [0x0139, 0x0149], [0x014a, 0x0178], [0x0179, 0x017e], [0x01a0, 0x01a6],
    [0x01b3, 0x01b7], [0x01cd, 0x01dd], [0x01de, 0x01ef], [0x01f4, 0x01f5], [0x01f8, 0x01f9], [0x01fa, 0x0220],
    [0x0222, 0x0234], [0x023b, 0x023c], [0x0241, 0x0242], [0x0246, 0x024f], [0x03d8, 0x03ef], [0x03f7, 0x03f8],
    [0x03fa, 0x03fb], [0x0460, 0x0481], [0x048a, 0x04bf], [0x04c1, 0x04c4], [0x04c5, 0x04c8], [0x04c9, 0x04ce],
    [0x04ec, 0x04ed], [0x04d0, 0x04eb], [0x04ee, 0x04f5], [0x04f6, 0x0513], [0x1e00, 0x1e95], [0x1ea0, 0x1ef9],
    [0x2183, 0x2184], [0x2c60, 0x2c61], [0x2c67, 0x2c6c], [0x2c75, 0x2c76], [0x2c80, 0x2ce3],
  ];
  const single: readonly (readonly [number, number])[] = [
    [0x00ff, 0x0178], [0x0180, 0x0243], [0x0183, 0x0182], [0x0185, 0x0184], [0x0188, 0x0187], [0x018c, 0x018b],
    [0x0192, 0x0191], [0x0195, 0x01f6], [0x0199, 0x0198], [0x019a, 0x023d], [0x019e, 0x0220], [0x01a8, 0x01a7],
    [0x01ad, 0x01ac], [0x01b0, 0x01af], [0x01b9, 0x01b8], [0x01bd, 0x01bc], [0x01bf, 0x01f7], [0x01c6, 0x01c4],
    [0x01c9, 0x01c7], [0x01cc, 0x01ca], [0x01dd, 0x018e], [0x01f3, 0x01f1], [0x023a, 0x2c65], [0x023e, 0x2c66],
    [0x0253, 0x0181], [0x0254, 0x0186], [0x0259, 0x018f], [0x025b, 0x0190], [0x0260, 0x0193], [0x0263, 0x0194],
    [0x0268, 0x0197], [0x0269, 0x0196], [0x026b, 0x2c62], [0x026f, 0x019c], [0x0272, 0x019d], [0x0275, 0x019f],
    [0x027d, 0x2c64], [0x0280, 0x01a6], [0x0283, 0x01a9], [0x0288, 0x01ae], [0x0289, 0x0244], [0x028c, 0x0245],
    [0x0292, 0x01b7], [0x03f2, 0x03f9], [0x04cf, 0x04c0], [0x1d7d, 0x2c63], [0x214e, 0x2132],
  ];
  const table = new Uint16Array(0x10000);
  for (let i = 0; i < table.length; i++) table[i] = i;
  for (const [start, end, add] of run) for (let i = start; i < end; i++) table[i] = i + add;
  for (const [start, end] of dup) for (let i = start; i < end; i += 2) table[i + 1] = i;
  for (const [offset, value] of single) table[offset] = value;
  return table;
})();

/** NTFS compares names by upcasing each UTF-16 code unit through the volume's table. */
export function ntfsKey(name: string): string {
  let key = '';
  for (let i = 0; i < name.length; i++) key += String.fromCharCode(NTFS_UPCASE[name.charCodeAt(i)]!);
  return key;
}

/**
 * RtlGetFullPathName_U's collapse of a full path, ported from Wine (dlls/ntdll/path.c,
 * collapse_path), whose behaviour ReactOS shares: separators become `\` and runs of them one;
 * a name that is exactly `.` or `..` is resolved (never above `mark`); one dot ending a folder's
 * name is dropped; trailing spaces and dots of the whole path are dropped. `.. ` and `...` are
 * names, not parents.
 */
export function win32Collapse(full: string, mark: number): string {
  let chars = full.replace(/\//g, '\\').split('');
  const start = Math.max(1, mark);
  const collapsed = chars.slice(0, start);
  for (let i = start; i < chars.length; i++) {
    if (chars[i] !== '\\' || collapsed[collapsed.length - 1] !== '\\') collapsed.push(chars[i]!);
  }
  chars = collapsed;
  const at = (i: number) => chars[i] ?? '';
  let p = mark;
  while (p < chars.length) {
    if (chars[p] === '.') {
      if (at(p + 1) === '\\') {
        chars.splice(p, 2);
        continue;
      }
      if (at(p + 1) === '') {
        if (p > mark) p--;
        chars.length = p;
        continue;
      }
      if (at(p + 1) === '.' && (at(p + 2) === '\\' || at(p + 2) === '')) {
        const final = at(p + 2) === '';
        const next = p + 3;
        let q = p;
        if (q > mark) {
          q--;
          while (q > mark && chars[q - 1] !== '\\') q--;
          if (final && q > mark) q--;
        }
        if (final) chars.length = q;
        else chars.splice(q, next - q);
        p = q;
        continue;
      }
    }
    while (p < chars.length && chars[p] !== '\\') p++;
    if (p < chars.length) {
      if (p > mark && chars[p - 1] === '.') chars.splice(p - 1, 1);
      else p++;
    }
  }
  let end = chars.length;
  while (end > mark && (chars[end - 1] === ' ' || chars[end - 1] === '.')) end--;
  chars.length = end;
  return chars.join('');
}

export interface Win32Split {
  /** `C:\` or `\\server\share\`. */
  readonly prefix: string;
  readonly names: readonly string[];
}

/** Where a full path's root ends: after `C:\`, or after `\\server\share\` (skip_unc_prefix). */
function markOf(full: string): number | null {
  if (/^[A-Za-z]:\\/.test(full)) return 3;
  const unc = /^\\\\[^\\]+\\+[^\\]+(?:\\|$)/.exec(full);
  return unc ? unc[0].length : null;
}

function splitFull(full: string): Win32Split | null {
  const mark = markOf(full);
  if (mark === null) return null;
  const names = full.slice(mark).split('\\').filter((name) => name !== '');
  if (mark === 3) return { prefix: full.slice(0, 3), names };
  const [server, share] = full.slice(2, mark).split('\\').filter((name) => name !== '');
  return { prefix: `\\\\${server}\\${share}\\`, names };
}

export interface Win32Root {
  readonly given: string;
  /** The root as Windows would spell it in full. */
  readonly full: string;
  readonly split: Win32Split;
}

export function win32Root(given: string): Win32Root {
  const raw = looksLikeUri(given) ? fileURLToPath(given, { windows: true }) : given;
  const full = win32Collapse(raw, markOf(raw.replace(/\//g, '\\')) ?? 3);
  const split = splitFull(full);
  if (!split) throw new TypeError(`not an absolute Windows root: ${given}`);
  return { given, full, split };
}

/**
 * What a request names on Windows, before Windows normalises it. A file: URI goes through
 * fileURLToPath(x, { windows: true }); one with no drive letter (which Node will not convert) is
 * a rooted path, as the pipeline reads it, decoded by Node's POSIX conversion.
 */
export function win32Meaning(input: string): { readonly ok: true; readonly path: string } | { readonly ok: false; readonly rule: string } {
  if (!looksLikeUri(input)) return input === '' ? { ok: false, rule: 'empty' } : { ok: true, path: input };
  if (!/^file:/i.test(input)) return { ok: false, rule: 'not a file: URI' };
  try {
    return { ok: true, path: fileURLToPath(input, { windows: true }) };
  } catch (error) {
    if (!/must be absolute/.test((error as Error).message)) return { ok: false, rule: `fileURLToPath refuses it (${errorCode(error)})` };
  }
  try {
    return { ok: true, path: fileURLToPath(input, { windows: false }).replace(/\//g, '\\') };
  } catch (error) {
    return { ok: false, rule: `fileURLToPath refuses it (${errorCode(error)})` };
  }
}

/** Win32 naming rules: these names open a device in any folder, whatever follows them (an extension, spaces, a `:`). */
const DEVICE_NAME = /^(CON|PRN|AUX|NUL|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3]|CONIN\$|CONOUT\$)$/i;

export function isReservedDeviceName(name: string): boolean {
  return DEVICE_NAME.test(name.split(/[.:]/)[0]!.replace(/ +$/, ''));
}

/** The rule of the refusals stage that a Windows path breaks, if any. */
function win32Refusal(named: string, unc: 'refuse' | 'allow'): string | undefined {
  if (named.includes('\0')) return 'a NUL';
  if (/^[\\/]{2}[?.](?:[\\/]|$)/.test(named) || /^[\\/]\?\?[\\/]/.test(named)) return 'a device path (\\\\?\\, \\\\.\\ or \\??\\)';
  const isUnc = /^[\\/]{2}[^\\/]/.test(named);
  if (isUnc && unc === 'refuse') return 'a UNC path (refused by default)';
  const afterDrive = isUnc ? named.replace(/^[\\/]{2}[^\\/]*/, '') : named.replace(/^[A-Za-z]:/, '');
  if (afterDrive.includes(':')) return 'a ":" after the drive (an NTFS stream such as name:stream or dir::$INDEX_ALLOCATION)';
  const device = afterDrive.split(/[\\/]/).find(isReservedDeviceName);
  if (device !== undefined) return `the reserved device name ${JSON.stringify(device)}`;
  return undefined;
}

/** The full path Windows opens for a request made in the root's folder (RtlGetFullPathName_U). */
export function win32FullPath(named: string, root: Win32Root): string {
  const s = named.replace(/\//g, '\\');
  const rootDrive = /^[A-Za-z]:/.test(root.full) ? root.full.slice(0, 2).toUpperCase() : null;
  const rootMark = markOf(root.full)!;
  if (/^\\\\[^\\]/.test(s) || /^[A-Za-z]:\\/.test(s)) return win32Collapse(s, markOf(s) ?? s.length);
  if (/^[A-Za-z]:/.test(s)) {
    // The drive's current folder: the root's own on its drive, the top of any other.
    const drive = s.slice(0, 2).toUpperCase();
    return drive === rootDrive ? win32Collapse(`${root.full}\\${s.slice(2)}`, rootMark) : win32Collapse(`${drive}\\${s.slice(2)}`, 3);
  }
  if (s.startsWith('\\')) return win32Collapse(`${root.full.slice(0, rootMark).replace(/\\$/, '')}${s}`, rootMark);
  return win32Collapse(`${root.full}\\${s}`, rootMark);
}

export function judgeWin32(input: string, root: Win32Root, unc: 'refuse' | 'allow'): Answer {
  const meaning = win32Meaning(input);
  if (!meaning.ok) return { verdict: 'must-refuse', rule: meaning.rule };
  const rule = win32Refusal(meaning.path, unc);
  if (rule !== undefined) return { verdict: 'must-refuse', rule };
  const full = win32FullPath(meaning.path, root);
  const split = splitFull(full);
  if (!split) return { verdict: 'must-refuse', rule: `not a path Windows can open: ${JSON.stringify(full)}` };
  // `...\` loses one dot and leaves a name `..`, which only Win32 resolves; NTFS opens no such name.
  if (split.names.some((name) => name === '.' || name === '..')) return { verdict: 'nowhere', why: `NTFS has no name "." or "..": ${full}` };
  const sameVolume = ntfsKey(split.prefix) === ntfsKey(root.split.prefix);
  const inside = sameVolume && within(root.split.names, split.names, (a, b) => ntfsKey(a) === ntfsKey(b));
  return { verdict: inside ? 'inside' : 'outside', path: full };
}
