import type { ContentBlock, ToolAnnotations } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { isInside, quoted, quotedIfHidden, splitAbsolute, traceAgainst, withNearMisses, type OtherWorkspace, type Platform, type Trace } from '../../core/index.js';
import { OPERATIONS, PATH_TOOL_NAMES, type Operation, type ToolName } from '../../shared/operations.js';
import type { CallControl } from './callControl.js';
import { readOnlyReason, workspacesBeside } from '../../shared/grants.js';
import type { Grant } from '../grants.js';
import { refusalFromTrace, serverRefusal, type ServerRefusal } from '../refusals/refusal.js';
import type { RefusalLog } from '../refusals/refusalLog.js';
import type { SandboxState } from '../../host/protection.js';
import { errnoOf, fsError, HeldFolders, type Anchor, type CheckedPath, type WorkspaceChange } from '../fs/index.js';
import type { ReadMemory } from '../readMemory.js';
import type { ListingMemory } from '../listingMemory.js';
import type { AppView } from './appViews.js';
import { CallConsent, sessionConsents } from './secretConsent.js';

/** How the workspaces are watched from outside a sandbox: whether the granted path at an index still names its folder; `fresh` asks now (before a change). */
export interface WorkspaceWatch {
  changeOf(index: number, fresh: boolean): Promise<WorkspaceChange | undefined>;
}

export interface ServerState {
  readonly grants: readonly Grant[];
  readonly log: RefusalLog;
  readonly platform: Platform;
  readonly sandbox: SandboxState;
  /** What this connection read, for write_file and edit_file to refuse a file changed since (stdio: one connection per process). */
  readonly reads: ReadMemory;
  /** The folders this connection listed last, for a listing's next page. */
  readonly listings: ListingMemory;
  /** The launcher's word on the workspaces, outside a sandbox's own view (launcherChannel.ts); absent without a sandbox. */
  readonly host?: WorkspaceWatch;
  /** Logs go to stderr: stdout carries JSON-RPC only. */
  readonly logger: (message: string) => void;
}

/** A path as an operation would find it: the trace, and the refusal when there is one. Nothing is logged. */
export interface Judged {
  readonly trace: Trace;
  readonly refusal: ServerRefusal | null;
}

export type Checked =
  | { readonly ok: true; readonly path: string; readonly target: CheckedPath; readonly trace: Trace }
  | { readonly ok: false; readonly refusal: ServerRefusal; readonly input: string };

/** What a tool works with once its workspace is authorised: containment checks, logged when they refuse. */
export interface Scope {
  readonly grant: Grant;
  readonly state: ServerState;
  readonly tool: ToolName;
  /** The workspace root held open: every filesystem call after the verdict goes through it. */
  readonly anchor: Anchor;
  /** The call this scope serves: its cancellation, its progress, the point past which a change is made. */
  readonly call: CallControl;
  /**
   * Traces `input` against the workspace as the scope's tool does (its row in OPERATIONS: a link
   * at the last name followed or not, the read-only rule for a change); `options` overrides that
   * for a second path (move_file's destination). A refusal is logged.
   */
  check(input: string, options?: CheckOptions): Checked;
  /** Judges `input` exactly as `tool`'s own check would, without logging: what explain_path answers. */
  judge(input: string, tool: ToolName): Judged;
  /** Records a refusal that did not come from `check`. */
  record(refusal: ServerRefusal, input: string): void;
  /**
   * The error a call failed with, made useful when it is ENOENT for a path this scope checked and
   * found missing: it then names the entries the input nearly named ("Did you mean README.md?"),
   * and is recorded in the refusal log as a not-found event. Any other error is returned as it is.
   */
  notFound(error: unknown): unknown;
  relative(path: string): string;
  /** Whether a real path is the workspace folder itself, compared as the workspace compares names. */
  isWorkspaceRoot(path: string): boolean;
  /** The call ended: the folders its checked paths opened are closed. */
  end(): void;
}

export type Outcome =
  | {
      readonly kind: 'ok';
      readonly structured: Record<string, unknown>;
      readonly text: string;
      readonly content?: readonly ContentBlock[];
      /** What only a view reads (never the model): the result's `_meta`. */
      readonly meta?: Record<string, unknown>;
    }
  | { readonly kind: 'refused'; readonly refusal: ServerRefusal; readonly input: string };

export function ok(structured: Record<string, unknown>, text: string, content?: readonly ContentBlock[]): Outcome {
  return content ? { kind: 'ok', structured, text, content } : { kind: 'ok', structured, text };
}

