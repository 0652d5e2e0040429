/**
 * What the inspector's "Run on the server" may call, and how the server's answer carries a
 * refusal: shared by the server, the extension and the webview.
 */
import { OPERATIONS, type ToolName } from './operations.js';

/**
 * Where a refusal's fields travel in a tool's result. Not in structuredContent: a refusal is an
 * error result, which a tool's output schema does not describe, and clients that hand
 * structuredContent to the model would show it the fields instead of the shorter text.
 */
export const REFUSAL_META_KEY = 'io.github.boundary-inspector/refusal';

/**
 * The arguments (besides workspaceUri) each tool is run with for one path typed in the inspector.
 * Tools that need more than a path to mean anything (content, edits, a destination, a pattern) are
 * not run from there.
 */
const RUN_ARGUMENTS: Partial<Record<ToolName, (input: string) => Record<string, unknown>>> = {
  read_text_file: (path) => ({ path }),
  read_media_file: (path) => ({ path }),
  read_multiple_files: (path) => ({ paths: [path] }),
  list_directory: (path) => ({ path }),
  list_directory_with_sizes: (path) => ({ path }),
  directory_tree: (path) => ({ path }),
  get_file_info: (path) => ({ path }),
  explain_path: (path) => ({ path }),
  create_directory: (path) => ({ path }),
  delete_path: (path) => ({ path }),
};

/** The arguments to run `tool` on `input` with, or undefined when it is not run from the inspector. */
export function runArguments(tool: ToolName, input: string): Record<string, unknown> | undefined {
  return RUN_ARGUMENTS[tool]?.(input);
}

/** Whether a run of `tool` changes the disk, and so is made only once the person confirms it. */
export function runChanges(tool: ToolName): boolean {
  return OPERATIONS[tool].changes;
}
