import fs from 'node:fs';
import type { Platform } from '../core/types.js';
import { WINDOWS_SANDBOX_DETAIL } from '../shared/layers.js';
import { findOnPath } from './node.js';

// What this host offers the server's lower layers, found and worded once: the server acts on it
// (its anchor, its sandbox), and the extension shows it before the server has started.

export type SandboxMechanism = 'bubblewrap' | 'sandbox-exec';

/** The third layer: what the operating system itself stops, whatever the server's code does. */
export interface SandboxState {
  readonly active: boolean;
  readonly mechanism: SandboxMechanism | null;
  readonly detail: string;
}

/** macOS's sandbox launcher, at its fixed place. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** Whether `/proc/self/fd/N/name` can stand for openat(2) here: Linux with /proc mounted. */
export function descriptorPathsWork(platform: Platform): boolean {
  return platform === 'linux' && fs.existsSync('/proc/self/fd');
}

/** The sandbox this host can start, and the program that starts it; or why there is none. */
export type SandboxProspect =
  | { readonly available: true; readonly mechanism: SandboxMechanism; readonly command: string }
  | { readonly available: false; readonly detail: string };

export function sandboxProspect(platform: Platform, env: NodeJS.ProcessEnv, bwrap?: string): SandboxProspect {
  if (platform === 'linux') {
    const command = bwrap ?? findOnPath('bwrap', env);
    if (command === undefined) return { available: false, detail: 'bubblewrap (bwrap) is not installed; install it to confine what the server can see and write' };
    return { available: true, mechanism: 'bubblewrap', command };
  }
  if (platform === 'darwin') {
    if (!fs.existsSync(SANDBOX_EXEC)) return { available: false, detail: `${SANDBOX_EXEC} is missing` };
    return { available: true, mechanism: 'sandbox-exec', command: SANDBOX_EXEC };
  }
  return { available: false, detail: WINDOWS_SANDBOX_DETAIL };
}

/**
 * What each sandbox confines, before the workspaces it shows are named: the server's own words
 * for its sandbox begin with this, and so do the extension's before the server has checked it.
 */
export function sandboxSummary(mechanism: SandboxMechanism): string {
  if (mechanism === 'bubblewrap') {
    return (
      'bubblewrap: the server sees only the runtime and its libraries, its own bundle, an empty read-only /tmp and /dev and the workspaces; no home folder, no network; ' +
      'its own user, PID, IPC, UTS, network and cgroup namespaces, a new session, no capabilities, a seccomp filter, an environment of the allowlist only, ' +
      'no inherited descriptors'
    );
  }
  return 'sandbox-exec: the server may read only the workspaces, the runtime, its own bundle and system libraries; no network, no terminal, an environment of the allowlist only';
}
