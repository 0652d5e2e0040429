import * as z from 'zod';
import { compareNames, entryTypeOf, openFolder, type EntryType } from '../fs/index.js';
import { AnswerBudget, jsonLength, MAX_LIST_ENTRIES } from '../limits.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { entryLabel, entrySchema, requireDirectory } from './entries.js';

interface SizedEntry {
  name: string;
  type: EntryType;
  size: number;
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
    'Lists the entries of a folder inside the workspace with their sizes, sorted by name or by size (largest first), ' +
    'with the number of files and folders and the total bytes of the files. Only the folder itself is listed, not its subfolders; ' +
    'sizes are the entries\' own (a link\'s size is that of the link, never its target; a folder\'s is its entry, not its contents). ' +
    `At most the first ${MAX_LIST_ENTRIES} entries by name are listed and sized (truncated says when there are more); sortBy and the totals apply to those. ` +
    'A refused path comes back with its refusal code, stage and reason.',
  input: {
    path: pathField,
    sortBy: z.enum(['name', 'size']).optional().describe('name (default): by name; size: largest first, then by name.'),
  },
  output: z.object({
    path: z.string().describe('The real path of the folder listed.'),
    uri: z.string().describe('The file: URI of that folder.'),
    entries: z
      .array(
        entrySchema.extend({
          size: z.number().describe('The entry\'s own size in bytes, from lstat (never following a link).'),
        }),
      )
      .describe('The entries, in the order asked for.'),
    totalFiles: z.number().describe('How many entries are regular files.'),
    totalDirectories: z.number().describe('How many entries are folders.'),
    totalBytes: z.number().describe('The sum of the regular files\' sizes.'),
    truncated: z.boolean().describe(`True when the folder holds more entries than were listed (at most ${MAX_LIST_ENTRIES}, and what fits one answer).`),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input, sortBy }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const entries: SizedEntry[] = [];
    const budget = new AnswerBudget();
    let truncated = false;
    let width = 0;
    const folder = openFolder(checked.target);
    try {
      for (const name of folder.names()) {
        // Each name is in the structured list and in a text line padded to the longest name (255 at most).
        if (entries.length >= MAX_LIST_ENTRIES || !budget.take(2 * jsonLength(name) + 255 + 96)) {
          truncated = true;
          break;
        }
        // lstat through the anchored folder: sizes are of what was listed, and a link is sized as itself.
        const stats = folder.lstat(name);
        if (!stats) continue; // removed since the listing
        entries.push({ name, type: entryTypeOf(stats), size: Number(stats.size) });
        width = Math.max(width, name.length);
      }
    } finally {
      folder.close();
    }
    if (sortBy === 'size') entries.sort((a, b) => b.size - a.size || compareNames(a.name, b.name));
    const files = entries.filter((entry) => entry.type === 'file');
    const totalFiles = files.length;
    const totalDirectories = entries.filter((entry) => entry.type === 'directory').length;
    const totalBytes = files.reduce((sum, entry) => sum + entry.size, 0);
    const lines = entries.map(
      (entry) => `${entryLabel(entry.type).padEnd(7)} ${entry.name.padEnd(width)}  ${entry.type === 'directory' ? '' : formatSize(entry.size)}`.trimEnd(),
    );
    if (lines.length > 0) lines.push('');
    lines.push(`Total: ${totalFiles} files, ${totalDirectories} folders`, `Combined size of the files: ${formatSize(totalBytes)}`);
    if (truncated) lines.push(`(only the first ${entries.length} entries by name are listed, sorted and counted)`);
    return ok({ path: checked.path, uri: scope.uriOf(checked.path), entries, totalFiles, totalDirectories, totalBytes, truncated }, lines.join('\n'));
  },
});
