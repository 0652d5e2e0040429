/**
 * The messages between the extension and the inspector webview, both directions, in one file
 * that both sides import. Each union is keyed on `type`; a `switch` over it ends in an
 * exhaustiveness check. Only types cross: the webview never runs the pipeline itself.
 */
import type { Platform, Policy, Trace } from '../core/types.js';
import type { Decision, DeciderName, DeciderVerdict, Fix, RuleSource } from '../deciders/types.js';
import type { ProtectionLayer } from './layers.js';
import type { ToolName } from './operations.js';
import type { SimulatedRoots } from './simulatedRoots.js';

export type { Decision, DeciderName, DeciderVerdict, Fix, Platform, Policy, ProtectionLayer, RuleSource, SimulatedRoots, ToolName, Trace };

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
  /** Absent for a refusal; `not-found` for a path inside that named nothing (ENOENT). */
  readonly event?: 'not-found';
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
  /**
   * The tool whose operation is explained ("As seen by"): one of this server's, which decides
   * whether a link at the last name is followed; with another decider, that program's own tool
   * too (Claude Code's `Edit`), or this server's taken by what it does.
   */
  readonly tool: string;
  /** The program whose decision is traced ("Decided by"); absent: this server, boundary-inspector. */
  readonly decider?: DeciderName;
  /** The workspace folder a simulated root stands for (boundaryInspector.simulatedRoots): its grant decides. */
  readonly workspace?: string;
}

/** What the server would refuse beyond the trace: a root it was not granted, a change in a workspace granted read-only. */
export interface ServerNote {
  readonly code: 'ERR_NOT_GRANTED' | 'ERR_READ_ONLY';
  readonly reason: string;
}

/** A program whose decisions the inspector models (src/deciders): "Decided by" offers each. */
export interface DeciderChoice {
  readonly name: DeciderName;
  /** The program's name, for people (`Claude Code`). */
  readonly program: string;
  readonly version: string;
  /** Its own tool names, by what they do; the first of each is its default. */
  readonly tools: { readonly read: readonly string[]; readonly change: readonly string[] };
}

/** One program's decision on the input, a row of the side-by-side table. */
export type ComparedRow =
  | {
      readonly decider: DeciderName;
      /** Its own tool the input was judged as (`Write` for a change to Claude Code). */
      readonly tool: string;
      readonly decision: Decision;
      /** The rule or layer that decided, and where it came from. */
      readonly rule: { readonly text: string; readonly source?: RuleSource };
    }
  /** The model failed on this input: the others' rows stand. */
  | { readonly decider: DeciderName; readonly tool: string; readonly error: string }
  /** Not decided where the comparison was made (the MCP Apps view's server): what the program reads that could not be seen there. */
  | { readonly decider: DeciderName; readonly tool: string; readonly unseen: readonly string[] };

/** A program's verdict as the panel shows it: the files it names that can be opened here, and what it was judged from. */
export interface ShownVerdict extends DeciderVerdict {
  /** The files this verdict names (fixes, rules, configuration files) that exist on this machine now; none when another platform is simulated. */
  readonly present: readonly string[];
  /** The working folder the program was taken to start in (the root's folder). */
  readonly cwd: string;
  /** Another platform than this machine's: nothing of this disk was read. */
  readonly simulated: boolean;
}

/** One audit finding, as the panel lists it (src/audit/audit.ts `Finding`). */
export interface AuditFinding {
  readonly kind: string;
  /** The entry's path as the workspace folder spells it. */
  readonly path: string;
  readonly detail: string;
}

/** The last audit of one workspace folder. */
export interface AuditSummary {
  /** The folder's URI, as the root picker offers it. */
  readonly root: string;
  readonly label: string;
  readonly time: string;
  readonly scanned: number;
  readonly truncated: boolean;
  /** The findings the audit kept; `findings` may hold fewer (the Problems panel has them all). */
  readonly total: number;
  /** Findings the audit found but did not keep (past its bounds), besides `total`. */
  readonly notKept: number;
  readonly findings: readonly AuditFinding[];
  /** Why the audit did not finish (cancelled, or the folder could not be walked); null when it did. */
  readonly error: string | null;
}

/** What the panel keeps across reloads and restarts (the serializer hands it back). */
export interface PanelState {
  readonly input: string;
  readonly root: string;
  readonly platform: Platform;
  readonly policy: Policy;
  /** Absent in a state saved before the "As seen by" selector existed; a program's own tool with `decider`. */
  readonly tool?: string;
  /** "Decided by"; absent in a state saved before the selector existed (this server). */
  readonly decider?: DeciderName;
  /** "Hide unchanged stages"; absent in a state saved before the box existed (unchecked). */
  readonly hideUnchanged?: boolean;
  /** The traced inputs, for Back and Forward; absent in a state saved before the history existed. */
  readonly history?: PanelHistory;
  /** How the refusal list is filtered; absent in a state saved before the filters existed. */
  readonly feed?: FeedFilter;
}

/** The refusal list's filters: each empty string means any. */
export interface FeedFilter {
  readonly search: string;
  /** A refusal code, or `not found`. */
  readonly code: string;
  readonly tool: string;
  readonly workspace: string;
  /** Entries up to this time were cleared from the list (the log keeps them); empty: none. */
  readonly clearedBefore: string;
}

/** One traced input as Back and Forward restore it. */
export interface HistoryEntry {
  readonly input: string;
  readonly root: string;
  readonly platform: Platform;
  readonly policy: Policy;
  readonly tool: string;
  /** Absent in an entry saved before "Decided by" existed (this server). */
  readonly decider?: DeciderName;
}

