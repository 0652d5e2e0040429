/**
 * How every view shows text that came from the disk or the input: names, paths, link targets,
 * and the reasons and notes that quote them. Such text may hold characters that drive whatever
 * shows it: C0 and C1 controls and DEL (ESC starts a terminal sequence, CR and LF draw lines of
 * their own), line and paragraph separators, bidi controls that reorder the text around them
 * (Trojan Source, CVE-2021-42574), zero-width and other invisible (default-ignorable) characters
 * that hide in a name, and lone surrogates, which no output encoding carries. Each is shown as
 * its JSON escape (`\u202e`), so the text read is the text held, and a JSON string holding the
 * escape decodes to it.
 *
 * Known limits: a zero-width joiner inside an emoji or a Persian word is escaped too; characters
 * that look like others (a Cyrillic "а", a no-break space) are not, being visible.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;
const HIDDEN_ANY = new RegExp(HIDDEN.source, 'u');
const BIDI_CONTROL = /\p{Bidi_Control}/u;

/** A name (the text between separators and spaces) longer than this, in characters, is shortened when asked. */
export const LONG_NAME = 100;
/** A run longer than LONG_NAME in UTF-16 units, never fewer than its characters: a quick test before they are counted. */
const LONG_RUN = new RegExp(String.raw`[^/\\\s]{${LONG_NAME + 1},}`);
/** What a shortened name keeps of its start and of its end. */
const KEPT = 40;

/** A piece of shown text and the text it stands for: the same, an escaped character, or the middle of a long name. */
export interface ShownPart {
  readonly kind: 'text' | 'hidden' | 'cut';
  readonly shown: string;
  readonly real: string;
}

/** `\u202e` for U+202E; a character outside the BMP as its two surrogates, as JSON writes it. */
function escaped(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

function escapedParts(text: string, parts: ShownPart[]): void {
  let at = 0;
  for (const match of text.matchAll(HIDDEN)) {
    if (match.index > at) parts.push({ kind: 'text', shown: text.slice(at, match.index), real: text.slice(at, match.index) });
    parts.push({ kind: 'hidden', shown: escaped(match[0]), real: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ kind: 'text', shown: text.slice(at), real: text.slice(at) });
}

/**
 * `text` as shown, in parts: hidden characters escaped, and with `shorten`, each name longer than
 * LONG_NAME characters cut to its start and end around a count of what was left out (the full
 * text stays in each part's `real`).
 */
export function shownParts(text: string, options: { readonly shorten?: boolean } = {}): ShownPart[] {
  const parts: ShownPart[] = [];
  if (!options.shorten) {
    escapedParts(text, parts);
    return parts;
  }
  for (const piece of text.split(/([/\\\s]+)/)) {
    const chars = Array.from(piece);
    if (chars.length <= LONG_NAME) {
      escapedParts(piece, parts);
      continue;
    }
    const left = chars.length - 2 * KEPT;
    escapedParts(chars.slice(0, KEPT).join(''), parts);
    parts.push({ kind: 'cut', shown: `…(${left.toLocaleString('en-US')} characters)…`, real: chars.slice(KEPT, -KEPT).join('') });
    escapedParts(chars.slice(-KEPT).join(''), parts);
  }
  return parts;
}

/** The one escaping every view applies to text from the disk or the input (see above); `shorten` for tables and lists. */
export function visible(text: string, options: { readonly shorten?: boolean } = {}): string {
  // Most text has nothing to escape or cut: it is given back as it is, at the cost of a scan.
  if (!HIDDEN_ANY.test(text) && !(options.shorten === true && LONG_RUN.test(text))) return text;
  return shownParts(text, options)
    .map((part) => part.shown)
    .join('');
}

/** `text` as a JSON string whose hidden characters are escaped too: a name quoted in a reason, exact and safe to show. */
export function quoted(text: string): string {
  return visible(JSON.stringify(text));
}

/**
 * A name or path in text a model reads (the server's answers): as it is, or, when it holds a
 * hidden character, as a JSON string with those escaped. A line stays one line, and the name stays
 * exact: escapes written inside a tool call's JSON arguments decode to it.
 */
export function quotedIfHidden(text: string): string {
  return HIDDEN_ANY.test(text) ? quoted(text) : text;
}

/** The distinct hidden characters of `text`, in the order first met. */
export function hiddenCharacters(text: string): string[] {
  return [...new Set(text.match(HIDDEN))];
}

export function isBidiControl(char: string): boolean {
  return BIDI_CONTROL.test(char);
}

/** "U+0063 U+0061 U+0066 U+00E9" */
export function codePoints(text: string): string {
  return Array.from(text, (char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

const MARK = /^\p{M}/u;

/**
 * Where two names that look alike differ: the characters of each between what they share at the
 * start and at the end, a combining mark kept with the letter before it. Undefined when they are
 * equal, or differ only in ASCII, which shows on screen.
 */
export function lookalikeParts(a: string, b: string): readonly [string, string] | undefined {
  if (a === b) return undefined;
  const x = Array.from(a);
  const y = Array.from(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let end = 0;
  while (end < x.length - start && end < y.length - start && x[x.length - 1 - end] === y[y.length - 1 - end]) end++;
  while (start > 0 && (MARK.test(x[start] ?? '') || MARK.test(y[start] ?? ''))) start--;
  while (end > 0 && (MARK.test(x[x.length - end]!) || MARK.test(y[y.length - end]!))) end--;
  const parts = [x.slice(start, x.length - end).join(''), y.slice(start, y.length - end).join('')] as const;
  return /[^\u0000-\u007f]/.test(parts.join('')) ? parts : undefined;
}

/** `"é" (U+0065 U+0301)`: a part of a name, quoted, with its code points; "nothing" for none. */
export function spelledOut(part: string): string {
  return part === '' ? 'nothing' : `${quoted(part)} (${codePoints(part)})`;
}

/**
 * Where two paths that look alike differ, in words: the first names that differ, when they
 * look alike (`lookalikeParts`): `"é" (U+0065 U+0301) here, "é" (U+00E9) in the input`.
 */
export function lookalikeNote(asked: string, found: string): string | undefined {
  const ours = asked.split(/[\\/]/);
  const theirs = found.split(/[\\/]/);
  const at = ours.findIndex((name, i) => i < theirs.length && name !== theirs[i]);
  const parts = at === -1 ? undefined : lookalikeParts(ours[at]!, theirs[at]!);
  return parts && `${spelledOut(parts[1])} here, ${spelledOut(parts[0])} in the input`;
}
