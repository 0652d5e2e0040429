/**
 * The inspector webview. It never runs the pipeline: it sends what the user chose to the
 * extension, which traces it with the same core as the server, and renders the trace it gets
 * back. The HTML skeleton (fixed element ids) comes from src/extension/panel.ts.
 */
import {
  assertNever,
  type AuditFinding,
  type AuditSummary,
  type ComparedRow,
  type CopyPurpose,
  type DeciderChoice,
  type DeciderName,
  type ExtensionMessage,
  type HistoryEntry,
  type FeedFilter,
  type PanelHistory,
  type PanelState,
  type Platform,
  type PanelSection,
  type Policy,
  type ProtectionLayer,
  type RefusalEntry,
  type RootChoice,
  type ServerNote,
  type ServerStatus,
  type ShownVerdict,
  type SimulatedRoots,
  type ToolName,
  type Trace,
  type TraceRequest,
  type WebviewMessage,
} from '../src/shared/messages.js';
import { accessIn } from '../src/deciders/tools.js';
import { visible } from '../src/core/visible.js';
import { PROTECTION_SCOPE } from '../src/shared/layers.js';
import { DEFAULT_TOOL, isToolName, OPERATIONS, PATH_TOOL_NAMES } from '../src/shared/operations.js';
import { runArguments, runChanges } from '../src/shared/runOnServer.js';
import {
  clearStages,
  clearVerdict,
  hideQuietStages,
  keepRealTextOnCopy,
  renderAnswer,
  renderAudits,
  renderBytes,
  renderComparison,
  renderDecided,
  renderDecision,
  renderDeciderStages,
  renderHint,
  renderNearMisses,
  renderRefusals,
  renderTrace,
  refusalKey,
  suggestionOf,
  testCaseRow,
  type NearMiss,
  type VerdictActions,
} from './render.js';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: PanelState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

/** The root picker's last option: any root, typed in. */
const CUSTOM = '__custom__';
const DEBOUNCE_MS = 150;
/** A focus this soon after a pointer press is the click's own. */
const CLICK_FOCUS_MS = 500;
const PLATFORMS: readonly Platform[] = ['linux', 'darwin', 'win32'];
const DEFAULT_POLICY: Policy = { localhost: 'refuse', unc: 'refuse', case: 'auto', symlinks: 'contain' };

function byId<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the inspector's HTML has no ${type.name} #${id}`);
  return element;
}

const ui = {
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

let roots: readonly RootChoice[] = [];
/** This machine's platform, from `init`: audit findings are its paths. */
let host: Platform | null = null;
/** The settings of the last `init`: a later one changes only the policy controls whose setting changed. */
let settings: Policy | null = null;
let initialised = false;
/** The id of the newest trace request: any other answer is stale. */
let lastId = 0;
/** The id of a trace request not answered yet, or null: a section shown meanwhile waits for it (showSection). */
let awaited: number | null = null;
/** A section a command asked for while a trace was on its way: shown once the trace is drawn above it. */
let sectionAfterTrace: PanelSection | null = null;
/** The trace request whose verdict is brought into view once drawn (bringTraceIntoView before it came): null for none. */
let intoViewOnDrawn: number | null = null;
let debounce: ReturnType<typeof setTimeout> | undefined;
/** The trace on screen, for "Copy as test case". */
let shown: Trace | null = null;
/** A root to select once the roots are known (state restored before `init`). */
let pendingRoot: string | null = null;
/** The tool of the newest trace request: the answer explains that operation. */
let requestedTool: string = DEFAULT_TOOL;
/** The programs "Decided by" offers (from `init`), this server first. */
let deciders: readonly DeciderChoice[] = [];
/** This server: the decider whose trace is the core's own. */
const SERVER: DeciderName = 'boundary-inspector';
/** A program and tool to choose once `init` says which programs there are (state restored before it). */
let pendingChoice: { readonly decider: DeciderName; readonly tool: string } | null = null;
/** The status beside the fix whose text was last copied. */
let fixCopyStatus: HTMLElement | null = null;
/** The id of the newest run on the server: an answer to an older one, or to an input since changed, is dropped. */
let lastRunId = 0;
/** Back and Forward go this many traced inputs back at most. */
const HISTORY_LIMIT = 50;
/** The traced inputs, oldest first, and the one on screen. */
/** The refusals the extension sent last, newest first, and how the list filters them. */
let feedEntries: readonly RefusalEntry[] = [];
const NO_FILTER: FeedFilter = { search: '', code: '', tool: '', workspace: '', clearedBefore: '' };
let feed: FeedFilter = NO_FILTER;

let history: HistoryEntry[] = [];
let historyIndex = -1;
/** The newest entry came from a pause in typing: the next pause in the same typing replaces it. */
let historyTyped = false;

// ---------------------------------------------------------------------------------------------
// Reading and writing the controls

function isPlatform(value: unknown): value is Platform {
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
function isPanelState(value: unknown): value is PanelState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const tool = state['tool'];
  return typeof state['input'] === 'string' && typeof state['root'] === 'string' && isPlatform(state['platform'])
    && (tool === undefined || typeof tool === 'string')
    && isPolicy(state['policy']);
}

function isHistoryEntry(value: unknown): value is HistoryEntry {
  return isPanelState(value) && (value as { tool?: unknown }).tool !== undefined;
}

/** The history a saved state holds; none when it has none or it is damaged (the rest of the state still restores). */
function savedFeed(state: PanelState): FeedFilter {
  const saved = (state as { readonly feed?: unknown }).feed;
  if (typeof saved !== 'object' || saved === null) return NO_FILTER;
  const fields = saved as Record<string, unknown>;
  const text = (key: keyof FeedFilter) => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  return { search: text('search'), code: text('code'), tool: text('tool'), workspace: text('workspace'), clearedBefore: text('clearedBefore') };
}

function savedHistory(state: PanelState): PanelHistory | null {
  const saved = (state as { readonly history?: unknown }).history;
  if (typeof saved !== 'object' || saved === null) return null;
  const { entries, index } = saved as Record<string, unknown>;
  if (!Array.isArray(entries) || entries.length === 0 || !entries.every(isHistoryEntry)) return null;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= entries.length) return null;
  const dropped = Math.max(0, entries.length - HISTORY_LIMIT);
  return { entries: entries.slice(dropped), index: Math.max(0, index - dropped) };
}

