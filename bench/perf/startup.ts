// Section 4: from spawn to the answer of the first tools/list, over raw JSON-RPC lines (no SDK
// client in the way), ours with the sandbox off and on against the reference, rounds alternating;
// a bare `node -e ""` in the same rounds shows what Node itself costs.
import { spawn } from 'node:child_process';
import { makeTempDir, removeTempDir } from './fixtures.js';
import { CONFIGURATION_LABELS, sandbox, serverArguments, type Configuration } from './servers.js';
import { formatMs, formatRatio, median, percentile, renderTable, roundOrder, type Verdict } from './stats.js';

export interface StartupSettings {
  readonly rounds: number;
}

export const FULL_STARTUP: StartupSettings = { rounds: 21 };
export const QUICK_STARTUP: StartupSettings = { rounds: 3 };
/** What the sandbox may add to a start, its self-check from inside included. */
export const SANDBOX_COST_GOAL_MS = 150;

type Contender = Configuration | 'bare-node';

const LABELS: Readonly<Record<Contender, string>> = { ...CONFIGURATION_LABELS, 'bare-node': 'node -e "" (no server)' };

export interface StartupRow {
  readonly contender: Contender;
  readonly status: 'ran' | 'unavailable' | 'failed';
  readonly reason?: string;
  readonly medianMs?: number;
  readonly p99Ms?: number;
  readonly samples?: readonly number[];
  /** Ours' time over the reference's. */
  readonly ratio?: number;
  readonly goal?: string;
  readonly verdict?: Verdict;
}

export interface StartupReport {
  readonly settings: StartupSettings;
  readonly rows: readonly StartupRow[];
  /** Median with the sandbox on minus median with it off; at most SANDBOX_COST_GOAL_MS. */
  readonly sandboxCostMs: number | null;
}

const SPAWN_TIMEOUT_MS = 30_000;

/** Spawn, initialize (2025-11-25), initialized, tools/list; milliseconds until the tools arrive. */
function firstToolsList(args: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], cwd });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no tools/list answer within ${SPAWN_TIMEOUT_MS} ms`));
    }, SPAWN_TIMEOUT_MS);
    let buffer = '';
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let newline = buffer.indexOf('\n'); newline !== -1; newline = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, newline)) as { id?: number };
        buffer = buffer.slice(newline + 1);
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
          clearTimeout(timer);
          child.stdin.end();
          // The next spawn waits for this one to be gone, so they never overlap.
          const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(killer);
            resolve(elapsed);
          });
        }
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bi-perf', version: '1' } },
    });
  });
}

function bareNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('exit', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
    child.once('error', reject);
  });
}

export async function runStartup(options: { readonly settings: StartupSettings; readonly bundle: string; readonly progress: (line: string) => void }): Promise<StartupReport> {
  const workspace = makeTempDir('bi-perf-startup-');
  try {
    const contenders: Contender[] = ['bare-node', 'reference', 'ours-off'];
    const unavailable = new Map<Contender, string>();
    if (sandbox().available) contenders.push('ours-sandbox');
    else unavailable.set('ours-sandbox', sandbox().reason);
    const samples = new Map<Contender, number[]>(contenders.map((contender) => [contender, []]));
    const failed = new Map<Contender, string>();
    const once = (contender: Contender) =>
      contender === 'bare-node' ? bareNode() : firstToolsList(serverArguments(contender, workspace, options.bundle), workspace);
    // One unmeasured start each: the first spawn pays for cold file caches.
    for (const contender of contenders) await once(contender).catch((error: Error) => failed.set(contender, error.message));
    for (let round = 0; round < options.settings.rounds; round += 1) {
      options.progress(`start-up: round ${round + 1} of ${options.settings.rounds}`);
      for (const contender of roundOrder(contenders, round)) {
        if (failed.has(contender)) continue;
        try {
          samples.get(contender)!.push(await once(contender));
        } catch (error) {
          failed.set(contender, (error as Error).message);
        }
      }
    }

    const medianOf = (contender: Contender) => (failed.has(contender) || !samples.has(contender) ? undefined : median(samples.get(contender)!));
    const reference = medianOf('reference');
    const off = medianOf('ours-off');
    const rows: StartupRow[] = (['bare-node', 'reference', 'ours-off', 'ours-sandbox'] as const).map((contender) => {
      const reason = unavailable.get(contender);
      if (reason !== undefined) return { contender, status: 'unavailable', reason };
      const failure = failed.get(contender);
      if (failure !== undefined) return { contender, status: 'failed', reason: failure };
      const values = samples.get(contender)!;
      const base: StartupRow = { contender, status: 'ran', medianMs: median(values), p99Ms: percentile(values, 99), samples: values };
      if (reference === undefined || contender === 'bare-node' || contender === 'reference') return base;
      const ratio = median(values) / reference;
      // The sandboxed start is judged by what the sandbox adds (its self-check included), not against the reference.
      if (contender === 'ours-sandbox') {
        const cost = off === undefined ? undefined : median(values) - off;
        return { ...base, ratio, goal: `+${SANDBOX_COST_GOAL_MS} ms at most`, ...(cost === undefined ? {} : { verdict: cost <= SANDBOX_COST_GOAL_MS ? 'pass' : 'FAIL' }) };
      }
      return { ...base, ratio, goal: '<= 1.00', verdict: ratio <= 1 ? 'pass' : 'FAIL' };
    });
    const on = medianOf('ours-sandbox');
    return { settings: options.settings, rows, sandboxCostMs: off !== undefined && on !== undefined ? on - off : null };
  } finally {
    removeTempDir(workspace);
  }
}

export function formatStartup(report: StartupReport): string {
  const table = renderTable(
    ['start-up', 'median ms', 'p99 ms', 'starts', 'vs ref (time)', 'goal', 'result'],
    report.rows.map((row) =>
      row.status !== 'ran'
        ? [LABELS[row.contender], row.status, '', '', '', '', row.reason?.slice(0, 60) ?? '']
        : [
            LABELS[row.contender],
            formatMs(row.medianMs),
            formatMs(row.p99Ms),
            String(row.samples?.length ?? 0),
            row.ratio === undefined ? '' : formatRatio(row.ratio),
            row.goal ?? '',
            row.verdict ?? '',
          ],
    ),
  );
  const cost = report.sandboxCostMs === null ? 'unavailable' : `${formatMs(report.sandboxCostMs)} ms (median on - median off)`;
  return `${table}\nThe sandbox's cost at start-up: ${cost}.`;
}
