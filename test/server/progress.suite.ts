// Long calls as an MCP peer sees them, under both clients: notifications/progress for a request that
// sent a progress token (and none otherwise), notifications/cancelled stopping a walk without an
// answer and without a descriptor left open, each refusal as a notifications/message warning, and
// audit_workspace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CLIENT_KINDS,
  connect,
  expectOk,
  expectRefusal,
  fileUri,
  makeFastTempDir,
  removeDir,
  textOf,
  writeTree,
  type ProgressSeen,
  type Session,
  type WireMessage,
} from './helpers.js';
import { eventually, patience } from '../patience.js';

/** The 2026-07-28 request `_meta` key naming the log level a request wants (SEP-2577). */
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/** 20 folders of 10 folders of 100 files: more than a walk examines, enough for an audit to take a while. */
function writeBigTree(root: string): void {
  for (let d = 0; d < 20; d += 1) {
    for (let e = 0; e < 10; e += 1) {
      const folder = path.join(root, `d${String(d).padStart(3, '0')}`, `e${e}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let f = 0; f < 100; f += 1) fs.writeFileSync(path.join(folder, `f${f}.txt`), '');
    }
  }
}

/** Open descriptors of a process (Linux); undefined where /proc does not say. */
function openDescriptors(pid: number | null): number | undefined {
  if (pid === null || process.platform !== 'linux') return undefined;
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

function tokenOf(request: WireMessage): unknown {
  return (request.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
}

function progressFor(received: readonly WireMessage[], token: unknown): WireMessage[] {
  return received.filter((message) => message.method === 'notifications/progress' && message.params?.progressToken === token);
}

let base: string;
let small: string;
let big: string;

before(() => {
  base = makeFastTempDir();
  small = path.join(base, 'small');
  big = path.join(base, 'big');
  writeTree(base, {
    'outside.txt': 'outside',
    'small/docs/a.md': 'a',
    'small/docs/b.md': 'b',
    'small/src/x.ts': 'x',
    'small/Readme.md': 'one',
    'small/README.md': 'two',
  });
  fs.symlinkSync('../outside.txt', path.join(small, 'escape'));
  writeBigTree(big);
});

after(() => removeDir(base));

for (const { kind, version } of CLIENT_KINDS) {
  describe(`progress, cancellation and refusal notices (${kind} client, ${version})`, () => {
    let session: Session;
    const ws = () => fileUri(small);

    before(async () => {
      session = await connect(kind, { args: ['--workspace', fileUri(small), '--read-only-workspace', fileUri(big)] });
    });
    after(async () => {
      await session?.close();
    });

    test('the server declares the logging capability', () => {
      assert.ok(session.serverCapabilities()?.logging, JSON.stringify(session.serverCapabilities()));
    });

    const PROGRESS_CALLS: readonly (readonly [tool: string, args: () => Record<string, unknown>, total: number | undefined])[] = [
      ['directory_tree', () => ({ workspaceUri: ws(), path: '.' }), undefined],
      ['search_files', () => ({ workspaceUri: ws(), path: '.', pattern: '*.md' }), undefined],
      ['search_file_contents', () => ({ workspaceUri: ws(), path: '.', pattern: 'a' }), undefined],
      ['read_multiple_files', () => ({ workspaceUri: ws(), paths: ['docs/a.md', 'docs/b.md', 'src/x.ts'] }), 3],
      ['audit_workspace', () => ({ workspaceUri: ws() }), undefined],
    ];

    for (const [tool, args, total] of PROGRESS_CALLS) {
      test(`${tool}: progress notifications with a progress token, before the answer`, async () => {
        const from = session.wire.received.length;
        const result = await session.callWith(tool, args(), { onprogress: () => undefined });
        assert.notEqual(result.isError, true, textOf(result));
        // Read off the wire: both SDK clients drop a notification read together with the answer
        // (they dispatch it a microtask after the answer has removed the progress handler).
        const received = session.wire.received.slice(from);
        const token = tokenOf(session.wire.sent.findLast((message) => message.method === 'tools/call')!);
        const notes = progressFor(received, token);
        const reports = notes.map((message) => message.params as unknown as ProgressSeen);
        assert.ok(reports.length > 0, `${tool}: no progress`);
        for (let i = 1; i < reports.length; i += 1) assert.ok(reports[i]!.progress > reports[i - 1]!.progress, `${tool}: progress must increase: ${JSON.stringify(reports)}`);
        for (const report of reports) assert.equal(typeof report.message, 'string', `${tool}: a message`);
        if (total !== undefined) {
          assert.equal(reports.at(-1)!.total, total);
          assert.equal(reports.at(-1)!.progress, total);
        }
        // The answer comes after the last notification.
        const answer = received.findIndex((message) => message.result !== undefined);
        const last = received.lastIndexOf(notes.at(-1)!);
        assert.ok(last < answer, `${tool}: progress at ${last}, answer at ${answer}`);
      });

      test(`${tool}: no progress without a progress token`, async () => {
        const from = session.wire.received.length;
        const result = await session.call(tool, args());
        assert.notEqual(result.isError, true, textOf(result));
        assert.deepEqual(session.wire.received.slice(from).filter((message) => message.method === 'notifications/progress'), []);
      });
    }

    test('a big walk reports progress as it goes, at most one notification per 100 ms, the last with the total', async () => {
      const seen: ProgressSeen[] = [];
      const from = session.wire.received.length;
      const started = Date.now();
      const result = await session.callWith('audit_workspace', { workspaceUri: fileUri(big), maxEntries: 100_000 }, { onprogress: (progress) => seen.push(progress) });
      const elapsed = Date.now() - started;
      const report = expectOk(result, 'audit of the big tree');
      assert.equal(report.scanned, 20 + 200 + 20_000);
      assert.ok(seen.length > 0, 'the client heard progress during the walk');
      for (let i = 1; i < seen.length; i += 1) assert.ok(seen[i]!.progress > seen[i - 1]!.progress, 'increasing');
      const sent = progressFor(session.wire.received.slice(from), tokenOf(session.wire.sent.findLast((message) => message.method === 'tools/call')!));
      // One per 100 ms, and the last one: an upper bound, which a slower machine only loosens.
      assert.ok(sent.length <= elapsed / 100 + 2, `${sent.length} notifications in ${elapsed} ms`);
      assert.deepEqual({ ...sent.at(-1)!.params, message: undefined, progressToken: undefined }, { progress: report.scanned, total: report.scanned, message: undefined, progressToken: undefined });
    });

    for (const [tool, args] of [
      ['audit_workspace', () => ({ workspaceUri: fileUri(big), maxEntries: 100_000 })],
      ['directory_tree', () => ({ workspaceUri: fileUri(big), path: '.' })],
      // Between files: each of the 10,000 it reads is opened, read and searched.
      ['search_file_contents', () => ({ workspaceUri: fileUri(big), path: '.', pattern: 'x', regex: true })],
    ] as const) {
      test(`${tool}: notifications/cancelled stops the walk, is not answered, and leaves no descriptor open`, async (t) => {
        // A first call opens what stays open for the process's life (the workspace roots, the SDK's own).
        await session.call('list_workspaces');
        const descriptorsBefore = openDescriptors(session.pid);
        const controller = new AbortController();
        let heardProgress = false;
        const from = session.wire.received.length;
        const cancelled = session.callWith(tool, args(), {
          signal: controller.signal,
          onprogress: () => {
            heardProgress = true;
            controller.abort();
          },
        });
        const answered = await cancelled.then(
          (result) => result,
          () => undefined,
        );
        if (answered !== undefined && !heardProgress) {
          // The tree stops at the answer budget; a fast disk walks that far within one turn, where no
          // cancellation can be heard. The audit (same walk in turns) shows the cancellation.
          expectOk(answered, `${tool} answered within one turn`);
          t.skip('the walk ended within one turn, before any cancellation could be heard');
          return;
        }
        assert.equal(answered, undefined, 'the cancelled call rejects at the client');
        const request = session.wire.sent.findLast((message) => message.method === 'tools/call' && message.params?.name === tool)!;
        assert.ok(session.wire.sent.some((message) => message.method === 'notifications/cancelled' && message.params?.requestId === request.id), 'the client sent notifications/cancelled');

        // The server reads its input in order: its answer to a call sent after the cancellation
        // shows the cancellation was heard, however long the machine took to deliver it.
        expectOk(await session.call('list_workspaces'), 'a call after the cancellation');
        const after = session.wire.sent.findLast((message) => message.method === 'tools/call' && message.params?.name === 'list_workspaces')!;
        // Time enough for a late answer or notice to arrive, were one sent.
        await new Promise((resolve) => setTimeout(resolve, patience(300)));
        const received = session.wire.received.slice(from);
        const heard = received.findIndex((message) => message.id === after.id && 'result' in message);
        assert.ok(heard >= 0, 'the later call was answered');
        assert.deepEqual(progressFor(received.slice(heard), tokenOf(request)), [], 'no progress after the cancellation was heard');
        if (tool === 'audit_workspace') {
          // An audit of 20,000 entries takes far longer than one turn: it was cut short, so nothing follows.
          assert.equal(received.filter((message) => message.id === request.id).length, 0, 'a cancelled call is not answered');
        }
        const descriptorsAfter = openDescriptors(session.pid);
        if (descriptorsBefore !== undefined) assert.equal(descriptorsAfter, descriptorsBefore, 'descriptors open before and after the cancelled walk');
      });
    }

    test('a refusal is sent as a notifications/message warning with its code', async () => {
      const meta = kind === 'v2' ? { [LOG_LEVEL_KEY]: 'warning' } : undefined;
      const result = await session.callWith('read_text_file', { workspaceUri: ws(), path: '../outside.txt' }, meta ? { meta } : {});
      expectRefusal(result, { code: 'ERR_OUTSIDE' }, 'outside');
      const notice = await eventually(() => {
        const found = session.logs.find((log) => (log.data as { tool?: string }).tool === 'read_text_file');
        assert.ok(found, 'no notice');
        return found;
      }, 'the refusal notice');
      assert.equal(notice.level, 'warning');
      assert.equal(notice.logger, 'boundary-inspector');
      const data = notice.data as Record<string, unknown>;
      assert.equal(data.code, 'ERR_OUTSIDE');
      assert.equal(data.input, '../outside.txt');
      assert.equal(data.workspaceUri, ws());
      assert.equal(typeof data.stage, 'string');
      assert.equal(typeof data.reason, 'string');
    });

    test('a refusal inside a call that goes on (read_multiple_files) is sent too', async () => {
      const before = session.logs.length;
      const meta = kind === 'v2' ? { [LOG_LEVEL_KEY]: 'info' } : undefined;
      await session.callWith('read_multiple_files', { workspaceUri: ws(), paths: ['docs/a.md', '../outside.txt'] }, meta ? { meta } : {});
      await eventually(() => assert.ok(session.logs.slice(before).some((log) => (log.data as { tool?: string }).tool === 'read_multiple_files')), 'the notice');
    });

    if (kind === 'v1') {
      test('logging/setLevel error suppresses the warnings', async () => {
        await session.setLoggingLevel('error');
        const before = session.logs.length;
        const result = await session.call('get_file_info', { workspaceUri: ws(), path: '../outside.txt' });
        expectRefusal(result, { code: 'ERR_OUTSIDE' }, 'outside');
        // A later call's answer comes after any notice the refusal would have sent.
        await session.call('list_workspaces');
        assert.equal(session.logs.length, before, JSON.stringify(session.logs.slice(before)));
        await session.setLoggingLevel('warning');
      });
    } else {
      test('on 2026-07-28 a request that names no log level, or error, gets no notice (SEP-2577)', async () => {
        const before = session.logs.length;
        expectRefusal(await session.call('get_file_info', { workspaceUri: ws(), path: '../outside.txt' }), { code: 'ERR_OUTSIDE' }, 'no level');
        expectRefusal(
          await session.callWith('get_file_info', { workspaceUri: ws(), path: '../outside.txt' }, { meta: { [LOG_LEVEL_KEY]: 'error' } }),
          { code: 'ERR_OUTSIDE' },
          'level error',
        );
        await session.call('list_workspaces');
        assert.equal(session.logs.length, before, JSON.stringify(session.logs.slice(before)));
      });
    }

    test('audit_workspace on a small workspace reports its findings, grouped in the text', async () => {
      const report = expectOk(await session.call('audit_workspace', { workspaceUri: ws() }), 'audit');
      assert.equal(report.root, ws());
      assert.equal(report.rootPath, small);
      assert.equal(report.truncated, false);
      assert.equal(report.omitted, 0);
      assert.deepEqual(report.notKept, {});
      const kinds = (report.findings as { kind: string; path: string; target?: string }[]).map((finding) => `${finding.kind} ${path.relative(small, finding.path)}`);
      assert.ok(kinds.includes('link-escapes escape'), kinds.join(', '));
      if (process.platform === 'linux') assert.ok(kinds.includes('case-twins README.md') && kinds.includes('case-twins Readme.md'), kinds.join(', '));
      const escape = (report.findings as { kind: string; target?: string }[]).find((finding) => finding.kind === 'link-escapes')!;
      assert.equal(escape.target, path.join(base, 'outside.txt'));
      const text = textOf(await session.call('audit_workspace', { workspaceUri: ws() }));
      assert.match(text, /^link-escapes \(1\):\n {2}escape -> /m);
    });

    test('audit_workspace stops at maxEntries and says so; past the server limit is refused by the schema', async () => {
      const report = expectOk(await session.call('audit_workspace', { workspaceUri: fileUri(big), maxEntries: 50 }), 'bounded audit');
      assert.equal(report.scanned, 50);
      assert.equal(report.truncated, true);
      const tooMany = await session.call('audit_workspace', { workspaceUri: fileUri(big), maxEntries: 100_001 });
      assert.equal(tooMany.isError, true);
    });
  });
}
