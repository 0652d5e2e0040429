import { callOf } from '../callControl.js';
import { remove } from '../fs/index.js';
import * as z from 'zod';
import { defineTool, ok, pathField, refused } from '../tool.js';

export const deletePath = defineTool({
  name: 'delete_path',
  title: 'Delete a file or folder',
  description:
    'Deletes a file, a link or a folder inside the workspace. A link is removed itself, never its target. ' +
    'A folder that is not empty needs `recursive: true`. The workspace folder itself is never deleted. Cancelled before the deletion, nothing changes. Needs a read-write grant.',
  input: {
    path: pathField,
    recursive: z.boolean().optional().describe('Delete a folder with everything in it. Without it, only an empty folder is deleted.'),
  },
  output: z.object({
    path: z.string().describe('The real path deleted.'),
    kind: z.enum(['file', 'directory', 'symlink', 'other']).describe('What was deleted.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: 'write',
  async run({ path, recursive }, scope) {
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const kind = checked.trace.kind;
    if (kind === 'missing' || kind === null) throw Object.assign(new Error(`${checked.path} does not exist`), { code: 'ENOENT' });
    if (scope.isWorkspaceRoot(checked.path)) throw new Error('delete_path never deletes the workspace folder itself');
    const refusal = scope.recheck(checked);
    if (refusal) return refused(refusal);
    // A folder's contents are removed through descriptors of each folder; links inside are removed as links.
    await callOf(scope).commitPoint();
    remove(checked.target, kind, recursive === true);
    scope.state.reads.forget(checked.path);
    return ok({ path: checked.path, kind }, `Deleted ${kind} ${scope.relative(checked.path)}.`);
  },
});
