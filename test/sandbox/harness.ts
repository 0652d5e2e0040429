// The sandbox probe, run as an attacker would: a C program started inside exactly the sandbox the
// server runs in (the server's own startInSandbox, through a bundled launcher), as the current user
// and, when that is root, also as an unprivileged user with the stock bubblewrap and with a setuid
// copy of it. Every route must fail. `npm run sandbox-probe` prints the table.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { fileUri } from '../server/helpers.js';
import { patience } from '../patience.js';
import type { LaunchSpec } from './launch.js';

export interface ProbeRow {
  readonly route: string;
  readonly open: boolean;
  readonly detail: string;
}

export interface ModeResult {
  readonly mode: string;
  readonly rows?: readonly ProbeRow[];
  /** Why the mode could not run on this machine. */
  readonly skipped?: string;
}

/** Secrets the launcher's environment holds; none may reach the probe. */
export const SECRET_ENV = { GITHUB_TOKEN: 'ghp_probe', AWS_SECRET_ACCESS_KEY: 'aws-probe', ANTHROPIC_API_KEY: 'sk-ant-probe' } as const;
/** The descriptor the launcher inherits, open on an outside folder. */
export const INHERITED_FD = 40;
const PROBE_USER = 'bi-sandbox-probe';

export interface ProbeTools {
  readonly folder: string;
  readonly probe: string;
  readonly launcher: string;
}

/** Why the probe cannot run here, or undefined when it can. */
export function probeUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `the bubblewrap sandbox is Linux only (this is ${process.platform})`;
  if (spawnSync('bwrap', ['--version']).status !== 0) return 'bwrap is not on PATH: install bubblewrap';
  if (spawnSync('cc', ['--version']).status !== 0) return 'cc is not on PATH: install gcc to build the probe';
  return undefined;
}

/** Compiles the probe and bundles the launcher into one world-readable folder, so any user can run them. */
export async function buildProbeTools(): Promise<ProbeTools> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-probe-tools-'));
  fs.chmodSync(folder, 0o755);
  const probe = path.join(folder, 'probe');
  const built = spawnSync('cc', ['-O1', '-Wall', '-o', probe, path.join(__dirname, 'probe.c')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the probe did not compile:\n${built.stderr}`);
  const launcher = path.join(folder, 'launch.js');
  await esbuild.build({ entryPoints: [path.join(__dirname, 'launch.ts')], outfile: launcher, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error' });
  fs.chmodSync(launcher, 0o644);
  return { folder, probe, launcher };
}

interface User {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

function currentUser(): User {
  return { name: os.userInfo().username, uid: process.getuid!(), gid: process.getgid!() };
}

/** The unprivileged user the root modes run as, created when missing. */
function probeUser(): User | string {
  if (spawnSync('id', ['-u', PROBE_USER]).status !== 0) {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', PROBE_USER], { encoding: 'utf8' });
    if (made.status !== 0) return `useradd ${PROBE_USER} failed: ${made.stderr.trim()}`;
  }
  const id = (flag: string) => Number(spawnSync('id', [flag, PROBE_USER], { encoding: 'utf8' }).stdout.trim());
  return { name: PROBE_USER, uid: id('-u'), gid: id('-g') };
}

/** Every folder above `target` must let `user` pass for it to run the tools there. */
function reachable(target: string, user: User): boolean {
  return spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(target)}, require('fs').constants.R_OK)`], { uid: user.uid, gid: user.gid }).status === 0;
}

interface Fixture {
  readonly base: string;
  readonly workspace: string;
  readonly outside: string;
  readonly secret: string;
  readonly log: string;
  readonly home: string;
}

function makeFixture(user: User): Fixture {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-probe-'));
  fs.chmodSync(base, 0o755);
  const fixture = {
    base,
    workspace: path.join(base, 'ws'),
    outside: path.join(base, 'outside'),
    secret: path.join(base, 'outside', 'secret.txt'),
    log: path.join(base, 'logs', 'refusals.jsonl'),
    home: path.join(base, 'home'),
  };
  for (const folder of [fixture.workspace, fixture.outside, path.dirname(fixture.log), fixture.home]) {
    fs.mkdirSync(folder, { mode: 0o755 });
    fs.chownSync(folder, user.uid, user.gid);
  }
  fs.writeFileSync(fixture.secret, 'outside secret\n', { mode: 0o644 });
  fs.writeFileSync(path.join(fixture.workspace, 'inside.txt'), 'inside\n');
  return fixture;
}

