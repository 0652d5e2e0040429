// A folder inside the workspace that a call acted in, changed before the next call: moved away
// with another made at its path, deleted and made again, it or its parent moved outside with a
// link left at the path, its parent swapped for a link to an outside folder, or (as root) another
// filesystem or a bind mount mounted over its parent. The server keeps folders open across calls;
// the next call must act only in what the path leads to now: the new folder, or a refusal where a
// link leads outside, and nothing outside is read or changed. What is mounted inside the
// workspace can be unmounted while the server runs: no folder on it is kept open.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { sandboxAvailability } from '../../bench/race/harness.js';
import { RawServer } from './rawServer.js';
import { makeTempDir, removeDir } from './helpers.js';

const sandbox = sandboxAvailability();
const asRoot = process.getuid?.() === 0;

interface Answer {
  readonly refused: boolean;
  readonly text: string;
}

/** Every entry below `dir`, with a file's content: what "unchanged" means. */
function contents(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const full = path.join(dir, name);
    const stats = fs.lstatSync(full);
    found[name] = stats.isSymbolicLink() ? `link:${fs.readlinkSync(full)}` : stats.isDirectory() ? 'dir' : fs.readFileSync(full, 'utf8');
  }
  return found;
}

for (const sandboxed of [false, true]) {
  describe(`a folder inside the workspace changed between two calls, sandbox ${sandboxed ? 'on' : 'off'}`, { skip: sandboxed && !sandbox.available && `no sandbox here: ${sandbox.reason}`, concurrency: true }, () => {
    const dirs: string[] = [];
    const servers: RawServer[] = [];
    after(async () => {
      for (const server of servers) await server.close();
      for (const dir of dirs) {
        spawnSync('umount', ['-l', path.join(dir, 'ws', 'a', 'b')], { stdio: 'ignore' });
        removeDir(dir);
      }
    });

    /**
     * A workspace with `a/b/c/f.txt` and an outside folder shaped the same, and a server whose
     * first calls read, describe and write in `a/b/c` (so the server has walked to it).
     */
    async function start() {
      const base = makeTempDir('bi-folder-changed-');
      dirs.push(base);
      const ws = path.join(base, 'ws');
      const outside = path.join(base, 'outside');
      for (const root of [ws, outside]) {
        fs.mkdirSync(path.join(root, 'a', 'b', 'c'), { recursive: true });
        fs.writeFileSync(path.join(root, 'a', 'b', 'c', 'f.txt'), root === ws ? 'first' : 'OUTSIDE');
      }
      const uri = pathToFileURL(ws).href;
      const server = RawServer.start(['--workspace', uri], { sandboxed });
      servers.push(server);
      await server.initialize();
      const call = async (tool: string, args: Record<string, unknown>): Promise<Answer> => {
        const result = (await server.call(tool, { workspaceUri: uri, ...args })).result!;
        return { refused: result.isError === true, text: (result.content as { text?: string }[]).map((block) => block.text ?? '').join('\n') };
      };
      assert.equal((await call('read_text_file', { path: 'a/b/c/f.txt' })).text, 'first');
      assert.equal((await call('get_file_info', { path: 'a/b/c/f.txt' })).refused, false);
      assert.equal((await call('write_file', { path: 'a/b/c/w.txt', content: 'one' })).refused, false);
      return { base, ws, outside, call, before: contents(outside) };
    }

    test('moved away and another folder made at its path: the next calls read and write the new folder', async () => {
      const { base, ws, call } = await start();
      const folder = path.join(ws, 'a', 'b', 'c');
      fs.renameSync(folder, path.join(base, 'moved-away'));
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'f.txt'), 'second');
      assert.equal((await call('read_text_file', { path: 'a/b/c/f.txt' })).text, 'second');
      assert.match((await call('get_file_info', { path: 'a/b/c/f.txt' })).text, /size: 6\b/);
      assert.equal((await call('write_file', { path: 'a/b/c/w2.txt', content: 'two' })).refused, false);
      assert.equal(fs.readFileSync(path.join(folder, 'w2.txt'), 'utf8'), 'two');
      assert.equal(fs.existsSync(path.join(base, 'moved-away', 'w2.txt')), false, 'nothing written in the folder moved away');
    });

    test('deleted and made again: the next calls act in the new folder', async () => {
      const { ws, call } = await start();
      const folder = path.join(ws, 'a', 'b', 'c');
      fs.rmSync(folder, { recursive: true });
      fs.mkdirSync(folder);
      assert.equal((await call('read_text_file', { path: 'a/b/c/f.txt' })).refused, true, 'no f.txt in the new folder');
      assert.equal((await call('write_file', { path: 'a/b/c/w2.txt', content: 'two' })).refused, false);
      assert.equal(fs.readFileSync(path.join(folder, 'w2.txt'), 'utf8'), 'two');
    });

    // Through the folder's parent, the path still leads to the folder itself, now outside.
    for (const [moving, names] of [
      ['it', ['a', 'b', 'c']],
      ['its parent', ['a', 'b']],
    ] as const) {
      test(`${moving} moved outside with a link left at the path: refused, and nothing outside is read or changed`, async () => {
        const { ws, outside, call } = await start();
        const moved = path.join(outside, 'taken');
        fs.renameSync(path.join(ws, ...names), moved);
        fs.symlinkSync(moved, path.join(ws, ...names));
        const before = contents(outside);
        const read = await call('read_text_file', { path: 'a/b/c/f.txt' });
        assert.equal(read.refused, true, read.text);
        assert.doesNotMatch(read.text, /^first$/m);
        assert.equal((await call('get_file_info', { path: 'a/b/c/f.txt' })).refused, true);
        assert.equal((await call('write_file', { path: 'a/b/c/w2.txt', content: 'two' })).refused, true);
        assert.equal((await call('write_file', { path: 'a/b/c/f.txt', content: 'changed' })).refused, true);
        assert.deepEqual(contents(outside), before);
      });
    }

    test('its parent swapped for a link to an outside folder: refused, and nothing outside is read or changed', async () => {
      const { ws, outside, call, before } = await start();
      fs.renameSync(path.join(ws, 'a', 'b'), path.join(ws, 'a', 'b-aside'));
      fs.symlinkSync(path.join(outside, 'a', 'b'), path.join(ws, 'a', 'b'));
      const read = await call('read_text_file', { path: 'a/b/c/f.txt' });
      assert.equal(read.refused, true, read.text);
      assert.doesNotMatch(read.text, /OUTSIDE/);
      assert.equal((await call('write_file', { path: 'a/b/c/w2.txt', content: 'two' })).refused, true);
      assert.equal((await call('write_file', { path: 'a/b/c/f.txt', content: 'changed' })).refused, true);
      assert.deepEqual(contents(outside), before);
    });

    for (const [mounted, source] of [
      ['another filesystem', () => ['-t', 'tmpfs', 'tmpfs']],
      [
        'a bind mount of a folder on the same filesystem',
        (base: string) => {
          const bound = path.join(base, 'bound');
          fs.mkdirSync(bound);
          return ['--bind', bound];
        },
      ],
    ] as const) {
      test(`${mounted} mounted over its parent: the next calls act on it, and it can be unmounted while the server runs`, { skip: (sandboxed && 'a sandbox shows the mounts it was made with') || (!asRoot && 'mounting needs root') }, async (t) => {
        const { base, ws, call } = await start();
        const parent = path.join(ws, 'a', 'b');
        if (spawnSync('mount', [...source(base), parent]).status !== 0) return t.skip(`${mounted} cannot be mounted here`);
        fs.mkdirSync(path.join(parent, 'c'));
        fs.writeFileSync(path.join(parent, 'c', 'f.txt'), 'mounted');
        assert.equal((await call('read_text_file', { path: 'a/b/c/f.txt' })).text, 'mounted');
        assert.equal((await call('write_file', { path: 'a/b/c/w2.txt', content: 'two' })).refused, false);
        assert.equal(fs.readFileSync(path.join(parent, 'c', 'w2.txt'), 'utf8'), 'two', 'written where the path leads');
        const unmounted = spawnSync('umount', [parent], { encoding: 'utf8' });
        assert.equal(unmounted.status, 0, `no folder on the mount is held open between calls: ${unmounted.stderr}`);
        assert.equal((await call('read_text_file', { path: 'a/b/c/f.txt' })).text, 'first', 'the folder under it again');
        assert.equal(fs.existsSync(path.join(parent, 'c', 'w2.txt')), false);
      });
    }
  });
}
