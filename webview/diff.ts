/**
 * What a stage changed between its input and its output, as spans to mark in each. Paths are
 * aligned name by name first (names and separators are the tokens), so a resolved `..` or a link
 * hop is marked as the names it replaced rather than as letters that happen to match; a name
 * replaced by a similar one (an escape decoded, its case folded, its Unicode form changed) is
 * then compared code point by code point (a percent-escape counting as one), so only the
 * characters that changed are marked.
 *
 * Bounded: past MAX_DIFF_LENGTH code units on either side, or past MAX_EDITS edits in a Myers
 * run, only the common prefix and suffix are kept and everything between is marked. A display
 * aid only: it decides nothing.
 */
import { diffArrays } from 'diff';

export interface Segment {
  readonly text: string;
  /** In the input: removed by the stage. In the output: added by it. */
  readonly changed: boolean;
}

export interface StageChange {
  /** The input, in order: what the stage kept and what it removed. */
  readonly input: readonly Segment[];
  /** The output, in order: what the stage kept and what it added. */
  readonly output: readonly Segment[];
}

export const MAX_DIFF_LENGTH = 4096;
/** Myers costs O((N + M) · D); beyond this many edits the pair is too different to be worth aligning. */
export const MAX_EDITS = 256;

const SEPARATOR = /^[/\\]+$/;

interface Edit {
  readonly removed: string[];
  readonly added: string[];
}

type Op = { readonly equal: string[] } | Edit;

function isEdit(op: Op | undefined): op is Edit {
  return op !== undefined && 'removed' in op;
}

/** Names and separators, each separator its own token. */
function tokens(path: string): string[] {
  return path.split(/([/\\])/).filter((token) => token !== '');
}

/** One name (or separator) for one other: worth comparing character by character. */
function oneForOne(edit: Edit): boolean {
  return edit.removed.length === 1 && edit.added.length === 1;
}

/** `index` moved back off the low half of a surrogate pair, so no code point is split. */
function wholeAt(text: string, index: number): number {
  if (index > 0 && index < text.length) {
    const before = text.charCodeAt(index - 1);
    if (before >= 0xd800 && before <= 0xdbff) return index - 1;
  }
  return index;
}

function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return wholeAt(a, i);
}

function commonSuffix(a: string, b: string, prefix: number): number {
  const limit = Math.min(a.length, b.length) - prefix;
  let i = 0;
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  // A suffix starting on a low surrogate would split its pair: shrink it by one.
  while (i > 0 && !(wholeAt(a, a.length - i) === a.length - i && wholeAt(b, b.length - i) === b.length - i)) i--;
  return i;
}

class Builder {
  readonly input: Segment[] = [];
  readonly output: Segment[] = [];

  both(text: string): void {
    push(this.input, text, false);
    push(this.output, text, false);
  }

  change(removed: string, added: string): void {
    push(this.input, removed, true);
    push(this.output, added, true);
  }

  /** Everything between the common prefix and suffix marked. */
  around(removed: string, added: string): void {
    const prefix = commonPrefix(removed, added);
    const suffix = commonSuffix(removed, added, prefix);
    this.both(removed.slice(0, prefix));
    this.change(removed.slice(prefix, removed.length - suffix), added.slice(prefix, added.length - suffix));
    this.both(removed.slice(removed.length - suffix));
  }

  result(): StageChange {
    return { input: this.input, output: this.output };
  }
}

function push(segments: Segment[], text: string, changed: boolean): void {
  if (text === '') return;
  const last = segments[segments.length - 1];
  if (last?.changed === changed) segments[segments.length - 1] = { text: last.text + text, changed };
  else segments.push({ text, changed });
}

/** Code points, a percent-escape (RFC 3986 §2.1) counting as one: `%23` became `#`, not `3` became `#`. */
function characters(name: string): string[] {
  return name.match(/%[0-9A-Fa-f]{2}|[\s\S]/gu) ?? [];
}

const sameIgnoringCase = (a: string, b: string): boolean => a === b || a.toLowerCase() === b.toLowerCase();

/**
 * One name replaced by another: character by character when at least half of the shorter one
 * survives (ignoring case, so a folded name counts as kept), else the whole name.
 */
function compareNames(out: Builder, removed: string, added: string): void {
  const before = characters(removed);
  const after = characters(added);
  const shorter = Math.min(before.length, after.length);
  const loose = diffArrays(before, after, { comparator: sameIgnoringCase, maxEditLength: MAX_EDITS });
  const kept = loose?.reduce((sum, part) => (part.added || part.removed ? sum : sum + part.value.length), 0) ?? 0;
  if (shorter === 0 || kept * 2 < shorter) {
    out.change(removed, added);
    return;
  }
  const exact = diffArrays(before, after, { maxEditLength: MAX_EDITS });
  if (exact === undefined) {
    out.around(removed, added);
    return;
  }
  for (const part of exact) {
    const text = part.value.join('');
    if (part.removed) out.change(text, '');
    else if (part.added) out.change('', text);
    else out.both(text);
  }
}

/**
 * Separators kept between two edits are folded into them when either is more than one name for
 * one name: `a/../` became `/w/notes/` as a whole, not `a` removed, `..` became `w`, `notes/` added.
 */
function joinAcrossSeparators(ops: Op[]): Op[] {
  const joined: Op[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const previous = joined[joined.length - 1];
    const next = ops[i + 1];
    if (!isEdit(op) && isEdit(previous) && isEdit(next) && op.equal.every((token) => SEPARATOR.test(token))
      && !(oneForOne(previous) && oneForOne(next))) {
      joined[joined.length - 1] = {
        removed: [...previous.removed, ...op.equal, ...next.removed],
        added: [...previous.added, ...op.equal, ...next.added],
      };
      i++;
      continue;
    }
    joined.push(op);
  }
  return joined;
}

/** Names replaced by a different number of names: the whole run, less the tokens both sides start or end with. */
function changeRun(out: Builder, edit: Edit): void {
  const { removed, added } = edit;
  let start = 0;
  while (start < removed.length && start < added.length && removed[start] === added[start]) start++;
  let end = 0;
  while (end < removed.length - start && end < added.length - start && removed[removed.length - 1 - end] === added[added.length - 1 - end]) end++;
  out.both(removed.slice(0, start).join(''));
  out.change(removed.slice(start, removed.length - end).join(''), added.slice(start, added.length - end).join(''));
  out.both(removed.slice(removed.length - end).join(''));
}

/** The spans a stage changed: `input` → `output`. */
export function stageChange(input: string, output: string): StageChange {
  const out = new Builder();
  if (input === output) {
    out.both(input);
    return out.result();
  }
  if (input.length > MAX_DIFF_LENGTH || output.length > MAX_DIFF_LENGTH) {
    out.around(input, output);
    return out.result();
  }
  const aligned = diffArrays(tokens(input), tokens(output), { maxEditLength: MAX_EDITS });
  if (aligned === undefined) {
    out.around(input, output);
    return out.result();
  }
  const ops: Op[] = [];
  for (const part of aligned) {
    const last = ops[ops.length - 1];
    if (!part.added && !part.removed) ops.push({ equal: part.value });
    else if (isEdit(last)) (part.added ? last.added : last.removed).push(...part.value);
    else ops.push(part.added ? { removed: [], added: [...part.value] } : { removed: [...part.value], added: [] });
  }
  for (const op of joinAcrossSeparators(ops)) {
    if (!isEdit(op)) out.both(op.equal.join(''));
    else if (oneForOne(op)) compareNames(out, op.removed[0]!, op.added[0]!);
    else changeRun(out, op);
  }
  return out.result();
}
