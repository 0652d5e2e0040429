// The server resolves a path it will act on with one walk: the realpath stage asks the anchor
// first, which opens the path's folder for the call through the workspace's descriptor and looks
// the last name up there (Anchor.lookup). That must never change a verdict: for every request
// the Linux fuzzing makes against its tree of links (inside, outside, dangling, loops, chains),
// the trace with the anchor's lookup is the trace without it, stage for stage, with folders kept
// across requests as the server keeps them; and whatever the lookup opened is given back with the
// call, only the anchor's kept folders staying open.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { prepareRoot, traceAgainst, type PreparedRoot } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { Anchor, HeldFolders } from '../../src/server/fs/index.js';
import { buildFixture, type Fixture } from './fixture.js';
import { linuxCase, type Case } from './generators.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 2_000);

describe('the anchor\'s lookup (one walk) judges exactly as the realpath stage alone', { skip: process.platform !== 'linux' && 'descriptors as Linux names them' }, () => {
  let fixture: Fixture;
  const prepared = new Map<string, { root: PreparedRoot; anchor: Anchor | undefined }>();
  before(() => {
    fixture = buildFixture();
  });
  after(() => {
    for (const { anchor } of prepared.values()) anchor?.close();
    fixture?.remove();
  });

  const rootFor = (c: Case) => {
    const key = `${c.root}\0${JSON.stringify(c.policy)}`;
    let entry = prepared.get(key);
    if (entry === undefined) {
      const root = prepareRoot(c.root, { platform: 'linux', policy: c.policy, fs: nodeFileSystem });
      entry = { root, anchor: root.ok && root.realPath !== null ? Anchor.open(root.realPath, 'linux', 'descriptor') : undefined };
      prepared.set(key, entry);
    }
    return entry;
  };
  const descriptors = () => fs.readdirSync('/proc/self/fd').length;

  test(`${RUNS} generated requests: the same trace, and nothing left open but the kept folders`, () => {
    let looked = 0;
    fc.assert(
      fc.property(linuxCase(fixture), (c) => {
        const { root, anchor } = rootFor(c);
        const without = traceAgainst(root, c.input, { followFinal: c.followFinal });
        if (anchor === undefined) return;
        const open = descriptors();
        const kept = anchor.keptFolders;
        const held = new HeldFolders();
        const lookup = (path: string) => {
          looked += 1;
          return anchor.lookup(path, held);
        };
        const withLookup = traceAgainst(root, c.input, { followFinal: c.followFinal, lookup });
        held.close();
        assert.deepEqual(withLookup, without, `${c.input} against ${c.root} (followFinal ${c.followFinal})`);
        assert.equal(descriptors() - open, anchor.keptFolders - kept, 'the call\'s folders are given back: nothing stays open but the folders kept for later calls');
      }),
      { numRuns: RUNS, ...(process.env['FUZZ_SEED'] ? { seed: Number(process.env['FUZZ_SEED']) } : {}) },
    );
    assert.ok(looked > RUNS / 10, `the lookup was asked ${looked} times`);
  });

  test('a request in a folder an earlier request left kept judges as the stage alone', () => {
    const c = { platform: 'linux', root: `${fixture.base}/ws`, input: 'sub/deeper/x.txt', policy: {}, followFinal: true } as const;
    const { root, anchor } = rootFor(c);
    assert.ok(anchor);
    const without = traceAgainst(root, c.input, { followFinal: c.followFinal });
    for (const request of ['walked to', 'kept']) {
      const held = new HeldFolders();
      try {
        assert.deepEqual(traceAgainst(root, c.input, { followFinal: c.followFinal, lookup: (path) => anchor.lookup(path, held) }), without, request);
      } finally {
        held.close();
      }
      assert.ok(anchor.keptFolders > 0, `${request}: its folder is kept for the next request`);
    }
  });

  test('the lookup answers only where it proves no link: a link on the way, or at the last name of a followed path, is left to the stage', () => {
    const { anchor } = rootFor({ platform: 'linux', root: `${fixture.base}/ws`, input: '', policy: {}, followFinal: true });
    assert.ok(anchor);
    const held = new HeldFolders();
    try {
      const at = (relative: string) => anchor.lookup(`${fixture.base}/ws/${relative}`, held);
      assert.equal(at('sub/deeper/x.txt'), 'file');
      assert.equal(at('sub/deeper/new.txt'), 'missing');
      assert.equal(at('sub/deeper'), 'directory');
      assert.equal(at('escape'), 'symlink', 'a link at the last name is what is there; the stage follows it itself');
      for (const through of ['inner/file.txt', 'escape/secret.txt', 'hop1/secret.txt', 'l1/x', 'dangling-in/x', 'missing/deeper/x', 'notes.md/x']) {
        assert.equal(at(through), undefined, through);
      }
      assert.equal(anchor.lookup(`${fixture.base}/outside/secret.txt`, held), undefined, 'a path not below the root is never looked up');
    } finally {
      held.close();
    }
  });
});
