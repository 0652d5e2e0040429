// VS Code's glob patterns as its edit confirmation matches them: `**` a whole segment of any depth
// (none too), `*` and `?` within one name, `{a,b}` choices, `[...]` classes, `/` either separator;
// no special case for names starting with a dot; case kept (the caller lowers both sides where
// the folder's disk ignores case). A pattern relative to a folder matches only below that folder,
// on what follows it.
import type { Platform } from '../../core/index.js';
import { isEqualOrParent } from './paths.js';

const SEPARATOR = '[/\\\\]';
const NOT_SEPARATOR = '[^/\\\\]';

/** `**` as a segment: any run of names, and at the end of the pattern also what follows a last separator. */
function globstar(last: boolean): string {
  return `(?:${SEPARATOR}|${NOT_SEPARATOR}+${SEPARATOR}${last ? `|${SEPARATOR}${NOT_SEPARATOR}+` : ''})*?`;
}

/** Splits on `separator` outside braces and brackets. */
function splitOutside(pattern: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let inBrackets = false;
  let current = '';
  for (const char of pattern) {
    if (char === '[') inBrackets = true;
    else if (char === ']') inBrackets = false;
    else if (char === '{' && !inBrackets) depth++;
    else if (char === '}' && !inBrackets) depth--;
    if (char === separator && depth === 0 && !inBrackets) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

const escaped = (char: string) => char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

function regexpSource(pattern: string): string {
  const segments = splitOutside(pattern, '/');
  if (segments.every((segment) => segment === '**')) return '.*';
  let source = '';
  let previousGlobstar = false;
  segments.forEach((segment, index) => {
    if (segment === '**') {
      if (!previousGlobstar) source += globstar(index === segments.length - 1);
      previousGlobstar = true;
      return;
    }
    previousGlobstar = false;
    let braces: string | undefined;
    let brackets: string | undefined;
    for (const char of segment) {
      if (braces !== undefined && char !== '}') {
        braces += char;
        continue;
      }
      if (brackets !== undefined && (char !== ']' || brackets === '')) {
        brackets += char === '!' && brackets === '' ? '^' : char === '\\' ? '\\\\' : char;
        continue;
      }
      if (char === '{') braces = '';
      else if (char === '[') brackets = '';
      else if (char === '}') {
        source += `(?:${splitOutside(braces ?? '', ',').map(regexpSource).join('|')})`;
        braces = undefined;
      } else if (char === ']') {
        source += `[${brackets ?? ''}]`;
        brackets = undefined;
      } else if (char === '?') source += NOT_SEPARATOR;
      else if (char === '*') source += `${NOT_SEPARATOR}*?`;
      else source += escaped(char);
    }
    // The separator split on, unless only a last `**` follows (which takes it itself).
    const next = segments[index + 1];
    if (next !== undefined && (next !== '**' || index + 2 < segments.length)) source += SEPARATOR;
  });
  return source;
}

/** Whether `path` matches `pattern` as a whole. */
export function globMatches(pattern: string, path: string): boolean {
  return new RegExp(`^${regexpSource(pattern.trim())}$`).test(path);
}

/**
 * Whether `path` matches `pattern` taken relative to `base` (VS Code's RelativePattern): `path` is
 * at or below `base`, compared without case except on Linux, and what follows `base` matches.
 */
export function relativeGlobMatches(base: string, pattern: string, path: string, platform: Platform): boolean {
  if (!isEqualOrParent(path, base, platform)) return false;
  const separator = platform === 'win32' ? '\\' : '/';
  let rest = path.slice(base.length);
  while (rest.startsWith(separator)) rest = rest.slice(1);
  return globMatches(pattern, rest);
}
