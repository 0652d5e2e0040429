/**
 * Win32 naming rules ("Naming Files, Paths, and Namespaces") for the names of a path: which
 * names open a device, and which hold a stream. Pure: the names are judged as written.
 */

/**
 * Reserved device names: CON, PRN, AUX, NUL, COM0-9, LPT0-9, the superscript-digit forms
 * COM¹ COM² COM³ LPT¹ LPT² LPT³ (Windows reads ¹²³ as digits), and the console handles CONIN$
 * and CONOUT$. COM0 and LPT0 are in Microsoft's list though Go's IsLocal takes them as local.
 */
const RESERVED_BASE = /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])$/i;

/**
 * Whether a name opens a device in any folder. Windows reads the device name up to the first
 * "." or ":" and drops the spaces before it, so `nul.txt`, `nul .txt`, `nul.`, `nul `, `nul:`
 * and `NUL : x` all open NUL (as Go's isReservedName reads them).
 */
export function isReservedDeviceName(name: string): boolean {
  return reservedDeviceOf(name) !== undefined;
}

/** The device a name opens (`NUL` for `nul .txt`), or undefined when it names no device. */
export function reservedDeviceOf(name: string): string | undefined {
  // Every reserved name starts with C, P, A, N or L: most names are ruled out without a regex.
  const first = name.charCodeAt(0) | 0x20;
  if (first !== 0x63 && first !== 0x70 && first !== 0x61 && first !== 0x6e && first !== 0x6c) return undefined;
  const base = name.replace(/[.:].*$/s, '').replace(/ +$/, '');
  return RESERVED_BASE.test(base) ? base.toUpperCase() : undefined;
}

/**
 * Whether a name holds a stream: NTFS reads `name:stream` and `dir::$INDEX_ALLOCATION` as
 * streams of `name` and `dir`, so `ro::$INDEX_ALLOCATION\x` writes into `ro`. Any ":" in a
 * name counts; the drive's own colon is not part of a name (see `win32Names`).
 */
export function holdsStream(name: string): boolean {
  return name.includes(':');
}

/**
 * The name Windows would read in more than one way, if any. Win32 drops the trailing dots and
 * spaces of a path's last name, but of a folder name before it only a single trailing dot, and
 * no spaces: `dev \x` opens the folder "dev ", `dev.\x` opens "dev", and what `dev..\x` opens
 * depends on the API. A path that ends in a separator has no last name in this sense (`dev \`
 * opens "dev "). Such a folder name, and a last name that only its trimming turns into "." or
 * ".." (or nothing), is refused rather than guessed.
 */
export function ambiguousTrailing(names: readonly string[], endsInSeparator: boolean): string | undefined {
  return names.find((name, index) => {
    if (name === '.' || name === '..' || !/[ .]$/.test(name)) return false;
    if (endsInSeparator || index < names.length - 1) return true;
    const trimmed = name.replace(/[ .]+$/, '');
    return trimmed === '' || trimmed === '.' || trimmed === '..';
  });
}

/**
 * The names of a Win32 path as written: everything after the drive (`C:\`, or the `C:` of a
 * drive-relative `C:x`, which is no stream), and for a UNC path its server and share too.
 */
export function win32Names(path: string): string[] {
  const afterDrive = /^[A-Za-z]:/.test(path) ? path.slice(2) : path;
  return afterDrive.split(/[\\/]/).filter((name) => name !== '');
}

/**
 * The names of a `file:` URI once decoded: the UNC host (null for none), then the names of its
 * path, given as the decoded segments of `url.pathname` (which starts with "/"). RFC 8089
 * (appendix E.2): a drive is a letter and ":" as the whole first segment of a URI without a host
 * (`file:///C:/x`; VS Code writes `c%3A`). `file:///C:a/x` has no drive: its first name `C:a`
 * holds a colon (Node reads it against the drive's current folder).
 */
export function uriNames(host: string | null, pathSegments: readonly string[]): string[] {
  const drive = host === null && /^[A-Za-z]:$/.test(pathSegments[1] ?? '');
  const names = (drive ? pathSegments.slice(2) : pathSegments).filter((name) => name !== '');
  return host === null ? names : [host, ...names];
}
