/**
 * Whether the agent's server runs. The editor's API does not say whether an MCP server it
 * started is running, so the extension looks for the process itself: the one started with its
 * server definition's command line (the bundled script and this window's refusal log). On Linux
 * from /proc, on macOS and the BSDs from `ps`; on Windows it is not told. No `vscode` here, so
 * this is tested without an editor.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerStatus } from '../shared/messages.js';

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  /** The command line, its arguments joined by single spaces. */
  readonly args: string;
}

/** How often a watched server is looked for. */
export const SERVER_WATCH_MS = 2_000;

/** The processes whose command line `wanted` accepts; read without blocking, the parent only of those. */
async function fromProc(wanted: (args: string) => boolean): Promise<ProcessEntry[]> {
  const names = (await fs.promises.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const found = await Promise.all(names.map(async (name): Promise<ProcessEntry | undefined> => {
    try {
      const args = (await fs.promises.readFile(`/proc/${name}/cmdline`, 'latin1')).replace(/\0+$/, '').split('\0').join(' ');
      if (args === '' || !wanted(args)) return undefined;
      // The parent is the field after the state, past the command's name, which may hold spaces and parentheses.
      const stat = await fs.promises.readFile(`/proc/${name}/stat`, 'latin1');
      return { pid: Number(name), ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), args };
    } catch {
      return undefined; // gone meanwhile, or not ours to read
    }
  }));
  return found.filter((entry) => entry !== undefined);
}

function fromPs(wanted: (args: string) => boolean): Promise<ProcessEntry[] | undefined> {
  // node:child_process is required here, not at activation: loading it costs milliseconds of the editor's start.
  const { execFile } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-ww', '-o', 'pid=,ppid=,args='], { maxBuffer: 64 * 1024 * 1024, timeout: 10_000 }, (error, stdout) => {
      if (error) return resolve(undefined);
      const entries: ProcessEntry[] = [];
      for (const line of stdout.split('\n')) {
        const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
        if (match && wanted(match[3]!)) entries.push({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! });
      }
      resolve(entries);
    });
  });
}

/** The processes this user may see whose command line `wanted` accepts, or undefined where they cannot be listed (Windows). */
export async function listProcesses(wanted: (args: string) => boolean, platform: NodeJS.Platform = process.platform): Promise<ProcessEntry[] | undefined> {
  if (platform === 'win32') return undefined;
  return platform === 'linux' ? fromProc(wanted).catch(() => fromPs(wanted)) : fromPs(wanted);
}

/** What the extension gives the editor for its server: the script and the arguments after it. */
export interface ServerCommand {
  readonly script: string;
  readonly args: readonly string[];
  readonly refusalLog: string;
}

/** A command line of the bundled server writing this refusal log, not a check of its sandbox. */
export function isServerOf(command: ServerCommand, args: string): boolean {
  return args.includes(command.script) && args.includes(`--refusal-log ${command.refusalLog}`) && !args.includes('--check-sandbox');
}

/** The programs that wrap the server in its sandbox, by the name their process shows. */
const SANDBOX_PROGRAMS: Readonly<Record<string, string>> = { bwrap: 'bubblewrap' };

/**
 * The agent's server among `processes`: a process of the bundled script writing this window's
 * refusal log, outermost (the sandboxed server inside it carries the same arguments), not one of
 * `own` (the inspector's own server for "Run on the server") nor a sandbox check.
 */
export function serverStatus(processes: readonly ProcessEntry[] | undefined, command: ServerCommand, own: ReadonlySet<number> = new Set()): ServerStatus {
  if (command.args.length === 0) return { kind: 'none' };
  if (processes === undefined) return { kind: 'unknown' };
  const matching = processes.filter((entry) => isServerOf(command, entry.args));
  const pids = new Set(matching.map((entry) => entry.pid));
  const outer = matching.filter((entry) => !pids.has(entry.ppid) && !own.has(entry.pid));
  const server = outer.at(-1);
  if (server === undefined) return { kind: 'stopped' };
  const wrapper = matching.find((entry) => entry.ppid === server.pid && SANDBOX_PROGRAMS[path.basename(entry.args.split(' ')[0] ?? '')] !== undefined);
  return {
    kind: 'running',
    pid: server.pid,
    current: server.args.endsWith([command.script, ...command.args].join(' ')),
    sandbox: wrapper === undefined ? null : SANDBOX_PROGRAMS[path.basename(wrapper.args.split(' ')[0]!)]!,
  };
}

/**
 * Looks for the server every SERVER_WATCH_MS while something shows it (`hold`), and tells
 * `onChange` when what it finds changes.
 */
export class ServerWatch {
  private latest: ServerStatus = { kind: 'unknown' };
  private holders = 0;
  private timer: NodeJS.Timeout | undefined;
  private looking = false;
  private again = false;

  constructor(
    private readonly probe: () => Promise<ServerStatus>,
    private readonly onChange: (status: ServerStatus) => void,
  ) {}

  get status(): ServerStatus {
    return this.latest;
  }

  /** Looks now (a start asked for, a view shown). */
  check(): void {
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    void this.probe()
      .catch((): ServerStatus => ({ kind: 'unknown' }))
      .then((found) => {
        this.looking = false;
        const changed = JSON.stringify(found) !== JSON.stringify(this.latest);
        this.latest = found;
        if (changed) this.onChange(found);
        if (this.again) {
          this.again = false;
          this.check();
        }
      });
  }

  /** Keeps looking while the returned handle is not disposed. */
  hold(): { dispose(): void } {
    this.holders += 1;
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.check(), SERVER_WATCH_MS);
      this.check();
    }
    let held = true;
    return {
      dispose: () => {
        if (!held) return;
        held = false;
        this.holders -= 1;
        if (this.holders === 0) this.stop();
      },
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
