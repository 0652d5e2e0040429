import * as vscode from 'vscode';
import { visible } from '../core/index.js';
import type { RefusalEntry } from '../shared/messages.js';
import { RECENT_REFUSALS, type RefusalFeed } from './refusalFeed.js';
import { SECTION } from './settings.js';

/**
 * The status bar's count of the server's refusals and not-found paths since this window opened,
 * and, when `boundaryInspector.notifyOnRefusal` is on, a notification for each new one. Clicking
 * the count shows the refusal list.
 */
export class RefusalStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('boundaryInspector.refusals', vscode.StatusBarAlignment.Left, 10);
  private readonly listening: vscode.Disposable;
  private readonly seen = new Set<string>();
  private readonly since = Date.now();

  constructor(feed: RefusalFeed, private readonly showEntry: (entry: RefusalEntry) => void) {
    this.item.name = vscode.l10n.t('Boundary Inspector refusals');
    this.item.command = 'boundaryInspector.showRefusals';
    this.listening = feed.onDidChange((entries) => this.update(entries, true));
    this.update(feed.entries, false);
    this.item.show();
  }

  private update(entries: readonly RefusalEntry[], announce: boolean): void {
    const recent = entries.filter((entry) => Date.parse(entry.time) >= this.since);
    const fresh = recent.filter((entry) => !this.seen.has(keyOf(entry)));
    for (const entry of fresh) this.seen.add(keyOf(entry));
    const refused = recent.filter((entry) => entry.event !== 'not-found').length;
    const missing = recent.length - refused;
    // The feed keeps the newest RECENT_REFUSALS: past that the count is a floor.
    this.item.text = `$(shield) ${recent.length}${recent.length >= RECENT_REFUSALS ? '+' : ''}`;
    // Counts as values after a label, so no sentence has to agree with a number in any language.
    this.item.tooltip = vscode.l10n.t("The agent's server since this window opened\nCalls refused: {0}\nPaths with nothing there: {1}\nClick to see them.", refused, missing);
    this.item.accessibilityInformation = { label: vscode.l10n.t('Boundary Inspector: calls refused: {0}; paths with nothing there: {1}; since this window opened', refused, missing) };
    if (announce && fresh.length > 0 && vscode.workspace.getConfiguration(SECTION).get<boolean>('notifyOnRefusal', false)) this.announce(fresh[0]!, fresh.length);
  }

  private announce(newest: RefusalEntry, count: number): void {
    const show = vscode.l10n.t('Show');
    const what = newest.event === 'not-found'
      ? vscode.l10n.t("The agent's {0} found nothing at {1}: {2}", newest.tool, visible(newest.input, { shorten: true }), visible(newest.reason, { shorten: true }))
      : vscode.l10n.t("The agent's {0} was refused ({1} at {2}): {3}", newest.tool, newest.code, newest.stage, visible(newest.input, { shorten: true }));
    const text = count > 1 ? vscode.l10n.t('{0} (and {1} more)', what, count - 1) : what;
    void vscode.window.showInformationMessage(text, show).then((chosen) => {
      if (chosen === show) this.showEntry(newest);
    });
  }

  dispose(): void {
    this.listening.dispose();
    this.item.dispose();
  }
}

function keyOf(entry: RefusalEntry): string {
  return JSON.stringify([entry.time, entry.tool, entry.workspaceUri, entry.input, entry.code]);
}
