/**
 * The inspector's UI, checked in the real webview inside the real workbench (headless Chromium).
 * A webview is two nested same-origin iframes; the panel's own elements live in the inner one,
 * found here as the frame holding #bi-input. Element ids are fixed in src/extension/panel.ts.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import type { DemoWorkspace } from '../../scripts/demo-workspace';
import { REPO, type Log } from '../../scripts/vscode-env';

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly duration: number;
  readonly error: string | null;
}

export interface UiOptions {
  readonly log: Log;
  readonly screenshotDir: string;
  /** Also copy the README's pictures to media/ (screenshot.png and one per feature; see README_IMAGES). */
  readonly updateReadmeScreenshot: boolean;
}

/**
 * The README's pictures, each taken by the check that has its feature on screen, into the
 * screenshot folder on every run and to media/ with `harness.ts --update-screenshot`.
 */
export const README_IMAGES = ['screenshot.png', 'stage-changes.png', 'as-seen-by.png', 'near-miss.png', 'audit.png'] as const;
type ReadmeImage = (typeof README_IMAGES)[number];

/** The window the feature pictures are taken in; the panel crops use a taller one so that a whole region fits. */
const SHOT_VIEWPORT = { width: 1280, height: 800 };
const TALL_VIEWPORT = { width: 1280, height: 1560 };

/**
 * Shrinks a PNG in place with pngquant (a palette of at most 256 colours: a UI picture looks the
 * same) and then optipng, each only when installed (Debian: apt-get install pngquant optipng).
 */
function optimisePng(file: string, log: Log): void {
  const before = statSync(file).size;
  const used: string[] = [];
  const quant = spawnSync('pngquant', ['--force', '--skip-if-larger', '--strip', '--speed=1', '--quality=80-100', '--output', file, '--', file], { encoding: 'utf8' });
  if (quant.error === undefined && quant.status === 0) used.push('pngquant');
  const opti = spawnSync('optipng', ['-quiet', '-o2', '-strip', 'all', file], { encoding: 'utf8' });
  if (opti.error === undefined && opti.status === 0) used.push('optipng');
  const after = statSync(file).size;
  log(`ui: ${path.relative(REPO, file)}: ${before} -> ${after} bytes${used.length > 0 ? ` (${used.join(', ')})` : ' (neither pngquant nor optipng is installed)'}`);
}

interface StageRow {
  readonly status: string | null;
  readonly input: string;
  readonly output: string;
  /** The texts marked as removed from the input (`del`) and added to the output (`ins`). */
  readonly removed: readonly string[];
  readonly added: readonly string[];
  readonly quiet: boolean;
}

/** What the panel shows now, read in one go (for waiting, and for failure messages). */
interface PanelSnapshot {
  readonly input: string;
  readonly platform: string;
  readonly root: string;
  readonly verdictClass: string;
  readonly verdictText: string;
  readonly deciding: { readonly stage: string | null; readonly status: string | null } | null;
  readonly rows: Readonly<Record<string, StageRow>>;
  readonly refusals: readonly string[];
  readonly rootOptions: readonly { readonly value: string; readonly text: string }[];
  readonly layers: readonly string[];
  /** What the sandbox layer says of itself. */
  readonly sandboxDetail: string;
  /** The "As seen by" selector's tool. */
  readonly tool: string;
  /** "Did you mean…": each suggestion's URI and why. */
  readonly near: readonly { readonly uri: string; readonly why: string }[];
  readonly nearShown: boolean;
  /** The last audit's findings as the panel lists them, and each folder's audit time. */
  readonly findings: readonly { readonly kind: string; readonly path: string }[];
  readonly auditTimes: readonly string[];
  readonly auditRunning: boolean;
}

/**
 * Read in the page from a string: tsx compiles this file with esbuild's keepNames, whose `__name`
 * helper does not exist in the page, so a function passed to evaluate() would throw there.
 */
