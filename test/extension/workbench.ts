/**
 * Driving the workbench as a person does, for the UI checks: the command palette, a panel's input.
 */
import type { Frame, Page } from 'playwright-core';

/** A pattern matching `text` whole. */
export function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/** The labels of the palette's rendered rows, in list order. */
const PALETTE_LABELS = `(() => Array.from(document.querySelectorAll('.quick-input-widget .monaco-list-row'), (row) => [Number(row.getAttribute('data-index')), (row.querySelector('.label-name')?.textContent ?? '').trim()]).sort((a, b) => a[0] - b[0]).map((row) => row[1]))()`;

/**
 * Runs a command by its title from the command palette. Twice at most: on a busy machine the
 * palette may take the keys before its list is ready. The row is clicked only once two readings
 * of the list agree: the palette fills in late results and draws them into the rows it already
 * has, so a row found for "Developer: Reload Webviews" while the list still changes may be
 * showing "Developer: Reload Window" by the time it is clicked.
 */
export async function runFromPalette(page: Page, title: string): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await page.keyboard.press('F1');
      const palette = page.locator('.quick-input-widget input');
      await palette.waitFor({ state: 'visible', timeout: 10_000 });
      await palette.fill(`>${title}`);
      await settledOn(page, title);
      // The row whose label is the title itself: the best match by the palette's ranking may be a neighbour.
      const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactly(title) }) }).first();
      await row.click({ timeout: 10_000 });
      return;
    } catch (error) {
      lastError = error;
      await page.keyboard.press('Escape');
    }
  }
  throw new Error(`could not run "${title}" from the palette: ${String(lastError).split('\n')[0]}`);
}

/** Waits until the palette lists `title` and two readings of its list, apart, are the same. */
async function settledOn(page: Page, title: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let previous = '';
  for (;;) {
    const labels = (await page.evaluate(PALETTE_LABELS)) as string[];
    const seen = JSON.stringify(labels);
    if (seen === previous && labels.includes(title)) return;
    if (Date.now() > deadline) throw new Error(`the palette did not settle with "${title}" listed: ${seen}`);
    previous = seen;
    await page.waitForTimeout(150);
  }
}

/** Types `input` in the inspector's field and traces it. */
export async function traceInput(frame: Frame, input: string): Promise<void> {
  await frame.fill('#bi-input', input);
  await frame.press('#bi-input', 'Enter');
}
