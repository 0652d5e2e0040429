import { promises as fsp } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { ChangedError, identityOf, sameIdentity, entryTypeOf } from '../files.js';
import { defineTool, ok, refused } from '../tool.js';

/** link(2) cannot make this name here (another filesystem, no hard links, a protected file): rename instead. */
const LINK_UNSUPPORTED = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function destinationExists(destination: string): Error {
  return Object.assign(
    new Error(`${destination} already exists; move_file never overwrites. Delete it first (delete_path) or choose another name.`),
    { code: 'EEXIST' },
  );
}

async function lstatOrUndefined(target: string) {
  return fsp.lstat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** rename(2) replaces what is at the destination, so absence is confirmed first (a narrow window remains). */
async function renameIfAbsent(source: string, destination: string): Promise<void> {
  if (await lstatOrUndefined(destination)) throw destinationExists(destination);
  await fsp.rename(source, destination);
}

export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move or rename a file or folder',
  description:
    'Moves or renames a file, folder or link within the workspace. The destination must not exist (move_file never overwrites: EEXIST) ' +
    'and its folder must exist. A link is moved as the link itself, never followed. The workspace folder itself is never moved, ' +
    'and nothing is copied between filesystems. Needs a read-write grant. A refused source or destination comes back with its refusal code, stage and reason.',
  input: {
    source: z
      .string()
      .describe('What to move: relative to the workspace (src/old.ts), absolute, or a file:///... URI inside the workspace. A link is moved itself.'),
    destination: z
      .string()
      .describe('Its new path, in the same workspace and in the same forms; it must not exist yet, and its folder must.'),
  },
  output: z.object({
    source: z.string().describe('The real path that was moved.'),
    destination: z.string().describe('The real path it now has.'),
    uri: z.string().describe('The file: URI of the destination.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: 'write',
  async run({ source, destination }, scope) {
    // Neither end is followed: a link is the thing moved, and a link at the destination is not a way out.
    const from = scope.check(source, { followFinal: false });
    if (!from.ok) return refused(from);
    const to = scope.check(destination, { followFinal: false });
    if (!to.ok) return refused(to);

    if (from.trace.kind === 'missing') throw Object.assign(new Error(`${from.path} does not exist`), { code: 'ENOENT' });
    if (scope.isWorkspaceRoot(from.path)) throw new Error('move_file never moves the workspace folder itself');
    if (to.trace.kind !== 'missing' && to.trace.kind !== null) throw destinationExists(to.path);
    const parent = await lstatOrUndefined(path.dirname(to.path));
    if (!parent) {
      throw Object.assign(new Error(`the destination's folder ${path.dirname(to.path)} does not exist; create it first with create_directory`), {
        code: 'ENOENT',
      });
    }
    if (!parent.isDirectory()) throw Object.assign(new Error(`${path.dirname(to.path)} is not a folder`), { code: 'ENOTDIR' });
    const sourceStats = await fsp.lstat(from.path, { bigint: true });
    const kind = entryTypeOf(sourceStats);
    if (kind === 'directory' && (to.path + path.sep).startsWith(from.path + path.sep)) {
      throw Object.assign(new Error(`cannot move the folder ${from.path} into itself (${to.path})`), { code: 'EINVAL' });
    }

    const fromRefusal = scope.recheck(from, { followFinal: false });
    if (fromRefusal) return refused(fromRefusal);
    const toRefusal = scope.recheck(to, { followFinal: false });
    if (toRefusal) return refused(toRefusal);

    // link(2) makes the new name atomically and fails EEXIST if anything got there first. Not for a link
    // outside Linux: macOS and the BSDs link a symlink's target, which may lie outside the workspace.
    const useLink = kind === 'file' || (kind === 'symlink' && process.platform === 'linux');
    let linked = false;
    if (useLink) {
      try {
        await fsp.link(from.path, to.path);
        linked = true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (code === 'EEXIST') throw destinationExists(to.path);
        if (!LINK_UNSUPPORTED.has(code)) throw error;
      }
    }
    if (linked) {
      // The new name must be the checked entry: a link swapped in at the source would have been linked
      // through on macOS. The type is compared too, as a freed inode number is soon reused.
      const made = await fsp.lstat(to.path, { bigint: true });
      if (!sameIdentity(made, sourceStats) || entryTypeOf(made) !== kind) {
        await fsp.unlink(to.path);
        throw new ChangedError(from.path, 'another file was there when it was moved');
      }
      try {
        if (!sameIdentity(await identityOf(from.path), sourceStats)) throw new ChangedError(from.path, 'another file is there now');
        await fsp.unlink(from.path);
      } catch (error) {
        // Leave things as they were: one name, the original.
        await fsp.unlink(to.path).catch(() => undefined);
        throw error;
      }
    } else {
      await renameIfAbsent(from.path, to.path);
    }
    return ok(
      { source: from.path, destination: to.path, uri: scope.uriOf(to.path) },
      `Moved ${scope.relative(from.path)} to ${scope.relative(to.path)}.`,
    );
  },
});
