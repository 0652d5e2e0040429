import type { Readable, Writable } from 'node:stream';
import { JSONRPC_VERSION, parseJSONRPCMessage, type JSONRPCMessage, type JSONRPCRequest, type RequestId, type Transport } from '@modelcontextprotocol/server';
import { formatBytes, MAX_MESSAGE_BYTES, MAX_OUTPUT_BACKLOG, MAX_PENDING_BYTES, MAX_PENDING_REQUESTS, MAX_SENT_BYTES } from '../limits.js';
import { IdScanner, isRequestId } from './idScanner.js';
import { invalidParams } from './invalidParams.js';

/** JSON-RPC 2.0 error codes (section 5.1); -32000 is in the range left to servers. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const SERVER_BUSY = -32000;

export interface LineTransportOptions {
  readonly maxMessageBytes?: number;
  readonly maxSentBytes?: number;
  readonly maxBacklog?: number;
  readonly maxPendingRequests?: number;
  readonly maxPendingBytes?: number;
  /** Called when the output backlog has drained, so work held back for it can start. */
  readonly ondrain?: () => void;
  /** Called when the last request read has been answered. */
  readonly onidle?: () => void;
  /** Sees each message first, once it is counted; true when it answers the message itself. */
  readonly intercept?: (message: JSONRPCMessage) => boolean;
  /** Called when the connection closes, before the SDK hears of it. */
  readonly onclose?: () => void;
}

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * A request the SDK's JSON-RPC schema would accept and give back unchanged, told without it: that
 * schema is a union of four, tried in turn, and costs more than a light call's own work. A request
 * with `_meta` in its params, which the schema checks, and anything else is left to the schema.
 */
export function plainRequest(value: unknown): JSONRPCRequest | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { jsonrpc, id, method, params } = value as Record<string, unknown>;
  if (jsonrpc !== JSONRPC_VERSION || typeof method !== 'string' || !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params) || Object.hasOwn(params, '_meta'))) return undefined;
  for (const member of Object.keys(value)) if (!REQUEST_MEMBERS.has(member)) return undefined;
  return value as JSONRPCRequest;
}

/**
 * MCP's stdio binding: newline-delimited JSON-RPC on stdin and stdout, in front of the SDK's
 * serveStdio. Unlike the SDK's own reader it never closes the connection over what a client
 * sends: a line over the message limit is skipped as it streams and answered with an error naming
 * the limit, a line that is not JSON is answered with -32700, a message that is not JSON-RPC
 * with -32600 (-32602 when only its params are wrong). It bounds what waits: requests read but
 * not answered (past the bound a request is answered "busy"), and answers not yet read by the
 * client (past MAX_OUTPUT_BACKLOG stdin is not read until they drain). An answer over the send
 * limit is replaced by an error naming it.
 */
