// The refusal feed: the server's recent refusals, filtered and searched, each one click from its trace.
import type { FeedFilter, PanelState, RefusalEntry } from '../../src/shared/messages.js';
import { visible } from '../../src/core/visible.js';
import { isToolName } from '../../src/shared/operations.js';
import { refusalKey, renderRefusals } from '../render.js';
import { applyPolicy, choose, currentDecider, currentPlatform, currentPolicy, currentRoot, currentTool, saveState, selectRoot } from './form.js';
import { remember } from './history.js';
import { NO_FILTER, page, SERVER, ui } from './state.js';
import { bringTraceIntoView, changed, forgetAnswer, markChosen, show } from './trace.js';

/** The refusal list's filters a saved state holds; none when it has none or they are damaged. */
export function savedFeed(state: PanelState): FeedFilter {
  const saved = (state as { readonly feed?: unknown }).feed;
  if (typeof saved !== 'object' || saved === null) return NO_FILTER;
  const fields = saved as Record<string, unknown>;
  const text = (key: keyof FeedFilter) => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  return { search: text('search'), code: text('code'), tool: text('tool'), workspace: text('workspace'), clearedBefore: text('clearedBefore') };
}

/** Loads a logged refusal into the panel: its input, its workspace, its tool, and its trace when it has one. */
export function loadRefusal(entry: RefusalEntry, button: HTMLElement | null): void {
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
    clearTimeout(page.debounce);
    page.lastId++;
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
export function showFeed(): void {
  const label = (uri: string) => page.roots.find((choice) => choice.uri === uri)?.label ?? uri;
  fillFilter(ui.feedCode, 'Any code', page.feedEntries.map(feedCode), page.feed.code);
  fillFilter(ui.feedTool, 'Any tool', page.feedEntries.map((entry) => entry.tool), page.feed.tool);
  fillFilter(ui.feedWorkspace, 'Any workspace', page.feedEntries.flatMap((entry) => (entry.workspaceUri === null ? [] : [entry.workspaceUri])), page.feed.workspace, label);
  ui.feedSearch.value = page.feed.search;
  const needle = page.feed.search.trim().toLowerCase();
  const after = page.feed.clearedBefore === '' ? null : Date.parse(page.feed.clearedBefore);
  const shown = page.feedEntries.filter((entry) =>
    (after === null || Date.parse(entry.time) > after)
    && (page.feed.code === '' || feedCode(entry) === page.feed.code)
    && (page.feed.tool === '' || entry.tool === page.feed.tool)
    && (page.feed.workspace === '' || entry.workspaceUri === page.feed.workspace)
    && (needle === '' || `${entry.input}\n${entry.reason}`.toLowerCase().includes(needle)));
  const filtered = shown.length !== page.feedEntries.length;
  renderRefusals(ui.refusals, shown, loadRefusal, page.feedEntries.length === 0 ? undefined : after !== null && shown.length === 0 ? 'Cleared: new refusals appear here.' : 'No refusal matches the filters.');
  ui.feedCount.textContent = page.feedEntries.length === 0 ? '' : filtered ? `${shown.length} of ${page.feedEntries.length} shown` : `${page.feedEntries.length} shown`;
  // Clearing hides what is listed now; the log keeps it, and "Show all" brings it back.
  ui.feedClear.textContent = after === null ? 'Clear' : 'Show all';
  ui.feedClear.disabled = after === null && page.feedEntries.length === 0;
}

export function filterFeed(change: Partial<FeedFilter>): void {
  page.feed = { ...page.feed, ...change };
  saveState();
  showFeed();
}
