// The server built from src and connected to a client in this process, over the SDK's in-memory
// transport: for suites about what the tools answer, where a process of its own is not the point
// (the protocol, hostile-client, sandbox and two-client suites spawn the bundle).
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { hostPlatform, nodeFileSystem } from '../../src/host/node.js';
import { createServer } from '../../src/server/protocol/createServer.js';
import { buildGrants } from '../../src/server/grants.js';
import { parseServeArgs } from '../../src/server/launch/options.js';
import { ReadMemory } from '../../src/server/tools/readMemory.js';
import { RefusalLog } from '../../src/server/refusals/refusalLog.js';
import type { ServerState } from '../../src/server/tools/tool.js';
import type { ToolResult } from './helpers.js';

export interface InProcessServer {
  readonly state: ServerState;
  call(tool: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** `args` as `serve` takes them (--workspace <uri> ...); a 2025-11-25 connection, as VS Code opens one. */
export async function startInProcess(args: readonly string[]): Promise<InProcessServer> {
  const options = parseServeArgs(args);
  const platform = hostPlatform();
  const isDirectory = (path: string) => fs.statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  const { grants, errors } = buildGrants(options.grants, { platform, policy: options.policy, fs: nodeFileSystem, isDirectory });
  if (errors.length > 0) throw new Error(errors.join('\n'));
  const state: ServerState = {
    grants,
    platform,
    sandbox: { active: false, mechanism: null, detail: 'in process, for tests' },
    log: new RefusalLog(undefined, options.refusalLogBytes, (error) => {
      throw error;
    }),
    logger: () => undefined,
    reads: new ReadMemory(),
  };
  const server = createServer(state, 'legacy');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bi-in-process', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    state,
    call: async (tool, callArgs = {}) => (await client.callTool({ name: tool, arguments: callArgs })) as unknown as ToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
