import { Minimatch } from 'minimatch';
import * as z from 'zod';
import { ChangedError, entryTypeOf, openFolder, type EntryType, type Folder } from '../anchored.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { entryTypeSchema, requireDirectory } from './entries.js';

/** Bounds the answer (and the work) on a huge tree; the result says when it was cut short. */
export const MAX_TREE_ENTRIES = 10_000;

export const excludePatternsField = z
  .array(z.string())
  .optional()
  .describe(
    'Glob patterns (minimatch, dotfiles included) for entries to leave out, matched against the path relative to the starting folder with / as separator. ' +
      'A pattern without / matches a name at any depth (node_modules, *.log); a matched folder is not descended into.',
  );

/**
 * One matcher for a list of exclude patterns. `matchBase` makes a pattern without `/` match the
 * last name at any depth; a trailing `/` (gitignore's "folders only") and a leading `./` are dropped
 * so `dist/` and `./dist` mean what people expect.
 */
export function excluder(patterns: readonly string[] | undefined): (relative: string) => boolean {
  const matchers = (patterns ?? [])
    .map((pattern) => pattern.replace(/^(\.\/)+/, '').replace(/\/+$/, ''))
    .filter((pattern) => pattern !== '')
    .map((pattern) => new Minimatch(pattern, { dot: true, matchBase: true }));
  return (relative) => matchers.some((matcher) => matcher.match(relative));
}

export interface TreeNode {
  name: string;
  type: EntryType;
  children?: TreeNode[] | undefined;
  error?: string | undefined;
}

const treeNodeSchema: z.ZodType<TreeNode> = z.object({
  name: z.string().describe('The entry name.'),
  type: entryTypeSchema,
  get children() {
    return z.array(treeNodeSchema).optional().describe('A folder\'s entries, sorted by name; absent for anything but a folder.');
  },
  error: z.string().optional().describe('Why a folder\'s entries are missing (EACCES, EPERM), when it could not be read.'),
});

interface Walk {
  readonly excluded: (relative: string) => boolean;
  count: number;
  truncated: boolean;
}

/** Each folder is opened through its parent's descriptor, never through a link. */
function walk(folder: Folder, relative: string, state: Walk): TreeNode[] {
  const nodes: TreeNode[] = [];
  for (const entry of folder.list()) {
    const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (state.excluded(childRelative)) continue;
    if (state.count >= MAX_TREE_ENTRIES) {
      state.truncated = true;
      break;
    }
    state.count += 1;
    const type = entryTypeOf(entry);
    // Links are listed as themselves and never descended: their targets were not checked.
    if (type !== 'directory') {
      nodes.push({ name: entry.name, type });
      continue;
    }
    try {
      const child = folder.openFolder(entry.name);
      try {
        nodes.push({ name: entry.name, type, children: walk(child, childRelative, state) });
      } finally {
        child.close();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // removed during the walk
      if (error instanceof ChangedError) {
        nodes.push({ name: entry.name, type: 'symlink' }); // a link took the folder's place: listed, never followed
        continue;
      }
      if (code === 'EACCES' || code === 'EPERM') nodes.push({ name: entry.name, type, error: code });
      else throw error;
    }
    if (state.truncated) break;
  }
  return nodes;
}

function outline(nodes: readonly TreeNode[], depth: number, lines: string[]): void {
  for (const node of nodes) {
    const mark = node.type === 'directory' ? '/' : node.type === 'symlink' ? '@' : '';
    lines.push(`${'  '.repeat(depth)}${node.name}${mark}${node.error ? ` (unreadable: ${node.error})` : ''}`);
    if (node.children) outline(node.children, depth + 1, lines);
  }
}

export const directoryTree = defineTool({
  name: 'directory_tree',
  title: 'Show a folder tree',
  description:
    'Returns the tree of a folder inside the workspace, recursively, as JSON entries {name, type, children} sorted by name; ' +
    'the text shows it indented, folders marked / and links @. Links are shown as links and never followed or descended. ' +
    `excludePatterns leave out entries (and whatever is below them). At most ${MAX_TREE_ENTRIES} entries are returned; ` +
    'truncated is true when the tree was cut short. A refused path comes back with its refusal code, stage and reason.',
  input: {
    path: pathField,
    excludePatterns: excludePatternsField,
  },
  output: z.object({
    path: z.string().describe('The real path of the starting folder.'),
    uri: z.string().describe('The file: URI of that folder.'),
    tree: z.array(treeNodeSchema).describe('The starting folder\'s entries, each folder with its own entries as children.'),
    truncated: z.boolean().describe(`True when the ${MAX_TREE_ENTRIES}-entry limit was reached and the tree is incomplete.`),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path: input, excludePatterns }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const state: Walk = { excluded: excluder(excludePatterns), count: 0, truncated: false };
    const folder = openFolder(scope.anchor, checked.path);
    let tree: TreeNode[];
    try {
      tree = walk(folder, '', state);
    } finally {
      folder.close();
    }
    const lines: string[] = [];
    outline(tree, 0, lines);
    if (lines.length === 0) lines.push('The folder is empty (or everything in it was excluded).');
    if (state.truncated) lines.push(`(truncated at ${MAX_TREE_ENTRIES} entries: narrow the path or add excludePatterns)`);
    return ok({ path: checked.path, uri: scope.uriOf(checked.path), tree, truncated: state.truncated }, lines.join('\n'));
  },
});