export function refused(checked: Extract<Checked, { ok: false }>): Outcome {
  return { kind: 'refused', refusal: checked.refusal, input: checked.input };
}

/** MCP's hints for a tool that changes the workspace. */
export interface ChangeHints {
  /** It may remove or replace what was there. */
  readonly destructive: boolean;
  /** Repeating it with the same arguments changes nothing more. */
  readonly idempotent: boolean;
}

/**
 * Everything about one tool. Its operation (how it judges a path, whether it changes the
 * workspace) is its row in OPERATIONS, which explain_path and the inspector read too; its rights,
 * its annotations and its gate are derived from that row and from `heavy`.
 */
export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  /** Fields besides workspaceUri, which every workspace tool takes. */
  readonly input: Shape;
  /**
   * The structured result. Null for a tool whose result is content (a file's text): it is then
   * sent once, as the result's text, with no output schema and no structured result, because
   * clients that have a structured result show it to the model instead of the text (VS Code does).
   */
  readonly output: z.ZodObject | null;
  /** Its work or its answer can reach megabytes: it waits its turn among MAX_HEAVY_CALLS. */
  readonly heavy: boolean;
  /** It walks the whole workspace, with its memory bounded: it waits among MAX_LONG_CALLS instead, so no other call waits for it. */
  readonly long?: true;
  /** For a tool that changes the workspace, and only for one. */
  readonly hints?: ChangeHints;
  /** The MCP Apps view that draws its result, for a client that shows them (appViews.ts). */
  readonly view?: AppView;
  /** Called by a view only: listed with `_meta.ui.visibility: ["app"]`, which hosts keep from the model. */
  readonly appOnly?: true;
  run(args: z.infer<z.ZodObject<Shape>>, scope: Scope): Promise<Outcome>;
}

export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition<Shape> {
  if (OPERATIONS[definition.name].changes !== (definition.hints !== undefined)) {
    throw new Error(`${definition.name}: a tool has change hints exactly when its operation changes the workspace`);
  }
  return definition;
}

/** A change needs a read-write grant. */
export function accessOf(tool: ToolDefinition): 'read' | 'write' {
  return OPERATIONS[tool.name].changes ? 'write' : 'read';
}

/** The annotations tools/list carries, from the operation and the hints. */
export function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  const hints = tool.hints ?? { destructive: false, idempotent: true };
  return { readOnlyHint: !OPERATIONS[tool.name].changes, destructiveHint: hints.destructive, idempotentHint: hints.idempotent, openWorldHint: false };
}

/** Every path argument; what a path may be is said once, in list_workspaces' description. */
export const pathField = z.string();

/**
 * A tool of this server whose judgement of a path is asked for (explain_path, compare_deciders).
 * A string, not an enum of the tool names: the list would cost more than the rest of the definition.
 */
export const pathToolField = z.string().refine((name) => (PATH_TOOL_NAMES as readonly string[]).includes(name), { message: `must be one of ${PATH_TOOL_NAMES.join(', ')}` });

/** A continuation, for the tools whose answers have a budget (ANSWER_BUDGET_BYTES); the answer cut short says how to pass it. */
export const cursorField = z.string().optional();

/** Overrides of the scope's own operation, for a path the tool treats otherwise. */
export interface CheckOptions {
  /** Follow a link at the last name; false when the link itself is the subject. */
  readonly followFinal?: boolean;
  /** The change removes or replaces the target with everything below it (delete, move, write over it). */
  readonly replaces?: boolean;
}

/** The other granted workspaces, for near misses that lie in one of them. */
export function otherWorkspaces(state: ServerState, grant: Grant): OtherWorkspace[] {
  return workspacesBeside(state.grants, grant.uri);
}

/** What one call's scope is made of. */
export interface ScopeOptions {
  readonly state: ServerState;
  readonly grant: Grant;
  readonly anchor: Anchor;
  readonly tool: ToolName;
  readonly workspaceUri: string;
  readonly call: CallControl;
  /** Where the scope's refusals go (recorder). */
  readonly record: (refusal: ServerRefusal, input: string) => void;
  /** The person's consents for this call, and the secrets it met without one. */
  readonly consent?: CallConsent;
}

