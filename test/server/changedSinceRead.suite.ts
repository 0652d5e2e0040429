// Changed since read, as agent editors keep it: the server remembers what this connection read
// (read_text_file, read_multiple_files, resources/read) and what it wrote, and write_file and
// edit_file refuse a file that changed on disk since. A file never read can still be written.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, refusalOf, removeDir } from './helpers.js';
import { RawServer } from './rawServer.js';

describe('a file changed on disk since this connection read it', () => {
  let base: string;
  let ws: string;
  let uri: string;
  let server: RawServer;
  const file = (name: string) => path.join(ws, name);
  const call = async (tool: string, args: Record<string, unknown>) => (await server.call(tool, { workspaceUri: uri, ...args })).result!;
  const write = (name: string) => call('write_file', { path: name, content: 'the agent' });
  const edit = (name: string) => call('edit_file', { path: name, edits: [{ oldText: 'user', newText: 'agent' }] });

  before(async () => {
    base = makeTempDir('bi-since-read-');
    ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    uri = pathToFileURL(ws).href;
    server = RawServer.start(['--workspace', uri]);
    await server.initialize();
  });
  after(async () => {
    await server.close();
    removeDir(base);
  });

  test('a file never read is written', async () => {
    fs.writeFileSync(file('never.txt'), 'by the user');
    assert.notEqual((await write('never.txt')).isError, true);
    assert.equal(fs.readFileSync(file('never.txt'), 'utf8'), 'the agent');
  });

  for (const [how, read] of [
    ['read_text_file', (name: string) => call('read_text_file', { path: name })],
    ['read_multiple_files', (name: string) => call('read_multiple_files', { paths: [name] })],
    ['resources/read', (name: string) => server.request('resources/read', { uri: pathToFileURL(file(name)).href })],
  ] as const) {
    test(`read with ${how}, then changed by the user: write_file and edit_file are refused, the user's text kept`, async () => {
      const name = `${how.replace(/\W/g, '-')}.txt`;
      fs.writeFileSync(file(name), 'user text');
      await read(name);
      fs.writeFileSync(file(name), 'user text, saved again');
      for (const change of [write, edit]) {
        const answer = await change(name);
        assert.equal(refusalOf(answer)?.code, 'ERR_CHANGED_SINCE_READ', JSON.stringify(answer));
        assert.match(String(refusalOf(answer)?.reason), /changed on disk since you read it at \d\d:\d\d:\d\d; read it again/);
        assert.equal(refusalOf(answer)?.input, name, 'the refusal names the path as it was sent');
      }
      assert.equal(fs.readFileSync(file(name), 'utf8'), 'user text, saved again');
      await read(name);
      assert.notEqual((await edit(name)).isError, true, 'read again, the edit is made');
      assert.equal(fs.readFileSync(file(name), 'utf8'), 'agent text, saved again');
    });
  }

  test("the agent's own changes count as seen: edit after edit, write after edit, without reading again", async () => {
    fs.writeFileSync(file('own.txt'), 'step 0');
    await call('read_text_file', { path: 'own.txt' });
    for (let i = 0; i < 3; i += 1) {
      const answer = await call('edit_file', { path: 'own.txt', edits: [{ oldText: `step ${i}`, newText: `step ${i + 1}` }] });
      assert.notEqual(answer.isError, true, `edit ${i + 1}: ${JSON.stringify(answer)}`);
    }
    assert.notEqual((await write('own.txt')).isError, true);
    fs.writeFileSync(file('own.txt'), 'the user again');
    assert.equal(refusalOf(await write('own.txt'))?.code, 'ERR_CHANGED_SINCE_READ', 'a change after the agent wrote it is refused too');
  });

  test('a file refused as not text counts as not read: the agent saw none of it', async () => {
    fs.writeFileSync(file('image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]));
    assert.equal(refusalOf(await call('read_text_file', { path: 'image.bin' }))?.code, 'ERR_NOT_TEXT');
    fs.writeFileSync(file('image.bin'), 'made text by the user');
    assert.notEqual((await write('image.bin')).isError, true);
    assert.equal(fs.readFileSync(file('image.bin'), 'utf8'), 'the agent');
  });

  test('a file deleted by the user since it was read is not made again unseen', async () => {
    fs.writeFileSync(file('gone.txt'), 'user');
    await call('read_text_file', { path: 'gone.txt' });
    fs.unlinkSync(file('gone.txt'));
    const answer = await write('gone.txt');
    assert.equal(refusalOf(answer)?.code, 'ERR_CHANGED_SINCE_READ');
    assert.match(String(refusalOf(answer)?.reason), /was deleted since you read it/);
    assert.equal(fs.existsSync(file('gone.txt')), false);
  });
});
