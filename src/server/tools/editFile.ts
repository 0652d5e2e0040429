import { formatPatch, structuredPatch } from 'diff';
import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { contentBase, fsError, readFile, settleTemporaries, writeFile } from '../fs/index.js';
import {
  formatBytes,
  jsonLength,
  MAX_DIFF_BYTES,
  MAX_DIFF_CHANGES,
  MAX_DIFF_INPUT_CHARS,
  MAX_DIFF_MILLISECONDS,
  MAX_EDIT_WORK,
  MAX_EDITS,
  MAX_FILE_BYTES,
} from '../limits.js';
import { defineTool, ok, pathField, refused } from './tool.js';
import { changedSinceRead, fileChanged, notText } from './changes.js';
import { decodeText } from '../text.js';
import { countLines, MAX_TEXT_BYTES } from './readTextFile.js';

/** Times the edits are applied again to another program's save before the call gives up. */
const MAX_EDIT_ROUNDS = 3;

/** Occurrences counted before saying "more": enough to tell the agent how ambiguous oldText is. */
const MAX_COUNTED = 10;

/** Where `needle` starts, and how many times it occurs (overlapping ones included: "aa" in "aaa" is ambiguous), up to MAX_COUNTED. */
function occurrences(haystack: string, needle: string): { first: number; count: number } {
  const first = haystack.indexOf(needle);
  let count = first === -1 ? 0 : 1;
  for (let at = first; at !== -1 && count < MAX_COUNTED; ) {
    at = haystack.indexOf(needle, at + 1);
    if (at !== -1) count += 1;
  }
  return { first, count };
}

/**
 * Applies the edits in order, each to the text the previous ones left. Each oldText must occur
 * exactly once: replacing the first of several would be a guess. Replaced by slicing, not
 * String.replace, so `$&` and the like in newText stay literal. Each edit searches the whole
 * text, so the characters searched in all are bounded (MAX_EDIT_WORK), and so is the result.
 */
export function applyEdits(original: string, edits: readonly { readonly oldText: string; readonly newText: string }[], name: string): string {
  let text = original;
  let searched = 0;
  edits.forEach(({ oldText, newText }, index) => {
    const which = `edit ${index + 1} of ${edits.length}`;
    const earlier = index > 0 ? ' (after the earlier edits were applied)' : '';
    searched += text.length;
    if (searched > MAX_EDIT_WORK) {
      throw new Error(
        `${which}: these edits search more text than one call may (each edit searches the whole file, ${text.length} characters here; ` +
          `${MAX_EDIT_WORK.toLocaleString('en-US')} characters in all). Send fewer edits per call.`,
      );
    }
    const { first, count } = occurrences(text, oldText);
    if (count === 0) {
      const crlf = text.includes('\r\n') && /(^|[^\r])\n/.test(oldText)
        ? ' The file has CRLF line endings and oldText has bare LF: copy the line endings as they are.'
        : '';
      throw new Error(
        `${which}: oldText was not found in ${name}${earlier}. It must match exactly, whitespace, indentation and line endings included; ` +
          `read the file again and copy the text from it.${crlf}`,
      );
    }
    if (count > 1) {
      throw new Error(
        `${which}: oldText was found ${count >= MAX_COUNTED ? `${MAX_COUNTED} or more` : count} times in ${name}${earlier}; it must occur exactly once. ` +
          'Include more of the surrounding lines so it is unique, or make one edit per occurrence.',
      );
    }
    text = text.slice(0, first) + newText + text.slice(first + oldText.length);
  });
  return text;
}

const CONTEXT_LINES = 4;

/**
 * The part of two texts that differs, widened to whole lines and CONTEXT_LINES lines on each
 * side: the common beginning and end are set aside before any line is compared, so a small
 * change in a large file costs a scan, not a diff of the whole file.
 */
function changedPart(a: string, b: string): { start: number; endA: number; endB: number; linesBefore: number } {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix += 1;
  let start = prefix === 0 ? 0 : a.lastIndexOf('\n', prefix - 1) + 1;
  for (let line = 0; line < CONTEXT_LINES && start > 0; line += 1) start = start >= 2 ? a.lastIndexOf('\n', start - 2) + 1 : 0;
  // The end is cut after a newline inside the common end, where both texts have it.
  let endA = a.indexOf('\n', a.length - suffix);
  endA = endA === -1 ? a.length : endA + 1;
  for (let line = 0; line < CONTEXT_LINES && endA < a.length; line += 1) {
    const newline = a.indexOf('\n', endA);
    endA = newline === -1 ? a.length : newline + 1;
  }
  let linesBefore = 0;
  for (let at = a.indexOf('\n'); at !== -1 && at < start; at = a.indexOf('\n', at + 1)) linesBefore += 1;
  return { start, endA, endB: b.length - (a.length - endA), linesBefore };
}

type Diff = { readonly shown: true; readonly text: string; readonly added: number; readonly removed: number } | { readonly shown: false; readonly why: string };

