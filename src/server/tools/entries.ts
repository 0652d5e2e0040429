import * as z from 'zod';
import { notThere, type EntryType } from '../fs/index.js';
import type { Checked } from './tool.js';

export const entryTypeSchema = z
  .enum(['file', 'directory', 'symlink', 'other'])
  .describe('file, directory, symlink (a link, listed as itself and never followed) or other (socket, FIFO, device).');

/** One entry of a folder listing; list_directory_with_sizes extends it with a size. */
export const entrySchema = z.object({
  name: z.string().describe('The entry name.'),
  type: entryTypeSchema,
});

/** A listing needs a folder: the core's trace already says what is at the checked path. */
export function requireDirectory(checked: Extract<Checked, { ok: true }>): void {
  const kind = checked.trace.kind;
  // null: the filesystem was not consulted; the verified open below decides.
  if (kind === 'directory' || kind === null) return;
  if (kind === 'missing') throw notThere(checked.path);
  throw Object.assign(new Error(`${checked.path} is not a folder`), { code: 'ENOTDIR' });
}

const LABELS: Readonly<Record<EntryType, string>> = { file: '[FILE]', directory: '[DIR]', symlink: '[LINK]', other: '[OTHER]' };

export function entryLabel(type: EntryType): string {
  return LABELS[type];
}
