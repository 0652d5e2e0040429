import { minimatch, Minimatch } from 'minimatch';
import * as z from 'zod';
import { type EntryType } from '../fs/index.js';
import { AnswerBudget, jsonLength, MAX_BRACE_EXPANSION, MAX_EXCLUDE_PATTERNS, MAX_PATTERN_LENGTH, MAX_WALK_DEPTH, MAX_WALK_ENTRIES } from '../limits.js';
import { callOf } from '../callControl.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { STOP, walkInTurns } from '../fs/index.js';
import { entryTypeSchema, requireDirectory } from './entries.js';

/** Bounds the answer (and the work) on a huge tree; the result says when it was cut short. */
export const MAX_TREE_ENTRIES = MAX_WALK_ENTRIES;

export const excludePatternsField = z
  .array(z.string().max(MAX_PATTERN_LENGTH))
  .max(MAX_EXCLUDE_PATTERNS)
  .optional()
  .describe(
    'Glob patterns (minimatch, dotfiles included) for entries to leave out, matched against the path relative to the starting folder with / as separator. ' +
      'A pattern without / matches a name at any depth (node_modules, *.log); a matched folder is not descended into. ' +
      `At most ${MAX_EXCLUDE_PATTERNS} patterns of ${MAX_PATTERN_LENGTH} characters, expanding to at most ${MAX_BRACE_EXPANSION} patterns in all ({a,b} is two).`,
  );

/** How many of the brace-expansion budget a call has left; each glob takes what it expands to. */
export interface GlobBudget {
  left: number;
}

/**
 * Compiles one glob, refused with a message naming the limit when it is too long or expands to
 * more patterns than the call has left: `{a,b}` twenty times over is a million patterns, and
 * minimatch would build every one.
 */
export function compileGlob(pattern: string, budget: GlobBudget): Minimatch {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new Error(`the pattern is ${pattern.length} characters long, more than the ${MAX_PATTERN_LENGTH} a pattern may be.`);
  }
  const expanded = minimatch.braceExpand(pattern, { braceExpandMax: budget.left + 1 }).length;
  if (expanded > budget.left) {
    throw new Error(
      `the pattern ${pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern} expands (through its {...} braces) to more patterns than the ` +
        `${MAX_BRACE_EXPANSION} one call may use in all. Use fewer brace alternatives, or several calls.`,
    );
  }
  budget.left -= expanded;
  return new Minimatch(pattern, { dot: true, matchBase: true, braceExpandMax: MAX_BRACE_EXPANSION });
}

/**
 * One matcher for a list of exclude patterns. `matchBase` makes a pattern without `/` match the
 * last name at any depth; a trailing `/` (gitignore's "folders only") and a leading `./` are dropped
 * so `dist/` and `./dist` mean what people expect.
 */
export function excluder(patterns: readonly string[] | undefined, budget: GlobBudget = { left: MAX_BRACE_EXPANSION }): (relative: string) => boolean {
  if ((patterns?.length ?? 0) > MAX_EXCLUDE_PATTERNS) throw new Error(`${patterns!.length} exclude patterns, more than the ${MAX_EXCLUDE_PATTERNS} a call may give.`);
  const matchers = (patterns ?? [])
    .map((pattern) => pattern.replace(/^(\.\/)+/, '').replace(/\/+$/, ''))
    .filter((pattern) => pattern !== '')
    .map((pattern) => compileGlob(pattern, budget));
  return (relative) => matchers.some((matcher) => matcher.match(relative));
}

export interface TreeNode {
  name: string;
  type: EntryType;
  children?: TreeNode[] | undefined;
  error?: string | undefined;
  truncated?: boolean | undefined;
}

