/**
 * Runs the extension-host suite and the inspector's UI checks in one real VS Code (code-server's
 * VS Code server + headless Chromium), and always stops it.
 *
 *   1. a fresh run folder with its own demo workspace, a control folder the suite can find, and a
 *      home folder for the extension host (HOME) beside the demo, where the deciders look for the
 *      agents' user settings;
 *   2. the VS Code server, and the workbench URL with the extension and the suite
 *      (extensionTestsPath) in its payload;
 *   3. Chromium opens the workbench: the extension host starts and runs the suite;
 *   4. the suite's UI test opens the inspector and writes control/ui-ready.json; the harness
 *      then drives the webview (uiChecks.ts) and writes control/ui-done.json; the walkthrough test
 *      then opens the walkthrough and the same exchange (walkthrough-ready/-done.json) checks its
 *      page, and the suite ends;
 *   5. codeAutomationExit gives the suite's exit code, control/suite-results.json each test's outcome,
 *      control/activation.json VS Code's measure of the extension's activation.
 *
 * Usage: tsx test/extension/harness.ts [--update-screenshot]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildExtensionTests, SUITE_INDEX } from '../../scripts/build-tests';
import { patience } from '../patience';
import { createDemoWorkspace, type DemoWorkspace } from '../../scripts/demo-workspace';
import { CACHE, ensureEnvironment, openWorkbench, REPO, startVsCode, type Log, type VsCode, type Workbench } from '../../scripts/vscode-env';
import type { ActivationTimes } from './suite/helpers';
import { runUiChecks, runWalkthroughChecks, type CheckResult, type WalkthroughReady } from './uiChecks';

export interface SuiteResult {
  readonly title: string;
  readonly state: 'passed' | 'failed' | 'pending';
  readonly duration: number | null;
  readonly error: string | null;
}

export interface HarnessResult {
  readonly timings: Record<string, number>;
  /** The suite's exit code from codeAutomationExit, or null when it never came. */
  readonly exitCode: number | null;
  readonly suite: readonly SuiteResult[];
  /** Null when the UI checks never started (the suite did not reach its UI test). */
  readonly ui: readonly CheckResult[] | null;
  /** Null when the walkthrough checks never started (the suite did not reach its walkthrough test). */
  readonly walkthrough: readonly CheckResult[] | null;
  /** VS Code's measure of the activation (the suite's Activation test); null when it did not run. */
  readonly activation: ActivationTimes | null;
  readonly runDir: string | null;
  readonly serverLog: string | null;
  /** The workbench's log lines (the extension host's console included), for failure messages. */
  readonly hostLog: readonly string[];
  /** Set when the run itself broke (install, build, start, timeout). */
  readonly error: string | null;
}

/**
 * The VS Code part's limit, stretched by the load (patience.ts): the suite, the UI checks (some at
 * 600 px, five colour themes, the side bar, Problems) and the walkthrough's (at 600 and 1400 px)
 * took 6 to 7.5 minutes on two cores shared with five other developers' builds and tests.
 */
export const DEFAULT_RUN_TIMEOUT = patience(600_000);

export interface HarnessOptions {
  readonly log?: Log;
  /** Limit for the VS Code part (after install and build), ms; default DEFAULT_RUN_TIMEOUT. */
  readonly timeout?: number;
  /** Print the workbench's log lines as they come (default true). */
  readonly echoHostLog?: boolean;
  /** Also copy the panel's screenshot to media/screenshot.png (the README's picture; default false). */
  readonly updateReadmeScreenshot?: boolean;
  /** Where the demo workspace goes (default: the run folder's demo/); a short path makes a readable screenshot. */
  readonly demoBase?: string;
  /** An extension folder to run as it is (the benchmark's production snapshot); default: this repository, built first. */
  readonly extensionPath?: string;
  /** Run only the suite's tests whose full title matches (a mocha grep). */
  readonly grep?: string;
}

const defaultLog: Log = (line) => process.stderr.write(`[vscode-test] ${line}\n`);

/** The extension tests' activation measures (ignored with the cache), newest last: the benchmark reads them. */
export const ACTIVATION_FILE = path.join(CACHE, 'activation.json');
const ACTIVATION_RECORDS_KEPT = 20;

