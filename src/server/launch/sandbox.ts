import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Platform, Spellings } from '../../core/index.js';
import { findOnPath, realPathOr } from '../../host/node.js';
import { thisProcess } from '../fs/index.js';
import { SANDBOX_EXEC, sandboxProspect, sandboxSummary, type SandboxMechanism, type SandboxState } from '../../host/protection.js';
import { WINDOWS_SANDBOX_DETAIL } from '../../shared/layers.js';
import { seatbeltProfile } from './seatbelt.js';
import { closeInheritedDescriptors } from './descriptors.js';
import { seccompArchitecture, seccompFilter } from './seccomp.js';
import { sandboxGaps } from './sandboxCheck.js';
import { namespacesOf, sandboxEnvironment, sandboxMarker, SANDBOX_ENV, type SandboxMarker, type SandboxWorkspace } from './sandboxEnvironment.js';

export { SANDBOX_ENV, type SandboxMechanism };

export type { SandboxState };

export { SANDBOX_EXEC };

export type { SandboxWorkspace };

/** Everything the server's sandbox is built from: the same for the server's relaunch and for the tests. */
export interface SandboxConfig {
  readonly platform: Platform;
  readonly workspaces: readonly SandboxWorkspace[];
  /**
   * The refusal log, absolute. The launcher outside writes it, fed over a channel by the server
   * inside, which never sees the log's files.
   */
  readonly refusalLog?: string | undefined;
  /** The runtime binary (`process.execPath`; VS Code's own binary under ELECTRON_RUN_AS_NODE). */
  readonly runtime: string;
  /** This machine's other spellings, as the launcher read them: handed to the server inside. */
  readonly spellings?: Spellings | undefined;
  /** The script the runtime runs (`process.argv[1]`); its folder is the server bundle. */
  readonly script?: string | undefined;
  /** Linux: the bubblewrap binary. */
  readonly bwrap?: string | undefined;
  /**
   * Linux: give the sandbox a user namespace of its own (the default). Off only as the fallback
   * where the kernel refuses one; the server inside then reports the sandbox incomplete.
   */
  readonly userNamespace?: boolean | undefined;
  /** Linux: the processor the seccomp filter is built for (`process.arch` unless given). */
  readonly arch?: string | undefined;
}

/** The descriptors a sandboxed child is handed besides stdio: bwrap reads and closes the first. */
export const SECCOMP_FD = 3;
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

export { findOnPath };

/** A setuid-root bubblewrap (as some distributions install it) cannot limit user namespaces with --disable-userns. */
function isSetuidRoot(binary: string): boolean {
  try {
    const stats = fs.statSync(binary);
    return stats.uid === 0 && (stats.mode & 0o4000) !== 0;
  } catch {
    return false;
  }
}

function linkTarget(target: string): string | undefined {
  try {
    return fs.lstatSync(target).isSymbolicLink() ? fs.readlinkSync(target) : undefined;
  } catch {
    return undefined;
  }
}

function exists(target: string): boolean {
  return fs.existsSync(target);
}

/** Whether `target` is `folder` or lies below it, name by name. */
function within(target: string, folder: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function depth(target: string): number {
  return target.split(path.sep).filter((name) => name !== '').length;
}

function byDepth<T>(items: readonly T[], pathOf: (item: T) => string): T[] {
  return [...items].sort((a, b) => depth(pathOf(a)) - depth(pathOf(b)));
}

/** Where the runtime libraries live on Linux; a merged-/usr system has links here, recreated as links. */
const SYSTEM_FOLDERS = ['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin'];
const LOADER_FILES = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d'];
/**
 * /proc files that are not namespaced and tell of the host: the keys of the session keyring the
 * sandbox inherits (listed to root), the kernel's timers and scheduler. Covered with /dev/null.
 */
const PROC_MASKED = ['/proc/keys', '/proc/key-users', '/proc/timer_list', '/proc/sched_debug'];

/**
 * bubblewrap arguments, from its empty root: an empty /tmp, the runtime and its libraries
 * read-only, the server bundle read-only, each workspace at its real path (read-only or writable,
 * parents first so the nested grant wins). Then the root, /tmp and /dev are made read-only, so
 * nothing outside the read-write workspaces can be written. Namespaces of its own for everything
 * (user, PID, IPC, UTS, network, cgroup), a new session (no controlling terminal to type into), no
 * capabilities, and the environment `env` alone. Reads the filesystem (which system folders are
 * links, whether bwrap is setuid) but changes nothing.
 */
export function bubblewrapArgs(config: SandboxConfig, env: Readonly<Record<string, string>> = {}, seccomp = false): string[] {
  // /tmp first: a runtime or a bundle under /tmp (a checkout there) must not be hidden by it.
  const args: string[] = ['--proc', '/proc'];
  for (const file of PROC_MASKED) if (exists(file)) args.push('--ro-bind', '/dev/null', file);
  args.push('--dev', '/dev', '--tmpfs', '/tmp');
  const visible: string[] = [];
  const readOnly = (target: string) => {
    args.push('--ro-bind', target, target);
    visible.push(target);
  };

  for (const folder of SYSTEM_FOLDERS) {
    const target = linkTarget(folder);
    if (target !== undefined) {
      args.push('--symlink', target, folder);
      visible.push(folder);
    } else if (exists(folder)) readOnly(folder);
  }
  for (const file of LOADER_FILES) if (exists(file)) readOnly(file);
  const runtimeFolders = [path.dirname(config.runtime), path.dirname(realPathOr(config.runtime))];
  if (config.script !== undefined) runtimeFolders.push(path.dirname(realPathOr(config.script)));
  for (const folder of byDepth(runtimeFolders, (f) => f)) {
    if (!visible.some((shown) => within(folder, shown))) readOnly(folder);
  }

  const workspaces = byDepth(config.workspaces, (w) => w.realPath);
  for (const workspace of workspaces) {
    args.push(workspace.rights === 'read-write' ? '--bind' : '--ro-bind', workspace.realPath, workspace.realPath);
    visible.push(workspace.realPath);
  }
  // A grant named through a link: recreate that spelling, unless it lies in a bound tree that shows the host's link already.
  const spellings: string[] = [];
  for (const workspace of byDepth(config.workspaces, (w) => w.path)) {
    if (workspace.path === workspace.realPath) continue;
    if (visible.some((shown) => within(workspace.path, shown)) || spellings.some((made) => within(workspace.path, made))) continue;
    args.push('--symlink', workspace.realPath, workspace.path);
    spellings.push(workspace.path);
  }

  // Last, once every mount point exists; a workspace at / or at /tmp (or above it) keeps its own rights.
  // /dev stays writable where a device is (writing /dev/null works on a read-only mount); /dev/shm does not.
  const workspaceAt = (folder: string) => workspaces.some((w) => within(folder, w.realPath));
  for (const folder of ['/tmp', '/dev', '/']) if (!workspaceAt(folder)) args.push('--remount-ro', folder);

  const userNamespace = config.userNamespace ?? true;
  if (userNamespace) args.push('--unshare-user');
  // Nested user namespaces off (bwrap sets the sandbox's limit to what it already has); a setuid bwrap refuses this, and the seccomp filter refuses them anyway.
  if (userNamespace && !isSetuidRoot(config.bwrap ?? 'bwrap')) args.push('--disable-userns');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try', '--new-session', '--cap-drop', 'ALL', '--die-with-parent');
  if (seccomp) args.push('--seccomp', String(SECCOMP_FD));
  args.push('--clearenv');
  for (const [name, value] of Object.entries(env)) args.push('--setenv', name, value);
  return args;
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

export { WINDOWS_SANDBOX_DETAIL };
