/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, waitFor } from './helpers';

const COMMANDS = [
  'boundaryInspector.openInspector',
  'boundaryInspector.inspectPath',
  'boundaryInspector.inspectResource',
  'boundaryInspector.showRefusals',
  'boundaryInspector.showProtection',
  'boundaryInspector.auditWorkspace',
];

function inspectorTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('boundaryInspector.inspector'));
}

suite('Extension', () => {
  test('activates', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed in this editor`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  test('registers its commands', async () => {
    const commands = new Set(await vscode.commands.getCommands(true));
    const missing = COMMANDS.filter((command) => !commands.has(command));
    assert.deepEqual(missing, [], `commands not registered: ${missing.join(', ')}`);
  });

  test('opens the inspector as a webview tab', async () => {
    await vscode.commands.executeCommand('boundaryInspector.openInspector');
    const tabs = await waitFor(() => (inspectorTabs().length > 0 ? inspectorTabs() : undefined), 'no inspector tab appeared', 15_000);
    assert.equal(tabs.length, 1, 'exactly one inspector tab');
    assert.equal(tabs[0]!.label, 'Boundary Inspector');
    // A second open reveals the same panel instead of making another.
    await vscode.commands.executeCommand('boundaryInspector.openInspector');
    assert.equal(inspectorTabs().length, 1, 'opening again reuses the panel');
  });
});
