import type { Platform } from '../../core/index.js';
import type { SandboxState } from '../../host/protection.js';
import type { Grant } from '../grants.js';
import { ListingMemory } from '../listingMemory.js';
import { ReadMemory } from '../readMemory.js';
import type { RefusalLog } from '../refusals/refusalLog.js';
import type { ServerState, WorkspaceWatch } from '../tools/tool.js';

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

export interface Session {
  readonly state: ServerState;
}

/** The one place a server's state is built. */
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
  return { state };
}
