// The sandbox attacked from inside: the probe in every mode this machine can run (every route must
// fail), terminal injection through a pseudo-terminal, and the real server started with an extra
// descriptor, secrets in its environment and a terminal, checked from outside.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileUri, makeTempDir, removeDir, serverPath, writeTree } from '../server/helpers.js';
import { RawServer } from '../server/rawServer.js';
import { patience } from '../patience.js';
import { sandboxLaunch, spawnSandboxed, type SandboxConfig } from '../../src/server/launch/sandbox.js';
import { namespacesOf, SANDBOX_ENV } from '../../src/server/launch/sandboxEnvironment.js';
import { buildProbeTools, INHERITED_FD, openRoutes, probeCommand, probeTable, probeUnavailable, runProbeModes, SECRET_ENV, type ModeResult, type ProbeTools } from './harness.js';

const why = probeUnavailable();
const isRoot = process.getuid?.() === 0;

describe('the probe inside the server\'s sandbox: every route fails, in every mode', { skip: why }, () => {
  let tools: ProbeTools;
  let results: ModeResult[];
  before(async () => {
    tools = await buildProbeTools();
    results = runProbeModes(tools);
  });
  after(() => fs.rmSync(tools.folder, { recursive: true, force: true }));

  test('no route is open', () => {
    assert.deepEqual(openRoutes(results), [], probeTable(results));
  });

  test('the probe ran in every mode, and tried every route in each', () => {
    const expected = isRoot ? 3 : 1;
    const ran = results.filter((result) => result.rows !== undefined);
    assert.equal(ran.length, expected, `modes that ran: ${results.map((r) => `${r.mode}${r.skipped ? ` (skipped: ${r.skipped})` : ''}`).join(', ')}`);
    for (const result of ran) assert.ok(result.rows!.length >= 60, `${result.mode}: only ${result.rows!.length} routes`);
  });
});

function hasScript(): boolean {
  return spawnSync('script', ['--version']).status === 0;
}

