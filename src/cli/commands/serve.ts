import { runServer } from '../../server/launch/runServer.js';

/** `boundary-inspector serve`: the bundled MCP server, with the same arguments as dist/server.js. */
export function runServe(args: readonly string[]): number | 'serving' {
  return runServer(args);
}
