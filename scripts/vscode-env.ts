/**
 * A real VS Code without internet: code-server's VS Code server (the same Node extension host as
 * desktop VS Code) plus headless Chromium driven by playwright-core. @vscode/test-electron would
 * download a VS Code build at test time; this needs only the npm registry and Debian's packages.
 * The `code-server` command refuses --extensionDevelopmentPath/--extensionTestsPath, so its VS Code
 * server (lib/vscode/out/server-main.js) is started directly with the smoke-test driver enabled,
 * and the extension (and suite) are passed in the workbench URL's payload.
 *
 * Everything is cached in the ignored `.vscode-test/` folder of the repository:
 *   .vscode-test/node24/  Node 24 from the npm registry (code-server needs it)
 *   .vscode-test/cs/      code-server (VS Code server + web workbench), native addons built
 *   .vscode-test/runs/    one folder per run: server data, user data, XDG dirs, browser profile, logs
 * Each piece is checked before it is installed, so a second run costs seconds.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, type WriteStream } from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';

export const REPO = path.resolve(__dirname, '..');
/** The cache (ignored by git). BI_VSCODE_CACHE moves it, e.g. to try a first run from scratch. */
export const CACHE = process.env['BI_VSCODE_CACHE'] ? path.resolve(process.env['BI_VSCODE_CACHE']) : path.join(REPO, '.vscode-test');
export const NODE24_VERSION = '24.22.3';
export const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = '/usr/bin/chromium';

const NODE_PACKAGE = `node-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
export const NODE24_DIR = path.join(CACHE, 'node24', 'node_modules', NODE_PACKAGE);
export const NODE24 = path.join(NODE24_DIR, 'bin', 'node');
export const CODE_SERVER_DIR = path.join(CACHE, 'cs', 'node_modules', 'code-server');
export const SERVER_MAIN = path.join(CODE_SERVER_DIR, 'lib', 'vscode', 'out', 'server-main.js');

/** Native addons code-server's postinstall builds; without them the server starts but is broken. */
const CODE_SERVER_ADDONS = [
  'lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node',
  'lib/vscode/node_modules/@vscode/native-watchdog/build/Release/watchdog.node',
  'lib/vscode/node_modules/kerberos/build/Release/kerberos.node',
];

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export type Log = (line: string) => void;
const defaultLog: Log = (line) => process.stderr.write(`[vscode-env] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Installing

function run(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; log: Log; label: string }): Promise<void> {
  const { log, label } = options;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    log(`${label}: ${command} ${args.join(' ')}`);
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const heartbeat = setInterval(() => log(`${label}: still running (${Math.round((Date.now() - started) / 1000)} s)`), 15_000);
    let tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        tail.push(line);
        if (tail.length > 40) tail = tail.slice(-40);
        // npm and apt are chatty; print the lines that say where they are.
        if (/^(added|changed|up to date|npm (warn|error)|Setting up|Unpacking|Get:\d|E:|gyp (info ok|ERR))/.test(line.trim())) log(`${label}: ${line.trim()}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', (error) => {
      clearInterval(heartbeat);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearInterval(heartbeat);
      if (code === 0) {
        log(`${label}: done in ${Math.round((Date.now() - started) / 1000)} s`);
        resolve();
      } else reject(new Error(`${label} failed (${signal ?? `exit ${code}`}):\n${tail.join('\n')}`));
    });
  });
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function debianPackageInstalled(name: string): boolean {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

/** How long apt-get waits for another apt or dpkg to let go of its lock before it gives up. */
export const APT_LOCK_WAIT_MS = 10 * 60_000;
const APT_LOCK_RETRY_MS = 10_000;

/** apt's words when another apt or dpkg holds its lock, and who holds it when apt says. */
function lockHolder(output: string): string | undefined {
  if (!/Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock directory/.test(output)) return undefined;
  const held = /held by process (\d+)(?: \(([^)]+)\))?/.exec(output);
  return held === null ? 'another apt or dpkg' : `${held[2] ?? 'another program'} (process ${held[1]})`;
}

/**
 * `apt-get <args>`, waiting while another apt or dpkg holds its lock (an unattended upgrade, a
 * second install): apt-get itself waits for dpkg's lock (DPkg::Lock::Timeout), and a refusal for a
 * lock it does not wait for (`update`'s) is tried again every few seconds, up to `waitMs` in all.
 */
export async function aptGet(args: readonly string[], log: Log, options: { env?: NodeJS.ProcessEnv; waitMs?: number; retryMs?: number } = {}): Promise<void> {
  const waitMs = options.waitMs ?? APT_LOCK_WAIT_MS;
  const env = { ...(options.env ?? process.env), DEBIAN_FRONTEND: 'noninteractive' };
  const label = `apt-get ${args.filter((arg) => !arg.startsWith('-')).join(' ')}`;
  const started = Date.now();
  for (;;) {
    const left = Math.max(0, waitMs - (Date.now() - started));
    try {
      await run('apt-get', ['-o', `DPkg::Lock::Timeout=${Math.ceil(left / 1000)}`, ...args], { env, log, label });
      return;
    } catch (error) {
      const holder = lockHolder(error instanceof Error ? error.message : String(error));
      if (holder === undefined) throw error;
      if (Date.now() - started >= waitMs) {
        const waited = waitMs >= 60_000 ? `${Math.round(waitMs / 60_000)} min` : `${Math.round(waitMs / 1000)} s`;
        throw new Error(`${label}: ${holder} has held apt's lock for ${waited}. Let it finish (or stop it), then run this again.`);
      }
      log(`${label}: ${holder} holds apt's lock; waiting for it (${Math.round((Date.now() - started) / 1000)} s so far)`);
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? APT_LOCK_RETRY_MS));
    }
  }
}

