// The server built from src and served in this process, through the process's own session
// factory, line transport and doors (the direct door for a 2025-11-25 client's plain calls, the
// SDK's for the rest), over a pair of in-memory streams: for suites about what the tools answer,
// where a process of its own is not the point (the protocol, hostile-client, sandbox and
// two-client suites spawn the bundle).
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { hostPlatform, nodeFileSystem } from '../../src/host/node.js';
import { buildGrants } from '../../src/server/grants.js';
import { claudeCodeDenyRules } from '../../src/host/claudeCodeDeny.js';
import { parseServeArgs } from '../../src/server/launch/options.js';
import { serveLines } from '../../src/server/protocol/serveStdio.js';
import { RefusalLog } from '../../src/server/refusals/refusalLog.js';
import { createSession } from '../../src/server/protocol/session.js';
import type { ServerState } from '../../src/server/tools/tool.js';

/** A client's end of newline-delimited JSON-RPC over two streams, as a client's stdio transport speaks to the process. */
class LineClientTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
  private pending = '';

  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.setEncoding('utf8');
    this.fromServer.on('data', (chunk: string) => {
      const lines = (this.pending + chunk).split('\n');
      this.pending = lines.pop()!;
      for (const line of lines) {
        try {
          this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

/** The client's end of a server serving in this process, as `serve` takes its arguments (--workspace <uri> ...). */
export interface InProcessLink {
  readonly transport: Transport;
  readonly state: ServerState;
  /** What the server would have written to stderr. */
  stderr(): string;
}

export function serveInProcess(args: readonly string[]): InProcessLink {
  const options = parseServeArgs(args);
  const platform = hostPlatform();
  const isDirectory = (target: string) => fs.statSync(target, { throwIfNoEntry: false })?.isDirectory() === true;
  const { grants, errors } = buildGrants(options.grants, { platform, policy: options.policy, fs: nodeFileSystem, isDirectory, secrets: options.secrets, denyRules: (workspace) => claudeCodeDenyRules(workspace, platform) });
  if (errors.length > 0) throw new Error(errors.join('\n'));
  let stderr = '';
  const logger = (message: string) => {
    stderr += `${message}\n`;
  };
  if (options.refusalLog !== undefined) fs.mkdirSync(path.dirname(options.refusalLog), { recursive: true });
  const session = createSession(
    { grants, platform, sandbox: { active: false, mechanism: null, detail: 'turned off (--sandbox off)' } },
    { refusals: new RefusalLog(options.refusalLog, options.refusalLogBytes, (error) => logger(`could not write the refusal log: ${error.message}`)), logger },
  );
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  serveLines(session, { input: toServer, output: fromServer, directCalls: options.directCalls, report: (error) => logger(error.message) });
  return { transport: new LineClientTransport(toServer, fromServer), state: session.state, stderr: () => stderr };
}
