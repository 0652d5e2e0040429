import * as z from 'zod';
import { readRemembered } from './changes.js';
import { callOf } from '../callControl.js';
import { AnswerBudget, formatBytes, jsonLength, MAX_ANSWER_BYTES } from '../limits.js';
import { defineTool, ok, type Scope } from '../tool.js';

export const MAX_FILES_PER_CALL = 100;
/** A path longer than any filesystem here takes is not a path: it only makes the answer that echoes it larger. */
export const MAX_PATH_CHARS = 4096;


/** What an entry costs in the answer besides the file's text: its section header. */
function entryBytes(input: string, path: string | undefined): number {
  return 2 * jsonLength(input) + (path === undefined ? 0 : jsonLength(path)) + 160;
}

export const readMultipleFiles = defineTool({
  name: 'read_multiple_files',
  title: 'Read several text files',
  description:
    `Reads up to ${MAX_FILES_PER_CALL} files inside the workspace as UTF-8 text in one call; the text of the result holds each file's content ` +
    'under its path (the text is the whole answer: no structured result repeats it). ' +
    'Each file is checked and read on its own: a refused or unreadable file is reported in its own entry (a refusal with its code, stage and reason; ' +
    'an error with its message) and does not stop the others. ' +
    `The contents share one answer of at most ${formatBytes(MAX_ANSWER_BYTES)} (JSON-encoded): a file that does not fit in what is left is reported with code EFBIG and not read; ` +
    'read it on its own with read_text_file (head and tail for a large file). Each file is opened first and proven to be the checked file before a byte is read.',
  input: {
    paths: z
      .array(z.string().max(MAX_PATH_CHARS))
      .min(1)
      .max(MAX_FILES_PER_CALL)
      .describe('The files: each relative to the workspace (src/index.ts), absolute, or a file:///... URI inside the workspace.'),
  },
  output: null,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ paths }, scope) {
    const sections: string[] = [];
    const budget = new AnswerBudget();
    const call = callOf(scope);
    for (const [i, input] of paths.entries()) {
      // Between files: a cancellation is heard, and stops the reading.
      if (i > 0) await call.turn();
      sections.push(readSection(input, scope, budget));
      call.progress(i + 1, paths.length, `${i + 1} of ${paths.length} files read`, i + 1 === paths.length);
    }
    return ok({}, sections.join('\n---\n'));
  },
});

/** One file's section of the answer: its text, or why it is not there. */
function readSection(input: string, scope: Scope, budget: AnswerBudget): string {
  const checked = scope.check(input);
  if (!checked.ok) {
    const { code, stage, reason } = checked.refusal;
    budget.take(entryBytes(input, undefined) + 2 * jsonLength(reason));
    return `${input}: Refused (${code} at ${stage}): ${reason}`;
  }
  const fail = (code: string | undefined, error: string) => {
    budget.take(entryBytes(input, checked.path) + 2 * jsonLength(error));
    return `${input}: Error${code ? ` (${code})` : ''}: ${error}`;
  };
  // Never read more than what is left: a file too large for the answer costs one fstat.
  const room = Math.max(0, budget.left - entryBytes(input, checked.path));
  let content: string;
  try {
    const bytes = readRemembered(scope, checked, room);
    content = bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EFBIG') {
      return fail('EFBIG', `not read: it does not fit in the ${room} bytes left of this answer's ${formatBytes(MAX_ANSWER_BYTES)}; read it on its own with read_text_file (head and tail for a large file)`);
    }
    return fail(typeof code === 'string' ? code : undefined, error instanceof Error ? error.message : String(error));
  }
  // Escapes can make the encoded text larger than the bytes read.
  const cost = jsonLength(content) + entryBytes(input, checked.path);
  if (!budget.take(cost)) {
    return fail('EFBIG', `not read: its text takes ${cost} bytes in an answer, more than the ${budget.left} left of this answer's ${formatBytes(MAX_ANSWER_BYTES)}; read it on its own with read_text_file`);
  }
  return `${input}:\n${content}`;
}
