/** Names the editor knows the extension by, kept apart so activation need not load what uses them. */
export const VIEW_TYPE = 'boundaryInspector.inspector';
export const AUDIT_COMMAND = 'boundaryInspector.auditWorkspace';
/** Traces an audit finding in the inspector, by the id its diagnostic carries (audit.ts). */
export const SHOW_FINDING_COMMAND = 'boundaryInspector.showFinding';
/** The editor's own list of MCP servers, where a server is started, stopped and restarted. */
export const LIST_SERVERS_COMMAND = 'workbench.mcp.listServer';