/** A process of the same user outside the sandbox, for the probe to see, trace and kill. */
function startVictim(user: User): ChildProcess {
  return spawn('sleep', ['120'], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The launcher's arguments that run the probe in the server's sandbox over this fixture, with `victim` as the process beside it. */
export function probeCommand(tools: ProbeTools, fixture: Fixture, victim: number): { args: string[] } {
  const spec: LaunchSpec = {
    grants: [{ uri: fileUri(fixture.workspace), rights: 'read-write' }],
    refusalLog: fixture.log,
    command: tools.probe,
    args: [String(victim), fixture.outside, fixture.secret, fixture.log, fixture.home, ...Object.keys(SECRET_ENV)],
  };
  return { args: [tools.launcher, JSON.stringify(spec)] };
}

/** The launcher's environment: the machine's, the secrets, a home of the user's and PATH with `bwrapFolder` first. */
function launcherEnv(fixture: Fixture, bwrapFolder?: string): NodeJS.ProcessEnv {
  return { ...process.env, ...SECRET_ENV, HOME: fixture.home, PATH: bwrapFolder === undefined ? process.env.PATH : `${bwrapFolder}:${process.env.PATH}` };
}

function runAs(mode: string, tools: ProbeTools, user: User, bwrapFolder?: string): ModeResult {
  if (!reachable(tools.launcher, user) || !reachable(process.execPath, user)) return { mode, skipped: `${user.name} cannot read the runtime or the probe's folder` };
  const fixture = makeFixture(user);
  const victim = startVictim(user);
  const outsideFd = fs.openSync(fixture.outside, 'r');
  try {
    const stdio: (number | 'ignore' | 'pipe')[] = ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(INHERITED_FD - 3).fill('ignore'), outsideFd];
    const { args } = probeCommand(tools, fixture, victim.pid!);
    const run = spawnSync(process.execPath, args, { uid: user.uid, gid: user.gid, env: launcherEnv(fixture, bwrapFolder), stdio, encoding: 'utf8', timeout: patience(60_000) });
    const lines = (run.stdout ?? '').split('\n').filter((line) => line !== '');
    const unavailable = lines.map((line) => JSON.parse(line) as { unavailable?: string }).find((line) => line.unavailable !== undefined);
    if (unavailable) return { mode, skipped: `the sandbox does not start: ${unavailable.unavailable}` };
    if (run.status !== 0) throw new Error(`${mode}: the probe exited with ${run.status ?? run.signal}\n${run.stderr}`);
    const rows = lines.map((line) => JSON.parse(line) as ProbeRow);
    // What the probe cannot see for itself, checked from outside.
    const effects: ProbeRow[] = [
      { route: 'the other process survived', open: !alive(victim.pid!), detail: alive(victim.pid!) ? 'alive' : 'killed' },
      { route: 'a file created outside', open: fs.readdirSync(fixture.outside).length !== 1, detail: fs.readdirSync(fixture.outside).join(' ') },
    ];
    return { mode, rows: [...rows, ...effects] };
  } finally {
    fs.closeSync(outsideFd);
    victim.kill('SIGKILL');
    fs.rmSync(fixture.base, { recursive: true, force: true });
  }
}

/** A setuid-root copy of bwrap, as distributions that lack unprivileged user namespaces install it. */
function setuidBwrap(tools: ProbeTools): string {
  const folder = path.join(tools.folder, 'setuid');
  fs.mkdirSync(folder, { recursive: true, mode: 0o755 });
  const found = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
  fs.copyFileSync(found, path.join(folder, 'bwrap'));
  fs.chmodSync(path.join(folder, 'bwrap'), 0o4755);
  return folder;
}

/** Every mode this machine can run: the current user; as root, also an unprivileged user, with the stock and a setuid bwrap. */
export function runProbeModes(tools: ProbeTools): ModeResult[] {
  const me = currentUser();
  const results = [runAs(me.uid === 0 ? 'root' : `current user (${me.name})`, tools, me)];
  if (me.uid !== 0) return results;
  const user = probeUser();
  if (typeof user === 'string') return [...results, { mode: 'unprivileged user', skipped: user }, { mode: 'setuid bubblewrap', skipped: user }];
  results.push(runAs(`unprivileged user (${user.name})`, tools, user));
  results.push(runAs(`setuid bubblewrap (${user.name})`, tools, user, setuidBwrap(tools)));
  return results;
}

/** The modes as a Markdown table: one row a route, one column a mode. */
export function probeTable(results: readonly ModeResult[]): string {
  const ran = results.filter((result) => result.rows !== undefined);
  const routes = [...new Set(ran.flatMap((result) => result.rows!.map((row) => row.route)))];
  const cell = (result: ModeResult, route: string) => {
    const row = result.rows!.find((candidate) => candidate.route === route);
    return row === undefined ? '' : `${row.open ? 'OPEN' : 'closed'} (${row.detail.trim()})`;
  };
  const lines = [`| route | ${ran.map((result) => result.mode).join(' | ')} |`, `| --- |${ran.map(() => ' --- |').join('')}`];
  for (const route of routes) lines.push(`| ${route} | ${ran.map((result) => cell(result, route)).join(' | ')} |`);
  for (const result of results) if (result.skipped !== undefined) lines.push('', `${result.mode}: skipped, ${result.skipped}`);
  return `${lines.join('\n')}\n`;
}

export function openRoutes(results: readonly ModeResult[]): string[] {
  return results.flatMap((result) => (result.rows ?? []).filter((row) => row.open).map((row) => `${result.mode}: ${row.route} (${row.detail})`));
}

async function main(): Promise<void> {
  const why = probeUnavailable();
  if (why !== undefined) {
    process.stderr.write(`sandbox-probe: ${why}\n`);
    process.exitCode = 2;
    return;
  }
  const tools = await buildProbeTools();
  try {
    const results = runProbeModes(tools);
    process.stdout.write(probeTable(results));
    const open = openRoutes(results);
    process.stdout.write(open.length === 0 ? '\nEvery route is closed.\n' : `\n${open.length} routes are open:\n${open.map((route) => `- ${route}`).join('\n')}\n`);
    if (open.length > 0) process.exitCode = 1;
  } finally {
    fs.rmSync(tools.folder, { recursive: true, force: true });
  }
}

if (require.main === module) void main();