const SNAPSHOT = `(() => {
  const byId = (id) => document.getElementById(id);
  const rows = {};
  for (const row of document.querySelectorAll('#bi-stages tbody tr[data-stage]')) {
    const cells = Array.from(row.children);
    rows[row.dataset.stage] = {
      status: row.dataset.status ?? null,
      input: (cells[2]?.textContent ?? '').trim(),
      output: (cells[3]?.textContent ?? '').trim(),
      removed: Array.from(cells[2]?.querySelectorAll('del') ?? [], (mark) => mark.textContent ?? ''),
      added: Array.from(cells[3]?.querySelectorAll('ins') ?? [], (mark) => mark.textContent ?? ''),
      quiet: row.classList.contains('quiet'),
    };
  }
  const deciding = document.querySelector('#bi-stages tbody tr.deciding');
  return {
    input: byId('bi-input')?.value ?? '',
    platform: byId('bi-platform')?.value ?? '',
    root: byId('bi-root')?.value ?? '',
    verdictClass: byId('bi-verdict')?.className ?? '',
    verdictText: (byId('bi-verdict')?.textContent ?? '').replace(/\\s+/g, ' ').trim(),
    deciding: deciding ? { stage: deciding.dataset.stage ?? null, status: deciding.dataset.status ?? null } : null,
    rows,
    refusals: Array.from(document.querySelectorAll('#bi-refusals li')).map((li) => (li.textContent ?? '').replace(/\\s+/g, ' ').trim()),
    rootOptions: Array.from(document.querySelectorAll('#bi-root option')).map((option) => ({ value: option.value, text: option.textContent ?? '' })),
    layers: Array.from(document.querySelectorAll('#bi-layers li strong')).map((strong) => (strong.textContent ?? '').trim()),
    sandboxDetail: (Array.from(document.querySelectorAll('#bi-layers li span')).at(-1)?.textContent ?? '').trim(),
    tool: byId('bi-tool')?.value ?? '',
    near: Array.from(document.querySelectorAll('#bi-near-list button'), (button) => ({ uri: button.querySelector('.near-miss-uri')?.textContent ?? '', why: button.dataset.why ?? '' })),
    nearShown: byId('bi-near') ? !byId('bi-near').hidden : false,
    findings: Array.from(document.querySelectorAll('#bi-audits button.finding'), (button) => ({ kind: button.dataset.kind ?? '', path: button.querySelector('.finding-path')?.textContent ?? '' })),
    auditTimes: Array.from(document.querySelectorAll('#bi-audits time'), (time) => time.dateTime),
    auditRunning: byId('bi-audit-run')?.disabled ?? false,
  };
})()`;

/** The stage table's headers and the verdict banner's live-region attributes. */
const STRUCTURE = `(() => {
  const table = document.getElementById('bi-stages');
  const verdict = document.getElementById('bi-verdict');
  return {
    tag: table?.tagName ?? null,
    columns: Array.from(table?.querySelectorAll('thead th') ?? [], (th) => (th.getAttribute('scope') ?? '') + ':' + (th.textContent ?? '').trim()),
    rowHeaders: Array.from(table?.querySelectorAll('tbody tr') ?? [], (tr) => tr.firstElementChild?.tagName === 'TH' && tr.firstElementChild.getAttribute('scope') === 'row'),
    verdictRole: verdict?.getAttribute('role') ?? null,
    verdictLive: verdict?.getAttribute('aria-live') ?? null,
  };
})()`;

/** The background colours of the case row's first removed and added marks. */
const MARK_COLOURS = `Array.from(document.querySelectorAll('#bi-stages tr[data-stage="case"] :is(del, ins):first-of-type'), (mark) => getComputedStyle(mark).backgroundColor)`;

/** What selecting a cell's contents puts on the clipboard, and its user-select. */
function selectCell(selector: string): string {
  return `(() => {
    const cell = document.querySelector(${JSON.stringify(selector)});
    if (!cell) return null;
    const selection = getSelection();
    const range = document.createRange();
    range.selectNodeContents(cell);
    selection.removeAllRanges();
    selection.addRange(range);
    const text = selection.toString();
    selection.removeAllRanges();
    return { text, userSelect: getComputedStyle(cell).userSelect };
  })()`;
}

function sameList(what: string, actual: readonly string[] | undefined, expected: readonly string[]): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what} are ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`);
}

async function snapshot(frame: Frame): Promise<PanelSnapshot> {
  return (await frame.evaluate(SNAPSHOT)) as PanelSnapshot;
}

async function waitForPanel(frame: Frame, what: string, accept: (state: PanelSnapshot) => boolean, timeout = 15_000): Promise<PanelSnapshot> {
  const deadline = Date.now() + timeout;
  let last: PanelSnapshot | undefined;
  for (;;) {
    last = await snapshot(frame);
    if (accept(last)) return last;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const { rootOptions: _options, ...shown } = last;
  throw new Error(`${what}; the panel shows ${JSON.stringify(shown, null, 1)}`);
}

/** The inner webview frame: the one that holds #bi-input. */
async function findPanelFrame(page: Page, timeout = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        if (await frame.$('#bi-input')) return frame;
      } catch {
        // a frame that navigated or went away meanwhile
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`no frame holds #bi-input after ${timeout} ms; frames: ${page.frames().map((frame) => frame.url()).join(', ')}`);
    }
    await page.waitForTimeout(250);
  }
}

/** Picks `root` in #bi-root: a workspace folder's own entry, or the custom choice ("Other…") and its field. */
async function chooseRoot(frame: Frame, root: string): Promise<void> {
  const options = (await snapshot(frame)).rootOptions;
  const exact = options.find((option) => option.value === root);
  if (exact) {
    await frame.selectOption('#bi-root', exact.value);
    return;
  }
  const custom = options.find((option) => /custom|other/i.test(option.value) || /custom|other/i.test(option.text));
  if (!custom) throw new Error(`#bi-root offers neither ${root} nor a custom choice: ${JSON.stringify(options)}`);
  await frame.selectOption('#bi-root', custom.value);
  await frame.waitForSelector('#bi-root-custom', { state: 'visible', timeout: 5_000 });
  await frame.fill('#bi-root-custom', root);
}

