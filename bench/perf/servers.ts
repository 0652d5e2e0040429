// Starting the servers under test and talking to them with the v1 SDK client, the one client both
// speak (2025-11-25 `initialize`). Ours runs from a copy of dist/server.js taken when the run
// starts, so a rebuild by someone else halfway through cannot change what is measured.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sandboxAvailability, sandboxLayer, type SandboxAvailability } from '../race/harness.js';
import { childrenOf, processTreeCpuMs } from '../../test/server/rawServer.js';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const builtServer = path.join(repoRoot, 'dist', 'server.js');
export const referenceServer = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
/** Where the runner writes what it measured, and where the profiler looks for rows below goal. */
export const DEFAULT_RESULTS_FILE = path.join(repoRoot, 'bench', 'results.json');

export const CONFIGURATIONS = ['reference', 'ours-off', 'ours-sandbox', 'floor'] as const;
export type Configuration = (typeof CONFIGURATIONS)[number];
/** Our server, as it runs. */
export type OursConfiguration = Exclude<Configuration, 'reference' | 'floor'>;

export const CONFIGURATION_LABELS: Readonly<Record<Configuration, string>> = {
  reference: 'reference',
  'ours-off': 'ours, sandbox off',
  'ours-sandbox': 'ours, sandbox on',
  floor: 'floor: no SDK, no checks',
};

/** The no-check floor (floorServer.mjs): the least a stdio server can do for a call. */
export const floorServer = path.join(repoRoot, 'bench', 'perf', 'floorServer.mjs');

/** A call that hangs fails the row instead of the whole run. */
const CALL_TIMEOUT_MS = 120_000;

export interface ToolAnswer {
  readonly isError?: boolean;
  readonly content: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
}

export function answerText(answer: ToolAnswer): string {
  return answer.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** Raised when a sandbox run was asked for and the server could not sandbox itself. */
export class UnavailableError extends Error {}

export interface RunningServer {
  readonly configuration: Configuration;
  /** The process the client spawned (with the sandbox on, the launcher outside bubblewrap). */
  readonly pid: number;
  stderr(): string;
  call(tool: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  /** The tools/list result's tools, as the server sent them. */
  listTools(): Promise<readonly Record<string, unknown>[]>;
  /** VmHWM of the spawned process, in bytes; null where /proc is not there. */
  peakRssBytes(): number | null;
  /** CPU time of the server's process tree so far, in ms; null where /proc is not there. */
  cpuMs(): number | null;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Our bundle to run (a snapshot of dist/server.js). */
  readonly bundle: string;
  /** Flags for node itself, before the script (e.g. --cpu-prof). */
  readonly nodeFlags?: readonly string[];
  /** The one CPU the server, and every process it starts, runs on (taskset); any, when absent. */
  readonly cpu?: number;
}

/** The CPUs this process may run on, as taskset lists them ("0-1", "0,2-3"); undefined without taskset. */
function allowedCpus(): string | undefined {
  try {
    return /affinity list:\s*(\S+)/.exec(execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))?.[1];
  } catch {
    return undefined;
  }
}

/** Whether --pin can put the client and the servers on CPUs of their own: taskset, and CPUs 0 and 1 allowed. */
export function pinningWorks(): boolean {
  const cpus = new Set<number>();
  for (const part of allowedCpus()?.split(',') ?? []) {
    const [from, to = from] = part.split('-').map(Number);
    for (let cpu = from!; cpu <= to!; cpu++) cpus.add(cpu);
  }
  return cpus.has(CLIENT_CPU) && cpus.has(SERVER_CPU);
}

/** Where --pin runs the client, and every server. */
export const CLIENT_CPU = 0;
export const SERVER_CPU = 1;

/**
 * Runs this process's threads on `cpu` only (taskset); what it returns puts back the CPUs they
 * had. For side-by-side runs on a small machine: the client on one CPU, the servers on another.
 */
export function pinThisProcess(cpu: number): () => void {
  const before = allowedCpus();
  if (before === undefined) throw new Error('taskset did not say which CPUs this process runs on');
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
  return () => execFileSync('taskset', ['-a', '-p', '-c', before, String(process.pid)], { stdio: 'ignore' });
}

export function serverArguments(configuration: Configuration, workspace: string, bundle: string): string[] {
  if (configuration === 'reference') return [referenceServer, workspace];
  if (configuration === 'floor') return [floorServer, workspace];
  const sandbox = configuration === 'ours-off' ? ['--sandbox', 'off'] : [];
  return [bundle, '--workspace', pathToFileURL(workspace).href, ...sandbox];
}

export function peakRssOf(pid: number): number | null {
  return memoryOf(pid, 'VmHWM');
}

/** VmHWM (the peak resident set) or VmRSS (the resident set now) from /proc/<pid>/status, in bytes. */
function memoryOf(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const line = new RegExp(`^${field}:\\s+(\\d+)\\s*kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The largest VmHWM or VmRSS (bytes) among a process and everything below it: with the sandbox
 * on, the server proper is a grandchild. Null where /proc is not there.
 */
export function processTreeMemory(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  const own = memoryOf(pid, field);
  if (own === null) return null;
  return Math.max(own, ...childrenOf(pid).map((child) => processTreeMemory(child, field) ?? 0));
}

export async function startServer(configuration: Configuration, workspace: string, options: StartOptions): Promise<RunningServer> {
  const node = [process.execPath, ...(options.nodeFlags ?? []), ...serverArguments(configuration, workspace, options.bundle)];
  // taskset executes node in its own process: the pid is the server's.
  const command = options.cpu === undefined ? node : ['taskset', '-c', String(options.cpu), ...node];
  const transport = new StdioClientTransport({
    command: command[0]!,
    args: command.slice(1),
    stderr: 'pipe',
    cwd: path.dirname(workspace),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // No roots capability: the reference server would take the client's roots over its command line.
  const client = new Client({ name: 'bi-perf', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error(`${configuration}: the server process has no pid`);
  const server: RunningServer = {
    configuration,
    pid,
    stderr: () => stderr,
    // The output schemas are never listed, so the client does not validate answers: its cost stays the same for both servers.
    call: async (tool, args) => (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS })) as unknown as ToolAnswer,
    listTools: async () => (await client.listTools()).tools as unknown as Record<string, unknown>[],
    peakRssBytes: () => peakRssOf(pid),
    cpuMs: () => processTreeCpuMs(pid),
    close: () => client.close(),
  };
  if (configuration === 'ours-sandbox') {
    const layer = await sandboxLayer(client);
    if (!layer.active) {
      await server.close();
      throw new UnavailableError(`the server did not sandbox itself: ${layer.detail}`);
    }
  }
  return server;
}

let cachedSandbox: SandboxAvailability | undefined;

/** Whether bubblewrap can run here, probed once per run. */
export function sandbox(): SandboxAvailability {
  cachedSandbox ??= sandboxAvailability();
  return cachedSandbox;
}

/** Copies dist/server.js (and its map, for profiles) into `folder`; returns the copy's path. */
export function snapshotBundle(folder: string): string {
  if (!fs.existsSync(builtServer)) throw new Error(`${builtServer} is missing: run npm run build first`);
  fs.mkdirSync(folder, { recursive: true });
  const copy = path.join(folder, 'server.js');
  fs.copyFileSync(builtServer, copy);
  if (fs.existsSync(`${builtServer}.map`)) fs.copyFileSync(`${builtServer}.map`, `${copy}.map`);
  return copy;
}