export interface ActivationRecord extends ActivationTimes {
  readonly measuredAt: string;
  /** What dist/extension.js held when it was recorded: a production build has no source map. */
  readonly build: 'development' | 'production' | 'unknown';
  readonly bundleBytes: number | null;
}

export function readActivationRecords(): ActivationRecord[] {
  try {
    const { runs } = JSON.parse(readFileSync(ACTIVATION_FILE, 'utf8')) as { runs?: ActivationRecord[] };
    return Array.isArray(runs) ? runs : [];
  } catch {
    return [];
  }
}

/** Read from dist/ rather than assumed: another build (the benchmark's production one) may have replaced it. */
export function activationRecord(times: ActivationTimes): ActivationRecord {
  const bundle = path.join(REPO, 'dist', 'extension.js');
  const text = existsSync(bundle) ? readFileSync(bundle, 'utf8') : null;
  const build = text === null ? 'unknown' : text.includes('//# sourceMappingURL=') ? 'development' : 'production';
  return { ...times, measuredAt: new Date().toISOString(), build, bundleBytes: text === null ? null : Buffer.byteLength(text) };
}

export function recordActivation(record: ActivationRecord): void {
  mkdirSync(CACHE, { recursive: true });
  const runs = [...readActivationRecords(), record].slice(-ACTIVATION_RECORDS_KEPT);
  writeFileSync(ACTIVATION_FILE, `${JSON.stringify({ runs }, null, 2)}\n`);
}

async function timed<T>(timings: Record<string, number>, name: string, action: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  try {
    return await action();
  } finally {
    timings[name] = Date.now() - started;
  }
}

