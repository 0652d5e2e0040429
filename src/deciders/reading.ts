// How a verdict reads, wherever it is shown (the command line, the inspector, the MCP Apps view):
// in a file of its own, which imports nothing but types, so a page can take it without the deciders.
import type { DeciderStage, RuleSource } from './types.js';

/** The stage that decided: the first that refused or asked, else the last. */
export function decidingStage(stages: readonly DeciderStage[]): number {
  const at = stages.findIndex((stage) => stage.status === 'refuse' || stage.status === 'ask');
  return at === -1 ? stages.length - 1 : at;
}

/** Where a rule came from, as a person finds it: `file:line`, the flag, or the program's default. */
export function sourceText(source: RuleSource | undefined): string {
  if (source === undefined) return 'default';
  if (source.file !== undefined) return `${source.file}${source.line !== undefined ? `:${source.line}` : ''}`;
  return source.flag ?? source.text;
}
