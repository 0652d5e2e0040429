import * as z from 'zod';
import { entryTypeOf, openFolder, type EntryType } from '../anchored.js';
import { AnswerBudget, jsonLength, MAX_LIST_ENTRIES } from '../limits.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { entrySchema, requireDirectory } from './entries.js';

/** The text's groups, in this order; each lists its names one a line, sorted by name. */
const GROUPS: readonly (readonly [EntryType, string])[] = [
  ['directory', 'Folders'],
  ['file', 'Files'],
  ['symlink', 'Links (not followed)'],
  ['other', 'Other (sockets, FIFOs, devices)'],
];

/** Every entry, by kind: the structured result says each one's type, so the text does not repeat it per line. */
function textLines(entries: readonly { name: string; type: EntryType }[]): string[] {
  if (entries.length === 0) return ['The folder is empty.'];
  const byType: Record<EntryType, string[]> = { directory: [], file: [], symlink: [], other: [] };
  for (const entry of entries) byType[entry.type].push(entry.name);
  const lines: string[] = [];
  for (const [type, heading] of GROUPS) {
    const names = byType[type];
    if (names.length === 0) continue;
    lines.push(`${heading} (${names.length}):`);
    for (const name of names) lines.push(name);
  }
  return lines;
}

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List a folder',
  description:
    'Lists the entries of a folder inside the workspace, sorted by name, each with its type (file, directory, symlink or other); ' +
    'the text lists them by kind: folders, files, links, then other entries. ' +
    'Only the folder itself is listed, not its subfolders (directory_tree does that); links are listed as links, never followed. ' +
    `At most the first ${MAX_LIST_ENTRIES} entries by name are returned; truncated says when there are more. ` +
    'A link to a folder inside the workspace may be given as the path. A refused path comes back with its refusal code, stage and reason.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The real path of the folder listed.'),
    uri: z.string().describe('The file: URI of that folder.'),
    entries: z.array(entrySchema).describe('The entries, sorted by name.'),
    truncated: z.boolean().describe(`True when the folder holds more entries than were returned (at most ${MAX_LIST_ENTRIES}, and what fits one answer).`),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const folder = openFolder(scope.anchor, checked.path);
    const entries: { name: string; type: EntryType }[] = [];
    const budget = new AnswerBudget();
    let truncated = false;
    try {
      for (const entry of folder.list()) {
        // Each name is in the text and in the structured list.
        if (entries.length >= MAX_LIST_ENTRIES || !budget.take(2 * jsonLength(entry.name) + 48)) {
          truncated = true;
          break;
        }
        entries.push({ name: entry.name, type: entryTypeOf(entry) });
      }
    } finally {
      folder.close();
    }
    const lines = textLines(entries);
    if (truncated) lines.push(`(only the first ${entries.length} entries by name are listed: search_files or directory_tree with excludePatterns narrow it down)`);
    return ok({ path: checked.path, uri: scope.uriOf(checked.path), entries, truncated }, lines.join('\n'));
  },
});
