/**
 * Records what the real programs decide on the table of test/deciders/cases.ts, into
 * test/deciders/recorded.json: Claude Code, Codex and Gemini CLI run headless against a stand-in
 * model service on loopback that calls one tool on the case's path, and the reference filesystem
 * server over stdio. Installs the agents at their pinned versions into .agents-cache/ first when
 * they are missing.
 *
 * Usage: npm run record-deciders -- [--only <program>]... [--case <name>]... [--jobs 1|2]
 *                                   [--scratch <dir>] [--keep] [--list]
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CASES } from '../test/deciders/cases.js';
import { DEFAULT_SCRATCH } from '../test/deciders/fixture.js';
import { installAgent, notInstalled, PINS, PROGRAMS, REPO_ROOT } from '../test/deciders/programs.js';
import { RECORDING_PATH, updateRecording, type Draft } from '../test/deciders/recording.js';
import { jobsOf, runCase } from '../test/deciders/run/index.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    case: { type: 'string', multiple: true },
    jobs: { type: 'string', default: '1' },
    scratch: { type: 'string', default: DEFAULT_SCRATCH },
    keep: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(`record-deciders: ${message}`);
  process.exit(2);
}

const programs = (values.only ?? [...PROGRAMS]).flatMap((item) => item.split(','));
for (const program of programs) if (!(PROGRAMS as readonly string[]).includes(program)) fail(`no program ${program} (${PROGRAMS.join(', ')})`);
const names = values.case?.flatMap((item) => item.split(','));
for (const name of names ?? []) if (!CASES.some((c) => c.name === name)) fail(`no case ${name} in test/deciders/cases.ts`);
// Two at most: the machine is shared.
const jobs = Math.min(2, Math.max(1, Number.parseInt(values.jobs, 10) || 1));

const selected = jobsOf(CASES.filter((c) => names === undefined || names.includes(c.name))).filter((job) => programs.includes(job.program));
if (values.list) {
  for (const job of selected) console.log(`${job.program}\t${job.c.name}\t${job.tool}`);
  process.exit(0);
}
if (selected.length === 0) fail('no case is run on the programs chosen');

const needed = [...new Set(selected.map((job) => job.program))];
for (const program of needed) {
  const why = notInstalled(program);
  if (why === undefined) continue;
  if (PINS[program].devDependency) fail(`${why}: run npm ci`);
  installAgent(program, console.log);
}

const today = new Date().toISOString().slice(0, 10);
const order = CASES.map((c) => c.name);
/** Changes the recording on disk, naming the programs recorded now at their pins. */
function update(change: (draft: Draft) => void): void {
  updateRecording(order, (draft) => {
    draft.platform = `${process.platform} ${process.arch}`;
    for (const program of needed) draft.programs[program] = { npmPackage: PINS[program].npmPackage, version: PINS[program].version, recordedOn: today };
    change(draft);
  });
}

// A whole program re-recorded keeps nothing of its last recording that the table no longer holds.
if (names === undefined)
  update(({ cases }) => {
    for (const [name, entry] of Object.entries(cases)) {
      for (const program of needed) delete entry[program];
      if (Object.keys(entry).length === 0) delete cases[name];
    }
  });

let done = 0;
const counts = new Map<string, number>();
const started = Date.now();
const queue = [...selected];
async function worker(): Promise<void> {
  for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
    const { observation, base } = await runCase(job.c, job.program, job.tool, { scratch: path.resolve(values.scratch), keep: values.keep });
    const { c, program, tool } = job;
    update(({ cases }) => void (((cases[c.name] ??= {})[program] ??= {})[tool] = observation));
    done += 1;
    counts.set(observation.decision, (counts.get(observation.decision) ?? 0) + 1);
    const where = observation.written !== undefined ? ` written: [${observation.written.join(', ')}]` : '';
    const message = observation.message.replace(/\s+/g, ' ').slice(0, 140);
    console.log(`[${done}/${selected.length}] ${job.program} ${job.c.name} ${job.tool}: ${observation.decision}${observation.failed ? ' (failed)' : ''}${where} | ${message}${values.keep ? ` | kept ${base}` : ''}`);
  }
}
void Promise.all(Array.from({ length: jobs }, () => worker())).then(() => {
  const summary = [...counts].map(([decision, count]) => `${count} ${decision}`).join(', ');
  console.log(`recorded ${done} runs in ${Math.round((Date.now() - started) / 1000)} s (${summary}) into ${path.relative(REPO_ROOT, RECORDING_PATH)}`);
});
