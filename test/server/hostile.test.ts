// A hostile client: what no well-behaved client sends. Each test is an attack that once bent the
// server (made it exit, grow without bound, block, or write where it should not) and the bound
// that now holds. Raw stdio through RawServer, which also reads the server's own memory from
// /proc/<pid>/status; the SDK clients of both eras where the attack goes through them.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CLIENT_KINDS, connect, expectContent, fileUri, makeFastTempDir, makeTempDir, removeDir, runServerToExit, writeTree } from './helpers.js';
import { answerText, RawServer, type RawMessage } from './rawServer.js';
import { eventually, patience } from '../patience.js';
import { ANSWER_BUDGET_BYTES, MAX_LIST_ENTRIES, MAX_WALK_ENTRIES, RESOURCE_PAGE_ENTRIES } from '../../src/server/limits.js';

const MiB = 1024 * 1024;
/** The goal: whatever one client sends, the server's resident set peaks under this... */
const PEAK_MIB = 256;
/** ...and falls back under this once the calls are answered. */
const SETTLED_MIB = 150;
/**
 * CPU the server may spend on what it answers "at once" (rawServer.cpuMs: work done, which a busy
 * machine does not stretch): far above the 20 to 600 ms these answers take, far below the seconds
 * of work each limit saves.
 */
const AT_ONCE_CPU_MS = 3000;

/** A folder two and a half times wider than list_directory returns and a walk examines: its listing takes pages and cursors. */
const WIDE = 2.5 * Math.max(MAX_LIST_ENTRIES, MAX_WALK_ENTRIES);
/** Empty folders enough for resources/list to take three pages or more, each stopping at its entry limit. */
const EMPTY_FOLDERS = 3 * RESOURCE_PAGE_ENTRIES;
const withCommas = (n: number) => n.toLocaleString('en-US');

/**
 * Makes `count` entries (folders, or hard links to a few files) in `folder` from a child process,
 * quickly, and without holding up this process: the attacks beside go on waiting for their answers.
 */
async function makeMany(folder: string, count: number, kind: 'folders' | 'links'): Promise<void> {
  const script =
    kind === 'folders'
      ? `const fs=require('fs');process.chdir(process.argv[1]);for(let i=0;i<${count};i++)fs.mkdirSync('d'+i)`
      : `const fs=require('fs');process.chdir(process.argv[1]);for(let i=0;i<${count};i++){const s='s'+Math.floor(i/50000);if(i%50000===0)fs.writeFileSync(s,'x');fs.linkSync(s,'h'+i)}`;
  fs.mkdirSync(folder, { recursive: true });
  await promisify(execFile)(process.execPath, ['-e', script, folder]);
}

function readLogLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') : [];
}

function isToolError(message: RawMessage): boolean {
  return message.result?.isError === true;
}

