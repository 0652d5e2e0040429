import * as z from 'zod';
import { entryTypeOf, openFolder } from '../anchored.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { entryLabel, entrySchema, requireDirectory } from './entries.js';

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
    entries: z.array(entrySchema).describe('The entries, sorted by name.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const folder = openFolder(scope.anchor, checked.path);
    let entries;
    try {
      entries = folder.list().map((entry) => ({ name: entry.name, type: entryTypeOf(entry) }));
    } finally {
      folder.close();
    }
    const lines = entries.map((entry) => `${entryLabel(entry.type)} ${entry.name}`);
    return ok(
      { path: checked.path, uri: scope.uriOf(checked.path), entries },
      lines.length > 0 ? lines.join('\n') : 'The folder is empty.',
    );
  },
});
