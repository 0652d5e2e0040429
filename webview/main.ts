/**
 * The inspector webview. It never runs the pipeline: it sends what the user chose to the
 * extension, which traces it with the same core as the server, and renders the trace it gets
 * back. Its sections are in panel/: the form, the history, tracing, the refusal feed, the audit,
 * the protection section, and the router of the extension's messages, over one page state
 * (panel/state.ts). This file wires the page's events to them and starts the page.
 */
import type { ExtensionMessage, Policy } from '../src/shared/messages.js';
import { PROTECTION_SCOPE } from '../src/shared/layers.js';
import { clearStages, clearVerdict, hideQuietStages, keepRealTextOnCopy, renderAudits, testCaseRow } from './render.js';
import { pickFinding } from './panel/audit.js';
import { filterFeed, showFeed } from './panel/feed.js';
import { applyPolicy, choose, currentDecider, currentTool, CUSTOM, fillRoots, saveState, showCustomRoot } from './panel/form.js';
import { stepHistory, updateHistoryButtons } from './panel/history.js';
import { applyState, receive, reportDrawn } from './panel/router.js';
import { isPanelState, page, ui, vscode } from './panel/state.js';
import { changed, copyText, markChosen, runOnServer } from './panel/trace.js';

/** A focus this soon after a pointer press is the click's own. */
const CLICK_FOCUS_MS = 500;
const DEFAULT_POLICY: Policy = { localhost: 'refuse', unc: 'refuse', case: 'auto', symlinks: 'contain' };

/** Back (-1) or Forward (+1), traced again: the request matches the entry now on screen, so tracing it leaves the history as it is. */
function traceHistory(step: -1 | 1): void {
  if (!stepHistory(step)) return;
  markChosen(null);
  changed(true);
}

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
  if (page.shown === null) return;
  ui.copyStatus.textContent = '';
  copyText(testCaseRow(page.shown), 'test-case');
});
ui.auditRun.addEventListener('click', () => vscode.postMessage({ type: 'runAudit' }));
for (const opener of [ui.logPath, ui.openLog]) opener.addEventListener('click', () => vscode.postMessage({ type: 'openLog' }));
ui.listServers.addEventListener('click', () => vscode.postMessage({ type: 'listServers' }));
ui.run.addEventListener('click', runOnServer);
ui.feedSearch.addEventListener('input', () => filterFeed({ search: ui.feedSearch.value }));
ui.feedCode.addEventListener('change', () => filterFeed({ code: ui.feedCode.value }));
ui.feedTool.addEventListener('change', () => filterFeed({ tool: ui.feedTool.value }));
ui.feedWorkspace.addEventListener('change', () => filterFeed({ workspace: ui.feedWorkspace.value }));
ui.feedClear.addEventListener('click', () => filterFeed({ clearedBefore: page.feed.clearedBefore === '' ? (page.feedEntries[0]?.time ?? '') : '' }));
ui.back.addEventListener('click', () => traceHistory(-1));
ui.forward.addEventListener('click', () => traceHistory(1));
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
  traceHistory(event.key === 'ArrowLeft' ? -1 : 1);
}, true);
window.addEventListener('message', (event: MessageEvent<ExtensionMessage>) => receive(event.data));
/**
 * The editor focuses a webview as a whole when it comes back (another tab, a move to another
 * group): the keyboard goes back where it was instead of to the page's body. A click chooses for itself.
 */
function keepFocusAcrossReturns(): void {
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
}
keepFocusAcrossReturns();

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
