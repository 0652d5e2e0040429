// Tracing: the request for the input on the form, the trace or another program's decision drawn,
// every program side by side, "Did you mean…", and "Run on the server".
import type { ComparedRow, CopyPurpose, ServerNote, ShownVerdict, Trace, TraceRequest } from '../../src/shared/messages.js';
import { isToolName, OPERATIONS } from '../../src/shared/operations.js';
import { runArguments, runChanges } from '../../src/shared/runOnServer.js';
import {
  clearStages,
  renderAnswer,
  renderBytes,
  renderComparison,
  renderDecided,
  renderDecision,
  renderDeciderStages,
  renderHint,
  renderNearMisses,
  renderTrace,
  suggestionOf,
  type NearMiss,
  type VerdictActions,
} from '../render.js';
import { choose, currentDecider, currentPlatform, currentPolicy, currentRoot, currentTool, saveState, selectRoot, serverTool } from './form.js';
import { remember } from './history.js';
import { page, SERVER, ui, vscode } from './state.js';

const DEBOUNCE_MS = 150;

/**
 * "Run on the server" for the current input, root and tool: enabled when the tool takes a path
 * alone and the root is a granted workspace; otherwise its title says why not.
 */
export function updateRun(): void {
  const tool = serverTool();
  const root = page.roots.find((choice) => choice.uri === currentRoot());
  let why: string | null = null;
  if (ui.input.value === '') why = 'Type a path to run.';
  else if (tool === null) why = 'Run on the server calls this server\'s own tool: choose Boundary Inspector in "Decided by".';
  else if (runArguments(tool, ui.input.value) === undefined) why = `${tool} needs more than a path, so it is not run from here: choose another tool in "As seen by".`;
  else if (root === undefined || root.rights === 'none') why = 'The root is not a workspace folder granted to the agent, so its server would refuse the call: choose a granted one in "Root".';
  else if (currentPlatform() !== page.host) why = `The server runs on this machine${page.host === null ? '' : ` (${page.host})`}: choose that platform to run the call.`;
  ui.run.disabled = why !== null;
  ui.run.title = why ?? (tool === null ? '' : `Call ${tool} on the agent's server with this path${runChanges(tool) ? ' (asks first: it changes the disk)' : ''}`);
  // Said on the page too: a disabled button's title shows only to a pointer that rests on it. An empty input has the verdict's hint.
  const said = ui.input.value === '' ? null : why;
  ui.runWhy.textContent = said ?? '';
  ui.runWhy.hidden = said === null;
}

/** An answer to another input, root or tool is no answer to this one. */
export function forgetAnswer(): void {
  page.lastRunId++;
  ui.answer.hidden = true;
  updateRun();
}

export function runOnServer(): void {
  const tool = serverTool();
  if (tool === null) return;
  const id = ++page.lastRunId;
  renderAnswer(ui.answer, tool, null);
  vscode.postMessage({ type: 'runTool', id, tool, input: ui.input.value, root: currentRoot() });
}

function showNothing(hint: string): void {
  page.shown = null;
  renderHint(ui.verdict, hint);
  ui.compare.hidden = true;
  renderDecided(ui.decided, null, actions);
  renderNearMisses(ui.near, ui.nearList, [], page.roots, pickNearMiss);
  clearStages(ui.stages);
  renderBytes(ui.bytes, null);
  ui.stages.removeAttribute('aria-busy');
  ui.copy.disabled = true;
}

/** What a verdict on the page may do: open the files it names (the extension checks them), copy a fix. */
const actions: VerdictActions = {
  get present() {
    return page.present;
  },
  open(file, line, lines, add) {
    vscode.postMessage({ type: 'openFile', file, ...(line !== undefined ? { line } : {}), ...(lines !== undefined ? { lines } : {}), ...(add !== undefined ? { add } : {}) });
  },
  copy(text, status) {
    page.fixCopyStatus = status;
    status.textContent = '';
    copyText(text, 'fix');
  },
};

export function copyText(text: string, what: CopyPurpose): void {
  vscode.postMessage({ type: 'copy', text, what });
}

/** Every program's decision on the input; choosing one traces it as that program decides it. */
function showComparison(rows: readonly ComparedRow[]): void {
  // The table is drawn afresh: the keyboard stays on the row it was on.
  const focused = document.activeElement instanceof HTMLElement && ui.compareTable.contains(document.activeElement) ? document.activeElement.closest('tr')?.dataset['decider'] : undefined;
  renderComparison(ui.compare, ui.compareTable, rows, page.deciders, currentDecider(), pickCompared, actions);
  if (focused !== undefined) ui.compareTable.querySelector<HTMLElement>(`tr[data-decider="${focused}"] button`)?.focus({ preventScroll: true });
}

