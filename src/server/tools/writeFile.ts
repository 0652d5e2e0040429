import * as z from 'zod';
import { writeFile as writeAnchored } from '../anchored.js';
import { defineTool, ok, pathField, refused } from '../tool.js';

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write a file',
  description:
    'Creates a file, or replaces one, inside the workspace with the given text. The folder must exist. ' +
    'The text is written to a temporary file beside the target and renamed into place, so a failure never leaves half a file; ' +
    'a link at the target is replaced, never followed. Needs a read-write grant.',
  input: {
    path: pathField,
    content: z.string().describe('The complete new text of the file, written as UTF-8.'),
  },
  output: z.object({
    path: z.string().describe('The real path written.'),
    uri: z.string().describe('The file: URI of that path.'),
    bytes: z.number().describe('How many bytes were written.'),
    created: z.boolean().describe('True when the file did not exist before.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: 'write',
  async run({ path, content }, scope) {
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const { created, refusal } = writeAnchored(scope.anchor, checked.path, content, () => scope.recheck(checked));
    if (refusal) return refused(refusal);
    const bytes = Buffer.byteLength(content);
    return ok(
      { path: checked.path, uri: scope.uriOf(checked.path), bytes, created },
      `${created ? 'Created' : 'Replaced'} ${scope.relative(checked.path)} (${bytes} bytes).`,
    );
  },
});
