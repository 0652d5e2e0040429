import { McpServer, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { rootToPath, visible } from '../../core/index.js';
import { ChangedError } from '../fs/index.js';
import { CallControl, type CallContext } from '../tools/callControl.js';
import { heavyCalls, lightCalls, longCalls } from './callGate.js';
import { sameWorkspace, type Grant } from '../grants.js';
import { chooseFromRoots } from './legacyRoots.js';
import { boundedFailure, MAX_ERROR_FIELD_CHARS, truncated } from '../limits.js';
import { refusalResult, serverRefusal, workspaceChangeRefusal, type ServerRefusal } from '../refusals/refusal.js';
import { RefusalNotices } from './refusalNotices.js';
import { SecretQuestions } from './secretQuestions.js';
import { registerResources } from './resources.js';
import type { Era } from './era.js';
import { listedSchema } from './listedSchema.js';
import { accessOf, annotationsOf, makeScope, toResult, workspaceNow, type ServerState, type ToolDefinition } from '../tools/tool.js';
import { listWorkspaces } from '../tools/listWorkspaces.js';
import { toolMeta, UI_EXTENSION, VIEW_MIME_TYPE } from '../tools/appViews.js';
import { WORKSPACE_TOOLS } from '../tools/index.js';

export const SERVER_NAME = 'boundary-inspector';
declare const PACKAGE_VERSION: string;
const VERSION = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : '0.0.0-dev';

export type { Era };

export const INSTRUCTIONS =
  'Filesystem tools over the workspaces the user granted. Call list_workspaces first, then pass one of its URIs as ' +
  'workspaceUri on every call (the workspace folder itself, never a folder inside it); paths are relative to that ' +
  'workspace. A refusal names its code, stage and reason: call explain_path with the same path to see every stage.';

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

/**
 * The grant each workspaceUri spelling was authorised for: converting a URI is a good part of a
 * light call's checks, and a client names the same one on every call. Only grants are kept, and
 * only a few spellings of ordinary length (a client that sends others only costs itself the
 * conversion).
 */
const authorizedGrants = new WeakMap<ServerState, Map<string, Grant>>();
const MAX_AUTHORIZED_SPELLINGS = 64;
const MAX_KEPT_URI_CHARS = 4096;

/** Authorization: the named workspace must be a granted folder itself, compared name by name after normalisation, never by prefix. */
export function authorize(state: ServerState, workspaceUri: string): { grant: Grant } | { refusal: ServerRefusal } {
  let known = authorizedGrants.get(state);
  const cached = known?.get(workspaceUri);
  if (cached !== undefined) return { grant: cached };
  const decided = authorizeOnce(state, workspaceUri);
  if ('grant' in decided && workspaceUri.length <= MAX_KEPT_URI_CHARS) {
    if (known === undefined) authorizedGrants.set(state, (known = new Map()));
    if (known.size >= MAX_AUTHORIZED_SPELLINGS) known.clear();
    known.set(workspaceUri, decided.grant);
  }
  return decided;
}

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

async function dispatch(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  ctx: ServerContext | undefined,
  call: CallContext | undefined,
  state: ServerState,
  notices: RefusalNotices,
  questions: SecretQuestions,
): Promise<CallToolResult | InputRequiredResult> {
  const given = typeof args.workspaceUri === 'string' ? args.workspaceUri : null;
  const input = inputOf(args);
  // Every refusal goes to the refusal log and to the client, as a notice.
  const onRefusal = notices.listenerFor(ctx);
  const refuse = (refusal: ServerRefusal, workspaceUri: string | null) => {
    onRefusal(tool.name, workspaceUri, input, refusal);
    void state.log.record(tool.name, workspaceUri, input, refusal);
    return refusalResult(refusal, input, workspaceUri);
  };

  let grant: Grant;
  if (given === null) {
    if (ctx === undefined) throw new Error(`${tool.name} was called without workspaceUri and without the SDK's request context`);
    const choice = chooseFromRoots(ctx, state.grants);
    if (choice.kind === 'ask') return choice.result;
    if (choice.kind === 'refused') return refuse(choice.refusal, null);
    grant = choice.grant;
  } else {
    const authorized = authorize(state, given);
    if ('refusal' in authorized) return refuse(authorized.refusal, given);
    grant = authorized.grant;
  }
  const workspaceUri = given ?? grant.uri;
  // The granted path must still name the folder held open, or nothing is read or changed there.
  const current = await workspaceNow(state, grant, accessOf(tool) === 'write');
  if ('change' in current) return refuse(workspaceChangeRefusal(current.change), workspaceUri);
  // Run again, once the person consented, for a secret it met (secretQuestions.ts).
  return questions.settle(state, ctx, async (consent) => {
    const scope = makeScope({ state, grant, anchor: current.anchor, tool: tool.name, workspaceUri, call: new CallControl(call), onRefusal, consent });
    try {
      const outcome = await tool.run(args as never, scope);
      return outcome.kind === 'ok' ? toResult(outcome, tool.output !== null) : refusalResult(outcome.refusal, outcome.input, workspaceUri);
    } catch (error) {
      return errorResult(scope.notFound(error));
    }
  });
}

/** A tool's call as both paths run it: the SDK's handler, and the direct path of directCalls.ts. */
export interface ToolCall {
  readonly inputSchema: z.ZodObject;
  /** `ctx` is the SDK's request context; the direct path has none, and takes only calls that name their workspace. */
  run(args: Record<string, unknown>, call: CallContext | undefined, ctx: ServerContext | undefined): Promise<CallToolResult | InputRequiredResult>;
}

/** The cancellation and progress sender of a call the SDK serves. */
function callContextOf(ctx: ServerContext): CallContext {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return { signal: ctx.mcpReq.signal };
  return {
    signal: ctx.mcpReq.signal,
    // Sent before the handler returns, so before its answer (the transport writes in call order).
    sendProgress: (report) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...report } }).catch(() => undefined),
  };
}

