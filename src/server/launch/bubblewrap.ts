import fs from 'node:fs';
import path from 'node:path';
import { realPathOr } from '../../host/node.js';
import type { SandboxWorkspace } from './sandboxEnvironment.js';

/** What the Linux sandbox is built from; the whole sandbox's config (sandbox.ts) holds it. */
export interface BubblewrapConfig {
  readonly workspaces: readonly SandboxWorkspace[];
  /** The runtime binary (`process.execPath`; VS Code's own binary under ELECTRON_RUN_AS_NODE). */
  readonly runtime: string;
  /** The script the runtime runs (`process.argv[1]`); its folder is the server bundle. */
  readonly script?: string | undefined;
  /** Linux: the bubblewrap binary. */
  readonly bwrap?: string | undefined;
  /**
   * Linux: give the sandbox a user namespace of its own (the default). Off only as the fallback
   * where the kernel refuses one; the server inside then reports the sandbox incomplete.
   */
  readonly userNamespace?: boolean | undefined;
}

/** The descriptor bubblewrap reads the seccomp program from (and closes), the first after stdio. */
export const SECCOMP_FD = 3;

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
export function bubblewrapArgs(config: BubblewrapConfig, env: Readonly<Record<string, string>> = {}, seccomp = false): string[] {
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
