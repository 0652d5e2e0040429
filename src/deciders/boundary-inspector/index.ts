// This server, as its tools decide: the seven stages against the workspace root (traceAgainst),
// the tool's row of OPERATIONS saying whether a link at the last name is followed. `allow`
// exactly when the tool would act; with one root and no grants, the read-only rule is not
// applied, as `trace` does not apply it.
import { prepareRoot, REFUSAL_CODES, secretPolicy, traceAgainst, visible, withNearMisses, withSecrets, type PreparedRoot, type Trace } from '../../core/index.js';
import { OPERATIONS, PATH_TOOL_NAMES, type ToolName } from '../../shared/operations.js';
import type { Decider, DeciderContext, DeciderVerdict, Fix } from '../types.js';

declare const PACKAGE_VERSION: string;

const READ_TOOLS = PATH_TOOL_NAMES.filter((name) => !OPERATIONS[name].changes);
const CHANGE_TOOLS = PATH_TOOL_NAMES.filter((name) => OPERATIONS[name].changes);

/** The workspace root the context gives this server: its root, or else the working folder. */
export function workspaceOf(context: DeciderContext): string {
  return context.root ?? context.cwd;
}

/** The trace this server's tool makes of the input, near misses included, and the root it was made against. */
export function boundaryTrace(input: string, tool: ToolName, context: DeciderContext): { readonly trace: Trace; readonly root: PreparedRoot } {
  const prepared = prepareRoot(workspaceOf(context), {
    platform: context.platform,
    ...(context.policy ? { policy: context.policy } : {}),
    ...(context.simulated ? {} : { fs: context.fs }),
  });
  // The server's secrets policy as it starts by default.
  const root = prepared.ok ? withSecrets(prepared, secretPolicy()) : prepared;
  const { followFinal, changes } = OPERATIONS[tool];
  return { trace: withNearMisses(traceAgainst(root, input, { followFinal, access: changes ? 'change' : 'read' }), root), root };
}

/** What would let a refused trace through: the near misses first (each a path that works), then the code's advice. */
export function fixesOf(trace: Trace): Fix[] {
  const fixes: Fix[] = trace.nearMisses.map((miss) => ({ text: `Use ${visible(miss.path)} (${miss.why}).`, path: miss.path }));
  if (trace.code !== null && trace.verdict !== 'inside') {
    const advice = REFUSAL_CODES[trace.code].advice;
    fixes.push({ text: `${advice.charAt(0).toUpperCase()}${advice.slice(1)}.` });
  }
  return fixes;
}

/** The rule a trace decided by, as this server words it, and the root it was judged against. */
export function ruleOf(trace: Trace, root: string): DeciderVerdict['rule'] {
  return { text: trace.code === null ? trace.reason : `${trace.code} at ${trace.stage}: ${trace.reason}`, source: { text: `workspace root ${root}` } };
}

function asTool(tool: string): ToolName {
  return (PATH_TOOL_NAMES as readonly string[]).includes(tool) ? (tool as ToolName) : 'read_text_file';
}

export const boundaryInspector: Decider = {
  name: 'boundary-inspector',
  program: 'Boundary Inspector',
  version: typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : 'dev',
  tools: { read: READ_TOOLS, change: CHANGE_TOOLS },
  decide(input: string, toolName: string, context: DeciderContext): DeciderVerdict {
    const tool = asTool(toolName);
    const { trace } = boundaryTrace(input, tool, context);
    const rows = trace.stage === 'root' ? trace.rootStages : trace.stages;
    const allow = trace.verdict === 'inside';
    return {
      decider: 'boundary-inspector',
      program: this.program,
      version: this.version,
      basis: 'recorded',
      tool,
      access: OPERATIONS[tool].changes ? 'change' : 'read',
      input,
      decision: allow ? 'allow' : 'deny',
      rule: ruleOf(trace, workspaceOf(context)),
      path: trace.path,
      stages: rows.map((row) => ({ name: row.stage, status: row.status, input: row.input, output: row.output, rule: row.rule, note: row.note })),
      fixes: allow ? [] : fixesOf(trace),
      differences: [],
      configFiles: [],
    };
  },
};
