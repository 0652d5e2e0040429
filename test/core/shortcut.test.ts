// The realpath stage's shortcut (one lstat and one realpath for a path with no link on it) must
// give exactly the trace the name-by-name walk gives: every field, every stage row. Generated
// requests against the fuzz fixture's tree of links, loops, twins and dangling names, traced once
// with the host's port and once with the same port lacking `realpath`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { prepareRoot, traceAgainst, type FileSystemPort, type PreparedRoot } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { buildFixture, type Fixture } from '../fuzz/fixture.js';
import { linuxCase } from '../fuzz/generators.js';

const walkOnly: FileSystemPort = { lstat: nodeFileSystem.lstat, readlink: nodeFileSystem.readlink };
/** Counts the lookups the shortcut answered: its realpath gave back the path it was asked about. */
let answered = 0;
const withShortcut: FileSystemPort = {
  ...walkOnly,
  realpath(path) {
    const real = nodeFileSystem.realpath!(path);
    if (real === path) answered += 1;
    return real;
  },
};

let fixture: Fixture;
before(() => {
  fixture = buildFixture();
});
after(() => fixture?.remove());

test('the port offers the shortcut on this host', () => {
  assert.equal(typeof nodeFileSystem.realpath, 'function');
});

test('traces with and without the realpath shortcut are identical', () => {
  const prepared = new Map<string, [PreparedRoot, PreparedRoot]>();
  answered = 0;
  fc.assert(
    fc.property(linuxCase(fixture), ({ root, input, policy, followFinal }) => {
      const key = JSON.stringify([root, policy]);
      let roots = prepared.get(key);
      if (!roots) {
        roots = [prepareRoot(root, { platform: 'linux', policy, fs: withShortcut }), prepareRoot(root, { platform: 'linux', policy, fs: walkOnly })];
        prepared.set(key, roots);
      }
      const quick = traceAgainst(roots[0], input, { followFinal });
      const walked = traceAgainst(roots[1], input, { followFinal });
      assert.deepEqual(quick, walked);
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 2_000), seed: Number(process.env.FUZZ_SEED ?? 20_261_201) },
  );
  // The generator must reach paths the shortcut answers, or this test shows nothing.
  assert.ok(answered > 100, `the shortcut answered only ${answered} lookups`);
});

test('a path with a link on it, at its end, or missing below a link, is walked name by name', () => {
  const root = prepareRoot(`${fixture.base}/ws`, { platform: 'linux', fs: withShortcut });
  const walkedRoot = prepareRoot(`${fixture.base}/ws`, { platform: 'linux', fs: walkOnly });
  for (const input of ['inner/file.txt', 'inner', 'inner/new/deeper.txt', 'escape/x', 'dangling-in', 'l1', 'sub/file.txt/below', 'sub/new.txt', 'notes.md']) {
    for (const followFinal of [true, false]) {
      assert.deepEqual(traceAgainst(root, input, { followFinal }), traceAgainst(walkedRoot, input, { followFinal }), `${input} followFinal=${followFinal}`);
    }
  }
});