function currentRoot(): string {
  return ui.root.value === CUSTOM ? ui.rootCustom.value : ui.root.value;
}

function currentPolicy(): Policy {
  return {
    localhost: ui.localhost.checked ? 'allow' : 'refuse',
    unc: ui.unc.checked ? 'allow' : 'refuse',
    case: ui.case.value === 'sensitive' || ui.case.value === 'insensitive' ? ui.case.value : 'auto',
    symlinks: ui.symlinks.value === 'refuse' ? 'refuse' : 'contain',
  };
}

function currentPlatform(): Platform {
  return isPlatform(ui.platform.value) ? ui.platform.value : 'linux';
}

function currentTool(): string {
  return pendingChoice?.tool ?? (ui.tool.value || DEFAULT_TOOL);
}

function currentDecider(): DeciderName {
  return pendingChoice?.decider ?? (deciders.find((decider) => decider.name === ui.decider.value)?.name ?? SERVER);
}

/** This server's tool for a request: "Run on the server" and the operation a trace explains. */
function serverTool(): ToolName | null {
  const tool = currentTool();
  return currentDecider() === SERVER && isToolName(tool) ? tool : null;
}

/**
 * Chooses a program in "Decided by" and a tool in "As seen by": the tools offered are the
 * program's own and, for another program, this server's (taken by what they do). A tool it does
 * not offer becomes its first of the same access, so a change stays a change.
 */
function choose(decider: DeciderName, tool: string): void {
  const choice = deciders.find((candidate) => candidate.name === decider);
  if (choice === undefined && deciders.length > 0 && decider !== SERVER) {
    // A program no longer modelled (a saved state): this server.
    choose(SERVER, tool);
    return;
  }
  if (choice === undefined) {
    // Before `init`: only this server's tools are on the page; the rest waits for the programs.
    pendingChoice = decider === SERVER && isToolName(tool) ? null : { decider, tool };
    if (pendingChoice === null) ui.tool.value = tool;
    return;
  }
  pendingChoice = null;
  ui.decider.value = decider;
  const own = [...choice.tools.read, ...choice.tools.change];
  const group = (label: string, names: readonly string[]) => {
    const element = document.createElement('optgroup');
    element.label = label;
    element.append(...names.map((name) => new Option(name, name)));
    return element;
  };
  if (decider === SERVER) ui.tool.replaceChildren(...PATH_TOOL_NAMES.map((name) => new Option(name, name)));
  else ui.tool.replaceChildren(group(`${choice.program}'s tools`, own), group("This server's tools, as it takes them", PATH_TOOL_NAMES));
  const offered = decider === SERVER ? (PATH_TOOL_NAMES as readonly string[]) : [...own, ...PATH_TOOL_NAMES];
  ui.tool.value = offered.includes(tool) ? tool : choice.tools[accessIn(deciders, tool) ?? 'read'][0] ?? DEFAULT_TOOL;
}

/** "Decided by"'s choices, from `init`. */
function fillDeciders(): void {
  const chosen = currentDecider();
  const tool = currentTool();
  ui.decider.replaceChildren(...deciders.map((decider) => new Option(decider.name === SERVER ? `${decider.program} (this server)` : decider.program, decider.name)));
  choose(deciders.some((decider) => decider.name === chosen) ? chosen : SERVER, tool);
}

function currentState(): PanelState {
  return {
    input: ui.input.value,
    root: pendingRoot ?? currentRoot(),
    platform: currentPlatform(),
    policy: currentPolicy(),
    tool: currentTool(),
    decider: currentDecider(),
    hideUnchanged: ui.hideUnchanged.checked,
    history: { entries: history, index: historyIndex },
    feed,
  };
}

function saveState(): void {
  vscode.setState(currentState());
}

function applyPolicy(policy: Policy): void {
  ui.localhost.checked = policy.localhost === 'allow';
  ui.unc.checked = policy.unc === 'allow';
  ui.case.value = policy.case;
  ui.symlinks.value = policy.symlinks;
}

function showCustomRoot(): void {
  ui.rootCustom.hidden = ui.root.value !== CUSTOM;
}

