import * as z from 'zod';
import { entryTypeOf, openFolder, type EntryType } from '../fs/index.js';
import { AnswerBudget, jsonLength, MAX_LIST_ENTRIES } from '../limits.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { requireDirectory } from './entries.js';

/** The kinds of entry, each under its key in the structured result and its heading in the text, in this order. */
const GROUPS: readonly (readonly [EntryType, 'directories' | 'files' | 'links' | 'other', string])[] = [
  ['directory', 'directories', 'Folders'],
  ['file', 'files', 'Files'],
  ['symlink', 'links', 'Links (not followed)'],
  ['other', 'other', 'Other (sockets, FIFOs, devices)'],
];

type Listing = Record<'directories' | 'files' | 'links' | 'other', string[]>;

function textLines(listing: Listing): string[] {
  const lines: string[] = [];
  for (const [, key, heading] of GROUPS) {
    const names = listing[key];
    if (names.length === 0) continue;
    lines.push(`${heading} (${names.length}):`);
    for (const name of names) lines.push(name);
  }
  return lines.length === 0 ? ['The folder is empty.'] : lines;
}

const KEY_OF: Readonly<Record<EntryType, keyof Listing>> = { directory: 'directories', file: 'files', symlink: 'links', other: 'other' };

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List a folder',
  description:
    'Lists the entries of a folder inside the workspace by kind (folders, files, links, other entries), each kind sorted by name. ' +
    'Only the folder itself is listed, not its subfolders (directory_tree does that); links are listed as links, never followed. ' +
    `At most the first ${MAX_LIST_ENTRIES} entries by name are returned; truncated says when there are more. ` +
    'A link to a folder inside the workspace may be given as the path. A refused path comes back with its refusal code, stage and reason.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The real path of the folder listed.'),
    uri: z.string().describe('The file: URI of that folder.'),
    // Names by kind, not an object per entry: half the bytes for a client to parse and a model to read.
    directories: z.array(z.string()).describe('The names of the folders, sorted.'),
    files: z.array(z.string()).describe('The names of the files, sorted.'),
    links: z.array(z.string()).describe('The names of the symbolic links, sorted; listed as links, never followed.'),
    other: z.array(z.string()).describe('The names of other entries (sockets, FIFOs, devices), sorted.'),
    truncated: z.boolean().describe(`True when the folder holds more entries than were returned (at most ${MAX_LIST_ENTRIES}, and what fits one answer).`),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const folder = openFolder(checked.target);
    const listing: Listing = { directories: [], files: [], links: [], other: [] };
    let count = 0;
    const budget = new AnswerBudget();
    let truncated = false;
    try {
      for (const entry of folder.list()) {
        // Each name is in the text and in the structured list.
        if (count >= MAX_LIST_ENTRIES || !budget.take(2 * jsonLength(entry.name) + 8)) {
          truncated = true;
          break;
        }
        listing[KEY_OF[entryTypeOf(entry)]].push(entry.name);
        count += 1;
      }
    } finally {
      folder.close();
    }
    const lines = textLines(listing);
    if (truncated) lines.push(`(only the first ${count} entries by name are listed: search_files or directory_tree with excludePatterns narrow it down)`);
    return ok({ path: checked.path, uri: scope.uriOf(checked.path), ...listing, truncated }, lines.join('\n'));
  },
});
