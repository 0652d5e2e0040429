// Section 1: tool calls through one stdio client per server, ours against the reference on the
// same tree, one call in flight at a time, rounds alternating between the servers.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createRoundTripWorkspace,
  removeTempDir,
  DEEP_FOLDER,
  FILE_1M,
  FILE_4K,
  TREE_FOLDER,
  WIDE_ENTRIES,
  WIDE_FOLDER,
  WRITES_FOLDER,
  EDITED_LINE,
  editFileName,
  type RoundTripWorkspace,
} from './fixtures.js';
import { answerText, CLIENT_CPU, CONFIGURATION_LABELS, CONFIGURATIONS, pinThisProcess, SERVER_CPU, sandbox, startServer, UnavailableError, type Configuration, type OursConfiguration, type RunningServer, type ToolAnswer } from './servers.js';
import { formatBytes, formatMs, formatNumber, formatRatio, median, msSince, nowNs, percentile, renderTable, roundOrder, type Verdict } from './stats.js';

export interface RoundTripSettings {
  readonly rounds: number;
  /** Each server's share of a round lasts at least this long... */
  readonly roundMillis: number;
  /** ...and makes at least this many calls (the heavy rows take most of a second per call). */
  readonly minCallsPerRound: number;
  readonly warmupCalls: number;
  /** The client on the first CPU and every server on the second (--pin), so that none takes CPU from the other. */
  readonly pinned?: boolean;
}

// Many short rounds: a burst of load from other work lands in a few rounds of every server, not in one server's share.
export const FULL_ROUND_TRIPS: RoundTripSettings = { rounds: 15, roundMillis: 400, minCallsPerRound: 2, warmupCalls: 30 };
export const QUICK_ROUND_TRIPS: RoundTripSettings = { rounds: 3, roundMillis: 150, minCallsPerRound: 1, warmupCalls: 5 };

/** The goal for ours/reference calls per second, by configuration. */
export const ROUND_TRIP_GOALS: Readonly<Record<OursConfiguration, number>> = { 'ours-off': 1.0, 'ours-sandbox': 0.9 };
/** The goal for ours (sandbox off) / the no-check floor calls per second, on the rows the floor answers. */
export const FLOOR_GOAL = 0.8;