/** Selects `root` in the picker, or puts it in the "Other…" field when it is not one of the roots. */
function selectRoot(root: string): void {
  if (!initialised && roots.length === 0) {
    // The picker has no options yet: remember the root until `init` brings them.
    pendingRoot = root;
    return;
  }
  pendingRoot = null;
  const known = root !== CUSTOM && roots.some((choice) => choice.uri === root);
  if (known) {
    ui.root.value = root;
  } else {
    ui.root.value = CUSTOM;
    ui.rootCustom.value = root;
  }
  showCustomRoot();
}

function applyState(state: PanelState): void {
  ui.input.value = state.input;
  ui.platform.value = state.platform;
  choose(state.decider ?? SERVER, state.tool ?? DEFAULT_TOOL);
  applyPolicy(state.policy);
  selectRoot(state.root);
  ui.hideUnchanged.checked = state.hideUnchanged === true;
  feed = savedFeed(state);
  showFeed();
  const saved = savedHistory(state);
  if (saved !== null) {
    history = [...saved.entries];
    historyIndex = saved.index;
    historyTyped = false;
  }
  updateHistoryButtons();
}

function rightsText(rights: RootChoice['rights']): string {
  return rights === 'none' ? 'not granted' : rights;
}

/** Where the extension puts a workspace folder for another platform than this machine's (from `init`). */
let simulatedRoots: SimulatedRoots | null = null;

/** A folder's place on the chosen platform, when it is another than this machine's; null otherwise. */
function simulatedPlace(choice: RootChoice): string | null {
  const platform = currentPlatform();
  if (simulatedRoots === null || host === null || platform === host) return null;
  return simulatedRoots[platform].split('{name}').join(choice.label);
}

/** The root picker: each folder with its rights, and where it is put when another platform is simulated. */
function fillRoots(): void {
  const chosen = ui.root.value;
  const options = roots.map((choice) => {
    const place = simulatedPlace(choice);
    return new Option(visible(`${choice.label} — ${rightsText(choice.rights)}${place === null ? '' : ` (as ${place})`}`), choice.uri);
  });
  options.push(new Option('Other…', CUSTOM));
  ui.root.replaceChildren(...options);
  if (chosen !== '' && options.some((option) => option.value === chosen)) ui.root.value = chosen;
}

// ---------------------------------------------------------------------------------------------
// Tracing

/**
 * "Run on the server" for the current input, root and tool: enabled when the tool takes a path
 * alone and the root is a granted workspace; otherwise its title says why not.
 */
function updateRun(): void {
  const tool = serverTool();
  const root = roots.find((choice) => choice.uri === currentRoot());
  let why: string | null = null;
  if (ui.input.value === '') why = 'Type a path to run.';
  else if (tool === null) why = 'Run on the server calls this server\'s own tool: choose Boundary Inspector in "Decided by".';
  else if (runArguments(tool, ui.input.value) === undefined) why = `${tool} needs more than a path, so it is not run from here: choose another tool in "As seen by".`;
  else if (root === undefined || root.rights === 'none') why = 'The root is not a workspace folder granted to the agent, so its server would refuse the call: choose a granted one in "Root".';
  else if (currentPlatform() !== host) why = `The server runs on this machine${host === null ? '' : ` (${host})`}: choose that platform to run the call.`;
  ui.run.disabled = why !== null;
  ui.run.title = why ?? (tool === null ? '' : `Call ${tool} on the agent's server with this path${runChanges(tool) ? ' (asks first: it changes the disk)' : ''}`);
  // Said on the page too: a disabled button's title shows only to a pointer that rests on it. An empty input has the verdict's hint.
  const said = ui.input.value === '' ? null : why;
  ui.runWhy.textContent = said ?? '';
  ui.runWhy.hidden = said === null;
}

/** An answer to another input, root or tool is no answer to this one. */
function forgetAnswer(): void {
  lastRunId++;
  ui.answer.hidden = true;
  updateRun();
}

function runOnServer(): void {
  const tool = serverTool();
  if (tool === null) return;
  const id = ++lastRunId;
  renderAnswer(ui.answer, tool, null);
  vscode.postMessage({ type: 'runTool', id, tool, input: ui.input.value, root: currentRoot() });
}

function showNothing(hint: string): void {
  shown = null;
  renderHint(ui.verdict, hint);
  ui.compare.hidden = true;
  renderDecided(ui.decided, null, actions);
  renderNearMisses(ui.near, ui.nearList, [], roots, pickNearMiss);
  clearStages(ui.stages);
  renderBytes(ui.bytes, null);
  ui.stages.removeAttribute('aria-busy');
  ui.copy.disabled = true;
}

/** What a verdict on the page may do: open the files it names (the extension checks them), copy a fix. */
let present: readonly string[] = [];
const actions: VerdictActions = {
  get present() {
    return present;
  },
  open(file, line, lines, add) {
    vscode.postMessage({ type: 'openFile', file, ...(line !== undefined ? { line } : {}), ...(lines !== undefined ? { lines } : {}), ...(add !== undefined ? { add } : {}) });
  },
  copy(text, status) {
    fixCopyStatus = status;
    status.textContent = '';
    copyText(text, 'fix');
  },
};

function copyText(text: string, what: CopyPurpose): void {
  vscode.postMessage({ type: 'copy', text, what });
}

