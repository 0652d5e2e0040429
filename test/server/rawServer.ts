// A client that speaks raw newline-delimited JSON-RPC to the built server, for what no SDK client
// would send (over-long lines, broken JSON, thousands of calls at once) and for measuring the
// server process itself (its pid, its peak and current RSS from /proc/<pid>/status, the CPU it
// used from /proc/<pid>/stat).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expireAfter, patience } from '../patience.js';

/** The built server, dist/server.js: the process the extension starts. */
export const serverBundle = path.resolve(__dirname, '../../dist/server.js');

export interface ServerProcessOptions {
  readonly bundle?: string;
  /** `--sandbox off` is added by default; `auto` asks for the sandbox; `as given` adds nothing to the arguments. */
  readonly sandbox?: 'off' | 'auto' | 'as given';
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Descriptors the server may open (ulimit -n), to show what a walk holds open. */
  readonly maxDescriptors?: number;
  /** A descriptor the server inherits, at the given number: what a launcher might leave open. */
  readonly inherit?: { readonly fd: number; readonly at: number };
}

/** The server's process as every test starts it: this runtime, the bundle, the arguments. An SDK client's transport takes this and spawns it itself. */
export function serverCommand(args: readonly string[], options: Pick<ServerProcessOptions, 'bundle' | 'sandbox'> = {}): { command: string; args: string[] } {
  const sandbox = options.sandbox ?? 'off';
  return { command: process.execPath, args: [options.bundle ?? serverBundle, ...args, ...(sandbox === 'as given' ? [] : ['--sandbox', sandbox])] };
}

/** Starts the server as a process, its three standard streams piped. */
export function spawnServer(args: readonly string[], options: ServerProcessOptions = {}): ChildProcessWithoutNullStreams {
  const { command, args: argv } = serverCommand(args, options);
  const inherited = options.inherit === undefined ? [] : [...Array<'ignore'>(options.inherit.at - 3).fill('ignore'), options.inherit.fd];
  const spawnOptions = { stdio: ['pipe', 'pipe', 'pipe', ...inherited] as ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env, ...(options.cwd !== undefined ? { cwd: options.cwd } : {}) };
  // exec keeps the server's own pid, so /proc/<pid> is the server's.
  return options.maxDescriptors === undefined
    ? spawn(command, argv, spawnOptions)
    : spawn('/bin/sh', ['-c', `ulimit -n ${options.maxDescriptors} && exec "$0" "$@"`, command, ...argv], spawnOptions);
}

export interface RawMessage {
  readonly jsonrpc?: unknown;
  readonly id?: string | number | null;
  readonly method?: string;
  readonly result?: Record<string, any>;
  readonly error?: { code: number; message: string; data?: unknown };
}

export interface Memory {
  /** VmHWM: the peak resident set since the process started, in MiB. */
  readonly peakMiB: number;
  /** VmRSS: the resident set now, in MiB. */
  readonly rssMiB: number;
}

export interface RawServerOptions extends Omit<ServerProcessOptions, 'sandbox'> {
  /** Run it in its sandbox (--sandbox auto) instead of without. */
  readonly sandboxed?: boolean;
}

function keyOf(id: string | number): string {
  return `${typeof id}:${id}`;
}

