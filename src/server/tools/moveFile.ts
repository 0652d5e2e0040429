import path from 'node:path';
import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { destinationExists, move, notThere } from '../fs/index.js';
import { defineTool, ok, refused, type CheckOptions } from './tool.js';

/** The destination is a new name: a link there is not followed, and it must not exist, so nothing is replaced. */
const DESTINATION: CheckOptions = { followFinal: false, replaces: false };

export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move or rename a file or folder',
  description:
    'Moves or renames a file or folder. Never overwrites.',
  input: {
    source: z
      .string()
      ,
    destination: z
      .string()
      ,
  },
  output: z.object({
    source: z.string().describe('What was moved, relative to the workspace.'),
    destination: z.string().describe('Where it is now, relative to the workspace.'),
  }),
  heavy: false,
  hints: { destructive: false, idempotent: false },
  async run({ source, destination }, scope) {
    // The source as OPERATIONS.move_file judges it: a link there is the thing moved.
    const from = scope.check(source);
    if (!from.ok) return refused(from);
    const to = scope.check(destination, DESTINATION);
    if (!to.ok) return refused(to);

    const kind = from.trace.kind;
    if (kind === 'missing' || kind === null) throw notThere(from.path);
    if (scope.isWorkspaceRoot(from.path)) throw new Error('move_file never moves the workspace folder itself');
    if (to.trace.kind !== 'missing' && to.trace.kind !== null) throw destinationExists(to.path);
    if (kind === 'directory' && (to.path + path.sep).startsWith(from.path + path.sep)) {
      throw Object.assign(new Error(`cannot move the folder ${from.path} into itself (${to.path})`), { code: 'EINVAL' });
    }

    await scope.call.commitPoint();
    move(from.target, to.target, kind);
    scope.state.reads.forget(from.path);
    return ok(
      { source: scope.relative(from.path), destination: scope.relative(to.path) },
      `Moved ${quotedIfHidden(scope.relative(from.path))} to ${quotedIfHidden(scope.relative(to.path))}.`,
    );
  },
});