/** Every program's decision on the input; choosing one traces it as that program decides it. */
function showComparison(rows: readonly ComparedRow[]): void {
  // The table is drawn afresh: the keyboard stays on the row it was on.
  const focused = document.activeElement instanceof HTMLElement && ui.compareTable.contains(document.activeElement) ? document.activeElement.closest('tr')?.dataset['decider'] : undefined;
  renderComparison(ui.compare, ui.compareTable, rows, deciders, currentDecider(), pickCompared, actions);
  if (focused !== undefined) ui.compareTable.querySelector<HTMLElement>(`tr[data-decider="${focused}"] button`)?.focus({ preventScroll: true });
}

function pickCompared(row: ComparedRow): void {
  choose(row.decider, row.tool);
  markChosen(null);
  changed(true);
}

/** Another program's decision: its banner, what would allow it, its stages, the files it read. */
function showDecided(verdict: ShownVerdict | { readonly error: string }, rows: readonly ComparedRow[]): void {
  shown = null;
  present = 'error' in verdict ? [] : verdict.present;
  ui.verdict.classList.remove('verdict-server-refuses');
  if ('error' in verdict) {
    renderHint(ui.verdict, `This program's model failed on this input: ${verdict.error}`);
    clearStages(ui.stages);
    renderDecided(ui.decided, null, actions);
  } else {
    renderDecision(ui.verdict, verdict, actions);
    renderDecided(ui.decided, verdict, actions);
    renderDeciderStages(ui.stages, verdict, actions, ui.hideUnchanged.checked);
  }
  renderNearMisses(ui.near, ui.nearList, [], roots, pickNearMiss);
  renderBytes(ui.bytes, null);
  showComparison(rows);
  ui.stages.removeAttribute('aria-busy');
  // A test case is a row of this server's trace tables.
  ui.copy.disabled = true;
}

function show(trace: Trace, tool: string, serverNote: ServerNote | null, rows: readonly ComparedRow[]): void {
  shown = trace;
  present = [];
  delete ui.verdict.dataset['decision'];
  renderTrace(ui, trace, { tool, acts: isToolName(tool) ? OPERATIONS[tool].acts : null, serverNote }, { roots, pick: pickNearMiss, hideUnchanged: ui.hideUnchanged.checked });
  renderDecided(ui.decided, null, actions);
  showComparison(rows);
  // What the server would refuse despite the trace reads right under the verdict, and marks the banner.
  ui.verdict.classList.toggle('verdict-server-refuses', serverNote !== null);
  const note = ui.verdict.querySelector('.verdict-server');
  if (note !== null) ui.verdict.querySelector('.verdict-headline')?.after(note);
  ui.stages.removeAttribute('aria-busy');
  ui.copy.disabled = false;
}

// ---------------------------------------------------------------------------------------------
// History: Back and Forward

/** The same platform, program, tool and policy. */
function sameSettings(a: HistoryEntry, b: HistoryEntry): boolean {
  return a.platform === b.platform && a.tool === b.tool && (a.decider ?? SERVER) === (b.decider ?? SERVER)
    && a.policy.localhost === b.policy.localhost && a.policy.unc === b.policy.unc
    && a.policy.case === b.policy.case && a.policy.symlinks === b.policy.symlinks;
}

/** One text typed on from the other: letters added or taken off its end. */
function typedOn(before: string, after: string): boolean {
  return after.startsWith(before) || before.startsWith(after);
}

function updateHistoryButtons(): void {
  const focused = document.activeElement;
  ui.back.disabled = historyIndex <= 0;
  ui.forward.disabled = historyIndex < 0 || historyIndex >= history.length - 1;
  // A button disabled under the keyboard would drop it on the page: it goes to the other one.
  if (focused === ui.back && ui.back.disabled && !ui.forward.disabled) ui.forward.focus();
  if (focused === ui.forward && ui.forward.disabled && !ui.back.disabled) ui.back.focus();
}

/**
 * A traced input joins the history after the entry on screen (entries ahead of it are dropped,
 * as in a browser), once. Typing on from a pause replaces the entry that pause made, so a path
 * typed letter by letter is one entry.
 */
function remember(entry: HistoryEntry, typed: boolean): void {
  const current = history[historyIndex];
  if (current !== undefined && current.input === entry.input && current.root === entry.root && sameSettings(current, entry)) return;
  history = history.slice(0, historyIndex + 1);
  // The input or the typed-in root, whichever is being typed.
  const typingOn = typed && historyTyped && current !== undefined && sameSettings(current, entry)
    && ((current.root === entry.root && typedOn(current.input, entry.input)) || (current.input === entry.input && typedOn(current.root, entry.root)));
  if (typingOn) history[historyIndex] = entry;
  else history.push(entry);
  if (history.length > HISTORY_LIMIT) history = history.slice(history.length - HISTORY_LIMIT);
  historyIndex = history.length - 1;
  historyTyped = typed;
  updateHistoryButtons();
  saveState();
}

/** Back (-1) or Forward (+1): that entry's input and choices, traced again. */
function stepHistory(step: -1 | 1): void {
  const entry = history[historyIndex + step];
  if (entry === undefined || !initialised) return;
  historyIndex += step;
  historyTyped = false;
  ui.input.value = entry.input;
  ui.platform.value = entry.platform;
  choose(entry.decider ?? SERVER, entry.tool);
  applyPolicy(entry.policy);
  selectRoot(entry.root);
  markChosen(null);
  updateHistoryButtons();
  // The request matches the entry now on screen, so tracing it leaves the history as it is.
  changed(true);
}

