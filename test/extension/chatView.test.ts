/**
 * explain_path's MCP Apps view in VS Code's own chat (code-server, headless Chromium, offline):
 * no language model is needed to see it. The chat calls a participant only once a model is chosen,
 * so a test-only extension (chatHost/) brings a stub model, never asked anything, and a participant
 * that calls the agent's explain_path itself, in the chat request. The chat then mounts the view
 * the tool names, reads it from the server, and passes the view's own calls back to the server.
 *
 * BI_VSCODE_TESTS=0 skips it, as it does the extension's suite. UPDATE_SCREENSHOT=1 also refreshes
 * media/chat-view.png.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { createDemoWorkspace } from '../../scripts/demo-workspace';
import { ensureEnvironment, environmentReady, openWorkbench, REPO, startVsCode } from '../../scripts/vscode-env';
import { optimisePng } from './uiChecks';
import { runFromPalette } from './workbench';
import { patience } from '../patience';

// Page-side code, run in the browser by evaluate(): typed loosely here, where the program has no DOM.
declare const document: any;

const installing = process.platform === 'linux' && !environmentReady();
const TIMEOUT = installing ? 15 * 60_000 : patience(4 * 60_000);
const skip = process.env['BI_VSCODE_TESTS'] === '0' ? 'BI_VSCODE_TESTS=0' : process.platform !== 'linux' ? 'the offline harness runs on Linux' : false;
const SCREENSHOTS = path.join(REPO, '.vscode-test', 'screenshots');

/** What a view in the chat shows, or null for a frame that holds none. */
async function shown(frame: Frame) {
  return frame
    .evaluate(() => {
      const verdict = document.querySelector('.verdict[data-verdict]');
      if (verdict === null) return null;
      return {
        verdict: verdict.dataset['verdict'] as string,
        stage: verdict.dataset['stage'] as string,
        headline: (verdict.querySelector('.verdict-headline')?.textContent ?? '') as string,
        rows: Array.from(document.querySelectorAll('.stages tbody tr')).map((row: any) => row.dataset['stage'] as string),
        deciding: Array.from(document.querySelectorAll('.stages tbody tr.deciding')).map((row: any) => row.dataset['stage'] as string),
        nearMisses: Array.from(document.querySelectorAll('.near-miss-uri')).map((node: any) => node.textContent as string),
        // Every program side by side: each row's decision, or "unseen" where the server could not decide it.
        compared: Object.fromEntries(Array.from(document.querySelectorAll('.compare-table tbody tr')).map((row: any) => [row.dataset['decider'] as string, row.dataset['decision'] as string])),
      };
    })
    .catch(() => null);
}

/** The newest view in the chat that shows a trace passing `accept`, within `timeout`. */
async function viewShowing(page: Page, accept: (view: NonNullable<Awaited<ReturnType<typeof shown>>>) => boolean, what: string, timeout = 60_000) {
  const deadline = Date.now() + patience(timeout);
  let last: unknown = null;
  while (Date.now() < deadline) {
    // The chat's webviews: each view's document is in the inner frame of one.
    for (const frame of [...page.frames()].reverse()) {
      const view = await shown(frame);
      if (view === null) continue;
      last = view;
      if (accept(view)) return { frame, view };
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no view in the chat showed ${what}; last seen: ${JSON.stringify(last)}`);
}

test("VS Code's chat shows explain_path's MCP Apps view, with no language model", { timeout: TIMEOUT, skip }, async (t) => {
  const log = (line: string) => t.diagnostic(line);
  await ensureEnvironment(log);
  const base = mkdtempSync(path.join(os.tmpdir(), 'bi-chat-view-'));
  const demo = createDemoWorkspace(path.join(base, 'demo'));
  // One folder holding both extensions: VS Code loads each of its folders as one under development.
  const extensions = path.join(base, 'extensions');
  mkdirSync(extensions);
  symlinkSync(REPO, path.join(extensions, 'boundary-inspector'));
  symlinkSync(path.join(REPO, 'test', 'extension', 'chatHost'), path.join(extensions, 'chat-host'));
  const vscode = await startVsCode({ workspace: demo.notes, extensionDevelopmentPath: extensions, runName: 'chat-view', log });
  const workbench = await openWorkbench(vscode, { log, viewport: { width: 1440, height: 1500 } });
  const page = workbench.page;
  try {
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: patience(60_000) });

    await runFromPalette(page, 'Boundary Inspector Tests: Trace a Refused Path in Chat');
    const refused = await viewShowing(page, (view) => view.verdict === 'outside', 'the refusal of ../notes-evil/secret.md');
    assert.equal(refused.view.stage, 'containment');
    assert.ok(refused.view.headline.startsWith('OUTSIDE — ERR_OUTSIDE at containment'), refused.view.headline);
    assert.deepEqual(refused.view.rows, ['parse', 'refusals', 'decode', 'normalise', 'alias', 'case', 'realpath', 'containment']);
    assert.deepEqual(refused.view.deciding, ['containment']);
    // The view's own call, for views only (compare_deciders), passed on by the chat: the reference
    // server decided by the server, Claude Code not, its user settings out of the server's sight.
    const compared = await viewShowing(page, (view) => view.verdict === 'outside' && view.compared['server-filesystem'] !== undefined, 'every program side by side');
    assert.equal(compared.view.compared['boundary-inspector'], 'deny');
    assert.equal(compared.view.compared['server-filesystem'], 'deny');
    assert.equal(compared.view.compared['claude-code'], 'unseen');
    mkdirSync(SCREENSHOTS, { recursive: true });
    const picture = path.join(SCREENSHOTS, 'chat-view.png');
    await page.screenshot({ path: picture });
    if (process.env['UPDATE_SCREENSHOT'] === '1') {
      // The README's picture: the chat maximized, the view at its full width.
      await page.locator('.part.auxiliarybar .action-label[aria-label*="Maximize"]').first().click();
      await page.waitForTimeout(1500);
      await page.screenshot({ path: picture });
      const target = path.join(REPO, 'media', 'chat-view.png');
      copyFileSync(picture, target);
      optimisePng(target, log);
      await page.locator('.part.auxiliarybar .action-label[aria-label*="Restore"]').first().click().catch(() => undefined);
    }

    // A near miss, chosen in the view: the view asks the server through the chat, not the participant.
    await runFromPalette(page, 'Boundary Inspector Tests: Trace a Misspelt Path in Chat');
    const misspelt = await viewShowing(page, (view) => view.nearMisses.includes('README.md'), 'readme.md with README.md offered');
    await misspelt.frame.locator('.near-miss', { hasText: 'README.md' }).first().click();
    const chosen = await viewShowing(page, (view) => view.verdict === 'inside' && view.nearMisses.length === 0 && view.headline === 'INSIDE', 'the trace of README.md', 30_000);
    assert.equal(chosen.frame, misspelt.frame, 'the new trace replaced the old in the same view');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'chat-view-near-miss.png') });
  } finally {
    await workbench.close();
    await vscode.stop();
    rmSync(base, { recursive: true, force: true });
  }
});
