// Anchored I/O attacked directly: a folder of a checked path is swapped for a link to an outside
// folder before the operation starts, and (through the hooks that run just before a change) in
// the middle of it. Whatever the timing, nothing outside may be read, described, listed, created,
// changed or deleted, and no temporary file may be left behind. Both modes run on Linux: the
// descriptor mode the server uses here, and the path mode of hosts where Node cannot anchor.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildSync } from 'esbuild';
import {
  Anchor,
  ChangedError,
  describe as describeEntry,
  HeldFolders,
  makeDirectories,
  move,
  openFolder,
  readFile,
  remove,
  settleTemporaries,
  tagOf,
  TEMPORARY_NAME,
  temporaryNameFor,
  thisProcess,
  writerOfTag,
  writeFile,
  type AnchorMode,
} from '../../src/server/fs/index.js';
import { patience } from '../patience.js';

const MODES: readonly AnchorMode[] = process.platform === 'linux' ? ['descriptor', 'path'] : ['path'];

/** Every entry below `dir` with its type and content (or link target): what "unchanged" means. */
function snapshot(dir: string): Map<string, string> {
  const result = new Map<string, string>();
  const visit = (folder: string) => {
    for (const name of fs.readdirSync(folder).sort()) {
      const full = path.join(folder, name);
      const stats = fs.lstatSync(full);
      const key = path.relative(dir, full);
      if (stats.isSymbolicLink()) result.set(key, `link:${fs.readlinkSync(full)}`);
      else if (stats.isDirectory()) {
        result.set(key, 'dir');
        visit(full);
      } else result.set(key, `file:${fs.readFileSync(full, 'utf8')}:${stats.mtimeMs}`);
    }
  };
  visit(dir);
  return result;
}

function temporaries(dir: string): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(path.join(folder, entry.name));
      else if (TEMPORARY_NAME.test(entry.name) || entry.name.endsWith('.tmp')) found.push(path.join(folder, entry.name));
    }
  };
  visit(dir);
  return found;
}

interface Fixture {
  readonly base: string;
  readonly ws: string;
  readonly outside: string;
  /** Puts a link to the outside folder where the workspace's `d` was, keeping the real folder as `d-real`. */
  swap(): void;
}

function fixture(): Fixture {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-anchored-')));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  for (const root of [ws, outside]) {
    const marker = root === outside ? 'OUTSIDE' : 'inside';
    fs.mkdirSync(path.join(root, 'd', 'sub'), { recursive: true });
    fs.writeFileSync(path.join(root, 'd', 'f.txt'), `${marker} f`);
    fs.writeFileSync(path.join(root, 'd', 'sub', 'g.txt'), `${marker} g`);
  }
  fs.writeFileSync(path.join(outside, 'd', 'outside-only.txt'), 'OUTSIDE only');
  return {
    base,
    ws,
    outside,
    swap() {
      fs.renameSync(path.join(ws, 'd'), path.join(ws, 'd-real'));
      fs.symlinkSync(path.join(outside, 'd'), path.join(ws, 'd'));
    },
  };
}

