// The letter of the protocol where the issue list found it wanting: every answer still being
// worked out when the input ends is delivered before the server exits; resources/templates/list
// is answered; the tool list, which never changes, is not declared to; a resource too large to
// read, or a log level MCP does not have, is the request's fault (-32602), not the server's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir } from './helpers.js';
import { RawServer } from './rawServer.js';

describe('the letter of the protocol', () => {
  let base: string;
  let ws: string;
  let uri: string;
  before(() => {
    base = makeTempDir('bi-letter-');
    ws = path.join(base, 'ws');
    for (let folder = 0; folder < 20; folder += 1) {
      fs.mkdirSync(path.join(ws, `d${folder}`), { recursive: true });
      for (let file = 0; file < 50; file += 1) fs.writeFileSync(path.join(ws, `d${folder}`, `f${file}.txt`), 'x');
    }
    fs.writeFileSync(path.join(ws, 'big.bin'), Buffer.alloc(20 * 1024 * 1024));
    uri = pathToFileURL(ws).href;
  });
  after(() => removeDir(base));

  test('100 directory_tree calls piped and the input closed: all 100 answered, then the server exits 0', async () => {
    const server = RawServer.start(['--workspace', uri]);
    await server.initialize();
    const ids: number[] = [];
    let text = '';
    for (let call = 0; call < 100; call += 1) {
      const id = server.newId();
      ids.push(id);
      text += `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'directory_tree', arguments: { workspaceUri: uri, path: '.' } } })}\n`;
    }
    const answers = ids.map((id) => server.answerTo(id, 60_000));
    server.write(text);
    const exit = server.close(60_000);
    const answered = await Promise.allSettled(answers);
    assert.equal(answered.filter((answer) => answer.status === 'fulfilled').length, 100, 'every call in flight is answered');
    assert.deepEqual(await exit, { status: 0, signal: null });
  });

  describe('one session', () => {
    let server: RawServer;
    let capabilities: Record<string, any> | undefined;
    before(async () => {
      server = RawServer.start(['--workspace', uri]);
      const opened = await server.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
      capabilities = opened.result?.capabilities;
      server.send({ method: 'notifications/initialized' });
    });
    after(async () => {
      await server.close();
    });

    test('resources/templates/list is answered (none: every file is listed itself)', async () => {
      const answer = await server.request('resources/templates/list');
      assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      assert.deepEqual(answer.result?.resourceTemplates, []);
    });

    test('the tool list never changes and is not declared to', () => {
      assert.ok(capabilities?.tools !== undefined, JSON.stringify(capabilities));
      assert.notEqual(capabilities.tools.listChanged, true);
    });

    test('logging/setLevel with a level MCP does not have is invalid params (-32602), in words', async () => {
      const answer = await server.request('logging/setLevel', { level: 'bogus' });
      assert.equal(answer.error?.code, -32602);
      assert.match(answer.error!.message, /level must be one of debug, info, .*; got "bogus"/);
      assert.equal((await server.request('logging/setLevel', { level: 'error' })).error, undefined, 'a level MCP has is taken');
    });

    test('a tools/call without a tool name, or with arguments that are not an object, is invalid params (-32602), in words', async () => {
      for (const [params, pattern] of [
        [{}, /^Invalid params for tools\/call: name must be the name of a tool .*; got null\.$/],
        [{ name: 7 }, /name must be .*; got 7\.$/],
        [{ name: 'list_workspaces', arguments: [1] }, /arguments must be an object; got \[1\]\.$/],
      ] as const) {
        const answer = await server.request('tools/call', params);
        assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
        assert.match(answer.error!.message, pattern);
      }
      assert.equal((await server.request('tools/call', { name: 'list_workspaces', arguments: {} })).error, undefined, 'a well-formed call is served');
    });

    test('a resource larger than a read returns is invalid params (-32602), with a reason', async () => {
      const answer = await server.request('resources/read', { uri: pathToFileURL(path.join(ws, 'big.bin')).href });
      assert.equal(answer.error?.code, -32602, JSON.stringify(answer.error));
      assert.match(answer.error!.message, /bytes/);
    });
  });
});
