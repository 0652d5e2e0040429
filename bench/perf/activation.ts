// Part of section 5: the extension's activation in the real VS Code host of the extension tests
// (code-server's VS Code server with headless Chromium, test/extension/harness.ts), by VS Code's
// own measure: load code + call activate, the time "Developer: Show Running Extensions" shows,
// read from "Developer: Startup Performance" by the suite's Activation test. Each run is a fresh
// VS Code running that test alone on a copy of the production build (about 20 s). Where the
// harness is not installed (npm test installs it), the last extension test's measure is judged.
import { environmentReady } from '../../scripts/vscode-env.js';
import { readActivationRecords, runVsCodeTests, type ActivationRecord } from '../../test/extension/harness.js';
import type { ActivationTimes } from '../../test/extension/suite/helpers.js';
import { median, renderTable, type Verdict } from './stats.js';

export const ACTIVATION_GOAL_MS = 20;

export interface ActivationSettings {
  readonly runs: number;
}

export const FULL_ACTIVATION: ActivationSettings = { runs: 3 };
export const QUICK_ACTIVATION: ActivationSettings = { runs: 1 };

export interface ActivationReport {
  /** 'ran': measured in this run; 'recorded': the last extension test's measure is judged instead. */
  readonly status: 'ran' | 'recorded' | 'none';
  readonly reason?: string;
  /** This run's measures, one per VS Code started. */
  readonly runs: readonly ActivationTimes[];
  /** The last extension test's measure (development build), from .vscode-test/activation.json. */
  readonly lastTest: ActivationRecord | null;
  /** The median of this run's measures, or the last test's when nothing was measured here. */
  readonly activationMs: number | null;
  readonly goal: string;
  readonly verdict: Verdict;
}

const GREP = '^Activation ';

/** Measures the extension in `extensionPath` (a copy of the production build) `settings.runs` times. */
export async function runActivation(options: {
  readonly extensionPath: string;
  readonly settings: ActivationSettings;
  readonly progress: (line: string) => void;
}): Promise<ActivationReport> {
  const lastTest = readActivationRecords().at(-1) ?? null;
  const goal = `< ${ACTIVATION_GOAL_MS} ms`;
  const judge = (ms: number | null): Verdict => (ms === null ? '-' : ms < ACTIVATION_GOAL_MS ? 'pass' : 'FAIL');
  const fallback = (reason: string): ActivationReport => {
    const activationMs = lastTest?.activationMs ?? null;
    return { status: lastTest ? 'recorded' : 'none', reason, runs: [], lastTest, activationMs, goal, verdict: judge(activationMs) };
  };
  if (process.platform !== 'linux') return fallback('the offline VS Code harness runs on Linux only');
  if (!environmentReady()) return fallback('the VS Code harness is not installed here (npm test installs it into .vscode-test/)');

  const runs: ActivationTimes[] = [];
  for (let run = 1; run <= options.settings.runs; run++) {
    options.progress(`activation: VS Code start ${run}/${options.settings.runs}`);
    const result = await runVsCodeTests({
      extensionPath: options.extensionPath,
      grep: GREP,
      echoHostLog: false,
      timeout: 120_000,
      log: (line) => options.progress(`activation: ${line.length > 160 ? `${line.slice(0, 157)}...` : line}`),
    });
    if (result.activation === null) {
      const failed = result.suite.find((entry) => entry.state === 'failed');
      return fallback(`run ${run} gave no measure: ${result.error ?? failed?.error ?? `the suite exited with ${result.exitCode}`}`.slice(0, 500));
    }
    runs.push(result.activation);
  }
  const activationMs = median(runs.map((times) => times.activationMs));
  return { status: 'ran', runs, lastTest, activationMs, goal, verdict: judge(activationMs) };
}

function parts(times: ActivationTimes): string {
  return `${times.loadCodeMs} + ${times.callActivateMs}`;
}

export function formatActivation(report: ActivationReport): string {
  const rows: string[][] = [];
  if (report.status === 'ran') {
    const vscode = report.runs[0]?.vscodeVersion ?? '?';
    rows.push([
      `production build, this run (VS Code ${vscode}, ${report.runs.length} start${report.runs.length === 1 ? '' : 's'})`,
      report.runs.map((times) => `${times.activationMs} (${parts(times)})`).join(', '),
      `${report.activationMs} ms`,
      report.goal,
      report.verdict,
    ]);
  }
  const last = report.lastTest;
  if (last) {
    const judged = report.status === 'recorded';
    rows.push([
      `${last.build} build, last extension test (${last.measuredAt.slice(0, 16).replace('T', ' ')} UTC)`,
      `${last.activationMs} (${parts(last)})`,
      `${last.activationMs} ms`,
      judged ? report.goal : '',
      judged ? report.verdict : '',
    ]);
  }
  const lines: string[] = [];
  if (rows.length > 0) lines.push(renderTable(["activation, VS Code's measure", 'ms (load code + call activate)', 'median', 'goal', 'result'], rows));
  if (report.reason !== undefined) lines.push(`Activation not measured in this run: ${report.reason}.`);
  if (report.status === 'none') lines.push('No extension test has recorded an activation yet: run npm test.');
  return lines.join('\n');
}
