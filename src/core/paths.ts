import type { Platform } from './types.js';

/**
 * An absolute, normalised path split into the part no `..` can climb above (`/`, `C:\`,
 * `\\host\share\`) and its names.
 */
export interface SplitPath {
  readonly prefix: string;
  readonly names: readonly string[];
}

const ASCII = /^[\x00-\x7f]*$/;

/** Whether text is ASCII only: then it is its own NFC form and upper-cases one character at a time. */
export function isAscii(text: string): boolean {
  return ASCII.test(text);
}

/** Text in Unicode NFC form, without asking ICU for the common ASCII case. */
export function toNfc(text: string): string {
  return ASCII.test(text) ? text : text.normalize('NFC');
}

/** The Unicode normalisation form a name is already in, or null when it is in neither. */
export function normalisationForm(name: string): 'NFC' | 'NFD' | null {
  if (name === toNfc(name)) return 'NFC';
  return name === name.normalize('NFD') ? 'NFD' : null;
}

export function separator(platform: Platform): '/' | '\\' {
  return platform === 'win32' ? '\\' : '/';
}

/** Splits a path that normalise produced. Returns null for anything else. */
export function splitAbsolute(path: string, platform: Platform): SplitPath | null {
  if (platform !== 'win32') {
    if (!path.startsWith('/')) return null;
    return { prefix: '/', names: path.split('/').filter((name) => name !== '') };
  }
  const drive = /^([A-Za-z]):\\/.exec(path);
  if (drive) {
    return { prefix: `${drive[1]!.toUpperCase()}:\\`, names: path.slice(3).split('\\').filter((name) => name !== '') };
  }
  const unc = /^\\\\([^\\]+)\\([^\\]+)(?:\\|$)/.exec(path);
  if (unc) {
    return {
      prefix: `\\\\${unc[1]}\\${unc[2]}\\`,
      names: path.slice(unc[0].length).split('\\').filter((name) => name !== ''),
    };
  }
  return null;
}

export function joinSplit(split: SplitPath, platform: Platform): string {
  return split.prefix + split.names.join(separator(platform));
}

export function joinNames(prefix: string, names: readonly string[], platform: Platform): string {
  return joinSplit({ prefix, names }, platform);
}

export function parentOf(split: SplitPath): SplitPath {
  return { prefix: split.prefix, names: split.names.slice(0, -1) };
}
