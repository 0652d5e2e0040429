// What every section of the inspector's page shares: the editor's API, the page's elements (the
// HTML skeleton, with fixed ids, comes from src/extension/panel.ts), and the page's state, one object.
import type {
  DeciderChoice,
  DeciderName,
  FeedFilter,
  HistoryEntry,
  PanelSection,
  PanelState,
  Platform,
  Policy,
  ProtectionLayer,
  RefusalEntry,
  RootChoice,
  SimulatedRoots,
  Trace,
  WebviewMessage,
} from '../../src/shared/messages.js';
import { DEFAULT_TOOL } from '../../src/shared/operations.js';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: PanelState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export const vscode = acquireVsCodeApi();

function byId<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the inspector's HTML has no ${type.name} #${id}`);
  return element;
}

export const ui = {
  form: byId('bi-form', HTMLFormElement),
  input: byId('bi-input', HTMLInputElement),
  root: byId('bi-root', HTMLSelectElement),
  rootCustom: byId('bi-root-custom', HTMLInputElement),
  decider: byId('bi-decider', HTMLSelectElement),
  tool: byId('bi-tool', HTMLSelectElement),
  platform: byId('bi-platform', HTMLSelectElement),
  case: byId('bi-case', HTMLSelectElement),
  symlinks: byId('bi-symlinks', HTMLSelectElement),
  localhost: byId('bi-localhost', HTMLInputElement),
  unc: byId('bi-unc', HTMLInputElement),
  grantNote: byId('bi-grant-note', HTMLElement),
  verdict: byId('bi-verdict', HTMLElement),
  compare: byId('bi-compare', HTMLElement),
  compareTable: byId('bi-compare-table', HTMLTableElement),
  decided: byId('bi-decided', HTMLElement),
  near: byId('bi-near', HTMLElement),
  nearList: byId('bi-near-list', HTMLUListElement),
  stages: byId('bi-stages', HTMLTableElement),
  back: byId('bi-back', HTMLButtonElement),
  forward: byId('bi-forward', HTMLButtonElement),
  hideUnchanged: byId('bi-hide-unchanged', HTMLInputElement),
  bytes: byId('bi-bytes', HTMLElement),
  copy: byId('bi-copy', HTMLButtonElement),
  run: byId('bi-run', HTMLButtonElement),
  runWhy: byId('bi-run-why', HTMLElement),
  answer: byId('bi-answer', HTMLElement),
  copyStatus: byId('bi-copy-status', HTMLElement),
  logLabel: byId('bi-log-label', HTMLElement),
  logPath: byId('bi-log-path', HTMLButtonElement),
  openLog: byId('bi-open-log', HTMLButtonElement),
  refusals: byId('bi-refusals', HTMLOListElement),
  feedSearch: byId('bi-feed-search', HTMLInputElement),
  feedCode: byId('bi-feed-code', HTMLSelectElement),
  feedTool: byId('bi-feed-tool', HTMLSelectElement),
  feedWorkspace: byId('bi-feed-workspace', HTMLSelectElement),
  feedClear: byId('bi-feed-clear', HTMLButtonElement),
  feedCount: byId('bi-feed-count', HTMLElement),
  refusalsTitle: byId('bi-refusals-title', HTMLElement),
  layers: byId('bi-layers', HTMLUListElement),
  scope: byId('bi-scope', HTMLElement),
  server: byId('bi-server', HTMLElement),
  listServers: byId('bi-list-servers', HTMLButtonElement),
  grants: byId('bi-grants', HTMLUListElement),
  grantsTitle: byId('bi-grants-title', HTMLElement),
  auditRun: byId('bi-audit-run', HTMLButtonElement),
  auditStatus: byId('bi-audit-status', HTMLElement),
  audits: byId('bi-audits', HTMLElement),
};

const PLATFORMS: readonly Platform[] = ['linux', 'darwin', 'win32'];

export function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

