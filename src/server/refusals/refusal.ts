import { REFUSAL_META_KEY } from '../../shared/runOnServer.js';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { verdictFor, type RefusalCode, type Trace } from '../../core/index.js';
import type { WorkspaceChange } from '../fs/index.js';

/** A refusal as the server reports it: the core's verdict, or one of the server's own codes. */
export interface ServerRefusal {
  readonly code: RefusalCode;
  readonly stage: string;
  readonly reason: string;
  readonly path: string | null;
  readonly trace: Trace | null;
  /** `asked`: a secret the person was asked about, logged as asked rather than as a refusal. */
  readonly event?: 'asked';
}

export function refusalFromTrace(trace: Trace): ServerRefusal {
  return { code: trace.code!, stage: trace.stage, reason: trace.reason, path: trace.path, trace };
}

/** Hears each refusal as it is recorded in the refusal log (the client's notices). */
export type RefusalListener = (tool: string, workspaceUri: string | null, input: string, refusal: Pick<ServerRefusal, 'code' | 'stage' | 'reason' | 'trace' | 'event'>) => void;

/** The codes the server gives itself, after the core's verdict. */
export type ServerCode = 'ERR_NOT_GRANTED' | 'ERR_READ_ONLY' | 'ERR_WORKSPACE_GONE' | 'ERR_WORKSPACE_REPLACED' | 'ERR_WORKSPACE_UNMOUNTED' | 'ERR_CHANGED_SINCE_READ' | 'ERR_FILE_CHANGED' | 'ERR_NOT_TEXT';

export function serverRefusal(code: ServerCode, reason: string): ServerRefusal {
  return { code, stage: 'server', reason, path: null, trace: null };
}

const WORKSPACE_CHANGE_CODES = { gone: 'ERR_WORKSPACE_GONE', replaced: 'ERR_WORKSPACE_REPLACED', unmounted: 'ERR_WORKSPACE_UNMOUNTED' } as const;

/** The workspace folder is no longer the one the granted path names: nothing was read or changed. */
export function workspaceChangeRefusal(change: WorkspaceChange): ServerRefusal {
  return serverRefusal(WORKSPACE_CHANGE_CODES[change.kind], `The workspace changed under the server: ${change.detail}. Nothing was read or changed.`);
}

/**
 * One short sentence that sends the model to explain_path for a path the core refused: a client
 * that shows MCP Apps then shows the person the trace, in the conversation.
 */
export const EXPLAIN_HINT = 'explain_path with the same path shows each stage.';

/** What an agent should do next, by code: the text part of a refusal. */
export function nextStep(refusal: ServerRefusal): string {
  if (refusal.stage === 'root') {
    return 'The workspaceUri itself was refused: call list_workspaces and pass one of its URIs as workspaceUri.';
  }
  switch (refusal.code) {
    case 'ERR_NOT_GRANTED':
      return 'Call list_workspaces and pass a granted workspace itself as workspaceUri, and the rest of the path as path.';
    case 'ERR_READ_ONLY':
      return 'This workspace is granted read-only: read instead, or ask the user to grant it read-write.';
    case 'ERR_WORKSPACE_GONE':
      return 'Tell the user the workspace folder is not at its path any more; nothing can be done there until it is back.';
    case 'ERR_WORKSPACE_REPLACED':
    case 'ERR_WORKSPACE_UNMOUNTED':
      return 'Nothing was done. The folder now at the workspace path is served from the next call: read again before changing anything.';
    case 'ERR_CHANGED_SINCE_READ':
      return 'Read the file again, then make the change against what it holds now.';
    case 'ERR_FILE_CHANGED':
      return 'Nothing of this change was kept. Read the file again and redo the change on what it holds now.';
    case 'ERR_NAME_TOO_LONG':
      return 'No entry can have that name here: the filesystem holds shorter names. Use a shorter name.';
    case 'ERR_NOT_TEXT':
      return 'Use read_media_file for this file: the text tools read and change UTF-8 text only.';
    case 'ERR_OUTSIDE':
    case 'ERR_SYMLINK_ESCAPE':
      // The reason says already which path would be inside.
      return `list_workspaces names the granted workspaces; ${EXPLAIN_HINT}`;
    case 'ERR_SCHEME':
    case 'ERR_HOST':
    case 'ERR_QUERY_OR_FRAGMENT':
    case 'ERR_UNC':
    case 'ERR_DEVICE_PATH':
    case 'ERR_NUL':
    case 'ERR_ENCODED_SEPARATOR':
    case 'ERR_ILLEGAL_CHARACTER':
    case 'ERR_BAD_ENCODING':
    case 'ERR_PARSE':
      return `Send a plain path relative to the workspace (for example src/index.ts), or a file:///... URI with no host, query or fragment. ${EXPLAIN_HINT}`;
    default:
      return 'Call explain_path with the same path to see which stage refused it and why.';
  }
}

export interface RefusalContent {
  readonly [key: string]: unknown;
  readonly refused: true;
  readonly code: RefusalCode;
  readonly stage: string;
  readonly verdict: 'outside' | 'refused';
  readonly reason: string;
  readonly next: string;
  readonly path: string | null;
  readonly input: string;
  readonly workspaceUri: string | null;
}

export { REFUSAL_META_KEY };

export function refusalResult(refusal: ServerRefusal, input: string, workspaceUri: string | null): CallToolResult {
  const next = nextStep(refusal);
  const details: RefusalContent = {
    refused: true,
    code: refusal.code,
    stage: refusal.stage,
    verdict: verdictFor(refusal.code),
    reason: refusal.reason,
    next,
    path: refusal.path,
    input,
    workspaceUri,
  };
  return {
    isError: true,
    content: [{ type: 'text', text: `Refused (${refusal.code} at ${refusal.stage}): ${refusal.reason}\nNext: ${next}` }],
    _meta: { [REFUSAL_META_KEY]: details },
  };
}