async function traceInput(frame: Frame, input: string): Promise<void> {
  await frame.fill('#bi-input', input);
  await frame.press('#bi-input', 'Enter');
}

export async function runUiChecks(page: Page, demo: DemoWorkspace, options: UiOptions): Promise<CheckResult[]> {
  const { log } = options;
  const results: CheckResult[] = [];
  let frame: Frame | undefined;
  const check = async (name: string, body: (frame: Frame) => Promise<void>) => {
    const started = Date.now();
    try {
      // A reloaded webview is a new frame.
      if (frame === undefined || frame.isDetached()) frame = await findPanelFrame(page);
      await body(frame);
      results.push({ name, ok: true, duration: Date.now() - started, error: null });
      log(`ui: ok   ${name}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name, ok: false, duration: Date.now() - started, error: message });
      log(`ui: FAIL ${name}: ${message.split('\n')[0]}`);
    }
  };

  /** Keeps `file` (in the screenshot folder) as media/`name` when asked to, optimised. */
  const publish = (file: string, name: ReadmeImage) => {
    log(`ui: screenshot ${path.relative(REPO, file)}`);
    if (!options.updateReadmeScreenshot) return;
    const target = path.join(REPO, 'media', name);
    copyFileSync(file, target);
    optimisePng(target, log);
  };
  const shotFile = (name: ReadmeImage) => {
    mkdirSync(options.screenshotDir, { recursive: true });
    return path.join(options.screenshotDir, name);
  };
  /**
   * The panel at its full width, cropped from the top of the element `from` to the bottom of `to`
   * (selectors in the panel's frame), taken in a window tall enough for the region.
   */
  const panelShot = async (current: Frame, name: ReadmeImage, from: string, to: string) => {
    await current.evaluate('document.activeElement?.blur()');
    const viewport = page.viewportSize();
    await page.setViewportSize(TALL_VIEWPORT);
    try {
      await page.waitForTimeout(800);
      await current.evaluate(`document.querySelector(${JSON.stringify(from)})?.scrollIntoView({ block: 'start' })`);
      await page.waitForTimeout(200);
      const region = (await current.evaluate(`(() => {
        const first = document.querySelector(${JSON.stringify(from)})?.getBoundingClientRect();
        const last = document.querySelector(${JSON.stringify(to)})?.getBoundingClientRect();
        return first && last ? { top: first.top, bottom: last.bottom } : null;
      })()`)) as { top: number; bottom: number } | null;
      if (region === null) throw new Error(`the panel has no ${from} or ${to} to picture`);
      const outer = current.parentFrame() ?? current;
      const box = await (await outer.frameElement()).boundingBox();
      if (box === null) throw new Error('the webview has no layout box');
      const pad = 12;
      const top = Math.max(0, Math.floor(region.top - pad));
      const bottom = Math.min(box.height, Math.ceil(region.bottom + pad));
      if (bottom - top < 40) throw new Error(`the region ${from}…${to} is not on screen (${top}..${bottom} of ${box.height})`);
      const file = shotFile(name);
      await page.screenshot({ path: file, clip: { x: box.x, y: box.y + top, width: box.width, height: bottom - top } });
      publish(file, name);
    } finally {
      if (viewport) await page.setViewportSize(viewport);
      await page.waitForTimeout(300);
    }
  };
  const workspaceUri = pathToFileURL(demo.notes).href;
  const evilUri = pathToFileURL(demo.evilSecret).href;
  const verdictIs = (state: PanelSnapshot, verdict: 'inside' | 'outside' | 'refused') => state.verdictClass.split(/\s+/).includes(`verdict-${verdict}`);
  const decidingOutside = (input: string) => (state: PanelSnapshot) =>
    state.rows['parse']?.input === input &&
    state.deciding?.stage === 'containment' &&
    state.deciding.status === 'refuse' &&
    state.verdictClass.split(/\s+/).includes('verdict-outside');

  await check('the panel loads in its webview frame, with the workspace folder as root', async (frame) => {
    await waitForPanel(frame, 'the root picker never offered the workspace folder', (state) => state.root === workspaceUri, 20_000);
  });

  await check("the refusal list shows the suite's delete_path ERR_OUTSIDE refusal, and clicking it loads its trace", async (frame) => {
    // Each entry opens with the tool that was refused.
    const isOurs = (text: string) => text.startsWith('delete_path ') && text.includes('ERR_OUTSIDE') && text.includes(evilUri);
    const state = await waitForPanel(frame, 'no ERR_OUTSIDE delete_path refusal in #bi-refusals', (state) => state.refusals.some(isOurs), 20_000);
    const index = state.refusals.findIndex(isOurs);
    await frame.click(`#bi-refusals li:nth-child(${index + 1}) button`);
    await waitForPanel(frame, 'clicking the refusal did not load its trace', decidingOutside(evilUri));
  });

  await check('the panel names the protection layers active on this host, anchored I/O among them on Linux', async (frame) => {
    const state = await waitForPanel(frame, 'no protection layers listed in #bi-layers', (state) => state.layers.length === 4);
    const names = state.layers.map((text) => text.split(':')[0]);
    if (names.join(',') !== 'authorization,containment,anchored I/O,sandbox') throw new Error(`the layers listed are ${JSON.stringify(state.layers)}`);
    const anchored = state.layers[2]!;
    const expected = process.platform === 'linux' ? 'anchored I/O: active' : 'anchored I/O: not active';
    if (anchored !== expected) throw new Error(`the anchored I/O layer reads ${JSON.stringify(anchored)}, not ${JSON.stringify(expected)}`);
  });

  await check('the sandbox layer comes to say what the server found when it checked its sandbox from inside', async (frame) => {
    const checked = await waitForPanel(frame, 'the sandbox layer still reads "not checked yet"', (state) => state.sandboxDetail !== '' && !state.sandboxDetail.endsWith('(not checked yet)'));
    if (process.platform === 'linux' && !/checked from inside at start-up|^sandbox incomplete: |could not start|not installed/.test(checked.sandboxDetail)) {
      throw new Error(`the sandbox layer reads ${JSON.stringify(checked.sandboxDetail)}`);
    }
  });

  await check('a sibling-prefix URI (notes-evil/secret.md) is outside, decided at containment', async (frame) => {
    await frame.selectOption('#bi-platform', 'linux');
    await chooseRoot(frame, workspaceUri);
    await traceInput(frame, 'hello.txt');
    await waitForPanel(frame, 'hello.txt is not inside', (state) => state.rows['parse']?.input === 'hello.txt' && state.verdictClass.split(/\s+/).includes('verdict-inside'));
    await traceInput(frame, evilUri);
    await waitForPanel(frame, 'the sibling-prefix URI was not refused at containment', decidingOutside(evilUri));
  });

  await check('an encoded dot-dot (%2e%2e) is outside, decided at containment', async (frame) => {
    const input = `${workspaceUri}/%2e%2e/outside/secret.txt`;
    // Opening the logged delete_path refusal chose its tool: read again, as most tools do.
    await frame.selectOption('#bi-tool', 'read_text_file');
    await traceInput(frame, input);
    await waitForPanel(frame, '%2e%2e was not refused at containment', decidingOutside(input));
  });

  await check('the stage table has column and row headers, and the verdict banner is a live region', async (frame) => {
    const found = (await frame.evaluate(STRUCTURE)) as { tag: string | null; columns: string[]; rowHeaders: boolean[]; verdictRole: string | null; verdictLive: string | null };
    if (found.tag !== 'TABLE') throw new Error(`#bi-stages is a ${found.tag}, not a table`);
    sameList('the column headers', found.columns, ['Stage', 'Status', 'Input', 'Output', 'Rule', 'Note'].map((name) => `col:${name}`));
    if (found.rowHeaders.length !== 7 || !found.rowHeaders.every(Boolean)) throw new Error(`not every row starts with a <th scope="row">: ${JSON.stringify(found.rowHeaders)}`);
    if (found.verdictRole !== 'status' && found.verdictLive !== 'polite') throw new Error(`#bi-verdict has role ${found.verdictRole} and aria-live ${found.verdictLive}`);
    const spoken = await frame.locator('#bi-verdict').ariaSnapshot();
    if (!/^- status\b/.test(spoken) || !spoken.includes('OUTSIDE — ERR_OUTSIDE at containment')) throw new Error(`the verdict's accessibility tree is ${spoken}`);
  });

  await check('encoded dot-dot: the parse row marks the names the parser swallowed; rows that changed nothing are quiet', async (frame) => {
    const input = `${workspaceUri}/%2e%2e/outside/secret.txt`;
    const state = await waitForPanel(frame, '%2e%2e was not refused at containment', decidingOutside(input));
    const parse = state.rows['parse'];
    sameList("the marks removed from the parse row's input", parse?.removed, [`${path.basename(demo.notes)}/%2e%2e/`]);
    sameList("the marks added to the parse row's output", parse?.added, []);
    const quiet = Object.entries(state.rows).filter(([, row]) => row.quiet).map(([stage]) => stage);
    // parse changed the input and containment decided: every other row left its input as it was.
    sameList('the quiet rows', quiet, ['refusals', 'decode', 'normalise', 'case', 'realpath']);
    const cell = '#bi-stages tbody tr[data-stage="parse"] td:nth-child(3)';
    const spoken = await frame.locator(cell).ariaSnapshot();
    if (!/deletion: .*removed: notes\/%2e%2e\//.test(spoken)) throw new Error(`the parse row's input cell reads ${spoken}`);
    // The spoken labels are generated text: a selection copies the input exactly.
    const selected = (await frame.evaluate(selectCell(cell))) as { text: string; userSelect: string } | null;
    if (selected?.text !== input) throw new Error(`selecting the parse row's input gives ${JSON.stringify(selected?.text)}, not ${JSON.stringify(input)}`);
    if (selected.userSelect === 'none') throw new Error("the stage table's text cannot be selected");
    // The README's picture of the stage table: the parse row's marks, the quiet rows, containment deciding.
    await panelShot(frame, 'stage-changes.png', '#bi-verdict', '#bi-stages');
  });

  await check('case folding: the case row marks each lower-case run it upper-cased, and nothing already upper case', async (frame) => {
    const input = `${workspaceUri}/README.md`;
    await frame.selectOption('#bi-case', 'insensitive');
    try {
      await traceInput(frame, input);
      const state = await waitForPanel(frame, 'README.md was not traced inside with the case folded', (state) =>
        state.rows['parse']?.input === input && state.verdictClass.split(/\s+/).includes('verdict-inside') && state.rows['case']?.output === state.rows['case']?.input.toUpperCase());
      const folded = state.rows['case']!;
      const lower = folded.input.match(/[a-z]+/g) ?? [];
      sameList("the marks removed from the case row's input", folded.removed, lower);
      sameList("the marks added to the case row's output", folded.added, lower.map((run) => run.toUpperCase()));
      if (folded.quiet) throw new Error('the case row, which folded the path, is drawn quietly');
      // The theme's diff colours reach the webview: a mark is not drawn on a transparent background.
      const colours = (await frame.evaluate(MARK_COLOURS)) as string[];
      if (colours.length === 0 || colours.some((colour) => colour === 'rgba(0, 0, 0, 0)' || colour === 'transparent')) throw new Error(`the marks' backgrounds are ${JSON.stringify(colours)}`);
    } finally {
      await frame.selectOption('#bi-case', 'auto');
    }
  });

  await check("a link inside the workspace: the realpath row marks the link's name and its target's", async (frame) => {
    await traceInput(frame, 'inside-link/index.ts');
    const state = await waitForPanel(frame, 'inside-link/index.ts was not resolved through its link', (state) =>
      state.rows['parse']?.input === 'inside-link/index.ts' && state.rows['realpath']?.status === 'note' && state.verdictClass.split(/\s+/).includes('verdict-inside'));
    const hop = state.rows['realpath']!;
    sameList("the marks removed from the realpath row's input", hop.removed, ['inside-link']);
    sameList("the marks added to the realpath row's output", hop.added, ['src']);
    if (hop.quiet) throw new Error('the realpath row, which followed a link, is drawn quietly');
  });

  await check('"As seen by" get_file_info: a link at the last name pointing outside is the link itself (inside); read_text_file sees where it leads (outside)', async (frame) => {
    await frame.selectOption('#bi-platform', 'linux');
    await chooseRoot(frame, workspaceUri);
    try {
      await frame.selectOption('#bi-tool', 'get_file_info');
      await traceInput(frame, 'escape');
      const info = await waitForPanel(frame, 'escape as seen by get_file_info is not inside', (state) =>
        state.tool === 'get_file_info' && state.rows['parse']?.input === 'escape' && verdictIs(state, 'inside'));
      if (!info.verdictText.includes('As seen by get_file_info: describes the entry itself')) throw new Error(`the verdict does not name the operation: ${info.verdictText}`);
      if (!info.verdictText.includes('symlink')) throw new Error(`the verdict does not say a link is there: ${info.verdictText}`);
      // The README's picture of "As seen by": the form with get_file_info chosen, and its verdict.
      await panelShot(frame, 'as-seen-by.png', '#bi-form', '#bi-verdict');
      await frame.selectOption('#bi-tool', 'read_text_file');
      const read = await waitForPanel(frame, 'escape as seen by read_text_file is not an escape', (state) =>
        state.tool === 'read_text_file' && state.rows['parse']?.input === 'escape' && verdictIs(state, 'outside') && state.verdictText.includes('ERR_SYMLINK_ESCAPE'));
      if (!read.verdictText.includes('As seen by read_text_file: reads what the path names')) throw new Error(`the verdict does not name the operation: ${read.verdictText}`);
    } finally {
      await frame.selectOption('#bi-tool', 'read_text_file');
    }
  });

  await check('the "As seen by" choice is kept when the webview reloads', async (current) => {
    await current.selectOption('#bi-tool', 'get_file_info');
    await waitForPanel(current, 'escape was not traced as seen by get_file_info', (state) => state.tool === 'get_file_info' && verdictIs(state, 'inside'));
    // Developer: Reload Webviews, from the command palette: the panel's script starts again from its saved state.
    // Twice at most: on a busy machine the palette may take the keys before its list is ready.
    for (let attempt = 0; attempt < 2 && !current.isDetached(); attempt += 1) {
      await page.locator('.tabs-container .tab.active').first().click();
      await page.keyboard.press('F1');
      const palette = page.locator('.quick-input-widget input');
      await palette.waitFor({ state: 'visible', timeout: 10_000 });
      await palette.fill('>Developer: Reload Webviews');
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Reload Webviews' }).first().waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.press('Enter');
      const deadline = Date.now() + 15_000;
      while (!current.isDetached() && Date.now() < deadline) await page.waitForTimeout(150);
    }
    if (!current.isDetached()) throw new Error('the webview did not reload');
    frame = await findPanelFrame(page);
    try {
      await waitForPanel(frame, 'the reloaded panel lost the tool or the input', (state) =>
        state.tool === 'get_file_info' && state.input === 'escape' && state.rows['parse']?.input === 'escape' && verdictIs(state, 'inside'));
    } finally {
      await frame.selectOption('#bi-tool', 'read_text_file');
    }
  });

  await check('"Did you mean": readme.md (README.md exists) offers README.md; choosing it by keyboard traces it, inside', async (frame) => {
    const readmeUri = pathToFileURL(demo.readme).href;
    await traceInput(frame, 'readme.md');
    const state = await waitForPanel(frame, 'no "Did you mean" README.md for readme.md', (state) =>
      state.tool === 'read_text_file' && state.rows['parse']?.input === 'readme.md' && state.nearShown && state.near.some((miss) => miss.uri === readmeUri && miss.why === 'case'));
    // The README's picture of "Did you mean…": the verdict on readme.md and the suggestion under it.
    await panelShot(frame, 'near-miss.png', '#bi-verdict', '#bi-near');
    const button = frame.locator('#bi-near-list button').nth(state.near.findIndex((miss) => miss.uri === readmeUri));
    await button.focus();
    await button.press('Enter');
    await waitForPanel(frame, 'choosing README.md did not trace it inside', (state) =>
      state.input === readmeUri && state.rows['parse']?.input === readmeUri && verdictIs(state, 'inside') && !state.nearShown);
  });

  await check("the last audit is listed in the panel (the suite's run), and clicking a finding traces its entry", async (frame) => {
    const state = await waitForPanel(frame, 'the audit list lacks the escaping link', (state) =>
      state.findings.some((finding) => finding.kind === 'link-escapes' && finding.path === demo.escapeLink));
    const expected = [
      ['link-dangling', demo.danglingLink],
      ['case-twins', demo.caseTwins[0]],
      ['case-twins', demo.caseTwins[1]],
      ['unicode-twins', demo.cafeNfc],
    ] as const;
    for (const [kind, entry] of expected) {
      if (!state.findings.some((finding) => finding.kind === kind && finding.path === entry)) throw new Error(`no ${kind} finding on ${entry}: ${JSON.stringify(state.findings)}`);
    }
    // The README's picture of the audit: the whole window, the panel's list above the Problems panel with the same findings.
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: SHOT_VIEWPORT.width, height: SHOT_VIEWPORT.height + 40 });
    try {
      // The status bar's problems item opens the Problems panel (by the mouse: no palette, no keybinding).
      await page.locator('[id="status.problems"]').first().click();
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'Boundary Inspector' }).first().waitFor({ state: 'visible', timeout: 10_000 });
      // A bottom panel tall enough for every finding (two rows each): its sash dragged up; then the
      // focus back in the editor, so that no row is drawn focused.
      const sash = (await page.evaluate(`(() => {
        const panel = document.querySelector('.part.panel')?.getBoundingClientRect();
        if (!panel) return null;
        const near = Array.from(document.querySelectorAll('.monaco-sash.horizontal'), (sash) => sash.getBoundingClientRect())
          .filter((box) => box.width > 100 && Math.abs(box.top + box.height / 2 - panel.top) < 6);
        return near[0] ? { x: near[0].left + near[0].width / 2, y: near[0].top + near[0].height / 2 } : null;
      })()`)) as { x: number; y: number } | null;
      if (sash !== null) {
        await page.mouse.move(sash.x, sash.y);
        await page.mouse.down();
        await page.mouse.move(sash.x, sash.y - 40, { steps: 8 });
        await page.mouse.up();
      } else log('ui: no sash found above the Problems panel');
      await page.locator('.tabs-container .tab.active').first().click();
      // No toast over the picture.
      for (const close of await page.locator('.notification-toast .codicon-notifications-clear').all()) await close.click().catch(() => undefined);
      await frame.evaluate("document.querySelector('section.audit')?.scrollIntoView({ block: 'start' })");
      await page.waitForTimeout(500);
      const file = shotFile('audit.png');
      await page.screenshot({ path: file });
      publish(file, 'audit.png');
    } finally {
      // Closed again for the checks after this one (a failure here must not hide the check's own).
      await page.locator('.part.panel .codicon-panel-close').first().click({ timeout: 5_000 }).catch((error: unknown) => log(`ui: could not hide the Problems panel: ${String(error).split('\n')[0]}`));
      if (viewport) await page.setViewportSize(viewport);
      await page.waitForTimeout(300);
    }
    await frame.locator('#bi-audits button.finding').nth(state.findings.findIndex((finding) => finding.kind === 'link-escapes' && finding.path === demo.escapeLink)).click();
    await waitForPanel(frame, 'clicking the finding did not trace the link', (state) =>
      state.input === demo.escapeLink && state.root === workspaceUri && state.rows['parse']?.input === demo.escapeLink && verdictIs(state, 'outside') && state.verdictText.includes('ERR_SYMLINK_ESCAPE'));
  });

  await check("the panel's audit button runs the audit again and the list follows", async (frame) => {
    const before = (await snapshot(frame)).auditTimes;
    await frame.click('#bi-audit-run');
    await waitForPanel(frame, 'the audit did not run again', (state) =>
      !state.auditRunning && state.auditTimes.length === before.length && state.auditTimes.some((time, i) => time !== before[i]) && state.findings.some((finding) => finding.kind === 'link-escapes'), 60_000);
  });

  await check('win32 simulation: file:///c%3A/Users/dev/app/src/a.ts is inside file:///c%3A/Users/dev/app', async (frame) => {
    const input = 'file:///c%3A/Users/dev/app/src/a.ts';
    await frame.selectOption('#bi-platform', 'win32');
    await chooseRoot(frame, 'file:///c%3A/Users/dev/app');
    await traceInput(frame, input);
    const state = await waitForPanel(
      frame,
      'the win32 trace is not inside',
      (state) => state.platform === 'win32' && state.rows['parse']?.input === input && state.verdictClass.split(/\s+/).includes('verdict-inside'),
    );
    const normalised = state.rows['normalise']?.output;
    if (normalised !== 'C:\\Users\\dev\\app\\src\\a.ts') throw new Error(`the normalise row's output is ${JSON.stringify(normalised)}, not "C:\\Users\\dev\\app\\src\\a.ts"`);
  });

  await check('screenshot of the panel', async (frame) => {
    // The README's picture: the sibling-prefix trap, refused at containment, above the refusal list.
    await frame.selectOption('#bi-platform', 'linux');
    await chooseRoot(frame, workspaceUri);
    await traceInput(frame, evilUri);
    await waitForPanel(frame, 'the sibling-prefix URI was not refused', decidingOutside(evilUri));
    await frame.evaluate('document.activeElement?.blur()');
    await frame.evaluate('window.scrollTo(0, 0)');
    mkdirSync(options.screenshotDir, { recursive: true });
    const workbench = path.join(options.screenshotDir, 'workbench.png');
    await page.waitForTimeout(300);
    await page.screenshot({ path: workbench });
    log(`ui: screenshot ${path.relative(REPO, workbench)}`);
    // The panel alone, at the panel's full width in a window tall enough for it: the form, the
    // verdict, the whole stage table and the refusal list.
    await panelShot(frame, 'screenshot.png', '#bi-form', 'section.refusals');
  });

  return results;
}

