import * as z from 'zod';
import { readFile } from '../anchored.js';
import { defineTool, ok, pathField, refused } from '../tool.js';

export const MAX_TEXT_BYTES = 16 * 1024 * 1024;

export function selectLines(text: string, head: number | undefined, tail: number | undefined): string {
  if (head === undefined && tail === undefined) return text;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const selected = head !== undefined ? lines.slice(0, head) : lines.slice(Math.max(0, lines.length - tail!));
  return selected.join('\n');
}

export const readTextFile = defineTool({
  name: 'read_text_file',
  title: 'Read a text file',
  description:
    'Reads a file inside the workspace as UTF-8 text. `head` returns only the first N lines, `tail` only the last N. ' +
    'The file is opened through the checked folders, never following a link swapped in since the check.',
  input: {
    path: pathField,
    head: z.number().int().positive().optional().describe('Return only the first N lines.'),
    tail: z.number().int().positive().optional().describe('Return only the last N lines.'),
  },
  output: z.object({
    path: z.string().describe('The real path that was read.'),
    uri: z.string().describe('The file: URI of that path.'),
    content: z.string().describe('The text (the selected lines when head or tail is given).'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path, head, tail }, scope) {
    if (head !== undefined && tail !== undefined) throw new Error('give head or tail, not both');
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const text = readFile(scope.anchor, checked.path, MAX_TEXT_BYTES).bytes.toString('utf8');
    const content = selectLines(text, head, tail);
    return ok({ path: checked.path, uri: scope.uriOf(checked.path), content }, content);
  },
});
