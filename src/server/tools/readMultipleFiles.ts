import * as z from 'zod';
import { quotedIfHidden, visible } from '../../core/index.js';
import { readText } from './changes.js';
import { ANSWER_BUDGET_BYTES, AnswerBudget, jsonLength } from '../limits.js';
import { defineTool, ok, type Scope } from './tool.js';

export const MAX_FILES_PER_CALL = 100;
/** A path longer than any filesystem here takes is not a path: it only makes the answer that echoes it larger. */
export const MAX_PATH_CHARS = 4096;

/** What an entry costs in the answer besides the file's text: its section header and separator. */
function entryBytes(input: string): number {
  return jsonLength(input) + 16;
}

export const readMultipleFiles = defineTool({
  name: 'read_multiple_files',
  title: 'Read several text files',
  description:
    'Reads several text files at once; one that fails does not stop the others.',
  input: {
    paths: z.array(z.string().max(MAX_PATH_CHARS)).min(1).max(MAX_FILES_PER_CALL),
  },
  output: null,
  heavy: true,
  async run({ paths }, scope) {
    const sections: string[] = [];
    const budget = new AnswerBudget(ANSWER_BUDGET_BYTES);
    const call = scope.call;
    for (const [i, input] of paths.entries()) {
      // Between files: a cancellation is heard, and stops the reading.
      if (i > 0) await call.turn();
      const section = readSection(input, scope, budget);
      if (section === undefined) {
        // The continuation is the files not read, in order, as the next call's paths.
        const rest = paths.slice(i);
        sections.push(`(${rest.length} not read, past this answer's ${ANSWER_BUDGET_BYTES} bytes: call again with paths ${JSON.stringify(rest)})`);
        break;
      }
      sections.push(section);
      call.progress(i + 1, paths.length, `${i + 1} of ${paths.length} files read`, i + 1 === paths.length);
    }
    return ok({}, sections.join('\n---\n'));
  },
});

/** One file's section of the answer: its text, or why it is not there; undefined when it is left for the next call. */
function readSection(input: string, scope: Scope, budget: AnswerBudget): string | undefined {
  const checked = scope.check(input);
  const refusedSection = ({ code, stage, reason }: { code: string; stage: string; reason: string }) => {
    budget.take(entryBytes(input) + jsonLength(reason));
    return `${quotedIfHidden(input)}: Refused (${code} at ${stage}): ${reason}`;
  };
  if (!checked.ok) return refusedSection(checked.refusal);
  const fail = (code: string | undefined, error: string) => {
    budget.take(entryBytes(input) + jsonLength(error));
    return `${quotedIfHidden(input)}: Error${code ? ` (${code})` : ''}: ${visible(error)}`;
  };
  // Never read more than what is left: a file too large for the answer costs one fstat.
  const header = entryBytes(input);
  const room = Math.max(0, budget.left - header);
  // What an answer with nothing in it yet has room for: a file larger than that is never read here.
  const whole = budget.limit - header;
  const tooLarge = `not read: larger than one answer of this tool (${budget.limit} bytes); read it with read_text_file (offset and limit for a large file)`;
  let content: string;
  try {
    const read = readText(scope, checked, room);
    if (!read.ok) return refusedSection(read.refusal);
    content = read.text;
  } catch (caught) {
    const error = scope.notFound(caught);
    const code = (error as NodeJS.ErrnoException).code;
    // Past what is left but not past a whole answer, it goes to the next call.
    if (code === 'EFBIG') return room < whole && ((error as { size?: number }).size ?? 0) <= whole ? undefined : fail('EFBIG', tooLarge);
    return fail(typeof code === 'string' ? code : undefined, error instanceof Error ? error.message : String(error));
  }
  // Escapes can make the encoded text larger than the bytes read.
  const cost = jsonLength(content) + header;
  if (!budget.take(cost)) return cost - header <= whole && budget.spent > 0 ? undefined : fail('EFBIG', tooLarge);
  return `${quotedIfHidden(input)}:\n${content}`;
}
