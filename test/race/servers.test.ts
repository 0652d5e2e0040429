// The short two-server race: two of our servers on one folder write a file last saved an hour ago
// at the same moment, round after round, with and without the sandbox. No round may lose the file
// or both writes, no answer may be false, and nothing may be left behind.
// `npm run race -- --races servers` is the long one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxAvailability } from '../../bench/race/harness.js';
import { runServersRace } from '../../bench/race/servers.js';

const SECONDS = 3;
const sandbox = sandboxAvailability();

for (const configuration of ['ours-off', 'ours-sandbox'] as const) {
  test(`two servers on one folder, ${configuration === 'ours-off' ? '--sandbox off' : 'sandbox on'}: no write lost, no false answer, nothing left behind`, async (t) => {
    if (configuration === 'ours-sandbox' && !sandbox.available) return t.skip(`skipped, no sandbox here: ${sandbox.reason}`);
    const row = await runServersRace({ configuration, seconds: SECONDS });
    assert.ok(row.rounds > 0 && row.oneDone + row.bothDone > 0, `nothing raced: ${JSON.stringify(row)}`);
    assert.equal(row.lost, 0, `${row.lost} of ${row.rounds} rounds lost the file or both writes`);
    assert.equal(row.falseAnswers, 0, `${row.falseAnswers} false answers (${JSON.stringify(row.refusals)})`);
    assert.deepEqual(row.leftovers, []);
  });
}
