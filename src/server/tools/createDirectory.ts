import { callOf } from '../callControl.js';
import { makeDirectories } from '../fs/index.js';
import * as z from 'zod';
import { defineTool, ok, pathField, refused } from '../tool.js';

export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create a folder',
  description:
    'Creates a folder inside the workspace, with any missing folders above it. A folder that already exists is left as it is (created: false), ' +
    'so the call can be repeated; a file or a link already at that name is an error (EEXIST), and a link there is never followed. ' +
    'Cancelled before it is made, nothing changes. Needs a read-write grant. A refused path comes back with its refusal code, stage and reason.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The real path of the folder.'),
    uri: z.string().describe('The file: URI of that path.'),
    created: z.boolean().describe('True when this call created it; false when it already existed.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'write',
  async run({ path }, scope) {
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const uri = scope.uriOf(checked.path);
    const kind = checked.trace.kind;
    if (kind === 'directory') return ok({ path: checked.path, uri, created: false }, `${scope.relative(checked.path)} already exists.`);
    if (kind === 'symlink') {
      throw Object.assign(new Error(`${checked.path} is a link; create_directory does not follow links. Use the link's target, or delete the link first.`), {
        code: 'EEXIST',
      });
    }
    if (kind === 'file' || kind === 'other') {
      throw Object.assign(new Error(`${checked.path} already exists and is not a folder`), { code: 'EEXIST' });
    }
    const refusal = scope.recheck(checked);
    if (refusal) return refused(refusal);
    // Each missing name is made through its anchored parent; a folder that appeared meanwhile is
    // opened instead (still idempotent), and a link that appeared stops the call.
    await callOf(scope).commitPoint();
    const created = makeDirectories(checked.target);
    return ok({ path: checked.path, uri, created }, `${created ? 'Created' : 'Already exists:'} ${scope.relative(checked.path)}.`);
  },
});
