// The history of traced inputs, Back and Forward.
import type { HistoryEntry, PanelHistory, PanelState } from '../../src/shared/messages.js';
import { applyPolicy, choose, saveState, selectRoot } from './form.js';
import { isPanelState, page, SERVER, ui } from './state.js';

/** Back and Forward go this many traced inputs back at most. */
const HISTORY_LIMIT = 50;

function isHistoryEntry(value: unknown): value is HistoryEntry {
  return isPanelState(value) && (value as { tool?: unknown }).tool !== undefined;
}

/** The history a saved state holds; none when it has none or it is damaged (the rest of the state still restores). */
export function savedHistory(state: PanelState): PanelHistory | null {
  const saved = (state as { readonly history?: unknown }).history;
  if (typeof saved !== 'object' || saved === null) return null;
  const { entries, index } = saved as Record<string, unknown>;
  if (!Array.isArray(entries) || entries.length === 0 || !entries.every(isHistoryEntry)) return null;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= entries.length) return null;
  const dropped = Math.max(0, entries.length - HISTORY_LIMIT);
  return { entries: entries.slice(dropped), index: Math.max(0, index - dropped) };
}

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

export function updateHistoryButtons(): void {
  const focused = document.activeElement;
  ui.back.disabled = page.historyIndex <= 0;
  ui.forward.disabled = page.historyIndex < 0 || page.historyIndex >= page.history.length - 1;
  // A button disabled under the keyboard would drop it on the page: it goes to the other one.
  if (focused === ui.back && ui.back.disabled && !ui.forward.disabled) ui.forward.focus();
  if (focused === ui.forward && ui.forward.disabled && !ui.back.disabled) ui.back.focus();
}

/**
 * A traced input joins the history after the entry on screen (entries ahead of it are dropped,
 * as in a browser), once. Typing on from a pause replaces the entry that pause made, so a path
 * typed letter by letter is one entry.
 */
export function remember(entry: HistoryEntry, typed: boolean): void {
  const current = page.history[page.historyIndex];
  if (current !== undefined && current.input === entry.input && current.root === entry.root && sameSettings(current, entry)) return;
  page.history = page.history.slice(0, page.historyIndex + 1);
  // The input or the typed-in root, whichever is being typed.
  const typingOn = typed && page.historyTyped && current !== undefined && sameSettings(current, entry)
    && ((current.root === entry.root && typedOn(current.input, entry.input)) || (current.input === entry.input && typedOn(current.root, entry.root)));
  if (typingOn) page.history[page.historyIndex] = entry;
  else page.history.push(entry);
  if (page.history.length > HISTORY_LIMIT) page.history = page.history.slice(page.history.length - HISTORY_LIMIT);
  page.historyIndex = page.history.length - 1;
  page.historyTyped = typed;
  updateHistoryButtons();
  saveState();
}

/** Back (-1) or Forward (+1): that entry's input and choices put back on the form; false when there is none. The caller traces it again. */
export function stepHistory(step: -1 | 1): boolean {
  const entry = page.history[page.historyIndex + step];
  if (entry === undefined || !page.initialised) return false;
  page.historyIndex += step;
  page.historyTyped = false;
  ui.input.value = entry.input;
  ui.platform.value = entry.platform;
  choose(entry.decider ?? SERVER, entry.tool);
  applyPolicy(entry.policy);
  selectRoot(entry.root);
  updateHistoryButtons();
  return true;
}
