import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The third layer: what the operating system itself stops, whatever the server's code does. */
export interface SandboxState {
  readonly active: boolean;
  readonly mechanism: 'bubblewrap' | null;
  readonly detail: string;
}

/** Set on the sandboxed child so it knows it is inside and does not sandbox itself again. */
export const SANDBOX_ENV = 'BOUNDARY_INSPECTOR_SANDBOX';

export function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const directory of (env.PATH ?? '').split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * bubblewrap arguments: the whole filesystem read-only, the read-write workspaces and the
 * refusal log's folder writable, no network. Reads are not confined here; authorization and
 * containment decide those.
 */
export function bubblewrapArgs(writable: readonly string[]): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-ipc', '--die-with-parent'];
  for (const directory of writable) args.push('--bind', directory, directory);
  return args;
}

/** Whether bubblewrap can make a namespace here (containers often forbid it). */
export function bubblewrapWorks(bwrap: string): boolean {
  const probe = spawnSync(bwrap, [...bubblewrapArgs([]), '--', process.execPath, '--version'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}

export function sandboxInside(env: NodeJS.ProcessEnv, writable: readonly string[]): SandboxState | undefined {
  if (env[SANDBOX_ENV] !== 'bubblewrap') return undefined;
  return {
    active: true,
    mechanism: 'bubblewrap',
    detail: `bubblewrap: the filesystem is read-only to this server except ${writable.join(', ') || 'nothing'}; no network`,
  };
}
