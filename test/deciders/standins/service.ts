// A scripted stand-in for an agent's model service, on loopback: each turn that offers tools is
// answered with the next scripted tool call, and whatever the agent sends back for it is kept.
// One small module per API shapes the wire (anthropic.ts, openai.ts, gemini.ts); this file only
// listens, keeps the exchange and runs the script.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the stand-in makes, in the agent's own tool names and argument names. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** What the agent sent back for one scripted call. */
export interface ToolAnswer {
  readonly name: string;
  /** The text of the tool's result as the agent gave it to the model. */
  readonly output: string;
  /** The agent marked the result as an error (where its API has such a mark). */
  readonly isError: boolean;
}

/** What a request asks, read by the API module from its body. */
export interface Turn {
  /** The agent offers tools in this request (a request without tools is a side request: a title, a summary). */
  readonly offersTools: boolean;
  /** The names of the tools offered. */
  readonly toolNames: readonly string[];
  /** The answers to earlier calls that this request carries, oldest first. */
  readonly answers: readonly ToolAnswer[];
}

/** How the stand-in answers: a tool call (or plain text to end), shaped for the API. */
export interface ApiShape {
  /** Reads a request, or undefined when the request is not a model turn (it gets `other`). */
  readTurn(url: string, body: unknown): Turn | undefined;
  reply(res: http.ServerResponse, url: string, body: unknown, answer: ScriptedCall | { text: string }, callId: string): void;
  /** For requests that are not model turns (model lists, token counts). */
  other(res: http.ServerResponse, url: string): void;
}

export interface StandIn {
  readonly url: string;
  /** The answers to the scripted calls, in order, as far as the agent got. */
  readonly answers: ToolAnswer[];
  /** The tools the agent offered on its first turn. */
  offered: readonly string[] | undefined;
  /** Every request's method and path, for diagnosing a run that went nowhere. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startStandIn(shape: ApiShape, script: readonly ScriptedCall[]): Promise<StandIn> {
  const state: StandIn = {
    url: '',
    answers: [],
    offered: undefined,
    requests: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      state.requests.push(`${req.method} ${url}`);
      let body: unknown;
      try {
        body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      const turn = req.method === 'POST' ? shape.readTurn(url, body) : undefined;
      if (turn === undefined) return shape.other(res, url);
      if (!turn.offersTools) return shape.reply(res, url, body, { text: 'ok' }, 'none');
      state.offered ??= turn.toolNames;
      // The turn's place in the script is the number of answers it carries.
      const step = turn.answers.length;
      if (step > state.answers.length) state.answers.splice(0, state.answers.length, ...turn.answers);
      const next = script[step];
      shape.reply(res, url, body, next ?? { text: 'done' }, `call_${step + 1}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Writes server-sent events: `event:` lines where the API names its events, then `data:`. */
export function sendEvents(res: http.ServerResponse, events: readonly { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' });
  for (const { event, data } of events) res.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

export function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(value));
}
