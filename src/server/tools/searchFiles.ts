import { Minimatch } from 'minimatch';
import * as z from 'zod';
import { ChangedError, entryTypeOf, openFolder, type EntryType, type Folder } from '../anchored.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { excludePatternsField, excluder } from './directoryTree.js';
import { entryTypeSchema, requireDirectory } from './entries.js';

/** Bounds the work on a huge tree; the result says when the search stopped early. */
export const MAX_SEARCH_VISITS = 10_000;

const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * A glob is matched against the path relative to the starting folder (a pattern without `/`
 * against the name at any depth, as exclude patterns are); anything else is a case-insensitive
 * substring of the name.
 */
function matcherFor(pattern: string): (relative: string, name: string) => boolean {
  if (GLOB_CHARACTERS.test(pattern)) {
    const glob = new Minimatch(pattern.replace(/^(\.\/)+/, ''), { dot: true, matchBase: true });
    return (relative) => glob.match(relative);
  }
  const needle = pattern.toLowerCase();
  return (_relative, name) => name.toLowerCase().includes(needle);
}

interface Match {
  path: string;
  type: EntryType;
}

export const searchFiles = defineTool({
  name: 'search_files',
  title: 'Search for files by name',
  description:
    'Finds files, folders and links by name under a folder inside the workspace, recursively. ' +
    'pattern is a glob (**/*.ts, src/*.json; a glob without / such as *.ts matches names at any depth, case-sensitively) ' +
    'or, with no glob characters, a substring matched case-insensitively against each name. Names only, never contents. ' +
    `Links are reported but never followed. At most ${MAX_SEARCH_VISITS} entries are visited; truncated is true when the search stopped there. ` +
    'A refused path comes back with its refusal code, stage and reason.',
  input: {
    path: pathField,
    pattern: z.string().min(1).describe('A glob such as **/*.ts, or a plain substring of the name (matched ignoring case).'),
    excludePatterns: excludePatternsField,
  },
  output: z.object({
    path: z.string().describe('The real path of the folder searched.'),
    matches: z
      .array(
        z.object({
          path: z.string().describe('The real path of the match; it can be passed to the other tools as is.'),
          uri: z.string().describe('The file: URI of that path.'),
          type: entryTypeSchema,
        }),
      )
      .describe('Every match, in walk order (each folder sorted by name, its entries before the next sibling).'),
    truncated: z.boolean().describe(`True when the ${MAX_SEARCH_VISITS}-entry limit stopped the search: there may be more matches.`),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input, pattern, excludePatterns }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const matches = matcherFor(pattern);
    const excluded = excluder(excludePatterns);
    const found: Match[] = [];
    let visited = 0;
    let truncated = false;

    // Each folder is opened through its parent's descriptor, never through a link.
    const walk = (folder: Folder, relative: string): void => {
      for (const entry of folder.list()) {
        const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (excluded(childRelative)) continue;
        if (visited >= MAX_SEARCH_VISITS) {
          truncated = true;
          return;
        }
        visited += 1;
        const full = folder.pathOf(entry.name);
        const type = entryTypeOf(entry);
        if (matches(childRelative, entry.name)) found.push({ path: full, type });
        // Links are never descended: their targets were not checked.
        if (type !== 'directory') continue;
        try {
          const child = folder.openFolder(entry.name);
          try {
            walk(child, childRelative);
          } finally {
            child.close();
          }
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // A folder removed or replaced by a link during the walk, or one this process may not read, is skipped, not fatal.
          if (!(error instanceof ChangedError) && code !== 'ENOENT' && code !== 'EACCES' && code !== 'EPERM') throw error;
        }
        if (truncated) return;
      }
    };
    const root = openFolder(scope.anchor, checked.path);
    try {
      walk(root, '');
    } finally {
      root.close();
    }

    // Relative to the workspace, so each line can be passed back as a path.
    const lines = found.map((match) => `${scope.relative(match.path)}${match.type === 'directory' ? '/' : ''}`);
    if (lines.length === 0) lines.push(`No match for ${pattern} under ${scope.relative(checked.path)}.`);
    if (truncated) lines.push(`(stopped after ${MAX_SEARCH_VISITS} entries: there may be more matches; narrow the path or add excludePatterns)`);
    return ok(
      {
        path: checked.path,
        matches: found.map((match) => ({ path: match.path, uri: scope.uriOf(match.path), type: match.type })),
        truncated,
      },
      lines.join('\n'),
    );
  },
});
