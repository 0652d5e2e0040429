import * as z from 'zod';
import { entryTypeOf, openFolder } from '../anchored.js';
import { AnswerBudget, jsonLength, MAX_LIST_ENTRIES } from '../limits.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { entryLabel, entrySchema, requireDirectory } from './entries.js';

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List a folder',
  description:
    'Lists the entries of a folder inside the workspace, sorted by name, each marked [DIR], [FILE], [LINK] or [OTHER]. ' +
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
    const entries: { name: string; type: ReturnType<typeof entryTypeOf> }[] = [];
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
    const lines = entries.map((entry) => `${entryLabel(entry.type)} ${entry.name}`);
    if (lines.length === 0) lines.push('The folder is empty.');
    if (truncated) lines.push(`(only the first ${entries.length} entries by name are listed: search_files or directory_tree with excludePatterns narrow it down)`);
    return ok({ path: checked.path, uri: scope.uriOf(checked.path), entries, truncated }, lines.join('\n'));
  },
});
