import { joinSplit, type SplitPath } from './paths.js';
import { spellLong } from './shortNames.js';
import type { SecretPolicy } from './secrets.js';
import { aliasFamilies, type Spellings } from './spellings.js';
import type { StageContext } from './stage.js';
import { decideComparison, type Comparison } from './stages/casePolicy.js';
import { decode } from './stages/decode.js';
import { normalise } from './stages/normalise.js';
import { parse } from './stages/parse.js';
import type { RootPaths } from './stages/containment.js';
import { resolveReal, type RootReal } from './stages/realpath.js';
import { refusals } from './stages/refusals.js';
import { DEFAULT_POLICY, type FileSystemPort, type Platform, type Policy, type RefusalCode, type StageName, type StageResult } from './types.js';

export interface RootOptions {
  readonly platform: Platform;
  readonly policy?: Partial<Policy>;
  /** Other spellings the host knows of (WSL, mapped drives): `readSpellings` in src/host, or given to simulate a host. */
  readonly spellings?: Spellings;
}

export interface PrepareOptions extends RootOptions {
  /** The host's filesystem. Omit it to simulate `platform` without consulting this machine. */
  readonly fs?: FileSystemPort;
  /** The workspace's secrets policy, applied to every request after containment. */
  readonly secrets?: SecretPolicy;
}

export type RootConversion =
  | { readonly ok: true; readonly input: string; readonly path: string; readonly split: SplitPath; readonly stages: readonly StageResult[] }
  | {
      readonly ok: false;
      readonly input: string;
      readonly code: RefusalCode;
      readonly stage: StageName;
      readonly reason: string;
      readonly stages: readonly StageResult[];
    };

export function contextFor(options: PrepareOptions, role: StageContext['role']): StageContext {
  return { platform: options.platform, policy: { ...DEFAULT_POLICY, ...options.policy }, fs: options.fs, role, spellings: options.spellings };
}

/**
 * Converts a root URI (or absolute path) into a path, or a refusal: parse, refusals, decode and
 * normalise, with no filesystem. A root is never relative, so a misconfigured root fails at
 * start-up instead of becoming a silently wider one.
 */
export function rootToPath(root: string, options: RootOptions): RootConversion {
  const ctx = contextFor(options, 'root');
  const stages: StageResult[] = [];
  const parsed = parse(root, ctx);
  stages.push(parsed.result);
  if (!parsed.ok) return { ok: false, input: root, code: parsed.code, stage: 'parse', reason: parsed.reason, stages };
  const checked = refusals(parsed.value, ctx);
  stages.push(checked.result);
  if (!checked.ok) return { ok: false, input: root, code: checked.code, stage: 'refusals', reason: checked.reason, stages };
  const decoded = decode(checked.value, ctx);
  stages.push(decoded.result);
  if (!decoded.ok) return { ok: false, input: root, code: decoded.code, stage: 'decode', reason: decoded.reason, stages };
  const normalised = normalise(decoded.value, ctx, undefined);
  stages.push(normalised.result);
  if (!normalised.ok) return { ok: false, input: root, code: normalised.code, stage: 'normalise', reason: normalised.reason, stages };
  return { ok: true, input: root, path: normalised.value.path, split: normalised.value.split, stages };
}

/** A root ready to judge requests against: converted, its comparison decided and its real path resolved once. */
export type PreparedRoot =
  | (Extract<RootConversion, { ok: true }> & {
      readonly ctx: StageContext;
      readonly comparison: Comparison;
      /** Null when simulated. */
      readonly real: SplitPath | null;
      readonly realPath: string | null;
      /** Made once here, not per request: what each trace against this root reads. */
      readonly requestCtx: StageContext;
      readonly rootReal: RootReal | undefined;
      readonly rootPaths: RootPaths;
    })
  | (Extract<RootConversion, { ok: false }> & { readonly ctx: StageContext });

export function prepareRoot(root: string, options: PrepareOptions): PreparedRoot {
  const ctx = contextFor(options, 'root');
  const converted = rootToPath(root, options);
  if (!converted.ok) return { ...converted, ctx };
  const comparison = decideComparison(converted.split, ctx);
  // The root's other spellings, found once here: on a Mac, reading the /private links for every
  // request would cost each three lookups.
  const aliases = aliasFamilies(converted.split, ctx.platform, ctx.spellings, ctx.fs);
  const requestCtx: StageContext = { ...ctx, role: 'request', root: converted.split, aliases, secrets: options.secrets };
  if (!ctx.fs) {
    return { ...converted, ctx, comparison, real: null, realPath: null, requestCtx, rootReal: undefined, rootPaths: { lexical: converted.split, real: null } };
  }
  // Links above and at the root are the user's own layout: followed without judgement.
  const resolved = resolveReal(ctx.fs, converted.split, ctx.platform, { followFinal: true });
  if (!resolved.ok) {
    return { ok: false, input: root, code: resolved.code, stage: 'realpath', reason: resolved.reason, stages: converted.stages, ctx };
  }
  // Spelt with long names on a Windows host, so a request by either spelling meets it (shortNames.ts).
  const real = spellLong(ctx.fs, resolved.value.real, ctx.platform).split;
  return {
    ...converted,
    ctx,
    comparison,
    real,
    realPath: joinSplit(real, ctx.platform),
    requestCtx,
    rootReal: { lexical: converted.split, real },
    rootPaths: { lexical: converted.split, real },
  };
}

/** The same root with a secrets policy made once its real path is known (a host's rules are read from the folder). */
export function withSecrets(root: Extract<PreparedRoot, { ok: true }>, secrets: SecretPolicy): Extract<PreparedRoot, { ok: true }> {
  return { ...root, requestCtx: { ...root.requestCtx, secrets } };
}