// ---------------------------------------------------------------------------------------------
// The walkthrough (contributes.walkthroughs), opened by the suite with workbench.action.openWalkthrough.
// Its page is the workbench's own (not a webview): steps are `button.getting-started-step` with
// `data-step-id` `<extension>#<walkthrough>#<step>`, titles `h3.step-title`, a step's done box
// `[data-done-step-id]` with aria-checked, a button link `.button-container .monaco-button`. Each
// step's markdown page is shown beside it in a webview.

export interface WalkthroughReady {
  /** `<publisher>.<name>#<walkthrough id>`. */
  readonly walkthrough: string;
  /** The page's tab, as the editor labels it. */
  readonly tabLabel: string;
}

interface ManifestStep {
  readonly id: string;
  readonly title: string;
  readonly media: { readonly markdown?: string };
}

/** The walkthrough as the manifest declares it, with its English strings from package.nls.json. */
function declaredWalkthrough(id: string): { title: string; steps: ManifestStep[] } {
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  const nls = JSON.parse(readFileSync(path.join(REPO, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const english = (text: string) => nls[/^%(.+)%$/.exec(text)?.[1] ?? ''] ?? text;
  const walkthrough = (manifest.contributes.walkthroughs as { id: string; title: string; steps: ManifestStep[] }[]).find((candidate) => candidate.id === id);
  if (walkthrough === undefined) throw new Error(`no walkthrough ${id} in package.json`);
  return { title: english(walkthrough.title), steps: walkthrough.steps.map((step) => ({ ...step, title: english(step.title) })) };
}

/** The frame whose page has this first heading: a step's markdown, rendered beside it. */
async function findFrameWithHeading(page: Page, heading: string, timeout = 20_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        const text = await frame.evaluate("document.querySelector('h1')?.textContent ?? null");
        if (typeof text === 'string' && text.trim() === heading) return frame;
      } catch {
        // a frame that navigated or went away meanwhile
      }
    }
    if (Date.now() > deadline) throw new Error(`no frame shows the heading ${JSON.stringify(heading)}`);
    await page.waitForTimeout(250);
  }
}

