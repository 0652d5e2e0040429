import v8 from 'node:v8';
import vm from 'node:vm';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { anchorOf } from '../fs/index.js';
import { heavyCalls, lightCalls, longCalls } from './callGate.js';
import { createServer } from './createServer.js';
import { DirectCalls } from './directCalls.js';
import { LineTransport } from './lineTransport.js';
import { Connection, type Session } from './session.js';

/** Error reports on stderr: each cut short, and dropped while stderr is not being read. */
const MAX_REPORT_CHARS = 1000;
const MAX_STDERR_BACKLOG = 1024 * 1024;

function boundedReporter(logger: (message: string) => void): (error: Error) => void {
  let dropped = 0;
  return (error) => {
    if (process.stderr.writableLength > MAX_STDERR_BACKLOG) {
      dropped += 1;
      return;
    }
    if (dropped > 0) {
      logger(`${dropped} error reports were not written: stderr was not being read`);
      dropped = 0;
    }
    const message = String(error?.message ?? error);
    logger(message.length > MAX_REPORT_CHARS ? `${message.slice(0, MAX_REPORT_CHARS)}… (${message.length} characters)` : message);
  };
}

/** Quiet time after the last answer before the garbage of a burst is collected. */
const COLLECT_AFTER_MS = 1000;
/** Heap V8 has taken since the last collection that makes one worth its pause. */
const COLLECT_GROWTH_BYTES = 16 * 1024 * 1024;

/**
 * V8 collects when it allocates, not when it is idle: after a burst of calls their garbage would
 * hold the resident set up until the next burst. Once every request is answered, and the heap has
 * grown since the last time, a full collection gives the memory back. `gc` is reachable only
 * through this flag; where it is not, nothing is collected early.
 */
function collectWhenIdle(): () => void {
  let collect: (() => void) | undefined;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    if (typeof gc === 'function') collect = () => (gc as () => void)();
  } catch {
    collect = undefined;
  }
  const heapSize = () => v8.getHeapStatistics().total_heap_size;
  let collected = heapSize();
  let lastAnswer = 0;
  let timer: NodeJS.Timeout | undefined;
  // After a collection, a second, once the heap is quiet again, gives back the pages the first freed.
  let second = false;
  // The heap is looked at once the answers have stopped, not at each answer: a light call costs little more than that look.
  const whenQuiet = () => {
    const quietFor = performance.now() - lastAnswer;
    if (quietFor < COLLECT_AFTER_MS) {
      timer = setTimeout(whenQuiet, COLLECT_AFTER_MS - quietFor).unref();
      return;
    }
    timer = undefined;
    if (!second && heapSize() < collected + COLLECT_GROWTH_BYTES) return;
    collect!();
    collected = heapSize();
    second = !second;
    if (second) timer = setTimeout(whenQuiet, COLLECT_AFTER_MS).unref();
  };
  return () => {
    if (collect === undefined) return;
    lastAnswer = performance.now();
    timer ??= setTimeout(whenQuiet, COLLECT_AFTER_MS).unref();
  };
}

/**
 * How much V8 lets the old generation grow past what survived its last full collection, in
 * percent. Left to itself it grows by up to four times on a fast collector, which doubles the
 * peak of a burst of heavy calls. Its optimize-for-size mode keeps the peak as low, but costs
 * every call: a fifth more CPU for a light one, seven times the time to page through 200,000 files.
 */
const OLD_GENERATION_GROWTH_PERCENT = 10;

/**
 * The young generation keeps the size it had once the first answers were out. V8 starts marking
 * the old generation whenever the room left in it is less than the young generation's size: with
 * the room a tenth of the old generation, a young generation grown for a burst would keep it
 * marking and collecting without end under steady work (every read is remembered), a full
 * collection every hundred or so reads of a small file.
 */
const YOUNG_GENERATION_GROWTH_FACTOR = 1;

/**
 * What serving for long needs and the handshake does not, set up once the first answers are out
 * (the client waits for them): a heap that grows little past what a burst keeps alive, and the
 * collection after each burst.
 */
function afterFirstAnswers(): () => void {
  let idle: (() => void) | undefined;
  return () => {
    if (idle === undefined) {
      v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
      v8.setFlagsFromString(`--semi-space-growth-factor=${YOUNG_GENERATION_GROWTH_FACTOR}`);
      idle = collectWhenIdle();
    }
    idle();
  };
}

/** Where a session is served: the line streams, whether the direct door is open, where errors go. */
export interface ServeOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly directCalls: boolean;
  readonly report: (error: Error) => void;
  /** Called once every request is answered. */
  readonly onidle?: () => void;
}

/**
 * Serves a session over newline-delimited JSON-RPC: one server per connection, for either
 * protocol era, through a line reader that answers whatever a client sends instead of closing
 * on it. Every workspace root is opened and verified first, so each later walk starts from the
 * folder that was granted. The process and the in-process tests both serve through this.
 */
export function serveLines(session: Session, { input, output, directCalls, report, onidle }: ServeOptions): LineTransport {
  const { state } = session;
  for (const grant of state.grants) anchorOf(grant, state.platform);
  const gates = [heavyCalls, lightCalls, longCalls];
  const direct = new DirectCalls(session, (message) => transport.send(message), report);
  const transport = new LineTransport(input, output, {
    ondrain: () => gates.forEach((gate) => gate.wake()),
    ...(onidle !== undefined ? { onidle } : {}),
    ...(directCalls ? { intercept: (message: JSONRPCMessage) => direct.take(message) } : {}),
    onclose: () => direct.close(),
  });
  for (const gate of gates) gate.watchOutput(() => transport.congested());
  serveStdio(
    ({ era }) => {
      const connection = new Connection(era);
      const server = createServer(session, connection);
      // The era's last instance is the one serving: a probe discarded for a 2025-11-25 client is replaced.
      direct.serve(undefined);
      if (era === 'legacy') server.server.oninitialized = () => direct.serve(connection);
      return server;
    },
    { transport, onerror: report },
  );
  return transport;
}

/** Serves over stdio; the process ends when stdin ends. */
export function serve(session: Session, options: { readonly directCalls: boolean } = { directCalls: true }): void {
  const report = boundedReporter(session.state.logger);
  // A bug one request reaches is reported, and the other requests are still served.
  process.on('uncaughtException', (error) => report(error));
  process.on('unhandledRejection', (reason) => report(reason instanceof Error ? reason : new Error(String(reason))));
  serveLines(session, { input: process.stdin, output: process.stdout, directCalls: options.directCalls, report, onidle: afterFirstAnswers() });
}
