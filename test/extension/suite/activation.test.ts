/// <reference types="mocha" />
/**
 * VS Code's own measure of the extension's activation, read where "Developer: Startup
 * Performance" (perfview.show) lists it: the workbench keeps, per extension, the times its
 * extension host reported. The same numbers feed "Developer: Show Running Extensions".
 *
 * They go to `<control>/activation.json` for the harness. No time is asserted (machines are
 * noisy): bench/perf/run.ts holds the goal.
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { controlDir, EXTENSION_ID, waitFor, type ActivationTimes } from './helpers';
import { patience } from '../../patience';

const PERF_URI = vscode.Uri.from({ scheme: 'perf', path: 'Startup Performance' });

/** Our row of the view's markdown table `| Extension | Eager | Load Code | Call Activate | Finish Activate | Event | By |`. */
function activationRow(text: string, id: string): ActivationTimes | undefined {
  const start = text.indexOf('## Extension Activation Stats');
  if (start === -1) return undefined;
  for (const line of text.slice(start).split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 8 || cells[1]?.toLowerCase() !== id.toLowerCase()) continue;
    const [loadCodeMs, callActivateMs, finishActivateMs] = [cells[3], cells[4], cells[5]].map(Number) as [number, number, number];
    if (![loadCodeMs, callActivateMs, finishActivateMs].every(Number.isFinite)) return undefined;
    return {
      extension: cells[1]!,
      startup: cells[2] === 'true',
      loadCodeMs,
      callActivateMs,
      finishActivateMs,
      activationMs: loadCodeMs + callActivateMs,
      event: cells[6] ?? '',
      vscodeVersion: vscode.version,
    };
  }
  return undefined;
}

suite('Activation', () => {
  test("VS Code's activation time is recorded", async function () {
    this.timeout(patience(60_000));
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed in this editor`);
    await extension.activate();

    // The view's content provider is registered when the command first opens it; the text fills
    // in once the workbench has reached its last startup phase.
    await vscode.commands.executeCommand('perfview.show');
    const times = await waitFor(
      async () => {
        const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === PERF_URI.toString());
        return activationRow((open ?? (await vscode.workspace.openTextDocument(PERF_URI))).getText(), EXTENSION_ID);
      },
      `the Startup Performance view never listed ${EXTENSION_ID}`,
      45_000,
      500,
    );
    const perfTabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'perf');
    await vscode.window.tabGroups.close(perfTabs);

    console.log(
      `[activation] ${times.activationMs} ms (VS Code's measure: load code ${times.loadCodeMs} ms + call activate ${times.callActivateMs} ms; ` +
        `finish activate ${times.finishActivateMs} ms; event ${times.event})`,
    );
    const control = controlDir();
    if (control !== null) writeFileSync(path.join(control, 'activation.json'), JSON.stringify(times, null, 2));
  });
});
