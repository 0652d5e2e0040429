// What a hostile client costs the server: each attack against a fresh server process, with the
// time it took and the server's own memory from /proc/<pid>/status (VmHWM, the peak resident set
// since it started, and VmRSS once the answers are in and it has had a moment to collect; with the
// sandbox on, of the server inside it). Then the CLI's audit of a hostile tree, its peak from GNU
// time. The time goals are here, not in test/server/hostile.test.ts: a test on a busy machine
// asserts the work bounds behind them (entries examined per page, CPU spent), never a time.
//
//   npx tsx bench/hostile.bench.ts                  # dist/server.js and dist/cli.js (npm run build first)
//   npx tsx bench/hostile.bench.ts --server <file>  # another bundle, for a before/after comparison
//   npx tsx bench/hostile.bench.ts --cli <file>     # another CLI bundle, likewise
//   npx tsx bench/hostile.bench.ts --only trees     # attacks whose name contains "trees"
//
// Linux only (it reads /proc). Large fixtures go on /dev/shm when it is there.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeUnportable, nestLongNames } from '../test/audit/fixture.js';
import { RawServer, type RawMessage } from '../test/server/rawServer.js';
import { MAX_AUDIT_ENTRIES } from '../src/server/limits.js';
import { processTreeMemory } from './perf/servers.js';

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
};
const bundle = path.resolve(option('--server') ?? path.join(__dirname, '..', 'dist', 'server.js'));
const cli = path.resolve(option('--cli') ?? path.join(__dirname, '..', 'dist', 'cli.js'));
const only = option('--only');

function tempDir(prefix: string): string {
  for (const parent of ['/dev/shm', os.tmpdir()]) {
    try {
      return fs.realpathSync(fs.mkdtempSync(path.join(parent, prefix)));
    } catch {
      // next
    }
  }
  throw new Error('no temporary folder');
}

interface Fixture {
  readonly base: string;
  readonly ws: string;
  readonly W: string;
  readonly wide: string;
}

