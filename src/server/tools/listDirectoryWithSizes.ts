import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { compareNames, entryTypeOf, openFolder, type EntryType } from '../fs/index.js';
import { ANSWER_BUDGET_BYTES, AnswerBudget, jsonLength, MAX_LIST_ENTRIES } from '../limits.js';
import { cursorField, defineTool, ok, pathField, refused } from './tool.js';
import { offsetCursor, offsetOf } from './cursor.js';
import { entryLabel, entrySchema, HELD_BYTES, requireDirectory } from './entries.js';
import { heldInWalk, heldMark, type Held } from './secretConsent.js';

interface SizedEntry {
  name: string;
  type: EntryType;
  size: number;
  held?: Held;
}

export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export const listDirectoryWithSizes = defineTool({
  name: 'list_directory_with_sizes',
  title: 'List a folder with sizes',
  description:
    'Lists the entries of one folder with their sizes and the totals.',
  input: {
    path: pathField,
    sortBy: z.enum(['name', 'size']).optional(),
    cursor: cursorField,
  },
  output: z.object({
    path: z.string().describe('The folder listed, relative to the workspace.'),
    entries: z
      .array(
        entrySchema.extend({
          size: z.number().describe('The entry\'s own size in bytes, from lstat (never following a link).'),
        }),
      )
      .describe('The entries, in the order asked for (by name, or largest first).'),
    totalFiles: z.number().describe('How many entries are regular files.'),
    totalDirectories: z.number().describe('How many entries are folders.'),
    totalBytes: z.number().describe('The sum of the regular files\' sizes.'),
    truncated: z
      .boolean()
      .describe(`True when not every entry is here: see nextCursor; past ${MAX_LIST_ENTRIES} entries by name, the rest are not sized or counted.`),
    nextCursor: z.string().optional().describe('Pass it as cursor, with the same sortBy, for the entries after these.'),
  }),
  heavy: true,
  async run({ path: input, sortBy, cursor }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const offset = offsetOf(cursor);
    const entries: SizedEntry[] = [];
    let unsized = false;
    const folder = openFolder(checked.target);
    try {
      for (const { name } of scope.state.listings.entriesOf(folder)) {
        if (entries.length >= MAX_LIST_ENTRIES) {
          unsized = true;
          break;
        }
        // lstat through the anchored folder: sizes are of what was listed, and a link is sized as itself.
        const stats = folder.lstat(name);
        if (!stats) continue; // removed since the listing
        const type = entryTypeOf(stats);
        const held = heldInWalk(scope.grant, scope.state.platform, [...checked.target.names, name], type === 'directory');
        entries.push({ name, type, size: Number(stats.size), ...(held !== undefined ? { held: held.decision } : {}) });
      }
    } finally {
      folder.close();
    }
    if (sortBy === 'size') entries.sort((a, b) => b.size - a.size || compareNames(a.name, b.name));
    const files = entries.filter((entry) => entry.type === 'file');
    const totalFiles = files.length;
    const totalDirectories = entries.filter((entry) => entry.type === 'directory').length;
    const totalBytes = files.reduce((sum, entry) => sum + entry.size, 0);
    const shownName = (entry: SizedEntry) => `${quotedIfHidden(entry.name)}${heldMark(entry.held)}`;
    const width = entries.reduce((widest, entry) => Math.max(widest, shownName(entry).length), 0);
    // The totals are of every entry sized; a page holds what fits the answer's budget.
    const budget = new AnswerBudget(ANSWER_BUDGET_BYTES);
    let end = offset;
    while (end < entries.length && budget.take(Math.max(jsonLength(entries[end]!.name) + (entries[end]!.held !== undefined ? HELD_BYTES : 0) + 40, width + 24))) end += 1;
    const page = entries.slice(offset, end);
    const nextCursor = end < entries.length ? offsetCursor(end) : undefined;
    const lines = page.map(
      (entry) => `${entryLabel(entry.type).padEnd(7)} ${shownName(entry).padEnd(width)}  ${entry.type === 'directory' ? '' : formatSize(entry.size)}`.trimEnd(),
    );
    if (lines.length > 0) lines.push('');
    // The totals are the folder's, unless it has more entries than are sized: then the text says so where it gives them.
    const counted = unsized ? ` of the first ${MAX_LIST_ENTRIES} entries by name (the rest are not sized, sorted or counted)` : '';
    lines.push(`Total${counted}: ${totalFiles} files, ${totalDirectories} folders`, `Combined size of the files: ${formatSize(totalBytes)}`);
    const range = `entries ${offset + 1} to ${end} of ${unsized ? `the first ${entries.length}` : entries.length}`;
    if (nextCursor !== undefined) lines.push(`(${range}: call again with cursor ${nextCursor} for the rest)`);
    else if (offset > 0) lines.push(`(${range}: the last of them)`);
    return ok(
      {
        path: scope.relative(checked.path),
        entries: page,
        totalFiles,
        totalDirectories,
        totalBytes,
        truncated: nextCursor !== undefined || unsized,
        ...(nextCursor !== undefined ? { nextCursor } : {}),
      },
      lines.join('\n'),
    );
  },
});
