import { joinSplit } from './paths.js';
import { prepareRoot, type PrepareOptions, type PreparedRoot } from './root.js';
import { withLongNames } from './shortNames.js';
import type { StageOutcome } from './stage.js';
import { alias } from './stages/alias.js';
import { casePolicy } from './stages/casePolicy.js';
import { containment } from './stages/containment.js';
import { decode } from './stages/decode.js';
import { normalise } from './stages/normalise.js';
import { parse } from './stages/parse.js';
import { realpath } from './stages/realpath.js';
import { refusals } from './stages/refusals.js';
import { secrets } from './stages/secrets.js';
import type { SecretAccess } from './secrets.js';
import type { EntryKind, LinkHop, LinklessLookup, NearMiss, RefusalCode, SecretMatch, StageName, StageResult, Trace, Verdict } from './types.js';
import { quoted, visible } from './visible.js';

export interface TraceOptions extends PrepareOptions {
  /** Follow a link at the last name (default). False for operations on the link itself: delete, rename, write. */
  readonly followFinal?: boolean;
  /** What is done with the path, for the secrets policy: `read` (default) or `change`. */
  readonly access?: SecretAccess;
  /** Tried by the realpath stage first, for a path below the root (LinklessLookup). */
  readonly lookup?: LinklessLookup;
}

/** The verdict for a refusal code: a path shown to lie outside, or a request refused on its form. */
export function verdictFor(code: RefusalCode): Exclude<Verdict, 'inside'> {
  return code === 'ERR_OUTSIDE' || code === 'ERR_SYMLINK_ESCAPE' ? 'outside' : 'refused';
}

/** Traces `input` against `root` through the stages. Never throws for any input string. */
export function trace(input: string, root: string, options: TraceOptions): Trace {
  return traceAgainst(prepareRoot(root, options), input, options);
}

/** Builds a trace in one shape, property for property: traces are made per call and kept few shapes. */
function makeTrace(
  root: PreparedRoot,
  input: string,
  stages: readonly StageResult[],
  verdict: Verdict,
  stage: StageName | 'root',
  code: RefusalCode | null,
  reason: string,
  path: string | null,
  links: readonly LinkHop[],
  kind: EntryKind | null,
  secret: SecretMatch | null = null,
): Trace {
  const ctx = root.ctx;
  return {
    input,
    root: root.input,
    platform: ctx.platform,
    simulated: ctx.fs === undefined,
    policy: ctx.policy,
    rootPath: root.ok ? root.path : null,
    rootStages: root.stages,
    stages,
    verdict,
    stage,
    code,
    reason,
    path,
    links,
    kind,
    nearMisses: NO_NEAR_MISSES,
    secret,
  };
}

const NO_LINKS: readonly LinkHop[] = Object.freeze([]);
/** Shared by every trace: near misses are looked for only on request (nearMisses.ts), never here. */
export const NO_NEAR_MISSES: readonly NearMiss[] = Object.freeze([]);

/** Traces against a root prepared once (the server prepares each granted root at start-up). */
export function traceAgainst(root: PreparedRoot, input: string, options: Omit<TraceOptions, keyof PrepareOptions> = {}): Trace {
  if (!root.ok) {
    const reason = `The root ${quoted(root.input)} is refused at ${root.stage}: ${root.reason}`;
    return makeTrace(root, input, [], 'refused', 'root', root.code, reason, null, NO_LINKS, null);
  }
  const ctx = root.requestCtx;
  const stages: StageResult[] = [];
  let lexicalPath: string | null = null;
  const refuse = (outcome: Extract<StageOutcome<unknown>, { ok: false }>, stage: StageName): Trace =>
    makeTrace(root, input, stages, verdictFor(outcome.code), stage, outcome.code, outcome.reason, outcome.landed ?? lexicalPath, outcome.links ?? NO_LINKS, null);

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
  const aliased = alias(normalised.value, ctx, root.split, root.comparison);
  stages.push(aliased.result);
  if (!aliased.ok) return refuse(aliased, 'alias');
  lexicalPath = aliased.value.path;
  const compared = casePolicy(aliased.value, root.comparison);
  stages.push(compared.result);
  if (!compared.ok) return refuse(compared, 'case');
  // On a Windows host, 8.3 short names are compared by their long names (shortNames.ts).
  const realised = withLongNames(compared.value, ctx, root.rootReal, (named) => realpath(named, ctx, root.rootReal, options.followFinal ?? true, options.lookup));
  stages.push(realised.result);
  if (!realised.ok) return refuse(realised, 'realpath');
  const contained = containment(realised.value, ctx, root.rootPaths);
  stages.push(contained.result);
  const { real, kind, links } = realised.value;
  const path = real ? joinSplit(real, ctx.platform) : lexicalPath;
  if (!contained.ok) return makeTrace(root, input, stages, verdictFor(contained.code), 'containment', contained.code, contained.reason, path, links, kind);
  const held = secrets(realised.value, ctx, root.rootPaths, options.access ?? 'read', ctx.secrets);
  stages.push(held.outcome.result);
  if (!held.outcome.ok) return makeTrace(root, input, stages, 'refused', 'secrets', held.outcome.code, held.outcome.reason, path, links, kind, held.match);
  const reason = `${visible(path)} is inside the workspace root ${visible(root.realPath ?? root.path)}.`;
  return makeTrace(root, input, stages, 'inside', 'containment', null, reason, path, links, kind);
}