export interface PanelHistory {
  /** Oldest first, at most a bounded number. */
  readonly entries: readonly HistoryEntry[];
  /** The entry on screen. */
  readonly index: number;
}

/** The real server's answer to a call the panel ran ("Run on the server"). */
export type ToolAnswer =
  | {
      readonly kind: 'ok' | 'error' | 'refused';
      /** The answer's text, cut for display; `omittedChars` were left out. */
      readonly text: string;
      readonly omittedChars: number;
      /** A refusal's code and the stage that decided, from the result's metadata. */
      readonly code?: string;
      readonly stage?: string;
    }
  /** Not called: why (a tool that needs more than a path, a root not granted, the person said no). */
  | { readonly kind: 'not-run'; readonly reason: string }
  /** The server could not be started or did not answer. */
  | { readonly kind: 'failed'; readonly reason: string };

/** Whether the agent's server runs, as the extension finds its process (src/extension/serverProcess.ts). */
export type ServerStatus =
  /** Nothing is granted, so no server is offered to the agent. */
  | { readonly kind: 'none' }
  /** Not told here (Windows), or not looked for yet. */
  | { readonly kind: 'unknown' }
  | { readonly kind: 'stopped' }
  /** `current`: started with the grants and settings of now; `sandbox`: the program seen holding it in its sandbox, if any. */
  | { readonly kind: 'running'; readonly pid: number; readonly current: boolean; readonly sandbox: string | null };

/** The sections a command can bring into view: the refusal list, the protection layers. */
export type PanelSection = 'refusals' | 'protection';

export type WebviewMessage =
  /** The webview's script has loaded: the extension posts nothing before this. */
  | { readonly type: 'ready' }
  /** The page, just loaded or asked to `measure`, was drawn: `clipped` when not all its width is within the window, which is `windowWidth` wide. */
  | { readonly type: 'drawn'; readonly clipped: boolean; readonly windowWidth: number }
  /** Trace this; `id` increases, so a late answer to an older request is dropped. */
  | { readonly type: 'trace'; readonly id: number; readonly request: TraceRequest }
  /** Put text on the clipboard: a trace as one JSON table row, or a fix's text. */
  | { readonly type: 'copy'; readonly text: string; readonly what: CopyPurpose }
  /**
   * Open a file the shown verdict names, at `line` (and `lines` lines from it) when given; a file
   * not there yet opens as a new, unsaved editor holding `add`, so nothing is written unless the person saves it.
   */
  | { readonly type: 'openFile'; readonly file: string; readonly line?: number; readonly lines?: number; readonly add?: string }
  /** Run "Audit Workspace Boundaries". */
  | { readonly type: 'runAudit' }
  /** Open the server's refusal log in an editor. */
  | { readonly type: 'openLog' }
  /** Call `tool` on the real server with this input against this root; a change only once the person confirms. */
  | { readonly type: 'runTool'; readonly id: number; readonly tool: ToolName; readonly input: string; readonly root: string }
  /** Show the editor's list of MCP servers, where the server is started, stopped and restarted. */
  | { readonly type: 'listServers' };

/** What a copy was of: its status is said beside what was copied. */
export type CopyPurpose = 'test-case' | 'fix';

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
      readonly server: ServerStatus;
      /** Where a workspace folder is put when another platform is simulated (boundaryInspector.simulatedRoots). */
      readonly simulatedRoots: SimulatedRoots;
      /** "Decided by": every program modelled, this server first. */
      readonly deciders: readonly DeciderChoice[];
      /** State to restore, or a starting input from a command. */
      readonly state: PanelState | null;
    }
  /** A command asked to inspect this input (the input box, the explorer or editor-title menu). */
  | { readonly type: 'inspect'; readonly input: string; readonly root: string | null }
  /** Load this logged refusal (the sidebar's list, a notification), as clicking it in the panel's list does. */
  | { readonly type: 'loadRefusal'; readonly entry: RefusalEntry }
  /** Trace this audit finding's entry (chosen in the Problems panel), as clicking it in the panel's list does. */
  | { readonly type: 'loadFinding'; readonly root: string; readonly path: string }
  /** The agent's server started or stopped. */
  | { readonly type: 'server'; readonly server: ServerStatus }
  /**
   * This server's trace, near misses included, and what the server would refuse besides (null:
   * nothing); with every program's decision on the same input.
   */
  | { readonly type: 'traceResult'; readonly id: number; readonly trace: Trace; readonly serverNote: ServerNote | null; readonly compared: readonly ComparedRow[] }
  /** Another program's decision ("Decided by"), stage by stage, with every program's decision on the same input. */
  | { readonly type: 'decidedResult'; readonly id: number; readonly verdict: ShownVerdict | { readonly error: string }; readonly compared: readonly ComparedRow[] }
  /** The last audit of each folder audited, and whether one is running. */
  | { readonly type: 'audits'; readonly audits: readonly AuditSummary[]; readonly running: boolean }
  /** The newest refusals first; sent again whenever the log changes. */
  | { readonly type: 'refusals'; readonly entries: readonly RefusalEntry[] }
  /** Bring a section of the page into view, the keyboard on its first control. */
  | { readonly type: 'showSection'; readonly section: PanelSection }
  /** Say again whether the page is wholly within the window (a `drawn` answers). */
  | { readonly type: 'measure' }
  | { readonly type: 'copied'; readonly ok: boolean; readonly what: CopyPurpose }
  | { readonly type: 'toolAnswer'; readonly id: number; readonly tool: ToolName; readonly answer: ToolAnswer };

export function assertNever(value: never): never {
  throw new Error(`unexpected message ${JSON.stringify(value)}`);
}