/** Sends the current input for tracing now; any answer to an earlier request will be dropped. */
function traceNow(typed = false): void {
  clearTimeout(debounce);
  debounce = undefined;
  if (!initialised) return;
  const id = ++lastId;
  const decider = currentDecider();
  const request: TraceRequest = { input: ui.input.value, root: currentRoot(), platform: currentPlatform(), policy: currentPolicy(), tool: currentTool(), ...(decider !== SERVER ? { decider } : {}) };
  requestedTool = request.tool;
  if (request.input === '') {
    showNothing('Type a URI or a path above to see, stage by stage, whether it is inside the root.');
    return;
  }
  if (request.root === '') {
    showNothing('Choose a root, or type one in the "Other…" field.');
    return;
  }
  remember({ input: request.input, root: request.root, platform: request.platform, policy: request.policy, tool: request.tool, decider }, typed);
  ui.stages.setAttribute('aria-busy', 'true');
  awaited = id;
  vscode.postMessage({ type: 'trace', id, request });
}

function traceSoon(): void {
  clearTimeout(debounce);
  debounce = setTimeout(() => traceNow(true), DEBOUNCE_MS);
}

/** Something the user controls changed: remember it, and trace (typing waits for a pause). */
function changed(immediately: boolean): void {
  ui.copyStatus.textContent = '';
  forgetAnswer();
  saveState();
  if (immediately) traceNow();
  else traceSoon();
}

// ---------------------------------------------------------------------------------------------
// Messages from the extension

function onInit(message: Extract<ExtensionMessage, { type: 'init' }>): void {
  const first = !initialised;
  // Before the options are rebuilt: the root the user had, which a refresh keeps.
  const keptRoot = first ? pendingRoot : currentRoot();
  const previous = settings;
  roots = message.roots;
  settings = message.settings;
  host = message.hostPlatform;
  simulatedRoots = message.simulatedRoots;
  fillRoots();
  deciders = message.deciders;
  fillDeciders();
  initialised = true;
  if (message.state && isPanelState(message.state)) {
    applyState(message.state);
  } else if (first) {
    if (keptRoot === null) {
      // Nothing to restore: start from the host's platform, the settings and the first root.
      ui.platform.value = message.hostPlatform;
      applyPolicy(message.settings);
      selectRoot(roots[0]?.uri ?? '');
    } else {
      selectRoot(keptRoot);
    }
  } else {
    selectRoot(keptRoot ?? '');
    // A refresh: what the user typed and chose stays; a setting that changed takes effect.
    const now = currentPolicy();
    applyPolicy({
      localhost: previous && previous.localhost === message.settings.localhost ? now.localhost : message.settings.localhost,
      unc: previous && previous.unc === message.settings.unc ? now.unc : message.settings.unc,
      case: previous && previous.case === message.settings.case ? now.case : message.settings.case,
      symlinks: previous && previous.symlinks === message.settings.symlinks ? now.symlinks : message.settings.symlinks,
    });
  }
  if (message.grantNote === null) {
    ui.grantNote.hidden = true;
    ui.grantNote.textContent = '';
  } else {
    ui.grantNote.textContent = message.grantNote;
    ui.grantNote.hidden = false;
  }
  // The path opens the log, as the button beside it does.
  ui.logLabel.textContent = message.logPath === null ? "The server's refusal log is not available" : 'Refusal log: ';
  ui.logPath.textContent = visible(message.logPath ?? '');
  ui.logPath.hidden = message.logPath === null;
  ui.openLog.hidden = message.logPath === null;
  showGrants(message.roots, message.grantNote);
  layers = message.layers;
  showServer(message.server);
  saveState();
  updateRun();
  traceNow();
  // The platform may have come from the restored state: the picker says where folders are put on it.
  fillRoots();
  // A panel just opened is for typing into; a command that wants another section moves the keyboard after this.
  if (first) ui.input.focus();
}

/** Each workspace folder and what the agent's server may do in it; why nothing, when nothing is. */
function showGrants(choices: readonly RootChoice[], grantNote: string | null): void {
  const items = choices.map((choice) => {
    const item = document.createElement('li');
    item.className = choice.rights === 'none' ? 'layer layer-inactive' : 'layer layer-active';
    const name = document.createElement('strong');
    name.textContent = visible(`${choice.label}: ${rightsText(choice.rights)}`);
    const detail = document.createElement('span');
    detail.textContent = visible(choice.rights === 'none' && grantNote !== null ? `${choice.uri}. ${grantNote}` : choice.uri);
    item.append(name, detail);
    return item;
  });
  if (items.length === 0) {
    const none = document.createElement('li');
    none.className = 'layer layer-inactive';
    none.textContent = grantNote ?? 'No workspace folder is open: open a folder to grant it to the agent.';
    items.push(none);
  }
  ui.grants.replaceChildren(...items);
}

/** The layers of the last `init`, drawn again when the server starts or stops. */
let layers: readonly ProtectionLayer[] = [];

