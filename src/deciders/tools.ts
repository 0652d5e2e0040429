// How a tool name (the program's own, or one of this server's) becomes the program's own tool: in
// a file of its own, so that a decider's module can use it without importing the registry.
import { isToolName, OPERATIONS } from '../shared/operations.js';
import type { Access, Decider } from './types.js';

/**
 * The program's own tool for `tool`, and whether it reads or changes: one of its own names is
 * taken as it is; one of this server's tools becomes the program's first tool of the same access
 * (`read_text_file` is Claude Code's `Read`, `write_file` its first change tool). Undefined for a
 * name neither knows.
 */
export function toolFor(decider: Decider, tool: string): { readonly tool: string; readonly access: Access } | undefined {
  for (const access of ['read', 'change'] as const) if (decider.tools[access].includes(tool)) return { tool, access };
  if (!isToolName(tool)) return undefined;
  const access: Access = OPERATIONS[tool].changes ? 'change' : 'read';
  return { tool: decider.tools[access][0]!, access };
}