const treeNodeSchema: z.ZodType<TreeNode> = z.object({
  name: z.string().describe('The entry name.'),
  type: entryTypeSchema,
  get children() {
    return z.array(treeNodeSchema).optional().describe('A folder\'s entries, sorted by name; absent for anything but a folder.');
  },
  error: z.string().optional().describe('Why a folder\'s entries are missing (EACCES, EPERM), when it could not be read.'),
  truncated: z
    .boolean()
    .optional()
    .describe(`True on a folder whose entries are not listed because it lies ${MAX_WALK_DEPTH} levels below the starting folder: call directory_tree on it.`),
});

/** What a node costs in the answer: its JSON in the structured tree and its line in the text. */
function nodeBytes(name: string, depth: number): number {
  return 2 * jsonLength(name) + 2 * depth + 64;
}

export const directoryTree = defineTool({
  name: 'directory_tree',
  title: 'Show a folder tree',
  description:
    'Returns the tree of a folder inside the workspace, recursively, as JSON entries {name, type, children} sorted by name; ' +
    'the text shows it indented, folders marked / and links @. Links are shown as links and never followed or descended. ' +
    `excludePatterns leave out entries (and whatever is below them). At most ${MAX_TREE_ENTRIES} entries are examined (excluded ones included) ` +
    `down to ${MAX_WALK_DEPTH} levels below the starting folder; truncated is true when the tree was cut short. A refused path comes back with its refusal code, stage and reason.`,
  input: {
    path: pathField,
    excludePatterns: excludePatternsField,
  },
  output: z.object({
    path: z.string().describe('The real path of the starting folder.'),
    uri: z.string().describe('The file: URI of that folder.'),
    tree: z.array(treeNodeSchema).describe('The starting folder\'s entries, each folder with its own entries as children.'),
    truncated: z
      .boolean()
      .describe(`True when the tree is incomplete: the ${MAX_TREE_ENTRIES}-entry limit or the answer's size was reached, or a folder ${MAX_WALK_DEPTH} levels down was not entered.`),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input, excludePatterns }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const excluded = excluder(excludePatterns);
    const tree: TreeNode[] = [];
    const lines: string[] = [];
    const budget = new AnswerBudget();
    let tooDeep = false;
    const call = callOf(scope);
    const result = await walkInTurns<TreeNode[]>({
      signal: call.signal,
      onProgress: (examined) => call.progress(examined, undefined, `${examined} entries examined`),
      anchor: scope.anchor,
      start: checked.target.names,
      context: tree,
      maxEntries: MAX_TREE_ENTRIES,
      exclude: (entry) => excluded(entry.relative),
      visit(entry, below, siblings) {
        if (below.kind === 'gone') return undefined; // removed during the walk
        if (!budget.take(nodeBytes(entry.name, entry.depth))) return STOP;
        // Links are listed as themselves and never descended: their targets were not checked.
        const node: TreeNode = { name: entry.name, type: below.kind === 'changed' ? 'symlink' : entry.type };
        siblings.push(node);
        const mark = node.type === 'directory' ? '/' : node.type === 'symlink' ? '@' : '';
        let note = '';
        if (below.kind === 'unreadable') {
          node.error = below.code;
          note = ` (unreadable: ${below.code})`;
        } else if (below.kind === 'too-deep') {
          node.truncated = true;
          tooDeep = true;
          note = ` (${MAX_WALK_DEPTH} levels down: its entries are not listed)`;
        }
        lines.push(`${'  '.repeat(entry.depth - 1)}${entry.name}${mark}${note}`);
        if (below.kind !== 'folder') return undefined;
        node.children = [];
        return node.children;
      },
    });
    call.progress(result.examined, result.examined, `${result.examined} entries examined`, true);
    const cut = result.stopped !== 'done';
    if (lines.length === 0) lines.push('The folder is empty (or everything in it was excluded).');
    if (cut) lines.push(`(truncated after ${result.examined} entries: narrow the path or add excludePatterns)`);
    else if (tooDeep) lines.push(`(the entries of folders ${MAX_WALK_DEPTH} levels down are not listed: call directory_tree on them)`);
    return ok({ path: checked.path, uri: scope.uriOf(checked.path), tree, truncated: cut || tooDeep }, lines.join('\n'));
  },
});
