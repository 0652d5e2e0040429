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

/**
 * A tool's `_meta` for MCP Apps: the view that draws its result, in the current form and the
 * earlier one, and for a tool only views call, the visibility that keeps it from the model.
 */
export function toolMeta(tool: { readonly view?: AppView; readonly appOnly?: true }): Record<string, unknown> | undefined {
  if (tool.view === undefined && tool.appOnly === undefined) return undefined;
  const ui = { ...(tool.view !== undefined ? { resourceUri: tool.view } : {}), ...(tool.appOnly ? { visibility: ['app'] } : {}) };
  return { ui, ...(tool.view !== undefined ? { [LEGACY_VIEW_KEY]: tool.view } : {}) };
}

export function viewNamed(uri: string): AppView | undefined {
  return APP_VIEWS.find((view) => view === uri);
}
