// The workspace folder moved, deleted, made again or unmounted under the running server, with
// the sandbox off and on: a call that finds the granted path no longer naming the folder the
// server holds is refused, naming what happened, and nothing is read or changed anywhere. Without
// a sandbox, the folder then at the path is served from the next call, as the reference server
// (which follows the path) serves it; a sandbox shows only the folders it was made with, so there
// every later call is refused too, saying to restart the server. A change is never reported done
// somewhere else.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { sandboxAvailability } from '../../bench/race/harness.js';
import { RawServer } from './rawServer.js';
import { makeTempDir, refusalOf, removeDir } from './helpers.js';

const sandbox = sandboxAvailability();
const asRoot = process.getuid?.() === 0;

interface Answer {
  readonly refused: boolean;
  readonly code: string | undefined;
  readonly text: string;
}

async function call(server: RawServer, tool: string, args: Record<string, unknown>): Promise<Answer> {
  const answer = await server.call(tool, args);
  const result = answer.result!;
  const text = (result.content as { text?: string }[]).map((block) => block.text ?? '').join('\n');
  return { refused: result.isError === true, code: refusalOf(result)?.code as string | undefined, text };
}

for (const sandboxed of [false, true]) {
  // Each test has a folder and a server of its own: they run side by side.
  describe(`a workspace that changes under the server, sandbox ${sandboxed ? 'on' : 'off'}`, { skip: sandboxed && !sandbox.available && `no sandbox here: ${sandbox.reason}`, concurrency: true }, () => {
    const dirs: string[] = [];
    const servers: RawServer[] = [];
    after(async () => {
      for (const server of servers) await server.close();
      for (const dir of dirs) {
        spawnSync('umount', ['-l', path.join(dir, 'ws')], { stdio: 'ignore' });
        removeDir(dir);
      }
    });

    async function start(): Promise<{ base: string; ws: string; uri: string; server: RawServer }> {
      const base = makeTempDir('bi-moved-');
      dirs.push(base);
      const ws = path.join(base, 'ws');
      fs.mkdirSync(ws);
      fs.writeFileSync(path.join(ws, 'note.txt'), 'the granted folder');
      return { base, ws, uri: pathToFileURL(ws).href, server: await begin(ws) };
    }

    /** The call after the refused one: served from the folder now at the path, or (in a sandbox) refused again, saying to restart. */
    async function afterwards(server: RawServer, args: Record<string, unknown>, code: string, check: () => void): Promise<void> {
      const again = await call(server, 'write_file', args);
      if (sandboxed) {
        assert.equal(again.code, code, again.text);
        assert.match(again.text, /restart the server/);
        return;
      }
      assert.equal(again.refused, false, again.text);
      check();
    }

    async function begin(ws: string): Promise<RawServer> {
      const server = RawServer.start(['--workspace', pathToFileURL(ws).href], { sandboxed });
      servers.push(server);
      await server.initialize();
      return server;
    }

    test('moved away and another folder made at the path: refused (replaced), nothing written in either, then the new folder served (refused in a sandbox)', async () => {
      const { base, ws, uri, server } = await start();
      fs.renameSync(ws, path.join(base, 'moved-away'));
      fs.mkdirSync(ws);
      fs.writeFileSync(path.join(ws, 'note.txt'), 'the new folder');
      const write = await call(server, 'write_file', { workspaceUri: uri, path: 'made.txt', content: 'x' });
      assert.equal(write.code, 'ERR_WORKSPACE_REPLACED', write.text);
      assert.match(write.text, /moved away/);
      assert.equal(fs.existsSync(path.join(base, 'moved-away', 'made.txt')), false, 'nothing written in the folder moved away');
      assert.equal(fs.existsSync(path.join(ws, 'made.txt')), false, 'nothing written in the refused call');
      const read = await call(server, 'read_text_file', { workspaceUri: uri, path: 'note.txt' });
      if (sandboxed) assert.equal(read.code, 'ERR_WORKSPACE_REPLACED', `the old folder is never read: ${read.text}`);
      else assert.equal(read.text, 'the new folder', 'the folder now at the path is read, never the old one');
      await afterwards(server, { workspaceUri: uri, path: 'made.txt', content: 'x' }, 'ERR_WORKSPACE_REPLACED', () => {
        assert.equal(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'x', 'written where the answer says');
      });
      assert.equal(fs.existsSync(path.join(base, 'moved-away', 'made.txt')), false);
    });

    test('deleted and made again: refused (replaced, deleted), then served, or refused in a sandbox', async () => {
      const { ws, uri, server } = await start();
      fs.rmSync(ws, { recursive: true });
      fs.mkdirSync(ws);
      const write = await call(server, 'write_file', { workspaceUri: uri, path: 'made.txt', content: 'x' });
      assert.equal(write.code, 'ERR_WORKSPACE_REPLACED', write.text);
      assert.match(write.text, /deleted/);
      await afterwards(server, { workspaceUri: uri, path: 'made.txt', content: 'x' }, 'ERR_WORKSPACE_REPLACED', () => {
        assert.equal(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'x');
      });
      if (sandboxed) assert.equal(fs.existsSync(path.join(ws, 'made.txt')), false);
    });

    test('gone: every call refused (gone) while nothing is at the path; then served, or refused in a sandbox', async () => {
      const { base, ws, uri, server } = await start();
      fs.renameSync(ws, path.join(base, 'elsewhere'));
      for (const tool of ['write_file', 'list_directory'] as const) {
        const answer = await call(server, tool, { workspaceUri: uri, path: tool === 'write_file' ? 'made.txt' : '.', content: 'x' });
        assert.equal(answer.code, 'ERR_WORKSPACE_GONE', `${tool}: ${answer.text}`);
      }
      assert.equal(fs.existsSync(path.join(base, 'elsewhere', 'made.txt')), false, 'nothing written where the folder went');
      fs.mkdirSync(ws);
      await afterwards(server, { workspaceUri: uri, path: 'made.txt', content: 'x' }, 'ERR_WORKSPACE_REPLACED', () => {
        assert.equal(fs.readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'x');
      });
      assert.equal(fs.existsSync(path.join(base, 'elsewhere', 'made.txt')), false);
    });

    for (const lazily of [true, false]) {
      test(`its filesystem unmounted${lazily ? ' lazily' : ''}: refused (unmounted), and nothing is reported done on the detached filesystem`, { skip: !asRoot && 'mounting needs root' }, async (t) => {
        const base = makeTempDir('bi-unmounted-');
        dirs.push(base);
        const ws = path.join(base, 'ws');
        fs.mkdirSync(ws);
        if (spawnSync('mount', ['-t', 'tmpfs', 'tmpfs', ws]).status !== 0) return t.skip('tmpfs cannot be mounted here');
        fs.writeFileSync(path.join(ws, 'note.txt'), 'on the mounted filesystem');
        const uri = pathToFileURL(ws).href;
        const server = await begin(ws);
        assert.equal((await call(server, 'read_text_file', { workspaceUri: uri, path: 'note.txt' })).text, 'on the mounted filesystem');
        const unmounted = spawnSync('umount', lazily ? ['-l', ws] : [ws], { encoding: 'utf8' });
        // The server holds the folder open: without a sandbox of its own, a plain umount is refused as busy.
        if (unmounted.status !== 0) {
          assert.ok(!lazily && /busy/i.test(unmounted.stderr), unmounted.stderr);
          return;
        }
        const write = await call(server, 'write_file', { workspaceUri: uri, path: 'made.txt', content: 'x' });
        assert.equal(write.code, 'ERR_WORKSPACE_UNMOUNTED', write.text);
        assert.equal(fs.existsSync(path.join(ws, 'made.txt')), false);
        const read = await call(server, 'read_text_file', { workspaceUri: uri, path: 'note.txt' });
        assert.equal(read.refused, true, `the detached filesystem's file is not read: ${read.text}`);
      });
    }
  });
}
