// Whether the agent's server runs (src/extension/serverProcess.ts): the process the editor started
// with the server's definition is found, apart from the inspector's own server, a sandbox check,
// and another window's server; a real process is found while it lives and not after it is killed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { isServerOf, listProcesses, serverStatus, ServerWatch, type ProcessEntry, type ServerCommand } from '../../src/extension/serverProcess.js';
import type { ServerStatus } from '../../src/shared/messages.js';

const script = '/ext/dist/server.js';
const command: ServerCommand = { script, args: ['--workspace', 'file:///w', '--refusal-log', '/s/refusals.jsonl', '--quiet'], refusalLog: '/s/refusals.jsonl' };
const line = (args: readonly string[], runtime = '/usr/bin/node') => [runtime, script, ...args].join(' ');

test('the editor\'s server: the outermost process of the script writing this log, its sandbox seen, the inspector\'s own left out', () => {
  const processes: ProcessEntry[] = [
    { pid: 10, ppid: 1, args: '/usr/lib/code/extensionHost' },
    // The editor's server, the bubblewrap holding its sandboxed self, and that self.
    { pid: 20, ppid: 10, args: line(command.args) },
    { pid: 21, ppid: 20, args: `/usr/bin/bwrap --unshare-pid --die-with-parent -- ${line(command.args)}` },
    { pid: 22, ppid: 21, args: line(command.args) },
    // The inspector's own server ("Run on the server"), and its sandbox.
    { pid: 30, ppid: 10, args: line(command.args) },
    { pid: 31, ppid: 30, args: `/usr/bin/bwrap -- ${line(command.args)}` },
    // A check of the sandbox, and another window's server (its own log).
    { pid: 40, ppid: 10, args: `${line(command.args)} --check-sandbox` },
    { pid: 50, ppid: 1, args: line(['--workspace', 'file:///v', '--refusal-log', '/t/refusals.jsonl']) },
  ];
  assert.deepEqual(serverStatus(processes, command, new Set([30])), { kind: 'running', pid: 20, current: true, sandbox: 'bubblewrap' });
  // Started before the grants changed: running, but not with the grants of now.
  assert.deepEqual(serverStatus(processes, { ...command, args: ['--read-only-workspace', 'file:///w', ...command.args.slice(2)] }, new Set([30])), {
    kind: 'running',
    pid: 20,
    current: false,
    sandbox: 'bubblewrap',
  });
  // Without a sandbox program around it, none is claimed.
  assert.deepEqual(serverStatus(processes.filter((entry) => entry.pid < 21), command), { kind: 'running', pid: 20, current: true, sandbox: null });
});

test('stopped, not offered, not told', () => {
  const own: ProcessEntry[] = [{ pid: 30, ppid: 10, args: line(command.args) }];
  assert.deepEqual(serverStatus(own, command, new Set([30])), { kind: 'stopped' });
  assert.deepEqual(serverStatus([], command), { kind: 'stopped' });
  assert.deepEqual(serverStatus(own, { ...command, args: [] }), { kind: 'none' });
  assert.deepEqual(serverStatus(undefined, command), { kind: 'unknown' });
});

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-server-process-'));
after(() => fs.rmSync(base, { recursive: true, force: true }));

test('a real process: found while it runs, with its pid; not found once it is killed', { skip: process.platform === 'win32' ? 'not told on Windows' : false }, async () => {
  // A stand-in for the bundled server, in a folder whose name holds a space, run as the editor runs it.
  const folder = path.join(base, 'my ext');
  fs.mkdirSync(folder);
  const fake = path.join(folder, 'server.js');
  fs.writeFileSync(fake, 'setInterval(() => {}, 1000);\n');
  const real: ServerCommand = { script: fake, args: ['--workspace', 'file:///w', '--refusal-log', path.join(base, 'refusals.jsonl')], refusalLog: path.join(base, 'refusals.jsonl') };
  const child = spawn(process.execPath, [fake, ...real.args], { stdio: 'ignore' });
  try {
    const look = async () => serverStatus(await listProcesses((args) => isServerOf(real, args)), real);
    // Waits for the process table to show it: a limit far above the slowest machine's.
    const until = async (accept: (status: ServerStatus) => boolean) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const status = await look();
        if (accept(status) || Date.now() > deadline) return status;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    assert.deepEqual(await until((status) => status.kind === 'running'), { kind: 'running', pid: child.pid, current: true, sandbox: null });
    child.kill('SIGKILL');
    assert.deepEqual(await until((status) => status.kind !== 'running'), { kind: 'stopped' });
  } finally {
    child.kill('SIGKILL');
  }
});

test('the watch tells each change once, and looks as soon as it is held', async () => {
  const found: ServerStatus[] = [{ kind: 'stopped' }, { kind: 'stopped' }, { kind: 'running', pid: 7, current: true, sandbox: null }];
  let looked = 0;
  const told: ServerStatus[] = [];
  const watch = new ServerWatch(async () => found[Math.min(looked++, found.length - 1)]!, (status) => told.push(status));
  for (let i = 0; i < 3; i += 1) {
    watch.check();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.deepEqual(told, [{ kind: 'stopped' }, { kind: 'running', pid: 7, current: true, sandbox: null }]);
  assert.deepEqual(watch.status, { kind: 'running', pid: 7, current: true, sandbox: null });
  // Held, it looks at once (and every SERVER_WATCH_MS until released).
  const before = looked;
  const held = watch.hold();
  held.dispose();
  assert.equal(looked, before + 1);
});
