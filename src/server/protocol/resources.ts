import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import nodePath from 'node:path';
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type McpServer, type Resource } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { pathToUri, SECRET_DECISION_WORDS, traceAgainst, type Trace } from '../../core/index.js';
import { currentAnchor, readFile } from '../fs/index.js';
import { workspaceChangeRefusal } from '../refusals/refusal.js';
import { heavyCalls } from './callGate.js';
import type { Grant } from '../grants.js';
import { formatBytes, jsonLength, MAX_ANSWER_BYTES, MAX_MEDIA_BYTES, MAX_WALK_DEPTH, RESOURCE_PAGE_ENTRIES, RESOURCE_PAGE_MILLISECONDS, RESOURCES_PER_PAGE } from '../limits.js';
import { mimeTypeOf } from '../mime.js';
import { decodeText } from '../text.js';
import type { RefusalListener } from './refusalNotices.js';
import type { ServerState } from '../tools/tool.js';
import { workspaceNow } from './session.js';
import { STOP, walk } from '../fs/index.js';
import { viewNamed } from '../tools/appViews.js';
import { heldInWalk, type Held } from '../tools/secretConsent.js';
import { readView } from './viewResource.js';

const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
/** A resource read answers with the file's text or base64, which must fit one answer. */
const MAX_RESOURCE_BYTES = MAX_MEDIA_BYTES;
/** A cursor names at most one folder per level of the walk: anything longer is not one of ours. */
const MAX_CURSOR_CHARS = 64 * 1024;
/** Entries a page examines whatever the time: a folder that alone takes the page's time to read must not stop every page where it began. */
const RESOURCE_PAGE_MIN_ENTRIES = 1000;

/** A held file is listed, marked in its description: what reading it does. */
const HELD_DESCRIPTIONS: Readonly<Record<Held, string>> = {
  ask: `Held by the secrets policy, ${SECRET_DECISION_WORDS.ask}: resources/read refuses it, and read_text_file asks the person.`,
  deny: `Held by the secrets policy, ${SECRET_DECISION_WORDS.deny}: no read is allowed.`,
};

/** Where a resources/list page stopped: which workspace, and where in its walk (anchored walk positions). */
interface Position {
  readonly grant: number;
  readonly after: readonly string[];
}

/**
 * Cursors are opaque to the client (MCP pagination) and signed with a key this process made at
 * start-up: a cursor the server did not hand out, or one from an earlier run, is refused
 * (-32602), so a forged one can never name a folder the walk did not reach.
 */
const cursorKey = randomBytes(32);

function signature(payload: string): Buffer {
  return createHmac('sha256', cursorKey).update(payload).digest().subarray(0, 16);
}

function encodeCursor(position: Position): string {
  const payload = Buffer.from(JSON.stringify({ g: position.grant, a: position.after })).toString('base64url');
  return `${payload}.${signature(payload).toString('base64url')}`;
}

function validName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= 1024 && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

