// The server suites, every test/server/*.suite.ts, run in this one: each test file is a process
// of its own, and loading the SDKs and the server from src costs one a second or two. Each suite
// is still a file of its own; run one alone with
//   node --import tsx --test test/server/<name>.suite.ts
// Each is required inside its own describe, so its top-level hooks stay its own, and its tests
// run one at a time, as it was written. A suite is found by its name: one added is run here.
import { describe } from 'node:test';
import fs from 'node:fs';

/** Suites that spawn the server and only wait on their own folders and servers: side by side. */
const SIDE_BY_SIDE = ['cancelChange', 'changedSinceRead', 'endOfInput', 'outside'];
/**
 * Suites that time the server or a writer, each alone, last: progress notifications and a
 * cancellation heard within a turn; a writer killed at a moment that, under load, falls more often
 * in its commit.
 */
const ALONE = ['progress', 'anchored'];

const found = fs.readdirSync(__dirname).flatMap((file) => (file.endsWith('.suite.ts') ? [file.slice(0, -'.suite.ts'.length)] : []));
const missing = [...SIDE_BY_SIDE, ...ALONE].filter((name) => !found.includes(name));
if (missing.length > 0) throw new Error(`no test/server/<name>.suite.ts for ${missing.join(', ')}`);
/** Every other suite serves the server from src in this process, or judges a part of it: one after another, on its one thread. */
const inProcess = found.filter((name) => !SIDE_BY_SIDE.includes(name) && !ALONE.includes(name));

const suite = (name: string) => describe(`${name}.suite.ts`, { concurrency: false }, () => require(`./${name}.suite.js`));

for (const name of inProcess) suite(name);
describe('suites that spawn the server, side by side', { concurrency: true }, () => {
  for (const name of SIDE_BY_SIDE) suite(name);
});
for (const name of ALONE) suite(name);
