// One build for every entry point. `--production` minifies; `--watch` rebuilds on change and
// prints the lines VS Code's esbuild problem matcher expects.
import * as esbuild from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { subsetCodiconCss, usedCodicons, webviewSources } from './scripts/codicon-subset.mjs';

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

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
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
  },
  {
    entryPoints: ['src/server/launch/processEntry.ts'],
    outfile: 'dist/server.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
];

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

const contexts = await Promise.all(
  targets.map((target) =>
    esbuild.context({
      bundle: true,
      sourcemap: !production,
      minify: production,
      logLevel: 'warning',
      define: { PACKAGE_VERSION: JSON.stringify(version) },
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