/** Whether the agent's server runs, and the layers as they stand with it: a layer guards nothing while no server runs. */
function showServer(server: ServerStatus): void {
  ui.server.textContent = `The agent's server: ${serverText(server)}.`;
  ui.server.dataset['kind'] = server.kind;
  const idle = server.kind === 'stopped' || server.kind === 'none';
  ui.layers.replaceChildren(
    ...layers.map((layer) => {
      const item = document.createElement('li');
      item.className = !layer.active ? 'layer layer-inactive' : idle ? 'layer layer-idle' : 'layer layer-active';
      const name = document.createElement('strong');
      name.textContent = `${layer.name}: ${!layer.active ? 'not active' : idle ? 'ready (no server running)' : 'active'}`;
      const detail = document.createElement('span');
      detail.textContent = layer.detail;
      item.append(name, detail);
      return item;
    }),
  );
}

function serverText(server: ServerStatus): string {
  switch (server.kind) {
    case 'running':
      if (!server.current) return `running with earlier grants or settings (process ${server.pid}): restart it to apply the ones below`;
      return `running (process ${server.pid}${server.sandbox === null ? '' : `, in ${server.sandbox}`})`;
    case 'stopped':
      return "not running: the editor starts it at the agent's first call to its tools, or from MCP: List Servers";
    case 'none':
      return 'not offered to the agent, since nothing is granted';
    case 'unknown':
      return 'whether it runs is not known here (MCP: List Servers shows it)';
    default:
      return assertNever(server);
  }
}

function onInspect(input: string, root: string | null): void {
  ui.input.value = input;
  if (root !== null && roots.some((choice) => choice.uri === root)) selectRoot(root);
  markChosen(null);
  changed(true);
  // Asked for from outside the page (a command, the Explorer): wherever the page was, the trace comes into view.
  bringTraceIntoView();
}

/** "Did you mean…": trace the suggestion, against the workspace that holds it when it is one of the roots. */
function pickNearMiss(miss: NearMiss): void {
  ui.input.value = suggestionOf(shown, miss);
  if (miss.workspace !== undefined && roots.some((choice) => choice.uri === miss.workspace)) selectRoot(miss.workspace);
  // The button is replaced by the new trace's list: keep the keyboard somewhere that stays.
  ui.input.focus();
  changed(true);
}

/**
 * A trace asked for from a list far down the page, or from outside it (a command, Problems): the
 * page scrolls to its verdict and the keyboard goes there, so that the next Tab walks the trace.
 */
function bringTraceIntoView(): void {
  // An empty banner (a page just loaded) is not drawn, so it can be neither scrolled to nor focused: again once the trace is there.
  intoViewOnDrawn = awaited === lastId ? lastId : null;
  ui.verdict.tabIndex = -1;
  ui.verdict.scrollIntoView({ block: 'start' });
  ui.verdict.focus({ preventScroll: true });
}

/** Marks the entry whose trace is shown, in the list that holds it; every other entry unmarked. */
function markChosen(button: HTMLElement | null): void {
  for (const other of document.querySelectorAll('.refusal[aria-current], .finding[aria-current]')) other.removeAttribute('aria-current');
  button?.setAttribute('aria-current', 'true');
}

/** An audit finding: trace its entry against the audited folder, on this machine. */
function traceFinding(root: string, path: string, button: HTMLElement | null): void {
  ui.input.value = path;
  selectRoot(root);
  if (host !== null) ui.platform.value = host;
  markChosen(button);
  changed(true);
  bringTraceIntoView();
}

function pickFinding(audit: AuditSummary, finding: AuditFinding, button: HTMLElement): void {
  traceFinding(audit.root, finding.path, button);
}

/** A finding chosen in the Problems panel: traced as clicking it in the list traces it, and marked there when listed. */
function loadFinding(root: string, path: string): void {
  const listed = Array.from(document.querySelectorAll<HTMLElement>('.audit-folder-result')).find((section) => section.dataset['root'] === root);
  const button = Array.from(listed?.querySelectorAll<HTMLElement>('button.finding') ?? []).find((candidate) => candidate.title === `Trace ${visible(path)}`);
  traceFinding(root, path, button ?? null);
}

function showAudits(audits: readonly AuditSummary[], running: boolean): void {
  renderAudits(ui.audits, audits, pickFinding);
  ui.auditRun.disabled = running;
  ui.auditStatus.textContent = running ? 'Auditing… (progress in the notification)' : '';
}

/** Loads a logged refusal into the panel: its input, its workspace, its tool, and its trace when it has one. */
function loadRefusal(entry: RefusalEntry, button: HTMLElement | null): void {
  markChosen(button ?? Array.from(ui.refusals.querySelectorAll<HTMLElement>('button.refusal')).find((shown) => shown.dataset['key'] === refusalKey(entry)) ?? null);
  ui.input.value = entry.input;
  if (entry.workspaceUri !== null) selectRoot(entry.workspaceUri);
  // A logged refusal is this server's.
  if (isToolName(entry.tool)) choose(SERVER, entry.tool);
  ui.copyStatus.textContent = '';
  if (entry.trace) {
    // The trace as the server made it: show its platform and policy so that a change re-traces from there.
    ui.platform.value = entry.trace.platform;
    applyPolicy(entry.trace.policy);
    clearTimeout(debounce);
    lastId++;
    remember({ input: entry.input, root: currentRoot(), platform: currentPlatform(), policy: currentPolicy(), tool: currentTool(), decider: currentDecider() }, false);
    saveState();
    // A change refused for the grant's rights: the trace itself let it in.
    show(entry.trace, entry.tool, entry.code === 'ERR_READ_ONLY' ? { code: 'ERR_READ_ONLY', reason: entry.reason } : null, []);
    forgetAnswer();
  } else {
    changed(true);
  }
  bringTraceIntoView();
}