for (const mode of MODES) {
  describe(`anchored I/O (${mode} mode): a folder swapped for a link before the operation`, () => {
    let fx: Fixture;
    let anchor: Anchor;
    let outsideBefore: Map<string, string>;

    before(() => {
      fx = fixture();
      anchor = Anchor.open(fx.ws, 'linux', mode);
    });
    after(() => {
      anchor.close();
      fs.rmSync(fx.base, { recursive: true, force: true });
    });

    // Each row is checked against d/... before the swap by the caller (the core); it acts after it.
    const attacks: readonly [string, (ws: string) => unknown][] = [
      ['read through the swapped folder', (ws) => readFile(anchor.checked(path.join(ws, 'd', 'f.txt')), 1024)],
      ['describe through it', (ws) => describeEntry(anchor.checked(path.join(ws, 'd', 'f.txt')))],
      ['list it', (ws) => openFolder(anchor.checked(path.join(ws, 'd'))).list()],
      ['list a folder below it', (ws) => openFolder(anchor.checked(path.join(ws, 'd', 'sub'))).list()],
      ['write through it', (ws) => writeFile(anchor.checked(path.join(ws, 'd', 'new.txt')), 'x')],
      ['replace a file through it', (ws) => writeFile(anchor.checked(path.join(ws, 'd', 'f.txt')), 'x')],
      ['create a folder through it', (ws) => makeDirectories(anchor.checked(path.join(ws, 'd', 'made', 'deeper')))],
      ['delete a file through it', (ws) => remove(anchor.checked(path.join(ws, 'd', 'f.txt')), 'file', false)],
      ['delete a folder recursively through it', (ws) => remove(anchor.checked(path.join(ws, 'd', 'sub')), 'directory', true)],
      ['delete the swapped folder itself, recursively', (ws) => remove(anchor.checked(path.join(ws, 'd')), 'directory', true)],
      ['move a file out of it', (ws) => move(anchor.checked(path.join(ws, 'd', 'f.txt')), anchor.checked(path.join(ws, 'moved.txt')), 'file')],
      ['move a file into it', (ws) => move(anchor.checked(path.join(ws, 'top.txt')), anchor.checked(path.join(ws, 'd', 'moved-in.txt')), 'file')],
    ];

    test('every operation is refused as changed, and nothing outside is touched', async () => {
      fs.writeFileSync(path.join(fx.ws, 'top.txt'), 'top');
      fx.swap();
      outsideBefore = snapshot(fx.outside);
      for (const [name, attack] of attacks) {
        await assert.rejects(async () => attack(fx.ws), (error: unknown) => error instanceof ChangedError, `${name}: refused as changed`);
      }
      assert.deepEqual(snapshot(fx.outside), outsideBefore, 'the outside folder is exactly as it was');
      assert.deepEqual(temporaries(fx.base), [], 'no temporary file anywhere');
      assert.ok(fs.existsSync(path.join(fx.ws, 'top.txt')), 'the source of the refused move is still there');
    });
  });

  describe(`anchored I/O (${mode} mode): a folder swapped in the instant before the change`, () => {
    let fx: Fixture;
    let anchor: Anchor;

    before(() => {
      fx = fixture();
      anchor = Anchor.open(fx.ws, 'linux', mode);
    });
    after(() => {
      anchor.close();
      fs.rmSync(fx.base, { recursive: true, force: true });
    });

    test('a write whose folder is swapped just before the commit never lands outside', async () => {
      const outsideBefore = snapshot(fx.outside);
      let outcome: Awaited<ReturnType<typeof writeFile>> | undefined;
      let failure: unknown;
      try {
        outcome = await writeFile(anchor.checked(path.join(fx.ws, 'd', 'f.txt')), 'new content', {
          beforeCommit: () => fx.swap(),
        });
      } catch (error) {
        failure = error;
      }
      assert.deepEqual(snapshot(fx.outside), outsideBefore, 'the outside folder is exactly as it was');
      if (mode === 'descriptor') {
        assert.deepEqual(temporaries(fx.base), [], 'no temporary file anywhere');
        // The descriptor still holds the real folder, wherever its name went: the write lands there.
        assert.equal(failure, undefined, `the anchored write went through: ${String(failure)}`);
        assert.equal(outcome?.kind === 'written' && outcome.created, false);
        assert.equal(outcome?.kind, 'written');
        assert.equal(fs.readFileSync(path.join(fx.ws, 'd-real', 'f.txt'), 'utf8'), 'new content');
      } else {
        assert.ok(failure instanceof ChangedError, `without a descriptor the swapped folder is seen before anything is renamed: ${String(failure)}`);
        assert.equal(fs.readFileSync(path.join(fx.ws, 'd-real', 'f.txt'), 'utf8'), 'inside f');
        // Its folder moved away, so the temporary file could not be removed by path; it stays inside,
        // and the next write of that file, once the folder is back, sweeps it.
        assert.deepEqual(temporaries(fx.outside), [], 'nothing left outside');
        fs.unlinkSync(path.join(fx.ws, 'd'));
        fs.renameSync(path.join(fx.ws, 'd-real'), path.join(fx.ws, 'd'));
        await writeFile(anchor.checked(path.join(fx.ws, 'd', 'f.txt')), 'again');
        assert.deepEqual(temporaries(fx.base), [], 'the next write swept it');
      }
    });
  });
}