let aptUpdated = false;
async function aptInstall(packages: readonly string[], log: Log): Promise<void> {
  if (!isRoot()) {
    throw new Error(`Missing Debian packages ${packages.join(', ')}: run  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`);
  }
  if (!aptUpdated) {
    await aptGet(['update'], log);
    aptUpdated = true;
  }
  await aptGet(['install', '-y', '--no-install-recommends', ...packages], log);
}

function nodeWorks(): boolean {
  if (!existsSync(NODE24)) return false;
  const result = spawnSync(NODE24, ['--version'], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() === `v${NODE24_VERSION}`;
}

function codeServerWorks(): boolean {
  if (!existsSync(SERVER_MAIN)) return false;
  if (!CODE_SERVER_ADDONS.every((addon) => existsSync(path.join(CODE_SERVER_DIR, addon)))) return false;
  try {
    const { version } = JSON.parse(readFileSync(path.join(CODE_SERVER_DIR, 'package.json'), 'utf8')) as { version?: string };
    return version === CODE_SERVER_VERSION;
  } catch {
    return false;
  }
}

/** Whether a code-server install is running right now (someone else's, or ours in another run). */
function installInProgress(lock: string): boolean {
  if (!existsSync(lock)) return false;
  // A lock older than 20 minutes is left over from a killed install.
  return Date.now() - statSync(lock).mtimeMs < 20 * 60_000;
}

async function waitForOtherInstall(lock: string, log: Log): Promise<void> {
  const started = Date.now();
  while (installInProgress(lock)) {
    log(`code-server: another install holds ${path.relative(REPO, lock)}; waiting (${Math.round((Date.now() - started) / 1000)} s)`);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }
}

/** Whether everything is installed already (so no install will run: a short timeout will do). */
export function environmentReady(): boolean {
  return missingPieces().length === 0;
}

/** What ensureEnvironment would install, each with where it comes from and its size, for a person to read first. */
export function missingPieces(): string[] {
  const missing: string[] = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium (apt-get, about 80 MB to download, 300 MB with what it needs)');
  if (!nodeWorks()) missing.push(`Node ${NODE24_VERSION} into ${path.relative(REPO, path.join(CACHE, 'node24'))} (npm, about 190 MB)`);
  if (!codeServerWorks()) {
    if (!debianPackageInstalled('libkrb5-dev')) missing.push('libkrb5-dev (apt-get, under 1 MB)');
    missing.push(`code-server ${CODE_SERVER_VERSION} into ${path.relative(REPO, path.join(CACHE, 'cs'))} (npm, about 620 MB; builds native addons)`);
  }
  return missing;
}

export interface Environment {
  readonly node: string;
  readonly serverMain: string;
  readonly chromium: string;
}

/** Debian's Chromium, which playwright-core drives (it never downloads a browser here). */
export async function ensureChromium(log: Log = defaultLog): Promise<string> {
  if (!existsSync(CHROMIUM)) {
    log('Chromium: missing, installing the Debian package (about a minute)');
    await aptInstall(['chromium'], log);
  }
  return CHROMIUM;
}

/**
 * Installs what is missing (Node 24, code-server with its native addons, Chromium) and returns
 * where everything is. Idempotent: each piece is checked before it is installed.
 */
export async function ensureEnvironment(log: Log = defaultLog): Promise<Environment> {
  if (process.platform !== 'linux') throw new Error('The offline VS Code harness runs on Linux; on other machines use test/extension/runDesktop.ts.');
  mkdirSync(CACHE, { recursive: true });

  await ensureChromium(log);

  if (!nodeWorks()) {
    log(`Node ${NODE24_VERSION}: missing, installing ${NODE_PACKAGE}@${NODE24_VERSION} from the npm registry`);
    await run('npm', ['install', '--prefix', path.join(CACHE, 'node24'), '--no-audit', '--no-fund', '--no-save', `${NODE_PACKAGE}@${NODE24_VERSION}`], {
      log,
      label: 'npm install node24',
    });
    if (!nodeWorks()) throw new Error(`Node ${NODE24_VERSION} did not install at ${NODE24}`);
  }

  if (!codeServerWorks()) {
    const lock = path.join(CACHE, 'cs.installing');
    await waitForOtherInstall(lock, log);
    if (!codeServerWorks()) {
      if (!debianPackageInstalled('libkrb5-dev')) {
        log('libkrb5-dev: missing (code-server builds a Kerberos addon), installing');
        await aptInstall(['libkrb5-dev'], log);
      }
      log(`code-server ${CODE_SERVER_VERSION}: installing (about 2 minutes, 620 MB; its postinstall builds native addons)`);
      writeFileSync(lock, String(process.pid));
      try {
        const bin = path.join(NODE24_DIR, 'bin');
        // npm 11 gates install scripts: without --dangerously-allow-all-scripts the postinstall that
        // builds the native addons is skipped and the server is broken. npm 10 does not know the
        // flag, so it is passed only where npm asks for it.
        const npmMajor = Number(spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.split('.')[0]);
        const args = ['install', '--prefix', path.join(CACHE, 'cs'), '--no-audit', '--no-fund', '--no-save', '--foreground-scripts'];
        if (npmMajor >= 11) args.push('--dangerously-allow-all-scripts');
        args.push(`code-server@${CODE_SERVER_VERSION}`);
        // Under `npm test` the environment carries the outer npm's settings, its user agent
        // (which names Node 20 to code-server's version check) among them: start from a clean one.
        const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
        await run('npm', args, {
          // node-gyp must build against Node 24's headers, not the machine's Node 20.
          env: { ...env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: NODE24_DIR },
          log,
          label: 'npm install code-server',
        });
      } finally {
        rmSync(lock, { force: true });
      }
      if (!codeServerWorks()) {
        const missing = CODE_SERVER_ADDONS.filter((addon) => !existsSync(path.join(CODE_SERVER_DIR, addon)));
        throw new Error(`code-server installed without its native addons (${missing.join(', ')}): was its postinstall skipped?`);
      }
    }
  }
  return { node: NODE24, serverMain: SERVER_MAIN, chromium: CHROMIUM };
}

// ---------------------------------------------------------------------------------------------
// Running

export interface StartOptions {
  /** The folder to open (absolute). */
  readonly workspace: string;
  /** The extension under development (absolute). */
  readonly extensionDevelopmentPath: string;
  /** The compiled suite's index.js (absolute); omit for an interactive session. */
  readonly extensionTestsPath?: string;
  /** Variables for the extension host's environment. */
  readonly extensionEnvironment?: Readonly<Record<string, string>>;
  /** 0 (default) lets the server choose. */
  readonly port?: number;
  /** A name for the run folder (default: a timestamp). */
  readonly runName?: string;
  readonly log?: Log;
  /** Echo the server's log lines through `log` (default false: they go to the run folder's server.log only). */
  readonly echoServerLog?: boolean;
}

export interface VsCode {
  readonly port: number;
  /** The run folder: server data, user data, XDG dirs, the browser profile and server.log. */
  readonly runDir: string;
  readonly serverDataDir: string;
  /** The editor's user data: its logs/ hold the remote extension host's logs (context.logUri). */
  readonly userDataDir: string;
  readonly serverLog: string;
  /** The workbench URL: opens the workspace with the extension loaded (and the suite, when given). */
  readonly url: string;
  readonly pid: number;
  /** Resolves when the server process exits. */
  readonly exited: Promise<number | null>;
  /** Kills the whole process group (the server starts helpers that outlive it). Idempotent. */
  stop(): Promise<void>;
}

/** Whether the run folder's server (its server.pid) is still running: such a folder is never pruned. */
function runInUse(runDir: string): boolean {
  try {
    const pid = Number(readFileSync(path.join(runDir, 'server.pid'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 && groupAlive(pid);
  } catch {
    return false;
  }
}

/** Removes old run folders, keeping the newest `keep` and any whose server still runs. */
export function pruneRuns(keep = 4): void {
  const runs = path.join(CACHE, 'runs');
  if (!existsSync(runs)) return;
  const folders = readdirSync(runs)
    .map((name) => ({ name, mtime: statSync(path.join(runs, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of folders.slice(keep)) {
    const dir = path.join(runs, name);
    if (!runInUse(dir)) rmSync(dir, { recursive: true, force: true });
  }
}

const live = new Set<number>();
let exitHookInstalled = false;
function killGroupSync(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
const stoppers = new Map<number, () => Promise<void>>();

/** Stops every VS Code server this process started. */
export async function stopAll(): Promise<void> {
  await Promise.all([...stoppers.values()].map((stop) => stop()));
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort: whatever happens to this process, no VS Code server is left behind.
  process.on('exit', () => {
    for (const pid of live) killGroupSync(pid, 'SIGKILL');
  });
  // Ctrl-C, a terminal closing, or a test runner's timeout: stop the servers' process groups, then exit.
  const codes: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  let stoppingFor: NodeJS.Signals | null = null;
  for (const [signal, code] of Object.entries(codes) as [NodeJS.Signals, number][]) {
    // Not `once`: a wrapper (npm, tsx) may relay the same Ctrl-C again, and a second one must not
    // kill this process before the process group is stopped.
    process.on(signal, () => {
      if (stoppingFor !== null) return;
      stoppingFor = signal;
      if (live.size > 0) process.stderr.write(`\n[vscode-env] ${signal}: stopping the VS Code server (process group${live.size > 1 ? 's' : ''} ${[...live].join(', ')})\n`);
      const forced = setTimeout(() => process.exit(code), 8_000);
      forced.unref();
      void stopAll().finally(() => process.exit(code));
    });
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function workbenchUrl(port: number, workspace: string, options: Pick<StartOptions, 'extensionDevelopmentPath' | 'extensionTestsPath' | 'extensionEnvironment'>): string {
  const remote = (file: string) => `vscode-remote://127.0.0.1:${port}${file}`;
  const payload: [string, string][] = [['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)]];
  if (options.extensionTestsPath !== undefined) payload.push(['extensionTestsPath', remote(options.extensionTestsPath)]);
  if (options.extensionEnvironment !== undefined) payload.push(['extensionEnvironment', JSON.stringify(options.extensionEnvironment)]);
  return `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * Starts code-server's VS Code server (not the `code-server` command, which refuses the
 * extension development flags) in its own process group, with everything it writes inside a
 * fresh run folder. No extension host starts until a browser opens `url`.
 */
export async function startVsCode(options: StartOptions): Promise<VsCode> {
  const log = options.log ?? defaultLog;
  if (!existsSync(SERVER_MAIN) || !existsSync(NODE24)) throw new Error('Run ensureEnvironment() first');
  pruneRuns();
  const runName = options.runName ?? new Date().toISOString().replace(/[:.]/g, '-');
  const runDir = path.join(CACHE, 'runs', runName);
  rmSync(runDir, { recursive: true, force: true });
  const dirs = {
    server: path.join(runDir, 'server-data'),
    user: path.join(runDir, 'user-data'),
    extensions: path.join(runDir, 'extensions'),
    config: path.join(runDir, 'xdg', 'config'),
    data: path.join(runDir, 'xdg', 'data'),
    cache: path.join(runDir, 'xdg', 'cache'),
    runtime: path.join(runDir, 'xdg', 'runtime'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  chmodSync(dirs.runtime, 0o700);

  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Nothing of an editor this process may run inside (a VS Code terminal) leaks into the server.
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key.startsWith('npm_') || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  Object.assign(env, {
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_RUNTIME_DIR: dirs.runtime,
  });

  const args = [
    SERVER_MAIN,
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    '--disable-workspace-trust',
    '--server-data-dir',
    dirs.server,
    '--user-data-dir',
    dirs.user,
    '--extensions-dir',
    dirs.extensions,
  ];
  const serverLog = path.join(runDir, 'server.log');
  const logStream: WriteStream = createWriteStream(serverLog);
  // detached: the child calls setsid(), so it leads its own process group (kill -- -pid).
  const child: ChildProcess = spawn(NODE24, args, { cwd: runDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the VS Code server');
  live.add(pid);
  installExitHook();
  writeFileSync(path.join(runDir, 'server.pid'), String(pid));
  log(`VS Code server: pid ${pid} (process group), run folder ${path.relative(REPO, runDir)}`);

  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (groupAlive(pid)) {
        killGroupSync(pid, 'SIGTERM');
        const deadline = Date.now() + 5_000;
        while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        if (groupAlive(pid)) killGroupSync(pid, 'SIGKILL');
      }
      live.delete(pid);
      stoppers.delete(pid);
      child.stdout?.destroy();
      child.stderr?.destroy();
      await new Promise<void>((resolve) => logStream.end(resolve));
    })();
    return stopping;
  };
  stoppers.set(pid, stop);

  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => fail(new Error(`the VS Code server did not report its port within 60 s; see ${serverLog}`)), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      void stop().then(() => reject(error));
    };
    const onData = (chunk: Buffer) => {
      logStream.write(chunk);
      const text = chunk.toString('utf8');
      if (options.echoServerLog) for (const line of text.split('\n')) if (line.trim() !== '') log(`server: ${line}`);
      buffered += text;
      const match = /Extension host agent listening on (\d+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        buffered = '';
        resolve(Number(match[1]));
      } else if (buffered.length > 100_000) buffered = buffered.slice(-1000);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code, signal) => fail(new Error(`the VS Code server exited before listening (${signal ?? `exit ${code}`}); see ${serverLog}`)));
  });
  log(`VS Code server: listening on 127.0.0.1:${port}`);
  const url = workbenchUrl(port, options.workspace, options);
  return { port, runDir, serverDataDir: dirs.server, userDataDir: dirs.user, serverLog, url, pid, exited, stop };
}

// ---------------------------------------------------------------------------------------------
// The browser

export interface Workbench {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The suite's exit code (0: passed), once its run() settles. */
  readonly exit: Promise<number>;
  close(): Promise<void>;
}

export interface OpenOptions {
  readonly log?: Log;
  /** Receives every line the workbench logs (the extension host's console included). */
  readonly onLog?: (type: string, line: string) => void;
  readonly viewport?: { readonly width: number; readonly height: number };
}

/** Formats what `codeAutomationLog` receives: a string, or printf-style arguments. */
export function formatAutomationLog(args: unknown): string {
  return Array.isArray(args) ? format(...(args as unknown[])) : typeof args === 'string' ? args : format(args);
}

/**
 * Opens the workbench in headless Chromium (the Debian package; playwright-core never downloads
 * a browser here), with the smoke-test driver's two hooks exposed before navigating.
 */
export async function openWorkbench(vscode: VsCode, options: OpenOptions = {}): Promise<Workbench> {
  const log = options.log ?? defaultLog;
  const { chromium } = await import('playwright-core');
  const profile = path.join(vscode.runDir, 'chromium-profile');
  mkdirSync(profile, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: options.viewport ?? { width: 1440, height: 900 },
  });
  let settle: (code: number) => void = () => {};
  const exit = new Promise<number>((resolve) => (settle = resolve));
  await context.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
    const line = formatAutomationLog(args);
    if (options.onLog) options.onLog(type, line);
  });
  await context.exposeFunction('codeAutomationExit', (code: number) => {
    log(`workbench: the suite finished with exit code ${code}`);
    settle(Number(code));
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(vscode.url);
  log('workbench: loaded');
  let closed: Promise<void> | undefined;
  return {
    context,
    page,
    exit,
    close: () => (closed ??= context.close().catch(() => {})),
  };
}
