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

/** Cases and programs in the table's order, so a re-recording's diff shows only what changed. */
export function writeRecording(recording: Recording, order: readonly string[], file = RECORDING_PATH): void {
  const cases = Object.fromEntries(
    [...order.filter((name) => name in recording.cases), ...Object.keys(recording.cases).filter((name) => !order.includes(name)).sort()].map((name) => [name, recording.cases[name]]),
  );
  // Whole or not at all: another recording run may read it at any moment.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, `${JSON.stringify({ ...recording, cases }, null, 2)}\n`);
  fs.renameSync(partial, file);
}