for (const mode of MODES) {
  describe(`anchored I/O (${mode} mode): a folder a call walked to is swapped for a link before the call acts in it`, () => {
    // The call holds d (and d/sub) open from its first use; the swap comes between that walk and
    // the operation, where a path-mode folder has only its path to act through.
    const attacks: readonly [string, (ws: string, held: HeldFolders) => unknown][] = [
      ['read a file', (ws, held) => readFile(anchor(ws, held, 'd', 'f.txt'), 1024).bytes.toString()],
      ['list it', (ws, held) => openFolder(anchor(ws, held, 'd')).list().map((entry) => entry.name)],
      ['write a new file', (ws, held) => writeFile(anchor(ws, held, 'd', 'new.txt'), 'x')],
      ['replace a file', (ws, held) => writeFile(anchor(ws, held, 'd', 'f.txt'), 'x')],
      ['create a folder', (ws, held) => makeDirectories(anchor(ws, held, 'd', 'made'))],
      ['delete a file', (ws, held) => remove(anchor(ws, held, 'd', 'f.txt'), 'file', false)],
      ['delete a folder recursively', (ws, held) => remove(anchor(ws, held, 'd', 'sub'), 'directory', true)],
      ['move a file out of it', (ws, held) => move(anchor(ws, held, 'd', 'f.txt'), anchor(ws, held, 'moved.txt'), 'file')],
      ['move a file into it', (ws, held) => move(anchor(ws, held, 'top.txt'), anchor(ws, held, 'd', 'moved-in.txt'), 'file')],
    ];
    const anchors = new Map<string, Anchor>();
    const anchor = (ws: string, held: HeldFolders, ...names: string[]) => anchors.get(ws)!.checked(path.join(ws, ...names), held);
    const made: Fixture[] = [];
    after(() => {
      for (const opened of anchors.values()) opened.close();
      for (const fx of made) fs.rmSync(fx.base, { recursive: true, force: true });
    });

    for (const [name, attack] of attacks) {
      test(`${name}: nothing outside is read or touched${mode === 'path' ? ', and the call is refused as changed' : ''}`, async () => {
        const fx = fixture();
        made.push(fx);
        fs.writeFileSync(path.join(fx.ws, 'top.txt'), 'top');
        anchors.set(fx.ws, Anchor.open(fx.ws, 'linux', mode));
        const held = new HeldFolders();
        // The call's first use walks to both folders it will act in.
        for (const names of [['d'], ['d', 'sub'], []]) assert.ok(held.folder(anchors.get(fx.ws)!, names));
        const outsideBefore = snapshot(fx.outside);
        fx.swap();
        let answer: unknown;
        let failure: unknown;
        try {
          answer = await attack(fx.ws, held);
        } catch (error) {
          failure = error;
        } finally {
          held.close();
        }
        assert.deepEqual(snapshot(fx.outside), outsideBefore, 'the outside folder is exactly as it was');
        assert.doesNotMatch(JSON.stringify(answer ?? null, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value)), /OUTSIDE|outside-only/, 'nothing of the outside folder is answered');
        assert.deepEqual(temporaries(fx.outside), [], 'nothing left outside');
        if (mode === 'path') assert.ok(failure instanceof ChangedError, `refused as changed: ${String(failure)}`);
        // Through a descriptor the call acts in the folder it walked to, wherever its name went, or
        // is refused where it walks again.
        else assert.ok(failure === undefined || failure instanceof ChangedError, `acted in the folder held, or refused as changed: ${String(failure)}`);
      });
    }
  });

  describe(`anchored I/O (${mode} mode) confines itself: a path not below its root, or with a name that is not a name, is refused whatever the caller`, () => {
    let base: string;
    let ws: string;
    let anchor: Anchor;
    before(() => {
      base = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-confine-'));
      ws = path.join(base, 'ws');
      fs.mkdirSync(path.join(ws, 'd'), { recursive: true });
      fs.writeFileSync(path.join(base, 'outside.txt'), 'outside');
      fs.mkdirSync(path.join(base, 'wsx'));
      fs.writeFileSync(path.join(base, 'wsx', 'secret.txt'), 'sibling');
      anchor = Anchor.open(ws, 'linux', mode);
    });
    after(() => {
      anchor.close();
      fs.rmSync(base, { recursive: true, force: true });
    });

    // Each row: a path no check of the core would hand over, given straight to the module.
    const paths: readonly [string, (ws: string, base: string) => string][] = [
      ['dot-dot after the root', (w) => `${w}/../outside.txt`],
      ['dot-dot further down', (w) => `${w}/d/../../outside.txt`],
      ['a dot name', (w) => `${w}/./d`],
      ['a sibling whose name starts with the root\'s', (_w, b) => `${b}/wsx/secret.txt`],
      ['another root of the same depth', (_w, b) => `${path.dirname(b)}/other/ws/x.txt`],
      ['the parent of the root', (_w, b) => b],
      ['a relative path', () => 'ws/outside.txt'],
    ];
    for (const [attack, make] of paths) {
      test(attack, () => {
        const target = make(ws, base);
        const before = snapshot(base);
        for (const act of [
          () => readFile(anchor.checked(target), 1024),
          () => describeEntry(anchor.checked(target)),
          () => writeFile(anchor.checked(target), 'written'),
          () => makeDirectories(anchor.checked(target)),
          () => remove(anchor.checked(target), 'file', false),
        ]) {
          assert.throws(act, (error: NodeJS.ErrnoException) => error.code === 'EINVAL' && /not below the workspace|not a name/.test(error.message), `${attack}: ${target}`);
        }
        assert.deepEqual(snapshot(base), before, 'nothing changed on disk');
      });
    }

    test('control: names a POSIX folder may hold (a backslash, dots inside, a leading dash) are still names', async () => {
      for (const name of ['back\\slash.txt', '..hidden', 'a..b', '-dash', '...']) {
        await writeFile(anchor.checked(path.join(ws, 'd', name)), name);
        assert.equal(readFile(anchor.checked(path.join(ws, 'd', name)), 1024).bytes.toString(), name);
      }
    });
  });
}

