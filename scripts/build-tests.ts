/**
 * Builds the extension-host suite (test/extension/suite/*.ts) to out/extension-tests/: one CommonJS
 * file per entry, for Node, with `vscode` (given by the extension host) and `mocha` (resolved from
 * the repository's node_modules at run time) left external.
 * Usage: tsx scripts/build-tests.ts
 */
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..');
export const SUITE_SOURCE = path.join(REPO, 'test', 'extension', 'suite');
export const SUITE_OUT = path.join(REPO, 'out', 'extension-tests');
/** What the extension host loads: `run()` lives here. */
export const SUITE_INDEX = path.join(SUITE_OUT, 'index.js');

export async function buildExtensionTests(): Promise<string> {
  const entries = readdirSync(SUITE_SOURCE)
    .filter((name) => name === 'index.ts' || name.endsWith('.test.ts'))
    .map((name) => path.join(SUITE_SOURCE, name));
  rmSync(SUITE_OUT, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries,
    outdir: SUITE_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return SUITE_INDEX;
}

if (require.main === module) {
  buildExtensionTests().then(console.log, (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
