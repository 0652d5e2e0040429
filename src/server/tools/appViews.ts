/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): explain_path and audit_workspace name a
 * `ui://` view in their `_meta.ui`, and a client that shows MCP Apps draws their result with it in
 * the conversation. One document serves both: it draws whichever result it is sent. A client
 * without MCP Apps ignores the `_meta` and gets the same text and structured results as ever. The
 * protocol serves the document (protocol/viewResource.ts).
 */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** The key hosts before `_meta.ui` read, kept beside it for them. */
const LEGACY_VIEW_KEY = 'ui/resourceUri';

/** A view's resource URI. */
export type AppView = `ui://${string}`;

export const TRACE_VIEW: AppView = 'ui://boundary-inspector/trace.html';
export const AUDIT_VIEW: AppView = 'ui://boundary-inspector/audit.html';

const APP_VIEWS: readonly AppView[] = [TRACE_VIEW, AUDIT_VIEW];

/** A tool's `_meta` naming its view, in the current form and the earlier one. */
export function viewMeta(view: AppView): Record<string, unknown> {
  return { ui: { resourceUri: view }, [LEGACY_VIEW_KEY]: view };
}

export function viewNamed(uri: string): AppView | undefined {
  return APP_VIEWS.find((view) => view === uri);
}
