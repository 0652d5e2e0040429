/**
 * Names whose NFC and NFD spellings differ: on Linux they are different files, on macOS the same
 * one. The byte view shows both spellings so the difference is visible, not just described.
 */

export type UnicodeForm = 'NFC' | 'NFD' | 'mixed';

export interface AmbiguousName {
  readonly name: string;
  readonly form: UnicodeForm;
  readonly nfc: string;
  readonly nfd: string;
  /** Where the name was seen: the input, the resolved path, the root. */
  readonly sources: readonly string[];
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text` in lower-case hex, one pair per byte, separated by spaces. */
export function utf8Hex(text: string): string {
  return Array.from(encoder.encode(text), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
}

/** Which normalisation form a name is already in; `mixed` when it is in neither. */
export function unicodeForm(name: string): UnicodeForm {
  if (name === name.normalize('NFC')) return 'NFC';
  if (name === name.normalize('NFD')) return 'NFD';
  return 'mixed';
}

/** The names of `path` split on both separators, whatever the platform. */
function names(path: string): string[] {
  return path.split(/[\\/]/).filter((name) => name !== '');
}

/**
 * Every distinct name in the given paths whose NFC and NFD forms differ, in the order first
 * seen, with the places each was seen.
 */
export function ambiguousNames(paths: readonly { readonly source: string; readonly path: string | null }[]): AmbiguousName[] {
  const found = new Map<string, { form: UnicodeForm; nfc: string; nfd: string; sources: string[] }>();
  for (const { source, path } of paths) {
    if (path === null) continue;
    for (const name of names(path)) {
      const nfc = name.normalize('NFC');
      const nfd = name.normalize('NFD');
      if (nfc === nfd) continue;
      const entry = found.get(name);
      if (entry) {
        if (!entry.sources.includes(source)) entry.sources.push(source);
      } else {
        found.set(name, { form: unicodeForm(name), nfc, nfd, sources: [source] });
      }
    }
  }
  return Array.from(found, ([name, entry]) => ({ name, ...entry }));
}
