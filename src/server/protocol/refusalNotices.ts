import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { Era } from './era.js';
import { MAX_ERROR_FIELD_CHARS, truncated } from '../limits.js';
import type { RefusalListener } from '../refusals/refusal.js';
import type { RefusalLog } from '../refusals/refusalLog.js';

export type { RefusalListener };

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

const NOBODY: RefusalListener = () => undefined;

/**
 * Sends each refusal to the connection's client as a `notifications/message` at level warning,
 * as well as to the refusal log: a call's scope hands every refusal it records to the listener
 * it was given. On 2025-11-25 the SDK's `sendLoggingMessage` drops it below the level the client
 * set with `logging/setLevel` (none set: warnings are sent). On 2026-07-28 there is no
 * `logging/setLevel`: a request names its level in `_meta` (`io.modelcontextprotocol/logLevel`),
 * and a request that names none gets no messages (SEP-2577); `ctx.mcpReq.log` applies both rules.
 */
export class RefusalNotices {
  private server: McpServer | undefined;

  constructor(private readonly era: Era) {}

  /** The server whose client hears of the refusals (set once it is made). */
  attach(server: McpServer): void {
    this.server = server;
  }

  /** That server: its client is also the one asked about secrets on 2025-11-25 (secretQuestions.ts). */
  get connection(): McpServer | undefined {
    return this.server;
  }

  /** The listener for one request: on 2026-07-28 its notices go with the request itself, and only with one. */
  listenerFor(ctx: ServerContext | undefined): RefusalListener {
    let send: (notice: Notice) => Promise<void> | undefined;
    if (this.era === 'legacy') send = (notice) => this.server?.sendLoggingMessage(notice);
    else if (ctx === undefined) return NOBODY;
    else send = (notice) => ctx.mcpReq.log(notice.level, notice.data, notice.logger);
    // A notice that cannot be sent (the connection closed) is no reason to fail the call; a
    // question to the person is no refusal, and their client is the one asking it.
    return (tool, workspaceUri, input, refusal) => {
      if (refusal.event === undefined) void send(noticeOf(tool, workspaceUri, input, refusal))?.catch(() => undefined);
    };
  }
}
