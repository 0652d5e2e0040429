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
const BIDI_CONTROL = /\p{Bidi_Control}/u;

/** A name (the text between separators and spaces) longer than this, in characters, is shortened when asked. */
export const LONG_NAME = 100;
/** What a shortened name keeps of its start and of its end. */
const KEPT = 40;

/** A piece of shown text and the text it stands for: the same, an escaped character, or the middle of a long name. */
export interface ShownPart {
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
    if (match.index > at) parts.push({ shown: text.slice(at, match.index), real: text.slice(at, match.index) });
    parts.push({ shown: escaped(match[0]), real: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ shown: text.slice(at), real: text.slice(at) });
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
    parts.push({ shown: `…(${left.toLocaleString('en-US')} characters)…`, real: chars.slice(KEPT, -KEPT).join('') });
    escapedParts(chars.slice(-KEPT).join(''), parts);
  }
  return parts;
}

/** The one escaping every view applies to text from the disk or the input (see above); `shorten` for tables and lists. */
export function visible(text: string, options: { readonly shorten?: boolean } = {}): string {
  return shownParts(text, options)
    .map((part) => part.shown)
    .join('');
}

/** `text` as a JSON string whose hidden characters are escaped too: a name quoted in a reason, exact and safe to show. */
export function quoted(text: string): string {
  return visible(JSON.stringify(text));
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