/** Runs `command` with a pseudo-terminal as its controlling terminal; then a shell on the same terminal reads one line. */
function underTerminal(command: string): Promise<string> {
  return new Promise((resolve) => {
    const shell = `${command}; read -t 2 line; echo "READ[$line]"`;
    const child = spawn('script', ['-qec', shell, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // stdin stays open: an end of input would be typed into the terminal too.
    child.on('exit', () => resolve(output));
    setTimeout(() => child.kill('SIGKILL'), patience(30_000)).unref();
  });
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

describe('terminal injection (TIOCSTI) from inside, with a pseudo-terminal as the controlling terminal', { skip: why ?? (!hasScript() && 'script (util-linux) is not installed') }, () => {
  let tools: ProbeTools;
  let base: string;
  before(async () => {
    tools = await buildProbeTools();
    base = makeTempDir();
    writeTree(base, { 'ws/a.txt': 'a', 'outside/secret.txt': 's' });
  });
  after(() => {
    fs.rmSync(tools.folder, { recursive: true, force: true });
    removeDir(base);
  });

  const fixture = () => ({ base, workspace: path.join(base, 'ws'), outside: path.join(base, 'outside'), secret: path.join(base, 'outside', 'secret.txt'), log: path.join(base, 'log.jsonl'), home: base });

  test('control: run outside any sandbox, the probe types a command the user\'s shell then reads', async (t) => {
    const { args } = probeCommand(tools, fixture(), 1);
    const spec = JSON.parse(args[1]!) as { command: string; args: string[] };
    const output = await underTerminal([spec.command, ...spec.args].map(quote).join(' '));
    if (!output.includes('READ[touch /tmp/PWNED]')) t.skip(`this kernel refuses TIOCSTI already (dev.tty.legacy_tiocsti): ${output.slice(-200)}`);
  });

  test('inside the server\'s sandbox, nothing typed reaches the terminal', async () => {
    const { args } = probeCommand(tools, fixture(), 1);
    const output = await underTerminal([process.execPath, ...args].map(quote).join(' '));
    assert.match(output, /"route":"ioctl TIOCSTI on stdio and \/dev\/tty","open":false/, output);
    assert.match(output, /READ\[\]/, 'the shell after the probe read an empty line');
    assert.doesNotMatch(output, /READ\[touch/);
  });
});

/** Every process below `pid`, read from /proc/<pid>/task/<pid>/children. */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The sandboxed server below `pid`: the process whose environment carries the sandbox marker (bubblewrap's own carry it too). */
async function innerServer(pid: number): Promise<number> {
  const deadline = Date.now() + patience(15_000);
  while (Date.now() < deadline) {
    for (const candidate of descendants(pid)) {
      try {
        const marked = fs.readFileSync(`/proc/${candidate}/environ`, 'utf8').split('\0').some((entry) => entry.startsWith(`${SANDBOX_ENV}=`));
        if (marked && fs.readFileSync(`/proc/${candidate}/comm`, 'utf8').trim() !== 'bwrap') return candidate;
      } catch {
        // gone, or not ours to read
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no sandboxed server below ${pid}`);
}

function linksOf(pid: number): string[] {
  return fs.readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      return [fs.readlinkSync(`/proc/${pid}/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

type Layers = { sandbox: { active: boolean; mechanism: string | null; detail: string } };

async function layersOf(server: RawServer): Promise<Layers> {
  await server.initialize();
  const answer = await server.call('list_workspaces', {});
  return (answer.result?.structuredContent as { layers: Layers }).layers;
}

describe('the real server in its sandbox, seen from outside', { skip: why }, () => {
  let base: string;
  let W: string;
  before(() => {
    base = makeTempDir();
    writeTree(base, { 'ws/a.txt': 'a', 'outside/secret.txt': 'secret' });
    W = fileUri(path.join(base, 'ws'));
  });
  after(() => removeDir(base));

  test('a descriptor open on an outside folder and secrets in the environment never reach the server inside', async () => {
    const outside = fs.openSync(path.join(base, 'outside'), 'r');
    const server = RawServer.start(['--workspace', W], { sandboxed: true, env: { ...process.env, ...SECRET_ENV }, inherit: { fd: outside, at: INHERITED_FD } });
    fs.closeSync(outside);
    try {
      const layers = await layersOf(server);
      assert.equal(layers.sandbox.active, true, layers.sandbox.detail);
      const inner = await innerServer(server.pid);
      const outsideFolder = path.join(base, 'outside');
      assert.ok(!linksOf(inner).includes(outsideFolder), `the server inside holds the outside folder: ${linksOf(inner).join(', ')}`);
      assert.ok(!linksOf(server.pid).includes(outsideFolder), 'the launcher closed it too');
      const environment = fs.readFileSync(`/proc/${inner}/environ`, 'utf8').split('\0').map((entry) => entry.split('=')[0]);
      for (const name of Object.keys(SECRET_ENV)) assert.ok(!environment.includes(name), `${name} reached the server inside`);
      assert.ok(!environment.includes('PATH') && !environment.includes('NODE_OPTIONS'));
    } finally {
      server.child.stdin.end();
      await server.exited;
    }
  });

  test('the refusal log is written by the launcher outside; its path is not in the sandbox', async () => {
    const log = path.join(base, 'logs', 'refusals.jsonl');
    const server = RawServer.start(['--workspace', W, '--refusal-log', log], { sandboxed: true });
    try {
      assert.equal((await layersOf(server)).sandbox.active, true);
      const refused = await server.call('read_text_file', { workspaceUri: W, path: '../outside/secret.txt' });
      assert.equal(refused.result?.isError, true);
      // The line is on disk before the answer: the launcher acknowledged it.
      assert.match(fs.readFileSync(log, 'utf8'), /"code":"ERR_OUTSIDE"/);
      const inner = await innerServer(server.pid);
      const bwrap = descendants(server.pid).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--unshare-pid'))!;
      const args = fs.readFileSync(`/proc/${bwrap}/cmdline`, 'utf8').split('\0');
      const bound = args.flatMap((arg, i) => (/^--(ro-|dev-)?bind(-try)?$/.test(arg) ? [args[i + 1]!] : []));
      assert.ok(!bound.some((source) => source.startsWith(path.dirname(log))), `no bind of the log or its folder: ${bound.join(' ')}`);
      assert.ok(!linksOf(inner).some((link) => link.startsWith(path.dirname(log))), 'the server inside has no descriptor on the log');
    } finally {
      server.child.stdin.end();
      await server.exited;
    }
  });

  test('with a terminal as the launcher\'s controlling terminal, the server inside has none', async (t) => {
    if (!hasScript()) {
      t.skip('script (util-linux) is not installed');
      return;
    }
    const child = spawn('script', ['-qec', [process.execPath, serverPath, '--workspace', W].map(quote).join(' '), '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const inner = await innerServer(child.pid!);
      const terminalOf = (pid: number) => {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[4]);
      };
      const launcher = descendants(child.pid!).find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server.js') && pid !== inner)!;
      assert.notEqual(terminalOf(launcher), 0, 'the launcher runs on the terminal');
      assert.equal(terminalOf(inner), 0, 'the server inside has no controlling terminal');
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('serve --check-sandbox starts the sandbox, checks it from inside, prints one answer and exits', () => {
    for (let run = 0; run < 3; run += 1) {
      const checked = spawnSync(process.execPath, [serverPath, '--workspace', W, '--check-sandbox'], { encoding: 'utf8', timeout: patience(20_000) });
      assert.equal(checked.status, 0, checked.stderr);
      const lines = checked.stdout.trim().split('\n');
      assert.equal(lines.length, 1, `one answer, from inside: ${checked.stdout}`);
      const state = JSON.parse(lines[0]!) as { active: boolean; mechanism: string; detail: string };
      assert.deepEqual([state.active, state.mechanism], [true, 'bubblewrap'], state.detail);
      assert.match(state.detail, /checked from inside at start-up/);
    }
  });

  test('where bubblewrap cannot start the sandbox, the server says why and serves without it; the requests sent meanwhile are answered', async () => {
    const fake = path.join(base, 'fake-bin');
    fs.mkdirSync(fake, { recursive: true });
    fs.writeFileSync(path.join(fake, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const server = RawServer.start(['--workspace', W], { sandboxed: true, env: { ...process.env, PATH: `${fake}:${process.env.PATH}` } });
    try {
      const { sandbox } = await layersOf(server);
      assert.equal(sandbox.active, false);
      assert.match(sandbox.detail, /bubblewrap could not start the server's sandbox here \(bwrap: No permissions to create new namespace\)/);
      const read = await server.call('read_text_file', { workspaceUri: W, path: 'a.txt' });
      assert.equal(read.result?.isError, undefined, JSON.stringify(read));
    } finally {
      server.child.stdin.end();
      await server.exited;
    }
  });

  test('a server that merely claims to be inside checks, and reports every missing piece by name, never "active"', async () => {
    const marker = JSON.stringify({ mechanism: 'bubblewrap', outside: namespacesOf('self'), seccomp: true });
    const server = RawServer.start(['--workspace', W], { sandboxed: true, env: { ...process.env, [SANDBOX_ENV]: marker, ...SECRET_ENV } });
    try {
      const { sandbox } = await layersOf(server);
      assert.equal(sandbox.active, false);
      assert.match(sandbox.detail, /^sandbox incomplete: /);
      for (const gap of [/no user, pid, ipc, uts, net, cgroup, mnt namespace of its own/, /no seccomp filter/, /GITHUB_TOKEN/, /\/tmp/]) assert.match(sandbox.detail, gap);
      if (isRoot) assert.match(sandbox.detail, /capabilities are held/);
      assert.match(server.stderr(), /; sandbox incomplete: /);
    } finally {
      server.child.stdin.end();
      await server.exited;
    }
  });

  test('as root, where the sandbox has no user namespace of its own, the server inside says so', { skip: !isRoot && 'bubblewrap gives an ordinary user a user namespace whatever it is asked' }, async () => {
    const config: SandboxConfig = {
      platform: 'linux',
      workspaces: [{ path: path.join(base, 'ws'), realPath: fs.realpathSync(path.join(base, 'ws')), rights: 'read-write' }],
      runtime: process.execPath,
      script: fs.realpathSync(serverPath),
      userNamespace: false,
    };
    const child = spawnSandboxed(sandboxLaunch(config, process.execPath, [serverPath, '--workspace', W]), ['pipe', 'pipe', 'pipe']);
    const answer = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('"id":2')) resolve(out);
      });
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_workspaces', arguments: {} } })}\n`);
    });
    child.stdin!.end();
    assert.match(answer, /sandbox incomplete: [^"]*no user namespace of its own/);
    assert.match(answer, /"active":false/);
  });
});
