import { constants, promises as fsp, type Dirent } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { ChangedError, identityOf, sameIdentity } from '../files.js';
import { defineTool, ok, pathField, refused, type Checked } from '../tool.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export const entryTypeSchema = z
  .enum(['file', 'directory', 'symlink', 'other'])
  .describe('file, directory, symlink (a link, listed as itself and never followed) or other (socket, FIFO, device).');

/** Works for a Dirent and for lstat's Stats alike; a link is checked first so it is never taken for its target. */
export function entryTypeOf(entry: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }): EntryType {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  return 'other';
}

/** Code-unit order: the same on every host and locale, so listings are stable. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A listing needs a folder: the core's trace already says what is at the checked path. */
export function requireDirectory(checked: Extract<Checked, { ok: true }>): void {
  const kind = checked.trace.kind;
  // null: the filesystem was not consulted; the verified open below decides.
  if (kind === 'directory' || kind === null) return;
  if (kind === 'missing') throw Object.assign(new Error(`${checked.path} does not exist`), { code: 'ENOENT' });
  throw Object.assign(new Error(`${checked.path} is not a folder`), { code: 'ENOTDIR' });
}

// O_NOFOLLOW: a link swapped in at the last name fails the open instead of being followed.
const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Lists a checked folder and proves the listing is of that folder, as openVerified does for files.
 * On Linux the folder is opened, its descriptor's own path (`/proc/self/fd/N`) must be the checked
 * path, and it is listed and its entries looked up through that descriptor, so a folder (or an
 * ancestor) swapped after the check is never read. Elsewhere Node has no descriptor-relative
 * calls: the folder's identity is compared before and after, which narrows the window but cannot
 * close it. `child(name)` names an entry through the verified folder; it is valid only inside `use`.
 */
export async function inVerifiedDirectory<T>(
  directory: string,
  use: (entries: Dirent[], child: (name: string) => string) => Promise<T>,
): Promise<T> {
  if (process.platform === 'linux') {
    const handle = await fsp.open(directory, DIRECTORY_FLAGS).catch(async (error: NodeJS.ErrnoException) => {
      // Linux reports a link under O_NOFOLLOW | O_DIRECTORY as ENOTDIR (or ELOOP): say what happened.
      const link = (error.code === 'ENOTDIR' || error.code === 'ELOOP') && (await fsp.lstat(directory).catch(() => undefined))?.isSymbolicLink();
      throw link ? new ChangedError(directory, 'a link is there now') : error;
    });
    try {
      const base = `/proc/self/fd/${handle.fd}`;
      const opened = await fsp.readlink(base);
      if (opened !== directory) throw new ChangedError(directory, `the open folder is ${opened}`);
      const entries = await fsp.readdir(base, { withFileTypes: true });
      entries.sort((a, b) => compareNames(a.name, b.name));
      return await use(entries, (name) => `${base}/${name}`);
    } finally {
      await handle.close();
    }
  }
  const before = await fsp.lstat(directory, { bigint: true });
  if (before.isSymbolicLink()) throw new ChangedError(directory, 'a link is there now');
  if (!before.isDirectory()) throw Object.assign(new Error(`${directory} is not a folder`), { code: 'ENOTDIR' });
  const entries = await fsp.readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => compareNames(a.name, b.name));
  const result = await use(entries, (name) => path.join(directory, name));
  if (!sameIdentity(await identityOf(directory), before)) throw new ChangedError(directory, 'the folder was replaced');
  return result;
}

export function readDirectoryVerified(directory: string): Promise<Dirent[]> {
  return inVerifiedDirectory(directory, async (entries) => entries);
}

const LABELS: Readonly<Record<EntryType, string>> = { file: '[FILE]', directory: '[DIR]', symlink: '[LINK]', other: '[OTHER]' };

export function entryLabel(type: EntryType): string {
  return LABELS[type];
}

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List a folder',
  description:
    'Lists the entries of a folder inside the workspace, sorted by name, each marked [DIR], [FILE], [LINK] or [OTHER]. ' +
    'Only the folder itself is listed, not its subfolders (directory_tree does that); links are listed as links, never followed. ' +
    'A link to a folder inside the workspace may be given as the path. A refused path comes back with its refusal code, stage and reason.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The real path of the folder listed.'),
    uri: z.string().describe('The file: URI of that folder.'),
    entries: z
      .array(
        z.object({
          name: z.string().describe('The entry name.'),
          type: entryTypeSchema,
        }),
      )
      .describe('The entries, sorted by name.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const entries = (await readDirectoryVerified(checked.path)).map((entry) => ({ name: entry.name, type: entryTypeOf(entry) }));
    const lines = entries.map((entry) => `${entryLabel(entry.type)} ${entry.name}`);
    return ok(
      { path: checked.path, uri: scope.uriOf(checked.path), entries },
      lines.length > 0 ? lines.join('\n') : 'The folder is empty.',
    );
  },
});