function fixture(): Fixture {
  const base = tempDir('bi-hostile-bench-');
  const ws = path.join(base, 'ws');
  for (let d = 0; d < 100; d += 1) {
    fs.mkdirSync(path.join(ws, 'tree', `dir${d}`), { recursive: true });
    for (let f = 0; f < 100; f += 1) fs.writeFileSync(path.join(ws, 'tree', `dir${d}`, `file-${f}.txt`), 'x');
  }
  fs.writeFileSync(path.join(ws, 'big.txt'), Buffer.alloc(15 * MiB, 'b'));
  fs.writeFileSync(path.join(ws, 'small.txt'), 'small');
  const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} old`);
  fs.writeFileSync(path.join(ws, 'edit.txt'), `${lines.join('\n')}\n`);
  // A workspace of its own: the other attacks' resources/list calls do not walk it.
  const wide = path.join(base, 'empty-folders');
  fs.mkdirSync(wide);
  execFileSync(process.execPath, ['-e', `const fs=require('fs');process.chdir(process.argv[1]);for(let i=0;i<200000;i++)fs.mkdirSync('d'+i)`, wide]);
  return { base, ws, W: pathToFileURL(ws).href, wide: pathToFileURL(wide).href };
}

/**
 * A tree anyone can commit: 14 folders of 250-character names, then as many files as one audit
 * may examine, each named with a ":" and a trailing dot (a not-portable finding with a 3.5 KB
 * path), and a 6-byte file. Made on first use.
 */
function auditFlood(fx: Fixture): string {
  const ws = path.join(fx.base, 'audit-flood');
  if (!fs.existsSync(ws)) {
    makeUnportable(nestLongNames(ws), 0, MAX_AUDIT_ENTRIES);
    fs.writeFileSync(path.join(ws, 'small.txt'), 'small\n');
  }
  return ws;
}

/**
 * `audits` audit_workspace calls over the flood, and a read_text_file of 6 bytes sent once the
 * first audit has reported progress (it is walking): how long the read waited, and what was kept.
 */
async function auditsAndARead(server: RawServer, W: string, audits: number): Promise<Outcome> {
  const answers = Array.from({ length: audits }, (_, index) => {
    const id = server.newId();
    const answer = server.answerTo(id, 900_000);
    server.send({ id, method: 'tools/call', params: { name: 'audit_workspace', arguments: { workspaceUri: W, maxEntries: MAX_AUDIT_ENTRIES }, _meta: { progressToken: index } } });
    return answer;
  });
  await server.waitForUnmatched((message) => message.method === 'notifications/progress', 900_000);
  const started = Date.now();
  const read = await server.call('read_text_file', { workspaceUri: W, path: 'small.txt' }, 900_000);
  const waited = Date.now() - started;
  const { values, lost } = await settle(answers);
  const result = values[0]?.result?.structuredContent as { findings: unknown[]; notKept?: Record<string, number>; omitted: number } | undefined;
  const notKept = Object.values(result?.notKept ?? {}).reduce((sum, count) => sum + count, 0);
  const sizes = values.map((answer) => JSON.stringify(answer).length);
  return {
    answered: values.length + 1,
    failed: lost + failedOf([...values, read]),
    note: `the read waited ${waited} ms; ${result?.findings.length} findings listed, ${result?.omitted} left out of the answer, ${notKept} not kept; answers up to ${(Math.max(0, ...sizes) / MiB).toFixed(1)} MiB`,
  };
}

interface Outcome {
  readonly answered: number;
  readonly failed: number;
  readonly note?: string;
  /** The time the attack's goal is about, when it is not the whole attack's. */
  readonly goalMs?: number;
}

interface Attack {
  readonly name: string;
  readonly what: string;
  /** A time the server must stay under (the tests assert the work bounds behind it, never a time). */
  readonly goal?: { readonly what: string; readonly underMs: number };
  /** Launch arguments; by default the fixture's workspace. */
  readonly args?: (fx: Fixture) => string[];
  /** With the sandbox on (--sandbox auto); off by default. */
  readonly sandboxed?: boolean;
  run(server: RawServer, fx: Fixture): Promise<Outcome>;
}

const failedOf = (answers: readonly RawMessage[]) => answers.filter((answer) => answer.error !== undefined || answer.result?.isError === true).length;

async function settle<T>(promises: readonly Promise<T>[]): Promise<{ values: T[]; lost: number }> {
  const results = await Promise.allSettled(promises);
  return {
    values: results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])),
    lost: results.filter((result) => result.status === 'rejected').length,
  };
}

const ATTACKS: readonly Attack[] = [
  {
    name: 'mixed-1000',
    what: '1,000 concurrent mixed calls, 200 of them directory_tree over 10,000 files',
    async run(server, { W }) {
      const calls: Promise<RawMessage>[] = [];
      for (let i = 0; i < 1000; i += 1) {
        const call = (name: string, more: Record<string, unknown>) => server.call(name, { workspaceUri: W, ...more }, 300_000);
        const which = i % 5;
        if (which === 0) calls.push(call('directory_tree', { path: 'tree' }));
        else if (which === 1) calls.push(call('read_text_file', { path: 'small.txt' }));
        else if (which === 2) calls.push(call(i % 10 === 2 ? 'search_files' : 'list_directory', { path: 'tree', pattern: 'file-7' }));
        else if (which === 3) calls.push(call(i % 10 === 3 ? 'read_multiple_files' : 'get_file_info', { path: 'small.txt', paths: ['small.txt', 'tree/dir1/file-1.txt'] }));
        else calls.push(i % 10 === 4 ? server.request('resources/list', {}, 300_000) : call('list_workspaces', {}));
      }
      const { values, lost } = await settle(calls);
      return { answered: values.length, failed: failedOf(values) + lost };
    },
  },
  {
    name: 'trees-200',
    what: '200 concurrent directory_tree over 10,000 files',
    async run(server, { W }) {
      const { values, lost } = await settle(Array.from({ length: 200 }, () => server.call('directory_tree', { workspaceUri: W, path: 'tree' }, 300_000)));
      return { answered: values.length, failed: failedOf(values) + lost };
    },
  },
  {
    name: 'braces',
    what: 'search_files with {a,b} repeated 20 times (a million patterns)',
    goal: { what: 'refused', underMs: 1000 },
    async run(server, { W }) {
      const { values, lost } = await settle([server.call('search_files', { workspaceUri: W, path: 'tree', pattern: '{a,b}'.repeat(20) }, 300_000)]);
      const text = (values[0]?.result?.content as { text?: string }[] | undefined)?.[0]?.text ?? values[0]?.error?.message ?? 'no answer';
      return { answered: values.length, failed: lost, note: text.slice(0, 70) };
    },
  },
  {
    name: 'read-many-15MiB',
    what: '8 concurrent read_multiple_files, each naming a 15 MiB file 30 times',
    async run(server, { W }) {
      const paths = Array.from({ length: 30 }, () => 'big.txt');
      const { values, lost } = await settle(Array.from({ length: 8 }, () => server.call('read_multiple_files', { workspaceUri: W, paths }, 300_000)));
      const sizes = values.map((answer) => JSON.stringify(answer).length);
      return { answered: values.length, failed: lost + values.filter((answer) => answer.error !== undefined).length, note: `largest answer ${(Math.max(0, ...sizes) / MiB).toFixed(2)} MiB` };
    },
  },
  {
    name: 'resources-200k',
    what: 'resources/list over 200,000 empty folders, every page',
    goal: { what: 'the slowest page', underMs: 1000 },
    args: ({ wide }) => ['--workspace', wide],
    async run(server) {
      let cursor: string | undefined;
      let pages = 0;
      let slowest = 0;
      let failed = 0;
      do {
        const started = Date.now();
        const page = await server.request('resources/list', cursor === undefined ? {} : { cursor }, 300_000).catch(() => undefined);
        slowest = Math.max(slowest, Date.now() - started);
        if (page === undefined || page.error !== undefined) {
          failed += 1;
          break;
        }
        pages += 1;
        cursor = page.result?.nextCursor as string | undefined;
      } while (cursor !== undefined && pages < 10_000);
      return { answered: pages, failed, note: `${pages} pages, slowest ${slowest} ms`, goalMs: slowest };
    },
  },
  {
    name: 'edit-20000',
    what: 'edit_file rewriting every line of a 20,000-line file, with a list_workspaces sent meanwhile',
    goal: { what: 'the call sent meanwhile', underMs: 1000 },
    async run(server, { W, ws }) {
      const text = fs.readFileSync(path.join(ws, 'edit.txt'), 'utf8');
      const started = Date.now();
      const edit = server.call('edit_file', { workspaceUri: W, path: 'edit.txt', dryRun: true, edits: [{ oldText: text, newText: text.replaceAll(' old', ' new') }] }, 300_000);
      const meanwhile = await server.call('list_workspaces', {}, 300_000);
      const waited = Date.now() - started;
      const { values, lost } = await settle([edit]);
      return { answered: values.length + 1, failed: lost + failedOf([...values, meanwhile]), note: `a call sent meanwhile waited ${waited} ms`, goalMs: waited };
    },
  },
  {
    name: 'refusal-flood',
    what: '10,000 refused calls, 2,000 at a time, with a refusal log',
    args: ({ W, base }) => ['--workspace', W, '--refusal-log', path.join(base, 'log', 'refusals.jsonl')],
    async run(server, { W }) {
      let answered = 0;
      let failed = 0;
      for (let wave = 0; wave < 5; wave += 1) {
        const { values, lost } = await settle(Array.from({ length: 2000 }, (_, i) => server.call('get_file_info', { workspaceUri: W, path: `../outside/${wave}-${i}` }, 300_000)));
        answered += values.length;
        failed += lost + values.filter((answer) => answer.result?.isError !== true).length;
      }
      return { answered, failed };
    },
  },
  {
    name: 'audit-flood',
    what: 'audit_workspace over 100,000 files whose names Windows cannot hold, below 14 folders of 250-character names; a 6-byte read meanwhile',
    args: (fx) => ['--workspace', pathToFileURL(auditFlood(fx)).href],
    run: (server, fx) => auditsAndARead(server, pathToFileURL(auditFlood(fx)).href, 1),
  },
  {
    name: 'audit-flood-2-sandbox',
    what: 'the same with two audits at once, the sandbox on',
    args: (fx) => ['--workspace', pathToFileURL(auditFlood(fx)).href],
    sandboxed: true,
    run: (server, fx) => auditsAndARead(server, pathToFileURL(auditFlood(fx)).href, 2),
  },
  {
    name: 'audit-flood-8',
    what: 'the same with eight audits at once',
    args: (fx) => ['--workspace', pathToFileURL(auditFlood(fx)).href],
    run: (server, fx) => auditsAndARead(server, pathToFileURL(auditFlood(fx)).href, 8),
  },
  {
    name: 'long-line',
    what: 'a 17 MiB write_file (over the 16 MiB message limit), then a ping',
    async run(server, { W }) {
      const id = server.newId();
      const answer = server.answerTo(id, 300_000);
      server.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'write_file', arguments: { workspaceUri: W, path: 'huge.txt', content: 'x'.repeat(17 * MiB) } } })}\n`);
      const { values, lost } = await settle([answer, server.request('ping', undefined, 300_000)]);
      return { answered: values.length, failed: lost, note: values[0]?.error?.message.slice(0, 70) ?? 'the server did not answer' };
    },
  },
];