interface Call {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

export interface RoundTripCase {
  readonly id: string;
  readonly label: string;
  /** Heavy calls get fewer warm-up calls: each takes a good part of a second on the reference. */
  readonly heavy: boolean;
  ours(workspaceUri: string, server: Configuration): Call;
  /** The reference's call, or the calls that do its nearest to the same work, in turn. */
  reference(root: string, server: Configuration): Call | readonly Call[];
  /** The no-check floor's call, on the light rows only. */
  floor?(root: string): Call;
  /**
   * Throws when the answers show the call did not do the work the row claims (an error, a
   * truncated walk). One answer, or every page of ours where an answer has a budget.
   */
  check?(answers: readonly ToolAnswer[], server: Configuration, workspace: RoundTripWorkspace): void;
}

/** Pages one piece of work may take: far more than any row here needs. */
const MAX_PAGES = 1000;

/**
 * A call and the ones its answers' nextCursor asks for, until the work is done: one answer of
 * ours is at most its budget, so the same work as the reference's single answer can take several.
 */
async function callAllPages(server: RunningServer, work: Call | readonly Call[]): Promise<ToolAnswer[]> {
  if (Array.isArray(work)) {
    const answers: ToolAnswer[] = [];
    for (const call of work) answers.push(...(await callAllPages(server, call)));
    return answers;
  }
  const call = work as Call;
  const answers: ToolAnswer[] = [];
  let args = call.args;
  for (;;) {
    const answer = await server.call(call.tool, args);
    answers.push(answer);
    const next = answer.isError === true ? undefined : answer.structuredContent?.nextCursor;
    if (typeof next !== 'string') return answers;
    if (answers.length >= MAX_PAGES) throw new Error(`${call.tool} took more than ${MAX_PAGES} pages`);
    args = { ...call.args, cursor: next };
  }
}

const CONTENT_4K = 'x'.repeat(4095) + '\n';

/** Entries in our list_directory answer: its text's lines, without the headings of each kind. */
function listedCount(answer: ToolAnswer): number {
  return answerText(answer)
    .split('\n')
    .filter((line) => !/^(Folders|Files|Links \(not followed\)|Other \(sockets, FIFOs, devices\)) \(\d+( of \d+)?\):$/.test(line)).length;
}

function matchesOf(answers: readonly ToolAnswer[], server: Configuration): number {
  if (server !== 'reference') return answers.reduce((sum, answer) => sum + ((answer.structuredContent?.matches as unknown[] | undefined)?.length ?? Number.NaN), 0);
  const text = answerText(answers[0]!);
  return text === 'No matches found' ? 0 : text.split('\n').length;
}

/** Ours was cut short without a cursor to go on: the row would not compare the same work. */
function incomplete(answers: readonly ToolAnswer[], server: Configuration): boolean {
  return server !== 'reference' && answers.at(-1)!.structuredContent?.truncated !== false;
}

export const ROUND_TRIP_CASES: readonly RoundTripCase[] = [
  {
    id: 'no_file',
    label: 'no file touched (list_workspaces / list_allowed_directories)',
    heavy: false,
    ours: () => ({ tool: 'list_workspaces', args: {} }),
    reference: () => ({ tool: 'list_allowed_directories', args: {} }),
    floor: () => ({ tool: 'list_workspaces', args: {} }),
  },
  {
    id: 'get_file_info',
    label: `get_file_info, ${FILE_4K} (5 folders deep)`,
    heavy: false,
    ours: (workspaceUri) => ({ tool: 'get_file_info', args: { workspaceUri, path: FILE_4K } }),
    reference: (root) => ({ tool: 'get_file_info', args: { path: path.join(root, FILE_4K) } }),
    floor: () => ({ tool: 'get_file_info', args: { path: FILE_4K } }),
  },
  {
    id: 'read_4k',
    label: `read_text_file 4 KiB, ${DEEP_FOLDER}/`,
    heavy: false,
    ours: (workspaceUri) => ({ tool: 'read_text_file', args: { workspaceUri, path: FILE_4K } }),
    reference: (root) => ({ tool: 'read_text_file', args: { path: path.join(root, FILE_4K) } }),
    floor: () => ({ tool: 'read_text_file', args: { path: FILE_4K } }),
  },
  {
    id: 'read_1m',
    label: `read_text_file 1 MiB, ${DEEP_FOLDER}/`,
    heavy: false,
    ours: (workspaceUri) => ({ tool: 'read_text_file', args: { workspaceUri, path: FILE_1M } }),
    reference: (root) => ({ tool: 'read_text_file', args: { path: path.join(root, FILE_1M) } }),
  },
  {
    id: 'list_directory',
    label: `list_directory, ${WIDE_ENTRIES.toLocaleString('en-US')} entries`,
    heavy: false,
    ours: (workspaceUri) => ({ tool: 'list_directory', args: { workspaceUri, path: WIDE_FOLDER } }),
    reference: (root) => ({ tool: 'list_directory', args: { path: path.join(root, WIDE_FOLDER) } }),
    check([answer], server) {
      const count = server === 'reference' ? answerText(answer!).split('\n').length : listedCount(answer!);
      if (count !== WIDE_ENTRIES) throw new Error(`list_directory returned ${count} entries, not ${WIDE_ENTRIES}`);
    },
  },
  {
    id: 'directory_tree',
    label: 'directory_tree, 9,000 files (ours: every page)',
    heavy: true,
    ours: (workspaceUri) => ({ tool: 'directory_tree', args: { workspaceUri, path: TREE_FOLDER } }),
    reference: (root) => ({ tool: 'directory_tree', args: { path: path.join(root, TREE_FOLDER) } }),
    check(answers, server) {
      if (incomplete(answers, server)) throw new Error('directory_tree was truncated: the rows would not compare the same work');
    },
  },
  {
    id: 'window_1m',
    label: `read_text_file, 50 lines from the middle of ${FILE_1M} (1 MiB; the reference: the whole file, its nearest)`,
    heavy: false,
    ours: (workspaceUri) => ({ tool: 'read_text_file', args: { workspaceUri, path: FILE_1M, offset: 7000, limit: 50 } }),
    reference: (root) => ({ tool: 'read_text_file', args: { path: path.join(root, FILE_1M) } }),
    check(answers, server) {
      const lines = answerText(answers[0]!).split('\n').length;
      if (server !== 'reference' && lines !== 50) throw new Error(`the window holds ${lines} lines, not 50`);
    },
  },
  {
    id: 'search_contents',
    label: `search_file_contents for a word in neither file of ${DEEP_FOLDER}/, 4 KiB and 1 MiB (the reference: search_files then read_multiple_files, its nearest)`,
    heavy: true,
    ours: (workspaceUri) => ({ tool: 'search_file_contents', args: { workspaceUri, path: DEEP_FOLDER, pattern: 'needle' } }),
    reference: (root) => [
      { tool: 'search_files', args: { path: path.join(root, DEEP_FOLDER), pattern: '**/*.txt' } },
      { tool: 'read_multiple_files', args: { paths: [path.join(root, FILE_4K), path.join(root, FILE_1M)] } },
    ],
    check(answers, server) {
      if (server === 'reference') return;
      const searched = answers.reduce((sum, answer) => sum + ((answer.structuredContent?.searched as number | undefined) ?? 0), 0);
      if (searched !== 2) throw new Error(`search_file_contents searched ${searched} files, not both`);
    },
  },
  {
    id: 'search_files',
    label: 'search_files **/*.md, 9,000 files (ours: every page)',
    heavy: true,
    ours: (workspaceUri) => ({ tool: 'search_files', args: { workspaceUri, path: TREE_FOLDER, pattern: '**/*.md' } }),
    // The reference matches the glob with minimatch against the path relative to the folder searched, as ours does.
    reference: (root) => ({ tool: 'search_files', args: { path: path.join(root, TREE_FOLDER), pattern: '**/*.md' } }),
    check(answers, server, workspace) {
      if (incomplete(answers, server)) throw new Error('search_files was truncated: the rows would not compare the same work');
      const found = matchesOf(answers, server);
      if (found !== workspace.treeMarkdownFiles) throw new Error(`search_files found ${found} matches, not ${workspace.treeMarkdownFiles}`);
    },
  },
  {
    id: 'write_4k',
    label: 'write_file 4 KiB, replacing a file',
    heavy: false,
    // A file per server, so one server never finds the other's temporary files.
    ours: (workspaceUri, server) => ({ tool: 'write_file', args: { workspaceUri, path: `${WRITES_FOLDER}/${server}.txt`, content: CONTENT_4K } }),
    reference: (root, server) => ({ tool: 'write_file', args: { path: path.join(root, WRITES_FOLDER, `${server}.txt`), content: CONTENT_4K } }),
  },
  {
    id: 'edit_4k',
    label: 'edit_file, one line of a 4 KiB file',
    heavy: false,
    // Ours commits only over the file it read (taken aside, compared, linked in): this row is that cost.
    // The runner reuses a call's arguments: `edits` is read afresh each time they are sent.
    ours: (workspaceUri, server) => ({ tool: 'edit_file', args: flipping(server, { workspaceUri, path: `${WRITES_FOLDER}/${editFileName(server)}` }) }),
    reference: (root, server) => ({ tool: 'edit_file', args: flipping(server, { path: path.join(root, WRITES_FOLDER, editFileName(server)) }) }),
  },
];

/** Each server edits a file of its own, flipping one line back and forth, so every call changes it. */
const editTurns = new Map<Configuration, number>();

function flipping(server: Configuration, args: Record<string, unknown>): Record<string, unknown> {
  return Object.defineProperty(args, 'edits', { enumerable: true, get: () => [nextEdit(server)] });
}

function nextEdit(server: Configuration): { oldText: string; newText: string } {
  const turn = editTurns.get(server) ?? 0;
  editTurns.set(server, turn + 1);
  return turn % 2 === 0 ? { oldText: EDITED_LINE[0], newText: EDITED_LINE[1] } : { oldText: EDITED_LINE[1], newText: EDITED_LINE[0] };
}

export interface ServerMeasurement {
  readonly configuration: Configuration;
  readonly status: 'ran' | 'unavailable' | 'failed';
  readonly reason?: string;
  readonly callsPerSecond?: number;
  readonly medianMs?: number;
  readonly p99Ms?: number;
  readonly calls?: number;
  /** Calls per second in each counted round, in round order. */
  readonly roundCallsPerSecond?: readonly number[];
  /** ours / reference calls per second (medians of the rounds). */
  readonly ratio?: number;
  /** reference / ours median latency: the typical call without the tail, same direction as ratio. */
  readonly medianRatio?: number;
  /** The server's CPU time (its whole process tree) per counted call: what load from other work does not change. */
  readonly cpuMsPerCall?: number;
  /** reference / ours CPU per call, same direction as ratio. */
  readonly cpuRatio?: number;
  /** ours / the no-check floor calls per second, where the floor answers the row. */
  readonly floorRatio?: number;
  readonly floorGoal?: number;
  readonly floorVerdict?: Verdict;
  /** The answer's size as the client decoded it, JSON-encoded: encoding and the pipe cost scale with it. */
  readonly answerBytes?: number;
  readonly goal?: number;
  readonly verdict?: Verdict;
}

export interface RoundTripRow {
  readonly id: string;
  readonly label: string;
  readonly servers: readonly ServerMeasurement[];
}

export interface RoundTripReport {
  readonly settings: RoundTripSettings;
  readonly workspace: { readonly treeEntries: number; readonly treeMarkdownFiles: number };
  readonly rows: readonly RoundTripRow[];
}

function callFor(testCase: RoundTripCase, configuration: Configuration, workspace: RoundTripWorkspace): Call | readonly Call[] {
  if (configuration === 'floor') return testCase.floor!(workspace.root);
  return configuration === 'reference' ? testCase.reference(workspace.root, configuration) : testCase.ours(pathToFileURL(workspace.root).href, configuration);
}

/** The tools a piece of work calls, for messages. */
function toolsOf(work: Call | readonly Call[]): string {
  return Array.isArray(work) ? work.map((call: Call) => call.tool).join(' + ') : (work as Call).tool;
}

async function callChecked(server: RunningServer, testCase: RoundTripCase, call: Call | readonly Call[], workspace: RoundTripWorkspace): Promise<ToolAnswer[]> {
  const answers = await callAllPages(server, call);
  const failed = answers.find((answer) => answer.isError === true);
  if (failed !== undefined) throw new Error(`${toolsOf(call)} answered an error: ${answerText(failed).slice(0, 300)}`);
  testCase.check?.(answers, server.configuration, workspace);
  return answers;
}

async function measureCase(
  testCase: RoundTripCase,
  servers: ReadonlyMap<Configuration, RunningServer>,
  workspace: RoundTripWorkspace,
  settings: RoundTripSettings,
  failures: ReadonlyMap<Configuration, string>,
): Promise<RoundTripRow> {
  const latencies = new Map<Configuration, number[]>();
  const rounds = new Map<Configuration, number[]>();
  const errors = new Map<Configuration, string>();
  const answerBytes = new Map<Configuration, number>();
  const live = [...servers.keys()].filter((configuration) => configuration !== 'floor' || testCase.floor !== undefined);
  for (const configuration of live) {
    latencies.set(configuration, []);
    rounds.set(configuration, []);
  }

  // Warm-up: every answer is checked here, so a row that does not do the same work on both sides fails loudly.
  for (const configuration of live) {
    const server = servers.get(configuration)!;
    const call = callFor(testCase, configuration, workspace);
    try {
      const warmups = testCase.heavy ? Math.max(1, Math.ceil(settings.warmupCalls / 10)) : settings.warmupCalls;
      for (let index = 0; index < warmups; index += 1) {
        const answers = await callChecked(server, testCase, call, workspace);
        answerBytes.set(configuration, answers.reduce((sum, answer) => sum + Buffer.byteLength(JSON.stringify(answer)), 0));
      }
    } catch (error) {
      errors.set(configuration, (error as Error).message);
    }
  }

  const measured = live.filter((configuration) => !errors.has(configuration));
  // Idle servers use no CPU, so each one's CPU over all the counted rounds is its cost for its counted calls.
  const cpuBefore = new Map(measured.map((configuration) => [configuration, servers.get(configuration)!.cpuMs()]));
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const configuration of roundOrder(measured, round)) {
      if (errors.has(configuration)) continue;
      const server = servers.get(configuration)!;
      const call = callFor(testCase, configuration, workspace);
      const samples = latencies.get(configuration)!;
      let calls = 0;
      const roundStart = nowNs();
      try {
        while (calls < settings.minCallsPerRound || msSince(roundStart) < settings.roundMillis) {
          const start = nowNs();
          const answers = await callAllPages(server, call);
          samples.push(msSince(start));
          const failed = answers.find((answer) => answer.isError === true);
          if (failed !== undefined) throw new Error(`${toolsOf(call)} answered an error: ${answerText(failed).slice(0, 300)}`);
          calls += 1;
        }
        rounds.get(configuration)!.push(calls / (msSince(roundStart) / 1000));
      } catch (error) {
        errors.set(configuration, (error as Error).message);
      }
    }
  }

  const cpuPerCall = new Map<Configuration, number>();
  for (const configuration of measured) {
    const before = cpuBefore.get(configuration);
    const after = servers.get(configuration)!.cpuMs();
    const calls = latencies.get(configuration)!.length;
    if (before !== null && before !== undefined && after !== null && calls > 0) cpuPerCall.set(configuration, (after - before) / calls);
  }
  const referenceRan = !errors.has('reference') && servers.has('reference');
  const referenceRate = referenceRan ? median(rounds.get('reference')!) : undefined;
  const referenceMedian = referenceRan ? median(latencies.get('reference')!) : undefined;
  const floorRate = testCase.floor !== undefined && servers.has('floor') && !errors.has('floor') ? median(rounds.get('floor')!) : undefined;
  const shown = CONFIGURATIONS.filter((configuration) => configuration !== 'floor' || testCase.floor !== undefined);
  const results: ServerMeasurement[] = shown.map((configuration) => {
    const failure = failures.get(configuration);
    if (failure !== undefined) return { configuration, status: 'unavailable', reason: failure };
    const error = errors.get(configuration);
    if (error !== undefined) return { configuration, status: 'failed', reason: error };
    const samples = latencies.get(configuration)!;
    const callsPerSecond = median(rounds.get(configuration)!);
    const base: ServerMeasurement = {
      configuration,
      status: 'ran',
      callsPerSecond,
      medianMs: median(samples),
      p99Ms: percentile(samples, 99),
      calls: samples.length,
      roundCallsPerSecond: rounds.get(configuration)!,
      ...(cpuPerCall.has(configuration) ? { cpuMsPerCall: cpuPerCall.get(configuration)! } : {}),
      ...(answerBytes.has(configuration) ? { answerBytes: answerBytes.get(configuration)! } : {}),
    };
    if (configuration === 'reference' || configuration === 'floor' || referenceRate === undefined) return base;
    const ratio = callsPerSecond / referenceRate;
    const floorRatio = floorRate === undefined ? undefined : callsPerSecond / floorRate;
    const floor = floorRatio === undefined ? {} : configuration === 'ours-off' ? { floorRatio, floorGoal: FLOOR_GOAL, floorVerdict: floorRatio >= FLOOR_GOAL ? ('pass' as const) : ('FAIL' as const) } : { floorRatio };
    const goal = ROUND_TRIP_GOALS[configuration];
    const referenceCpu = cpuPerCall.get('reference');
    const cpuRatio = referenceCpu !== undefined && base.cpuMsPerCall !== undefined && base.cpuMsPerCall > 0 ? referenceCpu / base.cpuMsPerCall : undefined;
    return {
      ...base,
      ratio,
      medianRatio: referenceMedian! / base.medianMs!,
      ...(cpuRatio !== undefined ? { cpuRatio } : {}),
      goal,
      verdict: ratio >= goal ? 'pass' : 'FAIL',
      ...floor,
    };
  });
  return { id: testCase.id, label: testCase.label, servers: results };
}