export async function runWalkthroughChecks(page: Page, ready: WalkthroughReady, options: Pick<UiOptions, 'log' | 'screenshotDir'>): Promise<CheckResult[]> {
  const { log } = options;
  const results: CheckResult[] = [];
  const check = async (name: string, body: () => Promise<void>) => {
    const started = Date.now();
    try {
      await body();
      results.push({ name, ok: true, duration: Date.now() - started, error: null });
      log(`ui: ok   walkthrough: ${name}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name, ok: false, duration: Date.now() - started, error: message });
      log(`ui: FAIL walkthrough: ${name}: ${message.split('\n')[0]}`);
    }
  };
  const declared = declaredWalkthrough(ready.walkthrough.slice(ready.walkthrough.indexOf('#') + 1));
  const stepSelector = (step: string) => `button.getting-started-step[data-step-id="${ready.walkthrough}#${step}"]`;
  const doneBox = (step: string) => page.locator(`[data-done-step-id="${ready.walkthrough}#${step}"]`);

  await check('the page opens with the walkthrough title and every step title visible', async () => {
    const title = page.locator(`h2.category-title[x-category-title-for="${ready.walkthrough}"]`);
    await title.waitFor({ state: 'visible', timeout: 20_000 });
    if ((await title.textContent())?.trim() !== declared.title) throw new Error(`the page's title is ${JSON.stringify(await title.textContent())}, not ${JSON.stringify(declared.title)}`);
    for (const step of declared.steps) {
      const heading = page.locator(`${stepSelector(step.id)} h3.step-title`);
      await heading.waitFor({ state: 'visible', timeout: 5_000 });
      const shown = (await heading.textContent())?.trim();
      if (shown !== step.title) throw new Error(`step ${step.id} is titled ${JSON.stringify(shown)}, not ${JSON.stringify(step.title)}`);
    }
  });

  await check("a step's markdown page is shown beside it", async () => {
    const step = declared.steps[0]!;
    if (step.media.markdown === undefined) throw new Error(`step ${step.id} has no markdown page`);
    await page.locator(stepSelector(step.id)).click();
    const heading = /^# (.+)$/m.exec(readFileSync(path.join(REPO, step.media.markdown), 'utf8'))?.[1];
    if (heading === undefined) throw new Error(`${step.media.markdown} has no heading`);
    await findFrameWithHeading(page, heading);
    mkdirSync(options.screenshotDir, { recursive: true });
    await page.screenshot({ path: path.join(options.screenshotDir, 'walkthrough.png') });
  });

  await check('"Trace a refused path": its button traces src/../../secret.txt in the inspector, outside at containment, and the step is done', async () => {
    const input = 'src/../../secret.txt';
    await page.locator(stepSelector('traceRefusedPath')).click();
    // Start from not done, so that it is the button that marks it.
    if ((await doneBox('traceRefusedPath').getAttribute('aria-checked')) === 'true') await doneBox('traceRefusedPath').click();
    await page.waitForFunction(`document.querySelector('[data-done-step-id="${ready.walkthrough}#traceRefusedPath"]')?.getAttribute('aria-checked') === 'false'`, undefined, { timeout: 5_000 });
    const button = page.locator(`${stepSelector('traceRefusedPath')} .button-container .monaco-button`);
    await button.waitFor({ state: 'visible', timeout: 5_000 });
    await button.click();
    const frame = await findPanelFrame(page, 20_000);
    await waitForPanel(frame, `the inspector did not trace ${input} as outside at containment`, (state) =>
      state.rows['parse']?.input === input && state.deciding?.stage === 'containment' && state.deciding.status === 'refuse' && state.verdictClass.split(/\s+/).includes('verdict-outside'), 20_000);
    // The inspector took the walkthrough's place in the editor: show the page again to read the step.
    await page.locator('.tabs-container .tab', { hasText: ready.tabLabel }).first().click();
    await page.waitForFunction(`document.querySelector('[data-done-step-id="${ready.walkthrough}#traceRefusedPath"]')?.getAttribute('aria-checked') === 'true'`, undefined, { timeout: 10_000 });
  });

  return results;
}
