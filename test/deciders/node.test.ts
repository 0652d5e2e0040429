// The deciders' model of Node's `path` and `fs.realpath` (src/deciders/shared/node.ts) against
// Node's own: path.posix and path.win32 on a table of awkward spellings, and fs.realpathSync on a
// real tree with links, a dangling link, a file in the middle and a loop.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { expandHome, nodePath, nodeRealpath } from '../../src/deciders/shared/node.js';
import { nodeDeciderFileSystem } from '../../src/host/node.js';

const POSIX_INPUTS = [
  '', '.', '..', '/', '//', 'a', 'a/', './a', 'a/./b', 'a/../b', '../a', 'a/../..', '/a/../..', '/a//b', '/a/b/', '/a/b/..', '/a/b/../', '...', 'a/.../b', '.a/..b',
  '~/x', 'C:\\Users\\x', 'a\\b', '/a/./../b/.', '///a',
];
const WIN32_INPUTS = [
  '', '.', '..', '\\', '/', 'a', 'a\\', 'C:', 'C:\\', 'c:/', 'C:a', 'C:a\\..\\..', 'C:\\a\\..\\..', 'C:/a//b/', 'c:\\A\\.\\b', '\\\\srv\\share', '\\\\srv\\share\\', '\\\\srv\\share\\x\\..\\..',
  '//srv/share/x', '\\\\srv', '\\a\\b', 'a/b\\c', '..\\..\\a', 'D:\\x\\y',
];
const CWD = { posix: '/work/cwd', win32: 'C:\\work\\cwd' } as const;

describe("Node's path, modelled", () => {
  for (const [platform, node, inputs] of [['linux', path.posix, POSIX_INPUTS], ['win32', path.win32, WIN32_INPUTS]] as const) {
    const ours = nodePath(platform);
    const cwd = platform === 'win32' ? CWD.win32 : CWD.posix;
    test(`${platform}: normalize, isAbsolute`, () => {
      for (const input of inputs) {
        assert.equal(ours.normalize(input), node.normalize(input), `normalize ${JSON.stringify(input)}`);
        assert.equal(ours.isAbsolute(input), node.isAbsolute(input), `isAbsolute ${JSON.stringify(input)}`);
      }
    });
    test(`${platform}: resolve from a working folder`, () => {
      for (const input of inputs) {
        assert.equal(ours.resolve(cwd, input), node.resolve(cwd, input), `resolve ${JSON.stringify(input)}`);
        assert.equal(ours.resolve(cwd, inputs[5]!, input), node.resolve(cwd, inputs[5]!, input), `resolve a, ${JSON.stringify(input)}`);
      }
    });
    test(`${platform}: join, and dirname of a resolved path`, () => {
      for (const input of inputs) {
        // The home-folder expansion's join: a folder and the rest.
        assert.equal(ours.join(cwd, input), node.join(cwd, input), `join ${JSON.stringify(input)}`);
        assert.equal(ours.join(input, 'x'), node.join(input, 'x'), `join ${JSON.stringify(input)}, x`);
        const resolved = node.resolve(cwd, input);
        assert.equal(ours.dirname(resolved), node.dirname(resolved), `dirname ${JSON.stringify(resolved)}`);
      }
    });
    test(`${platform}: basename and extname`, () => {
      for (const input of [...inputs, 'a.b', '.a', 'a.', '..a', 'a.b.c', '/x/.env.', 'C:a.txt', 'rules.BZL']) {
        assert.equal(ours.basename(input), node.basename(input), `basename ${JSON.stringify(input)}`);
        assert.equal(ours.extname(input), node.extname(input), `extname ${JSON.stringify(input)}`);
      }
    });
    test(`${platform}: on random paths of separators, dots and drives`, () => {
      const separators = platform === 'win32' ? ['\\', '/'] : ['/'];
      const part = fc.constantFrom('a', 'B', '.', '..', '.x', 'x.', 'a.b', '..c', '');
      const tail = fc.array(part, { minLength: 1, maxLength: 5 }).chain((parts) => fc.constantFrom(...separators).map((sep) => parts.join(sep)));
      const head = platform === 'win32' ? fc.constantFrom('', 'C:\\', 'c:/', '\\', 'D:\\', '\\\\h\\s\\') : fc.constantFrom('', '/', '//');
      // Windows device paths (\\.\ and \\?\) are Node's own case, which no modelled program meets.
      const device = /^[\\/]{2}[.?]([\\/]|$)/;
      fc.assert(
        fc.property(head, tail, (a, b) => {
          const input = a + b;
          if (device.test(input)) return;
          const resolved = node.resolve(cwd, input);
          assert.equal(ours.normalize(input), node.normalize(input), `normalize ${JSON.stringify(input)}`);
          assert.equal(ours.resolve(cwd, input), resolved, `resolve ${JSON.stringify(input)}`);
          assert.equal(ours.join(cwd, input), node.join(cwd, input), `join ${JSON.stringify(input)}`);
          assert.equal(ours.dirname(resolved), node.dirname(resolved), `dirname ${JSON.stringify(resolved)}`);
          assert.equal(ours.basename(input), node.basename(input), `basename ${JSON.stringify(input)}`);
          assert.equal(ours.extname(input), node.extname(input), `extname ${JSON.stringify(input)}`);
          assert.equal(ours.relative(cwd, cwd, resolved), node.relative(cwd, resolved), `relative ${JSON.stringify(resolved)}`);
        }),
        { numRuns: 1500 },
      );
    });
    test(`${platform}: relative between resolved paths`, () => {
      for (const from of inputs.slice(0, 12)) {
        for (const to of inputs) {
          const a = node.resolve(cwd, from);
          const b = node.resolve(cwd, to);
          assert.equal(ours.relative(cwd, a, b), node.relative(a, b), `relative ${a} -> ${b}`);
        }
      }
    });
  }

  test("win32: a path relative to another drive resolves from that drive's root", () => {
    // Node asks the process's folder, which on Windows is on a drive (here C:), never on D:.
    assert.equal(nodePath('win32').resolve(CWD.win32, 'd:x'), 'd:\\x');
    assert.equal(nodePath('win32').resolve(CWD.win32, 'c:x'), path.win32.resolve(CWD.win32, 'c:x'));
  });

  test('~ and ~/ expand to the home folder; ~user and ~x do not', () => {
    assert.equal(expandHome('~', '/h', 'linux'), '/h');
    assert.equal(expandHome('~/a/../b', '/h', 'linux'), '/h/b');
    assert.equal(expandHome('~/x', 'C:\\Users\\me', 'win32'), 'C:\\Users\\me\\x');
    assert.equal(expandHome('~root/x', '/h', 'linux'), '~root/x');
    assert.equal(expandHome('~\\x', 'C:\\Users\\me', 'win32'), '~\\x');
  });
});