/** A section brought into view by a command: the keyboard on its first entry, or on its heading. */
function showSection(section: PanelSection): void {
  sectionAfterTrace = null;
  // The protection section opens with what is granted, the layers that hold it below.
  const [title, list] = section === 'refusals' ? [ui.refusalsTitle, ui.refusals] : [ui.grantsTitle, ui.grants];
  (title.closest('section') ?? list).scrollIntoView({ block: 'start' });
  const first = section === 'refusals' ? list.querySelector('button') : null;
  if (first) {
    first.focus({ preventScroll: true });
  } else {
    title.tabIndex = -1;
    title.focus({ preventScroll: true });
  }
}

/** A refusal's code in the list's terms: a not-found event is its own. */
function feedCode(entry: RefusalEntry): string {
  return entry.event === 'not-found' ? 'not found' : entry.code;
}

/** Fills a filter's choices from the entries, keeping the one chosen (even if no entry has it now). */
function fillFilter(select: HTMLSelectElement, any: string, values: Iterable<string>, chosen: string, label: (value: string) => string = (value) => value): void {
  const distinct = [...new Set([...values, ...(chosen === '' ? [] : [chosen])])].sort();
  select.replaceChildren(new Option(any, ''), ...distinct.map((value) => new Option(visible(label(value)), value)));
  select.value = chosen;
}

/** The refusal list as the filters and the search choose it, with how many it shows. */
function showFeed(): void {
  const label = (uri: string) => roots.find((choice) => choice.uri === uri)?.label ?? uri;
  fillFilter(ui.feedCode, 'Any code', feedEntries.map(feedCode), feed.code);
  fillFilter(ui.feedTool, 'Any tool', feedEntries.map((entry) => entry.tool), feed.tool);
  fillFilter(ui.feedWorkspace, 'Any workspace', feedEntries.flatMap((entry) => (entry.workspaceUri === null ? [] : [entry.workspaceUri])), feed.workspace, label);
  ui.feedSearch.value = feed.search;
  const needle = feed.search.trim().toLowerCase();
  const after = feed.clearedBefore === '' ? null : Date.parse(feed.clearedBefore);
  const shown = feedEntries.filter((entry) =>
    (after === null || Date.parse(entry.time) > after)
    && (feed.code === '' || feedCode(entry) === feed.code)
    && (feed.tool === '' || entry.tool === feed.tool)
    && (feed.workspace === '' || entry.workspaceUri === feed.workspace)
    && (needle === '' || `${entry.input}\n${entry.reason}`.toLowerCase().includes(needle)));
  const filtered = shown.length !== feedEntries.length;
  renderRefusals(ui.refusals, shown, loadRefusal, feedEntries.length === 0 ? undefined : after !== null && shown.length === 0 ? 'Cleared: new refusals appear here.' : 'No refusal matches the filters.');
  ui.feedCount.textContent = feedEntries.length === 0 ? '' : filtered ? `${shown.length} of ${feedEntries.length} shown` : `${feedEntries.length} shown`;
  // Clearing hides what is listed now; the log keeps it, and "Show all" brings it back.
  ui.feedClear.textContent = after === null ? 'Clear' : 'Show all';
  ui.feedClear.disabled = after === null && feedEntries.length === 0;
}

function filterFeed(change: Partial<FeedFilter>): void {
  feed = { ...feed, ...change };
  saveState();
  showFeed();
}

