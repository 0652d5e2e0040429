import type { CallToolResult, ContentBlock, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { rootToPath, visible, withNearMisses, type Platform } from '../../core/index.js';
import type { ToolName } from '../../shared/operations.js';
import type { SandboxState } from '../../host/protection.js';
import type { CancelSignal } from '../cancellation.js';
import { ChangedError, currentAnchor, type Anchor, type WorkspaceChange } from '../fs/index.js';
import { sameWorkspace, type Grant } from '../grants.js';
import { boundedFailure, MAX_ERROR_FIELD_CHARS, truncated } from '../limits.js';
import { ListingMemory } from '../listingMemory.js';
import { ReadMemory } from '../readMemory.js';
import { refusalResult, serverRefusal, workspaceChangeRefusal, type ServerRefusal } from '../refusals/refusal.js';
import type { RefusalLog } from '../refusals/refusalLog.js';
import { CallControl, type CallContext, type ProgressReport } from '../tools/callControl.js';
import { WORKSPACE_TOOLS } from '../tools/index.js';
import { listWorkspaces } from '../tools/listWorkspaces.js';
import { accessOf, makeScope, otherWorkspaces, type Outcome, type ServerState, type ToolDefinition, type WorkspaceWatch } from '../tools/tool.js';
import { heavyCalls, lightCalls, longCalls } from './callGate.js';
import type { Era } from './era.js';
import { chooseFromRoots } from './legacyRoots.js';
import { RefusalNotices, type RefusalListener } from './refusalNotices.js';
import { SecretQuestions } from './secretQuestions.js';

/** What a session serves: the grants, the platform they are judged on, and how the process is protected. */
export interface SessionOptions {
  readonly grants: readonly Grant[];
  readonly platform: Platform;
  readonly sandbox: SandboxState;
}

/**
 * What differs between the process at a terminal, the process inside a sandbox and a test: each
 * a named port, everything else built here.
 */
export interface SessionPorts {
  /** Where refusals go: a file, or the launcher's channel. */
  readonly refusals: RefusalLog;
  /** The launcher's word on the workspaces; absent, each anchor's own check is all. */
  readonly workspaces?: WorkspaceWatch;
  /** Logs go to stderr: stdout carries JSON-RPC only. */
  readonly logger: (message: string) => void;
  readonly reads?: ReadMemory;
  readonly listings?: ListingMemory;
}

/** One client's connection: where its refusal notices go, and how its person is asked about a secret. */
export class Connection {
  readonly notices: RefusalNotices;
  readonly questions: SecretQuestions;

  constructor(readonly era: Era) {
    this.notices = new RefusalNotices(era);
    this.questions = new SecretQuestions(era, () => this.notices.connection);
  }
}

/** What one call's caller gives besides the tool's name and arguments. */
export interface CallOptions {
  readonly connection: Connection;
  readonly signal?: CancelSignal | undefined;
  /** Sends one progress notification; absent when the request carried no progress token. */
  readonly progress?: ((report: ProgressReport) => void) | undefined;
  /** The SDK's request context: the roots of a call without workspaceUri, a 2026-07-28 call's notices and answers. */
  readonly request?: ServerContext | undefined;
}

type Result = CallToolResult | InputRequiredResult;

export interface Session {
  readonly state: ServerState;
  /** Each tool's input schema on this era: on 2025-11-25 workspaceUri is required. */
  inputSchemas(era: Era): ReadonlyMap<string, z.ZodObject>;
  /**
   * A tool's whole call, for every door: authorise, check the workspace is still there, make the
   * scope, wait for the gate, run the tool, record a refusal, shape the result, wait for the
   * log, bound a failure. `args` passed the tool's input schema.
   */
  call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<Result>;
}

const TOOLS = new Map<string, ToolDefinition>(WORKSPACE_TOOLS.map((tool) => [tool.name, tool]));

/** Only a few workspaceUri spellings of ordinary length are kept authorised (a client that sends others only costs itself the conversion). */
const MAX_AUTHORIZED_SPELLINGS = 64;
const MAX_KEPT_URI_CHARS = 4096;

function inputOf(args: Record<string, unknown>): string {
  for (const key of ['path', 'source', 'paths']) {
    const value = args[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.join(', ');
  }
  return '';
}

function errorResult(error: unknown): CallToolResult {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof ChangedError || !(error instanceof Error) ? String((error as Error).message ?? error) : error.message;
  // An errno message names the path, which may be as long as a message allows.
  // One line of prose: a path it names may hold what would forge lines, so it is escaped.
  return { isError: true, content: [{ type: 'text', text: `Error${code ? ` (${code})` : ''}: ${visible(truncated(message, MAX_ERROR_FIELD_CHARS))}` }] };
}

/** Authorization: the named workspace must be a granted folder itself, compared name by name after normalisation, never by prefix. */
function authorizeOnce(state: ServerState, workspaceUri: string): { grant: Grant } | { refusal: ServerRefusal } {
  const platform = state.platform;
  const policy = state.grants[0]?.root.ctx.policy;
  const spellings = state.grants[0]?.root.ctx.spellings;
  const converted = rootToPath(workspaceUri, { platform, ...(policy ? { policy } : {}), ...(spellings ? { spellings } : {}) });
  if (!converted.ok) {
    return {
      refusal: {
        code: converted.code,
        stage: 'root',
        reason: `The workspaceUri is refused at ${converted.stage}: ${converted.reason}`,
        path: null,
        trace: null,
      },
    };
  }
  const grant = state.grants.find((candidate) => sameWorkspace(candidate.root, converted.path));
  if (grant) return { grant };
  return {
    refusal: serverRefusal(
      'ERR_NOT_GRANTED',
      `${workspaceUri} (${converted.path}) is not a granted workspace; a folder inside a granted one is not a grant either. Granted: ${state.grants.map((candidate) => candidate.uri).join(', ')}.`,
    ),
  };
}

/**
 * The one recorder of a call's refusals: to the client (`onRefusal`, its notices) and to the
 * refusal log, with the entries a refused path nearly named when there is a grant to look in.
 */
function recorder(state: ServerState, tool: ToolName, workspaceUri: string | null, onRefusal: RefusalListener, grant?: Grant): (refusal: ServerRefusal, input: string) => void {
  return (refusal, input) => {
    onRefusal(tool, workspaceUri, input, refusal);
    // For the log's reader, only for a path the boundary refused (not for the grant's rights): bounded
    // (DEFAULT_MAX_NAMES names read), and looked for only when there is a log to write them to.
    const trace = refusal.trace;
    const logged =
      grant !== undefined && state.log.file !== undefined && trace !== null && trace.verdict !== 'inside'
        ? { ...refusal, trace: withNearMisses(trace, grant.root, { otherWorkspaces: otherWorkspaces(state, grant) }) }
        : refusal;
    void state.log.record(tool, workspaceUri, input, logged);
  };
}

/** A tool's answer as MCP carries it: its content, the text last, and its structured result where it has an output schema. */
function toResult(outcome: Extract<Outcome, { kind: 'ok' }>, structured: boolean): CallToolResult {
  const content: ContentBlock[] = [...(outcome.content ?? []), { type: 'text', text: outcome.text }];
  const result: CallToolResult = structured ? { content, structuredContent: outcome.structured } : { content };
  return outcome.meta !== undefined ? { ...result, _meta: outcome.meta } : result;
}

/**
 * The anchor of a grant whose path still names the folder the server holds, as the host sees it
 * (a sandbox's own view hides changes made outside it; asked afresh for a call that `changes`)
 * and as this process sees it; or what happened to that folder.
 */
export async function workspaceNow(state: ServerState, grant: Grant, changes: boolean): Promise<{ anchor: Anchor } | { change: WorkspaceChange }> {
  if (state.host !== undefined) {
    const change = await state.host.changeOf(state.grants.indexOf(grant), changes);
    if (change !== undefined) return { change };
  }
  return currentAnchor(grant, state.platform);
}

/** The one place a server's state is built, and the one pipeline every tool call goes through. */
export function createSession({ grants, platform, sandbox }: SessionOptions, ports: SessionPorts): Session {
  const state: ServerState = {
    grants,
    platform,
    sandbox,
    log: ports.refusals,
    logger: ports.logger,
    reads: ports.reads ?? new ReadMemory(),
    listings: ports.listings ?? new ListingMemory(),
    ...(ports.workspaces !== undefined ? { host: ports.workspaces } : {}),
  };

  // The grant each workspaceUri spelling was authorised for: converting a URI is a good part of a
  // light call's checks, and a client names the same one on every call.
  const authorized = new Map<string, Grant>();
  const authorize = (workspaceUri: string): { grant: Grant } | { refusal: ServerRefusal } => {
    const cached = authorized.get(workspaceUri);
    if (cached !== undefined) return { grant: cached };
    const decided = authorizeOnce(state, workspaceUri);
    if ('grant' in decided && workspaceUri.length <= MAX_KEPT_URI_CHARS) {
      if (authorized.size >= MAX_AUTHORIZED_SPELLINGS) authorized.clear();
      authorized.set(workspaceUri, decided.grant);
    }
    return decided;
  };

  const schemas = new Map<Era, ReadonlyMap<string, z.ZodObject>>();
  const inputSchemas = (era: Era) => {
    let known = schemas.get(era);
    if (known === undefined) {
      // What it is, and that it is always given, is said once, in list_workspaces' description: on
      // 2026-07-28 it may be left out for the legacy roots adapter, but never needs to be.
      const workspaceUri = era === 'legacy' ? z.string() : z.string().optional();
      // Loose: a name no longer listed (read_text_file's head and tail) still reaches the tool, which says what it became.
      known = new Map([[listWorkspaces.name, z.object({})], ...WORKSPACE_TOOLS.map((tool) => [tool.name, z.looseObject({ workspaceUri, ...tool.input })] as const)]);
      schemas.set(era, known);
    }
    return known;
  };

  const run = async (tool: ToolDefinition, args: Record<string, unknown>, call: CallContext | undefined, { connection, request }: CallOptions): Promise<Result> => {
    const given = typeof args.workspaceUri === 'string' ? args.workspaceUri : null;
    const input = inputOf(args);
    // Every refusal goes to the refusal log and to the client, as a notice.
    const onRefusal = connection.notices.listenerFor(request);
    const refused = (refusal: ServerRefusal, workspaceUri: string | null) => {
      recorder(state, tool.name, workspaceUri, onRefusal)(refusal, input);
      return refusalResult(refusal, input, workspaceUri);
    };

    let grant: Grant;
    if (given === null) {
      if (request === undefined) throw new Error(`${tool.name} was called without workspaceUri and without the SDK's request context`);
      const choice = chooseFromRoots(request, state.grants);
      if (choice.kind === 'ask') return choice.result;
      if (choice.kind === 'refused') return refused(choice.refusal, null);
      grant = choice.grant;
    } else {
      const decided = authorize(given);
      if ('refusal' in decided) return refused(decided.refusal, given);
      grant = decided.grant;
    }
    const workspaceUri = given ?? grant.uri;
    // The granted path must still name the folder held open, or nothing is read or changed there.
    const current = await workspaceNow(state, grant, accessOf(tool) === 'write');
    if ('change' in current) return refused(workspaceChangeRefusal(current.change), workspaceUri);
    const record = recorder(state, tool.name, workspaceUri, onRefusal, grant);
    // Run again, once the person consented, for a secret it met (secretQuestions.ts).
    return connection.questions.settle(state, request, async (consent) => {
      const scope = makeScope({ state, grant, anchor: current.anchor, tool: tool.name, workspaceUri, call: new CallControl(call), record, consent });
      try {
        const outcome = await tool.run(args as never, scope);
        return outcome.kind === 'ok' ? toResult(outcome, tool.output !== null) : refusalResult(outcome.refusal, outcome.input, workspaceUri);
      } catch (error) {
        return errorResult(scope.notFound(error));
      } finally {
        scope.end();
      }
    });
  };

  return {
    state,
    inputSchemas,
    async call(name, args, options) {
      if (name === listWorkspaces.name) {
        const { structured, text } = listWorkspaces.run(state);
        return { content: [{ type: 'text', text }], structuredContent: structured };
      }
      const tool = TOOLS.get(name);
      if (tool === undefined) throw new Error(`Tool ${name} not found`);
      // Heavy tools run long enough to report progress or to be stopped part way; a change stops
      // for a cancel that arrives before it is made.
      const cancellable = tool.heavy || accessOf(tool) === 'write';
      const call: CallContext | undefined = cancellable ? { signal: options.signal, ...(options.progress !== undefined ? { sendProgress: options.progress } : {}) } : undefined;
      const gate = tool.long ? longCalls : tool.heavy ? heavyCalls : lightCalls;
      const result = await gate.run(() => run(tool, args, call, options), options.signal);
      // A refusal's log line is on disk before the client sees the refusal.
      await state.log.settled();
      return boundedFailure(result);
    },
  };
}