/** The server's memory in MiB, the sandbox's server inside included. */
const memoryMiB = (server: RawServer, field: 'VmHWM' | 'VmRSS') => (processTreeMemory(server.pid, field) ?? NaN) / MiB;

async function measure(attack: Attack, fx: Fixture) {
  const server = RawServer.start(attack.args?.(fx) ?? ['--workspace', fx.W], { bundle, ...(attack.sandboxed ? { sandboxed: true } : {}) });
  try {
    await server.initialize();
    const before = memoryMiB(server, 'VmRSS');
    const started = Date.now();
    const outcome = await attack.run(server, fx);
    const seconds = (Date.now() - started) / 1000;
    const peak = server.alive ? memoryMiB(server, 'VmHWM') : NaN;
    // Waits up to 5 s for the resident set to fall under 150 MiB.
    let after = NaN;
    for (const deadline = Date.now() + 5000; server.alive; await new Promise((resolve) => setTimeout(resolve, 100))) {
      after = memoryMiB(server, 'VmRSS');
      if (after < 150 || Date.now() > deadline) break;
    }
    const goalMs = outcome.goalMs ?? seconds * 1000;
    const goal = attack.goal === undefined ? '' : `${attack.goal.what} ${goalMs} ms, goal under ${attack.goal.underMs}: ${goalMs < attack.goal.underMs ? 'met' : 'MISSED'}`;
    return { attack: attack.name, seconds, startMiB: before, peakMiB: peak, afterMiB: after, alive: server.alive, ...outcome, goal };
  } finally {
    server.kill();
  }
}

