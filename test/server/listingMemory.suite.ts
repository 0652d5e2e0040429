// A listing's later pages are cut from the connection's last reading of the folder: never one
// older than a change to the folder, even a change in the same tick of its clock.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { Anchor, type AnchorMode, type Folder } from '../../src/server/fs/index.js';
import { ListingMemory, SETTLED_MS } from '../../src/server/listingMemory.js';

/** Longer than a coarse kernel clock's tick (10 ms at 100 Hz). */
const TICK_MS = 25;
const MODES: readonly AnchorMode[] = process.platform === 'linux' ? ['descriptor', 'path'] : ['path'];

/** A folder whose readings are counted. */
function counted(folder: Folder): { folder: Folder; readings: () => number } {
  let readings = 0;
  const list = folder.list.bind(folder);
  return {
    folder: Object.assign(Object.create(folder) as Folder, {
      list: () => {
        readings += 1;
        return list();
      },
    }),
    readings: () => readings,
  };
}

const names = (entries: readonly fs.Dirent[]) => entries.map((entry) => entry.name);

for (const mode of MODES) {
  describe(`the listing memory (${mode})`, () => {
    let base: string;
    let anchor: Anchor;
    let later: number;
    const clock = () => later;
    before(() => {
      base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-listings-')));
      fs.mkdirSync(path.join(base, 'ws', 'd'), { recursive: true });
      for (const name of ['b', 'a', 'c']) fs.writeFileSync(path.join(base, 'ws', 'd', name), name);
      anchor = Anchor.open(path.join(base, 'ws'), 'linux', mode);
    });
    after(() => {
      anchor.close();
      fs.rmSync(base, { recursive: true, force: true });
    });

    test('a folder changed within the last ticks is read again on every call', () => {
      // The clock stands at the folder's last change, however long ago the fixture was made.
      later = fs.statSync(path.join(base, 'ws', 'd')).ctimeMs;
      const { folder, readings } = counted(anchor.folder(['d']));
      const memory = new ListingMemory(2, 100, clock);
      assert.deepEqual(names(memory.entriesOf(folder)), ['a', 'b', 'c']);
      memory.entriesOf(folder);
      assert.equal(readings(), 2);
      folder.close();
    });

    test('a settled folder is read once; a change to it (an entry added, removed or renamed) is read again', async () => {
      later = Date.now() + SETTLED_MS + 1_000;
      const { folder, readings } = counted(anchor.folder(['d']));
      const memory = new ListingMemory(2, 100, clock);
      assert.deepEqual(names(memory.entriesOf(folder)), ['a', 'b', 'c']);
      assert.deepEqual(names(memory.entriesOf(folder)), ['a', 'b', 'c']);
      assert.equal(readings(), 1, 'the second page came from the kept reading');
      const changes: [string, () => void, string[]][] = [
        ['added', () => fs.writeFileSync(path.join(base, 'ws', 'd', 'd'), 'd'), ['a', 'b', 'c', 'd']],
        ['removed', () => fs.unlinkSync(path.join(base, 'ws', 'd', 'a')), ['b', 'c', 'd']],
        ['renamed', () => fs.renameSync(path.join(base, 'ws', 'd', 'b'), path.join(base, 'ws', 'd', 'e')), ['c', 'd', 'e']],
      ];
      for (const [what, change, want] of changes) {
        const before = readings();
        // The fake clock says the folder settled long ago; the real one must tick past the last change.
        await setTimeout(TICK_MS);
        change();
        assert.deepEqual(names(memory.entriesOf(folder)), want, what);
        assert.equal(readings(), before + 1, `${what}: read again`);
      }
      folder.close();
    });

    test('a folder swapped for another at the same path is read anew', () => {
      later = Date.now() + SETTLED_MS + 1_000;
      const memory = new ListingMemory(2, 100, clock);
      fs.mkdirSync(path.join(base, 'ws', 'swap'));
      fs.writeFileSync(path.join(base, 'ws', 'swap', 'old'), '');
      const first = anchor.folder(['swap']);
      assert.deepEqual(names(memory.entriesOf(first)), ['old']);
      first.close();
      fs.renameSync(path.join(base, 'ws', 'swap'), path.join(base, 'ws', 'swapped'));
      fs.mkdirSync(path.join(base, 'ws', 'swap'));
      fs.writeFileSync(path.join(base, 'ws', 'swap', 'new'), '');
      const second = anchor.folder(['swap']);
      assert.deepEqual(names(memory.entriesOf(second)), ['new']);
      second.close();
    });

    test('it keeps its last folders only, and no reading larger than its bound', () => {
      later = Date.now() + SETTLED_MS + 1_000;
      for (const name of ['x', 'y', 'z']) fs.mkdirSync(path.join(base, 'ws', name));
      const folders = ['x', 'y', 'z'].map((name) => counted(anchor.folder([name])));
      const memory = new ListingMemory(2, 3, clock);
      for (const { folder } of folders) memory.entriesOf(folder);
      for (const { folder } of folders) memory.entriesOf(folder);
      // x was forgotten when z came; reading x again pushed out y, and so on.
      assert.deepEqual(folders.map(({ readings }) => readings()), [2, 2, 2]);
      memory.entriesOf(folders[2]!.folder);
      assert.equal(folders[2]!.readings(), 2, 'the last one read is kept');
      for (const { folder } of folders) folder.close();

      const big = counted(anchor.folder(['d']));
      const small = new ListingMemory(2, 2, clock);
      small.entriesOf(big.folder);
      small.entriesOf(big.folder);
      assert.equal(big.readings(), 2, 'three entries are over a bound of two: not kept');
      big.folder.close();
    });
  });
}
