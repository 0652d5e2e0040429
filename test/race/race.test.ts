// The short race: every tool of our server, with and without the sandbox, for about a second
// each against a folder swapped with a link to outside (bench/race). Nothing outside the
// workspace may be read, listed, described, created, changed, moved or deleted, and no temporary
// file may be left behind. `npm run race` is the long version, with the reference server beside it.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { abortRaces, COUNT_NAMES, runRace, sandboxAvailability } from '../../bench/race/harness.js';
import { PLANS } from '../../bench/race/plans.js';
import { prepareSwapHelper } from '../../bench/race/swapper.js';

const SECONDS = 1;
const swapHelper = prepareSwapHelper();
const sandbox = sandboxAvailability();
const ourTools = PLANS.filter((plan) => plan.targets.includes('ours')).map((plan) => plan.name);

// An interrupted or failed run still kills its server and swap helper and removes its fixture.
after(abortRaces);

for (const configuration of ['ours-off', 'ours-sandbox'] as const) {
  describe(`race against a swapped folder, ${configuration === 'ours-off' ? '--sandbox off' : 'sandbox on'}`, () => {
    for (const tool of ourTools) {
      test(tool, async (t) => {
        if (!swapHelper.ok) return t.skip(`skipped: ${swapHelper.reason}`);
        if (configuration === 'ours-sandbox' && !sandbox.available) return t.skip(`skipped, no sandbox here: ${sandbox.reason}`);
        const report = await runRace({ tools: [tool], configurations: [configuration], seconds: SECONDS });
        const row = report.rows[0];
        assert.ok(row, 'the harness ran nothing');
        if (row.status === 'unavailable') return t.skip(`skipped: ${row.reason}`);
        assert.equal(row.status, 'ran', `the race could not run: ${row.reason}`);
        assert.ok(row.calls > 0 && row.swaps > 0, `nothing raced: ${row.calls} calls, ${row.swaps} swaps`);
        const broken = COUNT_NAMES.filter((name) => row.counts![name] > 0).map((name) => `${name} ${row.counts![name]}`);
        const evidence = [
          ...Object.entries(row.examples ?? {}).map(([kind, answer]) => `\n  first ${kind} answer: ${answer}`),
          ...Object.entries(row.paths ?? {}).map(([kind, paths]) => `\n  ${kind}: ${paths.join(', ')}`),
        ].join('');
        assert.deepEqual(broken, [], `${tool} (${configuration}, ${row.calls} calls, ${row.swaps} swaps) reached outside the workspace: ${broken.join(', ')}${evidence}`);
      });
    }
  });
}
