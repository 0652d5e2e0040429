import type { CallToolResult, ContentBlock, ToolAnnotations } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { isInside, pathToUri, splitAbsolute, traceAgainst, type Platform, type Trace } from '../core/index.js';
import type { Grant } from './grants.js';
import { refusalFromTrace, serverRefusal, type ServerRefusal } from './refusal.js';
import type { RefusalLog } from './refusalLog.js';
import type { SandboxState } from './sandbox.js';
import { anchorOf, ChangedError, type Anchor } from './anchored.js';

export interface ServerState {
  readonly grants: readonly Grant[];
  readonly log: RefusalLog;
  readonly platform: Platform;
  readonly sandbox: SandboxState;
  /** Logs go to stderr: stdout carries JSON-RPC only. */
  readonly logger: (message: string) => void;
}

export type Checked =
  | { readonly ok: true; readonly path: string; readonly trace: Trace }
  | { readonly ok: false; readonly refusal: ServerRefusal; readonly input: string };

/** What a tool works with once its workspace is authorised: containment checks, logged when they refuse. */
export interface Scope {
  readonly grant: Grant;
  readonly state: ServerState;
  readonly tool: string;
  /** The workspace root held open: every filesystem call after the verdict goes through it. */
  readonly anchor: Anchor;
  /**
   * Traces `input` against the workspace. `followFinal: false` for operations on the name itself
   * (write, delete, move): a link there is the subject, never followed.
   */
  check(input: string, options?: { readonly followFinal?: boolean }): Checked;
  /**
   * Checks again, immediately before a mutation, where the I/O is not anchored (macOS, Windows);
   * a refusal, or undefined when the checked path still stands. Anchored I/O needs none: its walk
   * from the root is itself the proof.
   */
  recheck(checked: Extract<Checked, { ok: true }>, options?: { readonly followFinal?: boolean }): Extract<Checked, { ok: false }> | undefined;
  /** Records a refusal that did not come from `check`. */
  record(refusal: ServerRefusal, input: string): void;
  uriOf(path: string): string;
  relative(path: string): string;
  /** Whether a real path is the workspace folder itself, compared as the workspace compares names. */
  isWorkspaceRoot(path: string): boolean;
}

export type Outcome =
  | {
      readonly kind: 'ok';
      readonly structured: Record<string, unknown>;
      readonly text: string;
      readonly content?: readonly ContentBlock[];
    }
  | { readonly kind: 'refused'; readonly refusal: ServerRefusal; readonly input: string };

export function ok(structured: Record<string, unknown>, text: string, content?: readonly ContentBlock[]): Outcome {
  return content ? { kind: 'ok', structured, text, content } : { kind: 'ok', structured, text };
}

export function refused(checked: Extract<Checked, { ok: false }>): Outcome {
  return { kind: 'refused', refusal: checked.refusal, input: checked.input };
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Fields besides workspaceUri, which every workspace tool takes. */
  readonly input: Shape;
  readonly output: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /** `write` needs a read-write grant. */
  readonly access: 'read' | 'write';
  run(args: z.infer<z.ZodObject<Shape>>, scope: Scope): Promise<Outcome>;
}

export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return definition;
}

export const pathField = z
  .string()
  .describe('The file or folder: relative to the workspace (src/index.ts), absolute, or a file:///... URI inside the workspace.');

export const workspaceUriDescription =
  'The workspace this call acts in: one of the URIs list_workspaces returns, exactly (for example file:///home/me/project).';

/** A read-only workspace inside the checked path's workspace stays read-only, whichever grant names it. */
function readOnlyGrantHolding(state: ServerState, grant: Grant, path: string): Grant | undefined {
  const split = splitAbsolute(path, state.platform);
  if (split === null) return undefined;
  return state.grants.find(
    (other) => other !== grant && other.rights === 'read' && isInside(other.root.real ?? other.root.split, split, other.root.comparison),
  );
}

export function makeScope(state: ServerState, grant: Grant, tool: string, workspaceUri: string, access: 'read' | 'write'): Scope {
  const record = (refusal: ServerRefusal, input: string) => {
    void state.log.record(tool, workspaceUri, input, refusal);
  };
  const check = (input: string, options: { readonly followFinal?: boolean } = {}): Checked => {
    const trace = traceAgainst(grant.root, input, { followFinal: options.followFinal ?? true });
    let refusal: ServerRefusal;
    if (trace.verdict === 'inside' && trace.path !== null) {
      const readOnly = access === 'write' ? readOnlyGrantHolding(state, grant, trace.path) : undefined;
      if (readOnly === undefined) return { ok: true, path: trace.path, trace };
      refusal = {
        ...serverRefusal('ERR_READ_ONLY', `${trace.path} lies inside ${readOnly.uri}, which is granted read-only; ${tool} changes files.`),
        path: trace.path,
        trace,
      };
    } else refusal = refusalFromTrace(trace);
    record(refusal, input);
    return { ok: false, refusal, input };
  };
  const anchor = anchorOf(grant, state.platform);
  return {
    grant,
    state,
    tool,
    anchor,
    check,
    recheck(checked, options) {
      if (anchor.mode === 'descriptor') return undefined;
      // The checked real path itself must still trace to itself: a link put in its way since the
      // first check either leads outside (refused) or elsewhere inside (changed: nothing is done).
      const again = check(checked.path, options);
      if (!again.ok) return again;
      if (again.path !== checked.path) throw new ChangedError(checked.path, `it now resolves to ${again.path}`);
      return undefined;
    },
    record,
    uriOf: (path) => pathToUri(path, state.platform),
    isWorkspaceRoot(path) {
      const split = splitAbsolute(path, state.platform);
      const root = grant.root.real ?? grant.root.split;
      return split !== null && split.names.length === root.names.length && isInside(root, split, grant.root.comparison);
    },
    relative(path) {
      // For display only: containment was decided by the core.
      const base = grant.realPath;
      if (path === base) return '.';
      const sep = state.platform === 'win32' ? '\\' : '/';
      return path.startsWith(base + sep) ? path.slice(base.length + 1) : path;
    },
  };
}

export function toResult(outcome: Extract<Outcome, { kind: 'ok' }>): CallToolResult {
  return {
    content: [...(outcome.content ?? []), { type: 'text', text: outcome.text }],
    structuredContent: outcome.structured,
  };
}
