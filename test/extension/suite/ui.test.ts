/// <reference types="mocha" />
/**
 * The inspector's UI is checked from outside, by the harness driving the real webview in
 * Chromium (test/extension/uiChecks.ts). This test sets the stage (the inspector alone in the
 * editor), tells the harness it may start (control/ui-ready.json) and waits until it is done
 * (control/ui-done.json): the extension host must stay up meanwhile, since the panel talks to it,
 * and it stops as soon as run() settles. Skipped when nothing drives the UI (runDesktop.ts).
 */
import * as vscode from 'vscode';
import * as assert from 'node:assert/strict';
import { handOver, harnessInfo, waitFor } from './helpers';
import { patience } from '../../patience';

suite('Inspector UI (driven by the harness)', function () {
  this.timeout(patience(500_000));

  test('the harness checks the panel', async function () {
    if (harnessInfo()?.drivesUi !== true) this.skip();
    for (const command of ['workbench.action.closeAllEditors', 'workbench.action.closeSidebar', 'workbench.action.closePanel', 'workbench.action.closeAuxiliaryBar', 'notifications.clearAll']) {
      await vscode.commands.executeCommand(command).then(undefined, () => undefined);
    }
    await vscode.commands.executeCommand('boundaryInspector.openInspector');
    // The tab appears once the panel is made, a moment after the command returns.
    await waitFor(
      () => vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('boundaryInspector.inspector'))) || undefined,
      'the inspector is not open for the harness to drive',
      15_000,
    );
    const outcome = await handOver('ui');
    // The harness reports each check as it goes; its outcome decides this test.
    assert.equal(outcome.ok, true, `the harness's UI checks failed:\n${(outcome.failures ?? ['(no failures listed)']).join('\n')}`);
  });
});
