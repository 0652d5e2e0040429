/**
 * How the inspector looks and reads, checked in the real webview: contrast of every text drawn in
 * a status colour (measured in the page, in light, dark and high-contrast themes), a narrow panel,
 * the stage table's unchanged rows and its "Hide unchanged stages" box, and the trace history.
 * Each check leaves the editor as it found it (theme, window size, side bar, panel options).
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { REPO, type Log } from '../../scripts/vscode-env';
import { STAGES } from '../../src/core/types';
import { patience } from '../patience';
import { exactly, runFromPalette, traceInput } from './workbench';

type Check = (name: string, body: (frame: Frame) => Promise<void>) => Promise<void>;

/** WCAG 2 AA: text 4.5:1; icons and borders (non-text) 3:1. */
const TEXT_RATIO = 4.5;
const ICON_RATIO = 3;

interface Target {
  readonly label: string;
  readonly selector: string;
  /** Icons and generated labels hold no text node of their own. */
  readonly glyph?: boolean;
  readonly min: number;
}

/** Every text the panel draws in a status colour (and the muted texts beside them). */
const TARGETS: readonly Target[] = [
  { label: 'verdict headline INSIDE', selector: '#bi-verdict.verdict-inside:not(.verdict-missing) .verdict-headline strong', min: TEXT_RATIO },
  { label: 'verdict icon INSIDE', selector: '#bi-verdict.verdict-inside:not(.verdict-missing) .verdict-headline .codicon', glyph: true, min: ICON_RATIO },
  { label: 'verdict headline INSIDE, nothing there', selector: '#bi-verdict.verdict-missing .verdict-headline strong', min: TEXT_RATIO },
  { label: 'verdict icon INSIDE, nothing there', selector: '#bi-verdict.verdict-missing .verdict-headline .codicon', glyph: true, min: ICON_RATIO },
  { label: 'verdict headline OUTSIDE', selector: '#bi-verdict.verdict-outside .verdict-headline strong', min: TEXT_RATIO },
  { label: 'verdict icon OUTSIDE', selector: '#bi-verdict.verdict-outside .verdict-headline .codicon', glyph: true, min: ICON_RATIO },
  { label: 'verdict headline REFUSED', selector: '#bi-verdict.verdict-refused .verdict-headline strong', min: TEXT_RATIO },
  { label: 'verdict icon REFUSED', selector: '#bi-verdict.verdict-refused .verdict-headline .codicon', glyph: true, min: ICON_RATIO },
  { label: 'verdict hint', selector: '#bi-verdict.verdict-hint .verdict-reason', min: TEXT_RATIO },
  { label: 'stage status word pass', selector: '#bi-stages tr[data-status="pass"] .status-word', min: TEXT_RATIO },
  { label: 'stage status word note', selector: '#bi-stages tr[data-status="note"] .status-word', min: TEXT_RATIO },
  { label: 'stage status word skip', selector: '#bi-stages tr[data-status="skip"] .status-word', min: TEXT_RATIO },
  { label: 'stage status word refuse', selector: '#bi-stages tr[data-status="refuse"] .status-word', min: TEXT_RATIO },
  { label: 'stage status icon pass', selector: '#bi-stages tr[data-status="pass"] .status .codicon', glyph: true, min: ICON_RATIO },
  { label: 'stage status icon note', selector: '#bi-stages tr[data-status="note"] .status .codicon', glyph: true, min: ICON_RATIO },
  { label: 'stage status icon skip', selector: '#bi-stages tr[data-status="skip"] .status .codicon', glyph: true, min: ICON_RATIO },
  { label: 'stage status icon refuse', selector: '#bi-stages tr[data-status="refuse"] .status .codicon', glyph: true, min: ICON_RATIO },
  { label: 'stage name, quiet row', selector: '#bi-stages tr.quiet th', min: TEXT_RATIO },
  { label: 'stage "unchanged" label', selector: '#bi-stages td.unchanged', glyph: true, min: TEXT_RATIO },
  { label: 'stage del mark', selector: '#bi-stages del', min: TEXT_RATIO },
  { label: 'stage ins mark', selector: '#bi-stages ins', min: TEXT_RATIO },
  { label: 'refusal code-outside', selector: '.code-outside', min: TEXT_RATIO },
  { label: 'refusal code-refused', selector: '.code-refused', min: TEXT_RATIO },
  { label: 'refusal code-missing', selector: '.code-missing', min: TEXT_RATIO },
  { label: 'refusal-event "not found"', selector: '.refusal-event', min: TEXT_RATIO },
  { label: 'audit finding kind', selector: '.finding-kind', min: TEXT_RATIO },
  { label: 'unicode-form label', selector: '.unicode-form', min: TEXT_RATIO },
  { label: 'layer name', selector: '.layer strong', min: TEXT_RATIO },
  { label: 'server note code (a root not granted)', selector: '#bi-verdict .verdict-server .code', min: TEXT_RATIO },
  { label: '"Run on the server": why it is off', selector: '#bi-run-why', min: TEXT_RATIO },
];

