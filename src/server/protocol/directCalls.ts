import type { CallToolResult, JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import type { ProgressReport } from '../tools/callControl.js';
import type { CallOptions, Connection, Session } from './session.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type ProgressToken = string | number;

/** A 2025-11-25 progress token: a string or an integer. */
function isProgressToken(value: unknown): value is ProgressToken {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/** `_meta` the direct path serves as the SDK would: absent, or only a progress token (progress is sent from here). */
function isPlainMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  for (const key of Object.keys(meta)) if (key !== 'progressToken' || !isProgressToken(meta[key])) return false;
  return true;
}

/** The name and arguments of a call with nothing else in its params that the SDK would act on. */
function plainCall(params: unknown): { name: string; args: Record<string, unknown>; token: ProgressToken | undefined } | undefined {
  if (!isRecord(params) || typeof params.name !== 'string') return undefined;
  for (const key of Object.keys(params)) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined;
  const args = params.arguments ?? {};
  if (!isRecord(args) || !isPlainMeta(params._meta)) return undefined;
  const token = (params._meta as { progressToken?: ProgressToken } | undefined)?.progressToken;
  return { name: params.name, args, token };
}

/**
 * Answers `tools/call` on a connection opened with `initialize` (2025-11-25 and earlier) without
 * the SDK's per-request machinery, which parses each message against its JSON-RPC schemas several
 * times over, builds a context and an AbortController, and validates the result twice: more work
 * than a light call's own. Taken only once the client has sent `notifications/initialized`, and
 * only a call whose params hold nothing but a tool's name, arguments its input schema accepts,
 * and at most a progress token (the tool's progress is then sent from here, before its answer, as
 * the SDK's `ctx.mcpReq.notify` would); everything else goes on to the SDK, which answers it as it
 * always does. The answer is the one the SDK sends on this era: the tool's result as it is (every
 * structured result is an object, which the 2025 codec passes through), or a thrown error's
 * message as an isError result. A call cancelled by the client, or cut off by the connection
 * closing, is not answered. The results' shapes are checked against the advertised output
 * schemas by the tests (test/server/outputSchemas.test.ts). 2026-07-28 connections carry a
 * per-request envelope and may ask for input: they stay with the SDK.
 */
export class DirectCalls {
  private serving: { readonly connection: Connection; readonly schemas: ReadonlyMap<string, z.ZodObject> } | undefined;
  private readonly running = new Map<RequestId, { aborted: boolean }>();

  constructor(
    private readonly session: Session,
    private readonly send: (message: JSONRPCMessage) => Promise<void>,
    private readonly report: (error: Error) => void,
  ) {}

  /** Serves this connection's calls from now on (once the client has said it is initialised); undefined stops serving. */
  serve(connection: Connection | undefined): void {
    this.serving = connection === undefined ? undefined : { connection, schemas: this.session.inputSchemas(connection.era) };
  }

  /** Whether this answers `message`; false hands it on to the SDK. */
  take(message: JSONRPCMessage): boolean {
    if (!('method' in message)) return false;
    if (message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const call = this.running.get(requestId);
        if (call !== undefined) call.aborted = true;
      }
      return false;
    }
    const serving = this.serving;
    if (message.method !== 'tools/call' || !('id' in message) || serving === undefined) return false;
    const plain = plainCall(message.params);
    const schema = plain && serving.schemas.get(plain.name);
    if (plain === undefined || schema === undefined) return false;
    const parsed = schema.safeParse(plain.args);
    // The SDK words the validation error.
    if (!parsed.success) return false;
    this.start(message.id, plain.name, parsed.data, serving.connection, plain.token);
    return true;
  }

  /** The connection closed: calls still waiting for their turn never start. */
  close(): void {
    for (const call of this.running.values()) call.aborted = true;
    this.serving = undefined;
  }

  private start(id: RequestId, name: string, args: Record<string, unknown>, connection: Connection, token: ProgressToken | undefined): void {
    const cancel = { aborted: false };
    this.running.set(id, cancel);
    const options: CallOptions = {
      connection,
      signal: cancel,
      progress:
        token === undefined
          ? undefined
          : (report: ProgressReport) =>
              void this.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, ...report } }).catch((error: unknown) =>
                this.report(error instanceof Error ? error : new Error(String(error))),
              ),
    };
    const answer = (result: CallToolResult): Promise<void> | undefined => {
      if (this.running.get(id) === cancel) this.running.delete(id);
      if (cancel.aborted) return undefined;
      return this.send({ jsonrpc: '2.0', id, result });
    };
    this.session
      .call(name, args, options)
      .then(
        (result) => answer(result as CallToolResult),
        (error: unknown) => answer({ content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true }),
      )
      .catch((error: unknown) => this.report(error instanceof Error ? error : new Error(String(error))));
  }
}
