import type { Policy } from './types.js';
import { quoted } from './visible.js';

export const CASE_POLICIES: readonly Policy['case'][] = ['auto', 'sensitive', 'insensitive'];
export const SYMLINK_POLICIES: readonly Policy['symlinks'][] = ['contain', 'refuse'];

/** The policy flags every command line of this product takes, as given (strings unchecked). */
export interface PolicyFlags {
  readonly 'allow-localhost'?: boolean | undefined;
  readonly 'allow-unc'?: boolean | undefined;
  readonly case?: string | undefined;
  readonly symlinks?: string | undefined;
}

/** The policy the flags ask for (unset flags keep the defaults), or what is wrong with them. */
export function policyFromFlags(flags: PolicyFlags): { readonly policy: Partial<Policy> } | { readonly error: string } {
  const policy: { -readonly [K in keyof Policy]?: Policy[K] } = {};
  if (flags['allow-localhost']) policy.localhost = 'allow';
  if (flags['allow-unc']) policy.unc = 'allow';
  if (flags.case !== undefined) {
    if (!(CASE_POLICIES as readonly string[]).includes(flags.case)) {
      return { error: `--case must be one of ${CASE_POLICIES.join(', ')}; got ${quoted(flags.case)}` };
    }
    policy.case = flags.case as Policy['case'];
  }
  if (flags.symlinks !== undefined) {
    if (!(SYMLINK_POLICIES as readonly string[]).includes(flags.symlinks)) {
      return { error: `--symlinks must be one of ${SYMLINK_POLICIES.join(', ')}; got ${quoted(flags.symlinks)}` };
    }
    policy.symlinks = flags.symlinks as Policy['symlinks'];
  }
  return { policy };
}