function buildExtension(): void {
  const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node esbuild.mjs failed:\n${result.stdout}\n${result.stderr}`);
}

/** True once `file` exists; false after `timeout` or when `until` settles without it. */
function waitForFile(file: string, until: Promise<unknown>, timeout: number): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      clearTimeout(limit);
      resolve(value);
    };
    const timer = setInterval(() => existsSync(file) && finish(true), 200);
    const limit = setTimeout(() => finish(false), timeout);
    void until.then(() => finish(existsSync(file)));
  });
}

export async function runVsCodeTests(options: HarnessOptions = {}): Promise<HarnessResult> {
  const log = options.log ?? defaultLog;
  const uiOnly = process.env['BI_UI_GREP'] ? new RegExp(process.env['BI_UI_GREP']) : undefined;
  const timings: Record<string, number> = {};
  const hostLog: string[] = [];
  let vscode: VsCode | undefined;
  let workbench: Workbench | undefined;
  let exitCode: number | null = null;
  let suite: SuiteResult[] = [];
  let ui: CheckResult[] | null = null;
  let walkthrough: CheckResult[] | null = null;
  let activation: ActivationTimes | null = null;
  let error: string | null = null;
  const started = Date.now();

  try {
    await timed(timings, 'environment', () => ensureEnvironment(log));
    await timed(timings, 'build', async () => {
      if (options.extensionPath === undefined) {
        log('building the extension (node esbuild.mjs) and the suite (out/extension-tests)');
        buildExtension();
      } else log(`building the suite (out/extension-tests); the extension as it is in ${options.extensionPath}`);
      await buildExtensionTests();
    });

    const runName = `test-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const runDir = path.join(CACHE, 'runs', runName);
    const control = path.join(runDir, 'control');

    const demoBase = options.demoBase ?? path.join(runDir, 'demo');
    // The extension host's home folder, beside the demo: the deciders read the agents' user settings there, never the real ones.
    const home = path.join(demoBase, 'home');
    // startVsCode makes the run folder afresh; the demo and the control folder go in after it,
    // before the browser connects (no extension host runs until then).
    vscode = await timed(timings, 'server start', () =>
      startVsCode({
        workspace: path.join(demoBase, 'notes'),
        extensionDevelopmentPath: options.extensionPath ?? REPO,
        extensionTestsPath: SUITE_INDEX,
        extensionEnvironment: { BI_TEST_CONTROL: control, HOME: home, ...(options.grep !== undefined ? { BI_TEST_GREP: options.grep } : {}) },
        runName,
        log,
      }),
    );
    mkdirSync(control, { recursive: true });
    mkdirSync(home, { recursive: true });
    const demo: DemoWorkspace = createDemoWorkspace(demoBase);
    writeFileSync(path.join(control, 'harness.json'), JSON.stringify({ drivesUi: true, demo }, null, 2));
    log(`workbench URL: ${vscode.url}`);

    const deadline = options.timeout ?? DEFAULT_RUN_TIMEOUT;
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), deadline).unref());
    const suiteStarted = Date.now();

    workbench = await openWorkbench(vscode, {
      log,
      onLog: (_type, line) => {
        hostLog.push(line);
        if (options.echoHostLog !== false) for (const part of line.split('\n')) log(`host: ${part}`);
      },
    });
    const serverGone = vscode.exited.then((code) => `the VS Code server exited (${code})`);

    // The UI checks start when the suite's UI test says so, and must end before the suite does.
    const uiStarted = await Promise.race([waitForFile(path.join(control, 'ui-ready.json'), workbench.exit, deadline), timeout.then(() => false)]);
    if (uiStarted) {
      ui = await timed(timings, 'ui checks', () =>
        runUiChecks(workbench!.page, demo, {
          log,
          screenshotDir: path.join(CACHE, 'screenshots'),
          updateReadmeScreenshot: options.updateReadmeScreenshot ?? false,
          home,
          ...(uiOnly !== undefined ? { only: uiOnly } : {}),
        }),
      );
      const failures = ui.filter((check) => !check.ok).map((check) => check.name);
      writeFileSync(path.join(control, 'ui-done.json'), JSON.stringify({ ok: failures.length === 0, failures }));
    } else if (options.grep === undefined) {
      log('the suite never asked for the UI checks');
    }

    const walkthroughReady = path.join(control, 'walkthrough-ready.json');
    const walkthroughStarted = await Promise.race([waitForFile(walkthroughReady, workbench.exit, deadline), timeout.then(() => false)]);
    if (walkthroughStarted) {
      const ready = JSON.parse(readFileSync(walkthroughReady, 'utf8')) as WalkthroughReady;
      walkthrough = await timed(timings, 'walkthrough checks', () =>
        runWalkthroughChecks(workbench!.page, ready, { log, screenshotDir: path.join(CACHE, 'screenshots'), ...(uiOnly !== undefined ? { only: uiOnly } : {}) }),
      );
      const failures = walkthrough.filter((check) => !check.ok).map((check) => check.name);
      writeFileSync(path.join(control, 'walkthrough-done.json'), JSON.stringify({ ok: failures.length === 0, failures }));
    } else if (options.grep === undefined) {
      log('the suite never asked for the walkthrough checks');
    }

    const outcome = await Promise.race([workbench.exit, timeout, serverGone]);
    timings['suite'] = Date.now() - suiteStarted;
    if (typeof outcome === 'number') exitCode = outcome;
    else error = outcome === 'timeout' ? `the suite did not finish within ${deadline / 1000} s` : outcome;

    const results = path.join(control, 'suite-results.json');
    if (existsSync(results)) suite = JSON.parse(readFileSync(results, 'utf8')) as SuiteResult[];
    const activationFile = path.join(control, 'activation.json');
    if (existsSync(activationFile)) activation = JSON.parse(readFileSync(activationFile, 'utf8')) as ActivationTimes;
  } catch (caught) {
    error = caught instanceof Error ? (caught.stack ?? caught.message) : String(caught);
  } finally {
    await timed(timings, 'stop', async () => {
      await workbench?.close();
      await vscode?.stop();
    });
    timings['total'] = Date.now() - started;
  }
  return { timings, exitCode, suite, ui, walkthrough, activation, runDir: vscode?.runDir ?? null, serverLog: vscode?.serverLog ?? null, hostLog, error };
}

if (require.main === module) {
  // --update-screenshot: also refresh media/screenshot.png, with the demo at a short path
  // (<tmp>/bi-demo/notes) so the picture is readable.
  const update = process.argv.includes('--update-screenshot');
  runVsCodeTests({ updateReadmeScreenshot: update, ...(update ? { demoBase: path.join(os.tmpdir(), 'bi-demo') } : {}) }).then(
    (result) => {
      const { hostLog, ...rest } = result;
      console.log(JSON.stringify({ ...rest, hostLogLines: hostLog.length }, null, 2));
      const checks = [result.ui, result.walkthrough];
      const ok = result.error === null && result.exitCode === 0 && checks.every((list) => list !== null && list.every((check) => check.ok));
      process.exit(ok ? 0 : 1);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