describe('special files are described, never opened', { skip: process.platform !== 'linux' && 'FIFOs as Linux makes them' }, () => {
  test('reading a FIFO with a writer blocked on it: refused as not a regular file, and the writer stays blocked', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-fifo-'));
    const fifo = path.join(base, 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    // The writer's open blocks until some reader opens the FIFO: if the module opened it, the writer would go on.
    const writer = spawn('sh', ['-c', `echo written > '${fifo}'; echo released`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let released = false;
    writer.stdout.on('data', () => (released = true));
    try {
      for (const mode of MODES) {
        const anchor = Anchor.open(base, 'linux', mode);
        try {
          assert.throws(() => readFile(anchor.checked(fifo), 1024), (error: NodeJS.ErrnoException) => error.code === 'EINVAL' && /not a regular file/.test(error.message), mode);
          assert.doesNotThrow(() => describeEntry(anchor.checked(fifo)), 'a FIFO is described');
        } finally {
          anchor.close();
        }
      }
      // Time enough for the writer to finish, had the FIFO been opened.
      await new Promise((resolve) => setTimeout(resolve, patience(300)));
      assert.equal(released, false, 'no reader opened the FIFO: its writer is still blocked');
    } finally {
      writer.kill('SIGKILL');
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('temporary files: one short pattern, never left behind', () => {
  let base: string;
  let anchor: Anchor;

  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-temporary-')));
    anchor = Anchor.open(base, process.platform === 'linux' ? 'linux' : 'darwin');
  });
  after(() => {
    anchor.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  test('the temporary name has a fixed, short length whatever the target name, and matches the pattern', () => {
    const short = temporaryNameFor('a');
    const long = temporaryNameFor('x'.repeat(255));
    assert.match(short, TEMPORARY_NAME);
    assert.match(long, TEMPORARY_NAME);
    // At most: .bi. + 8 + . + a pid, a namespace and a start time in base 36 (5, 7 and 7) + . + 8 + .tmp
    assert.ok(long.length <= 47, `${long} is ${long.length} characters`);
  });

  test('a file whose name is 255 bytes long can be written', async () => {
    const name = `${'é'.repeat(126)}abc`; // 126 * 2 + 3 = 255 bytes in UTF-8
    assert.equal(Buffer.byteLength(name), 255);
    const result = await writeFile(anchor.checked(path.join(base, name)), 'long name');
    assert.equal(result.kind === 'written' && result.created, true);
    assert.equal(fs.readFileSync(path.join(base, name), 'utf8'), 'long name');
  });

  test('a write abandoned just before the commit removes its temporary file', async () => {
    fs.writeFileSync(path.join(base, 'kept.txt'), 'old');
    await assert.rejects(() =>
      writeFile(anchor.checked(path.join(base, 'kept.txt')), 'new', {
        beforeCommit: () => {
          throw new Error('changed meanwhile');
        },
      }),
    );
    assert.equal(fs.readFileSync(path.join(base, 'kept.txt'), 'utf8'), 'old');
    assert.deepEqual(temporaries(base), []);
  });

  test('a write over a folder fails, and leaves nothing', async () => {
    fs.mkdirSync(path.join(base, 'a-folder'));
    await assert.rejects(() => writeFile(anchor.checked(path.join(base, 'a-folder')), 'x'), { code: 'EISDIR' });
    assert.deepEqual(temporaries(base), []);
  });

  test('a gone writer\'s temporaries are removed by the next write of the same file; a live writer\'s, one that may live, and another file\'s are kept, whatever their age', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const self = thisProcess();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const liveWriter = { ...self, pid: live.pid!, started: Number(fs.readFileSync(`/proc/${live.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]) };
      // Named with a writer's tag instead of this process's.
      const by = (writer: typeof self, name: string, role: 'tmp' | 'old' = 'tmp') => temporaryNameFor(name, role).replace(`.${tagOf(self)}.`, `.${tagOf(writer)}.`);
      const deadTemporary = by({ ...self, pid: Number(dead.stdout) }, 'target.txt');
      // A live process whose start time is not the writer's: the writer's pid was taken again since.
      const reusedPid = by({ ...liveWriter, started: liveWriter.started + 1 }, 'target.txt');
      const busy = by(liveWriter, 'target.txt');
      // A live writer's file taken aside keeps the times of its last save, an hour ago: it is not stale for that.
      const busyAside = by(liveWriter, 'target.txt', 'old');
      // A sandboxed writer's pid means nothing in this PID namespace: it may live, and its files stay.
      const otherNamespace = by({ ...self, namespace: self.namespace + 1 }, 'target.txt', 'old');
      const other = by({ ...self, pid: Number(dead.stdout) }, 'other.txt');
      for (const name of [deadTemporary, reusedPid, busy, busyAside, otherNamespace, other]) fs.writeFileSync(path.join(base, name), 'partial');
      const hourAgo = Date.now() / 1000 - 3600;
      for (const name of [busyAside, otherNamespace]) fs.utimesSync(path.join(base, name), hourAgo, hourAgo);
      assert.deepEqual(writerOfTag(tagOf(liveWriter)), liveWriter);

      await writeFile(anchor.checked(path.join(base, 'target.txt')), 'complete');
      assert.equal(fs.existsSync(path.join(base, deadTemporary)), false, 'the dead writer\'s temporary file is gone');
      assert.equal(fs.existsSync(path.join(base, reusedPid)), false, 'a writer whose pid is another process\'s now is gone');
      assert.equal(fs.existsSync(path.join(base, busy)), true, 'a live writer\'s temporary file is kept');
      assert.equal(fs.existsSync(path.join(base, busyAside)), true, 'a live writer\'s file taken aside is kept, however old its times');
      assert.equal(fs.existsSync(path.join(base, otherNamespace)), true, 'a writer that cannot be asked is taken to live');
      assert.equal(fs.existsSync(path.join(base, other)), true, 'another file\'s temporary file is kept');

      // While a live writer's files are there, each write looks again: once it is gone, they go.
      fs.unlinkSync(path.join(base, otherNamespace));
      live.kill('SIGKILL');
      await new Promise((resolve) => live.once('exit', resolve));
      await writeFile(anchor.checked(path.join(base, 'target.txt')), 'again');
      assert.equal(fs.existsSync(path.join(base, busy)), false, 'the writer gone, its temporary file is removed');
      assert.equal(fs.existsSync(path.join(base, busyAside)), false, 'and the file it set aside, superseded by the file at the name');
      assert.equal(fs.readFileSync(path.join(base, 'target.txt'), 'utf8'), 'again');
      fs.unlinkSync(path.join(base, other));
    } finally {
      live.kill('SIGKILL');
    }
  });

  test('a gone writer that had put its new file in place: the file it took aside is an older version, never put back, even while another writer\'s commit has the name empty', async () => {
    const self = thisProcess();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const gone = { ...self, pid: Number(dead.stdout) };
    const by = (name: string, role: 'tmp' | 'old') => temporaryNameFor(name, role).replace(`.${tagOf(self)}.`, `.${tagOf(gone)}.`);
    // The gone writer's new file is in place, and another writer has just taken it aside (its own
    // commit): the name is empty, the new content has the other writer's temporary name too.
    const newContent = path.join(base, by('shared.txt', 'tmp'));
    fs.writeFileSync(newContent, 'the gone writer\'s change');
    fs.linkSync(newContent, path.join(base, 'taken-aside-by-another'));
    fs.writeFileSync(path.join(base, by('shared.txt', 'old')), 'the version before that change');
    await settleTemporaries(anchor.checked(path.join(base, 'shared.txt')));
    assert.equal(fs.existsSync(path.join(base, 'shared.txt')), false, 'the older version was not put back in the other writer\'s way');
    assert.deepEqual(temporaries(base), [], 'both of the gone writer\'s temporaries are removed');
    assert.equal(fs.readFileSync(path.join(base, 'taken-aside-by-another'), 'utf8'), 'the gone writer\'s change');
    fs.unlinkSync(path.join(base, 'taken-aside-by-another'));
  });

  test('kill -9 during large writes: the file always holds the old or the new content, never a mix, and the next write sweeps what was left', async (t) => {
    const target = path.join(base, 'big.bin');
    const size = 8 * 1024 * 1024;
    fs.writeFileSync(target, Buffer.alloc(size, 'a'));
    // The file layer from src, bundled once, so each writer starts in plain node: ten under tsx
    // spent seconds compiling before their first write.
    const layerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-layer-'));
    t.after(() => fs.rmSync(layerDir, { recursive: true, force: true }));
    const layer = path.join(layerDir, 'fs.js');
    buildSync({ entryPoints: [path.join(__dirname, '..', '..', 'src', 'server', 'fs', 'index.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: layer, logLevel: 'error' });
    const writer = `
      const { Anchor, writeFile } = require(${JSON.stringify(layer)});
      const anchor = Anchor.open(${JSON.stringify(base)}, ${JSON.stringify(process.platform === 'linux' ? 'linux' : 'darwin')});
      let letter = 0;
      (async () => {
        for (;;) await writeFile(anchor.checked(${JSON.stringify(target)}), Buffer.alloc(${size}, 'bc'[letter++ % 2]));
      })();
    `;
    const inWrite = () => temporaries(base).length > 0;
    let leftBehind = 0;
    for (let round = 0; round < 10; round += 1) {
      const child = spawn(process.execPath, ['-e', writer], { stdio: 'ignore' });
      // Killed while a temporary file exists: in the middle of a write, whatever the machine's load.
      const deadline = Date.now() + patience(20_000);
      while (!inWrite() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
      await new Promise((resolve) => setTimeout(resolve, round * 3));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      // Killed in its commit, between taking the file aside and linking the new one in, the name
      // is empty until the next write puts the aside back: then the aside holds the content whole.
      const aside = temporaries(base).filter((file) => file.endsWith('.old'));
      const holder = fs.existsSync(target) ? target : aside[0];
      assert.ok(holder !== undefined, `round ${round}: neither the file nor an aside of it is there`);
      const content = fs.readFileSync(holder);
      assert.equal(content.length, size, `round ${round}: ${path.basename(holder)} keeps the file's full size`);
      const first = content[0]!;
      assert.ok(content.equals(Buffer.alloc(size, first)), `round ${round}: ${path.basename(holder)} holds one write's content, not a mix`);
      if (inWrite()) leftBehind += 1;
    }
    assert.ok(leftBehind > 0, 'killed writers left temporary files, so the sweep below has something to do');
    await writeFile(anchor.checked(target), 'done');
    assert.deepEqual(temporaries(base), [], 'the next write removed every stale temporary file of this target');
    assert.equal(fs.readFileSync(target, 'utf8'), 'done');
  });
});
