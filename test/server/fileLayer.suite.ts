// The file layer attacked directly, in the shape of Go's os.Root tests: every folder operation
// against every name that is not one entry, in both implementations; and the commit, against a
// save landing between the read and the commit, by rename and in place, and a killed writer's
// file taken aside.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Anchor, baseOf, contentBase, describe as describeEntry, HeldFolders, readFile, settleTemporaries, temporaryNameFor, writeFile, type AnchorMode, type Folder } from '../../src/server/fs/index.js';
import { commitReplacing } from '../../src/server/fs/commit.js';
import { eventually } from '../patience.js';

/** A folder whose calls go through `hook` first: a test's way to act between two steps of a commit. */
function hooked(folder: Folder, hook: (call: string, args: unknown[], run: () => unknown) => unknown): Folder {
  return new Proxy(folder, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => hook(String(property), args, () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

const MODES: readonly AnchorMode[] = process.platform === 'linux' ? ['descriptor', 'path'] : ['path'];
const NOT_NAMES = ['..', '.', '', '/etc/passwd', 'd/f.txt', '../outside.txt', 'x\0y'];

/** What this process holds open, by the kernel's names (the descriptor listing them is gone once read); nothing where there is no /proc. */
function heldOpen(): string[] {
  if (process.platform !== 'linux') return [];
  return fs.readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [fs.readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

/** The folders `anchor` walks to while `run` runs. */
async function walksDuring(anchor: Anchor, run: () => Promise<void>): Promise<number> {
  const folder = anchor.folder.bind(anchor);
  let walks = 0;
  anchor.folder = (names) => {
    walks += 1;
    return folder(names);
  };
  try {
    await run();
  } finally {
    anchor.folder = folder;
  }
  return walks;
}

function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

for (const mode of MODES) {
  describe(`the folder interface (${mode}): a name that is not one entry is refused by every operation`, () => {
    let base: string;
    let anchor: Anchor;
    let folder: Folder;
    before(() => {
      base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-names-')));
      fs.mkdirSync(path.join(base, 'ws', 'd'), { recursive: true });
      fs.writeFileSync(path.join(base, 'ws', 'd', 'f.txt'), 'inside');
      fs.writeFileSync(path.join(base, 'outside.txt'), 'outside');
      anchor = Anchor.open(path.join(base, 'ws'), 'linux', mode);
      folder = anchor.folder(['d']);
    });
    after(() => {
      folder.close();
      anchor.close();
      fs.rmSync(base, { recursive: true, force: true });
    });

    const operations: readonly [string, (f: Folder, name: string) => unknown][] = [
      ['lstat', (f, name) => f.lstat(name)],
      ['readlink', (f, name) => f.readlink(name)],
      ['openFolder', (f, name) => f.openFolder(name)],
      ['openFile', (f, name) => f.openFile(name)],
      ['createExclusive', (f, name) => f.createExclusive(name, 0o600)],
      ['rename from', (f, name) => f.rename(name, f, 'renamed.txt')],
      ['rename to', (f, name) => f.rename('f.txt', f, name)],
      ['link from', (f, name) => f.link(name, f, 'linked.txt')],
      ['link to', (f, name) => f.link('f.txt', f, name)],
      ['unlink', (f, name) => f.unlink(name)],
      ['mkdir', (f, name) => f.mkdir(name)],
      ['rmdir', (f, name) => f.rmdir(name)],
    ];
    for (const [operation, act] of operations) {
      test(operation, () => {
        const before = listing(base);
        for (const name of NOT_NAMES) {
          assert.throws(() => act(folder, name), (error: NodeJS.ErrnoException) => error.code === 'EINVAL', `${operation}(${JSON.stringify(name)})`);
        }
        assert.deepEqual(listing(base), before, 'nothing changed on disk');
        assert.equal(fs.readFileSync(path.join(base, 'outside.txt'), 'utf8'), 'outside');
      });
    }
  });

  describe(`the commit (${mode}): a save made after the read is never replaced`, () => {
    let base: string;
    let anchor: Anchor;
    const file = () => path.join(base, 'doc.txt');
    before(() => {
      base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-commit-')));
      anchor = Anchor.open(base, 'linux', mode);
    });
    after(() => {
      anchor.close();
      fs.rmSync(base, { recursive: true, force: true });
    });

    const saves: readonly [string, () => void][] = [
      [
        'saved by rename',
        () => {
          fs.writeFileSync(`${file()}.save`, 'saved by the editor');
          fs.renameSync(`${file()}.save`, file());
        },
      ],
      ['saved in place, the same size', () => fs.writeFileSync(file(), 'SAVED IN PLACE!')],
      ['deleted', () => fs.unlinkSync(file())],
    ];
    for (const [how, save] of saves) {
      test(`${how} between the read and the commit: the change is refused as changed, the save kept, nothing left`, async () => {
        fs.writeFileSync(file(), 'the first text.');
        const { bytes, stats } = readFile(anchor.checked(file()), 1024);
        const expected = () => (fs.existsSync(file()) ? fs.readFileSync(file(), 'utf8') : undefined);
        let saved: string | undefined;
        const result = await writeFile(anchor.checked(file()), 'the agent', {
          base: contentBase(stats, bytes),
          beforeCommit: () => {
            save();
            saved = expected();
            return undefined;
          },
        });
        assert.equal(result.kind, 'changed');
        assert.equal(expected(), saved, 'what the editor left is there');
        assert.deepEqual(listing(base).filter((name) => name.startsWith('.bi.')), []);
      });
    }

    test('a file made at a free name between the look and the commit is kept', async () => {
      fs.rmSync(file(), { force: true });
      const target = anchor.checked(file());
      const base0 = await baseOf(target);
      const result = await writeFile(target, 'the agent', { base: base0, beforeCommit: () => void fs.writeFileSync(file(), 'made meanwhile') });
      assert.equal(result.kind, 'changed');
      assert.equal(fs.readFileSync(file(), 'utf8'), 'made meanwhile');
    });

    test('control: unchanged since the read, the change is made', async () => {
      fs.writeFileSync(file(), 'the first text.');
      const { bytes, stats } = readFile(anchor.checked(file()), 1024);
      const result = await writeFile(anchor.checked(file()), 'the agent', { base: contentBase(stats, bytes) });
      assert.equal(result.kind, 'written');
      assert.equal(fs.readFileSync(file(), 'utf8'), 'the agent');
    });

    test('the file taken aside is removed by another program once the new one is in: the change stands, and is never taken out again', () => {
      fs.writeFileSync(file(), 'before');
      const folder = anchor.folder([]);
      try {
        const seen = { kind: 'present', stats: fs.lstatSync(file(), { bigint: true }) } as const;
        fs.writeFileSync(path.join(base, 'new.part'), 'the agent');
        let aside = '';
        const watching = hooked(folder, (call, args, run) => {
          const result = run();
          if (call === 'rename' && args[0] === 'doc.txt') aside = String(args[2]);
          // Just after the new file is linked in, what was taken aside disappears.
          if (call === 'link' && args[2] === 'doc.txt') fs.unlinkSync(path.join(base, aside));
          return result;
        });
        const committed = commitReplacing(watching, 'doc.txt', 'new.part', seen);
        assert.equal(committed.done, true);
        assert.equal(fs.readFileSync(file(), 'utf8'), 'the agent');
      } finally {
        folder.close();
      }
      fs.unlinkSync(path.join(base, 'new.part'));
      assert.deepEqual(listing(base).filter((name) => name.startsWith('.bi.')), []);
    });

    test('a filesystem that makes no hard links: a change refused puts the file taken aside back by rename, never deletes it', () => {
      fs.writeFileSync(file(), 'the only copy');
      const folder = anchor.folder([]);
      try {
        // The base is an older version: the file at the name was saved since.
        const stale = { kind: 'present', stats: { ...fs.lstatSync(file(), { bigint: true }), ino: 1n, isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false } } as never;
        fs.writeFileSync(path.join(base, 'new.part'), 'the agent');
        const noLinks = hooked(folder, (call, _args, run) => {
          if (call === 'link') throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
          return run();
        });
        const committed = commitReplacing(noLinks, 'doc.txt', 'new.part', stale);
        assert.equal(committed.done, false);
        assert.equal(fs.readFileSync(file(), 'utf8'), 'the only copy');
      } finally {
        folder.close();
      }
      fs.unlinkSync(path.join(base, 'new.part'));
      assert.deepEqual(listing(base).filter((name) => name.startsWith('.bi.')), []);
    });

    test('a writer killed with the old file taken aside: the next write of that file puts it back first, and refuses to replace it unseen', async () => {
      // A name this process never wrote: its first write is the one that sweeps.
      const killed = path.join(base, 'killed.txt');
      fs.writeFileSync(killed, 'the only copy');
      fs.renameSync(killed, path.join(base, temporaryNameFor('killed.txt', 'old').replace(/\.[0-9a-z]+-([0-9a-z]+-[0-9a-z]+)\./, '.zzzzz-$1.')));
      const result = await writeFile(anchor.checked(killed), 'the agent', { base: { kind: 'absent' } });
      assert.equal(result.kind, 'changed');
      assert.equal(fs.readFileSync(killed, 'utf8'), 'the only copy');
      assert.deepEqual(listing(base).filter((name) => name.startsWith('.bi.')), []);
    });
  });

  describe(`a call's folders (${mode}): walked to once, given back when the call ends`, () => {
    let base: string;
    let anchor: Anchor;
    before(() => {
      base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-held-')));
      fs.mkdirSync(path.join(base, 'a', 'b', 'c'), { recursive: true });
      anchor = Anchor.open(base, 'linux', mode);
    });
    after(() => {
      anchor.close();
      fs.rmSync(base, { recursive: true, force: true });
    });

    const openDescriptors = () => (process.platform === 'linux' ? fs.readdirSync('/proc/self/fd').length : 0);
    /** What this process holds open below `dir`, by the kernel's names. */
    const openBelow = (dir: string) => heldOpen().filter((name) => name.startsWith(dir + path.sep));

    test('a write (its sweep, its base, its commit) walks to its folder once, and leaves open only the folder kept for later calls', async () => {
      const folder = path.join(base, 'a', 'b', 'c');
      const file = path.join(folder, 'doc.txt');
      const write = async () => {
        const held = new HeldFolders();
        try {
          return await walksDuring(anchor, async () => {
            const target = anchor.checked(file, held);
            await settleTemporaries(target);
            assert.equal((await writeFile(target, 'the agent', { base: await baseOf(target) })).kind, 'written');
          });
        } finally {
          held.close();
        }
      };
      assert.equal(await write(), 1);
      const kept = mode === 'descriptor' ? [folder] : [];
      assert.deepEqual(openBelow(base), kept);
      assert.equal(anchor.keptFolders, kept.length);
      assert.equal(await write(), 1 - kept.length, 'a later call in the same folder walks again only without a descriptor to keep');
      // The file it replaced is watched a moment for a late save (keepLateSave), then closed.
      await eventually(() => assert.deepEqual(openBelow(base), kept), 'nothing open but the kept folder');
      assert.equal(fs.readFileSync(file, 'utf8'), 'the agent');
    });

    test('after the call ends, a use of its path opens its folder for that use alone', async () => {
      const held = new HeldFolders();
      const targets = ['late.txt', 'later.txt'].map((name) => anchor.checked(path.join(base, 'a', 'b', 'c', name), held));
      held.close();
      const descriptors = openDescriptors();
      const walks = await walksDuring(anchor, async () => {
        for (const target of targets) assert.equal((await writeFile(target, 'late')).kind, 'written');
      });
      assert.equal(walks, 2);
      assert.equal(openDescriptors(), descriptors);
    });
  });
}

describe('a folder several names deep, through a descriptor', { skip: process.platform !== 'linux' && 'descriptors as Linux names them' }, () => {
  let base: string;
  let anchor: Anchor;
  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-deep-')));
    fs.mkdirSync(path.join(base, 'ws', 'a', 'b', 'c', 'd', 'e'), { recursive: true });
    fs.mkdirSync(path.join(base, 'ws', 'x', 'c', 'd', 'e'), { recursive: true });
    fs.mkdirSync(path.join(base, 'outside', 'c', 'd', 'e'), { recursive: true });
    anchor = Anchor.open(path.join(base, 'ws'), 'linux', 'descriptor');
  });
  after(() => {
    anchor.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** What `run` opens, by the path it gave. */
  function opensDuring<T>(run: () => T): { result: T; opened: string[] } {
    const open = fs.openSync;
    const opened: string[] = [];
    fs.openSync = ((file: fs.PathLike, ...rest: unknown[]) => {
      opened.push(String(file));
      return (open as (...args: unknown[]) => number)(file, ...rest);
    }) as typeof fs.openSync;
    try {
      return { result: run(), opened };
    } finally {
      fs.openSync = open;
    }
  }

  test('is opened with one open, which the kernel names as the checked path', () => {
    const { result: folder, opened } = opensDuring(() => anchor.folder(['a', 'b', 'c', 'd', 'e']));
    try {
      assert.equal(opened.length, 1, opened.join(', '));
      assert.equal(folder.path, path.join(base, 'ws', 'a', 'b', 'c', 'd', 'e'));
      assert.equal(fs.readlinkSync(`/proc/self/fd/${(folder as unknown as { fd: number }).fd}`), folder.path);
    } finally {
      folder.close();
    }
  });

  test('what the lookup saw is described without looking again, once, and only for the path it looked up', () => {
    const file = path.join(base, 'ws', 'a', 'b', 'c', 'd', 'e', 'seen.txt');
    fs.writeFileSync(file, 'seen');
    const held = new HeldFolders();
    try {
      assert.equal(anchor.lookup(file, held), 'file');
      const target = anchor.checked(file, held);
      assert.equal(target.seen?.ino, fs.lstatSync(file, { bigint: true }).ino);
      const writable = fs as { lstatSync: typeof fs.lstatSync };
      const lstat = writable.lstatSync;
      let looks = 0;
      writable.lstatSync = ((...args: Parameters<typeof fs.lstatSync>) => {
        looks += 1;
        return lstat(...args);
      }) as typeof fs.lstatSync;
      let control = 0;
      try {
        assert.equal(describeEntry(target).stats.ino, target.seen!.ino);
        control = -looks;
        describeEntry(anchor.checked(file));
        control += looks;
      } finally {
        writable.lstatSync = lstat;
      }
      assert.equal(looks - control, 0, 'described from the look the check made');
      assert.equal(control, 1, 'control: a path checked without a lookup is looked at');
      assert.equal(anchor.checked(file, held).seen, undefined, 'taken once');
      assert.equal(anchor.lookup(file, held), 'file');
      assert.equal(anchor.checked(path.join(base, 'ws', 'a', 'b', 'c', 'd', 'e'), held).seen, undefined, 'another path is not given what this one was seen as');
    } finally {
      held.close();
    }
  });

  for (const [where, target] of [
    ['elsewhere inside', '../x'],
    ['outside', '../../outside'],
  ] as const) {
    test(`a link on its way, to a folder ${where}: the walk name by name decides, and refuses it as changed`, () => {
      fs.renameSync(path.join(base, 'ws', 'a', 'b'), path.join(base, 'ws', 'a', 'b-real'));
      fs.symlinkSync(target, path.join(base, 'ws', 'a', 'b'));
      try {
        const { opened } = opensDuring(() => assert.throws(() => anchor.folder(['a', 'b', 'c', 'd', 'e']), (error: NodeJS.ErrnoException) => error.code === 'ECHANGED' && /a link is there now/.test(error.message)));
        assert.ok(opened.length > 1, `walked after the one open: ${opened.join(', ')}`);
        assert.deepEqual(heldOpen().filter((held) => held.startsWith(path.join(base, 'outside'))), [], 'nothing outside is held open');
      } finally {
        fs.unlinkSync(path.join(base, 'ws', 'a', 'b'));
        fs.renameSync(path.join(base, 'ws', 'a', 'b-real'), path.join(base, 'ws', 'a', 'b'));
      }
    });
  }
});

describe('folders kept across calls, through a descriptor', { skip: process.platform !== 'linux' && 'descriptors as Linux names them' }, () => {
  let base: string;
  let ws: string;
  const FOLDERS = 40;
  before(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-kept-')));
    ws = path.join(base, 'ws');
    for (let i = 0; i < FOLDERS; i++) fs.mkdirSync(path.join(ws, 'deep', `d${i}`), { recursive: true });
    fs.mkdirSync(path.join(base, 'outside', `d0`), { recursive: true });
  });
  after(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** What this process holds open in the fixture, by the kernel's names. */
  const openHere = () => heldOpen().filter((name) => name === ws || name.startsWith(base + path.sep));
  /** One call: holds the folder of `names` while `use` runs, then gives it back. */
  function inCall<T>(anchor: Anchor, names: readonly string[], use: (folder: Folder) => T): T {
    const held = new HeldFolders();
    try {
      return use(held.folder(anchor, names)!);
    } finally {
      held.close();
    }
  }

  test('a bounded number are kept, and closing the anchor closes them all', () => {
    const anchor = Anchor.open(ws, 'linux', 'descriptor');
    for (let i = 0; i < FOLDERS; i++) inCall(anchor, ['deep', `d${i}`], (folder) => folder.stat());
    const kept = anchor.keptFolders;
    assert.ok(kept > 0 && kept < FOLDERS, `${kept} kept of ${FOLDERS}`);
    assert.equal(openHere().length, 1 + kept, 'the root and the kept folders, nothing else');
    anchor.close();
    assert.deepEqual(openHere(), []);
  });

  test('however many roots a server serves, a bounded number of folders is kept in all, the least recently used given up first', () => {
    const anchors = Array.from({ length: 8 }, () => Anchor.open(ws, 'linux', 'descriptor'));
    try {
      for (const anchor of anchors) for (let i = 0; i < FOLDERS; i++) inCall(anchor, ['deep', `d${i}`], (folder) => folder.stat());
      const perRoot = anchors.map((anchor) => anchor.keptFolders);
      const inAll = perRoot.reduce((sum, kept) => sum + kept, 0);
      assert.ok(Math.max(...perRoot) < FOLDERS, `per root: ${perRoot.join(', ')}`);
      assert.ok(inAll > 0 && inAll < (anchors.length * Math.max(...perRoot)), `in all: ${inAll} (per root: ${perRoot.join(', ')})`);
      assert.ok(perRoot.at(-1)! > 0, `the root used last keeps its folders too, in place of the least recently used: ${perRoot.join(', ')}`);
    } finally {
      for (const anchor of anchors) anchor.close();
    }
  });

  test('a folder lent again is kept longest: the one given up is the one lent longest ago', async () => {
    const anchor = Anchor.open(ws, 'linux', 'descriptor');
    const walks = (names: readonly string[]) => walksDuring(anchor, async () => void inCall(anchor, names, (folder) => folder.stat()));
    try {
      // Fill the root's share; the one past it pushes out d0.
      let share = 0;
      while (share < FOLDERS && (await walks(['deep', `d${share}`])) === 1 && anchor.keptFolders === share + 1) share += 1;
      assert.ok(share > 2 && share < FOLDERS - 1, `kept ${share} of ${FOLDERS}`);
      // d1, now the oldest, is lent again; the next new folder then pushes out d2 instead.
      assert.equal(await walks(['deep', 'd1']), 0, 'control: d1 is still kept');
      assert.equal(await walks(['deep', `d${share + 1}`]), 1);
      assert.equal(await walks(['deep', 'd1']), 0, 'the folder lent again was kept');
      assert.equal(await walks(['deep', 'd2']), 1, 'the folder lent longest ago was given up');
    } finally {
      anchor.close();
    }
  });

  test('a kept folder dropped while a call holds it stays open for that call, and is closed when the call gives it back', () => {
    const anchor = Anchor.open(ws, 'linux', 'descriptor');
    try {
      const held = new HeldFolders();
      const first = held.folder(anchor, ['deep', 'd0'])! as Folder & { fd: number };
      // Every later call in another folder pushes it out of the kept ones.
      for (let i = 1; i < FOLDERS; i++) inCall(anchor, ['deep', `d${i}`], (folder) => folder.stat());
      fs.writeFileSync(path.join(ws, 'deep', 'd0', 'still.txt'), 'x');
      assert.equal(fs.readlinkSync(`/proc/self/fd/${first.fd}`), path.join(ws, 'deep', 'd0'), 'its descriptor was not closed (nor its number reused) under the call');
      assert.equal(first.lstat('still.txt')?.isFile(), true);
      const whileHeld = openHere();
      held.close();
      assert.deepEqual(openHere(), whileHeld.filter((name) => name !== path.join(ws, 'deep', 'd0')), 'closed once given back');
      assert.equal(openHere().length, 1 + anchor.keptFolders, 'the root and the kept folders, nothing else');
    } finally {
      anchor.close();
    }
  });

  test('a kept folder is lent again only while its path leads to it: moved, replaced or linked, the next call walks from the root', async () => {
    const anchor = Anchor.open(ws, 'linux', 'descriptor');
    const folder = path.join(ws, 'deep', 'd0');
    /** One call that looks in the folder at `names`: how many walks it took, and what it threw. */
    const walks = async (names: readonly string[]) => {
      let error: NodeJS.ErrnoException | undefined;
      const count = await walksDuring(anchor, async () => {
        try {
          inCall(anchor, names, (held) => held.lstat('mark'));
        } catch (thrown) {
          error = thrown as NodeJS.ErrnoException;
        }
      });
      return { count, error };
    };
    try {
      assert.equal((await walks(['deep', 'd0'])).count, 1);
      assert.equal((await walks(['deep', 'd0'])).count, 0, 'control: the kept folder is lent while nothing changed');
      // Moved away, and another made at its path.
      fs.renameSync(folder, `${folder}-moved`);
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'mark'), 'new');
      assert.equal((await walks(['deep', 'd0'])).count, 1);
      assert.equal(inCall(anchor, ['deep', 'd0'], (held) => held.lstat('mark')?.size), 3n, 'the folder now at the path');
      // Deleted and made again.
      fs.rmSync(folder, { recursive: true });
      fs.mkdirSync(folder);
      assert.equal((await walks(['deep', 'd0'])).count, 1);
      assert.equal(inCall(anchor, ['deep', 'd0'], (held) => held.lstat('mark')), undefined);
      // Moved outside, with a link to it left at its path: the walk meets the link and refuses.
      fs.renameSync(folder, path.join(base, 'outside', 'kept'));
      fs.symlinkSync(path.join(base, 'outside', 'kept'), folder);
      const linked = await walks(['deep', 'd0']);
      assert.equal(linked.count, 1);
      assert.equal(linked.error?.code, 'ECHANGED', String(linked.error));
      fs.unlinkSync(folder);
      fs.renameSync(`${folder}-moved`, folder);
      assert.equal((await walks(['deep', 'd0'])).count, 1);
      // Its parent swapped for a link to an outside folder of the same name.
      fs.renameSync(path.join(ws, 'deep'), path.join(ws, 'deep-real'));
      fs.symlinkSync(path.join(base, 'outside'), path.join(ws, 'deep'));
      const through = await walks(['deep', 'd0']);
      assert.equal(through.error?.code, 'ECHANGED', String(through.error));
      fs.unlinkSync(path.join(ws, 'deep'));
      fs.renameSync(path.join(ws, 'deep-real'), path.join(ws, 'deep'));
    } finally {
      anchor.close();
    }
  });
});
