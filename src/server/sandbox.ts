import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Platform } from '../core/index.js';
import type { Rights } from './grants.js';
import { findOnPath, realPathOr } from '../host/node.js';
import { WINDOWS_SANDBOX_DETAIL } from '../shared/layers.js';
import { seatbeltProfile } from './seatbelt.js';

export type SandboxMechanism = 'bubblewrap' | 'sandbox-exec';

/** The third layer: what the operating system itself stops, whatever the server's code does. */
export interface SandboxState {
  readonly active: boolean;
  readonly mechanism: SandboxMechanism | null;
  readonly detail: string;
}

/** Set on the sandboxed child so it knows it is inside and does not sandbox itself again. */
export const SANDBOX_ENV = 'BOUNDARY_INSPECTOR_SANDBOX';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** A granted workspace as the sandbox sees it. */
export interface SandboxWorkspace {
  /** The path it was granted under; the server inside resolves this spelling again. */
  readonly path: string;
  readonly realPath: string;
  readonly rights: Rights;
}

/** Everything the server's sandbox is built from: the same for the server's relaunch and for the tests. */
export interface SandboxConfig {
  readonly platform: Platform;
  readonly workspaces: readonly SandboxWorkspace[];
  /** The refusal log, absolute; it and `<file>.1` are bound as single files, never their folder. */
  readonly refusalLog?: string | undefined;
  /** The runtime binary (`process.execPath`; VS Code's own binary under ELECTRON_RUN_AS_NODE). */
  readonly runtime: string;
  /** The script the runtime runs (`process.argv[1]`); its folder is the server bundle. */
  readonly script?: string | undefined;
  /** Linux: the bubblewrap binary. */
  readonly bwrap?: string | undefined;
}

export { findOnPath };

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

/** The refusal log and its rotated copy: the only files writable outside the workspaces. */
function refusalLogFiles(refusalLog: string | undefined): string[] {
  return refusalLog === undefined ? [] : [refusalLog, `${refusalLog}.1`];
}

/** Creates the refusal log's files, empty and private, where they do not exist yet. */
function createRefusalLogFiles(refusalLog: string | undefined): void {
  for (const file of refusalLogFiles(refusalLog)) fs.closeSync(fs.openSync(file, 'a', 0o600));
}

/** Where the runtime libraries live on Linux; a merged-/usr system has links here, recreated as links. */
const SYSTEM_FOLDERS = ['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin'];
const LOADER_FILES = ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d'];

/**
 * bubblewrap arguments, from its empty root: an empty /tmp, the runtime and its libraries
 * read-only, the server bundle read-only, each workspace at its real path (read-only or writable,
 * parents first so the nested grant wins), and the refusal log's two files writable. Then the
 * root and /tmp are made read-only, so nothing outside the binds can be written. No network, no
 * shared IPC, no home. Reads the filesystem (which system folders are links) but changes nothing.
 */
export function bubblewrapArgs(config: SandboxConfig): string[] {
  // /tmp first: a runtime or a bundle under /tmp (a checkout there) must not be hidden by it.
  const args: string[] = ['--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'];
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
  for (const file of refusalLogFiles(config.refusalLog)) args.push('--bind', file, file);

  // Last, once every mount point exists; a workspace at / or at /tmp (or above it) keeps its own rights.
  const workspaceAt = (folder: string) => workspaces.some((w) => within(folder, w.realPath));
  if (!workspaceAt('/tmp')) args.push('--remount-ro', '/tmp');
  if (!workspaceAt('/')) args.push('--remount-ro', '/');

  args.push(
    '--unshare-net',
    '--unshare-ipc',
    '--die-with-parent',
    '--setenv', 'HOME', '/nonexistent',
    // Its file is not in the sandbox (and there is no network to use it on): node would warn at every start.
    '--unsetenv', 'NODE_EXTRA_CA_CERTS',
  );
  return args;
}