describe("Node's fs.realpath, through the port", { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-node-realpath-')));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'ws/sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'ws/a.txt'), 'a');
  fs.symlinkSync('sub', path.join(dir, 'ws/inner'));
  fs.symlinkSync('../ws/inner/../a.txt', path.join(dir, 'ws/twisty'));
  fs.symlinkSync('nothing', path.join(dir, 'ws/dangling'));
  fs.symlinkSync('loop-b', path.join(dir, 'ws/loop-a'));
  fs.symlinkSync('loop-a', path.join(dir, 'ws/loop-b'));
  fs.symlinkSync(dir, path.join(dir, 'ws/up'));

  // Each: the path asked, relative to the tree.
  const ROWS = [
    'ws', // a folder
    'ws/a.txt', // a file
    'ws/inner', // a link inside
    'ws/inner/../a.txt', // `..` after a link, as the kernel takes it
    'ws/twisty', // a link whose text climbs through another link
    'ws/up/ws/up/ws/a.txt', // an absolute link, twice
    'ws/missing', // nothing there
    'ws/missing/deeper', // nothing there, deeper
    'ws/dangling', // a link to nothing
    'ws/a.txt/x', // a name below a file
    'ws/loop-a', // a loop
  ];
  for (const row of ROWS) {
    test(row, () => {
      const asked = path.join(dir, row);
      let expected: { ok: true; path: string } | { ok: false; error: string };
      try {
        expected = { ok: true, path: fs.realpathSync.native(asked) };
      } catch (error) {
        expected = { ok: false, error: (error as NodeJS.ErrnoException).code! };
      }
      assert.deepEqual(nodeRealpath(nodeDeciderFileSystem, asked, 'linux'), expected);
    });
  }
});
