// Two servers on one folder: two editor windows, or an editor and another agent, each running a
// sandboxed server (each in a PID namespace of its own) over the same workspace. Each must leave
// the other's temporaries alone while it lives, and clear them once it is gone. The timing that
// lost both versions of a file is forced with strace: one server held just after it linked its new
// file in, the other just before it takes the file aside.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findOnPath } from '../../src/host/node.js';
import { eventually } from '../patience.js';
import { connect, fileUri, makeTempDir, removeDir, type Session, type ToolResult } from './helpers.js';

const HOUR_AGO = Date.now() / 1000 - 3600;

function unavailable(): string | undefined {
  if (process.platform !== 'linux') return 'PID namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'strace attaches to the sandboxed servers only as root';
  if (!findOnPath('strace', process.env)) return 'strace is not installed (package strace)';
  const bwrap = findOnPath('bwrap', process.env);
  if (!bwrap) return 'bwrap is not installed (package bubblewrap)';
  const probe = spawnSync(bwrap, ['--ro-bind', '/', '/', '--unshare-pid', '--', process.execPath, '-e', ''], { timeout: 30_000 });
  return probe.status === 0 ? undefined : 'bwrap cannot create namespaces here';
}

/** The process ids below `pid`, depth first. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const visit = (at: number) => {
    for (const child of children.get(at) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** The server serving a session inside its sandbox: the process below the launcher in another PID namespace. */
function serverInside(session: Session): number {
  const own = fs.readlinkSync('/proc/self/ns/pid');
  const inner = descendants(session.pid!).filter((pid) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/ns/pid`) !== own && fs.readlinkSync(`/proc/${pid}/exe`) === fs.realpathSync(process.execPath);
    } catch {
      return false;
    }
  });
  assert.equal(inner.length, 1, `one sandboxed server below launcher ${session.pid}: ${inner.join(', ')}`);
  return inner[0]!;
}

/** Holds `pid` for `delayMs` at the first of `calls` it makes (at its exit: the call has acted), or before it (at its entry). */
async function hold(pid: number, calls: string, at: 'enter' | 'exit', delayMs: number): Promise<ChildProcess> {
  const tracer = spawn('strace', ['-qq', '-f', '-p', String(pid), '-o', '/dev/null', '-e', `trace=${calls}`, '-e', `inject=${calls}:delay_${at}=${delayMs * 1000}:when=1`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // strace is attached once the process shows a tracer.
  await eventually(() => {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    assert.notEqual(/TracerPid:\s+(\d+)/.exec(status)?.[1], '0', 'traced');
  }, `strace attached to ${pid}`, 30_000);
  return tracer;
}

function textOf(result: ToolResult): string {
  return result.content?.map((part) => part.text ?? '').join('') ?? '';
}

describe('two sandboxed servers on one folder', { skip: unavailable() }, () => {
  let base: string;
  let ws: string;
  let first: Session;
  let second: Session;
  const tracers: ChildProcess[] = [];

  before(async () => {
    base = makeTempDir('bi-two-servers-');
    ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const args = ['--workspace', fileUri(ws)];
    [first, second] = await Promise.all([connect('v1', { args, sandbox: 'default' }), connect('v1', { args, sandbox: 'default' })]);
  });
  after(async () => {
    for (const tracer of tracers) tracer.kill('SIGKILL');
    await Promise.all([first?.close(), second?.close()]);
    removeDir(base);
  });

  test('a file last saved an hour ago, written by both at once: the other server never removes a live writer\'s file taken aside, and one version is kept', async () => {
    const target = path.join(ws, 'f.txt');
    fs.writeFileSync(target, 'original');
    fs.utimesSync(target, HOUR_AGO, HOUR_AGO);
    const workspaceUri = fileUri(ws);

    // The first server stops just after it linked its new file in, its old file taken aside.
    tracers.push(await hold(serverInside(first), 'link,linkat', 'exit', 1500));
    const firstWrite = first.call('write_file', { workspaceUri, path: 'f.txt', content: 'from the first server' });
    await eventually(() => assert.equal(fs.readFileSync(target, 'utf8'), 'from the first server'), 'the first server linked its file in', 30_000);

    // The second writes meanwhile, and stops before it takes the file aside, while the first goes on.
    tracers.push(await hold(serverInside(second), 'rename,renameat,renameat2', 'enter', 3000));
    const secondWrite = second.call('write_file', { workspaceUri, path: 'f.txt', content: 'from the second server' });
    const [a, b] = await Promise.all([firstWrite, secondWrite]);

    assert.equal(fs.existsSync(target), true, `the file is still there (first: ${textOf(a)}; second: ${textOf(b)})`);
    const kept = fs.readFileSync(target, 'utf8');
    const written: string[] = [a, b].filter((result) => !result.isError).map((result) => (result === a ? 'from the first server' : 'from the second server'));
    assert.ok(written.length > 0, `at least one write is kept (first: ${textOf(a)}; second: ${textOf(b)})`);
    // Each answer is true: a write said done is on disk unless a later one replaced it; one refused left nothing of itself.
    assert.ok(written.includes(kept), `the file holds a write that was answered done: ${kept}`);
    if (b.isError) assert.equal(kept, 'from the first server');
    assert.deepEqual(fs.readdirSync(ws).filter((name) => name.startsWith('.bi.')), [], 'nothing is left beside the file');
  });

  test('a server killed with the file taken aside: the next server\'s first write of it puts the file back, and leaves nothing', async () => {
    const target = path.join(ws, 'g.txt');
    fs.writeFileSync(target, 'original');
    fs.utimesSync(target, HOUR_AGO, HOUR_AGO);
    const workspaceUri = fileUri(ws);
    const doomed = await connect('v1', { args: ['--workspace', workspaceUri], sandbox: 'default' });
    const launcher = doomed.pid!;
    const inside = serverInside(doomed);
    // Held just after it took the file aside: the name is empty, the file is under a temporary name.
    const tracer = await hold(inside, 'rename,renameat,renameat2', 'exit', 60_000);
    tracers.push(tracer);
    void doomed.call('write_file', { workspaceUri, path: 'g.txt', content: 'never committed' }).catch(() => undefined);
    await eventually(() => assert.equal(fs.existsSync(target), false), 'the file taken aside', 30_000);
    process.kill(inside, 'SIGKILL');
    // Its death reaches its parent once the tracer lets go of it.
    tracer.kill('SIGKILL');
    await eventually(() => assert.throws(() => process.kill(launcher, 0)), 'its launcher ended with it', 30_000);
    await doomed.close().catch(() => undefined);
    assert.equal(fs.readdirSync(ws).filter((name) => name.startsWith('.bi.')).length > 0, true, 'the killed server left its temporaries');

    const next = await connect('v1', { args: ['--workspace', workspaceUri], sandbox: 'default' });
    try {
      const read = await next.call('read_text_file', { workspaceUri, path: 'g.txt' });
      const written = await next.call('write_file', { workspaceUri, path: 'g.txt', content: 'next' });
      assert.equal(written.isError ?? false, false, textOf(written));
      assert.equal(fs.readFileSync(target, 'utf8'), 'next');
      assert.deepEqual(fs.readdirSync(ws).filter((name) => name.startsWith('.bi.')), [], 'nothing is left beside the file');
      void read;
    } finally {
      await next.close();
    }
  });
});
