/**
 * The extension in a real VS Code, from `npm test`: installs what is missing (first run: Node 24,
 * code-server, Chromium, into .vscode-test/), builds, runs the extension-host suite
 * (test/extension/suite) and the UI checks of the inspector and the walkthrough (uiChecks.ts) in
 * one VS Code, and reports each as its own test. VS Code's process group is always stopped, on failure and timeout too.
 * VS Code's measure of the extension's activation is printed and kept in .vscode-test/activation.json
 * (bench/perf/run.ts shows it against its goal; no time is asserted here).
 *
 * BI_VSCODE_TESTS=0 skips it (for a quick `npm test` of the rest); BI_VSCODE_VERBOSE=1 prints the
 * workbench's log (the extension host's console) as it comes; its tail is shown on failure anyway.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { environmentReady, missingPieces, REPO } from '../../scripts/vscode-env';
import { ACTIVATION_FILE, activationRecord, DEFAULT_RUN_TIMEOUT, recordActivation, runVsCodeTests, type HarnessResult } from './harness';

const installing = process.platform === 'linux' && !environmentReady();
/** Everything: 15 minutes when something must be installed first, the VS Code part and a minute otherwise. */
const OVERALL_TIMEOUT = installing ? 15 * 60_000 : DEFAULT_RUN_TIMEOUT + 60_000;
const skip = process.env['BI_VSCODE_TESTS'] === '0' ? 'BI_VSCODE_TESTS=0' : process.platform !== 'linux' ? 'the offline harness runs on Linux' : false;

function seconds(ms: number | undefined): string {
  return ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`;
}

function context(result: HarnessResult): string {
  const tail = result.hostLog.slice(-40).join('\n');
  return [
    result.runDir ? `run folder: ${result.runDir}` : '',
    result.serverLog ? `server log: ${result.serverLog}` : '',
    tail ? `last workbench log lines:\n${tail}` : '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

test('VS Code: the extension in code-server with headless Chromium', { timeout: OVERALL_TIMEOUT, skip }, async (t) => {
  if (installing) t.diagnostic(`first run: installing ${missingPieces().join('; ')} (several minutes)`);
  const result = await runVsCodeTests({ echoHostLog: process.env['BI_VSCODE_VERBOSE'] === '1' });
  const { timings } = result;
  t.diagnostic(
    `timings: environment ${seconds(timings['environment'])}, build ${seconds(timings['build'])}, server start ${seconds(timings['server start'])}, ` +
      `suite ${seconds(timings['suite'])} (UI checks ${seconds(timings['ui checks'])}, walkthrough checks ${seconds(timings['walkthrough checks'])}), stop ${seconds(timings['stop'])}, total ${seconds(timings['total'])}`,
  );
  const { activation } = result;
  if (activation !== null) {
    const record = activationRecord(activation);
    recordActivation(record);
    t.diagnostic(
      `activation: ${activation.activationMs} ms (VS Code's measure: load code ${activation.loadCodeMs} ms + call activate ${activation.callActivateMs} ms; ` +
        `finish activate ${activation.finishActivateMs} ms; event ${activation.event}; ${record.build} build; kept in ${path.relative(REPO, ACTIVATION_FILE)})`,
    );
  }

  await t.test('the harness installs, builds, starts VS Code and the suite finishes', () => {
    assert.equal(result.error, null, `${result.error}\n${context(result)}`);
    assert.ok(result.suite.length > 0, `the suite reported no test\n${context(result)}`);
  });

  for (const entry of result.suite) {
    await t.test(`extension host: ${entry.title}`, { skip: entry.state === 'pending' ? 'pending in the suite' : false }, () => {
      if (entry.state === 'failed') assert.fail(entry.error ?? 'failed');
    });
  }

  if (result.ui === null) {
    await t.test('inspector UI checks', () => assert.fail(`the UI checks never ran: the suite did not reach its UI test\n${context(result)}`));
  } else {
    for (const check of result.ui) {
      await t.test(`inspector UI: ${check.name}`, () => {
        if (!check.ok) assert.fail(`${check.error ?? 'failed'}\n${context(result)}`);
      });
    }
  }

  if (result.walkthrough === null) {
    await t.test('walkthrough UI checks', () => assert.fail(`the walkthrough checks never ran: the suite did not reach its walkthrough test\n${context(result)}`));
  } else {
    for (const check of result.walkthrough) {
      await t.test(`walkthrough UI: ${check.name}`, () => {
        if (!check.ok) assert.fail(`${check.error ?? 'failed'}\n${context(result)}`);
      });
    }
  }

  await t.test('the suite exits with code 0', () => {
    assert.equal(result.exitCode, 0, `codeAutomationExit gave ${result.exitCode}\n${context(result)}`);
  });
});
