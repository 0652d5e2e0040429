// Cancelling a change: a cancel that arrives before the change is made stops it (nothing
// changed, nothing left, no answer); one that arrives after the change is made is too late (the
// change stands). The tool descriptions say exactly this. Tried over raw JSON-RPC with the
// cancel in the same write as the request, "right behind" it, and through both SDK clients.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CLIENT_KINDS, connect, makeTempDir, removeDir } from './helpers.js';
import { RawServer } from './rawServer.js';

const CHANGES: readonly { readonly tool: string; readonly args: Record<string, unknown>; readonly done: (ws: string) => boolean }[] = [
  { tool: 'write_file', args: { path: 'a.txt', content: 'agent' }, done: (ws) => fs.readFileSync(path.join(ws, 'a.txt'), 'utf8') === 'agent' },
  { tool: 'edit_file', args: { path: 'a.txt', edits: [{ oldText: 'user', newText: 'agent' }] }, done: (ws) => fs.readFileSync(path.join(ws, 'a.txt'), 'utf8') === 'agent' },
  { tool: 'move_file', args: { source: 'a.txt', destination: 'b.txt' }, done: (ws) => fs.existsSync(path.join(ws, 'b.txt')) },
  { tool: 'delete_path', args: { path: 'a.txt' }, done: (ws) => !fs.existsSync(path.join(ws, 'a.txt')) },
  { tool: 'create_directory', args: { path: 'made' }, done: (ws) => fs.existsSync(path.join(ws, 'made')) },
];

function reset(ws: string): void {
  for (const name of fs.readdirSync(ws)) fs.rmSync(path.join(ws, name), { recursive: true, force: true });
  fs.writeFileSync(path.join(ws, 'a.txt'), 'user');
}

function leftovers(ws: string): string[] {
  return fs.readdirSync(ws).filter((name) => name.startsWith('.bi.'));
}

describe('a change cancelled before it is made: nothing changed, nothing left, no answer', { concurrency: true }, () => {
  let base: string;
  let server: RawServer;
  // A workspace for each change, so the changes' tests (each waiting out a no-answer) run side by side.
  const NAMES = [...CHANGES.map((change) => change.tool), 'too-late'];
  const wsOf = (name: string) => path.join(base, name);
  const uriOf = (name: string) => pathToFileURL(wsOf(name)).href;
  before(async () => {
    base = makeTempDir('bi-cancel-');
    for (const name of NAMES) fs.mkdirSync(wsOf(name));
    server = RawServer.start(NAMES.flatMap((name) => ['--workspace', uriOf(name)]));
    await server.initialize();
  });
  after(async () => {
    await server.close();
    removeDir(base);
  });

  for (const change of CHANGES) {
    describe(change.tool, { concurrency: false }, () => {
      test(`${change.tool}, the cancel in the same write as the request`, async () => {
        const ws = wsOf(change.tool);
        reset(ws);
        const id = server.newId();
        const request = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: change.tool, arguments: { workspaceUri: uriOf(change.tool), ...change.args } } };
        const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'changed my mind' } };
        const answered = server.answerTo(id, 500).then(
          () => true,
          () => false,
        );
        server.write(`${JSON.stringify(request)}\n${JSON.stringify(cancel)}\n`);
        assert.equal(await answered, false, 'a cancelled call is not answered');
        assert.equal((await server.request('ping')).error, undefined, 'the server goes on serving');
        assert.equal(change.done(ws), false, 'nothing was changed');
        assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'user', 'the file is as it was');
        assert.deepEqual(leftovers(ws), [], 'nothing was left behind');
      });

      test(`${change.tool}, control: the same call not cancelled is made and answered`, async () => {
        const ws = wsOf(change.tool);
        reset(ws);
        await server.call('read_text_file', { workspaceUri: uriOf(change.tool), path: 'a.txt' });
        const answer = await server.call(change.tool, { workspaceUri: uriOf(change.tool), ...change.args });
        assert.notEqual(answer.result?.isError, true, JSON.stringify(answer.result));
        assert.equal(change.done(ws), true);
      });
    });
  }

  test('a cancel after the change is made is too late: the change stands', async () => {
    const ws = wsOf('too-late');
    reset(ws);
    await server.call('read_text_file', { workspaceUri: uriOf('too-late'), path: 'a.txt' });
    const id = server.newId();
    server.send({ id, method: 'tools/call', params: { name: 'write_file', arguments: { workspaceUri: uriOf('too-late'), path: 'a.txt', content: 'agent' } } });
    await server.answerTo(id);
    server.send({ method: 'notifications/cancelled', params: { requestId: id } });
    assert.equal((await server.request('ping')).error, undefined);
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'agent');
  });
});

for (const { kind } of CLIENT_KINDS) {
  test(`${kind} client: a write aborted as soon as it is sent changes nothing`, async () => {
    const base = makeTempDir('bi-cancel-sdk-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    reset(ws);
    const session = await connect(kind, { args: ['--workspace', pathToFileURL(ws).href] });
    try {
      const abort = new AbortController();
      const call = session.callWith('write_file', { workspaceUri: pathToFileURL(ws).href, path: 'a.txt', content: 'agent' }, { signal: abort.signal });
      abort.abort();
      await assert.rejects(call, 'the client gives up on the call');
      await session.call('list_workspaces');
      assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'user');
      assert.deepEqual(leftovers(ws), []);
    } finally {
      await session.close();
      removeDir(base);
    }
  });
}
