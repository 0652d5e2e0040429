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

/**
 * Whether a tool name, one of this server's or one of these programs', reads or changes;
 * undefined for a name none of them has. Takes the programs' tool lists alone, so a page that has
 * only those (the inspector's "Decided by") asks the same question the same way.
 */
export function accessIn(programs: readonly { readonly tools: Decider['tools'] }[], tool: string): Access | undefined {
  if (isToolName(tool)) return OPERATIONS[tool].changes ? 'change' : 'read';
  for (const program of programs) {
    for (const access of ['read', 'change'] as const) if (program.tools[access].includes(tool)) return access;
  }
  return undefined;
}
