import { firstDifference } from '../containment.js';
import { joinSplit, type SplitPath } from '../paths.js';
import { matchSecret, secretReason, type SecretAccess, type SecretPolicy } from '../secrets.js';
import { passed, refused, skipped, type StageContext, type StageOutcome } from '../stage.js';
import type { SecretMatch } from '../types.js';
import type { RootPaths } from './containment.js';
import type { Realised } from './realpath.js';

/** Names of `split` below `root`, `/` between them, a folder's with a trailing `/`; containment has shown it is below. */
function below(root: SplitPath, split: SplitPath, folder: boolean): string {
  const names = split.names.slice(root.names.length).join('/');
  return folder && names !== '' ? `${names}/` : names;
}

/**
 * Stage 8: a path inside is held when a secret pattern matches it, as its real path names it or as
 * it was written (a link to a secret, or a link named like one). Asks first, or refused by a
 * host's deny rule; the trace's `secret` says which.
 */
export function secrets(
  realised: Realised,
  ctx: StageContext,
  root: RootPaths,
  access: SecretAccess,
  policy: SecretPolicy | undefined,
): { readonly outcome: StageOutcome<null>; readonly match: SecretMatch | null } {
  const input = realised.real ? joinSplit(realised.real, ctx.platform) : realised.path;
  if (policy === undefined) return { outcome: skipped('secrets', { input, output: 'not held', rule: 'no secrets policy: only the tools of this server apply one' }, null), match: null };
  const rule = `the secret patterns for ${access === 'read' ? 'reading' : 'changing'} (${policy.rules.length}${policy.deny ? ', and the host\'s deny rules' : ''}), relative to the workspace, case ignored`;
  const folder = realised.kind === 'directory';
  const candidates: string[] = [];
  if (realised.real && root.real) candidates.push(below(root.real, realised.real, folder));
  // Written inside the root as given, or (through a link above it) inside its real path.
  const lexicalRoot = firstDifference(root.lexical, realised.split, realised.comparison) === undefined ? root.lexical : (root.real ?? root.lexical);
  const lexical = below(lexicalRoot, realised.split, folder && !realised.real);
  if (!candidates.includes(lexical)) candidates.push(lexical);
  for (const candidate of candidates) {
    const match = matchSecret(policy, candidate, access, candidate === candidates[0] ? input : undefined);
    if (match === undefined) continue;
    const reason = secretReason(match, access);
    return { outcome: refused('secrets', { input, rule: `${rule}: ${match.pattern} (${match.source})` }, 'ERR_SECRET', reason), match };
  }
  return { outcome: passed('secrets', { input, output: 'not held', rule }, null), match: null };
}