/**
 * How to run `command args` inside exactly the sandbox the server runs in. The server's relaunch
 * and the tests both come through here; it creates the refusal log's files when missing (bwrap
 * binds only what exists). Throws on a platform without one.
 */
export function sandboxLaunch(config: SandboxConfig, command: string, args: readonly string[]): { command: string; args: string[] } {
  if (config.platform === 'linux') {
    createRefusalLogFiles(config.refusalLog);
    return { command: config.bwrap ?? 'bwrap', args: [...bubblewrapArgs(config), '--', command, ...args] };
  }
  if (config.platform === 'darwin') {
    createRefusalLogFiles(config.refusalLog);
    const profile = seatbeltProfile({
      // Seatbelt judges the path the kernel resolved, in the disk's own case.
      workspaces: config.workspaces.map((w) => ({ ...w, realPath: realPathOr(w.realPath) })),
      refusalLogFiles: refusalLogFiles(config.refusalLog).map(realPathOr),
      runtime: [...new Set([config.runtime, realPathOr(config.runtime)])],
      script: config.script === undefined ? [] : [...new Set([config.script, realPathOr(config.script)])],
    });
    return { command: SANDBOX_EXEC, args: ['-p', profile, command, ...args] };
  }
  throw new Error(`there is no operating-system sandbox for this server on ${config.platform}`);
}

export function sandboxMechanism(platform: Platform): SandboxMechanism | undefined {
  if (platform === 'linux') return 'bubblewrap';
  if (platform === 'darwin') return 'sandbox-exec';
  return undefined;
}

/**
 * Whether the sandbox starts here, tried with the very arguments the server would run under
 * (containers often forbid namespaces; a profile may not load): undefined when it does,
 * otherwise why not. The script's `--help` proves the runtime and the bundle both load inside.
 */
export function probeSandbox(config: SandboxConfig, env: NodeJS.ProcessEnv): string | undefined {
  let launch;
  try {
    launch = sandboxLaunch(config, config.runtime, config.script === undefined ? ['--version'] : [config.script, '--help']);
  } catch (error) {
    return (error as Error).message;
  }
  const probe = spawnSync(launch.command, launch.args, { env, encoding: 'utf8', timeout: 10_000 });
  if (probe.status === 0) return undefined;
  const said = `${probe.error?.message ?? ''} ${probe.stderr ?? ''}`.trim().split('\n')[0] ?? '';
  return said === '' ? `exit status ${probe.status ?? probe.signal}` : said;
}

/** What the sandbox shows the server, in a sentence `list_workspaces` can carry. */
export function sandboxDetail(mechanism: SandboxMechanism, config: SandboxConfig): string {
  const writable = config.workspaces.filter((w) => w.rights === 'read-write').map((w) => w.realPath);
  const readOnly = config.workspaces.filter((w) => w.rights === 'read').map((w) => w.realPath);
  const log = config.refusalLog === undefined ? '' : `; the refusal log ${config.refusalLog} (and ${config.refusalLog}.1) is writable, not its folder`;
  const shown = `${readOnly.length > 0 ? `; read-only: ${readOnly.join(', ')}` : ''}; writable: ${writable.join(', ') || 'no workspace'}${log}`;
  if (mechanism === 'bubblewrap') {
    return `bubblewrap: the server sees only the runtime and its libraries, its own bundle, an empty read-only /tmp and the workspaces${shown}; no home folder, no network`;
  }
  return `sandbox-exec: the server may read only the workspaces, the runtime, its own bundle and system libraries${shown}; no network`;
}

/** The state inside the sandboxed child, or undefined when this process is not one. */
export function sandboxInside(env: NodeJS.ProcessEnv, config: SandboxConfig): SandboxState | undefined {
  const mechanism = env[SANDBOX_ENV];
  if (mechanism !== 'bubblewrap' && mechanism !== 'sandbox-exec') return undefined;
  return { active: true, mechanism, detail: sandboxDetail(mechanism, config) };
}

export { WINDOWS_SANDBOX_DETAIL };
