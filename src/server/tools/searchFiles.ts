import nodePath from 'node:path';
import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { ANSWER_BUDGET_BYTES, AnswerBudget, jsonLength, MAX_BRACE_EXPANSION, MAX_WALK_DEPTH, MAX_WALK_ENTRIES } from '../limits.js';
import { cursorField, defineTool, ok, pathField, refused } from './tool.js';
import { STOP_BEFORE, walkInTurns } from '../fs/index.js';
import { walkCursor, walkOf } from './cursor.js';
import { checkPatternLength, compileGlob, excludePatternsField, excluder, type GlobBudget } from './directoryTree.js';
import { HELD_BYTES, heldMatchesSchema, requireDirectory } from './entries.js';
import { heldInWalk, heldMark, type Held } from './secretConsent.js';

/** Bounds one call's work on a huge tree; its cursor goes on from where it stopped. */
export const MAX_SEARCH_VISITS = MAX_WALK_ENTRIES;

const GLOB_CHARACTERS = /[*?[\]{}]/;

/**
 * A glob is matched against the path relative to the starting folder (a pattern without `/`
 * against the name at any depth, as exclude patterns are); anything else is a case-insensitive
 * substring of the name.
 */
function matcherFor(pattern: string, budget: GlobBudget): (relative: string, name: string) => boolean {
  if (pattern === '') throw new Error('the pattern is empty: give a glob or part of a name.');
  if (GLOB_CHARACTERS.test(pattern)) {
    const glob = compileGlob(pattern.replace(/^(\.\/)+/, ''), budget);
    return (relative) => glob.match(relative);
  }
  checkPatternLength(pattern);
  const needle = pattern.toLowerCase();
  return (_relative, name) => name.toLowerCase().includes(needle);
}

export const searchFiles = defineTool({
  name: 'search_files',
  title: 'Search for files by name',
  description:
    'Finds entries by name below a folder: pattern is a glob (**/*.ts) or a substring, ignoring case.',
  input: {
    path: pathField,
    // Its length is checked as the call begins (compileGlob for a glob), with a message naming the limit.
    pattern: z.string(),
    excludePatterns: excludePatternsField,
    cursor: cursorField,
  },
  output: z.object({
    path: z.string().describe('The folder searched, relative to the workspace.'),
    matches: z.array(z.string()).describe('The matches relative to the workspace, in walk order; a folder ends with /.'),
    held: heldMatchesSchema,
    truncated: z.boolean().describe('True when there may be more matches: see nextCursor, or folders too deep to enter.'),
    nextCursor: z.string().optional().describe('Pass it as cursor, with the same arguments, for the matches after these.'),
  }),
  heavy: true,
  async run({ path: input, pattern, excludePatterns, cursor }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const resume = walkOf(cursor);
    const globs: GlobBudget = { left: MAX_BRACE_EXPANSION };
    const matches = matcherFor(pattern, globs);
    const excluded = excluder(excludePatterns, globs);
    const found: string[] = [];
    // A Map: a match may be named `constructor` or `__proto__`.
    const held = new Map<string, Held>();
    const budget = new AnswerBudget(ANSWER_BUDGET_BYTES);
    let tooDeep = false;

    const call = scope.call;
    const result = await walkInTurns<true>({
      signal: call.signal,
      onProgress: (examined) => call.progress(examined, undefined, `${examined} entries examined`),
      anchor: scope.anchor,
      start: checked.target.names,
      context: true,
      maxEntries: MAX_SEARCH_VISITS,
      ...(resume !== undefined ? { resume } : {}),
      exclude: (entry) => excluded(entry.relative),
      visit(entry, below) {
        if (below.kind === 'too-deep') tooDeep = true;
        if (matches(entry.relative, entry.name)) {
          const type = below.kind === 'changed' ? 'symlink' : entry.type;
          // Relative to the workspace, so each can be passed back as a path.
          const match = `${scope.relative(nodePath.join(checked.path, ...entry.names))}${type === 'directory' ? '/' : ''}`;
          const decision = heldInWalk(scope.grant, scope.state.platform, [...checked.target.names, ...entry.names], type === 'directory')?.decision;
          // A line of the text, or a string of the list: as long either way; a held one is in `held` too.
          if (!budget.take(jsonLength(match) + 3 + (decision !== undefined ? jsonLength(match) + HELD_BYTES : 0))) return STOP_BEFORE;
          found.push(match);
          if (decision !== undefined) held.set(match, decision);
        }
        // Links are never descended: their targets were not checked.
        return below.kind === 'folder' ? true : undefined;
      },
    });
    call.progress(result.examined, result.examined, `${result.examined} entries examined, ${found.length} matches`, true);
    const nextCursor = result.position !== undefined ? walkCursor(result.position) : undefined;
    const lines = found.map((match) => `${quotedIfHidden(match)}${heldMark(held.get(match))}`);
    if (lines.length === 0 && nextCursor === undefined) lines.push(`No match for ${quotedIfHidden(pattern)} under ${quotedIfHidden(scope.relative(checked.path))}.`);
    if (nextCursor !== undefined) lines.push(`(more may follow: call again with cursor ${nextCursor})`);
    if (tooDeep) lines.push(`(folders ${MAX_WALK_DEPTH} levels down were not searched: search from deeper down)`);
    return ok(
      { path: scope.relative(checked.path), matches: found, ...(held.size > 0 ? { held: Object.fromEntries(held) } : {}), truncated: nextCursor !== undefined || tooDeep, ...(nextCursor !== undefined ? { nextCursor } : {}) },
      lines.join('\n'),
    );
  },
});
