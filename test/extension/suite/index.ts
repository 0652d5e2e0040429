/**
 * The suite's entry point, as @vscode/test-electron and the offline harness expect: the extension
 * host loads this file and awaits `run()`; it rejects when a test fails.
 *
 * Each test's outcome is also written to `<control>/suite-results.json` when the harness gave a
 * control folder, so the harness can report every test as its own node:test test.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type MochaType from 'mocha';
import { controlDir } from './helpers';
import { patience } from '../../patience';

type MochaClass = typeof MochaType;

/** mocha 12 is an ES module whose CommonJS build is lib/mocha.cjs; either spelling gives the class. */
function loadMocha(): MochaClass {
  try {
    return require('mocha/lib/mocha.cjs') as MochaClass;
  } catch {
    const loaded = require('mocha') as MochaClass & { default?: MochaClass };
    return loaded.default ?? loaded;
  }
}

export interface SuiteResult {
  readonly title: string;
  readonly state: 'passed' | 'failed' | 'pending';
  readonly duration: number | null;
  readonly error: string | null;
}

export function run(): Promise<void> {
  const Mocha = loadMocha();
  // BI_TEST_GREP (from the harness's extension environment) runs only the tests whose full title matches.
  const grep = process.env['BI_TEST_GREP'];
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: patience(60_000), reporter: 'spec', ...(grep ? { grep } : {}) });
  // The files run in name order: activation, audit, extension, mcp, ui, walkthrough (the UI checks want the MCP refusal logged
  // and the audit run; the walkthrough's come after them, with the inspector closed).
  const files = readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  for (const file of files) mocha.addFile(path.join(__dirname, file));

  const control = controlDir();
  const results: SuiteResult[] = [];
  const save = () => {
    if (control !== null) writeFileSync(path.join(control, 'suite-results.json'), JSON.stringify(results, null, 2));
  };

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        save();
        if (failures > 0) reject(new Error(`${failures} extension test${failures === 1 ? '' : 's'} failed`));
        else resolve();
      });
      runner.on('pass', (test) => results.push({ title: test.fullTitle(), state: 'passed', duration: test.duration ?? null, error: null }));
      runner.on('fail', (test, error: Error) =>
        results.push({ title: test.fullTitle(), state: 'failed', duration: test.duration ?? null, error: error?.stack ?? String(error) }),
      );
      runner.on('pending', (test) => results.push({ title: test.fullTitle(), state: 'pending', duration: null, error: null }));
      runner.on('test end', save);
    } catch (error) {
      reject(error as Error);
    }
  });
}
