/**
 * The inspector webview. It never runs the pipeline: it sends what the user chose to the
 * extension, which traces it with the same core as the server, and renders the trace it gets
 * back. The HTML skeleton (fixed element ids) comes from src/extension/panel.ts.
 */
import {
  assertNever,
  type AuditFinding,
  type AuditSummary,
  type ExtensionMessage,
  type PanelState,
  type Platform,
  type Policy,
  type ProtectionLayer,
  type RefusalEntry,
  type RootChoice,
  type ServerNote,
  type ToolName,
  type Trace,
  type TraceRequest,
  type WebviewMessage,
} from '../src/shared/messages.js';
import { DEFAULT_TOOL, isToolName, OPERATIONS } from '../src/shared/operations.js';
import {
  clearStages,
  clearVerdict,
  nearMissesOf,
  renderAudits,
  renderBytes,
  renderHint,
  renderNearMisses,
  renderRefusals,
  renderStages,
  renderVerdict,
  testCaseRow,
  type NearMiss,
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
  tool: byId('bi-tool', HTMLSelectElement),
  platform: byId('bi-platform', HTMLSelectElement),
  case: byId('bi-case', HTMLSelectElement),
  symlinks: byId('bi-symlinks', HTMLSelectElement),
  localhost: byId('bi-localhost', HTMLInputElement),
  unc: byId('bi-unc', HTMLInputElement),
  grantNote: byId('bi-grant-note', HTMLElement),
  verdict: byId('bi-verdict', HTMLElement),
  near: byId('bi-near', HTMLElement),
  nearList: byId('bi-near-list', HTMLUListElement),
  stages: byId('bi-stages', HTMLTableElement),
  bytes: byId('bi-bytes', HTMLElement),
  copy: byId('bi-copy', HTMLButtonElement),
  copyStatus: byId('bi-copy-status', HTMLElement),
  logPath: byId('bi-log-path', HTMLElement),
  refusals: byId('bi-refusals', HTMLOListElement),
  refusalsTitle: byId('bi-refusals-title', HTMLElement),
  layers: byId('bi-layers', HTMLUListElement),
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
let debounce: ReturnType<typeof setTimeout> | undefined;
/** The trace on screen, for "Copy as test case". */
let shown: Trace | null = null;
/** A root to select once the roots are known (state restored before `init`). */
let pendingRoot: string | null = null;
/** The tool of the newest trace request: the answer explains that operation. */
let requestedTool: ToolName = DEFAULT_TOOL;

// ---------------------------------------------------------------------------------------------
// Reading and writing the controls

function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

function isPanelState(value: unknown): value is PanelState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  const policy = state['policy'] as Record<string, unknown> | null | undefined;
  const tool = state['tool'];
  return typeof state['input'] === 'string' && typeof state['root'] === 'string' && isPlatform(state['platform'])
    && (tool === undefined || (typeof tool === 'string' && isToolName(tool)))
    && typeof policy === 'object' && policy !== null
    && (policy['localhost'] === 'refuse' || policy['localhost'] === 'allow')
    && (policy['unc'] === 'refuse' || policy['unc'] === 'allow')
    && (policy['case'] === 'auto' || policy['case'] === 'sensitive' || policy['case'] === 'insensitive')
    && (policy['symlinks'] === 'contain' || policy['symlinks'] === 'refuse');
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

function currentTool(): ToolName {
  return isToolName(ui.tool.value) ? ui.tool.value : DEFAULT_TOOL;
}

function currentState(): PanelState {
  return {
    input: ui.input.value,
    root: pendingRoot ?? currentRoot(),
    platform: currentPlatform(),
    policy: currentPolicy(),
    tool: currentTool(),
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
  ui.tool.value = state.tool !== undefined && isToolName(state.tool) ? state.tool : DEFAULT_TOOL;
  applyPolicy(state.policy);
  selectRoot(state.root);
}

function rightsText(rights: RootChoice['rights']): string {
  return rights === 'none' ? 'not granted' : rights;
}

function fillRoots(): void {
  const options = roots.map((choice) => new Option(`${choice.label} — ${rightsText(choice.rights)}`, choice.uri));
  options.push(new Option('Other…', CUSTOM));
  ui.root.replaceChildren(...options);
}

// ---------------------------------------------------------------------------------------------
// Tracing

function showNothing(hint: string): void {
  shown = null;
  renderHint(ui.verdict, hint);
  renderNearMisses(ui.near, ui.nearList, [], roots, pickNearMiss);
  clearStages(ui.stages);
  renderBytes(ui.bytes, null);
  ui.stages.removeAttribute('aria-busy');
  ui.copy.disabled = true;
}

function show(trace: Trace, tool: string, serverNote: ServerNote | null): void {
  shown = trace;
  renderVerdict(ui.verdict, trace, { tool, acts: isToolName(tool) ? OPERATIONS[tool].acts : null, serverNote });
  renderNearMisses(ui.near, ui.nearList, nearMissesOf(trace), roots, pickNearMiss);
  renderStages(ui.stages, trace);
  renderBytes(ui.bytes, trace);
  ui.stages.removeAttribute('aria-busy');
  ui.copy.disabled = false;
}

/** Sends the current input for tracing now; any answer to an earlier request will be dropped. */
function traceNow(): void {
  clearTimeout(debounce);
  debounce = undefined;
  if (!initialised) return;
  const id = ++lastId;
  const request: TraceRequest = { input: ui.input.value, root: currentRoot(), platform: currentPlatform(), policy: currentPolicy(), tool: currentTool() };
  requestedTool = request.tool;
  if (request.input === '') {
    showNothing('Type a URI or a path above to see, stage by stage, whether it is inside the root.');
    return;
  }
  if (request.root === '') {
    showNothing('Choose a root, or type one in the "Other…" field.');
    return;
  }
  ui.stages.setAttribute('aria-busy', 'true');
  vscode.postMessage({ type: 'trace', id, request });
}

function traceSoon(): void {
  clearTimeout(debounce);
  debounce = setTimeout(traceNow, DEBOUNCE_MS);
}

/** Something the user controls changed: remember it, and trace (typing waits for a pause). */
function changed(immediately: boolean): void {
  ui.copyStatus.textContent = '';
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
  fillRoots();
  initialised = true;
  if (message.state) {
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
  ui.logPath.textContent = message.logPath === null ? "The server's refusal log is not available" : `Refusal log: ${message.logPath}`;
  showLayers(message.layers);
  saveState();
  traceNow();
}

function showLayers(layers: readonly ProtectionLayer[]): void {
  ui.layers.replaceChildren(
    ...layers.map((layer) => {
      const item = document.createElement('li');
      item.className = layer.active ? 'layer layer-active' : 'layer layer-inactive';
      const name = document.createElement('strong');
      name.textContent = `${layer.name}: ${layer.active ? 'active' : 'not active'}`;
      const detail = document.createElement('span');
      detail.textContent = layer.detail;
      item.append(name, detail);
      return item;
    }),
  );
}

function onInspect(input: string, root: string | null): void {
  ui.input.value = input;
  if (root !== null && roots.some((choice) => choice.uri === root)) selectRoot(root);
  changed(true);
}

/** "Did you mean…": trace the suggestion, against the workspace that holds it when it is one of the roots. */
function pickNearMiss(miss: NearMiss): void {
  ui.input.value = miss.uri;
  if (miss.workspace !== undefined && roots.some((choice) => choice.uri === miss.workspace)) selectRoot(miss.workspace);
  // The button is replaced by the new trace's list: keep the keyboard somewhere that stays.
  ui.input.focus();
  changed(true);
}

/** An audit finding: trace its entry against the audited folder, on this machine. */
function pickFinding(audit: AuditSummary, finding: AuditFinding): void {
  ui.input.value = finding.path;
  selectRoot(audit.root);
  if (host !== null) ui.platform.value = host;
  ui.verdict.scrollIntoView({ block: 'nearest' });
  changed(true);
}

function showAudits(audits: readonly AuditSummary[], running: boolean): void {
  renderAudits(ui.audits, audits, pickFinding);
  ui.auditRun.disabled = running;
  ui.auditStatus.textContent = running ? 'Auditing… (progress in the notification)' : '';
}

/** Loads a logged refusal into the panel: its input, its workspace, its tool, and its trace when it has one. */
function loadRefusal(entry: RefusalEntry): void {
  ui.input.value = entry.input;
  if (entry.workspaceUri !== null) selectRoot(entry.workspaceUri);
  if (isToolName(entry.tool)) ui.tool.value = entry.tool;
  ui.copyStatus.textContent = '';
  if (entry.trace) {
    // The trace as the server made it: show its platform and policy so that a change re-traces from there.
    ui.platform.value = entry.trace.platform;
    applyPolicy(entry.trace.policy);
    clearTimeout(debounce);
    lastId++;
    saveState();
    // A change refused for the grant's rights: the trace itself let it in.
    show(entry.trace, entry.tool, entry.code === 'ERR_READ_ONLY' ? { code: 'ERR_READ_ONLY', reason: entry.reason } : null);
  } else {
    changed(true);
  }
}

function showRefusals(): void {
  const section = ui.refusalsTitle.closest('section') ?? ui.refusals;
  section.scrollIntoView({ block: 'start' });
  const first = ui.refusals.querySelector('button');
  if (first) {
    first.focus();
  } else {
    ui.refusalsTitle.tabIndex = -1;
    ui.refusalsTitle.focus();
  }
}

function receive(message: ExtensionMessage): void {
  switch (message.type) {
    case 'init':
      onInit(message);
      return;
    case 'inspect':
      onInspect(message.input, message.root);
      return;
    case 'traceResult':
      if (message.id === lastId) show(message.trace, requestedTool, message.serverNote);
      return;
    case 'refusals':
      renderRefusals(ui.refusals, message.entries, loadRefusal);
      return;
    case 'showRefusals':
      showRefusals();
      return;
    case 'audits':
      showAudits(message.audits, message.running);
      return;
    case 'copied':
      ui.copyStatus.textContent = message.ok ? 'Copied' : 'Could not copy';
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
for (const control of [ui.platform, ui.tool, ui.case, ui.symlinks, ui.localhost, ui.unc]) {
  control.addEventListener('change', () => changed(true));
}
ui.copy.addEventListener('click', () => {
  if (shown === null) return;
  ui.copyStatus.textContent = '';
  vscode.postMessage({ type: 'copyTestCase', row: testCaseRow(shown) });
});
ui.auditRun.addEventListener('click', () => vscode.postMessage({ type: 'runAudit' }));
window.addEventListener('message', (event: MessageEvent<ExtensionMessage>) => receive(event.data));

// Until `init` arrives: what this webview last showed (VS Code keeps it across hide and reload).
const saved = vscode.getState();
if (isPanelState(saved)) applyState(saved);
else applyPolicy(DEFAULT_POLICY);
ui.copy.disabled = true;
clearVerdict(ui.verdict);
clearStages(ui.stages);
renderRefusals(ui.refusals, [], loadRefusal);
renderAudits(ui.audits, [], pickFinding);

vscode.postMessage({ type: 'ready' });
