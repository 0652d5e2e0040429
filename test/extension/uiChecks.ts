/**
 * The inspector's UI, checked in the real webview inside the real workbench (headless Chromium).
 * A webview is two nested same-origin iframes; the panel's own elements live in the inner one,
 * found here as the frame holding #bi-input. Element ids are fixed in src/extension/panel.ts.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import type { DemoWorkspace } from '../../scripts/demo-workspace';
import { REPO, type Log } from '../../scripts/vscode-env';
import { STAGES } from '../../src/core/types';
import { patience } from '../patience';
import { runLookChecks } from './uiLookChecks';
import { exactly, runFromPalette, traceInput } from './workbench';

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
  /** Only the checks whose names match (BI_UI_GREP): for working on a few; a check may need the state an earlier one left. */
  readonly only?: RegExp;
  /** The extension host's home folder (its HOME): the deciders look for the agents' user settings there. */
  readonly home: string;
}

/**
 * The README's pictures, each taken by the check that has its feature on screen, into the
 * screenshot folder on every run and to media/ with `harness.ts --update-screenshot`.
 */
export const README_IMAGES = ['screenshot.png', 'stage-changes.png', 'as-seen-by.png', 'near-miss.png', 'audit.png', 'sidebar.png', 'deciders.png'] as const;
type ReadmeImage = (typeof README_IMAGES)[number];

/** The window the feature pictures are taken in; the panel crops use a taller one so that a whole region fits. */
const SHOT_VIEWPORT = { width: 1280, height: 800 };
const TALL_VIEWPORT = { width: 1280, height: 1560 };

/**
 * Shrinks a PNG in place with pngquant (a palette of at most 256 colours: a UI picture looks the
 * same) and then optipng, each only when installed (Debian: apt-get install pngquant optipng).
 */
