// The race harness: for each tool and each server configuration, a fresh fixture, the swap helper
// exchanging `ws/d` with a link to a folder outside, and WORKERS calls of that one tool kept in
// flight for a while; then everything stops and what came from or happened outside is counted.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { auditDisk, createFixture, OUTSIDE_TIME, WORKERS, type DiskCounts, type Fixture } from './fixture.js';
import { PLANS, type Request, type Target, type ToolPlan } from './plans.js';
import { findOnPath } from '../../src/host/node.js';
import { prepareSwapHelper, startSwapper, type RunningSwapper, type SwapHelper } from './swapper.js';
import { patience } from '../../test/patience.js';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const ourServer = path.join(repoRoot, 'dist', 'server.js');
export const referenceServer = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

export const CONFIGURATIONS = ['ours-off', 'ours-sandbox', 'reference'] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];

/** Ours are held to zero; the reference is only reported. */
export const isOurs = (configuration: Configuration) => configuration !== 'reference';

const targetOf = (configuration: Configuration): Target => (isOurs(configuration) ? 'ours' : 'reference');

/** A stuck call fails on its own instead of holding the run. */
const CALL_TIMEOUT_MS = 30_000;

export interface RaceCounts extends DiskCounts {
  /** Answers holding an outside file's content marker. */
  readonly readOutside: number;
  /** The sizes of the outside files whose content those answers held. */
  readonly bytesOutside: number;
  /** Answers naming an entry only the outside twin has, or giving an outside entry's time. */
  readonly listedOutside: number;
}

export const COUNT_NAMES = [
  'readOutside',
  'bytesOutside',
  'listedOutside',
  'createdOutside',
  'changedOutside',
  'deletedOutside',
  'movedIn',
  'tmpInside',
  'tmpOutside',
] as const satisfies readonly (keyof RaceCounts)[];

export interface RaceRow {
  readonly tool: string;
  readonly configuration: Configuration;
  /** `unavailable`: this configuration cannot run here; `not offered`: the server has no such tool. */
  readonly status: 'ran' | 'unavailable' | 'not offered' | 'failed';
  readonly reason?: string;
  readonly calls: number;
  /** Calls answered without an error. */
  readonly answered: number;
  readonly swaps: number;
  readonly seconds: number;
  readonly counts?: RaceCounts;
  /** The first answer that showed something from outside, of each kind, shortened: evidence to read. */
  readonly examples?: Readonly<Partial<Record<'readOutside' | 'listedOutside', string>>>;
  /** A few of the paths behind each count found on disk. */
  readonly paths?: Readonly<Partial<Record<keyof DiskCounts, readonly string[]>>>;
}

export interface RaceOptions {
  readonly tools?: readonly string[];
  readonly configurations?: readonly Configuration[];
  readonly seconds: number;
  /** Our server's bundle; default dist/server.js. Another build (say, the last release's) can be raced the same way. */
  readonly server?: string;
  /** Progress, one line per run (the CLI passes stderr). */
  readonly progress?: (line: string) => void;
}

export interface RaceReport {
  readonly seconds: number;
  readonly server: string;
  readonly workers: number;
  readonly swapHelper: SwapHelper;
  readonly sandbox: SandboxAvailability;
  readonly rows: readonly RaceRow[];
}

export interface SandboxAvailability {
  readonly available: boolean;
  readonly reason: string;
}

/** Whether our server's `--sandbox auto` can use bubblewrap here: the same probe it makes itself. */
export function sandboxAvailability(): SandboxAvailability {
  if (process.platform !== 'linux') return { available: false, reason: `the server sandboxes only on Linux; this is ${process.platform}` };
  const bwrap = findOnPath('bwrap', process.env);
  if (bwrap === undefined) return { available: false, reason: 'bubblewrap (bwrap) is not installed' };
  const probe = spawnSync(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--die-with-parent', '--', process.execPath, '--version'], {
    stdio: 'ignore',
    timeout: patience(10_000),
  });
  if (probe.status !== 0) return { available: false, reason: 'bubblewrap is installed but cannot create namespaces here' };
  return { available: true, reason: `bubblewrap works (${bwrap})` };
}

// ------------------------------------------------------------------------------------------------
// Interruption: whatever is live is killed and removed, synchronously, from a signal handler.
// ------------------------------------------------------------------------------------------------