function receive(message: ExtensionMessage): void {
  switch (message.type) {
    case 'init':
      onInit(message);
      return;
    case 'inspect':
      onInspect(message.input, message.root);
      return;
    case 'loadRefusal':
      loadRefusal(message.entry, null);
      return;
    case 'loadFinding':
      loadFinding(message.root, message.path);
      return;
    case 'server':
      showServer(message.server);
      return;
    case 'traceResult':
    case 'decidedResult':
      if (message.id !== lastId) return;
      if (message.type === 'traceResult') show(message.trace, requestedTool, message.serverNote, message.compared);
      else showDecided(message.verdict, message.compared);
      awaited = null;
      if (intoViewOnDrawn === message.id) bringTraceIntoView();
      if (sectionAfterTrace !== null) showSection(sectionAfterTrace);
      return;
    case 'refusals':
      feedEntries = message.entries;
      showFeed();
      return;
    case 'measure':
      reportDrawn();
      return;
    case 'showSection':
      // A trace drawn later above the section would push it out of view: it waits for the trace.
      if (awaited === lastId) sectionAfterTrace = message.section;
      else showSection(message.section);
      return;
    case 'audits':
      showAudits(message.audits, message.running);
      return;
    case 'copied': {
      const status = message.what === 'test-case' ? ui.copyStatus : fixCopyStatus;
      if (status !== null) status.textContent = !message.ok ? 'Could not copy' : message.what === 'test-case' ? 'Copied as one line of JSON' : 'Copied';
      return;
    }
    case 'toolAnswer':
      if (message.id === lastRunId) renderAnswer(ui.answer, message.tool, message.answer);
      return;
    default:
      assertNever(message);
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring

ui.input.addEventListener('input', () => changed(false));
ui.rootCustom.addEventListener('input', () => changed(false));
for (const field of [ui.input, ui.rootCustom]) {
  field.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      changed(true);
    }
  });
}
ui.form.addEventListener('submit', (event) => {
  event.preventDefault();
  changed(true);
});
ui.root.addEventListener('change', () => {
  showCustomRoot();
  if (ui.root.value === CUSTOM) ui.rootCustom.focus();
  changed(true);
});
// The root picker says where a folder is put on the platform chosen.
ui.platform.addEventListener('change', fillRoots);
ui.decider.addEventListener('change', () => {
  choose(currentDecider(), currentTool());
  changed(true);
});
for (const control of [ui.platform, ui.tool, ui.case, ui.symlinks, ui.localhost, ui.unc]) {
  control.addEventListener('change', () => changed(true));
}
ui.copy.addEventListener('click', () => {
  if (shown === null) return;
  ui.copyStatus.textContent = '';
  copyText(testCaseRow(shown), 'test-case');
});
ui.auditRun.addEventListener('click', () => vscode.postMessage({ type: 'runAudit' }));
for (const opener of [ui.logPath, ui.openLog]) opener.addEventListener('click', () => vscode.postMessage({ type: 'openLog' }));
ui.listServers.addEventListener('click', () => vscode.postMessage({ type: 'listServers' }));
ui.run.addEventListener('click', runOnServer);
ui.feedSearch.addEventListener('input', () => filterFeed({ search: ui.feedSearch.value }));
ui.feedCode.addEventListener('change', () => filterFeed({ code: ui.feedCode.value }));
ui.feedTool.addEventListener('change', () => filterFeed({ tool: ui.feedTool.value }));
ui.feedWorkspace.addEventListener('change', () => filterFeed({ workspace: ui.feedWorkspace.value }));
ui.feedClear.addEventListener('click', () => filterFeed({ clearedBefore: feed.clearedBefore === '' ? (feedEntries[0]?.time ?? '') : '' }));
ui.back.addEventListener('click', () => stepHistory(-1));
ui.forward.addEventListener('click', () => stepHistory(1));
ui.hideUnchanged.addEventListener('change', () => {
  hideQuietStages(ui.stages, ui.hideUnchanged.checked);
  saveState();
});
// Alt+Left and Alt+Right step through the history anywhere in the panel, caught before the webview
// passes the keys on to the editor's keybindings. On macOS, Option+Arrow in a text field moves by
// word: there it is left to the field.
const MAC = navigator.userAgent.includes('Mac');
window.addEventListener('keydown', (event) => {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
  if (MAC && event.target instanceof HTMLInputElement && event.target.type === 'text') return;
  event.preventDefault();
  event.stopPropagation();
  stepHistory(event.key === 'ArrowLeft' ? -1 : 1);
}, true);
window.addEventListener('message', (event: MessageEvent<ExtensionMessage>) => receive(event.data));
// The editor focuses a webview as a whole when it comes back (another tab, a move to another group):
// the keyboard goes back where it was instead of to the page's body. A click chooses for itself.
let lastFocused: HTMLElement | null = null;
let pointerDownAt = -Infinity;
document.addEventListener('focusin', (event) => {
  if (event.target instanceof HTMLElement) lastFocused = event.target;
});
window.addEventListener('pointerdown', () => (pointerDownAt = performance.now()), true);
window.addEventListener('focus', () => {
  if (performance.now() - pointerDownAt < CLICK_FOCUS_MS) return;
  if (document.activeElement === document.body && lastFocused?.isConnected) lastFocused.focus({ preventScroll: true });
});

// Until `init` arrives: what this webview last showed (VS Code keeps it across hide and reload).
const saved = vscode.getState();
if (isPanelState(saved)) applyState(saved);
else applyPolicy(DEFAULT_POLICY);
updateHistoryButtons();
ui.scope.textContent = PROTECTION_SCOPE;
ui.copy.disabled = true;
clearVerdict(ui.verdict);
clearStages(ui.stages);
showFeed();
renderAudits(ui.audits, [], pickFinding);
keepRealTextOnCopy(document);

vscode.postMessage({ type: 'ready' });
reportDrawn();

/**
 * Says once (at load, and when asked) whether the whole width of the page is within the window: the document's box, as the
 * window shows it, is cut by every frame and part around it (a group pushed past the window's
 * edge, or under a side bar, is cut there).
 */
function reportDrawn(): void {
  const observer = new IntersectionObserver(([entry]) => {
    observer.disconnect();
    if (entry === undefined) return;
    const clipped = entry.boundingClientRect.width > 0 && entry.intersectionRect.width < entry.boundingClientRect.width - 1;
    // In a frame the window's own width, which the extension compares from one opening to the next.
    vscode.postMessage({ type: 'drawn', clipped, windowWidth: window.outerWidth });
  });
  observer.observe(document.documentElement);
}