interface Measured {
  readonly label: string;
  readonly text: string;
  readonly colour: readonly number[];
  readonly background: readonly number[];
  readonly ratio: number;
}

/**
 * Contrast of each target, measured from computed styles: the text colour drawn over the
 * element's own background and those of its ancestors (up to the first opaque one), composited
 * on a canvas exactly as the page paints them, then WCAG's relative luminance of each.
 * A string, not a function: tsx's keepNames helper does not exist in the page.
 */
function contrastScript(targets: readonly Target[]): string {
  return `(() => {
  const targets = ${JSON.stringify(targets)};
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const alphaOf = (colour) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = '#000';
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, 1, 1);
    return ctx.getImageData(0, 0, 1, 1).data[3];
  };
  const paint = (layers) => {
    ctx.clearRect(0, 0, 1, 1);
    for (const colour of layers) {
      ctx.fillStyle = '#000';
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, 1, 1);
    }
    return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
  };
  const backgrounds = (element) => {
    const layers = [];
    for (let node = element; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      const alpha = alphaOf(colour);
      if (alpha > 0) layers.unshift(colour);
      if (alpha === 255) return layers;
    }
    layers.unshift('#ffffff');
    return layers;
  };
  const channel = (value) => {
    const c = value / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1 && getComputedStyle(element).visibility !== 'hidden' && !element.closest('[hidden]');
  };
  const found = [];
  for (const target of targets) {
    for (const element of Array.from(document.querySelectorAll(target.selector)).slice(0, 40)) {
      if (!shown(element)) continue;
      const text = (element.textContent ?? '').replace(/\\s+/g, ' ').trim();
      if (!target.glyph && text === '') continue;
      const layers = backgrounds(element);
      const background = paint(layers);
      const colour = paint([...layers, getComputedStyle(element).color]);
      const [light, dark] = [luminance(colour), luminance(background)].sort((a, b) => b - a);
      found.push({ label: target.label, text: text.slice(0, 40), colour, background, ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100 });
    }
  }
  return found;
})()`;
}

const hex = (rgb: readonly number[]) => `#${rgb.map((value) => value.toString(16).padStart(2, '0')).join('')}`;

/** What a stage row shows: its cells' text, the text a reader sees in its output cell, its marks. */
const STAGE_ROWS = `Array.from(document.querySelectorAll('#bi-stages tbody tr[data-stage]'), (row) => {
  const cells = Array.from(row.children);
  // The text a reader sees: each text node's box, cut by the ancestors that clip it (a visually hidden span).
  const visibleText = (cell) => {
    if (!cell) return '';
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let text = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      let { left, right, top, bottom } = range.getBoundingClientRect();
      for (let parent = node.parentElement; parent && parent !== cell.parentElement; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible' && style.clipPath === 'none') continue;
        const box = parent.getBoundingClientRect();
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
        top = Math.max(top, box.top);
        bottom = Math.min(bottom, box.bottom);
      }
      if (right - left > 1 && bottom - top > 1) text += node.textContent;
    }
    return text.trim();
  };
  // The height of what a cell holds (a cell itself is as tall as its row).
  const contentHeight = (cell) => {
    if (!cell) return 0;
    const range = document.createRange();
    range.selectNodeContents(cell);
    return range.getBoundingClientRect().height;
  };
  // Words the stylesheet draws (::before) in the cell and in its children.
  const before = (cell) => (cell ? [cell, ...cell.querySelectorAll('*')].map((element) => getComputedStyle(element, '::before').content).filter((content) => content !== 'none' && content !== 'normal').join(' ') : '');
  return {
    stage: row.dataset.stage,
    status: row.dataset.status,
    quiet: row.classList.contains('quiet'),
    deciding: row.classList.contains('deciding'),
    displayed: row.getClientRects().length > 0,
    input: (cells[2]?.textContent ?? '').trim(),
    output: (cells[3]?.textContent ?? '').trim(),
    inputVisible: visibleText(cells[2]),
    outputVisible: visibleText(cells[3]),
    inputBefore: before(cells[2]),
    inputTitle: cells[2]?.getAttribute('title') ?? '',
    outputBefore: before(cells[3]),
    outputTitle: cells[3]?.getAttribute('title') ?? '',
    outputClass: cells[3]?.className ?? '',
    inputHeight: contentHeight(cells[2]),
    outputHeight: contentHeight(cells[3]),
    note: (cells[5]?.textContent ?? '').trim(),
    marks: row.querySelectorAll('del, ins').length,
  };
})`;

interface StageRow {
  readonly stage: string;
  readonly status: string;
  readonly quiet: boolean;
  readonly deciding: boolean;
  readonly displayed: boolean;
  readonly input: string;
  readonly output: string;
  readonly inputVisible: string;
  readonly outputVisible: string;
  readonly inputBefore: string;
  readonly inputTitle: string;
  readonly outputBefore: string;
  readonly outputTitle: string;
  readonly outputClass: string;
  readonly inputHeight: number;
  readonly outputHeight: number;
  readonly note: string;
  readonly marks: number;
}

interface Shown {
  readonly input: string;
  readonly verdictClass: string;
  readonly verdictText: string;
  readonly rows: readonly StageRow[];
}