/** The CLI's audit of the flood, in text or JSON: its time and peak resident set (GNU time's %M). */
async function measureCli(fx: Fixture, json: boolean) {
  const name = json ? 'cli-audit-json' : 'cli-audit';
  const started = Date.now();
  const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, cli, 'audit', '--root', auditFlood(fx), ...(json ? ['--json'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let bytes = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const kib = Number(/(\d+)\s*$/.exec(stderr)?.[1] ?? NaN);
  return {
    attack: name,
    seconds: (Date.now() - started) / 1000,
    startMiB: NaN,
    peakMiB: kib / 1024,
    afterMiB: NaN,
    alive: true,
    answered: 1,
    failed: status === 3 ? 0 : 1,
    note: `exit ${status}, ${(bytes / MiB).toFixed(1)} MiB on stdout`,
    goal: '',
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} does not exist: npm run build first`);
  process.stdout.write(`server: ${bundle}\ncli: ${cli}\nmaking the fixture (10,000 files, a 15 MiB file, 200,000 empty folders)...\n`);
  const fx = fixture();
  try {
    const rows: Awaited<ReturnType<typeof measure>>[] = [];
    const show = (row: (typeof rows)[number]) => {
      rows.push(row);
      process.stdout.write(
        `  ${row.seconds.toFixed(1)} s, peak ${row.peakMiB.toFixed(0)} MiB (from ${row.startMiB.toFixed(0)}), after ${row.afterMiB.toFixed(0)} MiB, ` +
          `${row.answered} answered, ${row.failed} failed${row.alive ? '' : ', THE SERVER EXITED'}${row.note ? `; ${row.note}` : ''}\n`,
      );
    };
    for (const attack of ATTACKS.filter((candidate) => only === undefined || candidate.name.includes(only))) {
      process.stdout.write(`${attack.name}: ${attack.what}\n`);
      show(await measure(attack, fx));
    }
    for (const json of [false, true]) {
      if (only !== undefined && !(json ? 'cli-audit-json' : 'cli-audit').includes(only)) continue;
      if (!fs.existsSync('/usr/bin/time')) {
        process.stdout.write('cli-audit: skipped, GNU time (/usr/bin/time) is not installed\n');
        break;
      }
      process.stdout.write(`${json ? 'cli-audit-json' : 'cli-audit'}: boundary-inspector audit${json ? ' --json' : ''} of the audit-flood tree\n`);
      show(await measureCli(fx, json));
    }
    process.stdout.write(`\n${'attack'.padEnd(22)} seconds  peak MiB  after MiB  answered  failed  alive  goal\n`);
    for (const row of rows) {
      process.stdout.write(
        `${row.attack.padEnd(22)} ${row.seconds.toFixed(1).padStart(7)}  ${row.peakMiB.toFixed(0).padStart(8)}  ${row.afterMiB.toFixed(0).padStart(9)}  ${String(row.answered).padStart(8)}  ${String(row.failed).padStart(6)}  ${(row.alive ? 'yes' : 'NO').padEnd(5)}  ${row.goal}\n`,
      );
    }
  } finally {
    fs.rmSync(fx.base, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exitCode = 1;
});
