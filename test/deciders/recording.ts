// The recording of what the real programs decided on the table (cases.ts), as
// scripts/record-deciders.ts writes it and the tests read it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolName } from './cases.js';
import type { Program } from './programs.js';

export const RECORDING_PATH = path.join(__dirname, 'recorded.json');

export type Decision = 'allow' | 'ask' | 'deny';

export interface Observation {
  /** `unobserved`: the run ended before the program decided (the message says why). */
  readonly decision: Decision | 'unobserved';
  /** The tool's answer as the program gave it, with {base} and {home} put back. */
  readonly message: string;
  /** The program let the call through and the operation then failed (no such file). */
  readonly failed?: true;
  /** For a change: where the text written landed, relative to {base}; empty when nowhere. */
  readonly written?: readonly string[];
  /** Anything else observed (Claude Code's permission_denials, an exit code). */
  readonly detail?: Readonly<Record<string, unknown>>;
}

export interface ProgramRecord {
  readonly npmPackage: string;
  readonly version: string;
  /** The day this program's cases were last recorded (YYYY-MM-DD). */
  readonly recordedOn: string;
}

export interface Recording {
  /** `process.platform process.arch` of the machine that recorded. */
  readonly platform: string;
  readonly programs: { readonly [P in Program]?: ProgramRecord };
  /** Case name, then program, then tool. */
  readonly cases: Readonly<Record<string, { readonly [P in Program]?: Readonly<Partial<Record<ToolName, Observation>>> }>>;
}

export function readRecording(file = RECORDING_PATH): Recording | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Recording;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A recording being changed. */
export interface Draft {
  platform: string;
  programs: { [P in Program]?: ProgramRecord };
  cases: Record<string, { [P in Program]?: Partial<Record<ToolName, Observation>> }>;
}

/**
 * Reads the recording as it is on disk now, lets `change` change it and writes it back, whole (to
 * a file renamed over it), under a lock: two recording runs at the same time keep each other's
 * entries. Cases are kept in the table's `order`, so a re-recording's diff shows only what changed.
 */
export function updateRecording(order: readonly string[], change: (draft: Draft) => void, file = RECORDING_PATH): void {
  const lock = `${file}.lock`;
  for (let waited = 0; ; waited += 20) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (waited > 30_000) throw new Error(`${lock} has been held for 30 s: remove it if no recording is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    const draft = JSON.parse(JSON.stringify(readRecording(file) ?? { platform: '', programs: {}, cases: {} })) as Draft;
    change(draft);
    const names = [...order.filter((name) => name in draft.cases), ...Object.keys(draft.cases).filter((name) => !order.includes(name)).sort()];
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, `${JSON.stringify({ ...draft, cases: Object.fromEntries(names.map((name) => [name, draft.cases[name]])) }, null, 2)}\n`);
    fs.renameSync(partial, file);
  } finally {
    fs.rmdirSync(lock);
  }
}
