import type { Platform } from '../../core/index.js';
import type { DeciderVerdict } from '../../deciders/index.js';
import { DEFAULT_TOOL } from '../../shared/operations.js';
import { renderComparison } from '../render.js';
import { EXIT, hostPolicyOptions, parseCommand, platformOption, writeJson, type Io } from '../usage.js';
import { DECIDER_OPTIONS_HELP, deciderContext, deciderOptions, deciderTool, registeredDeciders } from './deciders.js';

export const compareHelp = `Usage: boundary-inspector compare <input> [options]

Judges one input as every program Boundary Inspector models decides it (${registeredDeciders()
  .map((decider) => decider.name)
  .join(', ')}): one line each, with its decision (allow, ask or deny) and the rule that decided.
\`boundary-inspector trace <input> --as <decider>\` shows one of them stage by stage.

Options:
  --root <uri-or-path>               this server's workspace root, and the default --cwd and
                                     --allowed (default: the current folder)
  --tool <name>                      what is done with the path: a tool of this server or of any
                                     program (default: ${DEFAULT_TOOL}); each program judges its
                                     own tool for the same access (Write for Claude Code,
                                     apply_patch for Codex, when the tool changes the file)
${DECIDER_OPTIONS_HELP}
  --platform linux|darwin|win32      whose path rules apply (default: this machine's); another
                                     platform is simulated, and nothing of this disk is read
  --case, --symlinks, --allow-localhost, --allow-unc
                                     this server's policy, as for trace
  --json                             print a JSON array, one verdict per program
  -h, --help                         show this help

Exit status: 0 every program allows, 3 one asks or denies, 2 usage error.

Example:
  boundary-inspector compare ../ws-evil/notes.md --root /srv/ws --tool write_file
`;

export function runCompare(args: readonly string[], io: Io, host: Platform): number {
  const { values, positionals } = parseCommand(
    args,
    { root: { type: 'string' }, tool: { type: 'string' }, ...platformOption, case: { type: 'string' }, symlinks: { type: 'string' }, ...hostPolicyOptions, ...deciderOptions, json: { type: 'boolean' } },
    1,
  );
  if (values.help) {
    io.stdout.write(compareHelp);
    return EXIT.ok;
  }
  const input = positionals[0]!;
  const context = deciderContext(values, io, host);
  const deciders = registeredDeciders();
  // Each decider's own tool first: a tool no program knows is a usage error before anything runs.
  const tools = deciders.map((decider) => deciderTool(decider, values.tool ?? DEFAULT_TOOL));
  const rows = deciders.map((decider, i) => {
    try {
      return { decider: decider.name, verdict: decider.decide(input, tools[i]!, context) };
    } catch (error) {
      // One model failing leaves the others' answers standing.
      return { decider: decider.name, error: `${(error as Error).message}` };
    }
  });
  if (values.json) writeJson(io, rows.map((row) => ('verdict' in row ? row.verdict : { decider: row.decider, error: row.error })));
  else io.stdout.write(renderComparison(input, rows, { color: Boolean(io.stdout.isTTY) && !('NO_COLOR' in io.env) }));
  const verdicts = rows.flatMap((row): DeciderVerdict[] => ('verdict' in row ? [row.verdict] : []));
  return verdicts.length === rows.length && verdicts.every((verdict) => verdict.decision === 'allow') ? EXIT.ok : EXIT.refused;
}
