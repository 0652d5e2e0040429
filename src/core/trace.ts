import { joinSplit } from './paths.js';
import { prepareRoot, type PrepareOptions, type PreparedRoot } from './root.js';
import { withLongNames } from './shortNames.js';
import type { StageContext, StageOutcome } from './stage.js';
import { casePolicy } from './stages/casePolicy.js';
import { containment } from './stages/containment.js';
import { decode } from './stages/decode.js';
import { normalise } from './stages/normalise.js';
import { parse } from './stages/parse.js';
import { realpath } from './stages/realpath.js';
import { refusals } from './stages/refusals.js';
import type { EntryKind, LinkHop, RefusalCode, StageName, StageResult, Trace, Verdict } from './types.js';

export interface TraceOptions extends PrepareOptions {
  /** Follow a link at the last name (default). False for operations on the link itself: delete, rename, write. */
  readonly followFinal?: boolean;
}

/** The verdict for a refusal code: a path shown to lie outside, or a request refused on its form. */
export function verdictFor(code: RefusalCode): Exclude<Verdict, 'inside'> {
  return code === 'ERR_OUTSIDE' || code === 'ERR_SYMLINK_ESCAPE' ? 'outside' : 'refused';
}

/** Traces `input` against `root` through the seven stages. Never throws for any input string. */
export function trace(input: string, root: string, options: TraceOptions): Trace {
  return traceAgainst(prepareRoot(root, options), input, options);
}

/** Traces against a root prepared once (the server prepares each granted root at start-up). */
export function traceAgainst(root: PreparedRoot, input: string, options: { readonly followFinal?: boolean } = {}): Trace {
  const ctx: StageContext = { ...root.ctx, role: 'request' };
  const base = {
    input,
    root: root.input,
    platform: ctx.platform,
    simulated: ctx.fs === undefined,
    policy: ctx.policy,
  };
  if (!root.ok) {
    return {
      ...base,
      rootPath: null,
      rootStages: root.stages,
      stages: [],
      verdict: 'refused',
      stage: 'root',
      code: root.code,
      reason: `The root ${JSON.stringify(root.input)} is refused at ${root.stage}: ${root.reason}`,
      path: null,
      links: [],
      kind: null,
    };
  }

  const stages: StageResult[] = [];
  let lexicalPath: string | null = null;
  const refuse = (outcome: Extract<StageOutcome<unknown>, { ok: false }>, stage: StageName): Trace => ({
    ...base,
    rootPath: root.path,
    rootStages: root.stages,
    stages,
    verdict: verdictFor(outcome.code),
    stage,
    code: outcome.code,
    reason: outcome.reason,
    path: outcome.landed ?? lexicalPath,
    links: outcome.links ?? [],
    kind: null,
  });

  const parsed = parse(input, ctx);
  stages.push(parsed.result);
  if (!parsed.ok) return refuse(parsed, 'parse');
  const checked = refusals(parsed.value, ctx);
  stages.push(checked.result);
  if (!checked.ok) return refuse(checked, 'refusals');
  const decoded = decode(checked.value, ctx);
  stages.push(decoded.result);
  if (!decoded.ok) return refuse(decoded, 'decode');
  const normalised = normalise(decoded.value, ctx, root.split);
  stages.push(normalised.result);
  if (!normalised.ok) return refuse(normalised, 'normalise');
  lexicalPath = normalised.value.path;
  const compared = casePolicy(normalised.value, root.comparison);
  stages.push(compared.result);
  if (!compared.ok) return refuse(compared, 'case');
  const rootReal = root.real ? { lexical: root.split, real: root.real } : undefined;
  // On a Windows host, 8.3 short names are compared by their long names (shortNames.ts).
  const realised = withLongNames(compared.value, ctx, rootReal, (named) => realpath(named, ctx, rootReal, options.followFinal ?? true));
  stages.push(realised.result);
  if (!realised.ok) return refuse(realised, 'realpath');
  const contained = containment(realised.value, ctx, { lexical: root.split, real: root.real });
  stages.push(contained.result);
  const { real, kind, links } = realised.value;
  const path = real ? joinSplit(real, ctx.platform) : lexicalPath;
  if (!contained.ok) return { ...refuse(contained, 'containment'), path, links, kind: kind as EntryKind | null };
  return {
    ...base,
    rootPath: root.path,
    rootStages: root.stages,
    stages,
    verdict: 'inside',
    stage: 'containment',
    code: null,
    reason: `${path} is inside the workspace root ${root.realPath ?? root.path}.`,
    path,
    links: links as LinkHop[],
    kind,
  };
}