const liveCleanups = new Set<() => void>();
let interrupted = false;

/** Kills every process and removes every fixture a run still holds; for Ctrl-C and process exit. */
export function abortRaces(): void {
  interrupted = true;
  // Newest first: processes die before their fixture is removed.
  for (const cleanup of [...liveCleanups].reverse()) {
    try {
      cleanup();
    } catch {
      // keep cleaning the rest
    }
  }
  liveCleanups.clear();
}

function killQuietly(pid: number | null | undefined): void {
  if (pid === null || pid === undefined) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

// ------------------------------------------------------------------------------------------------
// Reading answers
// ------------------------------------------------------------------------------------------------

/** Every string in the answer, base64 fields (media data, resource blobs) decoded too. */
function haystackOf(answer: unknown): string {
  const parts: string[] = [];
  const visit = (value: unknown, key: string | undefined) => {
    if (typeof value === 'string') {
      parts.push(value);
      if (key === 'data' || key === 'blob') parts.push(Buffer.from(value, 'base64').toString('latin1'));
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, undefined);
    } else if (value !== null && typeof value === 'object') {
      for (const [childKey, child] of Object.entries(value)) visit(child, childKey);
    }
  };
  visit(answer, undefined);
  return parts.join('\n');
}

interface AnswerTally {
  readOutside: number;
  bytesOutside: number;
  listedOutside: number;
  examples: Partial<Record<'readOutside' | 'listedOutside', string>>;
}

const EXAMPLE_CHARACTERS = 600;

/** The answer as the client got it, shortened around the first marker so the evidence is visible. */
function excerpt(answer: unknown, marker: string): string {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  const at = Math.max(0, text.indexOf(marker));
  const start = Math.max(0, at - EXAMPLE_CHARACTERS / 2);
  return `${start > 0 ? '...' : ''}${text.slice(start, start + EXAMPLE_CHARACTERS)}${start + EXAMPLE_CHARACTERS < text.length ? '...' : ''}`;
}

/** The forms a client may see the outside time in: ISO (ours, JSON), Date#toString (the reference's text). */
const OUTSIDE_TIME_FORMS = [OUTSIDE_TIME.toISOString(), OUTSIDE_TIME.toString(), OUTSIDE_TIME.toUTCString()];

function inspectAnswer(fixture: Fixture, answer: unknown, tally: AnswerTally): void {
  const text = haystackOf(answer);
  if (text.includes(fixture.contentMarker)) {
    tally.readOutside += 1;
    const ids = new Set<string>();
    for (const match of text.matchAll(new RegExp(`${fixture.contentMarker}-(\\d+)`, 'g'))) ids.add(match[1]!);
    for (const id of ids) tally.bytesOutside += fixture.outsideFileSizes.get(id) ?? 0;
    tally.examples.readOutside ??= excerpt(answer, fixture.contentMarker);
  }
  const shown = [fixture.nameMarker, ...OUTSIDE_TIME_FORMS].find((form) => text.includes(form));
  if (shown !== undefined) {
    tally.listedOutside += 1;
    tally.examples.listedOutside ??= excerpt(answer, shown);
  }
}

// ------------------------------------------------------------------------------------------------
// One run
// ------------------------------------------------------------------------------------------------

interface Connection {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  stderr(): string;
}

function serverCommand(configuration: Configuration, fixture: Fixture, server: string): string[] {
  if (configuration === 'reference') return [referenceServer, fixture.workspace];
  const sandbox = configuration === 'ours-off' ? 'off' : 'auto';
  return [server, '--workspace', fixture.workspaceUri, '--refusal-log', fixture.refusalLog, '--sandbox', sandbox];
}

async function connect(configuration: Configuration, fixture: Fixture, server: string, register: (cleanup: () => void) => void): Promise<Connection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: serverCommand(configuration, fixture, server), stderr: 'pipe', cwd: fixture.base });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // No roots capability: the reference server would take the client's roots over its command line.
  const client = new Client({ name: 'bi-race', version: '1.0.0' });
  register(() => killQuietly(transport.pid));
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/**
 * Whether our server sandboxed itself, as its list_workspaces says (its stderr is silent on a
 * normal start): a run that asked for the sandbox and did not get it is not a sandbox run.
 */
