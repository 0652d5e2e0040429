/**
 * Driving the workbench as a person does, for the UI checks: the command palette, a panel's input.
 */
import type { Frame, Page } from 'playwright-core';

/** A pattern matching `text` whole. */
export function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

/**
 * Runs a command by its title from the command palette. Twice at most: on a busy machine the
 * palette may take the keys before its list is ready.
 */
export async function runFromPalette(page: Page, title: string): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await page.keyboard.press('F1');
      const palette = page.locator('.quick-input-widget input');
      await palette.waitFor({ state: 'visible', timeout: 10_000 });
      await palette.fill(`>${title}`);
      // The row whose label is the title itself: the best match by the palette's ranking may be a neighbour.
      const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactly(title) }) }).first();
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      await row.click();
      return;
    } catch (error) {
      lastError = error;
      await page.keyboard.press('Escape');
    }
  }
  throw new Error(`could not run "${title}" from the palette: ${String(lastError).split('\n')[0]}`);
}

/** Types `input` in the inspector's field and traces it. */
export async function traceInput(frame: Frame, input: string): Promise<void> {
  await frame.fill('#bi-input', input);
  await frame.press('#bi-input', 'Enter');
}