export function makeScope({ state, grant, anchor, tool, workspaceUri, call, record: recordNow, consent = new CallConsent(sessionConsents(state)) }: ScopeOptions): Scope {
  const own = OPERATIONS[tool];
  // A held secret's refusal waits for the person's answer: recorded only if the call is refused.
  const record = (refusal: ServerRefusal, input: string): void => {
    if (!consent.postpones(refusal, input, recordNow)) recordNow(refusal, input);
  };
  // The folders the checked paths lead to, each opened once for the call.
  const held = new HeldFolders();
  // A path the call will act on is looked up through the folder it opens for that: one walk.
  const lookup = (path: string) => anchor.lookup(path, held);
  // `acting`: the call's own check of a path it will act on, which a consent may let past a secret.
  const judgeAs = (input: string, as: string, operation: Omit<Operation, 'acts'>, acting?: { readonly consent: CallConsent }): Judged => {
    const access = operation.changes ? 'change' : 'read';
    const trace = traceAgainst(grant.root, input, { followFinal: operation.followFinal, access, ...(acting !== undefined ? { lookup } : {}) });
    // A held secret goes on only with the person's consent, and then meets the grant's rights.
    const lifted = trace.code === 'ERR_SECRET' && acting !== undefined && acting.consent.decide(grant, trace, access) === 'allow';
    if ((trace.verdict !== 'inside' && !lifted) || trace.path === null) return { trace, refusal: refusalFromTrace(trace) };
    const readOnly = operation.changes ? readOnlyReason(state.grants, state.platform, as, trace.path, operation.replaces) : undefined;
    if (readOnly === undefined) return { trace, refusal: null };
    return { trace, refusal: { ...serverRefusal('ERR_READ_ONLY', readOnly), path: trace.path, trace } };
  };
  // The paths this call checked and found nothing at, by path: a later ENOENT for one is explained.
  const missing = new Map<string, { readonly input: string; readonly trace: Trace }>();
  const sep = state.platform === 'win32' ? '\\' : '/';
  const relative = (path: string) => {
    // For display only: containment was decided by the core.
    const base = grant.realPath;
    if (path === base) return '.';
    return path.startsWith(base + sep) ? path.slice(base.length + 1) : path;
  };
  const check = (input: string, options: CheckOptions = {}): Checked => {
    const { trace, refusal } = judgeAs(input, tool, {
      followFinal: options.followFinal ?? own.followFinal,
      changes: own.changes,
      replaces: options.replaces ?? own.replaces,
    }, { consent });
    if (refusal === null) {
      if (trace.kind === 'missing' && missing.size < MAX_EXPLAINED_MISSING) missing.set(trace.path!, { input, trace });
      return { ok: true, path: trace.path!, target: anchor.checked(trace.path!, held), trace };
    }
    record(refusal, input);
    return { ok: false, refusal, input };
  };
  return {
    grant,
    state,
    tool,
    anchor,
    call,
    check,
    judge: (input, as) => judgeAs(input, as, OPERATIONS[as]),
    record,
    notFound(error) {
      const path = (error as { path?: unknown } | null)?.path;
      if (errnoOf(error) !== 'ENOENT' || typeof path !== 'string') return error;
      // The path itself, or the first folder of it that is not there.
      const asked = missing.get(path) ?? [...missing].find(([checked]) => checked.startsWith(path + sep))?.[1];
      if (asked === undefined) return error;
      // Bounded as a refusal's are (DEFAULT_MAX_NAMES names read), and only on this failure path.
      const trace = withNearMisses(asked.trace, grant.root, { otherWorkspaces: otherWorkspaces(state, grant) });
      const suggestions = trace.nearMisses.slice(0, MAX_SUGGESTED).map((miss) => (miss.why === 'workspace' ? miss.uri : relative(miss.path)));
      // Relative, as every path in a result is: the model named it that way.
      const reason = `${quotedIfHidden(relative(path))} does not exist${suggestions.length === 0 ? '' : `. Did you mean ${orList(suggestions)}?`}`;
      void state.log.recordNotFound(tool, workspaceUri, asked.input, reason, trace);
      return Object.assign(fsError('ENOENT', reason), { display: true, path });
    },
    isWorkspaceRoot(path) {
      const split = splitAbsolute(path, state.platform);
      const root = grant.root.real ?? grant.root.split;
      return split !== null && split.names.length === root.names.length && isInside(root, split, grant.root.comparison);
    },
    relative,
    end: () => held.close(),
  };
}

/** Near misses named in a not-found answer: the model needs the likeliest few, not all ten. */
const MAX_SUGGESTED = 3;
/** Missing paths one call remembers for explaining (read_multiple_files checks many). */
const MAX_EXPLAINED_MISSING = 64;

/** "a, b or c", each quoted as JSON when it holds a space, a quote or a hidden character, so the list reads unambiguously. */
function orList(items: readonly string[]): string {
  const shown = items.map((item) => (/[\s"',]/.test(item) ? quoted(item) : quotedIfHidden(item)));
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}
