// Section: system calls per tool call, counted with strace on the serving process (ours with the
// sandbox off, and the reference), after a warm-up, over many calls. What touches the disk is
// counted by name; the stdio pipe's reads and writes and the event loop's waits are left out:
// every server pays them the same for one request and its answer.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRoundTripWorkspace, removeTempDir, FILE_4K, WRITES_FOLDER } from './fixtures.js';
import { startServer, type Configuration } from './servers.js';
import { renderTable } from './stats.js';

export interface SyscallSettings {
  readonly calls: number;
  readonly warmupCalls: number;
}

export const FULL_SYSCALLS: SyscallSettings = { calls: 200, warmupCalls: 50 };
export const QUICK_SYSCALLS: SyscallSettings = { calls: 40, warmupCalls: 10 };

interface Probe {
  readonly id: string;
  readonly label: string;
  ours(workspaceUri: string, n: number): { tool: string; args: Record<string, unknown> };
  reference(root: string, n: number): { tool: string; args: Record<string, unknown> };
}

const PROBES: readonly Probe[] = [
  {
    id: 'read_text_file',
    label: `read_text_file 4 KiB, 5 folders deep`,
    ours: (workspaceUri) => ({ tool: 'read_text_file', args: { workspaceUri, path: FILE_4K } }),
    reference: (root) => ({ tool: 'read_text_file', args: { path: path.join(root, FILE_4K) } }),
  },
  {
    id: 'get_file_info',
    label: `get_file_info, 5 folders deep`,
    ours: (workspaceUri) => ({ tool: 'get_file_info', args: { workspaceUri, path: FILE_4K } }),
    reference: (root) => ({ tool: 'get_file_info', args: { path: path.join(root, FILE_4K) } }),
  },
  {
    id: 'write_file',
    label: 'write_file, a new file each call',
    ours: (workspaceUri, n) => ({ tool: 'write_file', args: { workspaceUri, path: `${WRITES_FOLDER}/sys-${n}.txt`, content: 'x\n' } }),
    reference: (root, n) => ({ tool: 'write_file', args: { path: path.join(root, WRITES_FOLDER, `sys-ref-${n}.txt`), content: 'x\n' } }),
  },
];

export interface SyscallRow {
  readonly id: string;
  readonly label: string;
  /** By server: system calls per tool call, in all and by name (at least 0.05 per call). */
  readonly servers: Partial<Record<Configuration, { readonly total: number; readonly byName: Record<string, number> }>>;
}

export interface SyscallReport {
  readonly available: boolean;
  readonly reason: string;
  readonly rows: readonly SyscallRow[];
}

/** The event loop's own calls, and the pipe to the client: the same for any server. */
const LOOP = new Set(['epoll_wait', 'epoll_pwait', 'epoll_pwait2', 'epoll_ctl', 'futex', 'clock_gettime', 'getpid', 'rt_sigprocmask', 'madvise', 'mprotect', 'munmap', 'mmap', 'brk']);

function straceMissing(): string | undefined {
  if (process.platform !== 'linux') return 'strace is Linux only';
  if (spawnSync('strace', ['-V']).status !== 0) return 'strace is not installed (package strace)';
  return undefined;
}

/** Counts the system calls of `pid` and its threads while `work` runs. */
async function counted(pid: number, work: () => Promise<void>): Promise<Map<string, number>> {
  const out = fs.mkdtempSync(path.join(fs.realpathSync(require('node:os').tmpdir()), 'bi-strace-'));
  const file = path.join(out, 'trace');
  const tracer = spawn('strace', ['-f', '-qq', '-o', file, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  // strace writes the file once it has attached to every thread.
  for (let waited = 0; !fs.existsSync(file) || fs.statSync(file).size === 0; waited += 20) {
    if (waited > 10_000) throw new Error('strace did not attach');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const startAt = fs.statSync(file).size;
  await work();
  await new Promise((resolve) => setTimeout(resolve, 200));
  tracer.kill('SIGINT');
  await new Promise((resolve) => tracer.on('exit', resolve));
  const text = fs.readFileSync(file, 'utf8').slice(startAt);
  fs.rmSync(out, { recursive: true, force: true });
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const call = /^(?:\d+\s+)?(?:<\.\.\. )?([a-z_0-9]+)[( ]/.exec(line);
    if (!call || line.includes('resumed>')) continue;
    const name = call[1]!;
    if (LOOP.has(name)) continue;
    // The pipe to the client: reads of stdin, writes to stdout and stderr.
    if (/^(?:\d+\s+)?(read|write|writev|readv)\([012],/.test(line)) continue;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

export async function runSyscalls(settings: SyscallSettings, bundle: string, log: (line: string) => void): Promise<SyscallReport> {
  const missing = straceMissing();
  if (missing !== undefined) return { available: false, reason: missing, rows: [] };
  const rows: SyscallRow[] = [];
  for (const probe of PROBES) {
    const servers: SyscallRow['servers'] = {};
    for (const configuration of ['ours-off', 'reference'] as const) {
      const workspace = createRoundTripWorkspace();
      const server = await startServer(configuration, workspace.root, { bundle });
      try {
        const workspaceUri = pathToFileURL(workspace.root).href;
        const call = (n: number) => {
          const { tool, args } = configuration === 'reference' ? probe.reference(workspace.root, n) : probe.ours(workspaceUri, n);
          return server.call(tool, args);
        };
        for (let n = 0; n < settings.warmupCalls; n++) await call(n);
        const counts = await counted(server.pid, async () => {
          for (let n = settings.warmupCalls; n < settings.warmupCalls + settings.calls; n++) {
            const answer = await call(n);
            if (answer.isError === true) throw new Error(`${configuration} ${probe.id}: ${JSON.stringify(answer).slice(0, 300)}`);
          }
        });
        const byName: Record<string, number> = {};
        let total = 0;
        for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1])) {
          const perCall = count / settings.calls;
          total += perCall;
          if (perCall >= 0.05) byName[name] = Math.round(perCall * 10) / 10;
        }
        servers[configuration] = { total: Math.round(total * 10) / 10, byName };
        log(`syscalls: ${probe.id} ${configuration}: ${servers[configuration]!.total} per call`);
      } finally {
        await server.close();
        removeTempDir(workspace.root);
      }
    }
    rows.push({ id: probe.id, label: probe.label, servers });
  }
  return { available: true, reason: '', rows };
}

export function formatSyscalls(report: SyscallReport): string {
  if (!report.available) return `System calls per tool call: not measured (${report.reason}).\n`;
  const shown = (counts: { total: number; byName: Record<string, number> } | undefined) =>
    counts === undefined ? '-' : `${counts.total} (${Object.entries(counts.byName).map(([name, n]) => `${n} ${name}`).join(', ')})`;
  return `System calls per tool call (strace, after a warm-up; the client pipe and the event loop left out)\n${renderTable(
    ['call', 'ours, sandbox off', 'reference'],
    report.rows.map((row) => [row.label, shown(row.servers['ours-off']), shown(row.servers.reference)]),
  )}\n`;
}
