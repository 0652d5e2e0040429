/**
 * The messages between the extension and the inspector webview, both directions, in one file
 * that both sides import. Each union is keyed on `type`; a `switch` over it ends in an
 * exhaustiveness check. Only types cross: the webview never runs the pipeline itself.
 */
import type { Platform, Policy, Trace } from '../core/types.js';
import type { ProtectionLayer } from './layers.js';

export type { Platform, Policy, ProtectionLayer, Trace };

/** A root the picker offers: a workspace folder as VS Code spells its URI. */
export interface RootChoice {
  readonly label: string;
  readonly uri: string;
  readonly rights: 'read' | 'read-write' | 'none';
}

/** One line of the server's refusal log. */
export interface RefusalEntry {
  readonly time: string;
  readonly tool: string;
  readonly workspaceUri: string | null;
  readonly input: string;
  readonly code: string;
  readonly stage: string;
  readonly reason: string;
  readonly trace: Trace | null;
}

export interface TraceRequest {
  readonly input: string;
  readonly root: string;
  readonly platform: Platform;
  readonly policy: Policy;
}

/** What the panel keeps across reloads and restarts (the serializer hands it back). */
export interface PanelState {
  readonly input: string;
  readonly root: string;
  readonly platform: Platform;
  readonly policy: Policy;
}

export type WebviewMessage =
  /** The webview's script has loaded: the extension posts nothing before this. */
  | { readonly type: 'ready' }
  /** Trace this; `id` increases, so a late answer to an older request is dropped. */
  | { readonly type: 'trace'; readonly id: number; readonly request: TraceRequest }
  /** Put one JSON table row on the clipboard. */
  | { readonly type: 'copyTestCase'; readonly row: string };

export type ExtensionMessage =
  | {
      readonly type: 'init';
      readonly roots: readonly RootChoice[];
      readonly hostPlatform: Platform;
      readonly settings: Policy;
      /** Why nothing is granted to the agent, when nothing is (an untrusted workspace); null otherwise. */
      readonly grantNote: string | null;
      readonly logPath: string | null;
      /** What protects the boundary on this host: authorization, containment, anchored I/O, sandbox. */
      readonly layers: readonly ProtectionLayer[];
      /** State to restore, or a starting input from a command. */
      readonly state: PanelState | null;
    }
  /** A command asked to inspect this input (the input box, the explorer or editor-title menu). */
  | { readonly type: 'inspect'; readonly input: string; readonly root: string | null }
  | { readonly type: 'traceResult'; readonly id: number; readonly trace: Trace }
  /** The newest refusals first; sent again whenever the log changes. */
  | { readonly type: 'refusals'; readonly entries: readonly RefusalEntry[] }
  | { readonly type: 'showRefusals' }
  | { readonly type: 'copied'; readonly ok: boolean };

export function assertNever(value: never): never {
  throw new Error(`unexpected message ${JSON.stringify(value)}`);
}