const SHOWN = `(() => ({
  input: document.getElementById('bi-input')?.value ?? '',
  verdictClass: document.getElementById('bi-verdict')?.className ?? '',
  verdictText: (document.getElementById('bi-verdict')?.textContent ?? '').replace(/\\s+/g, ' ').trim(),
  rows: ${STAGE_ROWS},
}))()`;

async function shownNow(frame: Frame): Promise<Shown> {
  return (await frame.evaluate(SHOWN)) as Shown;
}

async function poll<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeout = 15_000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}; last seen ${JSON.stringify(value, null, 1).slice(0, 1500)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const hasClass = (classes: string, name: string) => classes.split(/\s+/).includes(name);

/** Waits until the panel shows the trace of `input` (its parse row reads it). */
async function waitForTrace(frame: Frame, input: string, accept: (shown: Shown) => boolean = () => true): Promise<Shown> {
  return poll(`the panel did not show the trace of ${JSON.stringify(input)}`, () => shownNow(frame), (shown) =>
    shown.input === input && (input === '' || shown.rows.find((row) => row.stage === 'parse')?.input === input) && accept(shown));
}

type ThemeKind = 'vscode-light' | 'vscode-dark' | 'vscode-high-contrast' | 'vscode-high-contrast-light';

/**
 * Picks a colour theme with "Preferences: Color Theme", the first of `names` the picker offers,
 * and waits until the webview has it. Returns the theme that was active before (the row the
 * picker opens on) and the one chosen.
 */
async function pickColourTheme(page: Page, frameOf: () => Promise<Frame>, names: readonly string[], kind: ThemeKind): Promise<{ previous: string | null; chosen: string }> {
  await runFromPalette(page, 'Preferences: Color Theme');
  const box = page.locator('.quick-input-widget input');
  await box.waitFor({ state: 'visible', timeout: patience(10_000) });
  const focused = page.locator('.quick-input-widget .monaco-list-row.focused .label-name').first();
  const previous = await focused.textContent({ timeout: patience(5_000) }).then((text) => text?.trim() ?? null, () => null);
  for (const name of names) {
    await box.fill(name);
    const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactly(name) }) }).first();
    if (!(await row.waitFor({ state: 'visible', timeout: patience(3_000) }).then(() => true, () => false))) continue;
    await row.click();
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: patience(10_000) }).catch(() => undefined);
    const frame = await frameOf();
    await poll(`the webview did not take the theme ${name}`, () => frame.evaluate('document.body.className') as Promise<string>, (classes) => hasClass(classes, kind));
    // The theme's variables arrive with the class; let one frame paint them.
    await page.waitForTimeout(300);
    return { previous, chosen: name };
  }
  await page.keyboard.press('Escape');
  throw new Error(`the colour theme picker offers none of ${names.join(', ')}`);
}

/** The name of the active colour theme: the row the picker opens on. */
async function activeColourTheme(page: Page): Promise<string | null> {
  await runFromPalette(page, 'Preferences: Color Theme');
  const focused = page.locator('.quick-input-widget .monaco-list-row.focused .label-name').first();
  const name = await focused.textContent({ timeout: patience(5_000) }).then((text) => text?.trim() ?? null, () => null);
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: patience(10_000) }).catch(() => undefined);
  return name;
}

/** Picks the theme named exactly `name` again (the one active before a check). */
async function restoreColourTheme(page: Page, name: string): Promise<void> {
  await runFromPalette(page, 'Preferences: Color Theme');
  const box = page.locator('.quick-input-widget input');
  await box.fill(name);
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactly(name) }) }).first();
  await row.click({ timeout: patience(10_000) });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: patience(10_000) }).catch(() => undefined);
  await page.waitForTimeout(300);
}

/** The workspace folder the root picker offers first: the suite's demo notes folder. */
async function workspaceRoot(frame: Frame): Promise<string> {
  const value = (await frame.evaluate(`Array.from(document.querySelectorAll('#bi-root option'), (option) => option.value).find((value) => value.startsWith('file:')) ?? ''`)) as string;
  if (value === '') throw new Error('the root picker offers no workspace folder');
  return value;
}

/** A root typed in ("Other…"), not one of the workspace folders. */
async function chooseCustomRoot(frame: Frame, root: string): Promise<void> {
  await frame.selectOption('#bi-root', '__custom__');
  await frame.fill('#bi-root-custom', root);
}

/** Linux (this machine), the workspace folder, read_text_file, every stage shown. */
async function plainSettings(frame: Frame): Promise<string> {
  const root = await workspaceRoot(frame);
  await frame.selectOption('#bi-platform', 'linux');
  await frame.selectOption('#bi-root', root);
  await frame.selectOption('#bi-tool', 'read_text_file');
  await frame.selectOption('#bi-case', 'auto');
  const hide = frame.locator('#bi-hide-unchanged');
  if ((await hide.count()) > 0 && (await hide.isChecked())) await hide.uncheck();
  return root;
}

async function countOf(frame: Frame, selector: string): Promise<number> {
  return (await frame.evaluate(`document.querySelectorAll(${JSON.stringify(selector)}).length`)) as number;
}

