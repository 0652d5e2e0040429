import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createServer } from './createServer.js';
import type { ServerState } from './tool.js';

/** Serves over stdio: one server per connection, for either protocol era. */
export function serve(state: ServerState): void {
  serveStdio(({ era }) => createServer(state, era), { onerror: (error) => state.logger(error.message) });
}
