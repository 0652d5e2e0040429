import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { baseOf, writeFile as writeAnchored } from '../fs/index.js';
import { defineTool, ok, pathField, refused } from './tool.js';
import { changedSinceRead, fileChanged } from './changes.js';

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write a file',
  description:
    'Creates or replaces a file with the given text. Refused if the file changed since you read it.',
  input: {
    path: pathField,
    content: z.string(),
  },
  output: z.object({
    path: z.string().describe('The file written, relative to the workspace.'),
    bytes: z.number().describe('How many bytes were written.'),
    created: z.boolean().describe('True when the file did not exist before.'),
  }),
  heavy: false,
  hints: { destructive: true, idempotent: true },
  async run({ path, content }, scope) {
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    // Only the file seen now is replaced: a save made before the commit is kept, and this write refused.
    const base = await baseOf(checked.target);
    const since = changedSinceRead(scope, checked, base);
    if (since) return refused(since);
    // From here to the commit nothing waits, so a cancel not heard now comes after the change.
    await scope.call.commitPoint();
    const written = await writeAnchored(checked.target, content, { base });
    if (written.kind === 'changed') return refused(fileChanged(scope, checked, written.why));
    scope.state.reads.remember(checked.path, written.stats);
    const bytes = Buffer.byteLength(content);
    return ok(
      { path: scope.relative(checked.path), bytes, created: written.created },
      `${written.created ? 'Created' : 'Replaced'} ${quotedIfHidden(scope.relative(checked.path))} (${bytes} bytes).`,
    );
  },
});