export async function runRoundTrips(options: {
  readonly settings: RoundTripSettings;
  readonly bundle: string;
  readonly progress: (line: string) => void;
}): Promise<RoundTripReport> {
  const workspace = createRoundTripWorkspace();
  const servers = new Map<Configuration, RunningServer>();
  const failures = new Map<Configuration, string>();
  const unpin = options.settings.pinned === true ? pinThisProcess(CLIENT_CPU) : undefined;
  try {
    for (const configuration of CONFIGURATIONS) {
      if (configuration === 'ours-sandbox' && !sandbox().available) {
        failures.set(configuration, sandbox().reason);
        continue;
      }
      try {
        servers.set(configuration, await startServer(configuration, workspace.root, { bundle: options.bundle, ...(options.settings.pinned === true ? { cpu: SERVER_CPU } : {}) }));
      } catch (error) {
        failures.set(configuration, error instanceof UnavailableError ? error.message : `could not start: ${(error as Error).message}`);
      }
    }
    const rows: RoundTripRow[] = [];
    for (const testCase of ROUND_TRIP_CASES) {
      options.progress(`round trips: ${testCase.label}`);
      rows.push(await measureCase(testCase, servers, workspace, options.settings, failures));
    }
    return { settings: options.settings, workspace: { treeEntries: workspace.treeEntries, treeMarkdownFiles: workspace.treeMarkdownFiles }, rows };
  } finally {
    await Promise.all([...servers.values()].map((server) => server.close().catch(() => undefined)));
    removeTempDir(workspace.root);
    unpin?.();
  }
}

