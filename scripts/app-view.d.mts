export const VIEW_CONTENT_SECURITY_POLICY: string;
export function composeViewHtml(script: string, style: string): string;
export const VIEW_BUDGET_BYTES: number;
