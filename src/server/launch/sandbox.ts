import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Platform, Spellings } from '../../core/index.js';
import { realPathOr } from '../../host/node.js';
import { thisProcess } from '../fs/index.js';
import { SANDBOX_EXEC, sandboxProspect, sandboxSummary, type SandboxMechanism, type SandboxState } from '../../host/protection.js';
import { bubblewrapArgs, type BubblewrapConfig } from './bubblewrap.js';
import { seatbeltProfile } from './seatbelt.js';
import { closeInheritedDescriptors } from './descriptors.js';
import { seccompArchitecture, seccompFilter } from './seccomp.js';
import { sandboxGaps } from './sandboxCheck.js';
import { namespacesOf, sandboxEnvironment, sandboxMarker, type SandboxMarker } from './sandboxEnvironment.js';

/** Everything the server's sandbox is built from: the same for the server's relaunch and for the tests. */
export interface SandboxConfig extends BubblewrapConfig {
  readonly platform: Platform;
  /**
   * The refusal log, absolute. The launcher outside writes it, fed over a channel by the server
   * inside, which never sees the log's files.
   */
  readonly refusalLog?: string | undefined;
  /** This machine's other spellings, as the launcher read them: handed to the server inside. */
  readonly spellings?: Spellings | undefined;
  /** Linux: the processor the seccomp filter is built for (`process.arch` unless given). */
  readonly arch?: string | undefined;
}

/** The descriptor of the channel to the launcher, after stdio and the seccomp program's (SECCOMP_FD). */
export const LAUNCHER_CHANNEL_FD = 4;
/** What the program inside writes first on the channel, once it runs: the sandbox was set up. */
export const STARTED_INSIDE = 'R';

/** How to start a command inside the sandbox: spawn it with `spawnSandboxed` or `spawnSandboxedSync`. */
export interface SandboxLaunch {
  readonly command: string;
  readonly args: string[];
  /** The whole environment of the launch: the allowlist and the marker, nothing of the caller's. */
  readonly env: Record<string, string>;
  /** The seccomp program bubblewrap reads from SECCOMP_FD; absent where there is none. */
  readonly seccomp?: Buffer | undefined;
}

/**
 * How to run `command args` inside exactly the sandbox the server runs in: the server's relaunch,
 * the attack probe and the tests all come through here. Throws on a platform without one.
 */
export function sandboxLaunch(config: SandboxConfig, command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): SandboxLaunch {
  const mechanism = sandboxMechanism(config.platform);
  const channel = {
    channel: LAUNCHER_CHANNEL_FD,
    writer: thisProcess(),
    ...(config.refusalLog === undefined ? {} : { refusalLog: config.refusalLog }),
    ...(config.spellings === undefined ? {} : { spellings: config.spellings }),
  };
  if (mechanism === 'bubblewrap') {
    const arch = seccompArchitecture(config.arch ?? process.arch);
    const marker: SandboxMarker = {
      mechanism,
      outside: namespacesOf('self'),
      seccomp: arch !== undefined,
      ...channel,
    };
    const inside = sandboxEnvironment(env, marker);
    return {
      command: config.bwrap ?? 'bwrap',
      args: [...bubblewrapArgs(config, inside, arch !== undefined), '--', command, ...args],
      env: inside,
      seccomp: arch === undefined ? undefined : seccompFilter(arch),
    };
  }
  if (mechanism === 'sandbox-exec') {
    const marker: SandboxMarker = { mechanism, ...channel };
    const profile = seatbeltProfile({
      // Seatbelt judges the path the kernel resolved, in the disk's own case.
      workspaces: config.workspaces.map((w) => ({ ...w, realPath: realPathOr(w.realPath) })),
      runtime: [...new Set([config.runtime, realPathOr(config.runtime)])],
      libraries: config.runtime === process.execPath ? loadedLibraries() : [],
      script: config.script === undefined ? [] : [...new Set([config.script, realPathOr(config.script)])],
    });
    return { command: SANDBOX_EXEC, args: ['-p', profile, command, ...args], env: sandboxEnvironment(env, marker) };
  }
  throw new Error(`there is no operating-system sandbox for this server on ${config.platform}`);
}

