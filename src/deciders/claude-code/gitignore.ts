// The gitignore patterns Claude Code matches its Read and Edit rules with: each pattern becomes
// a regular expression over a path relative to the rule's root, with `/` between names, tested
// on every folder above the path (as `a/`, `a/b/`) and then on the path itself, shortest first;
// a folder that matches takes everything below it along. Letter case is ignored, as the `ignore`
// package's default is, on every platform. The rules are gitignore(5)'s: a pattern without a
// slash (but at its end) matches a name at any depth; a leading or middle slash anchors it at
// the root; `**/`, `/**/` and `/**` cross folders; `*`, `?` and `[...]` stay within one name.

/** One compiled pattern: what it was written as, whether it is a `!` negation, and its test. */
export interface CompiledPattern {
  readonly pattern: string;
  readonly negative: boolean;
  readonly regex: RegExp;
}

const REGEX_SPECIALS = /[.+^${}()|[\]\\*?]/;

/**
 * Whether the `ignore` package would skip the line outright: blank, a `#` comment, or ending
 * in a single backslash.
 */
export function skippedPattern(pattern: string): boolean {
  return pattern.trim() === '' || pattern.startsWith('#') || /(^|[^\\])(\\\\)*\\$/.test(pattern);
}

/** A bracket expression starting at `start` (`[`), as a regex class, and where it ends; null when unclosed. */
function bracket(body: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (body[i] === '!' || body[i] === '^') {
    negate = true;
    i++;
  }
  let inner = '';
  // A `]` right after the opening (or its `!`) is a member, as in fnmatch.
  if (body[i] === ']') {
    inner += '\\]';
    i++;
  }
  for (; i < body.length; i++) {
    const char = body[i]!;
    if (char === ']') return inner === '' ? null : { source: `[${negate ? '^' : ''}${inner}]`, end: i };
    if (char === '\\' && i + 1 < body.length) {
      inner += `\\${body[++i]}`;
      continue;
    }
    inner += char === '^' || char === '[' ? `\\${char}` : char;
  }
  return null;
}

/** The regex source of a pattern's body (after its anchor), name by name. */
function bodySource(body: string): string {
  let source = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    const atEnd = (k: number) => k >= body.length;
    if (char === '\\') {
      const next = body[i + 1];
      if (next === undefined) break;
      source += REGEX_SPECIALS.test(next) ? `\\${next}` : next === '/' ? '\\/' : next;
      i++;
      continue;
    }
    if (char === '/' && body.startsWith('**', i + 1) && (body[i + 3] === '/' || atEnd(i + 3))) {
      if (atEnd(i + 3)) {
        // `dir/**`: everything inside the folder, not the folder itself.
        source += '\\/.+';
        i += 2;
      } else {
        // `a/**/b`: no folder or any number between.
        source += '(?:\\/[^\\/]+)*';
        i += 2;
      }
      continue;
    }
    if (char === '*') {
      let run = 1;
      while (body[i + run] === '*') run++;
      const last = atEnd(i + run);
      // A lone `*` ending the pattern right after a slash names at least one character.
      source += last && run === 1 && body[i - 1] === '/' ? '[^\\/]+' : '[^\\/]*';
      i += run - 1;
      continue;
    }
    if (char === '?') {
      source += '[^\\/]';
      continue;
    }
    if (char === '[') {
      const parsed = bracket(body, i);
      if (parsed) {
        source += parsed.source;
        i = parsed.end;
        continue;
      }
      source += '\\[';
      continue;
    }
    if (char === '/') {
      source += '\\/';
      continue;
    }
    source += REGEX_SPECIALS.test(char) ? `\\${char}` : char;
  }
  return source;
}

/** The trailing spaces git drops: those not escaped with a backslash. */
function trimUnescapedEnd(pattern: string): string {
  let end = pattern.length;
  while (end > 0 && pattern[end - 1] === ' ') {
    let slashes = 0;
    for (let k = end - 2; k >= 0 && pattern[k] === '\\'; k--) slashes++;
    if (slashes % 2 === 1) break;
    end--;
  }
  return pattern.slice(0, end);
}

/** A gitignore pattern compiled, or null when the `ignore` package would skip it. */
export function compilePattern(pattern: string): CompiledPattern | null {
  if (skippedPattern(pattern)) return null;
  const negative = pattern.startsWith('!');
  let text = trimUnescapedEnd(negative ? pattern.slice(1) : pattern.replace(/^\\(?=[!#])/, ''));
  if (text === '') return null;
  let anchor: string;
  if (text.startsWith('**/')) {
    anchor = '^(?:.*\\/)?';
    text = text.slice(3);
  } else if (text.startsWith('/')) {
    anchor = '^';
    text = text.slice(1);
  } else anchor = /\/./.test(text) ? '^' : '(?:^|\\/)';
  const folderOnly = text.endsWith('/');
  const source = `${anchor}${bodySource(folderOnly ? text.slice(0, -1) : text)}${folderOnly ? '\\/$' : '(?=$|\\/$)'}`;
  return { pattern, negative, regex: new RegExp(source, 'i') };
}

/**
 * The pattern that decides `path` (relative to the patterns' root, `/` between names; a folder
 * written with a trailing `/`), or undefined: each folder above it is tested first, shortest
 * first, and one that matches decides for everything below; a `!` pattern lets go of a match
 * made before it, and a later pattern can take it again.
 */
export function matchPatterns(patterns: readonly CompiledPattern[], path: string): CompiledPattern | undefined {
  const tested: string[] = [];
  for (let slash = path.indexOf('/'); slash !== -1 && slash < path.length - 1; slash = path.indexOf('/', slash + 1)) tested.push(path.slice(0, slash + 1));
  tested.push(path);
  for (const candidate of tested) {
    let matched: CompiledPattern | undefined;
    for (const compiled of patterns) {
      if (compiled.negative ? matched === undefined : matched !== undefined) continue;
      if (compiled.regex.test(candidate)) matched = compiled.negative ? undefined : compiled;
    }
    if (matched) return matched;
  }
  return undefined;
}