function pickCompared(row: ComparedRow): void {
  choose(row.decider, row.tool);
  markChosen(null);
  changed(true);
}

/** Another program's decision: its banner, what would allow it, its stages, the files it read. */
export function showDecided(verdict: ShownVerdict | { readonly error: string }, rows: readonly ComparedRow[]): void {
  page.shown = null;
  page.present = 'error' in verdict ? [] : verdict.present;
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
  renderNearMisses(ui.near, ui.nearList, [], page.roots, pickNearMiss);
  renderBytes(ui.bytes, null);
  showComparison(rows);
  ui.stages.removeAttribute('aria-busy');
  // A test case is a row of this server's trace tables.
  ui.copy.disabled = true;
}

export function show(trace: Trace, tool: string, serverNote: ServerNote | null, rows: readonly ComparedRow[]): void {
  page.shown = trace;
  page.present = [];
  delete ui.verdict.dataset['decision'];
  renderTrace(ui, trace, { tool, acts: isToolName(tool) ? OPERATIONS[tool].acts : null, serverNote }, { roots: page.roots, pick: pickNearMiss, hideUnchanged: ui.hideUnchanged.checked });
  renderDecided(ui.decided, null, actions);
  showComparison(rows);
  // What the server would refuse despite the trace reads right under the verdict, and marks the banner.
  ui.verdict.classList.toggle('verdict-server-refuses', serverNote !== null);
  const note = ui.verdict.querySelector('.verdict-server');
  if (note !== null) ui.verdict.querySelector('.verdict-headline')?.after(note);
  ui.stages.removeAttribute('aria-busy');
  ui.copy.disabled = false;
}

/** Sends the current input for tracing now; any answer to an earlier request will be dropped. */
export function traceNow(typed = false): void {
  clearTimeout(page.debounce);
  page.debounce = undefined;
  if (!page.initialised) return;
  const id = ++page.lastId;
  const decider = currentDecider();
  const request: TraceRequest = { input: ui.input.value, root: currentRoot(), platform: currentPlatform(), policy: currentPolicy(), tool: currentTool(), ...(decider !== SERVER ? { decider } : {}) };
  page.requestedTool = request.tool;
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
  page.awaited = id;
  vscode.postMessage({ type: 'trace', id, request });
}

function traceSoon(): void {
  clearTimeout(page.debounce);
  page.debounce = setTimeout(() => traceNow(true), DEBOUNCE_MS);
}

/** Something the user controls changed: remember it, and trace (typing waits for a pause). */
export function changed(immediately: boolean): void {
  ui.copyStatus.textContent = '';
  forgetAnswer();
  saveState();
  if (immediately) traceNow();
  else traceSoon();
}

/** "Did you mean…": trace the suggestion, against the workspace that holds it when it is one of the roots. */
function pickNearMiss(miss: NearMiss): void {
  ui.input.value = suggestionOf(page.shown, miss);
  if (miss.workspace !== undefined && page.roots.some((choice) => choice.uri === miss.workspace)) selectRoot(miss.workspace);
  // The button is replaced by the new trace's list: keep the keyboard somewhere that stays.
  ui.input.focus();
  changed(true);
}

/**
 * A trace asked for from a list far down the page, or from outside it (a command, Problems): the
 * page scrolls to its verdict and the keyboard goes there, so that the next Tab walks the trace.
 */
export function bringTraceIntoView(): void {
  // An empty banner (a page just loaded) is not drawn, so it can be neither scrolled to nor focused: again once the trace is there.
  page.intoViewOnDrawn = page.awaited === page.lastId ? page.lastId : null;
  ui.verdict.tabIndex = -1;
  ui.verdict.scrollIntoView({ block: 'start' });
  ui.verdict.focus({ preventScroll: true });
}

/** Marks the entry whose trace is shown, in the list that holds it; every other entry unmarked. */
export function markChosen(button: HTMLElement | null): void {
  for (const other of document.querySelectorAll('.refusal[aria-current], .finding[aria-current]')) other.removeAttribute('aria-current');
  button?.setAttribute('aria-current', 'true');
}