// Attacks that each have a server of their own and time nothing (a bound is counted, in entries,
// bytes or CPU): side by side, each suite's tests one at a time. The attacks on memory and work
// run after them, alone.
describe('attacks, side by side', { concurrency: true }, () => {
  // ------------------------------------------------------------------------------------------------
  // The wire: nothing a client writes on stdin ends the server
  // ------------------------------------------------------------------------------------------------

  describe('stdio: whatever a client writes, the server answers and goes on', { concurrency: false }, () => {
    let base: string;
    let ws: string;
    let W: string;
    let server: RawServer;

    before(() => {
      base = makeTempDir('bi-hostile-');
      ws = path.join(base, 'ws');
      writeTree(ws, { 'a.txt': 'a' });
      W = fileUri(ws);
    });
    beforeEach(async () => {
      server = RawServer.start(['--workspace', W]);
      await server.initialize();
    });
    afterEach(() => server.kill());
    after(() => removeDir(base));

    /** The server is still serving, and the end of input, and only that, ends it: status 0. */
    async function goesOnThenEndsCleanly(): Promise<void> {
      assert.deepEqual((await server.request('ping')).result, {}, 'still serving');
      assert.deepEqual(await server.close(), { status: 0, signal: null });
    }

    test('a line over the 16 MiB limit (a 17 MiB write_file, its id after the params as the v1 SDK writes it) is answered with an error naming the limit, and nothing is written', { timeout: patience(30_000) }, async () => {
      const id = server.newId();
      const answer = server.answerTo(id);
      const content = 'x'.repeat(17 * MiB);
      server.write(`${JSON.stringify({ method: 'tools/call', params: { name: 'write_file', arguments: { workspaceUri: W, path: 'huge.txt', content } }, jsonrpc: '2.0', id })}\n`);
      const { error } = await answer;
      assert.equal(error?.code, -32600, 'Invalid Request');
      assert.match(error.message, /16 MiB/);
      assert.equal(fs.existsSync(path.join(ws, 'huge.txt')), false);
      await goesOnThenEndsCleanly();
    });

    test('an 11 MB write_file (over the SDK reader\'s old 10 MB) is written, and the server goes on', { timeout: patience(30_000) }, async () => {
      const answer = await server.call('write_file', { workspaceUri: W, path: 'eleven.txt', content: 'y'.repeat(11_000_000) });
      assert.equal(isToolError(answer), false, answerText(answer));
      assert.equal(fs.statSync(path.join(ws, 'eleven.txt')).size, 11_000_000);
      await goesOnThenEndsCleanly();
    });

    test('a line that is not JSON is -32700 with id null; JSON that is not JSON-RPC is -32600; params that are not an object are -32602', { timeout: patience(30_000) }, async () => {
      const nulls = () => server.unmatched.filter((message) => message.id === null).length;
      const before = nulls();
      server.write('this is not json\n');
      await server.waitForUnmatched((message) => message.id === null && message.error?.code === -32700);
      server.write('{"jsonrpc":"2.0","id":"cut","method":"ping"\n');
      server.write('[{"jsonrpc":"2.0","id":"in-a-batch","method":"ping"}]\n');
      await server.waitForUnmatched(() => nulls() >= before + 3);
      assert.deepEqual(
        server.unmatched.filter((message) => message.id === null).slice(before).map((message) => message.error?.code),
        [-32700, -32700, -32600],
        'not JSON, cut JSON, a batch',
      );

      const badParams = server.answerTo('bad-params');
      server.write('{"jsonrpc":"2.0","id":"bad-params","method":"tools/list","params":5}\n');
      assert.equal((await badParams).error?.code, -32602);
      const notRpc = server.answerTo('not-rpc');
      server.write('{"jsonrpc":"1.0","id":"not-rpc","method":"ping"}\n');
      assert.equal((await notRpc).error?.code, -32600);
      await goesOnThenEndsCleanly();
    });

    test('params of the wrong type for resources are -32602 (Invalid params) without a schema dump; a cursor the server did not hand out too', { timeout: patience(30_000) }, async () => {
      const cases: [string, Record<string, unknown>][] = [
        ['resources/read', { uri: 5 }],
        ['resources/read', {}],
        ['resources/list', { cursor: 5 }],
        ['resources/list', { cursor: 'not-a-cursor' }],
        ['resources/list', { cursor: `${Buffer.from(JSON.stringify({ g: 0, a: ['..'] })).toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA` }],
      ];
      for (const [method, params] of cases) {
        const { error } = await server.request(method, params);
        assert.equal(error?.code, -32602, `${method} ${JSON.stringify(params)}: ${error?.message}`);
        assert.doesNotMatch(error.message, /"expected"|invalid_type/, 'a sentence, not a schema dump');
      }
      await goesOnThenEndsCleanly();
    });
  });

  for (const { kind, version } of CLIENT_KINDS) {
    describe(`an over-long call through the ${kind} SDK client (${version})`, { concurrency: false }, () => {
      let base: string;
      let W: string;

      before(() => {
        base = makeTempDir('bi-hostile-');
        writeTree(base, { 'ws/a.txt': 'a' });
        W = fileUri(path.join(base, 'ws'));
      });
      after(() => removeDir(base));

      test('is refused with an error naming the limit, and the same session goes on', { timeout: patience(30_000) }, async () => {
        const session = await connect(kind, { args: ['--workspace', W] });
        try {
          await assert.rejects(session.call('write_file', { workspaceUri: W, path: 'huge.txt', content: 'x'.repeat(17 * MiB) }), /16 MiB/);
          assert.equal(session.negotiatedVersion(), version);
          const read = await session.call('read_text_file', { workspaceUri: W, path: 'a.txt' });
          assert.equal(expectContent(read, 'a call after the refused one'), 'a');
        } finally {
          await session.close();
        }
      });
    });
  }

  // ------------------------------------------------------------------------------------------------
  // The refusal log
  // ------------------------------------------------------------------------------------------------

  // Each test has a server and a log of its own: side by side.
  describe('the refusal log', { concurrency: true }, () => {
    let base: string;
    let ws: string;
    let W: string;

    before(() => {
      base = makeTempDir('bi-hostile-');
      ws = path.join(base, 'ws');
      writeTree(base, { 'ws/a.txt': 'a', 'ro/b.txt': 'b', 'outside/secret.txt': 'secret' });
      fs.symlinkSync(ws, path.join(base, 'link-to-ws'));
      W = fileUri(ws);
    });
    after(() => removeDir(base));

    test('a log inside a granted workspace (read-write or read-only, by any name) is refused at start-up with status 2', async () => {
      fs.mkdirSync(path.join(base, 'elsewhere'));
      fs.symlinkSync(path.join(ws, 'planted.jsonl'), path.join(base, 'elsewhere', 'refusals.jsonl'));
      const cases: [string, string[]][] = [
        ['in the workspace', ['--workspace', W, '--refusal-log', path.join(ws, 'refusals.jsonl')]],
        ['in a folder of it that does not exist yet', ['--workspace', W, '--refusal-log', path.join(ws, 'logs', 'refusals.jsonl')]],
        ['in a read-only workspace', ['--workspace', W, '--read-only-workspace', fileUri(path.join(base, 'ro')), '--refusal-log', path.join(base, 'ro', 'refusals.jsonl')]],
        ['through a link to the workspace', ['--workspace', W, '--refusal-log', path.join(base, 'link-to-ws', 'refusals.jsonl')]],
        ['in a new folder under a link to the workspace', ['--workspace', W, '--refusal-log', path.join(base, 'link-to-ws', 'new', 'refusals.jsonl')]],
        ['a link outside that points into the workspace', ['--workspace', W, '--refusal-log', path.join(base, 'elsewhere', 'refusals.jsonl')]],
      ];
      const results = await Promise.all(cases.map(([, args]) => runServerToExit([...args, '--sandbox', 'off'])));
      cases.forEach(([what], i) => {
        const result = results[i]!;
        assert.equal(result.status, 2, `${what}: status ${result.status}; stderr: ${result.stderr}`);
        assert.match(result.stderr, /inside the granted workspace/, what);
        assert.equal(result.stdout, '', what);
      });
      assert.deepEqual(fs.readdirSync(ws), ['a.txt'], 'nothing was made in the workspace');
      const control = await runServerToExit(['--workspace', W, '--refusal-log', path.join(base, 'logs', 'refusals.jsonl'), '--sandbox', 'off']);
      assert.equal(control.status, 0, `a log outside every workspace: ${control.stderr}`);
    });

    test('each refusal\'s line is on disk before the client sees the refusal', { timeout: patience(30_000) }, async () => {
      const log = path.join(base, 'ordered', 'refusals.jsonl');
      const server = RawServer.start(['--workspace', W, '--refusal-log', log]);
      try {
        await server.initialize();
        for (let i = 1; i <= 40; i += 1) {
          const answer =
            i % 4 === 0
              ? await server.request('resources/read', { uri: `${W}/%2e%2e/outside/secret.txt` })
              : await server.call('get_file_info', { workspaceUri: W, path: `../outside/${i}.txt` });
          assert.ok(answer.error !== undefined || isToolError(answer), `refusal ${i}`);
          assert.equal(readLogLines(log).length, i, `the line of refusal ${i} is in the log when its answer arrives`);
        }
      } finally {
        await server.close();
      }
    });

    test('a refused 9 MB path writes one bounded line (log size 64 KiB), cut with a marker, and the answer is bounded too', { timeout: patience(30_000) }, async () => {
      const log = path.join(base, 'huge-input', 'refusals.jsonl');
      const server = RawServer.start(['--workspace', W, '--refusal-log', log, '--refusal-log-size', String(64 * 1024)]);
      try {
        await server.initialize();
        const answer = await server.call('read_text_file', { workspaceUri: W, path: `../${'x'.repeat(9_000_000)}` });
        assert.ok(isToolError(answer));
        assert.ok(JSON.stringify(answer).length < 64 * 1024, `the answer is ${JSON.stringify(answer).length} bytes`);
        const lines = readLogLines(log);
        assert.equal(lines.length, 1);
        assert.ok(Buffer.byteLength(lines[0]!) <= 32 * 1024, `the line is ${Buffer.byteLength(lines[0]!)} bytes`);
        const record = JSON.parse(lines[0]!) as { truncated?: boolean; input: string; code: string };
        assert.equal(record.truncated, true);
        assert.match(record.input, /more characters not logged/);
        assert.equal(typeof record.code, 'string');
      } finally {
        await server.close();
      }
    });

    test('a flood of refusals on a log that cannot keep up: the queue is bounded, the dropped ones are counted in a note, and no answer waits for the log for long', { timeout: patience(40_000) }, async () => {
      // A FIFO with no reader stalls every write, as a hung disk would.
      const log = path.join(base, 'flood', 'refusals.jsonl');
      fs.mkdirSync(path.dirname(log));
      execFileSync('mkfifo', [log]);
      const server = RawServer.start(['--workspace', W, '--refusal-log', log]);
      let reader: ReturnType<typeof spawn> | undefined;
      try {
        await server.initialize();
        // All sent at once, so all wait within one limit: far less than 1,500 waits of a second
        // for the log, one after another, would take.
        const answers = await Promise.all(Array.from({ length: 1500 }, (_, i) => server.call('get_file_info', { workspaceUri: W, path: `../outside/${i}` })));
        assert.ok(answers.every(isToolError), 'every call is answered with its refusal');
        // Now read what reaches the log: the queued lines, and a note counting the rest.
        // Its own process group, so the cat blocked on the FIFO goes with the loop.
        reader = spawn('/bin/sh', ['-c', 'while :; do cat "$0"; done', log], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
        let text = '';
        reader.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
        const counted = () => {
          // Only whole lines: the last may still be arriving.
          const lines = text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { note?: string; code?: string });
          const dropped = lines.reduce((sum, line) => sum + Number(/^(\d+) refusals not logged/.exec(line.note ?? '')?.[1] ?? 0), 0);
          return { logged: lines.filter((line) => line.code !== undefined).length, dropped };
        };
        const { logged, dropped } = await eventually(() => {
          const seen = counted();
          assert.equal(seen.logged + seen.dropped, 1500, 'every refusal is logged or counted');
          return seen;
        }, 'the queued lines and the note reach the log');
        assert.ok(dropped > 0, `a note counts the refusals not logged (logged ${logged})`);
        assert.ok(logged <= 1001, `at most the queue's 1000 lines, and the one being written, were held (${logged})`);
      } finally {
        if (reader?.pid !== undefined) process.kill(-reader.pid, 'SIGKILL');
        server.kill();
      }
    });
  });

  // ------------------------------------------------------------------------------------------------
  // Depth and width: walks are iterative and hold a bounded number of descriptors
  // ------------------------------------------------------------------------------------------------

  describe(`a tree 1,000 levels deep, and a folder of ${withCommas(WIDE)} entries`, { concurrency: false }, () => {
    let base: string;
    let ws: string;
    let W: string;

    before(async () => {
      base = makeFastTempDir('bi-hostile-');
      ws = path.join(base, 'ws');
      fs.mkdirSync(ws);
      await makeMany(path.join(ws, 'wide'), WIDE, 'links');
      W = fileUri(ws);
    });
    after(() => removeDir(base));

    test('create_directory 1,000 levels deep, then every walk answers (bounded at 100 levels) with 256 descriptors allowed, and delete_path removes it', { timeout: patience(60_000) }, async () => {
      const server = RawServer.start(['--workspace', W], { maxDescriptors: 256 });
      const call = (name: string, args: Record<string, unknown>) => server.call(name, { workspaceUri: W, ...args });
      try {
        await server.initialize();
        const made = await call('create_directory', { path: `deep/${'d/'.repeat(999)}` });
        assert.equal(isToolError(made), false, answerText(made));
        fs.writeFileSync(path.join(ws, 'deep', 'marker.txt'), 'm');

        const tree = await call('directory_tree', { path: 'deep' });
        assert.equal(isToolError(tree), false, answerText(tree));
        assert.equal(tree.result!.structuredContent!.truncated, true);
        let node = tree.result!.structuredContent!.tree.find((entry: { name: string }) => entry.name === 'd');
        let depth = 1;
        while (node.children !== undefined) {
          node = node.children[0];
          depth += 1;
        }
        assert.equal(depth, 100, 'listed 100 levels down');
        assert.equal(node.truncated, true, 'the folder below is marked, not entered');

        const search = await call('search_files', { path: 'deep', pattern: 'd' });
        assert.equal(isToolError(search), false, answerText(search));
        assert.equal(search.result!.structuredContent!.matches.length, 100);
        const again = await call('directory_tree', { path: '.' });
        assert.equal(isToolError(again), false, answerText(again));
        const resources = await server.request('resources/list', {});
        assert.equal(resources.error, undefined);

        const removed = await call('delete_path', { path: 'deep', recursive: true });
        assert.equal(isToolError(removed), false, answerText(removed));
        assert.equal(fs.existsSync(path.join(ws, 'deep')), false);
      } finally {
        await server.close();
      }
    });

    test(`list_directory over ${withCommas(WIDE)} entries answers in pages of at most its budget, whose cursors lead through every entry once, in order; list_directory_with_sizes sizes the first ${withCommas(MAX_LIST_ENTRIES)}`, { timeout: patience(90_000) }, async () => {
      const server = RawServer.start(['--workspace', W]);
      try {
        await server.initialize();
        const names: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        const inFolder = fs.readdirSync(path.join(ws, 'wide')).length;
        do {
          const answer = await server.call('list_directory', { workspaceUri: W, path: 'wide', ...(cursor !== undefined ? { cursor } : {}) });
          assert.equal(isToolError(answer), false, answerText(answer).slice(0, 300));
          const text = answerText(answer);
          assert.ok(Buffer.byteLength(text) <= ANSWER_BUDGET_BYTES + 1024, `page ${pages}: ${text.length} bytes`);
          // Files only (hard links): one heading, then a name a line, then the cursor's line.
          const lines = text.split('\n');
          // The heading counts the folder's files, not only this page's.
          assert.equal(lines[0], `Files (${lines.length - 2} of ${inFolder}):`);
          cursor = /call again with cursor (\S+) for the rest\)$/.exec(text)?.[1];
          // The last line says which entries of the folder the page holds.
          assert.match(lines.at(-1)!, new RegExp(`^\\(entries ${names.length + 1} to ${names.length + lines.length - 2} of ${inFolder} by name: `));
          names.push(...lines.slice(1, -1));
          pages += 1;
        } while (cursor !== undefined);
        assert.ok(pages > 1, `one page cannot hold ${withCommas(WIDE)} names`);
        // The links and the files they are hard links of.
        assert.equal(new Set(names).size, names.length, 'no entry twice');
        assert.equal(names.length, inFolder);
        assert.deepEqual(names, [...names].sort(), 'in name order');

        const sized: string[] = [];
        cursor = undefined;
        do {
          const answer = await server.call('list_directory_with_sizes', { workspaceUri: W, path: 'wide', ...(cursor !== undefined ? { cursor } : {}) });
          assert.equal(isToolError(answer), false, answerText(answer).slice(0, 300));
          const structured = answer.result!.structuredContent!;
          assert.equal(structured.truncated, true, `past the first ${withCommas(MAX_LIST_ENTRIES)} the rest are not sized`);
          // Every entry is a file (the links are hard links): the totals are of the ones sized, on every page.
          assert.equal(structured.totalFiles, MAX_LIST_ENTRIES);
          // And the text says so where it gives them, and never calls the sized entries the folder's.
          assert.match(answerText(answer), new RegExp(`^Total of the first ${MAX_LIST_ENTRIES} entries by name \\(the rest are not sized, sorted or counted\\): ${MAX_LIST_ENTRIES} files`, 'm'));
          assert.match(answerText(answer), new RegExp(`^\\(entries \\d+ to \\d+ of the first ${MAX_LIST_ENTRIES}: `, 'm'));
          sized.push(...structured.entries.map((entry: { name: string }) => entry.name));
          cursor = structured.nextCursor;
        } while (cursor !== undefined);
        assert.deepEqual(sized, names.slice(0, MAX_LIST_ENTRIES));
        const garbled = await server.call('list_directory', { workspaceUri: W, path: 'wide', cursor: 'not a cursor' });
        assert.match(answerText(garbled), /Invalid cursor/);
        assert.ok(server.memory().peakMiB < PEAK_MIB, `peak ${server.memory().peakMiB.toFixed(0)} MiB`);
      } finally {
        await server.close();
      }
    });
  });

  describe(`resources/list over ${withCommas(EMPTY_FOLDERS)} empty folders`, { concurrency: false }, () => {
    let base: string;
    let W: string;

    before(async () => {
      base = makeFastTempDir('bi-hostile-');
      await makeMany(path.join(base, 'ws'), EMPTY_FOLDERS, 'folders');
      writeTree(path.join(base, 'ws'), { 'zzz/last.txt': 'the last file', 'a.txt': 'the first file' });
      W = fileUri(path.join(base, 'ws'));
    });
    after(() => removeDir(base));

    test(`comes in pages, each examining at most ${withCommas(RESOURCE_PAGE_ENTRIES)} entries, chained by nextCursor to every file; memory stays bounded`, { timeout: patience(60_000) }, async () => {
      // The walk's order (by name, code unit by code unit), and how far into it a cursor's place
      // is: the last name examined at the top level. The folders are empty, so that is the count.
      const order = fs.readdirSync(path.join(base, 'ws')).sort();
      const reached = (cursor: string) => order.indexOf((JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString()) as { a: string[] }).a[0]!) + 1;
      const server = RawServer.start(['--workspace', W]);
      try {
        await server.initialize();
        const names: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        let examined = 0;
        do {
          const page = await server.request('resources/list', cursor === undefined ? {} : { cursor });
          assert.equal(page.error, undefined, page.error?.message);
          names.push(...(page.result!.resources as { name: string }[]).map((resource) => resource.name));
          cursor = page.result!.nextCursor as string | undefined;
          pages += 1;
          const now = cursor === undefined ? order.length : reached(cursor);
          assert.ok(now >= examined && now - examined <= RESOURCE_PAGE_ENTRIES, `page ${pages} examined ${now - examined} entries`);
          examined = now;
        } while (cursor !== undefined && pages < 200);
        assert.deepEqual(names, ['a.txt', 'zzz/last.txt']);
        assert.ok(pages > 1, 'more than one page');
        assert.ok(server.memory().peakMiB < PEAK_MIB, `peak ${server.memory().peakMiB.toFixed(0)} MiB`);
      } finally {
        await server.close();
      }
    });
  });
});