export class LineTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  private readonly maxMessageBytes: number;
  private readonly maxSentBytes: number;
  private readonly maxBacklog: number;
  private readonly maxPendingRequests: number;
  private readonly maxPendingBytes: number;
  private pieces: Buffer[] = [];
  private lineBytes = 0;
  private scanner: IdScanner | undefined;
  private readonly pending = new Map<RequestId, { count: number; bytes: number }>();
  private pendingCount = 0;
  private pendingBytes = 0;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions = {},
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.maxSentBytes = options.maxSentBytes ?? MAX_SENT_BYTES;
    this.maxBacklog = options.maxBacklog ?? MAX_OUTPUT_BACKLOG;
    this.maxPendingRequests = options.maxPendingRequests ?? MAX_PENDING_REQUESTS;
    this.maxPendingBytes = options.maxPendingBytes ?? MAX_PENDING_BYTES;
  }

  /** Whether more is waiting on stdout than the client should be left to read. */
  congested(): boolean {
    return this.output.writableLength > this.maxBacklog;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.input.on('error', this.onInputError);
    this.output.on('error', this.onOutputError);
    this.output.on('drain', this.onDrain);
    if (this.input.readableEnded || this.input.destroyed) setImmediate(this.onEnd);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    // The error listeners stay: a late EPIPE on a closed connection is not a crash.
    this.output.off('drain', this.onDrain);
    this.input.pause();
    this.pieces = [];
    this.scanner = undefined;
    this.options.onclose?.();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const id = 'id' in message && ('result' in message || 'error' in message) ? (message.id as RequestId | undefined) : undefined;
    let line: string | undefined;
    try {
      line = JSON.stringify(message);
    } catch {
      // too large or too deep to encode: replaced below
    }
    if (line === undefined || (line.length * 3 > this.maxSentBytes && Buffer.byteLength(line) > this.maxSentBytes)) {
      const size = line === undefined ? 'too large to encode' : `${Buffer.byteLength(line)} bytes`;
      const reason = `The answer is ${size}, more than the ${formatBytes(this.maxSentBytes)} this server sends in one message; it was not sent. Ask for less in one call.`;
      this.report(new Error(reason));
      if (id === undefined) return;
      line = JSON.stringify({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: reason } });
    }
    if (id !== undefined) this.settle(id);
    this.write(line);
  }

  private write(line: string): void {
    try {
      this.output.write(`${line}\n`);
    } catch (error) {
      this.report(error as Error);
      return;
    }
    // A client that stops reading stops the server reading: what waits for it stays bounded.
    if (this.congested()) this.input.pause();
  }

  private reply(id: RequestId | null, code: number, message: string): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }

  private settle(id: RequestId): void {
    const entry = this.pending.get(id);
    if (entry === undefined) return;
    const bytes = entry.bytes / entry.count;
    entry.count -= 1;
    entry.bytes -= bytes;
    this.pendingCount -= 1;
    this.pendingBytes -= bytes;
    if (entry.count === 0) this.pending.delete(id);
    if (this.pendingCount === 0) {
      this.options.onidle?.();
      if (this.ending) void this.close();
    }
  }

  private readonly onData = (chunk: Buffer): void => {
    try {
      this.readChunk(chunk);
    } catch (error) {
      // Nothing a client sends ends the connection.
      this.report(error as Error);
      this.pieces = [];
      this.lineBytes = 0;
      this.scanner = undefined;
    }
  };

  private readChunk(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length && !this.closed) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const part = chunk.subarray(start, end);
      if (this.scanner === undefined && this.lineBytes + part.length > this.maxMessageBytes) {
        // Too long to keep: from here on the line is only scanned for its id.
        this.scanner = new IdScanner();
        for (const piece of this.pieces) this.scanner.feed(piece);
        this.pieces = [];
      }
      if (this.scanner !== undefined) this.scanner.feed(part);
      else if (part.length > 0) this.pieces.push(part);
      this.lineBytes += part.length;
      if (newline === -1) return;
      const pieces = this.pieces;
      const bytes = this.lineBytes;
      const scanner = this.scanner;
      this.pieces = [];
      this.lineBytes = 0;
      this.scanner = undefined;
      if (scanner !== undefined) this.refuseLong(scanner, bytes);
      else if (bytes > 0) this.readLine(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, bytes));
      start = newline + 1;
    }
  }

  private refuseLong(scanner: IdScanner, bytes: number): void {
    const reason =
      `The message is ${bytes} bytes, more than the ${formatBytes(this.maxMessageBytes)} (${this.maxMessageBytes} bytes) this server reads in one message; it was not read. ` +
      'Send less in one call: a smaller file, fewer paths or edits.';
    this.report(new Error(reason));
    // A notification gets no answer; a request, or a message whose kind cannot be told, does.
    if (scanner.id === undefined && scanner.sawMethod) return;
    this.reply(scanner.id ?? null, INVALID_REQUEST, reason);
  }

  private readLine(line: Buffer): void {
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.reply(null, PARSE_ERROR, `Parse error: the line is not JSON (${(error as Error).message.slice(0, 200)}).`);
      return;
    }
    this.accept(value, line.length);
  }

  private accept(value: unknown, bytes: number): void {
    let message: JSONRPCMessage;
    try {
      message = plainRequest(value) ?? parseJSONRPCMessage(value);
    } catch {
      this.refuseInvalid(value);
      return;
    }
    const request = 'method' in message && 'id' in message ? (message as { id: RequestId; method: string; params?: Record<string, unknown> }) : undefined;
    // Params the SDK would answer with its validator's dump: worded here, still -32602.
    const invalid = request === undefined ? undefined : invalidParams(request.method, request.params);
    if (invalid !== undefined) {
      this.reply(request!.id, INVALID_PARAMS, `Invalid params for ${request!.method}: ${invalid}`);
      return;
    }
    if (request !== undefined) {
      if (this.pendingCount >= this.maxPendingRequests || this.pendingBytes + bytes > this.maxPendingBytes) {
        this.reply(
          request.id,
          SERVER_BUSY,
          `The server is busy: ${this.pendingCount} requests (${this.pendingBytes} bytes) are waiting for their answers, its limit ` +
            `(${this.maxPendingRequests} requests, ${formatBytes(this.maxPendingBytes)}). This one was not read: send it again once earlier answers have come back.`,
        );
        return;
      }
      const entry = this.pending.get(request.id) ?? { count: 0, bytes: 0 };
      entry.count += 1;
      entry.bytes += bytes;
      this.pending.set(request.id, entry);
      this.pendingCount += 1;
      this.pendingBytes += bytes;
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request is never answered: it no longer waits.
      const cancelled = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (isRequestId(cancelled)) this.settle(cancelled);
    }
    try {
      if (this.options.intercept?.(message) === true) return;
      this.onmessage?.(message);
    } catch (error) {
      this.report(error as Error);
    }
  }

  /** Says what is wrong with a message that is JSON but not JSON-RPC, with its id when it has a usable one. */
  private refuseInvalid(value: unknown): void {
    if (Array.isArray(value)) {
      this.reply(null, INVALID_REQUEST, 'Invalid Request: batches are not supported; send one JSON-RPC message per line.');
      return;
    }
    if (typeof value !== 'object' || value === null) {
      this.reply(null, INVALID_REQUEST, 'Invalid Request: a message must be a JSON-RPC 2.0 object.');
      return;
    }
    const record = value as Record<string, unknown>;
    const id = isRequestId(record.id) ? record.id : null;
    const params = record.params;
    const badParams = params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params));
    if (record.jsonrpc === '2.0' && typeof record.method === 'string' && badParams) {
      if (id === null && !('id' in record)) return this.report(new Error(`Dropped the notification ${record.method.slice(0, 100)}: its params are not an object`));
      this.reply(id, INVALID_PARAMS, `Invalid params for ${record.method.slice(0, 100)}: params must be an object.`);
      return;
    }
    const what = record.jsonrpc !== '2.0' ? 'jsonrpc must be "2.0"' : 'expected a request, a notification or a response';
    this.reply(id, INVALID_REQUEST, `Invalid Request: ${what}.`);
  }

  /** Input ended while answers were still being worked out: the connection closes once the last is sent. */
  private ending = false;

  private readonly onEnd = (): void => {
    if (this.pendingCount === 0) void this.close();
    else this.ending = true;
  };

  private readonly onDrain = (): void => {
    if (!this.closed) this.input.resume();
    this.options.ondrain?.();
  };

  private readonly onInputError = (error: Error): void => {
    this.report(error);
  };

  /** The client closed its end of stdout: nothing more can be answered. */
  private readonly onOutputError = (error: Error): void => {
    this.report(error);
    void this.close();
  };

  private report(error: Error): void {
    try {
      this.onerror?.(error);
    } catch {
      // reporting never fails a message
    }
  }
}
