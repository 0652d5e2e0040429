// `npm run fuzz`: the oracle property at length. Prints the number of cases, the seed and the
// over-refusal counts; exits 1 with the shrunk input on a counterexample.
//   npm run fuzz -- --runs 500000 --seed 42     (or FUZZ_RUNS / FUZZ_SEED in the environment)
import { parseArgs } from 'node:util';
import { buildFixture } from './fixture.js';
import { describeCounterexample, describeFailures, runFuzz } from './property.js';

const DEFAULT_RUNS = 100_000;

function whole(flag: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    console.error(`${flag} must be a whole number; got ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

const { values } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' } } });
const numRuns = whole('--runs', values.runs ?? process.env['FUZZ_RUNS']) ?? DEFAULT_RUNS;
const seed = whole('--seed', values.seed ?? process.env['FUZZ_SEED']);

const fixture = buildFixture();
try {
  const run = runFuzz(fixture, { numRuns, seed });
  console.log(`seed: ${run.seed}`);
  console.log(run.stats.report());
  console.log(`time: ${(run.milliseconds / 1000).toFixed(1)} s`);
  if (run.counterexample) {
    console.log('cases that break the property, by platform and oracle answer:');
    console.log(describeFailures(run));
    console.log(describeCounterexample(run));
    process.exitCode = 1;
  } else console.log(`no counterexample in ${run.stats.cases} cases`);
} finally {
  fixture.remove();
}