/** The shared libraries this process has loaded, as opened and by their real paths (Node's diagnostic report lists them). */
function loadedLibraries(): string[] {
  const report = process.report?.getReport() as { sharedObjects?: unknown } | undefined;
  const objects = Array.isArray(report?.sharedObjects) ? report.sharedObjects.filter((item): item is string => typeof item === 'string') : [];
  return [...new Set(objects.flatMap((library) => [library, realPathOr(library)]))];
}

/**
 * Runs `use` with the launch's seccomp program readable from a descriptor: a private file, unlinked
 * at once, so nothing is left on disk and the descriptor is all there is. Closed afterwards.
 */
function withSeccompDescriptor<T>(launch: SandboxLaunch, use: (fd: number | 'ignore') => T): T {
  if (launch.seccomp === undefined) return use('ignore');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-seccomp-'));
  const file = path.join(folder, 'filter');
  let fd: number;
  try {
    fs.writeFileSync(file, launch.seccomp, { mode: 0o600 });
    fd = fs.openSync(file, 'r');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
  try {
    return use(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** stdio for a sandboxed child: the caller's three, the seccomp program, and the channel to the launcher (a socket). */
function sandboxStdio(stdio: readonly ('inherit' | 'pipe' | 'ignore')[], seccompFd: number | 'ignore'): StdioOptions {
  return [...stdio, seccompFd, 'pipe'];
}

/** Starts a launch; `child.stdio[LAUNCHER_CHANNEL_FD]` is the launcher's end of the channel. */
export function spawnSandboxed(launch: SandboxLaunch, stdio: readonly ('inherit' | 'pipe' | 'ignore')[] = ['inherit', 'inherit', 'inherit']): ChildProcess {
  // spawn has duplicated the descriptor into the child by the time it returns.
  return withSeccompDescriptor(launch, (fd) => spawn(launch.command, launch.args, { stdio: sandboxStdio(stdio, fd), env: launch.env }));
}

export function spawnSandboxedSync(launch: SandboxLaunch, options: { timeout?: number; input?: string } = {}): SpawnSyncReturns<string> {
  return withSeccompDescriptor(launch, (fd) =>
    spawnSync(launch.command, launch.args, { stdio: sandboxStdio(['pipe', 'pipe', 'pipe'], fd), env: launch.env, encoding: 'utf8', ...options }),
  );
}

function sandboxMechanism(platform: Platform): SandboxMechanism | undefined {
  if (platform === 'linux') return 'bubblewrap';
  if (platform === 'darwin') return 'sandbox-exec';
  return undefined;
}

/** A command started inside the sandbox: its process (bwrap or sandbox-exec) and the launcher's end of the channel. */
export interface SandboxStarted {
  readonly child: ChildProcess;
  readonly mechanism: SandboxMechanism;
  readonly channel: Readable;
}

/** The sandboxes to try, tightest first: where the kernel refuses a user namespace, the same without one (which the server inside reports incomplete). */
function sandboxAttempts(config: SandboxConfig): SandboxConfig[] {
  return config.platform === 'linux' ? [config, { ...config, userNamespace: false }] : [config];
}

/**
 * Spawns a launch and waits until the program inside says it runs (its first byte on the channel)
 * or the sandbox's process ends first: bubblewrap fails before it starts anything (a kernel that
 * refuses a namespace, a container's policy) and reads nothing from stdin, so the launcher may
 * still try without it. bwrap's stderr is passed on, and its first line kept as the reason.
 */
function startOnce(launch: SandboxLaunch, mechanism: SandboxMechanism): Promise<SandboxStarted | string> {
  return new Promise((resolve) => {
    const child = spawnSandboxed(launch, ['inherit', 'inherit', 'pipe']);
    const channel = child.stdio[LAUNCHER_CHANNEL_FD] as Readable;
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (said.length < 4096) said += chunk.toString();
      process.stderr.write(chunk);
    });
    const failed = (why: string) => {
      channel.removeListener('readable', onReadable);
      resolve(said.trim().split('\n')[0] || why);
    };
    // 'close', not 'exit': it comes once the channel is drained, so a program that announced itself and ended at once still counts as started.
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => failed(`exit status ${code ?? signal}`);
    const onError = (error: Error) => failed(error.message);
    const onReadable = () => {
      const first = channel.read(1) as Buffer | null;
      if (first === null) return;
      channel.removeListener('readable', onReadable);
      child.removeListener('close', onExit);
      child.removeListener('error', onError);
      if (first.toString() === STARTED_INSIDE) resolve({ child, mechanism, channel });
      else {
        child.kill('SIGKILL');
        resolve('the program inside did not announce itself');
      }
    };
    channel.on('readable', onReadable);
    child.once('close', onExit);
    child.once('error', onError);
  });
}

/**
 * Starts `command args` inside this platform's sandbox when it works here, or says why there is
 * none. The server's relaunch and the attack probe both start this way; the program inside writes
 * STARTED_INSIDE on the channel first. Before anything is spawned, every descriptor this process
 * inherited is closed, so none reaches the sandbox.
 */
export async function startInSandbox(config: SandboxConfig, command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<SandboxStarted | SandboxState> {
  const prospect = sandboxProspect(config.platform, env, config.bwrap);
  if (!prospect.available) return { active: false, mechanism: null, detail: prospect.detail };
  const { mechanism } = prospect;
  if (mechanism === 'bubblewrap') config = { ...config, bwrap: prospect.command };
  closeInheritedDescriptors(env);
  let why: string | undefined;
  for (const attempt of sandboxAttempts(config)) {
    let launch: SandboxLaunch;
    try {
      launch = sandboxLaunch(attempt, command, args, env);
    } catch (error) {
      return { active: false, mechanism: null, detail: (error as Error).message };
    }
    const started = await startOnce(launch, mechanism);
    if (typeof started !== 'string') return started;
    why ??= started;
  }
  const what = mechanism === 'bubblewrap' ? 'bubblewrap could not start the server\'s sandbox here' : 'sandbox-exec could not start the runtime under the server\'s profile';
  return { active: false, mechanism: null, detail: `${what} (${why})` };
}

/** What the sandbox shows the server, in a sentence `list_workspaces` can carry. */
export function sandboxDetail(mechanism: SandboxMechanism, config: SandboxConfig): string {
  const writable = config.workspaces.filter((w) => w.rights === 'read-write').map((w) => w.realPath);
  const readOnly = config.workspaces.filter((w) => w.rights === 'read').map((w) => w.realPath);
  const log = config.refusalLog === undefined ? '' : `; the refusal log ${config.refusalLog} is written by the launcher outside, never seen inside`;
  const shown = `${readOnly.length > 0 ? `read-only: ${readOnly.join(', ')}; ` : ''}writable: ${writable.join(', ') || 'no workspace'}${log}`;
  return `${sandboxSummary(mechanism)}; ${shown}${mechanism === 'bubblewrap' ? '; checked from inside at start-up' : ''}`;
}

/** The state inside the sandboxed child (checked from inside, now), or undefined when this process is not one. */
export function sandboxInside(env: NodeJS.ProcessEnv, config: SandboxConfig): SandboxState | undefined {
  const marker = sandboxMarker(env);
  if (marker === undefined) return undefined;
  const gaps = sandboxGaps(marker, env);
  const detail = sandboxDetail(marker.mechanism, { ...config, refusalLog: marker.refusalLog ?? config.refusalLog });
  if (gaps.length === 0) return { active: true, mechanism: marker.mechanism, detail };
  return { active: false, mechanism: marker.mechanism, detail: `sandbox incomplete: ${gaps.join('; ')} (${detail})` };
}
