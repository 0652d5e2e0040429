import { quotedIfHidden } from '../../core/index.js';
import { makeDirectories } from '../fs/index.js';
import * as z from 'zod';
import { defineTool, ok, pathField, refused } from './tool.js';

export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create a folder',
  description:
    'Creates a folder and any missing parents; an existing folder is fine.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The folder, relative to the workspace.'),
    created: z.boolean().describe('True when this call created it; false when it already existed.'),
  }),
  heavy: false,
  hints: { destructive: false, idempotent: true },
  async run({ path: input }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    const path = scope.relative(checked.path);
    const kind = checked.trace.kind;
    if (kind === 'directory') return ok({ path, created: false }, `${quotedIfHidden(path)} already exists.`);
    if (kind === 'symlink') {
      throw Object.assign(new Error(`${checked.path} is a link; create_directory does not follow links. Use the link's target, or delete the link first.`), {
        code: 'EEXIST',
      });
    }
    if (kind === 'file' || kind === 'other') {
      throw Object.assign(new Error(`${checked.path} already exists and is not a folder`), { code: 'EEXIST' });
    }
    // Each missing name is made through its anchored parent; a folder that appeared meanwhile is
    // opened instead (still idempotent), and a link that appeared stops the call.
    await scope.call.commitPoint();
    const created = makeDirectories(checked.target);
    return ok({ path, created }, `${created ? 'Created' : 'Already exists:'} ${quotedIfHidden(path)}.`);
  },
});
