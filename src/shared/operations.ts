/**
 * How each workspace tool judges the path it acts on, before it touches the disk. The tools check
 * their paths through this table, and explain_path, the CLI's `trace --tool` and the inspector's
 * "As seen by" read the same rows, so an explanation and the action cannot disagree.
 */
export interface Operation {
  /** Follow a link at the last name (a read), or judge the link itself (a change to the entry). */
  readonly followFinal: boolean;
  /** Changes the workspace: a read-only grant refuses it. */
  readonly changes: boolean;
  /** Removes or replaces the entry: a read-only workspace at or below it refuses it too. */
  readonly replaces: boolean;
  /** What the tool does with the path, for an explanation. */
  readonly acts: string;
}

const READS: Operation = { followFinal: true, changes: false, replaces: false, acts: 'reads what the path names, following a link at the last name' };

export const OPERATIONS = {
  read_text_file: READS,
  read_media_file: READS,
  read_multiple_files: READS,
  list_directory: READS,
  list_directory_with_sizes: READS,
  directory_tree: READS,
  search_files: READS,
  search_file_contents: READS,
  explain_path: READS,
  get_file_info: { followFinal: false, changes: false, replaces: false, acts: 'describes the entry itself: a link at the last name is described, not followed' },
  write_file: { followFinal: false, changes: true, replaces: true, acts: 'creates or replaces the entry itself: a link at the last name is replaced, never written through' },
  edit_file: { followFinal: true, changes: true, replaces: false, acts: 'changes the file a link at the last name points to' },
  create_directory: { followFinal: false, changes: true, replaces: false, acts: 'creates the folder and any missing folders above it' },
  move_file: { followFinal: false, changes: true, replaces: true, acts: 'moves the entry itself (judged here as the source; the destination must not exist)' },
  delete_path: { followFinal: false, changes: true, replaces: true, acts: 'deletes the entry itself: a link at the last name is removed, not followed' },
  audit_workspace: { followFinal: true, changes: false, replaces: false, acts: 'audits the whole workspace' },
  compare_deciders: { followFinal: true, changes: false, replaces: false, acts: 'judges the path as each program modelled decides it, for the view' },
} as const satisfies Record<string, Operation>;

export type ToolName = keyof typeof OPERATIONS;

/** The operation explained when none is named: reading, as most tools do. */
export const DEFAULT_TOOL: ToolName = 'read_text_file';

// Pure, so that a page that reads only DEFAULT_TOOL (the MCP Apps view) leaves the table out.
export const TOOL_NAMES = /* @__PURE__ */ Object.keys(OPERATIONS) as readonly ToolName[];

/**
 * The tools that act on a path someone can ask about: an audit takes the whole workspace, so there
 * is nothing to explain, and the view's comparison only explains.
 */
export const PATH_TOOL_NAMES: readonly ToolName[] = /* @__PURE__ */ TOOL_NAMES.filter((name) => name !== 'audit_workspace' && name !== 'compare_deciders');

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(OPERATIONS, name);
}
