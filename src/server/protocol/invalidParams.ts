// Params the SDK's validator would refuse with a dump of its schema, worded for a person instead;
// the transport answers them -32602 (Invalid params) before the SDK sees them.

/** The levels of `logging/setLevel` (MCP, "Logging"). */
const LOGGING_LEVELS: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const shown = (value: unknown) => JSON.stringify(value ?? null).slice(0, 100);

/** What is wrong with the params of a request the SDK would answer with a dump of its validator, or undefined. */
export function invalidParams(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (method === 'logging/setLevel' && !LOGGING_LEVELS.includes(params?.level as string)) {
    return `level must be one of ${LOGGING_LEVELS.join(', ')}; got ${shown(params?.level)}.`;
  }
  if (method === 'tools/call') {
    if (typeof params?.name !== 'string') return `name must be the name of a tool (a string, see tools/list); got ${shown(params?.name)}.`;
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return `arguments must be an object; got ${shown(args)}.`;
  }
  return undefined;
}