export async function sandboxLayer(client: Client): Promise<{ readonly active: boolean; readonly detail: string }> {
  const listed = (await client.callTool({ name: 'list_workspaces', arguments: {} })) as { structuredContent?: { layers?: { sandbox?: { active: boolean; detail: string } } } };
  return listed.structuredContent?.layers?.sandbox ?? { active: false, detail: 'list_workspaces did not say' };
}

function send(client: Client, request: Request, workspaceUri: string | undefined): Promise<unknown> {
  const options = { timeout: CALL_TIMEOUT_MS };
  switch (request.kind) {
    case 'tool': {
      const args = workspaceUri === undefined ? request.arguments : { workspaceUri, ...request.arguments };
      return client.callTool({ name: request.name, arguments: args }, undefined, options);
    }
    case 'resources/list':
      return client.listResources(undefined, options);
    case 'resources/read':
      return client.readResource({ uri: request.uri }, options);
  }
}

async function runOne(plan: ToolPlan, configuration: Configuration, seconds: number, helper: string, server: string): Promise<RaceRow> {
  const target = targetOf(configuration);
  const fixture = createFixture();
  const cleanups: (() => void)[] = [];
  const register = (cleanup: () => void) => {
    cleanups.push(cleanup);
    liveCleanups.add(cleanup);
  };
  register(() => fixture.dispose());
  let swapper: RunningSwapper | undefined;
  let connection: Connection | undefined;
  const started = Date.now();
  try {
    connection = await connect(configuration, fixture, server, register);
    if (configuration === 'ours-sandbox') {
      const layer = await sandboxLayer(connection.client);
      if (!layer.active) {
        return { tool: plan.name, configuration, status: 'unavailable', reason: `the server did not sandbox itself: ${layer.detail}`, calls: 0, answered: 0, swaps: 0, seconds: 0 };
      }
    }

    const tally: AnswerTally = { readOutside: 0, bytesOutside: 0, listedOutside: 0, examples: {} };
    let calls = 0;
    let answered = 0;
    const runningSwapper = startSwapper(helper, fixture.swapping[0], fixture.swapping[1], seconds + CALL_TIMEOUT_MS / 1000 + 30);
    swapper = runningSwapper;
    register(() => runningSwapper.kill());
    const client = connection.client;
    const workspaceUri = target === 'ours' ? fixture.workspaceUri : undefined;
    const pathFor = (relative: string) => (target === 'ours' ? relative : relative === '.' ? fixture.workspace : path.join(fixture.workspace, relative));
    const deadline = Date.now() + seconds * 1000;
    // One worker's failure (a refill that could not be made) stops the others: the run is void.
    let halted = false;
    const worker = async (index: number) => {
      try {
        for (let iteration = 0; Date.now() < deadline && !interrupted && !halted; iteration += 1) {
          const step = plan.step({ fixture, target, worker: index, iteration, path: pathFor });
          step.before?.();
          calls += 1;
          try {
            const answer = await send(client, step.request, workspaceUri);
            if ((answer as { isError?: unknown }).isError !== true) answered += 1;
            inspectAnswer(fixture, answer, tally);
          } catch (error) {
            inspectAnswer(fixture, error instanceof Error ? error.message : String(error), tally);
          }
          step.after?.();
        }
      } catch (error) {
        halted = true;
        throw error;
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    const ran = (Date.now() - started) / 1000;

    // Swapping goes on until the last call is answered; the helper puts the names back as it stops.
    const stopped = await runningSwapper.stop();
    swapper = undefined;
    if (stopped.error !== undefined) {
      return { tool: plan.name, configuration, status: 'failed', reason: `swap helper: ${stopped.error}`, calls, answered, swaps: stopped.swaps, seconds: ran };
    }
    await connection.client.close();
    connection = undefined;
    const { examples, ...answers } = tally;
    const disk = auditDisk(fixture);
    const counts: RaceCounts = { ...answers, ...disk.counts };
    return { tool: plan.name, configuration, status: 'ran', calls, answered, swaps: stopped.swaps, seconds: ran, counts, examples, paths: disk.paths };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { tool: plan.name, configuration, status: 'failed', reason: message, calls: 0, answered: 0, swaps: 0, seconds: (Date.now() - started) / 1000 };
  } finally {
    swapper?.kill();
    await connection?.client.close().catch(() => undefined);
    for (const cleanup of cleanups.reverse()) {
      try {
        cleanup();
      } catch {
        // the rest still needs cleaning
      }
      liveCleanups.delete(cleanup);
    }
  }
}

/** Selected plans in the order PLANS lists them; an unknown name is an error, not silently nothing. */
export function selectPlans(names: readonly string[] | undefined): ToolPlan[] {
  if (names === undefined || names.length === 0) return [...PLANS];
  const unknown = names.filter((name) => !PLANS.some((plan) => plan.name === name));
  if (unknown.length > 0) throw new Error(`unknown tool ${unknown.join(', ')}; known: ${PLANS.map((plan) => plan.name).join(', ')}`);
  return PLANS.filter((plan) => names.includes(plan.name));
}

/**
 * Runs every selected tool in every selected configuration, one after the other. Returns the
 * rows; a skipped race (no swap helper) returns no rows and says why in `swapHelper`.
 */
export async function runRace(options: RaceOptions): Promise<RaceReport> {
  const plans = selectPlans(options.tools);
  const configurations = options.configurations ?? CONFIGURATIONS;
  const swapHelper = prepareSwapHelper();
  const sandbox = configurations.includes('ours-sandbox') ? sandboxAvailability() : { available: false, reason: 'not asked for' };
  const server = path.resolve(options.server ?? ourServer);
  const report = { seconds: options.seconds, server, workers: WORKERS, swapHelper, sandbox, rows: [] as RaceRow[] };
  if (!swapHelper.ok) return report;
  if (configurations.some(isOurs) && !fs.existsSync(server)) throw new Error(`${server} is missing: build first (npm run build)`);
  interrupted = false;

  for (const plan of plans) {
    for (const configuration of configurations) {
      if (interrupted) return report;
      const base = { tool: plan.name, configuration, calls: 0, answered: 0, swaps: 0, seconds: 0 };
      let row: RaceRow;
      if (!plan.targets.includes(targetOf(configuration))) row = { ...base, status: 'not offered', reason: 'the server has no such tool' };
      else if (configuration === 'ours-sandbox' && !sandbox.available) row = { ...base, status: 'unavailable', reason: sandbox.reason };
      else if (configuration === 'reference' && !fs.existsSync(referenceServer)) row = { ...base, status: 'unavailable', reason: `${referenceServer} is missing (npm ci)` };
      else row = await runOne(plan, configuration, options.seconds, swapHelper.binary, server);
      report.rows.push(row);
      options.progress?.(describeRow(row));
    }
  }
  return report;
}

function describeRow(row: RaceRow): string {
  const head = `${row.tool} / ${row.configuration}`;
  if (row.status !== 'ran') return `${head}: ${row.status}${row.reason ? ` (${row.reason})` : ''}`;
  const counts = COUNT_NAMES.map((name) => `${name} ${row.counts![name]}`).join(', ');
  return `${head}: ${row.calls} calls (${row.answered} answered), ${row.swaps} swaps; ${counts}`;
}

/** Rows that break the promise: ours with any count above zero, or ours that could not run the race. */
export function failingRows(report: RaceReport): RaceRow[] {
  return report.rows.filter(
    (row) => isOurs(row.configuration) && (row.status === 'failed' || (row.counts !== undefined && COUNT_NAMES.some((name) => row.counts![name] > 0))),
  );
}

/** The table printed on stdout: one row per tool and configuration, a column per count. */
export function formatTable(report: RaceReport): string {
  const header = ['tool', 'configuration', 'calls', 'answered', 'swaps', ...COUNT_NAMES];
  const lines: string[][] = [header];
  const notes: string[] = [];
  for (const row of report.rows) {
    if (row.status === 'ran') {
      lines.push([row.tool, row.configuration, String(row.calls), String(row.answered), String(row.swaps), ...COUNT_NAMES.map((name) => String(row.counts![name]))]);
    } else {
      lines.push([row.tool, row.configuration, row.status, ...COUNT_NAMES.map(() => '-'), '-', '-']);
      if (row.reason !== undefined && row.status !== 'not offered') notes.push(`${row.tool} / ${row.configuration}: ${row.status}: ${row.reason}`);
    }
  }
  const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  const render = (line: string[]) => line.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  const rendered = lines.map(render);
  rendered.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
  return [...rendered, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
}
