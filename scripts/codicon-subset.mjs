// The webview draws a dozen codicons out of some six hundred: its stylesheet keeps the font's
// rules and only the glyph rules the webview's sources name.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The codicon names (`codicon-<name>`) written in these files. */
export function usedCodicons(files) {
  const used = new Set();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/codicon-([a-z0-9]+(?:-[a-z0-9]+)*)/g)) used.add(match[1]);
  }
  return used;
}

/** codicon.css with every glyph rule (`.codicon-<name>:before { content: ... }`) dropped but the used ones. */
export function subsetCodiconCss(css, used) {
  return css
    .split('\n')
    .filter((line) => {
      const glyph = /^\.codicon-([a-z0-9-]+):before\s*\{/.exec(line);
      return glyph === null || used.has(glyph[1]);
    })
    .join('\n');
}

/** The files whose codicons the webview shows: its scripts and stylesheet, and the page the extension writes. */
export function webviewSources(root) {
  const sources = (folder) => readdirSync(folder).filter((name) => /\.(ts|css)$/.test(name)).map((name) => path.join(folder, name));
  return [
    ...sources(path.join(root, 'webview')),
    ...sources(path.join(root, 'webview', 'panel')),
    path.join(root, 'src', 'extension', 'panel.ts'),
  ];
}
