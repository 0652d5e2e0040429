// The webview's stylesheet keeps only the codicons its sources name: each one the sources name is
// a real codicon, kept; the font and its base rule stay; the other glyph rules go.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '../..');
const codiconCss = readFileSync(path.join(root, 'node_modules', '@vscode', 'codicons', 'dist', 'codicon.css'), 'utf8');

test('every codicon the webview names is one of the font, and only those glyphs are kept', async () => {
  const { subsetCodiconCss, usedCodicons, webviewSources } = await import('../../scripts/codicon-subset.mjs');
  const used: Set<string> = usedCodicons(webviewSources(root));
  const glyphs = new Set([...codiconCss.matchAll(/^\.codicon-([a-z0-9-]+):before/gm)].map((match) => match[1]!));
  // Class names that are not glyphs: the base class's modifiers.
  const unknown = [...used].filter((name) => !glyphs.has(name) && !name.startsWith('modifier'));
  assert.deepEqual(unknown, [], 'named in the webview but not a codicon');
  assert.ok(used.has('pass') && used.has('error'), 'the verdict icons are among them');

  const subset: string = subsetCodiconCss(codiconCss, used);
  const kept = [...subset.matchAll(/^\.codicon-([a-z0-9-]+):before/gm)].map((match) => match[1]!);
  assert.deepEqual(kept.sort(), [...used].filter((name) => glyphs.has(name)).sort());
  assert.match(subset, /@font-face/);
  assert.match(subset, /\.codicon\[class\*='codicon-'\]/);
  assert.ok(subset.length < codiconCss.length / 5, `${subset.length} of ${codiconCss.length} characters kept`);
});
