import { ProtocolError, ProtocolErrorCode, type McpServer, type Resource } from '@modelcontextprotocol/server';
import { pathToUri, traceAgainst, type Trace } from '../core/index.js';
import { anchorOf, ChangedError, readFile } from './anchored.js';
import type { Grant } from './grants.js';
import { mimeTypeOf } from './mime.js';
import type { ServerState } from './tool.js';

/** Enough to browse a workspace; an agent lists folders with the tools beyond this. */
export const MAX_LISTED_RESOURCES = 1000;
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
const MAX_RESOURCE_BYTES = 16 * 1024 * 1024;

/** Files of one workspace, breadth first, each folder opened from the root's descriptor down, never through a link. */
function listFiles(grant: Grant, state: ServerState, limit: number): Resource[] {
  const anchor = anchorOf(grant, state.platform);
  const resources: Resource[] = [];
  const queue: string[][] = [[]];
  while (queue.length > 0 && resources.length < limit) {
    const names = queue.shift()!;
    let folder;
    try {
      folder = anchor.folder(names);
    } catch (error) {
      // Removed, unreadable, or replaced by a link since it was listed: skipped.
      if (error instanceof ChangedError || typeof (error as NodeJS.ErrnoException).code === 'string') continue;
      throw error;
    }
    try {
      for (const entry of folder.list()) {
        if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) queue.push([...names, entry.name]);
        else if (entry.isFile() && resources.length < limit) {
          resources.push({
            uri: pathToUri(folder.pathOf(entry.name), state.platform),
            name: [...names, entry.name].join('/'),
            mimeType: mimeTypeOf(entry.name),
          });
        }
      }
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).code !== 'string') throw error;
    } finally {
      folder.close();
    }
  }
  return resources;
}

/** The grant that contains the URI (the deepest when workspaces nest), or the trace that says why none does. */
function locate(uri: string, state: ServerState): { grant: Grant; trace: Trace } | { refusal: Trace } {
  const traces = state.grants.map((grant) => ({ grant, trace: traceAgainst(grant.root, uri) }));
  const inside = traces.filter(({ trace }) => trace.verdict === 'inside');
  if (inside.length > 0) return inside.reduce((deepest, next) => (next.grant.realPath.length > deepest.grant.realPath.length ? next : deepest));
  const first = traces[0]!.trace;
  if (first.verdict === 'outside' && traces.length > 1) {
    return { refusal: { ...first, reason: `${first.path} is not inside any granted workspace (${state.grants.map((grant) => grant.uri).join(', ')}).` } };
  }
  return { refusal: first };
}

/**
 * Resources: every granted workspace's files, with URIs built by pathToFileURL so each converts
 * back to its file; `resources/read` of any URI goes through the same pipeline as the tools.
 * Registered on the low-level server so the read handler sees the URI exactly as sent, before
 * any URL parser has rewritten it.
 */
export function registerResources(server: McpServer, state: ServerState): void {
  server.server.registerCapabilities({ resources: {} });
  server.server.setRequestHandler('resources/list', async () => {
    const resources: Resource[] = [];
    for (const grant of state.grants) resources.push(...listFiles(grant, state, MAX_LISTED_RESOURCES - resources.length));
    return { resources };
  });
  server.server.setRequestHandler('resources/read', async (request) => {
    const uri = request.params.uri;
    const located = locate(uri, state);
    if ('refusal' in located) {
      const trace = located.refusal;
      void state.log.record('resources/read', null, uri, { code: trace.code!, stage: trace.stage, reason: trace.reason, trace });
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Refused (${trace.code} at ${trace.stage}): ${trace.reason}`, {
        uri,
        code: trace.code,
        stage: trace.stage,
        reason: trace.reason,
      });
    }
    const { bytes } = readFile(anchorOf(located.grant, state.platform), located.trace.path!, MAX_RESOURCE_BYTES);
    const mimeType = mimeTypeOf(located.trace.path!);
    const text = new TextDecoder('utf-8', { fatal: true });
    try {
      return { contents: [{ uri, mimeType, text: text.decode(bytes) }] };
    } catch {
      return { contents: [{ uri, mimeType, blob: bytes.toString('base64') }] };
    }
  });
}
