import { quotedIfHidden } from '../../core/index.js';
import { remove, notThere } from '../fs/index.js';
import * as z from 'zod';
import { defineTool, ok, pathField, refused } from './tool.js';

export const deletePath = defineTool({
  name: 'delete_path',
  title: 'Delete a file or folder',
  description:
    'Deletes a file, link or folder; a folder with anything in it needs recursive.',
  input: {
    path: pathField,
    recursive: z.boolean().optional(),
  },
  output: z.object({
    path: z.string().describe('What was deleted, relative to the workspace.'),
    kind: z.enum(['file', 'directory', 'symlink', 'other']).describe('What was deleted.'),
  }),
  heavy: false,
  hints: { destructive: true, idempotent: false },
  async run({ path, recursive }, scope) {
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const kind = checked.trace.kind;
    if (kind === 'missing' || kind === null) throw notThere(checked.path);
    if (scope.isWorkspaceRoot(checked.path)) throw new Error('delete_path never deletes the workspace folder itself');
    // A folder's contents are removed through descriptors of each folder; links inside are removed as links.
    await scope.call.commitPoint();
    remove(checked.target, kind, recursive === true);
    scope.state.reads.forget(checked.path);
    return ok({ path: scope.relative(checked.path), kind }, `Deleted ${kind} ${quotedIfHidden(scope.relative(checked.path))}.`);
  },
});