/** A unified diff of the change, or why there is none: too large a changed part, too many changed lines, or too long a diff. */
export function boundedDiff(name: string, original: string, updated: string): Diff {
  const part = changedPart(original, updated);
  const sizeA = part.endA - part.start;
  const sizeB = part.endB - part.start;
  if (sizeA > MAX_DIFF_INPUT_CHARS || sizeB > MAX_DIFF_INPUT_CHARS) {
    return { shown: false, why: `the changed part is ${Math.max(sizeA, sizeB)} characters long, more than the ${formatBytes(MAX_DIFF_INPUT_CHARS)} a diff compares` };
  }
  const patch = structuredPatch(
    name,
    name,
    original.slice(part.start, part.endA),
    updated.slice(part.start, part.endB),
    'original',
    'modified',
    { context: CONTEXT_LINES, maxEditLength: MAX_DIFF_CHANGES, timeout: MAX_DIFF_MILLISECONDS },
  );
  if (patch === undefined) {
    return { shown: false, why: `more than ${MAX_DIFF_CHANGES} lines changed, or the comparison took more than ${MAX_DIFF_MILLISECONDS} ms` };
  }
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    hunk.oldStart += part.linesBefore;
    hunk.newStart += part.linesBefore;
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  const text = formatPatch(patch);
  if (jsonLength(text) > MAX_DIFF_BYTES) return { shown: false, why: `the diff takes ${jsonLength(text)} bytes, more than the ${formatBytes(MAX_DIFF_BYTES)} shown` };
  return { shown: true, text, added, removed };
}

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit a text file',
  description:
    'Replaces exact text in a file (each oldText must occur once) and returns the diff; dryRun only shows it. ' +
    'Refused if the file changed since you read it.',
  input: {
    path: pathField,
    edits: z
      .array(
        z.object({
          oldText: z.string().min(1),
          newText: z.string(),
        }),
      )
      .min(1)
      .max(MAX_EDITS),
    dryRun: z.boolean().optional(),
  },
  output: z.object({
    path: z.string().describe('The file, relative to the workspace.'),
    applied: z.boolean().describe('True when the file was written; false for a dry run or when the edits change nothing.'),
    diffShown: z.boolean().describe('True when the text holds the unified diff; false when the change was too large to diff, and the text says why.'),
    linesAdded: z.number().optional().describe('Lines the diff adds, when it was shown.'),
    linesRemoved: z.number().optional().describe('Lines the diff removes, when it was shown.'),
    size: z.number().describe('The size of the edited text in bytes.'),
    lines: z.number().describe('How many lines the edited text has.'),
  }),
  heavy: true,
  hints: { destructive: true, idempotent: false },
  async run({ path, edits, dryRun }, scope) {
    // Followed: a link to a file inside the workspace edits that file; checked.path is the real file.
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    await settleTemporaries(checked.target);
    let { bytes, stats } = readFile(checked.target, MAX_TEXT_BYTES);
    const since = changedSinceRead(scope, checked, { kind: 'present', stats });
    if (since) return refused(since);
    const name = quotedIfHidden(scope.relative(checked.path));
    // Another program's save landing meanwhile is kept: the edits are applied again to what it saved.
    for (let round = 0; ; round += 1) {
      // Never through U+FFFD: a binary file edited as text would be written back with its bytes replaced.
      const decoded = decodeText(bytes);
      if ('notText' in decoded) return refused(notText(scope, checked, decoded.notText));
      const original = decoded.text;
      let updated: string;
      try {
        updated = applyEdits(original, edits, name);
      } catch (error) {
        if (round === 0) throw error;
        return refused(fileChanged(scope, checked, `saved by another program meanwhile, and the edits no longer apply to it: ${(error as Error).message}`));
      }
      const size = Buffer.byteLength(updated);
      if (size > MAX_FILE_BYTES) {
        throw fsError('EFBIG', `${name} would be ${size} bytes after these edits, more than the ${formatBytes(MAX_FILE_BYTES)} edit_file writes`);
      }
      const diff = boundedDiff(name, original, updated);
      const described = {
        path: scope.relative(checked.path),
        diffShown: diff.shown,
        ...(diff.shown ? { linesAdded: diff.added, linesRemoved: diff.removed } : {}),
        size,
        lines: countLines(updated),
      };
      const shown = diff.shown
        ? diff.text
        : `The diff is not shown: ${diff.why}. The file has ${countLines(original)} lines before and ${described.lines} after; read it to see the result.`;
      const again = round > 0 ? ` ${name} was saved by another program while it was being edited; the edits were applied to that version.` : '';
      if (dryRun || updated === original) {
        return ok({ ...described, applied: false }, `${dryRun ? 'Dry run, nothing written' : 'The edits change nothing; nothing written'}.${again}\n${shown}`);
      }
      // From here to the commit nothing waits, so a cancel not heard now comes after the change.
      if (round === 0) await scope.call.commitPoint();
      const written = await writeFile(checked.target, updated, { base: contentBase(stats, bytes) });
      if (written.kind === 'written') {
        scope.state.reads.remember(checked.path, written.stats);
        return ok({ ...described, applied: true }, `Edited ${name}.${again}\n${shown}`);
      }
      if (round + 1 >= MAX_EDIT_ROUNDS) return refused(fileChanged(scope, checked, `${written.why}, ${MAX_EDIT_ROUNDS} times in a row`));
      ({ bytes, stats } = readFile(checked.target, MAX_TEXT_BYTES));
    }
  },
});
