// The server built from src and served in this process, over the SDK's in-memory transport: for
// suites about what the tools answer, where a process of its own is not the point (the protocol,
// hostile-client, sandbox, direct-path and two-client suites spawn the bundle).
import fs from 'node:fs';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { hostPlatform, nodeFileSystem } from '../../src/host/node.js';
import { buildGrants } from '../../src/server/grants.js';
import { claudeCodeDenyRules } from '../../src/host/claudeCodeDeny.js';
import { parseServeArgs } from '../../src/server/launch/options.js';
import { createServer } from '../../src/server/protocol/createServer.js';
import { RefusalLog } from '../../src/server/refusals/refusalLog.js';
import { ReadMemory } from '../../src/server/readMemory.js';
import { ListingMemory } from '../../src/server/listingMemory.js';
import type { ServerState } from '../../src/server/tools/tool.js';

/** The client's end of a server serving in this process, as `serve` takes its arguments (--workspace <uri> ...). */
export interface InProcessLink {
  readonly transport: InMemoryTransport;
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
  const state: ServerState = {
    grants,
    platform,
    sandbox: { active: false, mechanism: null, detail: 'turned off (--sandbox off)' },
    log: new RefusalLog(options.refusalLog, options.refusalLogBytes, (error) => logger(`could not write the refusal log: ${error.message}`)),
    logger,
    reads: new ReadMemory(),
    listings: new ListingMemory(),
  };
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // The stdio entry's own handling of both eras, over the in-memory pair.
  serveStdio(({ era }) => createServer(state, era), { transport: serverSide, onerror: (error) => logger(error.message) });
  return { transport: clientSide, state, stderr: () => stderr };
}
