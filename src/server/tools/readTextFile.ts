import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { errnoOf, fsError, type LineWindow } from '../fs/index.js';
import { readText, readWindow } from './changes.js';
import { formatBytes, jsonLength, MAX_ANSWER_BYTES, MAX_FILE_BYTES } from '../limits.js';
import { defineTool, ok, pathField, refused } from './tool.js';

/** The largest file read_text_file (and edit_file) reads whole; a window of lines may lie in a file of any size. */
export const MAX_TEXT_BYTES = MAX_FILE_BYTES;

/** Lines in a text: a final newline ends the last line rather than starting another. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = text.endsWith('\n') ? 0 : 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** Refuses text that would take more than one answer carries, JSON-encoded. */
export function fitsAnswer(text: string, display: string): void {
  // Six bytes a character is the most JSON can take: below that, no need to count.
  if (text.length * 6 <= MAX_ANSWER_BYTES) return;
  const bytes = jsonLength(text);
  if (bytes > MAX_ANSWER_BYTES) {
    throw fsError(
      'EFBIG',
      `${display}: the text asked for takes ${bytes} bytes in an answer, more than the ${formatBytes(MAX_ANSWER_BYTES)} one answer carries; read it in parts with offset and limit`,
    );
  }
}

const invalid = (message: string) => Object.assign(new Error(message), { code: 'EINVAL' });

/**
 * The window of lines a call asks for, if any. The reference server's head N and tail N, no
 * longer listed, are still taken: head N is limit N, tail N is offset -N.
 */
function windowOf(args: { offset?: number | undefined; limit?: number | undefined; lineNumbers?: boolean | undefined; head?: unknown; tail?: unknown }): LineWindow | undefined {
  const { head, tail } = args;
  if (head !== undefined || tail !== undefined) {
    const count = head ?? tail;
    if (head !== undefined && tail !== undefined) throw invalid('head and tail cannot both be given: use offset and limit');
    if (args.offset !== undefined || args.limit !== undefined) throw invalid('head and tail are offset and limit: give those alone');
    if (!Number.isSafeInteger(count) || (count as number) < 1) throw invalid(`${head !== undefined ? 'head' : 'tail'} must be a whole number of lines, 1 or more`);
    return head !== undefined ? { offset: 0, limit: count as number, numbered: args.lineNumbers === true } : { offset: -(count as number), limit: undefined, numbered: args.lineNumbers === true };
  }
  if (args.limit !== undefined && args.limit < 1) throw invalid('limit must be 1 or more');
  if (args.offset === undefined && args.limit === undefined) return undefined;
  return { offset: args.offset ?? 0, limit: args.limit, numbered: args.lineNumbers === true };
}

/** Each line after its number and a tab, as `cat -n` writes them. */
function numbered(text: string, first: number): string {
  if (text === '') return text;
  let line = first;
  return text.replace(/^/gm, () => `${line++}\t`);
}

export const readTextFile = defineTool({
  name: 'read_text_file',
  title: 'Read a text file',
  description:
    'Reads a text file; limit lines after offset (negative: from the end; tail N is offset -N).',
  input: {
    path: pathField,
    offset: z.number().int().optional(),
    limit: z.number().int().optional(),
    lineNumbers: z.boolean().optional(),
  },
  output: null,
  heavy: true,
  async run({ path, ...args }, scope) {
    const window = windowOf(args);
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const display = scope.relative(checked.path);
    if (window === undefined) {
      let read;
      try {
        read = readText(scope, checked, MAX_TEXT_BYTES);
      } catch (error) {
        if (errnoOf(error) !== 'EFBIG') throw error;
        throw fsError('EFBIG', `${quotedIfHidden(display)} is more than the ${formatBytes(MAX_TEXT_BYTES)} one read gives; read it in parts with offset and limit`);
      }
      if (!read.ok) return refused(read);
      const content = args.lineNumbers === true ? numbered(read.text, 1) : read.text;
      fitsAnswer(content, display);
      return ok({}, content);
    }
    const read = readWindow(scope, checked, window, MAX_TEXT_BYTES);
    if (!read.ok) return refused(read);
    if ('pastEnd' in read) {
      throw Object.assign(new Error(`${quotedIfHidden(display)} has ${read.pastEnd} lines: offset ${window.offset} is past its end`), { code: 'EINVAL' });
    }
    const content = window.numbered ? numbered(read.text, read.firstLine) : read.text;
    fitsAnswer(content, display);
    return ok({}, content);
  },
});
