// Shared harness for the MCP server's end-to-end tests. A server is started as a process one way
// (rawServer.ts: serverCommand, spawnServer: this runtime, the built bundle, its arguments), or
// served in this process through the same session factory, line transport and doors
// (inProcess.ts); `connect` speaks to either with a real SDK client:
//   v2: `Client` from @modelcontextprotocol/client in versionNegotiation auto mode -> 2026-07-28
//   v1: `Client` from @modelcontextprotocol/sdk                                   -> 2025-11-25
// A wire tap (patching the transport INSTANCE, never subclassing it: v2 auto mode only probes
// out of process when the transport's prototype is exactly StdioClientTransport.prototype) records
// every JSON-RPC message sent and received, and every message the transport could not parse.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REFUSAL_META_KEY } from '../../src/shared/runOnServer.js';
import { expireAfter, patience } from '../patience.js';
import { serverCommand, spawnServer } from './rawServer.js';

export const repoRoot = path.resolve(__dirname, '../..');
export { serverBundle as serverPath } from './rawServer.js';

export type ClientKind = 'v2' | 'v1';
export const CLIENT_KINDS: readonly { readonly kind: ClientKind; readonly version: string }[] = [
  { kind: 'v2', version: '2026-07-28' },
  { kind: 'v1', version: '2025-11-25' },
];

export const REFUSAL_CODES = [
  'ERR_PARSE', 'ERR_SCHEME', 'ERR_FOREIGN_PATH', 'ERR_HOST', 'ERR_QUERY_OR_FRAGMENT', 'ERR_UNC', 'ERR_DEVICE_PATH', 'ERR_NUL',
  'ERR_ENCODED_SEPARATOR', 'ERR_ILLEGAL_CHARACTER', 'ERR_BAD_ENCODING', 'ERR_NOT_ABSOLUTE', 'ERR_SYMLINK_ESCAPE',
  'ERR_SYMLINK_REFUSED', 'ERR_SYMLINK_LOOP', 'ERR_SYMLINK_DANGLING', 'ERR_PERMISSION', 'ERR_NAME_TOO_LONG', 'ERR_OUTSIDE', 'ERR_NOT_GRANTED',
  'ERR_READ_ONLY', 'ERR_WORKSPACE_GONE', 'ERR_WORKSPACE_REPLACED', 'ERR_WORKSPACE_UNMOUNTED', 'ERR_CHANGED_SINCE_READ',
  'ERR_FILE_CHANGED', 'ERR_NOT_TEXT', 'ERR_SECRET',
] as const;

export const STAGE_NAMES = ['parse', 'refusals', 'decode', 'normalise', 'alias', 'case', 'realpath', 'containment', 'secrets'] as const;

// ------------------------------------------------------------------------------------------------
// Temporary directories
// ------------------------------------------------------------------------------------------------

