// The recording of what the real programs decided (recorded.json, written by
// `npm run record-deciders`) is whole for the table and well-formed; where a program is installed
// as pinned, a handful of cases run live again and decide as recorded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CASES, CHANGE_TOOLS } from './cases.js';
import { DEFAULT_SCRATCH } from './fixture.js';
import { notInstalled, PINS, PROGRAMS, type Program } from './programs.js';
import { readRecording, type Observation, type Recording } from './recording.js';
import { jobsOf, runCase } from './run/index.js';

const recording = readRecording();
const DECISIONS = ['allow', 'ask', 'deny'];

describe('the recording of the real programs', () => {
  test('exists', () => assert.ok(recording, 'test/deciders/recorded.json is missing: run npm run record-deciders'));
  if (!recording) return;
  const recorded: Recording = recording;

  test('names each program at its pinned version, with the day it was recorded', () => {
    for (const program of PROGRAMS) {
      const entry = recorded.programs[program];
      assert.ok(entry, `${program} was never recorded`);
      assert.deepEqual({ npmPackage: entry.npmPackage, version: entry.version }, { npmPackage: PINS[program].npmPackage, version: PINS[program].version }, `${program}: recorded against another version than the pinned one`);
      assert.match(entry.recordedOn, /^\d{4}-\d{2}-\d{2}$/);
    }
  });

  test('holds every case of the table for every program and tool it names, and nothing else', () => {
    const jobs = jobsOf(CASES);
    const missing = jobs.filter(({ c, program, tool }) => recorded.cases[c.name]?.[program]?.[tool] === undefined).map(({ c, program, tool }) => `${program} ${c.name} ${tool}`);
    assert.deepEqual(missing, [], 'not recorded (npm run record-deciders -- --case <name>)');
    const expected = new Set(jobs.map(({ c, program, tool }) => `${program} ${c.name} ${tool}`));
    const stale = Object.entries(recorded.cases).flatMap(([name, programs]) =>
      Object.entries(programs).flatMap(([program, tools]) => Object.keys(tools ?? {}).map((tool) => `${program} ${name} ${tool}`)),
    );
    assert.deepEqual(stale.filter((key) => !expected.has(key)), [], 'recorded, but no longer in the table');
  });

  test('the case names are unique', () => {
    const names = CASES.map((c) => c.name);
    assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), []);
  });

  test('every run reached a decision, and a refused change changed nothing on disk', () => {
    for (const { c, program, tool } of jobsOf(CASES)) {
      const seen = recorded.cases[c.name]?.[program]?.[tool];
      if (seen === undefined) continue;
      const what = `${program} ${c.name} ${tool}: ${seen.message.slice(0, 200)}`;
      assert.ok(DECISIONS.includes(seen.decision), `${what}: no decision (${seen.decision})`);
      assert.equal(typeof seen.message, 'string', what);
      if (!CHANGE_TOOLS.has(tool)) {
        assert.equal(seen.written, undefined, `${what}: a read has nothing written`);
        continue;
      }
      assert.ok(Array.isArray(seen.written), `${what}: a change records where it landed`);
      if (seen.decision !== 'allow' || seen.failed) assert.deepEqual(seen.written, [], `${what}: ${seen.decision} but written`);
      else assert.notDeepEqual(seen.written, [], `${what}: allowed, but written nowhere`);
    }
  });
});

/** Cases re-run live, per program: the surprising decisions first. */
const LIVE: Readonly<Record<Program, readonly string[]>> = {
  'server-filesystem': ['sibling-prefix-read', 'link-out-dir-change', 'reference-allowed-link-by-target', 'nfd-change', 'reference-nfc-ambiguous', 'reference-dangling-link-in-write'],
  'claude-code': ['claude-deny-read-case', 'claude-deny-read-dot-env-nested', 'claude-additional-dirs-user-read', 'claude-additional-dirs-project-read', 'link-out-file-read'],
  codex: ['codex-tmp-writable', 'codex-tmp-excluded', 'outside-change', 'codex-protected-git'],
  'gemini-cli': ['dotenv-read', 'git-head-read', 'sibling-prefix-read', 'gemini-include-dirs-user'],
};

/** What a live run must repeat: the decision, a failure after it, where a change landed, the message. */
const comparable = (seen: Observation) => ({ decision: seen.decision, failed: seen.failed, written: seen.written, message: seen.message });

describe('the real programs decide as recorded', () => {
  test('every case to re-run is in the table', () => {
    for (const [program, names] of Object.entries(LIVE)) for (const name of names) assert.ok(CASES.some((c) => c.name === name && program in c.tools), `${program} ${name}`);
  });
  for (const program of PROGRAMS) {
    const skip = notInstalled(program) ?? (recording ? undefined : 'nothing recorded');
    for (const job of jobsOf(CASES.filter((c) => LIVE[program].includes(c.name))).filter((job) => job.program === program)) {
      test(`${program} ${job.c.name} ${job.tool}`, skip !== undefined ? { skip } : {}, async () => {
        const { observation } = await runCase(job.c, program, job.tool, { scratch: DEFAULT_SCRATCH });
        const recorded = recording?.cases[job.c.name]?.[program]?.[job.tool];
        assert.ok(recorded, 'not recorded');
        assert.deepEqual(comparable(observation), comparable(recorded));
      });
    }
  }
});
