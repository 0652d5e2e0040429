// The deciders' Node path functions give what Node's own path.posix and path.win32 give, on a
// table of the forms the modelled programs meet and on random paths made of the parts that
// matter (separators, `.`, `..`, drive letters, names with dots).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { nodePath } from '../../src/deciders/nodePath.js';

const POSIX: readonly string[] = ['/', '/a/b', '/a/b/', '/a//b', '/a/./b', '/a/../b', '/../a', 'a/b', './a', '../a', '..', '.', '', 'a/..', '/a/b/..', '/a/.b', '/a/b.c.d', '/a/..b', '/a/b..'];
const WIN32: readonly string[] = ['C:\\', 'C:\\a\\b', 'c:\\A\\b\\', 'C:/a/b', 'C:\\a\\..\\b', 'C:\\..\\a', '\\a\\b', 'a\\b', '..\\a', '\\\\host\\share\\a', '\\\\host\\share', '//host/share/a/../b', 'D:\\x', 'C:\\a\\.b', 'C:\\a\\b.c'];

function compare(platform: 'linux' | 'win32', samples: readonly string[]): void {
  const ours = nodePath(platform);
  const theirs = platform === 'win32' ? path.win32 : path.posix;
  const base = platform === 'win32' ? 'C:\\base\\dir' : '/base/dir';
  for (const p of samples) {
    assert.equal(ours.isAbsolute(p), theirs.isAbsolute(p), `isAbsolute(${p})`);
    assert.equal(ours.normalize(p), theirs.normalize(p), `normalize(${p})`);
    assert.equal(ours.resolve(base, p), theirs.resolve(base, p), `resolve(${base}, ${p})`);
    assert.equal(ours.dirname(p), theirs.dirname(p), `dirname(${p})`);
    assert.equal(ours.basename(p), theirs.basename(p), `basename(${p})`);
    assert.equal(ours.extname(p), theirs.extname(p), `extname(${p})`);
    assert.equal(ours.join(base, p), theirs.join(base, p), `join(${base}, ${p})`);
    for (const q of samples) {
      const [a, b] = [theirs.resolve(base, p), theirs.resolve(base, q)];
      assert.equal(ours.relative(a, b), theirs.relative(a, b), `relative(${a}, ${b})`);
    }
  }
}

describe("the deciders' Node path functions against Node's", () => {
  test('posix, on the table', () => compare('linux', POSIX));
  test('win32, on the table', () => compare('win32', WIN32));

  for (const platform of ['linux', 'win32'] as const) {
    test(`${platform}, on random paths`, () => {
      const separators = platform === 'win32' ? ['\\', '/'] : ['/'];
      const part = fc.constantFrom('a', 'B', '.', '..', '.x', 'x.', 'a.b', '..c', '');
      const relative = fc.array(part, { minLength: 1, maxLength: 5 }).chain((parts) => fc.constantFrom(...separators).map((sep) => parts.join(sep)));
      const prefix = platform === 'win32' ? fc.constantFrom('', 'C:\\', 'c:/', '\\', 'D:\\', '\\\\h\\s\\') : fc.constantFrom('', '/', '//');
      // Windows device paths (\\.\ and \\?\) are Node's own case, which no modelled program meets.
      const device = /^[\\/]{2}[.?]([\\/]|$)/;
      fc.assert(fc.property(prefix, relative, (head, tail) => device.test(head + tail) || compare(platform, [head + tail])), { numRuns: 1500 });
    });
  }
});