/** A fresh directory under the system temp folder, by its real path (no link above it is judged). */
export function makeTempDir(prefix = 'bi-server-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * A fresh directory on tmpfs where there is one, else as makeTempDir: for fixtures of thousands of
 * entries, which take seconds to make on a disk and milliseconds in memory.
 */
export function makeFastTempDir(prefix = 'bi-server-'): string {
  try {
    return fs.realpathSync(fs.mkdtempSync(path.join('/dev/shm', prefix)));
  } catch {
    return makeTempDir(prefix);
  }
}

export function removeDir(dir: string | undefined): void {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
}

/** Writes files (creating their folders) under `base`: `{ 'a/b.txt': 'text' }`. */
export function writeTree(base: string, files: Readonly<Record<string, string | Buffer>>): void {
  for (const [relative, content] of Object.entries(files)) {
    const full = path.join(base, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
}

export function fileUri(p: string): string {
  return pathToFileURL(p).href;
}

export function isSymlink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------------------------------------
// Wire tap
// ------------------------------------------------------------------------------------------------

export interface WireMessage {
  readonly jsonrpc?: unknown;
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown> & { name?: string; arguments?: Record<string, unknown> };
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string; data?: unknown };
}

export interface Wire {
  readonly sent: WireMessage[];
  readonly received: WireMessage[];
  /** Errors the transport reported (a line on stdout that is not JSON-RPC shows up here). */
  readonly errors: Error[];
}

interface TappableTransport {
  send(message: unknown, ...rest: unknown[]): Promise<void>;
  onmessage?: ((message: unknown, ...rest: unknown[]) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}

/**
 * Records the JSON-RPC traffic on one transport instance; attach before connect. Without
 * `messages`, only the transport's errors are kept (copying every message costs a suite of
 * thousands of calls a second or so).
 */
export function tapTransport(transport: object, messages = true): Wire {
  const t = transport as TappableTransport;
  const wire: Wire = { sent: [], received: [], errors: [] };
  const send = t.send.bind(t);
  t.send = async (message: unknown, ...rest: unknown[]) => {
    if (messages) wire.sent.push(structuredClone(message) as WireMessage);
    return send(message, ...rest);
  };
  let onmessage: ((message: unknown, ...rest: unknown[]) => void) | undefined;
  const tappedMessage = (message: unknown, ...rest: unknown[]) => {
    if (messages) wire.received.push(structuredClone(message) as WireMessage);
    onmessage?.(message, ...rest);
  };
  Object.defineProperty(t, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (onmessage ? tappedMessage : undefined),
    set: (handler: typeof onmessage) => {
      onmessage = handler;
    },
  });
  let onerror: ((error: Error) => void) | undefined;
  const tappedError = (error: Error) => {
    wire.errors.push(error);
    onerror?.(error);
  };
  Object.defineProperty(t, 'onerror', {
    configurable: true,
    enumerable: true,
    get: () => tappedError,
    set: (handler: typeof onerror) => {
      onerror = handler;
    },
  });
  return wire;
}

/** A message that came FROM the server with both `method` and `id`: a server-to-client request. */
export function serverToClientRequests(wire: Wire): WireMessage[] {
  return wire.received.filter((message) => message.method !== undefined && message.id !== undefined);
}

/** Every message is a JSON-RPC 2.0 request, notification, result or error. */
export function assertJsonRpc(message: WireMessage, where: string): void {
  assert.equal(message.jsonrpc, '2.0', `${where}: not JSON-RPC 2.0: ${JSON.stringify(message).slice(0, 300)}`);
  const isRequestOrNotification = typeof message.method === 'string';
  const isResponse = message.id !== undefined && (message.result !== undefined || message.error !== undefined);
  assert.ok(isRequestOrNotification || isResponse, `${where}: neither a request, a notification nor a response: ${JSON.stringify(message).slice(0, 300)}`);
}

// ------------------------------------------------------------------------------------------------
// Sessions
// ------------------------------------------------------------------------------------------------

/** A tool result, the same shape from both clients. */
export interface ToolResult {
  readonly isError?: boolean | undefined;
  readonly content: { type: string; text?: string; data?: string; mimeType?: string; resource?: Record<string, unknown> }[];
  readonly structuredContent?: Record<string, any> | undefined;
  readonly _meta?: Record<string, any> | undefined;
  readonly resultType?: string | undefined;
}

/** A refusal's fields, or undefined for any other result. */
export function refusalOf(result: ToolResult | { _meta?: Record<string, any> } | undefined): Record<string, any> | undefined {
  return result?._meta?.[REFUSAL_META_KEY] as Record<string, any> | undefined;
}

export interface ListedTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: { type?: string; properties?: Record<string, any>; required?: string[] } & Record<string, unknown>;
  readonly outputSchema?: (Record<string, any> & { properties?: Record<string, any> }) | undefined;
  readonly annotations?: Record<string, unknown> | undefined;
}

export interface ListedResource {
  readonly uri: string;
  readonly name: string;
  readonly mimeType?: string | undefined;
  readonly description?: string | undefined;
}

export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string | undefined;
  readonly text?: string | undefined;
  readonly blob?: string | undefined;
}