// ------------------------------------------------------------------------------------------------
// Memory and work, whatever one client asks
// ------------------------------------------------------------------------------------------------

describe('memory and work are bounded per call and across calls', () => {
  let base: string;
  let ws: string;
  let W: string;
  let server: RawServer;
  const call = (name: string, args: Record<string, unknown>, quietMs?: number) => server.call(name, { workspaceUri: W, ...args }, quietMs);

  before(() => {
    base = makeFastTempDir('bi-hostile-');
    ws = path.join(base, 'ws');
    // A 10,000-file tree: 100 folders of 100 files.
    for (let d = 0; d < 100; d += 1) {
      fs.mkdirSync(path.join(ws, 'tree', `dir${d}`), { recursive: true });
      for (let f = 0; f < 100; f += 1) fs.writeFileSync(path.join(ws, 'tree', `dir${d}`, `file-${f}.txt`), 'x');
    }
    fs.writeFileSync(path.join(ws, 'big.txt'), Buffer.alloc(15 * MiB, 'b'));
    fs.writeFileSync(path.join(ws, 'six.txt'), `${'s'.repeat(99)}\n`.repeat(60_000));
    fs.writeFileSync(path.join(ws, 'small.txt'), 'small');
    W = fileUri(ws);
  });
  // A fresh server for each: its peak (VmHWM) is that attack's.
  beforeEach(async () => {
    server = RawServer.start(['--workspace', W]);
    await server.initialize();
  });
  afterEach(() => server.kill());
  after(() => removeDir(base));

  test(`1,000 concurrent mixed calls, 200 of them directory_tree over 10,000 files: peak under ${PEAK_MIB} MiB, then under ${SETTLED_MIB} MiB`, { timeout: patience(60_000) }, async () => {
    const calls: Promise<RawMessage>[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const which = i % 5;
      if (which === 0) calls.push(call('directory_tree', { path: 'tree' }, 60_000));
      else if (which === 1) calls.push(call('read_text_file', { path: 'small.txt' }, 60_000));
      else if (which === 2) calls.push(call(i % 10 === 2 ? 'search_files' : 'list_directory', { path: 'tree', pattern: 'file-7' }, 60_000));
      else if (which === 3) calls.push(call(i % 10 === 3 ? 'read_multiple_files' : 'get_file_info', { path: 'small.txt', paths: ['small.txt', 'tree/dir1/file-1.txt'] }, 60_000));
      else calls.push(i % 10 === 4 ? server.request('resources/list', {}, 60_000) : call('list_workspaces', {}, 60_000));
    }
    const answers = await Promise.all(calls);
    assert.equal(answers.filter((answer) => answer.error !== undefined || isToolError(answer)).length, 0, 'every call succeeded');
    const trees = answers.filter((_, i) => i % 5 === 0);
    // Each a page of the tree, no more than the answer's budget, and a cursor for the rest.
    assert.ok(trees.every((answer) => typeof answer.result?.structuredContent?.nextCursor === 'string' && JSON.stringify(answer.result.structuredContent).length <= ANSWER_BUDGET_BYTES + 1024));
    const peak = server.memory().peakMiB;
    const settled = await server.settle(SETTLED_MIB);
    assert.ok(peak < PEAK_MIB, `peak ${peak.toFixed(0)} MiB`);
    assert.ok(settled.rssMiB < SETTLED_MIB, `${settled.rssMiB.toFixed(0)} MiB after the calls`);
  });

  test('search_files with {a,b} twenty times over (a million patterns) is refused at once with the limit named; so are an over-long pattern and too many excludes', { timeout: patience(30_000) }, async () => {
    const cpu = server.cpuMs();
    const braces = await call('search_files', { path: 'tree', pattern: '{a,b}'.repeat(20) });
    assert.ok(isToolError(braces));
    assert.match(answerText(braces), /expands .* 256/);
    const excluded = await call('directory_tree', { path: 'tree', excludePatterns: ['{x,y}'.repeat(20)] });
    assert.ok(isToolError(excluded));
    assert.match(answerText(excluded), /256/);
    assert.ok(isToolError(await call('search_files', { path: 'tree', pattern: `*${'a'.repeat(2000)}` })), 'a 2,001-character pattern');
    assert.ok(isToolError(await call('directory_tree', { path: 'tree', excludePatterns: Array.from({ length: 65 }, (_, i) => `x${i}`) })), '65 exclude patterns');
    assert.ok(server.cpuMs() - cpu < AT_ONCE_CPU_MS, `the refusals took ${server.cpuMs() - cpu} ms of CPU`);
    assert.ok(server.memory().peakMiB < PEAK_MIB, `peak ${server.memory().peakMiB.toFixed(0)} MiB`);
  });

  test('read_multiple_files naming a 15 MiB file 30 times: one bounded answer, each file that does not fit reported EFBIG; 8 such calls at once', { timeout: patience(40_000) }, async () => {
    const paths = [...Array.from({ length: 30 }, () => 'big.txt'), 'small.txt'];
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('read_multiple_files', { paths })));
    for (const answer of answers) {
      assert.equal(isToolError(answer), false);
      assert.ok(JSON.stringify(answer).length < 9 * MiB, 'the answer fits one message');
      const sections = answerText(answer).split('\n---\n');
      assert.equal(sections.length, 31);
      assert.ok(sections.slice(0, 30).every((section) => /^big\.txt: Error \(EFBIG\): .*answer/.test(section)));
      assert.equal(sections[30], 'small.txt:\nsmall', 'a small file after them still fits');
    }
    assert.ok(server.memory().peakMiB < PEAK_MIB, `peak ${server.memory().peakMiB.toFixed(0)} MiB`);
  });

  test('a file is sent once: a 6 MB text file reads through the stock v1 client (twice over it was 12 MB, past its 10 MB line limit)', { timeout: patience(30_000) }, async () => {
    const session = await connect('v1', { args: ['--workspace', W] });
    try {
      const read = await session.call('read_text_file', { workspaceUri: W, path: 'six.txt' });
      assert.equal(expectContent(read, 'read six.txt').length, 6_000_000);
    } finally {
      await session.close();
    }
  });

  test('edit_file on a 20,000-line file whose every line changes answers at once with a plain message, and other calls are answered meanwhile', { timeout: patience(30_000) }, async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} old`);
    fs.writeFileSync(path.join(ws, 'edit.txt'), `${lines.join('\n')}\n`);
    const cpu = server.cpuMs();
    const edit = call('edit_file', { path: 'edit.txt', edits: [{ oldText: `${lines.join('\n')}\n`, newText: `${lines.map((line) => line.replace('old', 'new')).join('\n')}\n` }] });
    const meanwhile = await call('list_workspaces', {});
    assert.equal(isToolError(meanwhile), false);
    const answer = await edit;
    // The diff gives up at its bounds: the edit and the call beside it cost little, so nothing waited long.
    assert.ok(server.cpuMs() - cpu < AT_ONCE_CPU_MS, `the edit took ${server.cpuMs() - cpu} ms of CPU`);
    assert.equal(isToolError(answer), false, answerText(answer));
    assert.match(answerText(answer), /The diff is not shown/);
    assert.equal(answer.result!.structuredContent!.diffShown, false);
    assert.match(fs.readFileSync(path.join(ws, 'edit.txt'), 'utf8'), /^line 19999 new$/m);
  });

  test('20,000 edits in one call are refused at once (1,000 at most), and so are edits that would search more than 256 Mi characters', { timeout: patience(30_000) }, async () => {
    fs.writeFileSync(path.join(ws, 'edit.txt'), Array.from({ length: 20_000 }, (_, i) => `line ${i} new\n`).join(''));
    const cpu = server.cpuMs();
    const edits = Array.from({ length: 20_000 }, (_, i) => ({ oldText: `line ${i} new\n`, newText: `line ${i} newer\n` }));
    const many = await call('edit_file', { path: 'edit.txt', edits });
    assert.ok(isToolError(many));
    assert.match(answerText(many), /1000/);
    // 200 edits that each match once in a 2 MiB file: each searches the whole file, 400 MiB in all.
    const markers = Array.from({ length: 200 }, (_, i) => `<marker ${i}>`);
    fs.writeFileSync(path.join(ws, 'work.txt'), markers.map((marker) => `${marker}${'w'.repeat(10_475)}\n`).join(''));
    const searching = await call('edit_file', { path: 'work.txt', edits: markers.map((marker) => ({ oldText: marker, newText: marker.toUpperCase() })) });
    assert.ok(isToolError(searching));
    assert.match(answerText(searching), /search more text than one call may/);
    assert.match(fs.readFileSync(path.join(ws, 'work.txt'), 'utf8'), /^<marker 199>/m, 'nothing was written');
    assert.ok(server.cpuMs() - cpu < AT_ONCE_CPU_MS, `the refusals took ${server.cpuMs() - cpu} ms of CPU`);
  });
});