function isPolicy(value: unknown): value is Policy {
  if (typeof value !== 'object' || value === null) return false;
  const policy = value as Record<string, unknown>;
  return (policy['localhost'] === 'refuse' || policy['localhost'] === 'allow')
    && (policy['unc'] === 'refuse' || policy['unc'] === 'allow')
    && (policy['case'] === 'auto' || policy['case'] === 'sensitive' || policy['case'] === 'insensitive')
    && (policy['symlinks'] === 'contain' || policy['symlinks'] === 'refuse');
}

/** A saved state: `tool`, `hideUnchanged` and `history` may be absent (saved before they existed). */
export function isPanelState(value: unknown): value is PanelState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const tool = state['tool'];
  return typeof state['input'] === 'string' && typeof state['root'] === 'string' && isPlatform(state['platform'])
    && (tool === undefined || typeof tool === 'string')
    && isPolicy(state['policy']);
}

/** This server: the decider whose trace is the core's own. */
export const SERVER: DeciderName = 'boundary-inspector';

export const NO_FILTER: FeedFilter = { search: '', code: '', tool: '', workspace: '', clearedBefore: '' };

/** Everything the page holds between one event and the next, in one place. */
export interface PageState {
  /** The workspace folders and their rights, from `init`. */
  roots: readonly RootChoice[];
  /** This machine's platform, from `init`: audit findings are its paths. */
  host: Platform | null;
  /** The settings of the last `init`: a later one changes only the policy controls whose setting changed. */
  settings: Policy | null;
  /** Where the extension puts a workspace folder for another platform than this machine's (from `init`). */
  simulatedRoots: SimulatedRoots | null;
  /** The programs "Decided by" offers (from `init`), this server first. */
  deciders: readonly DeciderChoice[];
  /** The layers of the last `init`, drawn again when the server starts or stops. */
  layers: readonly ProtectionLayer[];
  initialised: boolean;
  /** A root to select once the roots are known (state restored before `init`). */
  pendingRoot: string | null;
  /** A program and tool to choose once `init` says which programs there are (state restored before it). */
  pendingChoice: { readonly decider: DeciderName; readonly tool: string } | null;

  /** The id of the newest trace request: any other answer is stale. */
  lastId: number;
  /** The id of a trace request not answered yet, or null: a section shown meanwhile waits for it (showSection). */
  awaited: number | null;
  /** A section a command asked for while a trace was on its way: shown once the trace is drawn above it. */
  sectionAfterTrace: PanelSection | null;
  /** The trace request whose verdict is brought into view once drawn (bringTraceIntoView before it came): null for none. */
  intoViewOnDrawn: number | null;
  debounce: ReturnType<typeof setTimeout> | undefined;
  /** The tool of the newest trace request: the answer explains that operation. */
  requestedTool: string;
  /** The trace on screen, for "Copy as test case". */
  shown: Trace | null;
  /** The files the verdict on screen names, which it may ask the extension to open. */
  present: readonly string[];
  /** The status beside the fix whose text was last copied. */
  fixCopyStatus: HTMLElement | null;
  /** The id of the newest run on the server: an answer to an older one, or to an input since changed, is dropped. */
  lastRunId: number;

  /** The traced inputs, oldest first, and the one on screen. */
  history: HistoryEntry[];
  historyIndex: number;
  /** The newest entry came from a pause in typing: the next pause in the same typing replaces it. */
  historyTyped: boolean;

  /** The refusals the extension sent last, newest first, and how the list filters them. */
  feedEntries: readonly RefusalEntry[];
  feed: FeedFilter;
}

export const page: PageState = {
  roots: [],
  host: null,
  settings: null,
  simulatedRoots: null,
  deciders: [],
  layers: [],
  initialised: false,
  pendingRoot: null,
  pendingChoice: null,
  lastId: 0,
  awaited: null,
  sectionAfterTrace: null,
  intoViewOnDrawn: null,
  debounce: undefined,
  requestedTool: DEFAULT_TOOL,
  shown: null,
  present: [],
  fixCopyStatus: null,
  lastRunId: 0,
  history: [],
  historyIndex: -1,
  historyTyped: false,
  feedEntries: [],
  feed: NO_FILTER,
};
