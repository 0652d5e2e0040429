import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { anchorOf } from './anchored.js';
import { createServer } from './createServer.js';
import type { ServerState } from './tool.js';

/**
 * Serves over stdio: one server per connection, for either protocol era. Every workspace root is
 * opened and verified first, so each later walk starts from the folder that was granted.
 */
export function serve(state: ServerState): void {
  for (const grant of state.grants) anchorOf(grant, state.platform);
  serveStdio(({ era }) => createServer(state, era), { onerror: (error) => state.logger(error.message) });
}
