import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { Era } from './createServer.js';
import { MAX_ERROR_FIELD_CHARS, truncated } from './limits.js';
import type { RefusalLog } from './refusalLog.js';
import type { ServerState } from './tool.js';

/** The `logger` of every notice, so a client can tell this server's messages apart. */
export const NOTICE_LOGGER = 'boundary-inspector';

interface Notice {
  readonly level: 'warning';
  readonly logger: string;
  readonly data: Record<string, unknown>;
}

type RefusalFields = Parameters<RefusalLog['record']>[3];

/** A refusal as a `notifications/message`; strings are cut as in error answers, since a refused input may be megabytes. */
function noticeOf(tool: string, workspaceUri: string | null, input: string, refusal: RefusalFields): Notice {
  return {
    level: 'warning',
    logger: NOTICE_LOGGER,
    data: {
      tool,
      code: refusal.code,
      stage: refusal.stage,
      reason: truncated(refusal.reason, MAX_ERROR_FIELD_CHARS),
      input: truncated(input, MAX_ERROR_FIELD_CHARS),
      workspaceUri: workspaceUri === null ? null : truncated(workspaceUri, MAX_ERROR_FIELD_CHARS),
    },
  };
}

/** The same log, whose `record` also hands each refusal to `send`. Every other member is the log's own. */
function notifying(log: RefusalLog, send: (notice: Notice) => Promise<void> | undefined): RefusalLog {
  const wrapped = Object.create(log) as RefusalLog;
  wrapped.record = (tool, workspaceUri, input, refusal) => {
    // A notice that cannot be sent (the connection closed) is no reason to fail the call.
    send(noticeOf(tool, workspaceUri, input, refusal))?.catch(() => undefined);
    return log.record(tool, workspaceUri, input, refusal);
  };
  wrapped.settled = (waitMs) => log.settled(waitMs);
  wrapped.append = (record) => log.append(record);
  return wrapped;
}

/**
 * Sends each refusal to the connection's client as a `notifications/message` at level warning,
 * as well as to the refusal log, by handing the tools a state whose log does both (tool.ts records
 * through `state.log`). On 2025-11-25 the SDK's `sendLoggingMessage` drops it below the level the
 * client set with `logging/setLevel` (none set: warnings are sent). On 2026-07-28 there is no
 * `logging/setLevel`: a request names its level in `_meta` (`io.modelcontextprotocol/logLevel`),
 * and a request that names none gets no messages (SEP-2577); `ctx.mcpReq.log` applies both rules.
 */
export class RefusalNotices {
  private server: McpServer | undefined;
  private readonly legacy: ServerState | undefined;

  constructor(
    private readonly state: ServerState,
    era: Era,
  ) {
    this.legacy = era === 'legacy' ? { ...state, log: notifying(state.log, (notice) => this.server?.sendLoggingMessage(notice)) } : undefined;
  }

  /** The server whose client hears of the refusals (set once it is made). */
  attach(server: McpServer): void {
    this.server = server;
  }

  /** The state a call records its refusals through: on 2026-07-28 its notices go with its own request. */
  stateFor(ctx: ServerContext | undefined): ServerState {
    if (this.legacy !== undefined) return this.legacy;
    if (ctx === undefined) return this.state;
    return { ...this.state, log: notifying(this.state.log, (notice) => ctx.mcpReq.log(notice.level, notice.data, notice.logger)) };
  }
}
