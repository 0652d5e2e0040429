// The server's hook on the secrets policy: a path the core found held (ERR_SECRET, after
// containment, before any I/O) is allowed when the person consented, for this call or for the
// session; otherwise the call notes it, so that the protocol layer can ask the person
// (protocol/secretQuestions.ts). The answer only ever comes from the client's elicitation.
import { matchSecret, SECRET_DECISION_WORDS, separator, type Platform, type SecretMatch, type Trace } from '../../core/index.js';
import type { Grant } from '../grants.js';
import type { ServerRefusal } from '../refusals/refusal.js';

export type ConsentAccess = 'read' | 'change';

/** A path held by an `ask` pattern that this call needs, and what holds it. */
export interface HeldPath {
  readonly key: string;
  readonly workspace: string;
  readonly access: ConsentAccess;
  readonly match: SecretMatch;
}

/** What the person allowed for the session (stdio: one connection per process), per server state. */
const sessions = new WeakMap<object, Set<string>>();

export function sessionConsents(state: object): Set<string> {
  let granted = sessions.get(state);
  if (granted === undefined) sessions.set(state, (granted = new Set()));
  return granted;
}

type Recorder = (refusal: ServerRefusal, input: string) => void;

/** One call's consents: those given for this call only, and the held paths it met without one. */
export class CallConsent {
  readonly held = new Map<string, HeldPath>();
  /** The refusals of held paths, recorded once it is known whether the person is asked. */
  private readonly postponed: { readonly refusal: ServerRefusal; readonly input: string; readonly record: Recorder }[] = [];
  private settled = false;

  /** `asking`: the call is run by protocol/secretQuestions.ts, which settles what it held back. */
  constructor(
    private readonly session: ReadonlySet<string>,
    private readonly once: ReadonlySet<string> = new Set(),
    private readonly asking = false,
  ) {}

  /**
   * For a trace held by the secrets policy: allow when the person consented; ask (noted for the
   * question); deny for a host's deny rule, which no consent lifts.
   */
  decide(grant: Grant, trace: Trace, access: ConsentAccess): 'allow' | 'ask' | 'deny' {
    const match = trace.secret;
    if (match === null || match.decision === 'deny') return 'deny';
    // Keyed by what the pattern matched: the real path below the workspace.
    const key = JSON.stringify([grant.uri, access, match.path]);
    if (this.session.has(key) || this.once.has(key)) return 'allow';
    if (!this.held.has(key)) this.held.set(key, { key, workspace: grant.uri, access, match });
    return 'ask';
  }

  /** Holds back the refusal of a path the person may be asked about (true), until `settle`. */
  postpones(refusal: ServerRefusal, input: string, record: Recorder): boolean {
    if (!this.asking || this.settled || refusal.code !== 'ERR_SECRET' || refusal.trace?.secret?.decision !== 'ask') return false;
    this.postponed.push({ refusal, input, record });
    return true;
  }

  /**
   * Records what was held back: as asked (the person is being asked), as refused (no one could
   * be asked, or they refused: after `asked` too), or not at all (`answered`: asked in an earlier
   * round, and allowed).
   */
  settle(outcome: 'asked' | 'refused' | 'answered'): void {
    this.settled = true;
    if (outcome === 'answered') return;
    for (const { refusal, input, record } of this.postponed) record(outcome === 'asked' ? { ...refusal, event: 'asked' } : refusal, input);
  }
}

/**
 * Whether a file or folder met in a walk or a listing (`names` below the workspace's real path,
 * never reached through a link) is held for reading, by the policy the secrets stage applies:
 * a walk leaves its content out, and a listing marks its name, whatever was consented for one
 * path; asking is for the tools that name a path.
 */
export function heldInWalk(grant: Grant, platform: Platform, names: readonly string[], folder: boolean): SecretMatch | undefined {
  const policy = grant.root.requestCtx.secrets;
  if (policy === undefined || names.length === 0) return undefined;
  return matchSecret(policy, `${names.join('/')}${folder ? '/' : ''}`, 'read', [grant.realPath, ...names].join(separator(platform)));
}

/** How the secrets policy holds an entry for reading: asks first, or refused by policy. */
export type Held = SecretMatch['decision'];

/** A listing's mark after a held name, in its text: " (asks first)" or " (refused by policy)". */
export function heldMark(held: Held | undefined): string {
  return held === undefined ? '' : ` (${SECRET_DECISION_WORDS[held]})`;
}