function decodeCursor(cursor: string, grants: number): Position {
  const invalid = (why: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${why}. Pass a nextCursor from resources/list exactly, or no cursor to start over.`);
  if (cursor.length > MAX_CURSOR_CHARS) throw invalid('it is longer than any cursor this server hands out');
  const [payload, mac, extra] = cursor.split('.');
  if (payload === undefined || mac === undefined || extra !== undefined) throw invalid('it is not one this server handed out');
  const given = Buffer.from(mac, 'base64url');
  const expected = signature(payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('it is not one this server handed out (or it is from an earlier run)');
  let value: { g?: unknown; a?: unknown };
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof value;
  } catch {
    throw invalid('it does not decode');
  }
  const { g, a } = value;
  if (typeof g !== 'number' || !Number.isInteger(g) || g < 0 || g >= grants) throw invalid('it names no workspace');
  if (!Array.isArray(a) || a.length === 0 || a.length > MAX_WALK_DEPTH + 1) throw invalid('it names no place in a walk');
  if (!a.every((name, i) => validName(name) && (name !== '' || i === a.length - 1))) throw invalid('it names no place in a walk');
  return { grant: g, after: a as string[] };
}

/**
 * One page of files, workspace after workspace: each walked depth first in name order from its
 * root descriptor down, never through a link, skipping .git and node_modules. A page ends when
 * it holds RESOURCES_PER_PAGE resources, or has examined RESOURCE_PAGE_ENTRIES entries, or has
 * run RESOURCE_PAGE_MILLISECONDS; its cursor says where the next one begins.
 */
function listPage(state: ServerState, from: Position): { resources: Resource[]; next: Position | undefined } {
  const resources: Resource[] = [];
  const deadline = Date.now() + RESOURCE_PAGE_MILLISECONDS;
  let examined = 0;
  let position: Position | undefined = from;
  while (position !== undefined && position.grant < state.grants.length) {
    const grant: Grant = state.grants[position.grant]!;
    const current = currentAnchor(grant, state.platform);
    // A workspace no longer at its path lists nothing: its files are not where their URIs say.
    if ('change' in current) {
      position = { grant: position.grant + 1, after: [''] };
      continue;
    }
    const anchor = current.anchor;
    let result;
    try {
      result = walk<true>({
        anchor,
        start: [],
        context: true,
        maxEntries: RESOURCE_PAGE_ENTRIES - examined,
        deadline,
        minEntries: Math.min(RESOURCE_PAGE_MIN_ENTRIES, RESOURCE_PAGE_ENTRIES - examined),
        resume: position.after,
        exclude: (entry) => entry.type === 'directory' && SKIPPED_FOLDERS.has(entry.name),
        visit(entry, below) {
          if (entry.type === 'file') {
            const held = heldInWalk(grant, state.platform, entry.names, false)?.decision;
            resources.push({
              uri: pathToUri(nodePath.join(anchor.rootPath, ...entry.names), state.platform),
              name: entry.relative,
              mimeType: mimeTypeOf(entry.name),
              ...(held !== undefined ? { description: HELD_DESCRIPTIONS[held] } : {}),
            });
            // Stopping on a file that is already listed: the next page starts after it.
            if (resources.length >= RESOURCES_PER_PAGE) return STOP;
          }
          return below.kind === 'folder' ? true : undefined;
        },
      });
    } catch (error) {
      // A workspace root that cannot be read now is passed by.
      if (typeof (error as NodeJS.ErrnoException).code !== 'string') throw error;
      result = { stopped: 'done' as const, examined: 0, position: undefined };
    }
    examined += result.examined;
    if (result.stopped === 'done') position = { grant: position.grant + 1, after: [''] };
    else return { resources, next: { grant: position.grant, after: result.position! } };
    if (examined >= RESOURCE_PAGE_ENTRIES || Date.now() > deadline) break;
  }
  return { resources, next: position !== undefined && position.grant < state.grants.length ? position : undefined };
}

/** The grant that contains the URI (the deepest when workspaces nest), or the trace that says why none does. */
function locate(uri: string, state: ServerState): { grant: Grant; trace: Trace } | { refusal: Trace } {
  const traces = state.grants.map((grant) => ({ grant, trace: traceAgainst(grant.root, uri) }));
  const inside = traces.filter(({ trace }) => trace.verdict === 'inside');
  if (inside.length > 0) return inside.reduce((deepest, next) => (next.grant.realPath.length > deepest.grant.realPath.length ? next : deepest));
  // Inside a workspace whose secrets policy holds it: nothing here asks the person, the tools do.
  const held = traces.find(({ trace }) => trace.code === 'ERR_SECRET');
  if (held !== undefined) return { refusal: held.trace };
  const first = traces[0]!.trace;
  if (first.verdict === 'outside' && traces.length > 1) {
    return { refusal: { ...first, reason: `${first.path} is not inside any granted workspace (${state.grants.map((grant) => grant.uri).join(', ')}).` } };
  }
  return { refusal: first };
}

/** Params as MCP defines them; checked here so a wrong type is -32602 (Invalid params), not an internal error. */
const listParams = z.looseObject({ cursor: z.string().optional() });
const readParams = z.looseObject({ uri: z.string() });

/**
 * Resources: every granted workspace's files, paginated, with URIs built by pathToFileURL so each
 * converts back to its file; `resources/read` of any URI goes through the same pipeline as the
 * tools. Registered on the low-level server so the read handler sees the URI exactly as sent,
 * before any URL parser has rewritten it. Both take a turn at the heavy-call gate.
 */
/** `onRefusal` hears each refusal of a resource read, as the refusal log does. */
export function registerResources(server: McpServer, state: ServerState, onRefusal: RefusalListener): void {
  server.server.registerCapabilities({ resources: {} });
  server.server.setRequestHandler('resources/list', { params: listParams }, async (params, ctx) => {
    const from = params.cursor === undefined ? { grant: 0, after: [''] } : decodeCursor(params.cursor, state.grants.length);
    const page = await heavyCalls.run(async () => listPage(state, from), ctx.mcpReq.signal);
    return { resources: page.resources, ...(page.next !== undefined ? { nextCursor: encodeCursor(page.next) } : {}) };
  });
  // Declared resources list their templates too: there are none, every file is listed itself.
  server.server.setRequestHandler('resources/templates/list', { params: listParams }, async () => ({ resourceTemplates: [] }));
  server.server.setRequestHandler('resources/read', { params: readParams }, async (params, ctx) => {
    const uri = params.uri;
    // An MCP Apps view (tools/appViews.ts): read by the URI its tool names, never listed, so that
    // every listed resource stays a file of a workspace.
    const view = viewNamed(uri);
    if (view !== undefined) return readView(view);
    const located = locate(uri, state);
    if ('refusal' in located) {
      const trace = located.refusal;
      // On disk before the client sees the refusal; a failure to write it is reported, never thrown.
      const refusal = { code: trace.code!, stage: trace.stage, reason: trace.reason, trace };
      onRefusal('resources/read', null, uri, refusal);
      await state.log.record('resources/read', null, uri, refusal);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Refused (${trace.code} at ${trace.stage}): ${trace.reason}`, {
        uri,
        code: trace.code,
        stage: trace.stage,
        reason: trace.reason,
      });
    }
    return heavyCalls.run(async () => {
      const path = located.trace.path!;
      const current = await workspaceNow(state, located.grant, false);
      if ('change' in current) {
        const refusal = workspaceChangeRefusal(current.change);
        onRefusal('resources/read', located.grant.uri, uri, refusal);
        await state.log.record('resources/read', located.grant.uri, uri, refusal);
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Refused (${refusal.code} at ${refusal.stage}): ${refusal.reason}`, {
          uri,
          code: refusal.code,
          stage: refusal.stage,
          reason: refusal.reason,
        });
      }
      let bytes: Buffer;
      try {
        let stats;
        ({ bytes, stats } = readFile(current.anchor.checked(path), MAX_RESOURCE_BYTES));
        state.reads.remember(path, stats);
      } catch (error) {
        // Inside the workspace and allowed, but nothing is there: the SDK's "resource not found", not an internal error.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') throw new ResourceNotFoundError(uri);
        // What the request asks for is at fault, not the server: a file too large, a folder, a FIFO.
        if (code === 'EFBIG' || code === 'EISDIR' || code === 'EINVAL') throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message, { uri });
        throw error;
      }
      const mimeType = mimeTypeOf(path);
      // Text as the text tools read it (text.ts); anything else as base64, whatever its name says.
      const decoded = decodeText(bytes);
      if ('notText' in decoded) return { contents: [{ uri, mimeType, blob: bytes.toString('base64') }] };
      if (jsonLength(decoded.text) > MAX_ANSWER_BYTES) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `${uri} takes more than the ${formatBytes(MAX_ANSWER_BYTES)} one answer carries once encoded; read it in parts with read_text_file (offset, limit).`,
        );
      }
      return { contents: [{ uri, mimeType, text: decoded.text }] };
    }, ctx.mcpReq.signal);
  });
}