export interface SessionOptions {
  /** Extra arguments after the server path. `--sandbox off` is added unless `sandbox: 'default'`. */
  readonly args: readonly string[];
  readonly sandbox?: 'off' | 'default';
  /**
   * Declare the roots capability and answer roots/list with these roots. v1 sessions always
   * declare it (with no roots unless given), so a live roots/list from the server would be seen.
   * The array is read each time the client answers, so a test may change it between calls.
   */
  readonly roots?: readonly { readonly uri: string; readonly name?: string }[] | undefined;
  /** The server's working directory (the test's own by default). */
  readonly cwd?: string;
  /**
   * Build the server from src and serve it in this process over an in-memory transport, instead
   * of spawning the bundle: for suites about what tools answer, where a process is not the point.
   * The arguments are the same; the sandbox is off, and `cwd` does not apply.
   */
  readonly inProcess?: boolean;
  /** Keep every message in `wire` (the default); false keeps only the transport's errors. */
  readonly recordWire?: boolean;
  /**
   * Declare elicitation and answer each `elicitation/create` (live on 2025-11-25, inside a
   * multi-round-trip result on 2026-07-28) with this: the person's answer in a test.
   */
  readonly elicit?: (params: { message: string; requestedSchema?: unknown }) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> };
}

export interface ProgressSeen {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

export interface LogSeen {
  readonly level: string;
  readonly logger?: string | undefined;
  readonly data: unknown;
}

export interface CallOptions {
  /** Sends a progress token; each notifications/progress for it is handed here. */
  readonly onprogress?: (progress: ProgressSeen) => void;
  /** Aborting it cancels the call (the client sends notifications/cancelled). */
  readonly signal?: AbortSignal;
  /** Extra `_meta` on the request (a 2026-07-28 log level, say). */
  readonly meta?: Record<string, unknown>;
}

export interface Session {
  readonly kind: ClientKind;
  readonly wire: Wire;
  /** Every notifications/message the client received, in order. */
  readonly logs: LogSeen[];
  /** The server process serving this session. */
  readonly pid: number | null;
  serverCapabilities(): Record<string, unknown> | undefined;
  callWith(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolResult>;
  /** logging/setLevel (2025-11-25 only: 2026-07-28 has no such request). */
  setLoggingLevel(level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'): Promise<void>;
  /** Every roots/list request the client's handler answered (live or through MRTR). */
  readonly rootsCalls: number;
  stderr(): string;
  negotiatedVersion(): string | undefined;
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  listTools(): Promise<ListedTool[]>;
  listResources(): Promise<ListedResource[]>;
  readResource(uri: string): Promise<ResourceContents[]>;
  close(): Promise<void>;
}

function serverProcess(options: SessionOptions): { command: string; args: string[]; cwd?: string } {
  return { ...serverCommand(options.args, { sandbox: options.sandbox === 'default' ? 'as given' : 'off' }), ...(options.cwd !== undefined ? { cwd: options.cwd } : {}) };
}

function collect(stream: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return () => text;
}

/** The SDK clients' limit on an answer: their default minute, stretched by the load (patience.ts). */
const waitLimit = () => ({ timeout: patience(60_000) });

export async function connect(kind: ClientKind, options: SessionOptions): Promise<Session> {
  // Read at answer time: a test may change the array between calls.
  const roots = options.roots;
  let rootsCalls = 0;
  const answerRoots = async () => {
    rootsCalls += 1;
    return { roots: (roots ?? []).map((root) => ({ uri: root.uri, name: root.name ?? path.basename(root.uri) })) };
  };

  // Required on first use: each SDK and the in-process server take a second or so to load, which a
  // test file that uses neither should not pay.
  const link = options.inProcess === true ? (require('./inProcess.js') as typeof import('./inProcess.js')).serveInProcess(options.args) : undefined;

  if (kind === 'v2') {
    const { Client } = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
    const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
    const capabilities = { ...(roots !== undefined ? { roots: { listChanged: true } } : {}), ...(options.elicit !== undefined ? { elicitation: { form: {} } } : {}) };
    const client = new Client(
      { name: 'bi-e2e-v2', version: '1.0.0' },
      {
        ...(Object.keys(capabilities).length > 0 ? { capabilities } : {}),
        versionNegotiation: { mode: 'auto' },
      },
    );
    if (roots !== undefined) client.setRequestHandler('roots/list', answerRoots);
    const elicit = options.elicit;
    if (elicit !== undefined) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params as never));
    const transport = link?.transport ?? new StdioClientTransport({ ...serverProcess(options), stderr: 'pipe' });
    const stderr = link?.stderr ?? collect((transport as StdioClientTransport).stderr);
    const wire = tapTransport(transport, options.recordWire !== false);
    const logs: LogSeen[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params as LogSeen);
    });
    await client.connect(transport, waitLimit());
    return {
      kind,
      wire,
      logs,
      get pid() {
        return link !== undefined ? null : (transport as StdioClientTransport).pid;
      },
      serverCapabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
      callWith: async (name, args, { onprogress, signal, meta }) =>
        (await client.callTool(
          { name, arguments: args, ...(meta !== undefined ? { _meta: meta } : {}) },
          { ...waitLimit(), ...(onprogress !== undefined ? { onprogress } : {}), ...(signal !== undefined ? { signal } : {}) },
        )) as unknown as ToolResult,
      setLoggingLevel: async (level) => {
        await client.setLoggingLevel(level, waitLimit());
      },
      get rootsCalls() {
        return rootsCalls;
      },
      stderr,
      negotiatedVersion: () => client.getNegotiatedProtocolVersion(),
      call: async (name, args = {}) => (await client.callTool({ name, arguments: args }, waitLimit())) as unknown as ToolResult,
      listTools: async () => (await client.listTools(undefined, waitLimit())).tools as unknown as ListedTool[],
      listResources: async () => (await client.listResources(undefined, waitLimit())).resources as unknown as ListedResource[],
      readResource: async (uri) => (await client.readResource({ uri }, waitLimit())).contents as unknown as ResourceContents[],
      close: () => client.close(),
    };
  }

  const { Client: V1Client } = require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport: V1StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
  const { ListRootsRequestSchema, LoggingMessageNotificationSchema } = require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
  const { ElicitRequestSchema } = require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
  const client = new V1Client({ name: 'bi-e2e-v1', version: '1.0.0' }, { capabilities: { roots: { listChanged: true }, ...(options.elicit !== undefined ? { elicitation: { form: {} } } : {}) } });
  client.setRequestHandler(ListRootsRequestSchema, answerRoots);
  const elicitV1 = options.elicit;
  if (elicitV1 !== undefined) client.setRequestHandler(ElicitRequestSchema, async (request) => elicitV1(request.params as never));
  const transport = link?.transport ?? new V1StdioClientTransport({ ...serverProcess(options), stderr: 'pipe' });
  const stderr = link?.stderr ?? collect((transport as V1StdioClientTransport).stderr);
  const wire = tapTransport(transport, options.recordWire !== false);
  // The v1 client has no getNegotiatedProtocolVersion(): it hands the version to the transport.
  let negotiated: string | undefined;
  (transport as unknown as { setProtocolVersion: (version: string) => void }).setProtocolVersion = (version) => {
    negotiated = version;
  };
  const logs: LogSeen[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params as LogSeen);
  });
  await client.connect(transport, waitLimit());
  return {
    kind,
    wire,
    logs,
    get pid() {
      return link !== undefined ? null : (transport as V1StdioClientTransport).pid;
    },
    serverCapabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    callWith: async (name, args, { onprogress, signal, meta }) =>
      (await client.callTool(
        { name, arguments: args, ...(meta !== undefined ? { _meta: meta } : {}) },
        undefined,
        { ...waitLimit(), ...(onprogress !== undefined ? { onprogress } : {}), ...(signal !== undefined ? { signal } : {}) },
      )) as unknown as ToolResult,
    setLoggingLevel: async (level) => {
      await client.setLoggingLevel(level, waitLimit());
    },
    get rootsCalls() {
      return rootsCalls;
    },
    stderr,
    negotiatedVersion: () => negotiated,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args }, undefined, waitLimit())) as unknown as ToolResult,
    listTools: async () => (await client.listTools(undefined, waitLimit())).tools as unknown as ListedTool[],
    listResources: async () => (await client.listResources(undefined, waitLimit())).resources as unknown as ListedResource[],
    readResource: async (uri) => (await client.readResource({ uri }, waitLimit())).contents as unknown as ResourceContents[],
    close: () => client.close(),
  };
}

