// One build for every entry point. `--production` minifies; `--watch` rebuilds on change and
// prints the lines VS Code's esbuild problem matcher expects.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { subsetCodiconCss, usedCodicons, webviewSources } from './scripts/codicon-subset.mjs';
import { composeViewHtml, VIEW_BUDGET_BYTES } from './scripts/app-view.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/** @type {import('esbuild').Plugin} */
const codiconSubset = {
  name: 'codicon-subset',
  setup(build) {
    build.onLoad({ filter: /[\\/]codicon\.css$/ }, (args) => {
      const used = usedCodicons(webviewSources(fileURLToPath(new URL('.', import.meta.url))));
      return { contents: subsetCodiconCss(readFileSync(args.path, 'utf8'), used), loader: 'css', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * The MCP Apps view (webview/app): always minified, since it is sent whole to every client that
 * reads it, and inlined in the server's bundles as one document. Watch mode builds it once.
 */
async function buildAppView() {
  const result = await esbuild.build({
    entryPoints: ['webview/app/view.ts', 'webview/app/view.css'],
    outdir: 'dist/app',
    bundle: true,
    minify: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
    define: { PACKAGE_VERSION: JSON.stringify(version) },
  });
  const output = (extension) => result.outputFiles.find((file) => file.path.endsWith(extension)).text;
  const html = composeViewHtml(output('.js'), output('.css'));
  const size = Buffer.byteLength(html);
  if (size > VIEW_BUDGET_BYTES) throw new Error(`the MCP Apps view is ${size} bytes, past its budget of ${VIEW_BUDGET_BYTES}`);
  mkdirSync(new URL('./dist/app', import.meta.url), { recursive: true });
  writeFileSync(new URL('./dist/app/view.html', import.meta.url), html);
  return html;
}

/**
 * The deciders (Claude Code's rules, Codex's, Gemini CLI's...) are more code than the extension's
 * own and a fifth of the server's, and only the inspector's traces and the MCP Apps view's
 * comparison need them: the extension and the server require dist/deciders.js then, beside
 * themselves, so neither an activation nor a server's start reads them. (dist/cli.js, the npm
 * package's one file, holds them.)
 */
/** @type {import('esbuild').Plugin} */
const decidersApart = {
  name: 'deciders-apart',
  setup(build) {
    build.onResolve({ filter: /[\\/]deciders[\\/]index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}src${path.sep}deciders${path.sep}`) ? undefined : { path: './deciders.js', external: true },
    );
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [decidersApart],
  },
  {
    // The MCP client behind "Run on the server" is most of a megabyte: its own bundle, loaded at
    // the first run, so that it costs the extension's activation nothing.
    entryPoints: ['src/extension/serverCalls.ts'],
    outfile: 'dist/serverCalls.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    // The deciders, shared by the two bundles below that leave them out (decidersApart).
    entryPoints: ['src/deciders/index.ts'],
    outfile: 'dist/deciders.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    entryPoints: ['webview/main.ts', 'webview/main.css'],
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.ttf': 'file' },
    assetNames: '[name]',
    plugins: [codiconSubset],
  },
  {
    entryPoints: ['src/cli/index.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    servesView: true,
  },
  {
    entryPoints: ['src/server/launch/processEntry.ts'],
    outfile: 'dist/server.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    servesView: true,
    plugins: [decidersApart],
  },
];

/**
 * search_file_contents' regular expressions run on RE2 compiled to WebAssembly (re2-wasm). The
 * server requires it from beside its bundle at the first regular expression, so no start reads it:
 * its build is copied as it is (its two scripts, the WebAssembly and its licence).
 */
function copyRegexEngine() {
  const from = new URL('./node_modules/re2-wasm/', import.meta.url);
  const to = new URL('./dist/re2-wasm/', import.meta.url);
  for (const file of ['build/src/re2.js', 'build/wasm/re2.js', 'build/wasm/re2.wasm', 'LICENSE']) {
    const target = new URL(file.replace(/^build\//, ''), to);
    mkdirSync(new URL('.', target), { recursive: true });
    copyFileSync(new URL(file, from), target);
  }
}

/** @type {import('esbuild').Plugin} */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

// A production build starts clean, so no development source map reaches the package.
if (production) rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

const viewHtml = await buildAppView();
copyRegexEngine();

/**
 * The bundles that serve take the MCP SDK's `_shims` entry from src/server/protocol/sdkShims.ts:
 * the SDK's own brings AJV, which the server never uses (a quarter of its bundle, and time at
 * every start).
 */
const SERVER_ALIASES = { '@modelcontextprotocol/server/_shims': './src/server/protocol/sdkShims.ts' };

const contexts = await Promise.all(
  targets.map(({ servesView, ...target }) =>
    esbuild.context({
      bundle: true,
      sourcemap: !production,
      minify: production,
      logLevel: 'warning',
      ...(servesView ? { alias: SERVER_ALIASES } : {}),
      define: { PACKAGE_VERSION: JSON.stringify(version), ...(servesView ? { APP_VIEW_HTML: JSON.stringify(viewHtml) } : {}) },
      ...target,
      plugins: [...(target.plugins ?? []), ...(watch ? [problemMatcher] : [])],
    }),
  ),
);

if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  try {
    await Promise.all(contexts.map((context) => context.rebuild()));
  } finally {
    await Promise.all(contexts.map((context) => context.dispose()));
  }
}
