import fs from 'node:fs';
import type { SandboxMechanism } from '../../host/protection.js';
import type { Rights } from '../grants.js';
import type { Writer } from '../fs/index.js';
import type { Spellings } from '../../core/index.js';

/**
 * What crosses into the sandbox by way of the environment: the only place it is said. Nothing else
 * goes in: no tokens, keys, proxies or NODE_OPTIONS (which could load code the user never meant).
 */
export const PASSED_ENVIRONMENT: Readonly<Record<string, string>> = {
  ELECTRON_RUN_AS_NODE: 'VS Code\'s own binary runs as Node only with it',
  LANG: 'the locale ICU and the C library read',
  LC_ALL: 'the locale ICU and the C library read',
  LC_CTYPE: 'the locale ICU and the C library read',
  TZ: 'the time zone of the times a tool reports',
};

/** Set inside to fixed values, whatever the launcher had. */
export const FIXED_ENVIRONMENT: Readonly<Record<string, string>> = {
  // No home folder is visible inside: anything that looks for one finds nothing.
  HOME: '/nonexistent',
};

/** Set by the sandbox itself: bubblewrap names the working directory inside. */
const SET_BY_SANDBOX = ['PWD'];

/** Set on the sandboxed child so it knows it is inside, what it was promised, and does not sandbox itself again. */
export const SANDBOX_ENV = 'BOUNDARY_INSPECTOR_SANDBOX';

/** A granted workspace as the sandbox sees it. */
export interface SandboxWorkspace {
  /** The path it was granted under; the server inside resolves this spelling again. */
  readonly path: string;
  readonly realPath: string;
  readonly rights: Rights;
}

/** The namespaces the sandbox gives the server, by their names under /proc/<pid>/ns. */
export const NAMESPACES = ['user', 'pid', 'ipc', 'uts', 'net', 'cgroup', 'mnt'] as const;
export type NamespaceName = (typeof NAMESPACES)[number];

/** What the launcher tells the server inside (the value of SANDBOX_ENV, as JSON). */
export interface SandboxMarker {
  readonly mechanism: SandboxMechanism;
  /** The launcher's own namespaces (`user:[4026531837]`...): the server's must all differ. */
  readonly outside?: Partial<Record<NamespaceName, string>>;
  /** Whether a seccomp filter was handed to bubblewrap (there is none for some processors). */
  readonly seccomp?: boolean;
  /**
   * The descriptor of the channel to the launcher: the server's first byte on it says it started
   * inside; refusals follow on it when there is a log, which the launcher writes.
   */
  readonly channel?: number;
  /** The refusal log the launcher writes, when there is one. */
  readonly refusalLog?: string;
  /**
   * The launcher as a writer: the server inside names its temporary files after it, as its own
   * pid means nothing outside its PID namespace, and asks it over the channel whether the writer
   * of another's temporaries lives.
   */
  readonly writer?: Writer;
  /** The launcher's reading of this machine's other spellings (inside, WSL's interop is out of sight). */
  readonly spellings?: Spellings;
}

export function namespacesOf(pid: number | 'self'): Partial<Record<NamespaceName, string>> {
  const found: Partial<Record<NamespaceName, string>> = {};
  for (const name of NAMESPACES) {
    try {
      found[name] = fs.readlinkSync(`/proc/${pid}/ns/${name}`);
    } catch {
      // a kernel without this namespace
    }
  }
  return found;
}

/** The whole environment of the server inside: the passed names the launcher has, the fixed ones, and the marker. */
export function sandboxEnvironment(env: NodeJS.ProcessEnv, marker: SandboxMarker): Record<string, string> {
  const inside: Record<string, string> = {};
  for (const name of Object.keys(PASSED_ENVIRONMENT)) if (env[name] !== undefined) inside[name] = env[name]!;
  return { ...inside, ...FIXED_ENVIRONMENT, [SANDBOX_ENV]: JSON.stringify(marker) };
}

/** The marker this process was started with, or undefined when it is not inside a sandbox. */
export function sandboxMarker(env: NodeJS.ProcessEnv): SandboxMarker | undefined {
  const value = env[SANDBOX_ENV];
  if (value === undefined) return undefined;
  try {
    const marker = JSON.parse(value) as SandboxMarker;
    if (marker.mechanism === 'bubblewrap' || marker.mechanism === 'sandbox-exec') return marker;
  } catch {
    // not ours
  }
  return undefined;
}

/** Names in `env` that the sandbox should not have let in. */
export function unexpectedEnvironment(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env).filter((name) => !(name in PASSED_ENVIRONMENT) && !(name in FIXED_ENVIRONMENT) && !SET_BY_SANDBOX.includes(name) && name !== SANDBOX_ENV);
}