// ------------------------------------------------------------------------------------------------
// Assertions on results
// ------------------------------------------------------------------------------------------------

export function textOf(result: ToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** A successful tool result; returns its structuredContent. */
export function expectOk(result: ToolResult, what: string): Record<string, any> {
  assert.notEqual(result.isError, true, `${what}: expected success, got an error: ${textOf(result)}`);
  assert.ok(result.structuredContent, `${what}: no structuredContent`);
  return result.structuredContent;
}

/** The refusal log's lines, parsed; none when the file does not exist. */
export function readLog(file: string): Record<string, any>[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, any>;
      } catch {
        throw new Error(`${file} line ${i + 1} is not JSON: ${line.slice(0, 200)}`);
      }
    });
}

/**
 * A successful result of a tool whose answer is content (read_text_file, read_multiple_files):
 * the text is the answer, and no structured result repeats it.
 */
export function expectContent(result: ToolResult, what: string): string {
  assert.notEqual(result.isError, true, `${what}: expected success, got an error: ${textOf(result)}`);
  assert.equal(result.structuredContent, undefined, `${what}: the content is sent once, as text, with no structured result`);
  return textOf(result);
}

export interface ExpectedRefusal {
  readonly code: (typeof REFUSAL_CODES)[number];
  readonly stage?: string;
  readonly verdict?: 'outside' | 'refused';
}