export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Messages that answer no request this client is waiting for (id null, or unknown ids). */
  readonly unmatched: RawMessage[] = [];
  readonly exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiting = new Map<string, (message: RawMessage) => void>();
  private readonly watchers = new Set<() => void>();
  private partial: Buffer[] = [];
  private stderrText = '';
  private nextId = 1;
  private exitedNow = false;

  private constructor(args: readonly string[], options: RawServerOptions) {
    this.child = spawnServer(args, { ...options, sandbox: options.sandboxed === true ? 'auto' : 'off' });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderrText.length < 1_000_000) this.stderrText += chunk.toString();
    });
    this.child.stdin.on('error', () => {
      // the server may be gone: the test judges that
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (status, signal) => {
        this.exitedNow = true;
        resolve({ status, signal });
        for (const watcher of this.watchers) watcher();
      });
    });
  }

  static start(args: readonly string[], options: RawServerOptions = {}): RawServer {
    return new RawServer(args, options);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return !this.exitedNow;
  }

  stderr(): string {
    return this.stderrText;
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.partial.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.partial).toString('utf8');
      this.partial = [];
      start = newline + 1;
      if (line.trim() !== '') this.dispatch(JSON.parse(line) as RawMessage);
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }

  private dispatch(message: RawMessage): void {
    const answered = message.id !== undefined && message.id !== null && message.method === undefined ? this.waiting.get(keyOf(message.id)) : undefined;
    if (answered) {
      this.waiting.delete(keyOf(message.id!));
      answered(message);
    } else this.unmatched.push(message);
    for (const watcher of this.watchers) watcher();
  }

  /** Writes bytes exactly as given: the caller adds the newline. */
  write(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  send(message: Record<string, unknown>): void {
    this.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  newId(): number {
    const id = this.nextId;
    this.nextId += 1;
    return id;
  }

  /** Resolves with the answer to `id`, or rejects when the server exits first or the answer does not come (patience.ts). */
  answerTo(id: string | number, quietMs = 30_000): Promise<RawMessage> {
    return new Promise((resolve, reject) => {
      const cancel = expireAfter(quietMs, (limit) => {
        this.waiting.delete(keyOf(id));
        this.watchers.delete(gone);
        reject(new Error(`no answer to request ${id} within ${limit} ms; the server is ${this.alive ? 'running' : 'gone'}; stderr:\n${this.stderrText.slice(-2000)}`));
      });
      const gone = () => {
        if (!this.alive && this.waiting.has(keyOf(id))) {
          cancel();
          this.waiting.delete(keyOf(id));
          this.watchers.delete(gone);
          reject(new Error(`the server exited before answering request ${id}; stderr:\n${this.stderrText.slice(-2000)}`));
        }
      };
      this.watchers.add(gone);
      this.waiting.set(keyOf(id), (message) => {
        cancel();
        this.watchers.delete(gone);
        resolve(message);
      });
      gone();
    });
  }

  request(method: string, params?: Record<string, unknown>, quietMs?: number): Promise<RawMessage> {
    const id = this.newId();
    const answer = this.answerTo(id, quietMs);
    this.send({ id, method, ...(params !== undefined ? { params } : {}) });
    return answer;
  }

  call(name: string, args: Record<string, unknown>, quietMs?: number): Promise<RawMessage> {
    return this.request('tools/call', { name, arguments: args }, quietMs);
  }

  /** The 2025-11-25 handshake. */
  async initialize(): Promise<void> {
    const answer = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    if (answer.error) throw new Error(`initialize failed: ${answer.error.message}`);
    this.send({ method: 'notifications/initialized' });
  }

  /** Waits until an unmatched message satisfies `predicate`. */
  waitForUnmatched(predicate: (message: RawMessage) => boolean, quietMs = 30_000): Promise<RawMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.unmatched.find(predicate);
        if (found) {
          cancel();
          this.watchers.delete(check);
          resolve(found);
        } else if (!this.alive) {
          cancel();
          this.watchers.delete(check);
          reject(new Error(`the server exited; stderr:\n${this.stderrText.slice(-2000)}`));
        }
      };
      const cancel = expireAfter(quietMs, (limit) => {
        this.watchers.delete(check);
        reject(new Error(`no such message within ${limit} ms; unmatched so far: ${JSON.stringify(this.unmatched).slice(0, 500)}`));
      });
      this.watchers.add(check);
      check();
    });
  }

  memory(): Memory {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { peakMiB: kib('VmHWM') / 1024, rssMiB: kib('VmRSS') / 1024 };
  }

  /** CPU the server has used (processTreeCpuMs): the work it did, which a busy machine does not stretch as it stretches the time an answer takes. */
  cpuMs(): number {
    return processTreeCpuMs(this.pid) ?? NaN;
  }

  /** Waits for the resident set to fall under `mib` (patience.ts); returns the last reading. */
  async settle(mib: number, quietMs = 10_000): Promise<Memory> {
    const deadline = Date.now() + patience(quietMs);
    for (;;) {
      const memory = this.memory();
      if (memory.rssMiB < mib || Date.now() > deadline) return memory;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Closes stdin (end of input) and waits for the exit; kills it if it does not come (patience.ts). */
  async close(quietMs = 30_000): Promise<{ status: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin.end();
    const cancel = expireAfter(quietMs, () => this.kill());
    try {
      return await this.exited;
    } finally {
      cancel();
    }
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }
}

/** Clock ticks per second in /proc/<pid>/stat: 100 on every Linux this runs on (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

/** The processes a process started, by pid. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) if (child.trim() !== '') children.push(Number(child));
    } catch {
      // the task ended meanwhile
    }
  }
  return children;
}

/**
 * CPU time (user + system, ms) of a process and everything below it: with the sandbox on, the
 * server proper is a grandchild (launcher, bubblewrap, node). Null where /proc is not there.
 */
export function processTreeCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name, which may hold spaces: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let total = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  for (const child of childrenOf(pid)) total += processTreeCpuMs(child) ?? 0;
  return total;
}

/** The text of a tools/call answer. */
export function answerText(message: RawMessage): string {
  return ((message.result?.content ?? []) as { type: string; text?: string }[])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}
