import * as z from 'zod';
import { readFile } from '../anchored.js';
import { defineTool, ok } from '../tool.js';
import { MAX_TEXT_BYTES } from './readTextFile.js';

/** Each file may be up to MAX_TEXT_BYTES: the count bounds what one call can hold in memory. */
export const MAX_FILES_PER_CALL = 100;

interface FileResult {
  input: string;
  ok: boolean;
  path?: string;
  content?: string;
  code?: string;
  stage?: string;
  reason?: string;
  error?: string;
}

export const readMultipleFiles = defineTool({
  name: 'read_multiple_files',
  title: 'Read several text files',
  description:
    `Reads up to ${MAX_FILES_PER_CALL} files inside the workspace as UTF-8 text in one call. Each file is checked and read on its own: ` +
    'a refused or unreadable file is reported in its own entry (a refusal with its code, stage and reason; an error with its message) ' +
    'and does not stop the others. Each file is opened first and proven to be the checked file before a byte is read.',
  input: {
    paths: z
      .array(z.string())
      .min(1)
      .max(MAX_FILES_PER_CALL)
      .describe('The files: each relative to the workspace (src/index.ts), absolute, or a file:///... URI inside the workspace.'),
  },
  output: z.object({
    files: z
      .array(
        z.object({
          input: z.string().describe('The path as given.'),
          ok: z.boolean().describe('True when the file was read.'),
          path: z.string().optional().describe('The real path, when the path was not refused.'),
          content: z.string().optional().describe('The text, when the file was read.'),
          code: z
            .string()
            .optional()
            .describe('For a refusal, the stable refusal code (ERR_OUTSIDE...); for an error, its errno code (ENOENT...) when it has one.'),
          stage: z.string().optional().describe('For a refusal, the stage that refused.'),
          reason: z.string().optional().describe('For a refusal, why, in words.'),
          error: z.string().optional().describe('For an error that is not a refusal (missing file, too large...), its message.'),
        }),
      )
      .describe('One entry per input, in the order given.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ paths }, scope) {
    const files: FileResult[] = [];
    for (const input of paths) {
      const checked = scope.check(input);
      if (!checked.ok) {
        const { code, stage, reason } = checked.refusal;
        files.push({ input, ok: false, code, stage, reason });
        continue;
      }
      try {
        const content = readFile(scope.anchor, checked.path, MAX_TEXT_BYTES).bytes.toString('utf8');
        files.push({ input, ok: true, path: checked.path, content });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const message = error instanceof Error ? error.message : String(error);
        files.push({ input, ok: false, path: checked.path, ...(typeof code === 'string' ? { code } : {}), error: message });
      }
    }
    const sections = files.map((file) => {
      if (file.ok) return `${file.input}:\n${file.content}`;
      if (file.error !== undefined) return `${file.input}: Error${file.code ? ` (${file.code})` : ''}: ${file.error}`;
      return `${file.input}: Refused (${file.code} at ${file.stage}): ${file.reason}`;
    });
    return ok({ files }, sections.join('\n---\n'));
  },
});
