// The short lost-save race: an editor saves the file every 1.5 ms (by rename, then in place)
// while our server edits it or moves it away, with and without the sandbox. No save may be lost,
// and nothing may be left behind. Slower than the long race's 0.45 ms so that, sandbox on too,
// a read and the edit after it often meet no save between them and the edit reaches its commit.
// `npm run race -- --races saves` is the long one, with the reference server beside.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sandboxAvailability } from '../../bench/race/harness.js';
import { runSaveRace, SAVE_MODES, SAVE_TOOLS } from '../../bench/race/saves.js';
import { compileHelper } from '../../bench/race/swapper.js';

const SECONDS = 2;
const INTERVAL_MICROS = 1500;
const helper = process.platform === 'linux' ? compileHelper('save') : { ok: false as const, reason: 'the editor helper is built for Linux' };
const sandbox = sandboxAvailability();

for (const configuration of ['ours-off', 'ours-sandbox'] as const) {
  describe(`an editor saving beside the agent, ${configuration === 'ours-off' ? '--sandbox off' : 'sandbox on'}`, () => {
    for (const tool of SAVE_TOOLS) {
      for (const mode of SAVE_MODES) {
        test(`${tool}, the editor saving by ${mode}: no save lost, nothing left behind`, async (t) => {
          if (!helper.ok) return t.skip(`skipped: ${helper.reason}`);
          if (configuration === 'ours-sandbox' && !sandbox.available) return t.skip(`skipped, no sandbox here: ${sandbox.reason}`);
          const row = await runSaveRace({ tool, mode, configuration, seconds: SECONDS, intervalMicros: INTERVAL_MICROS });
          assert.ok(row.saves > 100 && row.applied > 0, `nothing raced: ${row.saves} saves, ${row.applied} changes made (${JSON.stringify(row.refusals)})`);
          assert.equal(row.lost, 0, `${row.lost} of ${row.saves} saves lost while ${row.applied} changes were made`);
          assert.deepEqual(row.leftovers, []);
        });
      }
    }
  });
}