export function formatRoundTrips(report: RoundTripReport): string {
  const table: (string | number)[][] = [];
  for (const row of report.rows) {
    table.push([row.label, '', '', '', '', '', '', '', '', '', '', '', '', '']);
    for (const server of row.servers) {
      const name = `  ${CONFIGURATION_LABELS[server.configuration]}`;
      if (server.status !== 'ran') {
        table.push([name, server.status, '', '', '', '', '', '', '', '', '', '', '', server.reason?.slice(0, 70) ?? '']);
        continue;
      }
      table.push([
        name,
        formatNumber(server.callsPerSecond, server.callsPerSecond! < 10 ? 2 : 0),
        formatMs(server.medianMs),
        formatMs(server.p99Ms),
        formatNumber(server.calls),
        formatBytes(server.answerBytes),
        server.ratio === undefined ? '' : formatRatio(server.ratio),
        server.medianRatio === undefined ? '' : formatRatio(server.medianRatio),
        formatMs(server.cpuMsPerCall),
        server.cpuRatio === undefined ? '' : formatRatio(server.cpuRatio),
        server.goal === undefined ? '' : `>= ${server.goal.toFixed(1)}`,
        server.verdict ?? '',
        server.floorRatio === undefined ? '' : formatRatio(server.floorRatio),
        server.floorGoal === undefined ? '' : `>= ${server.floorGoal.toFixed(1)} ${server.floorVerdict}`,
      ]);
    }
  }
  return renderTable(['call / server', 'calls/s', 'median ms', 'p99 ms', 'calls', 'answer', 'vs ref', 'by median', 'CPU ms/call', 'by CPU', 'goal', 'result', 'vs floor', 'floor goal'], table);
}