/**
 * Every tool's input schema and call, for one era: on 2025-11-25 workspaceUri is required.
 * `notices` sends the connection's refusals to its client; createServer attaches it to the server.
 */
export function toolCalls(state: ServerState, era: Era, notices: RefusalNotices = new RefusalNotices(era)): ReadonlyMap<string, ToolCall> {
  // What it is, and that it is always given, is said once, in list_workspaces' description: on
  // 2026-07-28 it may be left out for the legacy roots adapter, but never needs to be.
  const workspaceUri = era === 'legacy' ? z.string() : z.string().optional();
  const questions = new SecretQuestions(era, () => notices.connection);
  const calls = new Map<string, ToolCall>();
  calls.set(listWorkspaces.name, {
    inputSchema: z.object({}),
    run: async () => {
      const { structured, text } = listWorkspaces.run(state);
      return { content: [{ type: 'text', text }], structuredContent: structured };
    },
  });
  for (const tool of WORKSPACE_TOOLS) {
    // Heavy tools run long enough to report progress or to be stopped part way; a change stops
    // for a cancel that arrives before it is made.
    const cancellable = tool.heavy || accessOf(tool) === 'write';
    const gate = tool.long ? longCalls : tool.heavy ? heavyCalls : lightCalls;
    calls.set(tool.name, {
      // Loose: a name no longer listed (read_text_file's head and tail) still reaches the tool, which says what it became.
      inputSchema: z.looseObject({ workspaceUri, ...tool.input }),
      run: async (args, call, ctx) => {
        const result = await gate.run(() => dispatch(tool, args, ctx, cancellable ? call : undefined, state, notices, questions), call?.signal);
        // A refusal's log line is on disk before the client sees the refusal.
        await state.log.settled();
        return boundedFailure(result);
      },
    });
  }
  return calls;
}

/**
 * One server per connection. On a 2025-11-25 connection workspaceUri is required by the schema;
 * on 2026-07-28 it may be omitted, and the legacy roots adapter then asks the client's roots
 * through MRTR to choose among the grants.
 */
export function createServer(
  state: ServerState,
  era: Era,
  notices: RefusalNotices = new RefusalNotices(era),
  calls: ReadonlyMap<string, ToolCall> = toolCalls(state, era, notices),
): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: VERSION },
    {
      // logging: each refusal is also sent to the client as a warning (refusalNotices.ts). The
      // tool list never changes (the SDK would otherwise declare listChanged: true). MCP Apps:
      // two tools name a view, and the view calls one the model is not shown (tools/appViews.ts).
      capabilities: { tools: { listChanged: false }, logging: {}, extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } },
      instructions: INSTRUCTIONS,
      // Never turn input_required into a live server-to-client roots/list request.
      inputRequired: { legacyShim: false },
    },
  );
  const callNamed = (name: string) => calls.get(name)!;

  server.registerTool(
    listWorkspaces.name,
    {
      title: listWorkspaces.title,
      description: listWorkspaces.description,
      inputSchema: listedSchema(callNamed(listWorkspaces.name).inputSchema),
      outputSchema: listedSchema(listWorkspaces.output),
      annotations: listWorkspaces.annotations,
    },
    (args, ctx) => callNamed(listWorkspaces.name).run(args, { signal: ctx.mcpReq.signal }, ctx),
  );

  for (const tool of WORKSPACE_TOOLS) {
    const call = callNamed(tool.name);
    const meta = toolMeta(tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: listedSchema(call.inputSchema),
        // A tool whose result is content has none: its text is the answer. A refusal is an error
        // result, which no output schema describes (its details are in _meta).
        ...(tool.output !== null ? { outputSchema: listedSchema(tool.output) } : {}),
        annotations: annotationsOf(tool),
        ...(meta !== undefined ? { _meta: meta } : {}),
      },
      (args, ctx) => call.run(args as Record<string, unknown>, callContextOf(ctx), ctx),
    );
  }
  notices.attach(server);
  registerResources(server, state, notices.listenerFor(undefined));
  return server;
}
