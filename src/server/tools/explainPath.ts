import * as z from 'zod';
import { traceAgainst } from '../../core/index.js';
import { defineTool, ok, pathField } from '../tool.js';

const stageSchema = z.object({
  stage: z.string().describe('parse, refusals, decode, normalise, case, realpath or containment.'),
  status: z.enum(['pass', 'refuse', 'note', 'skip']).describe('What the stage did.'),
  input: z.string().describe('What the stage was given.'),
  output: z.string().nullable().describe('What it handed on; null when it refused.'),
  rule: z.string().describe('The rule it applied.'),
  note: z.string().describe('What it noticed; empty when nothing.'),
});

export const explainPath = defineTool({
  name: 'explain_path',
  title: 'Explain how a path is judged',
  description:
    'Traces a path or URI against the workspace through every stage (parse, refusals, decode, normalise, case, realpath, containment) ' +
    'and reports the verdict, the deciding stage, the refusal code and the reason. Call it to see why a path was refused. Changes nothing.',
  input: { path: pathField },
  output: z.object({
    verdict: z.enum(['inside', 'outside', 'refused']).describe('inside, outside, or refused on its form.'),
    code: z.string().nullable().describe('The stable refusal code, null when inside.'),
    stage: z.string().describe('The stage that decided.'),
    reason: z.string().describe('Why, in words.'),
    path: z.string().nullable().describe('The real path (where a link chain landed), or the lexical path.'),
    stages: z.array(stageSchema).describe('Every stage that ran, in order.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path }, scope) {
    const trace = traceAgainst(scope.grant.root, path);
    const rows = trace.stages.map((stage) => `${stage.stage === trace.stage ? '>' : ' '} ${stage.stage}: ${stage.status}${stage.note ? ` (${stage.note})` : ''}`);
    const text = `${trace.verdict.toUpperCase()}${trace.code ? ` (${trace.code} at ${trace.stage})` : ''}: ${trace.reason}\n${rows.join('\n')}`;
    return ok(
      { verdict: trace.verdict, code: trace.code, stage: trace.stage, reason: trace.reason, path: trace.path, stages: [...trace.stages] },
      text,
    );
  },
});