/**
 * A refusal result: isError, no structuredContent (no output schema describes a refusal), its
 * fields with the code in _meta, and a `next` step, in the text too.
 */
export function expectRefusal(result: ToolResult, expected: ExpectedRefusal, what: string): Record<string, any> {
  assert.equal(result.isError, true, `${what}: expected a refusal, got success: ${JSON.stringify(result.structuredContent ?? textOf(result)).slice(0, 500)}`);
  assert.equal(result.structuredContent, undefined, `${what}: a refusal carries no structuredContent`);
  const s = refusalOf(result);
  assert.ok(s, `${what}: a refusal without its fields in _meta: ${textOf(result)}`);
  assert.equal(s.refused, true, `${what}: refused`);
  assert.equal(s.code, expected.code, `${what}: code (reason: ${s.reason})`);
  if (expected.stage !== undefined) assert.equal(s.stage, expected.stage, `${what}: stage (reason: ${s.reason})`);
  if (expected.verdict !== undefined) assert.equal(s.verdict, expected.verdict, `${what}: verdict`);
  assert.equal(typeof s.reason, 'string');
  assert.ok(s.reason.length > 0, `${what}: an empty reason`);
  assert.equal(typeof s.next, 'string');
  assert.ok(s.next.length > 0, `${what}: an empty next step`);
  assert.match(textOf(result), new RegExp(`Refused \\(${expected.code}`), `${what}: the text names the code`);
  assert.match(textOf(result), /Next: /, `${what}: the text says what to do next`);
  return s;
}

/** A list_directory answer read back from its text: the names under each heading, and the cursor to go on. */
export interface Listing {
  readonly directories: string[];
  readonly files: string[];
  readonly links: string[];
  readonly other: string[];
  readonly nextCursor: string | undefined;
}

const LISTING_HEADINGS: Readonly<Record<string, keyof Omit<Listing, 'nextCursor'>>> = { Folders: 'directories', Files: 'files', 'Links (not followed)': 'links', 'Other (sockets, FIFOs, devices)': 'other' };

