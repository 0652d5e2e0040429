import * as z from 'zod';
import { fsError } from '../fs/index.js';
import { readText } from './changes.js';
import { formatBytes, jsonLength, MAX_ANSWER_BYTES, MAX_FILE_BYTES } from '../limits.js';
import { defineTool, ok, pathField, refused } from './tool.js';

/** The largest file read_text_file (and edit_file) reads; head and tail select from it. */
export const MAX_TEXT_BYTES = MAX_FILE_BYTES;

/** Lines in a text: a final newline ends the last line rather than starting another. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = text.endsWith('\n') ? 0 : 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** The first `head` or last `tail` lines, without splitting the whole text into an array of lines. */
export function selectLines(text: string, head: number | undefined, tail: number | undefined): string {
  if (head === undefined && tail === undefined) return text;
  const end = text.endsWith('\n') ? text.length - 1 : text.length;
  if (head !== undefined) {
    let at = -1;
    for (let line = 0; line < head; line += 1) {
      at = text.indexOf('\n', at + 1);
      if (at === -1 || at >= end) return text.slice(0, end);
    }
    return text.slice(0, at);
  }
  let from = 0;
  let at = end;
  for (let line = 0; line < tail!; line += 1) {
    const newline = at > 0 ? text.lastIndexOf('\n', at - 1) : -1;
    if (newline === -1) {
      from = 0;
      break;
    }
    from = newline + 1;
    at = newline;
  }
  return text.slice(from, end);
}

/** Refuses text that would take more than one answer carries, JSON-encoded. */
export function fitsAnswer(text: string, display: string): void {
  // Six bytes a character is the most JSON can take: below that, no need to count.
  if (text.length * 6 <= MAX_ANSWER_BYTES) return;
  const bytes = jsonLength(text);
  if (bytes > MAX_ANSWER_BYTES) {
    throw fsError(
      'EFBIG',
      `${display}: the text asked for takes ${bytes} bytes in an answer, more than the ${formatBytes(MAX_ANSWER_BYTES)} one answer carries; read it in parts with head and tail`,
    );
  }
}

export const readTextFile = defineTool({
  name: 'read_text_file',
  title: 'Read a text file',
  description:
    'Reads a text file (UTF-8). head or tail: only the first or last N lines.',
  input: {
    path: pathField,
    head: z.number().int().positive().optional(),
    tail: z.number().int().positive().optional(),
  },
  output: null,
  heavy: true,
  async run({ path, head, tail }, scope) {
    if (head !== undefined && tail !== undefined) throw new Error('give head or tail, not both');
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const read = readText(scope, checked, MAX_TEXT_BYTES);
    if (!read.ok) return refused(read);
    const content = selectLines(read.text, head, tail);
    fitsAnswer(content, scope.relative(checked.path));
    return ok({}, content);
  },
});
