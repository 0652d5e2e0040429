/**
 * The same suite in desktop VS Code, for machines with a display and internet (not used by
 * `npm test` here: @vscode/test-electron downloads VS Code). Run: npx tsx test/extension/runDesktop.ts
 *
 * Builds the extension and the suite, creates the demo workspace in .vscode-test/desktop/, and
 * runs the suite in a downloaded VS Code (stable, or VSCODE_VERSION). The inspector UI test is
 * skipped there: the webview is driven by the offline harness only.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { buildExtensionTests } from '../../scripts/build-tests';
import { createDemoWorkspace } from '../../scripts/demo-workspace';
import { CACHE, REPO } from '../../scripts/vscode-env';

async function main(): Promise<void> {
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const suite = await buildExtensionTests();

  const base = path.join(CACHE, 'desktop');
  const userData = path.join(base, 'user-data');
  const control = path.join(base, 'control');
  rmSync(userData, { recursive: true, force: true });
  rmSync(control, { recursive: true, force: true });
  mkdirSync(control, { recursive: true });
  const demo = createDemoWorkspace(path.join(base, 'demo'));
  // The extension host's logs (context.logUri, where the refusal log lives) are under the user data.
  writeFileSync(path.join(control, 'harness.json'), JSON.stringify({ drivesUi: false, demo }, null, 2));

  await runTests({
    version: process.env['VSCODE_VERSION'] ?? 'stable',
    extensionDevelopmentPath: REPO,
    extensionTestsPath: suite,
    extensionTestsEnv: { BI_TEST_CONTROL: control },
    launchArgs: [demo.notes, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', userData, '--extensions-dir', path.join(base, 'extensions')],
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