export async function runLookChecks(
  page: Page,
  frameOf: () => Promise<Frame>,
  check: Check,
  options: { log: Log; screenshotDir: string },
): Promise<void> {
  const { log } = options;
  const shot = async (name: string) => {
    mkdirSync(options.screenshotDir, { recursive: true });
    const file = path.join(options.screenshotDir, name);
    await page.screenshot({ path: file }).catch(() => undefined);
    log(`ui: screenshot ${path.relative(REPO, file)}`);
  };

  /** What the lists must hold to be measured: an audit, and a refusal of each kind in the log. */
  const fillLists = async (frame: Frame) => {
    if ((await countOf(frame, '.finding-kind')) === 0) {
      await frame.click('#bi-audit-run');
      await poll('the audit listed no finding', () => countOf(frame, '.finding-kind'), (count) => count > 0, 60_000);
    }
    const runs: readonly [string, string][] = [
      ['.refusal .code-outside', 'src/../../look-outside.txt'],
      ['.refusal .code-refused', 'file://look-host/x.txt'],
      ['.refusal .code-missing', 'look-missing.txt'],
    ];
    for (const [selector, input] of runs) {
      if ((await countOf(frame, selector)) > 0) continue;
      await traceInput(frame, input);
      await waitForTrace(frame, input);
      await poll('"Run on the server" stays disabled', () => frame.evaluate("document.getElementById('bi-run')?.disabled ?? true") as Promise<boolean>, (disabled) => !disabled);
      await frame.click('#bi-run');
      await poll(`the refusal list has no ${selector} after running ${input}`, () => countOf(frame, selector), (count) => count > 0, 30_000);
    }
  };

  /** Measures every target over the traces that show them: the worst ratio per text. */
  const measureAll = async (frame: Frame, theme: string): Promise<Map<string, Measured>> => {
    const root = await plainSettings(frame);
    await fillLists(frame);
    const worst = new Map<string, Measured>();
    const measure = async () => {
      for (const found of (await frame.evaluate(contrastScript(TARGETS))) as Measured[]) {
        const before = worst.get(found.label);
        if (before === undefined || found.ratio < before.ratio) worst.set(found.label, found);
      }
    };
    // Inside, with a decoded escape (marks in both cells); nothing there; outside; refused; a name in NFD; nothing typed.
    const scenes: readonly [string, (shown: Shown) => boolean][] = [
      [`${root}/h%65llo.txt`, (shown) => hasClass(shown.verdictClass, 'verdict-inside')],
      ['look-nothing-here-yet.txt', (shown) => hasClass(shown.verdictClass, 'verdict-inside')],
      ['src/../../look-secret.txt', (shown) => hasClass(shown.verdictClass, 'verdict-outside')],
      ['file://look-host/x.txt', (shown) => hasClass(shown.verdictClass, 'verdict-refused')],
      ['cafe\u0301-look.txt', (shown) => hasClass(shown.verdictClass, 'verdict-inside')],
    ];
    const name = theme.replace(/\W+/g, '-').toLowerCase();
    for (const [input, accept] of scenes) {
      await traceInput(frame, input);
      await waitForTrace(frame, input, accept);
      await measure();
      if (input === 'look-nothing-here-yet.txt') {
        await frame.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
        await shot(`look-${name}-trace.png`);
      }
    }
    await frame.evaluate("document.getElementById('bi-refusals')?.scrollIntoView({ block: 'start' })");
    await shot(`look-${name}-lists.png`);
    // A root not granted (the sibling beside the workspace): the server's refusal under the verdict, and why "Run on the server" is off.
    await chooseCustomRoot(frame, `${root}-evil`);
    await traceInput(frame, 'secret.md');
    await waitForTrace(frame, 'secret.md', (shown) => hasClass(shown.verdictClass, 'verdict-server-refuses'));
    await measure();
    await frame.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
    await shot(`look-${name}-not-granted.png`);
    await frame.selectOption('#bi-root', root);
    await frame.evaluate("document.getElementById('bi-grants-title')?.scrollIntoView({ block: 'start' })");
    await shot(`look-${name}-protection.png`);
    await traceInput(frame, '');
    await poll('the empty input did not show the hint', () => shownNow(frame), (shown) => hasClass(shown.verdictClass, 'verdict-hint'));
    await measure();
    return worst;
  };

  const report = (theme: string, worst: Map<string, Measured>) => {
    for (const target of TARGETS) {
      const found = worst.get(target.label);
      log(found === undefined
        ? `ui:      ${theme}: ${target.label}: not on screen`
        : `ui:      ${theme}: ${target.label}: ${found.ratio}:1 (${hex(found.colour)} on ${hex(found.background)}, "${found.text}")`);
    }
    const failures = TARGETS.flatMap((target) => {
      const found = worst.get(target.label);
      if (found === undefined) return [`${target.label}: not found on screen`];
      return found.ratio < target.min ? [`${target.label}: ${found.ratio}:1 < ${target.min}:1 (${hex(found.colour)} on ${hex(found.background)})`] : [];
    });
    if (failures.length > 0) throw new Error(`${theme}: ${failures.join('; ')}`);
  };

  const themes: readonly { readonly title: string; readonly names: readonly string[]; readonly kind: ThemeKind }[] = [
    { title: 'a light theme', names: ['Light Modern', 'Light+', 'Light (Visual Studio)'], kind: 'vscode-light' },
    { title: 'the dark theme', names: ['Dark Modern', 'Dark+', 'Dark (Visual Studio)'], kind: 'vscode-dark' },
    { title: 'the dark high-contrast theme', names: ['Dark High Contrast'], kind: 'vscode-high-contrast' },
    { title: 'the light high-contrast theme', names: ['Light High Contrast'], kind: 'vscode-high-contrast-light' },
  ];
  await check(`look: in the colour theme the editor started with, every text drawn in a status colour reaches ${TEXT_RATIO}:1 against its background (icons ${ICON_RATIO}:1)`, async (frame) => {
    const name = (await activeColourTheme(page)) ?? 'the active theme';
    log(`ui:      colour theme ${name} (${(await frame.evaluate('document.body.className')) as string})`);
    report(name, await measureAll(frame, name));
  });
  for (const theme of themes) {
    await check(`look: in ${theme.title}, every text drawn in a status colour reaches ${TEXT_RATIO}:1 against its background (icons ${ICON_RATIO}:1)`, async () => {
      const { previous, chosen } = await pickColourTheme(page, frameOf, theme.names, theme.kind);
      log(`ui:      colour theme ${chosen}, ${previous === null ? 'the one before unknown: it stays' : `${previous} again afterwards`}`);
      try {
        report(chosen, await measureAll(await frameOf(), chosen));
      } finally {
        if (previous !== null && previous !== chosen) await restoreColourTheme(page, previous);
      }
    });
  }

  await check('look: at 600x800 with the primary side bar open, the panel has no horizontal scrollbar and every select is fully visible', async () => {
    const viewport = page.viewportSize();
    const sidebar = page.locator('.part.sidebar').first();
    const sidebarWasOpen = await sidebar.isVisible().catch(() => false);
    await page.setViewportSize({ width: 600, height: 800 });
    try {
      if (!sidebarWasOpen) await runFromPalette(page, 'View: Toggle Primary Side Bar Visibility');
      await sidebar.waitFor({ state: 'visible', timeout: patience(10_000) });
      const frame = await frameOf();
      const root = await plainSettings(frame);
      // Against a root not granted, so that the server's refusal and why "Run on the server" is off are drawn too.
      await chooseCustomRoot(frame, `${root}-evil`);
      // A long path with a name in NFD: the stage table, the Unicode table and the verdict's facts all hold it.
      const input = `${'a-rather-long-folder-name/'.repeat(6)}cafe\u0301.txt`;
      await traceInput(frame, input);
      await waitForTrace(frame, input);
      const width = await poll('the panel did not get narrow', () => frame.evaluate('document.documentElement.clientWidth') as Promise<number>, (clientWidth) => clientWidth < 320);
      await page.waitForTimeout(300);
      const layout = (await frame.evaluate(`(() => {
        const root = document.documentElement;
        const width = root.clientWidth;
        const visible = (element) => {
          const box = element.getBoundingClientRect();
          return box.width > 1 && box.height > 1 && !element.closest('[hidden]') && getComputedStyle(element).visibility !== 'hidden';
        };
        const describe = (element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (typeof element.className === 'string' && element.className ? '.' + element.className.trim().split(/\\s+/).join('.') : '');
        // What is drawn of an element or a text: its box, cut by the ancestors that clip their content.
        const drawn = (node) => {
          const range = node.nodeType === Node.TEXT_NODE ? document.createRange() : null;
          range?.selectNodeContents(node);
          let { left, right } = (range ?? node).getBoundingClientRect();
          for (let parent = node.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
            const style = getComputedStyle(parent);
            if (style.overflowX !== 'visible' || style.clipPath !== 'none') {
              const box = parent.getBoundingClientRect();
              left = Math.max(left, box.left);
              right = Math.min(right, box.right);
            }
          }
          return { left, right };
        };
        const outside = (node) => {
          const { left, right } = drawn(node);
          return right > left && (right > width + 0.5 || left < -0.5);
        };
        const beyond = Array.from(document.body.querySelectorAll('*')).filter(visible).filter(outside)
          .map((element) => describe(element) + ' ' + Math.round(drawn(element).left) + '..' + Math.round(drawn(element).right));
        // A word too long for its line overflows its element's box without moving the box.
        const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let text = texts.nextNode(); text; text = texts.nextNode()) {
          if (text.textContent.trim() !== '' && text.parentElement && visible(text.parentElement) && outside(text)) {
            beyond.push('text in ' + describe(text.parentElement) + ' ' + Math.round(drawn(text).left) + '..' + Math.round(drawn(text).right) + ' "' + text.textContent.slice(0, 40) + '"');
          }
        }
        const selects = Array.from(document.querySelectorAll('select')).filter(visible).map((select) => {
          const box = select.getBoundingClientRect();
          return { id: select.id, left: box.left, right: box.right, inside: box.left >= -0.5 && box.right <= width + 0.5 };
        });
        const wide = Array.from(document.body.querySelectorAll('*')).filter((element) => element.getBoundingClientRect().right > width + 0.5).map((element) => describe(element) + ' ' + Math.round(element.getBoundingClientRect().left) + '..' + Math.round(element.getBoundingClientRect().right));
        return { wide: wide.slice(0, 12), width, scrollWidth: root.scrollWidth, bodyScrollWidth: document.body.scrollWidth, beyond: beyond.slice(0, 12), selects, stageRows: document.querySelectorAll('#bi-stages tbody tr').length, table: getComputedStyle(document.querySelector('#bi-stages tbody tr') ?? document.body).display };
      })()`)) as { wide: string[]; width: number; scrollWidth: number; bodyScrollWidth: number; beyond: string[]; selects: { id: string; left: number; right: number; inside: boolean }[]; stageRows: number; table: string };
      log(`ui:      narrow panel: ${width} px wide, scrollWidth ${layout.scrollWidth}, stage rows drawn as ${layout.table}`);
      await frame.evaluate('window.scrollTo(0, 0)');
      await shot('look-narrow.png');
      await frame.evaluate("document.getElementById('bi-grants-title')?.scrollIntoView({ block: 'start' })");
      await shot('look-narrow-protection.png');
      await frame.selectOption('#bi-root', root);
      if (layout.scrollWidth > layout.width) throw new Error(`the page is ${layout.scrollWidth} px wide in a ${layout.width} px panel (a horizontal scrollbar); past the edge: ${[...layout.beyond, ...layout.wide].join(', ')}`);
      if (layout.beyond.length > 0) throw new Error(`elements reach past the panel's ${layout.width} px: ${layout.beyond.join(', ')}`);
      if (layout.selects.length < 5) throw new Error(`only ${layout.selects.length} selects are visible: ${JSON.stringify(layout.selects)}`);
      const cut = layout.selects.filter((select) => !select.inside);
      if (cut.length > 0) throw new Error(`selects cut off at ${layout.width} px: ${JSON.stringify(cut)}`);
      if (layout.stageRows !== STAGES.length) throw new Error(`the stage table has ${layout.stageRows} rows`);
    } finally {
      if (!sidebarWasOpen) await runFromPalette(page, 'View: Toggle Primary Side Bar Visibility').catch((error: unknown) => log(`ui: could not close the side bar again: ${String(error).split('\n')[0]}`));
      if (viewport) await page.setViewportSize(viewport);
      await page.waitForTimeout(300);
    }
  });

  await check('look: a stage that changed nothing shows its text once ("unchanged", and "as above" for a quiet row\'s input that the row above shows; the full text on hover), a stage that changed keeps its marks', async (frame) => {
    await plainSettings(frame);
    const input = `${'deep-folder/'.repeat(16)}look-file.txt`;
    await traceInput(frame, input);
    const shown = await waitForTrace(frame, input);
    const unchanged = shown.rows.filter((row) => row.stage !== 'containment' && row.output === row.input);
    const changed = shown.rows.filter((row) => row.stage !== 'containment' && row.output !== '' && row.output !== row.input);
    if (unchanged.length < 3) throw new Error(`expected at least three stages that leave ${input} as it is: ${JSON.stringify(shown.rows.map((row) => [row.stage, row.input, row.output]))}`);
    for (const row of unchanged) {
      if (row.outputVisible.includes('look-file.txt')) throw new Error(`the ${row.stage} row shows its unchanged text twice: its output cell reads ${JSON.stringify(row.outputVisible)}`);
      if (!/unchanged/.test(row.outputBefore + row.outputVisible)) throw new Error(`the ${row.stage} row's output cell does not say "unchanged" (${JSON.stringify(row.outputVisible)}, ::before ${row.outputBefore})`);
      if (row.outputTitle !== row.input) throw new Error(`the ${row.stage} row's output cell does not give the full text on hover: title ${JSON.stringify(row.outputTitle)}`);
      if (row.status === 'pass' && !row.deciding && !row.quiet) throw new Error(`the ${row.stage} row passed without a change but is not drawn quietly`);
      const above = shown.rows[shown.rows.indexOf(row) - 1];
      if (row.quiet && above !== undefined && (above.input === row.input || above.output === row.input)) {
        // The row above drew this text already.
        if (row.inputVisible.includes('look-file.txt')) throw new Error(`the ${row.stage} row draws again the input the ${above.stage} row shows: ${JSON.stringify(row.inputVisible)}`);
        if (!/as above/.test(row.inputBefore + row.inputVisible)) throw new Error(`the ${row.stage} row's input cell does not say "as above" (${JSON.stringify(row.inputVisible)}, ::before ${row.inputBefore})`);
        if (row.inputTitle !== row.input) throw new Error(`the ${row.stage} row's input cell does not give the full text on hover: title ${JSON.stringify(row.inputTitle)}`);
      } else {
        if (!row.inputVisible.includes('look-file.txt')) throw new Error(`the ${row.stage} row does not show its input: ${JSON.stringify(row.inputVisible)}`);
        if (row.outputHeight >= row.inputHeight) throw new Error(`the ${row.stage} row's "unchanged" cell holds as much as its input (${row.outputHeight} >= ${row.inputHeight} px)`);
      }
    }
    if (changed.length === 0) throw new Error('no stage changed the relative path (normalise should add the root)');
    for (const row of changed) {
      if (row.marks === 0) throw new Error(`the ${row.stage} row changed ${JSON.stringify(row.input)} into ${JSON.stringify(row.output)} without a mark`);
    }
  });

  await check('look: the refusals row continues from parse (its input is what parse gave), and the case row is a comparison key, not a rewrite', async (frame) => {
    const root = await plainSettings(frame);
    const input = `${root}/look-sub/%2e%2e/hello.txt`;
    await traceInput(frame, input);
    const shown = await waitForTrace(frame, input, (shown) => hasClass(shown.verdictClass, 'verdict-inside'));
    const row = (stage: string) => {
      const found = shown.rows.find((candidate) => candidate.stage === stage);
      if (found === undefined) throw new Error(`no ${stage} row`);
      return found;
    };
    if (row('parse').output === row('parse').input) throw new Error('parse did not resolve the dot-dot, the check cannot tell');
    if (row('refusals').input !== row('parse').output) throw new Error(`the refusals row's input ${JSON.stringify(row('refusals').input)} is not parse's output ${JSON.stringify(row('parse').output)}`);
    if (!/as sent/.test(row('refusals').note)) throw new Error(`the refusals row does not say it judged the text as sent: ${JSON.stringify(row('refusals').note)}`);
    // The case stage on win32 upper-cases a comparison key.
    const winInput = 'file:///c%3A/Users/dev/app/src/look.ts';
    await frame.selectOption('#bi-platform', 'win32');
    await frame.selectOption('#bi-root', '__custom__');
    await frame.fill('#bi-root-custom', 'file:///c%3A/Users/dev/app');
    try {
      await traceInput(frame, winInput);
      const win = await waitForTrace(frame, winInput, (shown) => hasClass(shown.verdictClass, 'verdict-inside'));
      const caseRow = win.rows.find((candidate) => candidate.stage === 'case');
      const realpathRow = win.rows.find((candidate) => candidate.stage === 'realpath');
      if (caseRow === undefined || realpathRow === undefined) throw new Error('no case or realpath row');
      if (caseRow.output !== caseRow.input.toUpperCase() || caseRow.output === caseRow.input) throw new Error(`the case row's key is ${JSON.stringify(caseRow.output)} for ${JSON.stringify(caseRow.input)}`);
      if (caseRow.marks > 0) throw new Error(`the case row marks ${caseRow.marks} changes, as if the path were rewritten`);
      if (!/compared as/.test(caseRow.outputBefore + caseRow.outputVisible)) throw new Error(`the case row does not say its output is a comparison key: ${JSON.stringify(caseRow.outputVisible)}, ::before ${caseRow.outputBefore}`);
      if (realpathRow.input !== caseRow.input) throw new Error(`realpath's input ${JSON.stringify(realpathRow.input)} is not the path the case row compared (${JSON.stringify(caseRow.input)})`);
    } finally {
      await plainSettings(frame);
    }
  });

  await check('look: a missing file reads "INSIDE — nothing there yet", styled apart from a plain INSIDE', async (frame) => {
    await plainSettings(frame);
    await traceInput(frame, 'hello.txt');
    await waitForTrace(frame, 'hello.txt', (shown) => hasClass(shown.verdictClass, 'verdict-inside'));
    const plain = (await frame.evaluate(`(() => { const v = document.getElementById('bi-verdict'); const h = v.querySelector('.verdict-headline'); return { className: v.className, border: getComputedStyle(v).borderLeftColor, colour: getComputedStyle(h).color, icon: h.querySelector('.codicon')?.className ?? '' }; })()`)) as { className: string; border: string; colour: string; icon: string };
    if (hasClass(plain.className, 'verdict-missing')) throw new Error('an existing file is marked missing');
    const input = 'look-not-there-yet.txt';
    await traceInput(frame, input);
    const missing = await waitForTrace(frame, input, (shown) => hasClass(shown.verdictClass, 'verdict-inside'));
    if (!hasClass(missing.verdictClass, 'verdict-missing')) throw new Error(`the verdict of a missing file has the classes ${missing.verdictClass}`);
    if (!missing.verdictText.includes('INSIDE — nothing there yet')) throw new Error(`the verdict reads ${JSON.stringify(missing.verdictText.slice(0, 120))}`);
    const looks = (await frame.evaluate(`(() => { const v = document.getElementById('bi-verdict'); const h = v.querySelector('.verdict-headline'); return { border: getComputedStyle(v).borderLeftColor, colour: getComputedStyle(h).color, icon: h.querySelector('.codicon')?.className ?? '' }; })()`)) as { border: string; colour: string; icon: string };
    if (looks.border === plain.border || looks.icon === plain.icon) throw new Error(`"nothing there" looks like a plain INSIDE: border ${looks.border} vs ${plain.border}, icon ${looks.icon} vs ${plain.icon}`);
  });

  await check('look: "Hide unchanged stages" hides the quiet rows (never the deciding one) and is kept when the webview reloads', async (current) => {
    await plainSettings(current);
    const input = 'look-hide/../hello.txt';
    await traceInput(current, input);
    const before = await waitForTrace(current, input);
    const quiet = before.rows.filter((row) => row.quiet).map((row) => row.stage);
    if (quiet.length === 0) throw new Error('no quiet row to hide');
    if (!before.rows.every((row) => row.displayed)) throw new Error('rows are hidden with the box unchecked');
    const box = current.getByRole('checkbox', { name: 'Hide unchanged stages' });
    await box.check();
    const hiddenRows = (shown: Shown) => shown.rows.every((row) => row.displayed === !row.quiet) && shown.rows.some((row) => row.deciding && row.displayed);
    await poll('checking "Hide unchanged stages" did not hide exactly the quiet rows', () => shownNow(current), hiddenRows);
    await page.locator('.tabs-container .tab.active').first().click();
    await runFromPalette(page, 'Developer: Reload Webviews');
    const deadline = Date.now() + patience(15_000);
    while (!current.isDetached() && Date.now() < deadline) await page.waitForTimeout(150);
    const frame = await frameOf();
    try {
      await waitForTrace(frame, input, hiddenRows);
      if (!(await frame.locator('#bi-hide-unchanged').isChecked())) throw new Error('the reloaded panel forgot "Hide unchanged stages"');
    } finally {
      await frame.locator('#bi-hide-unchanged').uncheck();
    }
    await poll('unchecking did not show every row again', () => shownNow(frame), (shown) => shown.rows.length === STAGES.length && shown.rows.every((row) => row.displayed));
  });

  await check('look: Back and Forward (buttons, Alt+Left and Alt+Right) step through the traced inputs, disabled at the ends, and the history survives a reload', async (current) => {
    await plainSettings(current);
    const back = current.getByRole('button', { name: 'Back', exact: true });
    const forward = current.getByRole('button', { name: 'Forward', exact: true });
    if ((await back.count()) !== 1 || (await forward.count()) !== 1) throw new Error('no buttons named "Back" and "Forward"');
    const [first, second, third] = ['look-history-1.txt', 'look-history-2.txt', 'look-history-3.txt'];
    for (const input of [first, second, third]) {
      await traceInput(current, input);
      await waitForTrace(current, input);
    }
    if (!(await forward.isDisabled())) throw new Error('Forward is enabled at the newest entry');
    await back.click();
    await waitForTrace(current, second);
    await current.locator('#bi-back').press('Alt+ArrowLeft');
    await waitForTrace(current, first);
    if (await forward.isDisabled()) throw new Error('Forward is disabled after going back');
    await forward.click();
    await waitForTrace(current, second);
    // The history and where the panel is in it survive a reload.
    await page.locator('.tabs-container .tab.active').first().click();
    await runFromPalette(page, 'Developer: Reload Webviews');
    const deadline = Date.now() + patience(15_000);
    while (!current.isDetached() && Date.now() < deadline) await page.waitForTimeout(150);
    const frame = await frameOf();
    await waitForTrace(frame, second);
    const reloadedForward = frame.locator('#bi-forward');
    await poll('Forward is disabled after the reload, with an entry ahead', () => reloadedForward.isDisabled(), (disabled) => !disabled);
    await frame.focus('#bi-input');
    await frame.press('#bi-input', 'Alt+ArrowRight');
    await waitForTrace(frame, third);
    if (!(await reloadedForward.isDisabled())) throw new Error('Forward is enabled at the newest entry after the reload');
    // Back to the oldest entry: bounded, and Back is disabled there.
    let steps = 0;
    while (!(await frame.locator('#bi-back').isDisabled()) && steps < 60) {
      await frame.click('#bi-back');
      await poll('Back did not trace its entry', () => frame.evaluate("document.getElementById('bi-stages')?.getAttribute('aria-busy')") as Promise<string | null>, (busy) => busy !== 'true');
      steps += 1;
    }
    log(`ui:      history: ${steps + 1} entries from the oldest to the newest`);
    if (steps > 49) throw new Error(`the history holds more than 50 entries (${steps + 1})`);
    if (steps < 2) throw new Error(`Back went back only ${steps} steps`);
    if (!(await frame.locator('#bi-back').isDisabled())) throw new Error('Back is still enabled at the oldest entry');
    const label = await frame.locator('#bi-back').getAttribute('aria-keyshortcuts');
    if (label === null || !label.includes('Alt+ArrowLeft')) throw new Error(`Back does not announce its shortcut: aria-keyshortcuts ${label}`);
    // Leaves the panel on a fresh entry, Forward disabled again.
    await traceInput(frame, 'hello.txt');
    await waitForTrace(frame, 'hello.txt');
    if (!(await frame.locator('#bi-forward').isDisabled())) throw new Error('a new trace did not drop the entries ahead');
  });
}
