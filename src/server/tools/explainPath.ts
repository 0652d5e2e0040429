import * as z from 'zod';
import { NEAR_MISS_WHYS, STAGES, verdictFor, withNearMisses, type NearMissWhy } from '../../core/index.js';
import { DEFAULT_TOOL, OPERATIONS, type ToolName } from '../../shared/operations.js';
import { TRACE_FACTS_META_KEY, type TraceFacts } from '../../shared/appView.js';
import { TRACE_VIEW } from './appViews.js';
import { defineTool, otherWorkspaces, pathField, pathToolField } from './tool.js';

const stageSchema = z.object({
  stage: z.string().describe(`${STAGES.slice(0, -1).join(', ')} or ${STAGES.at(-1)}.`),
  status: z.enum(['pass', 'refuse', 'note', 'skip']).describe('What the stage did.'),
  input: z.string().describe('What the stage was given.'),
  output: z.string().optional().describe('What it handed on; absent when it refused.'),
  rule: z.string().describe('The rule it applied.'),
  note: z.string().describe('What it noticed; empty when nothing.'),
});

const nearMissSchema = z.object({
  path: z.string().describe('The existing entry (for why = workspace, the path as given, which lies in that workspace).'),
  uri: z.string().describe('Its file: URI: the spelling to send instead.'),
  why: z.enum(NEAR_MISS_WHYS as [NearMissWhy, ...NearMissWhy[]]).describe('How it differs: case, unicode, percent-encoding, trailing-dot-space, root-name (the workspace folder\'s name repeated), root-relative (written from the filesystem\'s root), separator (a backslash for "/"), other-system (another system\'s path as this one spells it), or another granted workspace.'),
  workspace: z.string().optional().describe('For why = workspace: the workspace URI to pass as workspaceUri.'),
});

export const explainPath = defineTool({
  name: 'explain_path',
  title: 'Explain how a path is judged',
  description:
    'Why a path is allowed or refused, stage by stage, with the entries it nearly named. Pass the tool that refused it. Changes nothing.',
  input: {
    path: pathField,
    tool: pathToolField.optional().describe(`Default ${DEFAULT_TOOL}.`),
  },
  output: z.object({
    tool: z.string().describe('The tool whose judgement this is.'),
    acts: z.string().describe('What that tool does with the path, which decides how it is judged.'),
    verdict: z.enum(['inside', 'outside', 'refused']).describe('inside (the tool would go ahead), outside, or refused (on its form, or by the grant\'s rights).'),
    code: z.string().optional().describe('The stable refusal code; absent when inside.'),
    stage: z.string().describe('The stage that decided; server for a change refused by a read-only grant.'),
    reason: z.string().describe('Why, in words.'),
    path: z.string().optional().describe('The real path (where a link chain landed), or the lexical path; absent when none was reached.'),
    stages: z.array(stageSchema).describe('Every stage that ran, in order.'),
    nearMisses: z.array(nearMissSchema).describe('Existing entries the path nearly named, when it was not inside or names nothing; often empty.'),
  }),
  heavy: false,
  view: TRACE_VIEW,
  async run({ path, tool: named }, scope) {
    // The schema admits only PATH_TOOL_NAMES.
    const tool = (named ?? DEFAULT_TOOL) as ToolName;
    // Judged, never checked: an explanation is not a refusal, and is not logged as one.
    const judged = scope.judge(path, tool);
    const trace = withNearMisses(judged.trace, scope.grant.root, { otherWorkspaces: otherWorkspaces(scope.state, scope.grant) });
    const { refusal } = judged;
    const verdict = refusal === null ? 'inside' : verdictFor(refusal.code);
    const code = refusal?.code ?? null;
    const stage = refusal?.stage ?? trace.stage;
    const reason = refusal?.reason ?? trace.reason;
    const { acts } = OPERATIONS[tool];

    const rows = trace.stages.map((row) => `${row.stage === stage ? '>' : ' '} ${row.stage}: ${row.status}${row.note ? ` (${row.note})` : ''}`);
    const lines = [`As ${tool} judges it (${acts}):`, `${verdict.toUpperCase()}${code ? ` (${code} at ${stage})` : ''}: ${reason}`, ...rows];
    if (trace.nearMisses.length > 0) {
      lines.push('Did you mean:');
      for (const miss of trace.nearMisses) lines.push(`  ${miss.uri} (${miss.why}${miss.workspace !== undefined ? `, in workspace ${miss.workspace}` : ''})`);
    }
    const resolved = refusal?.path ?? trace.path;
    // Absent rather than null: a field is there when it has a value.
    const stages = trace.stages.map(({ output, ...row }) => (output === null ? row : { ...row, output }));
    const facts: TraceFacts = { input: trace.input, root: trace.root, rootPath: trace.rootPath, platform: trace.platform, policy: trace.policy, links: trace.links, kind: trace.kind, secret: trace.secret };
    return {
      kind: 'ok',
      structured: {
        tool,
        acts,
        verdict,
        ...(code !== null ? { code } : {}),
        stage,
        reason,
        ...(resolved !== null ? { path: resolved } : {}),
        stages,
        nearMisses: [...trace.nearMisses],
      },
      text: lines.join('\n'),
      meta: { [TRACE_FACTS_META_KEY]: facts },
    };
  },
});
