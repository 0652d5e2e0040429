import { minimatch, Minimatch } from 'minimatch';
import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { type EntryType } from '../fs/index.js';
import { ANSWER_BUDGET_BYTES, AnswerBudget, jsonLength, MAX_BRACE_EXPANSION, MAX_EXCLUDE_PATTERNS, MAX_PATTERN_LENGTH, MAX_WALK_DEPTH, MAX_WALK_ENTRIES } from '../limits.js';
import { cursorField, defineTool, ok, pathField, refused } from './tool.js';
import { walkCursor, walkOf } from './cursor.js';
import { STOP_BEFORE, walkInTurns } from '../fs/index.js';
import { entryTypeSchema, HELD_BYTES, heldSchema, requireDirectory } from './entries.js';
import { heldInWalk, heldMark, type Held } from './secretConsent.js';

/** Bounds one call's work on a huge tree; its cursor goes on from where it stopped. */
export const MAX_TREE_ENTRIES = MAX_WALK_ENTRIES;

// Their number and length are checked by excluder and compileGlob, with a message naming the limit.
export const excludePatternsField = z
  .array(z.string())
  .optional()
  .describe('Globs to leave out: node_modules, *.log.');

/** How many of the brace-expansion budget a call has left; each glob takes what it expands to. */
export interface GlobBudget {
  left: number;
}

/** A pattern of any kind (a glob, a name, a search) is at most MAX_PATTERN_LENGTH characters. */
export function checkPatternLength(pattern: string): void {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`the pattern is ${pattern.length} characters long, more than the ${MAX_PATTERN_LENGTH} a pattern may be.`);
}

/**
 * Compiles one glob, refused with a message naming the limit when it is too long or expands to
 * more patterns than the call has left: `{a,b}` twenty times over is a million patterns, and
 * minimatch would build every one.
 */
export function compileGlob(pattern: string, budget: GlobBudget): Minimatch {
  checkPatternLength(pattern);
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
  held?: Held | undefined;
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
  held: heldSchema,
});

/** What a node costs in the answer: its JSON in the structured tree, the longer of its two forms. */
function nodeBytes(name: string, folder: boolean, held: boolean): number {
  return jsonLength(name) + (folder ? 44 : 30) + (held ? HELD_BYTES : 0);
}

export const directoryTree = defineTool({
  name: 'directory_tree',
  title: 'Show a folder tree',
  description:
    'The tree below a folder, recursively; links are shown, never followed.',
  input: {
    path: pathField,
    excludePatterns: excludePatternsField,
    cursor: cursorField,
  },
  output: z.object({
    path: z.string().describe('The starting folder, relative to the workspace.'),
    tree: z.array(treeNodeSchema).describe('The starting folder\'s entries, each folder with its own entries as children.'),
    truncated: z.boolean().describe('True when the tree is incomplete: see nextCursor, or folders too deep to enter.'),
    nextCursor: z
      .string()
      .optional()
      .describe('Pass it as cursor, with the same arguments, for the rest of the tree (with the folders above it again, for their place).'),
  }),
  heavy: true,
  async run({ path: input, excludePatterns, cursor }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const resume = walkOf(cursor);
    const excluded = excluder(excludePatterns);
    const tree: TreeNode[] = [];
    const lines: string[] = [];
    const budget = new AnswerBudget(ANSWER_BUDGET_BYTES);
    let tooDeep = false;
    const heldOf = (names: readonly string[], folder: boolean) => heldInWalk(scope.grant, scope.state.platform, [...checked.target.names, ...names], folder)?.decision;
    /** A folder's node and line; its entries go in the list it returns. */
    const addFolder = (name: string, depth: number, siblings: TreeNode[], held: Held | undefined, note = ''): TreeNode[] => {
      const node: TreeNode = { name, type: 'directory', children: [], ...(held !== undefined ? { held } : {}) };
      siblings.push(node);
      lines.push(`${'  '.repeat(depth - 1)}${quotedIfHidden(name)}/${heldMark(held)}${note}`);
      return node.children!;
    };
    const call = scope.call;
    const result = await walkInTurns<TreeNode[]>({
      signal: call.signal,
      onProgress: (examined) => call.progress(examined, undefined, `${examined} entries examined`),
      anchor: scope.anchor,
      start: checked.target.names,
      context: tree,
      maxEntries: MAX_TREE_ENTRIES,
      ...(resume !== undefined ? { resume } : {}),
      // A continued tree shows again the folders it goes on inside, so each entry has its place.
      resumeInside: (names, siblings) => {
        const held = heldOf(names, true);
        budget.take(nodeBytes(names.at(-1)!, true, held !== undefined));
        return addFolder(names.at(-1)!, names.length, siblings, held, ' (continued)');
      },
      exclude: (entry) => excluded(entry.relative),
      visit(entry, below, siblings) {
        if (below.kind === 'gone') return undefined; // removed during the walk
        // Links are listed as themselves and never descended: their targets were not checked.
        const type = below.kind === 'changed' ? 'symlink' : entry.type;
        const held = heldOf(entry.names, type === 'directory');
        if (!budget.take(nodeBytes(entry.name, below.kind === 'folder', held !== undefined))) return STOP_BEFORE;
        if (below.kind === 'folder') return addFolder(entry.name, entry.depth, siblings, held);
        const node: TreeNode = { name: entry.name, type, ...(held !== undefined ? { held } : {}) };
        siblings.push(node);
        const mark = type === 'directory' ? '/' : type === 'symlink' ? '@' : '';
        let note = '';
        if (below.kind === 'unreadable') {
          node.error = below.code;
          note = ` (unreadable: ${below.code})`;
        } else if (below.kind === 'too-deep') {
          node.truncated = true;
          tooDeep = true;
          note = ` (${MAX_WALK_DEPTH} levels down: its entries are not listed)`;
        }
        lines.push(`${'  '.repeat(entry.depth - 1)}${quotedIfHidden(entry.name)}${mark}${heldMark(held)}${note}`);
        return undefined;
      },
    });
    call.progress(result.examined, result.examined, `${result.examined} entries examined`, true);
    const nextCursor = result.position !== undefined ? walkCursor(result.position) : undefined;
    if (lines.length === 0 && nextCursor === undefined) lines.push('The folder is empty (or everything in it was excluded).');
    if (nextCursor !== undefined) lines.push(`(more follows: call again with cursor ${nextCursor})`);
    if (tooDeep) lines.push(`(the entries of folders ${MAX_WALK_DEPTH} levels down are not listed: call directory_tree on them)`);
    return ok(
      { path: scope.relative(checked.path), tree, truncated: nextCursor !== undefined || tooDeep, ...(nextCursor !== undefined ? { nextCursor } : {}) },
      lines.join('\n'),
    );
  },
});
