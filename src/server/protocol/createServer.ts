import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { ProgressReport } from '../tools/callControl.js';
import { registerResources } from './resources.js';
import type { Era } from './era.js';
import { listedSchema } from './listedSchema.js';
import type { CallOptions, Connection, Session } from './session.js';
import { annotationsOf } from '../tools/tool.js';
import { listWorkspaces } from '../tools/listWorkspaces.js';
import { toolMeta, UI_EXTENSION, VIEW_MIME_TYPE } from '../tools/appViews.js';
import { WORKSPACE_TOOLS } from '../tools/index.js';

export const SERVER_NAME = 'boundary-inspector';
declare const PACKAGE_VERSION: string;
const VERSION = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : '0.0.0-dev';

export type { Era };

export const INSTRUCTIONS =
  'Filesystem tools over the workspaces the user granted. Call list_workspaces first, then pass one of its URIs as ' +
  'workspaceUri on every call (the workspace folder itself, never a folder inside it); paths are relative to that ' +
  'workspace. A refusal names its code, stage and reason: call explain_path with the same path to see every stage.';

/** The cancellation and progress sender of a call the SDK serves. */
function callOptionsOf(ctx: ServerContext, connection: Connection): CallOptions {
  const token = ctx.mcpReq._meta?.progressToken;
  const progress =
    token === undefined
      ? undefined
      : // Sent before the handler returns, so before its answer (the transport writes in call order).
        (report: ProgressReport) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...report } }).catch(() => undefined);
  return { connection, request: ctx, signal: ctx.mcpReq.signal, progress };
}

/**
 * One server per connection. On a 2025-11-25 connection workspaceUri is required by the schema;
 * on 2026-07-28 it may be omitted, and the legacy roots adapter then asks the client's roots
 * through MRTR to choose among the grants.
 */
export function createServer(session: Session, connection: Connection): McpServer {
  const schemas = session.inputSchemas(connection.era);
  const server = new McpServer(
    { name: SERVER_NAME, version: VERSION },
    {
      // logging: each refusal is also sent to the client as a warning (refusalNotices.ts). The
      // tool list never changes (the SDK would otherwise declare listChanged: true). MCP Apps:
      // two tools name a view, and the view calls one the model is not shown (tools/appViews.ts).
      capabilities: { tools: { listChanged: false }, logging: {}, extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } },
      instructions: INSTRUCTIONS,
      // Never turn input_required into a live server-to-client roots/list request.
      inputRequired: { legacyShim: false },
    },
  );
  const call = (name: string) => (args: Record<string, unknown>, ctx: ServerContext) => session.call(name, args, callOptionsOf(ctx, connection));

  server.registerTool(
    listWorkspaces.name,
    {
      title: listWorkspaces.title,
      description: listWorkspaces.description,
      inputSchema: listedSchema(schemas.get(listWorkspaces.name)!),
      outputSchema: listedSchema(listWorkspaces.output),
      annotations: listWorkspaces.annotations,
    },
    call(listWorkspaces.name),
  );

  for (const tool of WORKSPACE_TOOLS) {
    const meta = toolMeta(tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: listedSchema(schemas.get(tool.name)!),
        // A tool whose result is content has none: its text is the answer. A refusal is an error
        // result, which no output schema describes (its details are in _meta).
        ...(tool.output !== null ? { outputSchema: listedSchema(tool.output) } : {}),
        annotations: annotationsOf(tool),
        ...(meta !== undefined ? { _meta: meta } : {}),
      },
      call(tool.name),
    );
  }
  connection.notices.attach(server);
  registerResources(server, session.state, connection.notices.listenerFor(undefined));
  return server;
}
