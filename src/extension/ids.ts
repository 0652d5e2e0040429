/** Names the editor knows the extension by, kept apart so activation need not load what uses them. */
export const VIEW_TYPE = 'boundaryInspector.inspector';
export const AUDIT_COMMAND = 'boundaryInspector.auditWorkspace';