export function listingOf(result: ToolResult, what: string): Listing {
  const text = expectContent(result, what);
  const listing: Listing = { directories: [], files: [], links: [], other: [], nextCursor: /call again with cursor (\S+) for the rest\)$/.exec(text)?.[1] };
  if (text === 'The folder is empty.') return listing;
  let into: string[] | undefined;
  for (const line of text.split('\n')) {
    const heading = /^(.*) \(\d+(?: of \d+)?\):$/.exec(line);
    if (heading !== null && LISTING_HEADINGS[heading[1]!] !== undefined) into = listing[LISTING_HEADINGS[heading[1]!]!];
    else if (line.startsWith('(') && line.endsWith(')')) continue;
    else {
      assert.ok(into, `${what}: a name before any heading: ${line}`);
      into.push(line.startsWith('"') ? (JSON.parse(line) as string) : line);
    }
  }
  return listing;
}

/** An error result that is not a refusal (an errno, a validation error...). */
export function expectError(result: ToolResult, pattern: RegExp, what: string): void {
  assert.equal(result.isError, true, `${what}: expected an error, got success: ${String(JSON.stringify(result.structuredContent)).slice(0, 500)}`);
  assert.equal(refusalOf(result), undefined, `${what}: expected an error, got a refusal: ${textOf(result)}`);
  assert.match(textOf(result), pattern, `${what}: error text`);
}

// ------------------------------------------------------------------------------------------------
// Raw processes (start-up errors, stdout purity)
// ------------------------------------------------------------------------------------------------

export interface Exited {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the server with stdin closed right away, and collects everything until it exits. */
export function runServerToExit(args: readonly string[], quietMs = 30_000): Promise<Exited> {
  return new Promise((resolve, reject) => {
    const child = spawnServer(args, { sandbox: 'as given' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const cancel = expireAfter(quietMs, (limit) => {
      child.kill('SIGKILL');
      reject(new Error(`server did not exit within ${limit} ms; stderr:\n${stderr}`));
    });
    child.on('error', reject);
    child.on('close', (status, signal) => {
      cancel();
      resolve({ status, signal, stdout, stderr });
    });
    child.stdin.end();
  });
}

/**
 * Speaks raw newline-delimited JSON-RPC to the server: sends each message in turn (a request only
 * after the previous request's answer has come back), then closes stdin, and returns every stdout
 * line exactly as written.
 */
export function rawSession(args: readonly string[], messages: readonly Record<string, unknown>[], quietMs = 30_000): Promise<{ lines: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnServer(args, { sandbox: 'as given' });
    let stdout = '';
    let stderr = '';
    const answered = new Set<unknown>();
    let next = 0;
    let waitingFor: unknown;
    const pump = () => {
      while (waitingFor === undefined || answered.has(waitingFor)) {
        const message = messages[next];
        next += 1;
        if (message === undefined) {
          child.stdin.end();
          return;
        }
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
        waitingFor = message.id;
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        try {
          const parsed = JSON.parse(line) as { id?: unknown };
          if (parsed.id !== undefined) answered.add(parsed.id);
        } catch {
          // judged by the caller
        }
      }
      pump();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const cancel = expireAfter(quietMs, () => {
      child.kill('SIGKILL');
      reject(new Error(`raw session timed out; stdout so far:\n${stdout}\nstderr:\n${stderr}`));
    });
    child.on('error', reject);
    child.on('close', () => {
      cancel();
      resolve({ lines: stdout.split('\n').filter((line) => line !== ''), stderr });
    });
    pump();
  });
}

/** Every entry under `dir` with its kind and content (links as their target text), for before/after comparisons. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const relative = path.relative(dir, full);
      const stats = fs.lstatSync(full);
      if (stats.isSymbolicLink()) out[relative] = `link -> ${fs.readlinkSync(full)}`;
      else if (stats.isDirectory()) {
        out[relative] = 'dir';
        walk(full);
      } else out[relative] = `file ${fs.readFileSync(full).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}
