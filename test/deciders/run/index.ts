// One run of one case on one program, by the program's own runner.
import type { DeciderCase, ToolName } from '../cases.js';
import { makeCaseFixture, removeFixture } from '../fixture.js';
import type { Program } from '../programs.js';
import type { Observation } from '../recording.js';
import { runClaudeCode } from './claudeCode.js';
import { runCodex } from './codex.js';
import { runGeminiCli } from './geminiCli.js';
import { runServerFilesystem } from './serverFilesystem.js';

const RUNNERS: Readonly<Record<Program, typeof runCodex>> = {
  'server-filesystem': runServerFilesystem,
  'claude-code': runClaudeCode,
  codex: runCodex,
  'gemini-cli': runGeminiCli,
};

/** An agent's run takes about ten seconds on an idle machine; this is far above the slowest. */
export const RUN_TIMEOUT_MS = 240_000;

export interface RunOptions {
  readonly scratch: string;
  readonly timeoutMs?: number;
  /** Leave the case's folder on disk (its path is returned). */
  readonly keep?: boolean;
}

export async function runCase(c: DeciderCase, program: Program, tool: ToolName, options: RunOptions): Promise<{ observation: Observation; base: string }> {
  const fx = makeCaseFixture(options.scratch, c, program);
  try {
    return { observation: await RUNNERS[program](c, tool, fx, options.timeoutMs ?? RUN_TIMEOUT_MS), base: fx.base };
  } finally {
    if (options.keep !== true) removeFixture(fx);
  }
}

/** Every (case, program, tool) the table names, in its order. */
export function jobsOf(cases: readonly DeciderCase[]): { c: DeciderCase; program: Program; tool: ToolName }[] {
  return cases.flatMap((c) => Object.entries(c.tools).flatMap(([program, tools]) => (tools ?? []).map((tool) => ({ c, program: program as Program, tool }))));
}