export function optimisePng(file: string, log: Log): void {
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
  readonly grants: readonly string[];
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
    grants: Array.from(document.querySelectorAll('#bi-grants li strong')).map((strong) => (strong.textContent ?? '').trim()),
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

/** The background colours of the decode row's first removed and added marks. */
const MARK_COLOURS = `Array.from(document.querySelectorAll('#bi-stages tr[data-stage="decode"] :is(del, ins):first-of-type'), (mark) => getComputedStyle(mark).backgroundColor)`;

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
  const deadline = Date.now() + patience(timeout);
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
  const deadline = Date.now() + patience(timeout);
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

/**
 * The panel's frame for the next check. If an earlier check lost the panel (the window reloaded,
 * or the panel closed), it is opened again, so one failure does not fail every check after it.
 */
async function panelOrReopened(page: Page): Promise<Frame> {
  try {
    return await findPanelFrame(page, 20_000);
  } catch {
    await runFromPalette(page, 'Boundary Inspector: Open Inspector');
    return findPanelFrame(page, 20_000);
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
  await frame.waitForSelector('#bi-root-custom', { state: 'visible', timeout: patience(5_000) });
  await frame.fill('#bi-root-custom', root);
}

/** Waits until `frame` is gone: a webview hidden without its context kept is torn down. */
async function waitDetached(page: Page, frame: Frame, what: string): Promise<void> {
  const deadline = Date.now() + patience(15_000);
  while (!frame.isDetached()) {
    if (Date.now() > deadline) throw new Error(`${what}: the panel's page is still loaded`);
    await page.waitForTimeout(150);
  }
}

/** "Every program, side by side": each program's row, by its decider's name. */
const COMPARISON = `(() => Object.fromEntries(Array.from(document.querySelectorAll('#bi-compare-table tbody tr'), (row) => [row.dataset.decider, {
  decision: row.dataset.decision ?? '',
  tool: (row.querySelector('.compare-tool')?.textContent ?? '').trim(),
  rule: (row.querySelector('.compare-rule')?.textContent ?? '').trim(),
  source: (row.querySelector('.compare-source')?.textContent ?? '').trim(),
  current: row.getAttribute('aria-current') === 'true',
}])))()`;

interface ComparedRowShown {
  readonly decision: string;
  readonly tool: string;
  readonly rule: string;
  readonly source: string;
  readonly current: boolean;
}

/** Another program's decision on the page: "Decided by", "As seen by", the banner and the stage that decided. */
const DECIDED = `(() => ({
  decider: document.getElementById('bi-decider')?.value ?? '',
  tool: document.getElementById('bi-tool')?.value ?? '',
  decision: document.getElementById('bi-verdict')?.dataset.decision ?? '',
  headline: (document.querySelector('#bi-verdict .verdict-headline')?.textContent ?? '').trim(),
  source: (document.querySelector('#bi-verdict .verdict-reason .source')?.textContent ?? '').trim(),
  deciding: document.querySelector('#bi-stages tbody tr.deciding')?.dataset.stage ?? '',
  fixes: Array.from(document.querySelectorAll('#bi-decided .fix-open'), (button) => (button.textContent ?? '').trim()),
}))()`;

interface DecidedShown {
  readonly decider: string;
  readonly tool: string;
  readonly decision: string;
  readonly headline: string;
  readonly source: string;
  readonly deciding: string;
  readonly fixes: readonly string[];
}

async function waitFor<T>(frame: Frame, script: string, what: string, accept: (seen: T) => boolean): Promise<T> {
  const deadline = Date.now() + patience(15_000);
  for (;;) {
    const seen = (await frame.evaluate(script)) as T;
    if (accept(seen)) return seen;
    if (Date.now() > deadline) throw new Error(`${what}; the panel shows ${JSON.stringify(seen, null, 1)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** The editor the person is in: its tab's label, where its file is, and the selection the status bar reports ("Ln 7, Col 31 (24 selected)"). */
async function activeEditor(page: Page): Promise<{ label: string; title: string; selection: string }> {
  return page.evaluate(`(() => {
    const tab = document.querySelector('.editor-group-container.active .tab.active');
    return {
      label: (tab?.querySelector('.tab-label')?.textContent ?? '').trim(),
      // Where the file is: the tab's own words and the breadcrumbs above the editor (its folders).
      title: [tab?.getAttribute('aria-label'), tab?.getAttribute('title'), document.querySelector('.editor-group-container.active .breadcrumbs-control')?.textContent].join(' '),
      selection: (document.querySelector('[id="status.editor.selection"]')?.textContent ?? '').trim(),
    };
  })()`) as Promise<{ label: string; title: string; selection: string }>;
}

/** Where the keyboard is in the panel, and whether the element is in the panel's view. */
const FOCUS = `(() => {
  const active = document.activeElement;
  const box = active?.getBoundingClientRect();
  return {
    id: active?.id ?? '',
    className: active?.className ?? '',
    inRefusals: !!active?.closest('#bi-refusals'),
    // A scroll to the element may leave its top a fraction of a pixel above the view.
    inView: !!box && box.top >= -2 && box.top < innerHeight,
    top: box ? Math.round(box.top) : null,
    verdictTop: document.getElementById('bi-verdict')?.getBoundingClientRect().top ?? null,
    current: Array.from(document.querySelectorAll('[aria-current="true"].refusal, [aria-current="true"].finding'), (element) => element.className),
  };
})()`;

interface PanelFocus {
  readonly id: string;
  readonly className: string;
  readonly inRefusals: boolean;
  readonly inView: boolean;
  readonly top: number | null;
  readonly verdictTop: number | null;
  readonly current: readonly string[];
}

async function waitForFocus(frame: Frame, what: string, accept: (focus: PanelFocus) => boolean): Promise<PanelFocus> {
  const deadline = Date.now() + patience(10_000);
  let last: PanelFocus;
  for (;;) {
    last = (await frame.evaluate(FOCUS)) as PanelFocus;
    if (accept(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what}; the keyboard is on ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export async function runUiChecks(page: Page, demo: DemoWorkspace, options: UiOptions): Promise<CheckResult[]> {
  const { log } = options;
  const results: CheckResult[] = [];
  let frame: Frame | undefined;
  const check = async (name: string, body: (frame: Frame) => Promise<void>) => {
    if (options.only !== undefined && !options.only.test(name)) return;
    const started = Date.now();
    try {
      // A reloaded webview is a new frame.
      if (frame === undefined || frame.isDetached()) frame = await panelOrReopened(page);
      await body(frame);
      results.push({ name, ok: true, duration: Date.now() - started, error: null });
      log(`ui: ok   ${name}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name, ok: false, duration: Date.now() - started, error: message });
      // What the window showed when the check gave up, for whoever reads the failure.
      mkdirSync(options.screenshotDir, { recursive: true });
      const picture = path.join(options.screenshotDir, `failed-${results.length}.png`);
      await page.screenshot({ path: picture }).catch(() => undefined);
      log(`ui: FAIL ${name}: ${message.split('\n')[0]} (the window: ${path.relative(REPO, picture)})`);
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
  const shotFile = (name: string) => {
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
    // The page goes up to the trace it loaded, the keyboard with it, and the entry stays marked.
    await waitForFocus(frame, 'the trace loaded from the list is not in view with the keyboard on it', (focus) =>
      focus.id === 'bi-verdict' && focus.verdictTop !== null && focus.verdictTop >= 0 && focus.verdictTop < 200 && focus.current.length === 1 && focus.current[0]!.includes('refusal'));
  });

  await check("the log's path and \"Open log file\" each open the refusal log in an editor beside the panel", async (frame) => {
    const logName = (await frame.locator('#bi-log-path').textContent())?.trim().split(/[/\\]/).at(-1) ?? '';
    if (!logName.endsWith('.jsonl')) throw new Error(`the log's path reads ${JSON.stringify(await frame.locator('#bi-log-path').textContent())}`);
    for (const opener of ['#bi-log-path', '#bi-open-log']) {
      await frame.click(opener);
      try {
        await waitForTabs(page, `${opener} did not open ${logName}`, (tabs) => tabs.some((tab) => tab.startsWith(logName)) && tabs.includes(INSPECTOR_TAB));
      } finally {
        await closeTab(page, logName);
      }
    }
  });

  // Each command that opens the panel, with the panel closed, visible, and hidden behind another
  // tab (its page torn down): what the command asked for is what the panel shows.
  {
    const placements = ['closed', 'visible', 'hidden'] as const;
    type Placed = (typeof placements)[number];
    const untitled = () => page.locator('.tabs-container .tab', { hasText: 'Untitled' }).first();
    const place = async (placed: Placed) => {
      await runFromPalette(page, 'Boundary Inspector: Open Inspector');
      let panel = await findPanelFrame(page);
      // The keyboard and the view at the top, so that a section shown later is the command's doing.
      await panel.evaluate("window.scrollTo(0, 0); document.getElementById('bi-input')?.focus()");
      if (placed === 'closed') {
        await closeTab(page, INSPECTOR_TAB);
      } else if (placed === 'hidden') {
        await runFromPalette(page, 'File: New Untitled Text File');
        await waitDetached(page, panel, 'an untitled file opened in front of the panel');
      }
    };
    // The panel open again whatever happened, for the next check.
    const restore = async () => {
      if ((await untitled().count()) > 0) await untitled().click({ button: 'middle', force: true }).catch(() => undefined);
      await runFromPalette(page, 'Boundary Inspector: Open Inspector').catch(() => undefined);
    };
    const fileFor: Record<Placed, string> = { closed: path.basename(demo.readme), visible: path.basename(demo.hello), hidden: 'todo.md' };
    const actions: readonly { name: string; act: (placed: Placed) => Promise<void>; shows: string; expect: (placed: Placed, panel: Frame) => Promise<void> }[] = [
      {
        name: 'Inspect Path...',
        shows: 'traces its input',
        act: async (placed) => {
          await runFromPalette(page, 'Boundary Inspector: Inspect Path...');
          await page.locator('.quick-input-widget', { hasText: 'A URI or path to trace against the workspace' }).waitFor({ state: 'visible', timeout: patience(10_000) });
          await page.locator('.quick-input-widget input').fill(`src/../../${placed}.txt`);
          await page.keyboard.press('Enter');
        },
        expect: async (placed, panel) => {
          const input = `src/../../${placed}.txt`;
          await waitForPanel(panel, `the panel does not trace ${input}`, (state) => state.input === input && state.rows['parse']?.input === input && verdictIs(state, 'outside'));
        },
      },
      {
        name: "the Explorer's Inspect with Boundary Inspector",
        shows: 'traces the file',
        act: async (placed) => {
          await runFromPalette(page, 'View: Show Explorer');
          const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: exactly(fileFor[placed]) }).first();
          await row.waitFor({ state: 'visible', timeout: patience(10_000) });
          await row.click({ button: 'right' });
          await chooseFromContextMenu(page, 'Inspect with Boundary Inspector');
        },
        expect: async (placed, panel) => {
          const uri = pathToFileURL(path.join(demo.notes, fileFor[placed])).href;
          await waitForPanel(panel, `the panel does not trace ${uri}`, (state) => state.input === uri && verdictIs(state, 'inside'));
          await runFromPalette(page, 'View: Close Primary Side Bar').catch(() => undefined);
        },
      },
      {
        name: 'Show Refusals',
        shows: 'brings the list into view, the keyboard on it',
        act: () => runFromPalette(page, 'Boundary Inspector: Show Refusals'),
        expect: async (_placed, panel) => {
          await waitForFocus(panel, 'the refusal list is not in view with the keyboard on it', (focus) => focus.inView && (focus.inRefusals || focus.id === 'bi-refusals-title'));
        },
      },
      {
        name: 'Show the Grants and Protection',
        shows: 'brings the grants into view, the keyboard on them',
        act: () => runFromPalette(page, 'Boundary Inspector: Show the Grants and Protection'),
        expect: async (_placed, panel) => {
          await waitForFocus(panel, 'the grants are not in view with the keyboard on them', (focus) => focus.inView && focus.id === 'bi-grants-title');
          const { grants } = await snapshot(panel);
          const folder = `${path.basename(demo.notes)}: read-write`;
          if (!grants.includes(folder)) throw new Error(`the grants list reads ${JSON.stringify(grants)}, not ${JSON.stringify(folder)}`);
        },
      },
    ];
    for (const action of actions) {
      for (const placed of placements) {
        await check(`${action.name} with the panel ${placed} ${action.shows}`, async () => {
          await place(placed);
          try {
            await action.act(placed);
            frame = await findPanelFrame(page, 20_000);
            await action.expect(placed, frame);
          } finally {
            await restore();
          }
        });
      }
    }
  }

  await check('a trace asked for while the panel shows the grants, or the refusals, comes into view with the keyboard on its verdict', async () => {
    for (const [section, command] of [['grants', 'Boundary Inspector: Show the Grants and Protection'], ['refusals', 'Boundary Inspector: Show Refusals']] as const) {
      await runFromPalette(page, command);
      frame = await findPanelFrame(page, 20_000);
      await waitForFocus(frame, `${command} did not bring the ${section} into view`, (focus) => focus.inView && focus.id !== 'bi-input' && (focus.verdictTop ?? 0) < 0);
      const input = `src/../../after-${section}.txt`;
      await runFromPalette(page, 'Boundary Inspector: Inspect Path...');
      await page.locator('.quick-input-widget', { hasText: 'A URI or path to trace against the workspace' }).waitFor({ state: 'visible', timeout: patience(10_000) });
      await page.locator('.quick-input-widget input').fill(input);
      await page.keyboard.press('Enter');
      frame = await findPanelFrame(page, 20_000);
      await waitForPanel(frame, `the panel does not trace ${input}`, (state) => state.input === input && state.rows['parse']?.input === input && verdictIs(state, 'outside'));
      await waitForFocus(frame, `after ${command}, the trace of ${input} is not in view with the keyboard on its verdict`, (focus) =>
        focus.id === 'bi-verdict' && focus.verdictTop !== null && focus.verdictTop >= -2 && focus.verdictTop < 200);
    }
  });

  await check('the panel names the protection layers on this host, anchored I/O among them on Linux, and says plainly what they do not guard', async (frame) => {
    const state = await waitForPanel(frame, 'no protection layers listed in #bi-layers', (state) => state.layers.length === 4);
    const names = state.layers.map((text) => text.split(':')[0]);
    if (names.join(',') !== 'authorization,containment,anchored I/O,sandbox') throw new Error(`the layers listed are ${JSON.stringify(state.layers)}`);
    const anchored = state.layers[2]!;
    // "active" while the agent's server runs; "ready" while none does.
    const expected = process.platform === 'linux' ? /^anchored I\/O: (active|ready \(no server running\))$/ : /^anchored I\/O: not active$/;
    if (!expected.test(anchored)) throw new Error(`the anchored I/O layer reads ${JSON.stringify(anchored)}`);
    const scope = (await frame.evaluate(`(() => {
      const note = document.getElementById('bi-scope');
      const list = document.getElementById('bi-layers');
      return note && !note.hidden && note.getBoundingClientRect().height > 0
        ? { text: note.textContent ?? '', before: !!list && (note.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 }
        : null;
    })()`)) as { text: string; before: boolean } | null;
    if (scope === null) throw new Error('the protection section says nothing of what the layers do not guard');
    for (const part of ["only the calls the agent makes to this server's tools", "the agent's built-in file edits", 'commands the agent runs in a terminal', "other MCP servers' tools"]) {
      if (!scope.text.includes(part)) throw new Error(`the protection section's note does not say ${JSON.stringify(part)}: ${JSON.stringify(scope.text)}`);
    }
    if (!scope.before) throw new Error('the note on what the layers do not guard comes after the layers');
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
    if (found.rowHeaders.length !== STAGES.indexOf('containment') + 1 || !found.rowHeaders.every(Boolean)) throw new Error(`not every row starts with a <th scope="row">: ${JSON.stringify(found.rowHeaders)}`);
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
    sameList('the quiet rows', quiet, ['refusals', 'decode', 'normalise', 'alias', 'case', 'realpath']);
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

  await check('case folding: the case row shows the upper-cased comparison key without marks, and the path goes on as it was', async (frame) => {
    // %45 decodes to E: the decode row has marks to colour.
    const input = `${workspaceUri}/READM%45.md`;
    await frame.selectOption('#bi-case', 'insensitive');
    try {
      await traceInput(frame, input);
      const state = await waitForPanel(frame, 'README.md was not traced inside with the case folded', (state) =>
        state.rows['parse']?.input === input && state.verdictClass.split(/\s+/).includes('verdict-inside') && state.rows['case']?.output === state.rows['case']?.input.toUpperCase());
      const folded = state.rows['case']!;
      // A key to compare names by, not a rewrite of the path.
      sameList("the marks removed from the case row's input", folded.removed, []);
      sameList("the marks added to the case row's output", folded.added, []);
      if (folded.quiet) throw new Error('the case row, which folded the path, is drawn quietly');
      if (state.rows['realpath']?.input !== folded.input) throw new Error(`realpath's input is ${JSON.stringify(state.rows['realpath']?.input)}, not the path the case row compared`);
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
    await page.locator('.tabs-container .tab.active').first().click();
    await runFromPalette(page, 'Developer: Reload Webviews');
    await waitDetached(page, current, 'Reload Webviews');
    frame = await findPanelFrame(page);
    try {
      await waitForPanel(frame, 'the reloaded panel lost the tool or the input', (state) =>
        state.tool === 'get_file_info' && state.input === 'escape' && state.rows['parse']?.input === 'escape' && verdictIs(state, 'inside'));
    } finally {
      await frame.selectOption('#bi-tool', 'read_text_file');
    }
  });

  await check('"Did you mean": readme.md (README.md exists) offers README.md, relative as typed; choosing it by keyboard traces it, inside; typed as a URI, the suggestion is a URI', async (frame) => {
    const readmeUri = pathToFileURL(demo.readme).href;
    const readme = path.basename(demo.readme);
    await traceInput(frame, pathToFileURL(path.join(demo.notes, 'readme.md')).href);
    await waitForPanel(frame, 'no "Did you mean" URI for readme.md typed as a URI', (state) => state.nearShown && state.near.some((miss) => miss.uri === readmeUri && miss.why === 'case'));
    await traceInput(frame, 'readme.md');
    const state = await waitForPanel(frame, 'no "Did you mean" README.md for readme.md', (state) =>
      state.tool === 'read_text_file' && state.rows['parse']?.input === 'readme.md' && state.nearShown && state.near.some((miss) => miss.uri === readme && miss.why === 'case'));
    // The README's picture of "Did you mean…": the verdict on readme.md and the suggestion under it.
    await panelShot(frame, 'near-miss.png', '#bi-verdict', '#bi-near');
    const button = frame.locator('#bi-near-list button').nth(state.near.findIndex((miss) => miss.uri === readme));
    await button.focus();
    await button.press('Enter');
    await waitForPanel(frame, 'choosing README.md did not trace it inside', (state) =>
      state.input === readme && state.rows['parse']?.input === readme && verdictIs(state, 'inside') && !state.nearShown);
  });

  await check('"Run on the server": readme.md answers ENOENT with "Did you mean README.md?" and joins the list as not found; a sibling-prefix path answers a refusal, listed too', async (frame) => {
    const answer = async (what: string, accept: (answer: { kind: string; text: string }) => boolean) => {
      const deadline = Date.now() + patience(30_000);
      let last: { kind: string; text: string } | null = null;
      for (;;) {
        last = (await frame.evaluate(`(() => { const a = document.getElementById('bi-answer'); return a && !a.hidden ? { kind: a.dataset.kind ?? '', text: (a.textContent ?? '').replace(/\\s+/g, ' ') } : null; })()`)) as typeof last;
        if (last !== null && accept(last)) return;
        if (Date.now() > deadline) throw new Error(`${what}; the answer shown is ${JSON.stringify(last)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await frame.selectOption('#bi-tool', 'read_text_file');
    await chooseRoot(frame, workspaceUri);
    await traceInput(frame, 'readme.md');
    await waitForPanel(frame, 'readme.md was not traced', (state) => state.rows['parse']?.input === 'readme.md');
    await frame.click('#bi-run');
    await answer('the server did not answer ENOENT with the near miss', (shown) => shown.kind === 'error' && /ENOENT/.test(shown.text) && shown.text.includes('Did you mean README.md?'));
    await waitForPanel(frame, 'no not-found entry for readme.md in the list', (state) => state.refusals.some((text) => text.startsWith('read_text_file not found ENOENT') && text.includes('readme.md')), 15_000);

    await traceInput(frame, evilUri);
    await waitForPanel(frame, 'the sibling-prefix URI was not traced', decidingOutside(evilUri));
    const listed = (await snapshot(frame)).refusals.filter((text) => text.startsWith('read_text_file ERR_OUTSIDE') && text.includes(evilUri)).length;
    await frame.click('#bi-run');
    await answer('the server did not refuse the sibling-prefix URI', (shown) => shown.kind === 'refused' && shown.text.includes('ERR_OUTSIDE') && shown.text.includes('containment'));
    await waitForPanel(frame, 'the refusal did not join the list', (state) => state.refusals.filter((text) => text.startsWith('read_text_file ERR_OUTSIDE') && text.includes(evilUri)).length === listed + 1, 15_000);
  });

  await check('the refusal list filters by code, tool and workspace, searches, clears and shows all again', async (frame) => {
    const listed = async () => (await snapshot(frame)).refusals.filter((text) => !text.startsWith('No refusal') && !text.startsWith('Cleared'));
    const all = await listed();
    if (all.length < 3) throw new Error(`too few refusals to filter: ${JSON.stringify(all)}`);
    try {
      await frame.selectOption('#bi-feed-code', 'not found');
      await waitForPanel(frame, 'the code filter did not keep only the not-found entries', (state) => state.refusals.length > 0 && state.refusals.every((text) => text.includes(' not found ')));
      await frame.selectOption('#bi-feed-code', '');
      await frame.selectOption('#bi-feed-tool', 'delete_path');
      await waitForPanel(frame, 'the tool filter did not keep only delete_path', (state) => state.refusals.length > 0 && state.refusals.every((text) => text.startsWith('delete_path ')));
      await frame.selectOption('#bi-feed-tool', '');
      await frame.fill('#bi-feed-search', 'notes-evil');
      await waitForPanel(frame, 'the search did not keep only the sibling-prefix entries', (state) => state.refusals.length > 0 && state.refusals.every((text) => text.includes('notes-evil')));
      const count = await frame.textContent('#bi-feed-count');
      if (!/^\d+ of \d+ shown$/.test(count ?? '')) throw new Error(`the count reads ${JSON.stringify(count)}`);
      await frame.fill('#bi-feed-search', '');
      await frame.click('#bi-feed-clear');
      await waitForPanel(frame, 'Clear did not empty the list', (state) => state.refusals.length === 1 && state.refusals[0]!.startsWith('Cleared'));
      await frame.click('#bi-feed-clear');
      await waitForPanel(frame, '"Show all" did not bring the entries back', (state) => state.refusals.length === all.length);
    } finally {
      await frame.fill('#bi-feed-search', '');
      for (const filter of ['#bi-feed-code', '#bi-feed-tool', '#bi-feed-workspace']) await frame.selectOption(filter, '');
    }
  });

  await check('the sidebar lists the grant, the layers and what they do not guard, and the recent refusals, each row led by its code and its name; choosing one loads it in the inspector; the status bar counts them', async (frame) => {
    const status = page.locator('.statusbar-item[aria-label^="Boundary Inspector:"]').first();
    await status.waitFor({ state: 'visible', timeout: patience(10_000) });
    if (!/\d/.test((await status.textContent()) ?? '')) throw new Error(`the status bar item reads ${JSON.stringify(await status.textContent())}`);
    // Counts as values after their labels: never "1 calls" or "1 paths".
    const spoken = (await status.getAttribute('aria-label')) ?? '';
    if (!/^Boundary Inspector: calls refused: \d+\+?; paths with nothing there: \d+; since this window opened$/.test(spoken)) throw new Error(`the status bar item is read as ${JSON.stringify(spoken)}`);
    await page.locator('.part.activitybar .action-label[aria-label^="Boundary Inspector"]').first().click();
    try {
      const rows = (view: string) => page.locator('.pane', { has: page.locator('.pane-header', { hasText: view }) }).locator('.monaco-list-row');
      await rows("Agent's Server").filter({ hasText: 'read-write' }).filter({ hasText: path.basename(demo.notes) }).first().waitFor({ state: 'visible', timeout: patience(10_000) });
      await rows("Agent's Server").filter({ hasText: 'containment' }).first().waitFor({ state: 'visible', timeout: patience(10_000) });
      for (const unguarded of ["the agent's built-in file edits", 'commands the agent runs in a terminal', "other MCP servers' tools"]) {
        await rows("Agent's Server").filter({ hasText: unguarded }).first().waitFor({ state: 'visible', timeout: patience(10_000) });
      }
      // The code and the path's name lead the row, whole, however narrow the side bar: the tool and the whole input follow.
      const refusal = rows('Recent Refusals').filter({ hasText: `ERR_OUTSIDE ${path.basename(demo.evilSecret)}` }).filter({ hasText: 'delete_path' }).first();
      await refusal.waitFor({ state: 'visible', timeout: patience(15_000) });
      const label = (await refusal.locator('.label-name').first().evaluate((element) => ({ text: (element.textContent ?? '').trim(), cut: element.scrollWidth > element.clientWidth + 1 }))) as { text: string; cut: boolean };
      if (label.text !== `ERR_OUTSIDE ${path.basename(demo.evilSecret)}` || label.cut) throw new Error(`the refusal's row leads with ${JSON.stringify(label)}`);
      const file = shotFile('sidebar.png');
      await page.screenshot({ path: file });
      publish(file, 'sidebar.png');
      await traceInput(frame, 'hello.txt');
      await refusal.click();
      const current = frame.isDetached() ? await findPanelFrame(page) : frame;
      await waitForPanel(current, 'choosing the refusal in the sidebar did not load its trace', (state) => decidingOutside(evilUri)(state) && state.tool === 'delete_path');
    } finally {
      await runFromPalette(page, 'View: Close Primary Side Bar').catch(() => undefined);
      // The refusal chose its own tool: the checks after this one read as the default one.
      const current = frame.isDetached() ? await findPanelFrame(page) : frame;
      await current.selectOption('#bi-tool', 'read_text_file');
    }
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
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'Boundary Inspector' }).first().waitFor({ state: 'visible', timeout: patience(10_000) });
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
      await page.locator('.part.panel .codicon-panel-close').first().click({ timeout: patience(5_000) }).catch((error: unknown) => log(`ui: could not hide the Problems panel: ${String(error).split('\n')[0]}`));
      if (viewport) await page.setViewportSize(viewport);
      await page.waitForTimeout(300);
    }
    await frame.locator('#bi-audits button.finding').nth(state.findings.findIndex((finding) => finding.kind === 'link-escapes' && finding.path === demo.escapeLink)).click();
    await waitForPanel(frame, 'clicking the finding did not trace the link', (state) =>
      state.input === demo.escapeLink && state.root === workspaceUri && state.rows['parse']?.input === demo.escapeLink && verdictIs(state, 'outside') && state.verdictText.includes('ERR_SYMLINK_ESCAPE'));
    await waitForFocus(frame, 'the trace of the finding is not in view with the keyboard on it', (focus) =>
      focus.id === 'bi-verdict' && focus.verdictTop !== null && focus.verdictTop >= 0 && focus.verdictTop < 200 && focus.current.length === 1 && focus.current[0]!.includes('finding'));
  });

  await check("Problems: choosing the escaping link's finding traces it in the inspector and opens no editor on it; a finding's code link traces its entry", async (frame) => {
    // Another trace on screen first, so that the one the finding asks for is its own doing; read as most tools do.
    await frame.selectOption('#bi-tool', 'read_text_file');
    await traceInput(frame, 'hello.txt');
    await waitForPanel(frame, 'hello.txt is not traced', (state) => state.rows['parse']?.input === 'hello.txt');
    await page.locator('[id="status.problems"]').first().click();
    try {
      const finding = page.locator('.markers-panel .monaco-list-row', { hasText: 'This link leads outside the workspace' }).first();
      await finding.waitFor({ state: 'visible', timeout: patience(10_000) });
      await finding.click();
      let panel = await findPanelFrame(page, 20_000);
      await waitForPanel(panel, 'choosing the finding in Problems did not trace the link', (state) =>
        state.input === demo.escapeLink && state.root === workspaceUri && verdictIs(state, 'outside') && state.verdictText.includes('ERR_SYMLINK_ESCAPE'));
      await waitForFocus(panel, 'the trace of the finding is not in view with the keyboard on it', (focus) => focus.id === 'bi-verdict' && focus.current.length === 1 && focus.current[0]!.includes('finding'));
      // Given time to open one, no editor stays on the link.
      await page.waitForTimeout(1_000);
      const tabs = await page.locator('.tabs-container .tab').allTextContents();
      if (tabs.some((tab) => tab.trim() === path.basename(demo.escapeLink))) throw new Error(`an editor is open on the link: tabs ${JSON.stringify(tabs)}`);
      // The code of a file's finding ("case-twins" on TODO.md) is a link to the same trace, not a web page.
      const link = page.locator('.markers-panel .monaco-list-row a.monaco-link', { has: page.locator('.marker-code', { hasText: exactly('case-twins') }) }).first();
      // The Problems list draws only the rows in view: filtered to the kind, its row is among them.
      const filter = page.locator('.part.panel .viewpane-filter input').first();
      if (await filter.isVisible().catch(() => false)) await filter.fill('case-twins');
      await link.waitFor({ state: 'visible', timeout: patience(10_000) });
      await link.click();
      panel = await findPanelFrame(page, 20_000);
      await waitForPanel(panel, "the code link of a case-twins finding did not trace its entry", (state) =>
        demo.caseTwins.includes(state.input) && state.root === workspaceUri && verdictIs(state, 'inside'));
      const shown = await editorTabs(page);
      if (!shown.includes(INSPECTOR_TAB)) throw new Error(`the inspector is not among the tabs: ${JSON.stringify(shown)}`);
    } finally {
      await page.locator('.part.panel .viewpane-filter input').first().fill('', { timeout: patience(2_000) }).catch(() => undefined);
      await page.locator('.part.panel .codicon-panel-close').first().click({ timeout: patience(5_000) }).catch(() => undefined);
      await runFromPalette(page, 'View: Close Primary Side Bar').catch(() => undefined);
      await page.locator('.tabs-container .tab', { hasText: 'Boundary Inspector' }).first().click().catch(() => undefined);
    }
  });

  await check("the panel's audit button runs the audit again and the list follows", async (frame) => {
    const before = (await snapshot(frame)).auditTimes;
    await frame.click('#bi-audit-run');
    await waitForPanel(frame, 'the audit did not run again', (state) =>
      !state.auditRunning && state.auditTimes.length === before.length && state.auditTimes.some((time, i) => time !== before[i]) && state.findings.some((finding) => finding.kind === 'link-escapes'), 60_000);
  });

  await check('win32 with the workspace folder as root: hello.txt and its own file: URI trace inside the folder as Windows would hold it', async (frame) => {
    await frame.selectOption('#bi-platform', 'win32');
    await chooseRoot(frame, workspaceUri);
    try {
      const windowsPath = `C:\\Users\\dev\\${path.basename(demo.notes)}\\hello.txt`;
      // This machine's URI of a file in the folder is traced as the same file there.
      const traced = [
        ['hello.txt', 'hello.txt'],
        [pathToFileURL(demo.hello).href, `file:///C:/Users/dev/${path.basename(demo.notes)}/hello.txt`],
      ] as const;
      for (const [input, parsed] of traced) {
        await traceInput(frame, input);
        await waitForPanel(frame, `${input} on win32 is not inside the simulated folder`, (state) =>
          state.platform === 'win32' && state.rows['parse']?.input === parsed && verdictIs(state, 'inside') && state.verdictText.includes(windowsPath));
      }
      // The picker says where the folder is put.
      const place = `(as C:\\Users\\dev\\${path.basename(demo.notes)})`;
      const option = (await snapshot(frame)).rootOptions.find((choice) => choice.value === workspaceUri);
      if (!option?.text.endsWith(place)) throw new Error(`the root picker reads ${JSON.stringify(option?.text)}, not ... ${place}`);
    } finally {
      await frame.selectOption('#bi-platform', 'linux');
    }
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

  await check('a root that is not granted: the verdict says, right under it, that the server refuses it with ERR_NOT_GRANTED; "Run on the server" says on the page why it is off', async (frame) => {
    const outsideUri = pathToFileURL(demo.outside).href;
    const seen = async () => (await frame.evaluate(`(() => {
      const verdict = document.getElementById('bi-verdict');
      const next = verdict?.querySelector('.verdict-headline')?.nextElementSibling;
      const run = document.getElementById('bi-run');
      const why = document.getElementById('bi-run-why');
      return {
        banner: verdict?.className ?? '',
        next: next?.className ?? '',
        note: (next?.textContent ?? '').replace(/\\s+/g, ' ').trim(),
        disabled: run?.disabled ?? false,
        why: why && !why.hidden && why.getBoundingClientRect().height > 0 ? (why.textContent ?? '') : null,
      };
    })()`)) as { banner: string; next: string; note: string; disabled: boolean; why: string | null };
    await frame.selectOption('#bi-platform', 'linux');
    await frame.selectOption('#bi-tool', 'read_text_file');
    try {
      await chooseRoot(frame, outsideUri);
      await traceInput(frame, 'secret.txt');
      await waitForPanel(frame, 'secret.txt is not traced inside the folder typed as the root', (state) => state.rows['parse']?.input === 'secret.txt' && verdictIs(state, 'inside'));
      const shown = await seen();
      if (!shown.next.split(/\s+/).includes('verdict-server') || !shown.note.includes('ERR_NOT_GRANTED')) throw new Error(`under the verdict: ${JSON.stringify(shown)}`);
      if (!shown.note.includes(outsideUri)) throw new Error(`the note does not name the root: ${shown.note}`);
      if (!shown.banner.split(/\s+/).includes('verdict-server-refuses')) throw new Error(`the banner is drawn as a plain verdict: ${shown.banner}`);
      if (!shown.disabled || shown.why === null || !shown.why.includes('not a workspace folder granted to the agent')) throw new Error(`"Run on the server": ${JSON.stringify(shown)}`);
      // A granted root: the same path traced inside with nothing more said, and a tool that needs more than a path says so.
      await chooseRoot(frame, workspaceUri);
      await traceInput(frame, 'hello.txt');
      await waitForPanel(frame, 'hello.txt is not inside', (state) => state.rows['parse']?.input === 'hello.txt' && verdictIs(state, 'inside'));
      const granted = await seen();
      if (granted.banner.includes('verdict-server-refuses') || granted.note.includes('ERR_NOT_GRANTED') || granted.disabled || granted.why !== null) throw new Error(`a granted root still reads as refused: ${JSON.stringify(granted)}`);
      await frame.selectOption('#bi-tool', 'write_file');
      const writing = await seen();
      if (!writing.disabled || writing.why === null || !writing.why.startsWith('write_file needs more than a path')) throw new Error(`"Run on the server" with write_file: ${JSON.stringify(writing)}`);
    } finally {
      await chooseRoot(frame, workspaceUri);
      await frame.selectOption('#bi-tool', 'read_text_file');
    }
  });

  await check('"Every program, side by side": drafts/plan.md as write_file, Claude Code allows it by its local settings (the rule\'s line named), Codex refuses it (read-only by default); choosing Codex\'s row shows its own stages', async (frame) => {
    await frame.selectOption('#bi-platform', 'linux');
    await chooseRoot(frame, workspaceUri);
    await frame.selectOption('#bi-decider', 'boundary-inspector');
    await frame.selectOption('#bi-tool', 'write_file');
    try {
      await traceInput(frame, 'drafts/plan.md');
      await waitForPanel(frame, 'drafts/plan.md is not traced inside', (state) => state.rows['parse']?.input === 'drafts/plan.md' && verdictIs(state, 'inside'));
      const rows = await waitFor<Record<string, ComparedRowShown>>(frame, COMPARISON, 'Claude Code does not allow drafts/plan.md, or Codex does not refuse it', (rows) => rows['claude-code']?.decision === 'allow' && rows['codex']?.decision === 'deny');
      const claude = rows['claude-code']!;
      if (claude.tool !== 'Write' || !claude.rule.includes('Edit(./drafts/**)') || !claude.source.endsWith(`.claude/settings.local.json:${demo.claudeAllowLine}`)) throw new Error(`Claude Code's row: ${JSON.stringify(claude)}`);
      if (rows['codex']!.tool !== 'apply_patch') throw new Error(`Codex's row: ${JSON.stringify(rows['codex'])}`);
      if (rows['boundary-inspector']?.decision !== 'allow' || !rows['boundary-inspector'].current) throw new Error(`this server's row: ${JSON.stringify(rows['boundary-inspector'])}`);
      // The README's picture: the verdict and, under it, every program's decision on the same input (no row under the pointer).
      await page.mouse.move(0, 0);
      await panelShot(frame, 'deciders.png', '#bi-verdict', '#bi-compare');
      await frame.click('#bi-compare-table tr[data-decider="codex"] button');
      const codex = await waitFor<DecidedShown>(frame, DECIDED, "choosing Codex's row did not show its decision", (shown) => shown.decider === 'codex' && shown.decision === 'deny');
      if (codex.tool !== 'apply_patch' || !codex.headline.startsWith('DENY — Codex') || codex.deciding !== 'assess_patch_safety') throw new Error(`Codex's decision: ${JSON.stringify(codex)}`);
      const after = (await frame.evaluate(COMPARISON)) as Record<string, ComparedRowShown>;
      if (!after['codex']?.current || after['boundary-inspector']?.current) throw new Error(`the row shown is not marked: ${JSON.stringify(after)}`);
    } finally {
      await frame.selectOption('#bi-decider', 'boundary-inspector');
      await frame.selectOption('#bi-tool', 'read_text_file');
    }
  });

  await check("a fix opens its file at the rule's line: private/keys.txt, decided by Claude Code, is denied by line 7 of its local settings, and \"Open\" shows that line selected; a fix whose file is not there yet opens unsaved, and nothing is written", async (frame) => {
    const settingsName = path.basename(demo.claudeSettings);
    const codexConfig = path.join(options.home, '.codex', 'config.toml');
    try {
      await frame.selectOption('#bi-decider', 'claude-code');
      await frame.selectOption('#bi-tool', 'Read');
      await traceInput(frame, 'private/keys.txt');
      // The form's choice shows at once, the decision once traced: until then the last one drawn (another program's) is still there.
      const denied = await waitFor<DecidedShown>(frame, DECIDED, 'Claude Code does not deny private/keys.txt', (shown) => shown.decider === 'claude-code' && shown.headline.includes('Claude Code') && shown.decision === 'deny' && shown.fixes.length > 0);
      if (!denied.source.endsWith(`${settingsName}:${demo.claudeDenyLine}`)) throw new Error(`the deciding rule's source: ${JSON.stringify(denied)}`);
      const open = frame.locator('#bi-decided .fix-open', { hasText: `${settingsName}:${demo.claudeDenyLine}` }).first();
      await open.click();
      const deadline = Date.now() + patience(15_000);
      let editor = await activeEditor(page);
      while (!(editor.label === settingsName && editor.selection.startsWith(`Ln ${demo.claudeDenyLine},`))) {
        if (Date.now() > deadline) throw new Error(`the active editor is not ${settingsName} at line ${demo.claudeDenyLine}: ${JSON.stringify(editor)}`);
        await page.waitForTimeout(200);
        editor = await activeEditor(page);
      }
      if (!editor.title.includes('.claude')) throw new Error(`the editor's file is not the workspace's .claude/${settingsName}: ${JSON.stringify(editor)}`);
      if (!/\(\d+ selected\)/.test(editor.selection)) throw new Error(`the rule's line is not selected: ${JSON.stringify(editor)}`);
      await closeTab(page, settingsName);
      // Codex refuses the change; its fix names a configuration file the scratch home does not hold.
      frame = await findPanelFrame(page);
      await frame.selectOption('#bi-decider', 'codex');
      await frame.selectOption('#bi-tool', 'apply_patch');
      await traceInput(frame, 'drafts/plan.md');
      await waitFor<DecidedShown>(frame, DECIDED, 'Codex does not refuse drafts/plan.md', (shown) => shown.decider === 'codex' && shown.headline.includes('Codex') && shown.decision === 'deny' && shown.fixes.some((fix) => fix.startsWith('Create')));
      await frame.locator('#bi-decided .fix-open', { hasText: 'Create' }).first().click();
      await waitForTabs(page, 'the fix did not open an editor for config.toml', (tabs) => tabs.some((tab) => tab.startsWith('config.toml')));
      if (existsSync(codexConfig)) throw new Error(`${codexConfig} was written before anyone saved it`);
      await runFromPalette(page, 'View: Revert and Close Editor');
      await waitForTabs(page, 'the unsaved config.toml did not close', (tabs) => !tabs.some((tab) => tab.startsWith('config.toml')));
      if (existsSync(codexConfig)) throw new Error(`${codexConfig} was written`);
    } finally {
      frame = await findPanelFrame(page);
      await frame.selectOption('#bi-decider', 'boundary-inspector');
      await frame.selectOption('#bi-tool', 'read_text_file');
    }
  });

  await runLookChecks(page, () => findPanelFrame(page), check, { log, screenshotDir: options.screenshotDir });
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

  // Last: it stops the agent's server (the suite started it), as a crash or MCP: Stop Server would.
  await check("whether the agent's server runs: the panel and the side bar say it runs, with its process, and once it stops that it does not, the layers ready but guarding nothing", async () => {
    await runFromPalette(page, 'Boundary Inspector: Show the Grants and Protection');
    let panel = await findPanelFrame(page, 20_000);
    const serverLine = async (current: Frame) => (await current.evaluate(`(() => { const line = document.getElementById('bi-server'); return { kind: line?.dataset.kind ?? '', text: line?.textContent ?? '' }; })()`)) as { kind: string; text: string };
    const waitForServer = async (kind: string) => {
      const deadline = Date.now() + patience(30_000);
      for (;;) {
        panel = await findPanelFrame(page, 20_000);
        const line = await serverLine(panel);
        if (line.kind === kind) return line;
        if (Date.now() > deadline) throw new Error(`the panel does not say the server is ${kind}: ${JSON.stringify(line)}`);
        await page.waitForTimeout(250);
      }
    };
    const running = await waitForServer('running');
    const pid = Number(/process (\d+)/.exec(running.text)?.[1]);
    if (!Number.isInteger(pid) || !running.text.startsWith("The agent's server: running (process")) throw new Error(`the panel says ${JSON.stringify(running.text)}`);
    await page.locator('.part.activitybar .action-label[aria-label^="Boundary Inspector"]').first().click();
    try {
      const rows = page.locator('.pane', { has: page.locator('.pane-header', { hasText: "Agent's Server" }) }).locator('.monaco-list-row');
      await rows.filter({ hasText: `running` }).filter({ hasText: `process ${pid}` }).first().waitFor({ state: 'visible', timeout: patience(15_000) });
      await page.screenshot({ path: shotFile('sidebar-server-running.png') });
      process.kill(pid, 'SIGTERM');
      await rows.filter({ hasText: 'not running' }).first().waitFor({ state: 'visible', timeout: patience(30_000) });
      await rows.filter({ has: page.locator('.label-name', { hasText: exactly('containment') }) }).filter({ has: page.locator('.label-description', { hasText: exactly('ready') }) }).first().waitFor({ state: 'visible', timeout: patience(10_000) });
      await page.screenshot({ path: shotFile('sidebar-server-stopped.png') });
      await waitForServer('stopped');
      const layers = (await snapshot(panel)).layers;
      if (!layers.some((layer) => layer === 'containment: ready (no server running)')) throw new Error(`with no server running the layers read ${JSON.stringify(layers)}`);
    } finally {
      await runFromPalette(page, 'View: Close Primary Side Bar').catch(() => undefined);
      await runFromPalette(page, 'Notifications: Clear All Notifications').catch(() => undefined);
    }
  });

  return results;
}

// ---------------------------------------------------------------------------------------------
// The walkthrough (contributes.walkthroughs), opened by the suite with workbench.action.openWalkthrough.
// Its page is the workbench's own (not a webview): steps are `button.getting-started-step` with
// `data-step-id` `<extension>#<walkthrough>#<step>`, titles `h3.step-title`, a button link
// `.button-container .monaco-button`. Each step's markdown page is shown beside it in a webview.

export interface WalkthroughReady {
  /** `<publisher>.<name>#<walkthrough id>`. */
  readonly walkthrough: string;
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
  const deadline = Date.now() + patience(timeout);
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

export async function runWalkthroughChecks(page: Page, ready: WalkthroughReady, options: Pick<UiOptions, 'log' | 'screenshotDir' | 'only'>): Promise<CheckResult[]> {
  const { log } = options;
  const results: CheckResult[] = [];
  const check = async (name: string, body: () => Promise<void>) => {
    if (options.only !== undefined && !options.only.test(name)) return;
    const started = Date.now();
    try {
      await body();
      results.push({ name, ok: true, duration: Date.now() - started, error: null });
      log(`ui: ok   walkthrough: ${name}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name, ok: false, duration: Date.now() - started, error: message });
      mkdirSync(options.screenshotDir, { recursive: true });
      const picture = path.join(options.screenshotDir, `walkthrough-failed-${results.length}.png`);
      await page.screenshot({ path: picture }).catch(() => undefined);
      log(`ui: FAIL walkthrough: ${name}: ${message.split('\n')[0]} (the window: ${path.relative(REPO, picture)})`);
    }
  };
  const declared = declaredWalkthrough(ready.walkthrough.slice(ready.walkthrough.indexOf('#') + 1));
  const stepSelector = (step: string) => `button.getting-started-step[data-step-id="${ready.walkthrough}#${step}"]`;
  /**
   * The walkthrough's steps in view. The editor may go back to its list of walkthroughs (a reset
   * of progress, a walkthrough it counts as finished); its steps' buttons are then disabled. The
   * walkthrough is chosen from that list, as a person would.
   */
  const showWalkthrough = async () => {
    const first = page.locator(stepSelector(declared.steps[0]!.id));
    if (await first.isEnabled().catch(() => false)) return;
    const entry = page.locator(`button.getting-started-category[x-dispatch="selectCategory:${ready.walkthrough}"]`);
    await entry.waitFor({ state: 'visible', timeout: patience(10_000) });
    await entry.click();
    const deadline = Date.now() + patience(10_000);
    while (!(await first.isEnabled().catch(() => false))) {
      if (Date.now() > deadline) throw new Error('the walkthrough chosen from the Welcome page did not show its steps');
      await page.waitForTimeout(200);
    }
  };

  await check('the page opens with the walkthrough title and every step title visible', async () => {
    const title = page.locator(`h2.category-title[x-category-title-for="${ready.walkthrough}"]`);
    await title.waitFor({ state: 'visible', timeout: patience(20_000) });
    if ((await title.textContent())?.trim() !== declared.title) throw new Error(`the page's title is ${JSON.stringify(await title.textContent())}, not ${JSON.stringify(declared.title)}`);
    for (const step of declared.steps) {
      const heading = page.locator(`${stepSelector(step.id)} h3.step-title`);
      await heading.waitFor({ state: 'visible', timeout: patience(5_000) });
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

  await check('"Open the inspector": its button opens the inspector beside the page, the keyboard in its input', async () => {
    await showWalkthrough();
    await page.locator(stepSelector('openInspector')).click();
    const button = page.locator(`${stepSelector('openInspector')} .button-container .monaco-button`);
    await button.waitFor({ state: 'visible', timeout: patience(5_000) });
    await button.click();
    const frame = await findPanelFrame(page, 20_000);
    await waitForFocus(frame, 'the opened inspector does not have the keyboard in its input', (focus) => focus.id === 'bi-input');
    // Beside, not over it: the step the person is reading stays on screen.
    if (!(await page.locator(stepSelector('openInspector')).isVisible())) throw new Error('the walkthrough page is hidden behind the inspector');
  });

  await check('"Trace a refused path": its button traces src/../../secret.txt in the inspector beside the page, outside at containment', async () => {
    const input = 'src/../../secret.txt';
    await showWalkthrough();
    await page.locator(stepSelector('traceRefusedPath')).click();
    const button = page.locator(`${stepSelector('traceRefusedPath')} .button-container .monaco-button`);
    await button.waitFor({ state: 'visible', timeout: patience(5_000) });
    await button.click();
    const frame = await findPanelFrame(page, 20_000);
    await waitForPanel(frame, `the inspector did not trace ${input} as outside at containment`, (state) =>
      state.rows['parse']?.input === input && state.deciding?.stage === 'containment' && state.deciding.status === 'refuse' && state.verdictClass.split(/\s+/).includes('verdict-outside'), 20_000);
    // Beside, not over it: the step stays on screen. (That the button's command marks the step done
    // is the walkthrough's completion event, which the suite checks names this command.)
    if (!(await page.locator(stepSelector('traceRefusedPath')).isVisible())) throw new Error('the walkthrough page is hidden behind the inspector');
  });

  await check('the inspector brought beside the page stays open: a file chosen next in the Explorer opens beside it in its group instead of replacing it', async () => {
    await waitForTabs(page, 'the inspector is not kept open beside the page', (tabs) => tabs.includes(INSPECTOR_TAB));
    // A click in the Explorer opens a file in the active group, the inspector's, as a preview: a
    // preview inspector would be replaced by it.
    await runFromPalette(page, 'View: Show Explorer');
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: exactly('hello.txt') }).first();
    await row.waitFor({ state: 'visible', timeout: patience(10_000) });
    await row.click();
    try {
      await waitForTabs(page, 'hello.txt did not open', (tabs) => tabs.some((tab) => tab.startsWith('hello.txt')));
      const after = await editorTabs(page);
      if (!after.includes(INSPECTOR_TAB)) throw new Error(`opening hello.txt closed the inspector: the tabs are ${JSON.stringify(after)}`);
    } finally {
      await closeTab(page, 'hello.txt');
      await runFromPalette(page, 'View: Close Primary Side Bar').catch(() => undefined);
    }
  });

  await check('at 600 px with the side bar and the chat open, "Open Inspector" shows the whole inspector in the page\'s place, the keyboard in its input, both kept open', async () => {
    const viewport = page.viewportSize();
    const opened: string[] = [];
    try {
      await closeTab(page, INSPECTOR_TAB);
      await page.setViewportSize({ width: 600, height: 800 });
      for (const [part, command] of [['.part.sidebar', 'View: Toggle Primary Side Bar Visibility'], ['.part.auxiliarybar', 'View: Toggle Secondary Side Bar Visibility']] as const) {
        if (await page.locator(part).first().isVisible().catch(() => false)) continue;
        await runFromPalette(page, command);
        await page.locator(part).first().waitFor({ state: 'visible', timeout: patience(10_000) });
        opened.push(command);
      }
      await showWalkthrough();
      await page.locator(stepSelector('openInspector')).click();
      const button = page.locator(`${stepSelector('openInspector')} .button-container .monaco-button`);
      await button.waitFor({ state: 'visible', timeout: patience(5_000) });
      await button.click();
      await waitForWholeView(page, 'Open Inspector');
      await waitForFocus(await findPanelFrame(page), 'the inspector does not have the keyboard in its input', (focus) => focus.id === 'bi-input');
      // Both kept: the inspector is no preview, and the page it took the place of is still open.
      await waitForTabs(page, 'the inspector is not kept open, or the page it was opened from is gone', (tabs) => tabs.includes(INSPECTOR_TAB) && tabs.length >= 2);
      mkdirSync(options.screenshotDir, { recursive: true });
      await page.screenshot({ path: path.join(options.screenshotDir, 'walkthrough-narrow.png') });

      // The next steps as a person takes them: the page's tab, the step, its button; the inspector
      // comes back over the page with what the step asked for.
      const step = async (id: string) => {
        await page.locator('.tabs-container .tab').filter({ hasNot: page.locator('.tab-label', { hasText: exactly(INSPECTOR_TAB) }) }).first().click();
        await showWalkthrough();
        await page.locator(stepSelector(id)).click();
        const button = page.locator(`${stepSelector(id)} .button-container .monaco-button`);
        await button.waitFor({ state: 'visible', timeout: patience(5_000) });
        await button.click();
      };
      await step('traceRefusedPath');
      await waitForPanel(await findPanelFrame(page, 20_000), 'at 600 px, "Trace a refused path" did not trace src/../../secret.txt', (state) =>
        state.input === 'src/../../secret.txt' && state.deciding?.stage === 'containment' && state.verdictClass.split(/\s+/).includes('verdict-outside'), 20_000);
      await waitForWholeView(page, 'Trace a refused path');
      await step('readRefusals');
      await waitForFocus(await findPanelFrame(page, 20_000), 'at 600 px, "Show Refusals" did not bring the list into view', (focus) => focus.inView && (focus.inRefusals || focus.id === 'bi-refusals-title'));
      await waitForWholeView(page, 'Show Refusals');
    } finally {
      for (const command of opened.reverse()) await runFromPalette(page, command).catch(() => undefined);
      if (viewport) await page.setViewportSize(viewport);
    }
  });

  await check("at 1400 px, with the side bar open and with a wide chat open: each step's page fits its column where it is shown, and where the editor hides it the trace step's own text gives every input its page lists", async () => {
    const viewport = page.viewportSize();
    const toggled: string[] = [];
    const show = async (part: string, command: string, shown: boolean) => {
      if ((await page.locator(part).first().isVisible().catch(() => false)) === shown) return;
      await runFromPalette(page, command);
      await page.locator(part).first().waitFor({ state: shown ? 'visible' : 'hidden', timeout: patience(10_000) });
      toggled.push(command);
    };
    const primary = ['.part.sidebar', 'View: Toggle Primary Side Bar Visibility'] as const;
    const secondary = ['.part.auxiliarybar', 'View: Toggle Secondary Side Bar Visibility'] as const;
    /** Drags the chat's edge so that it is `width` px wide; returns how far it was dragged. */
    const chatWidth = async (width: number): Promise<number> => {
      const sash = (await page.evaluate(`(() => {
        const bar = document.querySelector('.part.auxiliarybar')?.getBoundingClientRect();
        if (!bar) return null;
        const near = Array.from(document.querySelectorAll('.monaco-sash.vertical'), (sash) => sash.getBoundingClientRect())
          .filter((box) => box.height > 100 && Math.abs(box.left + box.width / 2 - bar.left) < 6);
        return near[0] ? { x: near[0].left + near[0].width / 2, y: near[0].top + near[0].height / 2, width: bar.width } : null;
      })()`)) as { x: number; y: number; width: number } | null;
      if (sash === null) throw new Error("no sash at the chat's edge");
      const by = width - sash.width;
      await page.mouse.move(sash.x, sash.y);
      await page.mouse.down();
      await page.mouse.move(sash.x - by, sash.y, { steps: 8 });
      await page.mouse.up();
      return by;
    };
    // The page is the active editor once the inspector is closed. The step chosen is expanded, and disabled: chosen again, it is not clicked.
    const choose = async (id: string) => {
      if ((await page.locator(stepSelector(id)).getAttribute('aria-expanded')) !== 'true') await page.locator(stepSelector(id)).click();
    };
    const trace = declared.steps.find((step) => step.id === 'traceRefusedPath')!;
    // Each list item (or table row) of its page opens with an input to paste, as code.
    const offered = [...readFileSync(path.join(REPO, trace.media.markdown!), 'utf8').matchAll(/^(?:- |\| )`([^`]+)`/gm)].map((match) => match[1]!);
    /** Each step with a page: the page fits its column where it is shown; the trace step's inputs are on screen either way. */
    const walk = async (layout: string): Promise<boolean[]> => {
      const shown: boolean[] = [];
      for (const step of declared.steps) {
        if (step.media.markdown === undefined) continue;
        const heading = /^# (.+)$/m.exec(readFileSync(path.join(REPO, step.media.markdown), 'utf8'))?.[1] ?? '';
        await choose(step.id);
        await page.waitForTimeout(500);
        const mediaShown = await page.locator('.gettingStartedDetailsContent > .getting-started-media').first().isVisible().catch(() => false);
        shown.push(mediaShown);
        await page.screenshot({ path: path.join(options.screenshotDir, `walkthrough-1400-${layout}-${step.id}.png`) });
        let pageText = '';
        if (mediaShown) {
          const frame = await findFrameWithHeading(page, heading);
          const fit = (await frame.evaluate(`(() => {
            const width = document.documentElement.clientWidth;
            const cut = Array.from(document.body.querySelectorAll('*'))
              .filter((element) => element.getBoundingClientRect().right > width + 0.5)
              .map((element) => element.tagName.toLowerCase() + ' ' + Math.round(element.getBoundingClientRect().right) + ' "' + (element.textContent ?? '').slice(0, 30) + '"');
            return { width, scrollWidth: document.documentElement.scrollWidth, cut: cut.slice(0, 6), text: document.body.innerText };
          })()`)) as { width: number; scrollWidth: number; cut: string[]; text: string };
          if (fit.scrollWidth > fit.width + 1 || fit.cut.length > 0) throw new Error(`${layout}: ${step.media.markdown} is cut off in its ${fit.width} px column (${fit.scrollWidth} px wide): ${fit.cut.join(', ')}`);
          pageText = fit.text;
        }
        if (step.id !== trace.id) continue;
        const stepText = (await page.locator(stepSelector(step.id)).innerText()).replace(/\s+/g, ' ');
        const missing = offered.filter((input) => !stepText.includes(input) && !pageText.includes(input));
        if (missing.length > 0) throw new Error(`${layout} (the step's page ${mediaShown ? 'shown' : 'hidden'}): no text on screen gives ${JSON.stringify(missing)}; the step reads ${JSON.stringify(stepText)}`);
      }
      return shown;
    };
    let dragged = 0;
    try {
      if (offered.length < 3) throw new Error(`${trace.media.markdown} lists ${JSON.stringify(offered)}`);
      mkdirSync(options.screenshotDir, { recursive: true });
      // Choosing every step completes the one done when chosen: with the others done by the checks
      // before, the editor would put the finished walkthrough away. Its progress starts again.
      await runFromPalette(page, 'Developer: Reset Welcome Page Walkthrough Progress');
      await closeTab(page, INSPECTOR_TAB);
      await showWalkthrough();
      await page.setViewportSize({ width: 1400, height: 900 });
      // A chat as wide as people keep it: the walkthrough is 950 px or less, where the editor hides each step's page.
      await show(...primary, false);
      await show(...secondary, true);
      dragged = await chatWidth(480);
      const shown = await walk('chat');
      if (shown.some(Boolean)) throw new Error(`with the chat 480 px wide the editor still shows a step's page (${JSON.stringify(shown)}): the case of a hidden page is not checked`);
      await chatWidth((await page.locator('.part.auxiliarybar').first().boundingBox())!.width - dragged);
      dragged = 0;
      // The side bar open instead: each page is drawn beside its step, in a narrower column.
      await show(...secondary, false);
      await show(...primary, true);
      await walk('sidebar');
    } finally {
      if (dragged !== 0) await chatWidth(-dragged + (await page.locator('.part.auxiliarybar').first().boundingBox())!.width).catch(() => undefined);
      for (const command of toggled.reverse()) await runFromPalette(page, command).catch(() => undefined);
      if (viewport) await page.setViewportSize(viewport);
    }
  });

  return results;
}

const INSPECTOR_TAB = 'Boundary Inspector';

/**
 * Chooses an item of the context menu just opened. The menu may let the first click go while it
 * opens (the item is then only hovered): clicked again until the menu closes, three times at most.
 */
async function chooseFromContextMenu(page: Page, label: string): Promise<void> {
  const menu = page.locator('.context-view');
  const item = menu.locator('.action-label', { hasText: label }).first();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (!(await item.isVisible().catch(() => false))) {
      if (attempt > 0) return;
      await item.waitFor({ state: 'visible', timeout: patience(10_000) });
    }
    await item.click();
    if (await menu.waitFor({ state: 'hidden', timeout: patience(1_500) }).then(() => true, () => false)) return;
  }
  throw new Error(`the context menu's "${label}" did not take the click`);
}

/** The editor tabs' labels, in every group; a preview's (which the next file opened replaces) marked. */
async function editorTabs(page: Page): Promise<string[]> {
  return page.locator('.tabs-container .tab').evaluateAll((tabs) => tabs.map((tab) => {
    const label = (tab.querySelector('.tab-label')?.textContent ?? '').trim();
    return /, preview,/.test(tab.getAttribute('aria-label') ?? '') ? `${label} (preview)` : label;
  }));
}

async function waitForTabs(page: Page, what: string, accept: (tabs: readonly string[]) => boolean): Promise<void> {
  const deadline = Date.now() + patience(10_000);
  while (!accept(await editorTabs(page))) {
    if (Date.now() > deadline) throw new Error(`${what}: the tabs are ${JSON.stringify(await editorTabs(page))}`);
    await page.waitForTimeout(150);
  }
}

/** Closes an editor tab by its label, with a middle click (forced: the tab's hover may lie over it). */
async function closeTab(page: Page, label: string): Promise<void> {
  const tab = page.locator('.tabs-container .tab').filter({ has: page.locator('.tab-label', { hasText: exactly(label) }) }).first();
  if ((await tab.count()) === 0) return;
  await tab.click({ button: 'middle', force: true });
  await waitForTabs(page, `the ${label} tab did not close`, (tabs) => !tabs.includes(label) && !tabs.includes(`${label} (preview)`));
}

/** Waits until the window shows the panel's form whole (wholeView); a move loads the page again, so the frame is found each time. */
async function waitForWholeView(page: Page, after: string): Promise<void> {
  const deadline = Date.now() + patience(15_000);
  for (;;) {
    const seen = await findPanelFrame(page, 20_000).then((frame) => wholeView(page, frame)).catch((error: unknown) => ({ whole: false, covered: [String(error).split('\n')[0]!] }));
    if (seen.whole) return;
    if (Date.now() > deadline) throw new Error(`after ${after}, the inspector is not wholly on screen at 600 px: ${JSON.stringify(seen.covered)}`);
    await page.waitForTimeout(250);
  }
}

interface WholeView {
  readonly whole: boolean;
  /** What the window shows, where it is not the inspector, at the points probed. */
  readonly covered: readonly string[];
}

// Only inside page.evaluate, which runs in the window.
declare const document: { elementFromPoint(x: number, y: number): { tagName: string; className: unknown } | null };

/** Controls of the form whose whole width must show: the input and the first selects. */
const FORM_CONTROLS = ['#bi-input', '#bi-root', '#bi-tool', '#bi-platform'];

/**
 * Whether the window shows the panel's whole width: where each form control starts and ends,
 * what is drawn is the webview's frame (not a side bar over it, not nothing).
 */
async function wholeView(page: Page, panel: Frame): Promise<WholeView> {
  const element = await (panel.parentFrame() ?? panel).frameElement();
  const frameBox = await element.boundingBox();
  if (frameBox === null) return { whole: false, covered: ['the frame has no box'] };
  // Across the frame's middle, whatever the page's scroll: where each control starts and ends.
  // (The frame's own edge may sit a few pixels under the side bar: at 600 px the editor area is
  // narrower than a group's least width, and the panel's padding is what goes under.)
  const y = frameBox.y + frameBox.height / 2;
  const points: { x: number; y: number; what: string }[] = [];
  for (const selector of FORM_CONTROLS) {
    const box = await panel.locator(selector).boundingBox();
    if (box === null) return { whole: false, covered: [`${selector} has no box`] };
    points.push({ x: box.x + 2, y, what: `${selector}'s left end` }, { x: box.x + box.width - 2, y, what: `${selector}'s right end` });
  }
  const covered = (await page.evaluate(({ frame, points }) => points.map(({ x, y, what }) => {
    const hit = document.elementFromPoint(x, y);
    return hit === frame ? '' : `${what} at ${Math.round(x)},${Math.round(y)}: ${hit === null ? 'nothing (off the window)' : `${hit.tagName.toLowerCase()}.${String(hit.className).split(' ').slice(0, 2).join('.')}`}`;
  }), { frame: element, points })).filter((hit) => hit !== '');
  return { whole: covered.length === 0, covered };
}
