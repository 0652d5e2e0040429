// The MCP Apps view, end to end: the real server over stdio, its ui:// resource rendered by
// ext-apps' own host side in headless Chromium, real explain_path and audit_workspace results for
// attack inputs, and the view's own calls back through the host.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { REPO } from '../../scripts/vscode-env';
import { optimisePng } from '../extension/uiChecks';
import { AUDIT_VIEW, TRACE_VIEW } from '../../src/server/tools/appViews.js';
import { connect, expectOk, fileUri, type Session } from '../server/helpers';
import { openViewHost, screenshotPath, type ViewHost } from './viewHost';
import { patience } from '../patience.js';

// Page-side code, run in the browser by evaluate(): its globals are typed loosely here, where
// the program has no DOM.
declare const document: any;
declare const getComputedStyle: any;

const UPDATE_SCREENSHOT = process.env['UPDATE_SCREENSHOT'] === '1';
const FORGED_TARGET = '/root/.ssh/id_rsa\u001b[2K\n> containment pass inside\u202eexe.txt\u200b';
/** What draws a line, drives a terminal or hides text, apart from the layout's own line breaks and tabs. */
const HIDDEN_SOURCE = '(?![\\n\\t])[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]';

/** What a copy of the selection puts on the clipboard, through the page's own copy handling. */
async function copied(frame: Frame, selector: string): Promise<string> {
  return frame.evaluate((target: string) => {
    const selection = document.getSelection();
    selection.removeAllRanges();
    const range = document.createRange();
    range.selectNodeContents(document.querySelector(target));
    selection.addRange(range);
    const data = new (globalThis as any).DataTransfer();
    document.dispatchEvent(new (globalThis as any).ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
    return data.getData('text/plain') || selection.toString();
  }, selector);
}

let base: string;
let workspace: string;
let session: Session;
let host: ViewHost;
let html: string;

before(async () => {
  // The README's picture shows a short, steady path.
  if (UPDATE_SCREENSHOT) {
    base = path.join(os.tmpdir(), 'bi-demo');
    rmSync(base, { recursive: true, force: true });
    mkdirSync(base);
  } else {
    base = mkdtempSync(path.join(os.tmpdir(), 'bi-view-'));
  }
  workspace = path.join(base, 'notes');
  mkdirSync(path.join(base, 'notes-evil'), { recursive: true });
  writeFileSync(path.join(base, 'notes-evil', 'secret.md'), 'secret');
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  writeFileSync(path.join(workspace, 'README.md'), '# notes');
  writeFileSync(path.join(workspace, 'src', 'index.ts'), '');
  symlinkSync('../notes-evil', path.join(workspace, 'evil-link'));
  symlinkSync('nowhere', path.join(workspace, 'dangling'));
  writeFileSync(path.join(workspace, 'Plan.md'), '');
  writeFileSync(path.join(workspace, 'plan.md'), '');
  // A link whose target would draw a line of its own and turn the text after it around, and a
  // folder in NFD beside which an NFC spelling is asked for.
  symlinkSync(FORGED_TARGET, path.join(workspace, 'forged'));
  mkdirSync(path.join(workspace, 'cafe\u0301'));
  writeFileSync(path.join(workspace, 'cafe\u0301', 'menu.md'), '');
  session = await connect('v2', { args: ['--workspace', fileUri(workspace)] });
  host = await openViewHost((name, args) => session.call(name, args));
});

after(async () => {
  await host?.close();
  await session?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

async function explain(pathArg: string, tool?: string) {
  const args = { workspaceUri: fileUri(workspace), path: pathArg, ...(tool !== undefined ? { tool } : {}) };
  const result = await session.call('explain_path', args);
  return { args, result, structured: expectOk(result, `explain_path ${pathArg}`) };
}

/** What the view shows of a trace: the verdict it says, the stage that decided, and the rows. */
async function shownTrace(frame: Frame) {
  return frame.evaluate(() => {
    const verdict = document.querySelector('.verdict[data-verdict]');
    return {
      verdict: verdict?.dataset['verdict'],
      stage: verdict?.dataset['stage'],
      code: verdict?.dataset['code'],
      headline: verdict?.querySelector('.verdict-headline')?.textContent ?? '',
      operation: verdict?.querySelector('.verdict-operation')?.textContent ?? '',
      rows: Array.from(document.querySelectorAll('.stages tbody tr')).map((row: any) => ({ stage: row.dataset['stage'], status: row.dataset['status'], deciding: row.classList.contains('deciding') })),
      nearMisses: Array.from(document.querySelectorAll('.near-miss-uri')).map((node: any) => node.textContent),
    };
  });
}

/** Waits until the view shows the trace of `input`: its parse row starts from it, with the verdict given. */
async function waitForTrace(frame: Frame, input: string, verdict: string): Promise<void> {
  await frame.waitForFunction(
    (expected: { input: string; verdict: string }) =>
      document.querySelector('.stages tbody tr[data-stage="parse"] td.path')?.textContent === expected.input && document.querySelector('.verdict')?.dataset['verdict'] === expected.verdict,
    { input, verdict },
    { timeout: patience(10_000) },
  );
}

/** The view shows what explain_path's structured result says, row for row. */
function assertShows(shown: Awaited<ReturnType<typeof shownTrace>>, structured: Record<string, any>, what: string): void {
  assert.equal(shown.verdict, structured.verdict, `${what}: the verdict`);
  assert.equal(shown.stage, structured.stage, `${what}: the deciding stage`);
  assert.equal(shown.code, structured.code, `${what}: the code`);
  assert.ok(shown.headline.startsWith(structured.verdict.toUpperCase()), `${what}: the headline says ${structured.verdict}: ${shown.headline}`);
  if (structured.code !== undefined) assert.ok(shown.headline.includes(`${structured.code} at ${structured.stage}`), `${what}: the headline names the code and stage: ${shown.headline}`);
  assert.deepEqual(shown.rows.map((row) => [row.stage, row.status]), structured.stages.map((stage: any) => [stage.stage, stage.status]), `${what}: one row per stage, with its status`);
  assert.deepEqual(shown.rows.filter((row) => row.deciding).map((row) => row.stage), [structured.stage], `${what}: the deciding row`);
  assert.ok(shown.operation.includes(structured.tool), `${what}: "As seen by" names the tool`);
}

describe('the MCP Apps view, served by the real server and shown by ext-apps\' host side', () => {
  test('tools/list: explain_path and audit_workspace name their views; the server declares the extension', async () => {
    const tools = await session.listTools();
    const meta = (name: string) => (tools.find((tool) => tool.name === name) as { _meta?: Record<string, any> } | undefined)?._meta;
    assert.equal(meta('explain_path')?.ui?.resourceUri, TRACE_VIEW);
    assert.equal(meta('explain_path')?.['ui/resourceUri'], TRACE_VIEW, 'the earlier key too, for hosts that read it');
    assert.equal(meta('audit_workspace')?.ui?.resourceUri, AUDIT_VIEW);
    assert.equal(tools.filter((tool) => meta(tool.name)?.ui?.resourceUri !== undefined).length, 2, 'no other tool names a view');
    // The view's own call: for views only, never listed to the model by a host that speaks MCP Apps.
    assert.deepEqual(meta('compare_deciders')?.ui, { visibility: ['app'] });
    const extensions = session.serverCapabilities()?.['extensions'] as Record<string, any> | undefined;
    assert.deepEqual(extensions?.['io.modelcontextprotocol/ui']?.mimeTypes, ['text/html;profile=mcp-app']);
  });

  test('resources: both views read as text/html;profile=mcp-app, with no origin to reach; resources/list lists only files', async () => {
    const listed = await session.listResources();
    assert.ok(listed.length > 0 && listed.every((resource) => resource.uri.startsWith('file:')), 'the views are read by the URI their tool names');
    for (const uri of [TRACE_VIEW, AUDIT_VIEW]) {
      const [content, ...rest] = await session.readResource(uri);
      assert.equal(rest.length, 0);
      const item = content as { uri: string; mimeType?: string; text?: string; _meta?: Record<string, any> };
      assert.equal(item.uri, uri);
      assert.equal(item.mimeType, 'text/html;profile=mcp-app');
      assert.ok(item.text?.startsWith('<!doctype html>'));
      const csp = item._meta?.ui?.csp as Record<string, unknown[]>;
      for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains']) assert.deepEqual(csp[key], [], `${uri}: ${key}`);
      html = item.text!;
    }
  });

  test('attack inputs: the view shows the verdict, the deciding stage and every row that explain_path returns', async () => {
    await host.load(html);
    const frame = host.frame();
    const inputs = [
      { input: '../notes-evil/secret.md', verdict: 'outside' },
      { input: `${fileUri(workspace)}/%2e%2e/notes-evil/secret.md`, verdict: 'outside' },
      { input: 'evil-link/secret.md', verdict: 'outside' },
      { input: 'dangling', verdict: 'refused', tool: 'read_text_file' },
      { input: 'src/index.ts', verdict: 'inside' },
    ];
    for (const { input, verdict, tool } of inputs) {
      const { args, result, structured } = await explain(input, tool);
      assert.equal(structured.verdict, verdict, `${input}: the server's verdict`);
      await host.show(args, result);
      await waitForTrace(frame, input, verdict);
      assertShows(await shownTrace(frame), structured, input);
    }
    // The %2e%2e row: the parser's rewrite is marked in the stage that made it.
    const { args, result } = await explain(`${fileUri(workspace)}/%2e%2e/notes-evil/secret.md`);
    await host.show(args, result);
    await waitForTrace(frame, args.path, 'outside');
    const marked = await frame.evaluate(() => Array.from(document.querySelectorAll('.stages del, .stages ins')).map((node: any) => node.textContent));
    assert.ok(marked.some((text) => text?.includes('%2e%2e') || text?.includes('..')), `the rewrite is marked: ${JSON.stringify(marked)}`);
    await host.screenshot(screenshotPath('app-view-encoded.png'));
  });

  test('choosing a near miss asks the server, through the host, to trace it; the new trace replaces the old', async () => {
    const frame = host.frame();
    const { args, result, structured } = await explain('readme.md');
    assert.deepEqual(structured.nearMisses.map((miss: { why: string }) => miss.why), ['case']);
    await host.show(args, result);
    await frame.waitForFunction(() => document.querySelectorAll('.near-miss').length === 1, undefined, { timeout: patience(10_000) });
    assert.deepEqual((await shownTrace(frame)).nearMisses, ['README.md'], 'offered as the person typed it: relative');
    const before = host.calls.length;
    // By keyboard: the suggestion is a button that takes the focus and Enter.
    await frame.focus('.near-miss');
    await host.page.keyboard.press('Enter');
    await frame.waitForFunction(() => document.querySelector('.verdict')?.dataset['verdict'] === 'inside' && document.querySelectorAll('.near-miss').length === 0, undefined, { timeout: patience(10_000) });
    await frame.waitForFunction(() => document.querySelectorAll('.compare-table tbody tr').length > 0, undefined, { timeout: patience(10_000) });
    assert.deepEqual(host.calls.slice(before), [
      { name: 'explain_path', arguments: { workspaceUri: fileUri(workspace), path: 'README.md' } },
      { name: 'compare_deciders', arguments: { workspaceUri: fileUri(workspace), path: 'README.md' } },
    ]);
    const expected = (await explain('README.md')).structured;
    assertShows(await shownTrace(frame), expected, 'README.md, traced from the view');
    assert.equal(await frame.evaluate(() => document.activeElement?.classList.contains('verdict')), true, 'the keyboard is on the new verdict');
  });

  test('"Copy as test case": refused the clipboard by the sandbox, the view puts the row where it can be copied', async () => {
    const frame = host.frame();
    await frame.click('button.secondary');
    await frame.waitForFunction(() => document.querySelector('.copy-status')?.textContent !== '', undefined, { timeout: patience(5000) });
    const state = await frame.evaluate(() => ({ status: document.querySelector('.copy-status')?.textContent, text: document.querySelector('.copy-text')?.value, shown: !document.querySelector('.copy-text')?.hidden }));
    if (state.status === 'Copied') return;
    assert.equal(state.shown, true);
    const row = JSON.parse(state.text!) as Record<string, unknown>;
    assert.equal(row['input'], 'README.md');
    assert.equal(row['verdict'], 'inside');
    assert.equal(row['root'], fileUri(workspace));
  });

  test('every program side by side: decided where the server can see what the program reads, each row one click from its stages; the agents name the settings the server cannot see', async () => {
    const frame = host.frame();
    const { args, result } = await explain('../notes-evil/secret.md');
    await host.show(args, result);
    await waitForTrace(frame, '../notes-evil/secret.md', 'outside');
    await frame.waitForFunction(() => document.querySelector('.compare-table tr[data-decider="boundary-inspector"]')?.dataset['decision'] === 'deny', undefined, { timeout: patience(10_000) });
    const rows = await frame.evaluate(() =>
      Object.fromEntries(Array.from(document.querySelectorAll('.compare-table tbody tr')).map((row: any) => [row.dataset['decider'], { decision: row.dataset['decision'], rule: row.querySelector('.compare-rule')?.textContent ?? '', current: row.getAttribute('aria-current') === 'true' }])),
    );
    assert.deepEqual(rows['boundary-inspector'], { decision: 'deny', rule: rows['boundary-inspector'].rule, current: true });
    assert.equal(rows['server-filesystem']?.decision, 'deny', JSON.stringify(rows));
    assert.match(rows['server-filesystem']!.rule, /Access denied - path outside allowed directories/);
    for (const agent of ['claude-code', 'codex', 'gemini-cli']) assert.equal(rows[agent]?.decision, 'unseen', `${agent}: ${JSON.stringify(rows[agent])}`);
    assert.match(rows['claude-code']!.rule, /~\/\.claude\/settings\.json/);
    // The reference server's row: its own stages and its decision, in its own words.
    await frame.click('.compare-table tr[data-decider="server-filesystem"] button');
    await frame.waitForFunction(() => document.querySelector('.verdict')?.dataset['decision'] === 'deny', undefined, { timeout: patience(10_000) });
    const reference = await frame.evaluate(() => ({
      headline: document.querySelector('.verdict-headline')?.textContent ?? '',
      stages: Array.from(document.querySelectorAll('.stages tbody tr')).map((row: any) => row.dataset['stage']),
      deciding: document.querySelector('.stages tbody tr.deciding')?.dataset['stage'],
    }));
    assert.match(reference.headline, /^DENY — .*server-filesystem/);
    assert.ok(reference.stages.includes('validatePath') || reference.deciding !== undefined, JSON.stringify(reference));
    assert.ok(!reference.stages.includes('containment'), `its stages, not this server's: ${JSON.stringify(reference.stages)}`);
    // An agent's row says what cannot be seen, and decides nothing.
    await frame.click('.compare-table tr[data-decider="claude-code"] button');
    await frame.waitForFunction(() => document.querySelector('.verdict')?.dataset['decision'] === 'unseen', undefined, { timeout: patience(10_000) });
    assert.match(await frame.evaluate(() => document.querySelector('.verdict')?.textContent ?? ''), /not decided here.*~\/\.claude\/settings\.json/);
    await host.screenshot(screenshotPath('app-view-compare.png'));
    // This server's row brings its trace back.
    await frame.click('.compare-table tr[data-decider="boundary-inspector"] button');
    await waitForTrace(frame, '../notes-evil/secret.md', 'outside');
  });

  test('a dark host: the view takes its colours, and an outside verdict is drawn for the README', async () => {
    const frame = host.frame();
    const { args, result } = await explain('../notes-evil/secret.md');
    await host.show(args, result);
    await frame.waitForFunction(() => document.querySelector('.verdict')?.dataset['verdict'] === 'outside', undefined, { timeout: patience(10_000) });
    const colours = await frame.evaluate(() => ({ text: getComputedStyle(document.body).color, dark: document.body.classList.contains('vscode-dark') }));
    assert.equal(colours.text, 'rgb(230, 230, 230)', "the host's --color-text-primary");
    assert.equal(colours.dark, true);
    const file = screenshotPath('app-view.png');
    await host.screenshot(file);
    if (UPDATE_SCREENSHOT) {
      const target = path.join(REPO, 'media', 'app-view.png');
      copyFileSync(file, target);
      optimisePng(target, (line) => console.log(line));
    }
  });

  test('the audit view: findings grouped by kind, each one click from its trace', async () => {
    const args = { workspaceUri: fileUri(workspace) };
    const result = await session.call('audit_workspace', args);
    const audit = expectOk(result, 'audit');
    const kinds = [...new Set((audit.findings as Array<{ kind: string }>).map((finding) => finding.kind))];
    assert.ok(kinds.includes('link-escapes') && kinds.includes('link-dangling') && kinds.includes('case-twins'), `kinds found: ${kinds.join(', ')}`);
    await host.load(html);
    const frame = host.frame();
    await host.show(args, result);
    await frame.waitForFunction(() => document.querySelectorAll('.audit-kind').length > 0, undefined, { timeout: patience(10_000) });
    const groups = await frame.evaluate(() => Array.from(document.querySelectorAll('.audit-kind')).map((group: any) => ({ kind: group.dataset['kind'], findings: group.querySelectorAll('.finding').length })));
    assert.deepEqual(groups.map((group) => group.kind), kinds, 'one group per kind, in the audit\'s order');
    for (const group of groups) {
      assert.equal(group.findings, (audit.findings as Array<{ kind: string }>).filter((finding) => finding.kind === group.kind).length, `${group.kind}: every finding`);
    }
    const escaping = (audit.findings as Array<{ kind: string; path: string }>).find((finding) => finding.kind === 'link-escapes')!;
    await frame.click('.audit-kind[data-kind="link-escapes"] .finding');
    await frame.waitForFunction(() => document.querySelector('.verdict')?.dataset['verdict'] !== undefined, undefined, { timeout: patience(10_000) });
    const expected = (await explain(escaping.path, 'get_file_info')).structured;
    assertShows(await shownTrace(frame), expected, `the finding ${escaping.path}`);
    assert.equal(await frame.getAttribute('.audit-kind[data-kind="link-escapes"] .finding', 'aria-current'), 'true', 'the chosen finding is marked');
    await host.screenshot(screenshotPath('app-view-audit.png'));
  });

  test('a refused call is shown as the server worded it', async () => {
    const args = { workspaceUri: 'file:///not/granted', path: 'x' };
    const result = await session.call('explain_path', args);
    assert.equal(result.isError, true);
    await host.load(html);
    const frame = host.frame();
    await host.show(args, result);
    await frame.waitForFunction(() => document.querySelector('.view-status')?.textContent?.includes('ERR_NOT_GRANTED') ?? false, undefined, { timeout: patience(10_000) });
  });

  test('a link target holding ESC, LF and U+202E: drawn as marked escapes, never raw; copying takes the real text', async () => {
    await host.load(html);
    const frame = host.frame();
    const { args, result, structured } = await explain('forged');
    assert.equal(structured.code, 'ERR_SYMLINK_ESCAPE');
    await host.show(args, result);
    await waitForTrace(frame, 'forged', 'outside');
    const page = await frame.evaluate((source: string) => {
      const found = new RegExp(source, 'u').exec(document.body.innerText);
      return { raw: found?.[0] ?? null, escapes: Array.from(document.querySelectorAll('.shown-hidden')).map((span: any) => span.textContent) };
    }, HIDDEN_SOURCE);
    assert.equal(page.raw, null, 'nothing hidden is drawn as it is');
    for (const escape of ['\\u001b', '\\u000a', '\\u202e', '\\u200b']) assert.ok(page.escapes.includes(escape), `${escape} is a marked escape: ${JSON.stringify(page.escapes)}`);
    const note = await copied(frame, '.stages tr[data-stage="realpath"] td.note');
    assert.ok(note.includes('"/root/.ssh/id_rsa\\u001b[2K\\n> containment pass inside\\u202eexe.txt\\u200b"'), `the note quotes the target as the core wrote it: ${JSON.stringify(note)}`);
    assert.ok((await copied(frame, '.verdict-facts')).includes(FORGED_TARGET), 'copying the link fact takes the real target');
    await host.screenshot(screenshotPath('app-view-hidden.png'));
  });

  test('a 2,000-character name: ERR_NAME_TOO_LONG, each cell cuts the name to its ends, the whole on hover and in a copy', async () => {
    const name = 'n'.repeat(2000);
    const { args, result, structured } = await explain(name);
    assert.equal(structured.code, 'ERR_NAME_TOO_LONG');
    await host.load(html);
    const frame = host.frame();
    await host.show(args, result);
    await frame.waitForFunction(() => document.querySelector('.verdict')?.dataset['code'] === 'ERR_NAME_TOO_LONG', undefined, { timeout: 10_000 });
    const cell = await frame.evaluate(() => {
      const input = document.querySelector('.stages tr[data-stage="parse"] td.path');
      return { shown: input.textContent.length, title: input.title, longest: Math.max(...Array.from(document.querySelectorAll('.stages td, .verdict p, .verdict dd')).map((node: any) => node.textContent.length)) };
    });
    assert.ok(cell.shown < 150, `the parse row shows ${cell.shown} characters`);
    assert.ok(cell.longest < 600, `no cell or line of the verdict shows the whole name: ${cell.longest}`);
    assert.equal(cell.title, name, 'the whole on hover');
    assert.equal(await copied(frame, '.stages tr[data-stage="parse"] td.path'), name);
    await host.screenshot(screenshotPath('app-view-long-name.png'));
  });

  test('an NFC name asked for, its NFD twin there: the suggestion names the code points that differ', async () => {
    const { args, result, structured } = await explain('caf\u00e9/menu.md');
    assert.deepEqual(structured.nearMisses.map((miss: { why: string }) => miss.why), ['unicode']);
    await host.load(html);
    const frame = host.frame();
    await host.show(args, result);
    await frame.waitForFunction(() => document.querySelectorAll('.near-miss').length === 1, undefined, { timeout: 10_000 });
    const differs = await frame.evaluate(() => document.querySelector('.near-miss-differs')?.textContent);
    assert.equal(differs, '"e\u0301" (U+0065 U+0301) here, "\u00e9" (U+00E9) in the input');
  });

  test('the view loaded nothing from anywhere: every request the page made was its own document', () => {
    assert.deepEqual(host.requests, []);
  });
});
