import nodePath from 'node:path';
import * as z from 'zod';
import { type EntryType } from '../fs/index.js';
import { AnswerBudget, jsonLength, MAX_BRACE_EXPANSION, MAX_PATTERN_LENGTH, MAX_WALK_DEPTH, MAX_WALK_ENTRIES } from '../limits.js';
import { callOf } from '../callControl.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { STOP, walkInTurns } from '../fs/index.js';
import { compileGlob, excludePatternsField, excluder, type GlobBudget } from './directoryTree.js';
import { entryTypeSchema, requireDirectory } from './entries.js';

/** Bounds the work on a huge tree; the result says when the search stopped early. */
export const MAX_SEARCH_VISITS = MAX_WALK_ENTRIES;

const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * A glob is matched against the path relative to the starting folder (a pattern without `/`
 * against the name at any depth, as exclude patterns are); anything else is a case-insensitive
 * substring of the name.
 */
function matcherFor(pattern: string, budget: GlobBudget): (relative: string, name: string) => boolean {
  if (GLOB_CHARACTERS.test(pattern)) {
    const glob = compileGlob(pattern.replace(/^(\.\/)+/, ''), budget);
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
    `Links are reported but never followed. At most ${MAX_SEARCH_VISITS} entries are examined (excluded ones included), down to ${MAX_WALK_DEPTH} levels below the folder; ` +
    `truncated is true when the search stopped early. A pattern is at most ${MAX_PATTERN_LENGTH} characters, and the pattern and excludePatterns ` +
    `expand to at most ${MAX_BRACE_EXPANSION} patterns in all ({a,b} is two). A refused path comes back with its refusal code, stage and reason.`,
  input: {
    path: pathField,
    pattern: z.string().min(1).max(MAX_PATTERN_LENGTH).describe('A glob such as **/*.ts, or a plain substring of the name (matched ignoring case).'),
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
    truncated: z
      .boolean()
      .describe(`True when the search stopped early (the ${MAX_SEARCH_VISITS}-entry limit, the answer's size, or folders ${MAX_WALK_DEPTH} levels down not entered): there may be more matches.`),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input, pattern, excludePatterns }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const globs: GlobBudget = { left: MAX_BRACE_EXPANSION };
    const matches = matcherFor(pattern, globs);
    const excluded = excluder(excludePatterns, globs);
    const found: Match[] = [];
    const budget = new AnswerBudget();
    let tooDeep = false;

    const call = callOf(scope);
    const result = await walkInTurns<true>({
      signal: call.signal,
      onProgress: (examined) => call.progress(examined, undefined, `${examined} entries examined`),
      anchor: scope.anchor,
      start: checked.target.names,
      context: true,
      maxEntries: MAX_SEARCH_VISITS,
      exclude: (entry) => excluded(entry.relative),
      visit(entry, below) {
        if (below.kind === 'too-deep') tooDeep = true;
        if (matches(entry.relative, entry.name)) {
          const path = nodePath.join(checked.path, ...entry.names);
          // The path appears three times: in the text, and as path and uri in the structured list.
          if (!budget.take(3 * jsonLength(path) + 64)) return STOP;
          found.push({ path, type: below.kind === 'changed' ? 'symlink' : entry.type });
        }
        // Links are never descended: their targets were not checked.
        return below.kind === 'folder' ? true : undefined;
      },
    });
    call.progress(result.examined, result.examined, `${result.examined} entries examined, ${found.length} matches`, true);
    const truncated = result.stopped !== 'done' || tooDeep;

    // Relative to the workspace, so each line can be passed back as a path.
    const lines = found.map((match) => `${scope.relative(match.path)}${match.type === 'directory' ? '/' : ''}`);
    if (lines.length === 0) lines.push(`No match for ${pattern} under ${scope.relative(checked.path)}.`);
    if (result.stopped !== 'done') lines.push(`(stopped after ${result.examined} entries: there may be more matches; narrow the path or add excludePatterns)`);
    else if (tooDeep) lines.push(`(folders ${MAX_WALK_DEPTH} levels down were not searched: search from deeper down)`);
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
