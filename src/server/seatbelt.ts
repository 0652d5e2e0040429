import path from 'node:path';
import type { SandboxWorkspace } from './sandbox.js';

/** What the macOS profile lets the server see and change. Every path is absolute and already real. */
export interface SeatbeltConfig {
  readonly workspaces: readonly SandboxWorkspace[];
  /** The refusal log and its rotated `<file>.1`: the only files writable outside the workspaces. */
  readonly refusalLogFiles: readonly string[];
  /** The runtime binary, as launched and by its real path. */
  readonly runtime: readonly string[];
  /** The server bundle's script, as launched and by its real path. */
  readonly script: readonly string[];
}

/** Read-only system locations node needs to start and to tell the time. */
const SEATBELT_SYSTEM_SUBPATHS = ['/System', '/usr/lib', '/usr/share/icu', '/private/var/db/timezone', '/dev'] as const;
const SEATBELT_SYSTEM_LITERALS = ['/private/etc/localtime'] as const;

/**
 * An SBPL string literal. Only `\` and `"` are special; a control character (never in a sane
 * path, but a name may hold one) is written as a hex escape so it cannot end the expression.
 */
export function sbplString(text: string): string {
  const escaped = text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `"${escaped}"`;
}

/** Each folder above `target`, from `/` down, without `target` itself. */
export function ancestorsOf(target: string): string[] {
  const found: string[] = [];
  for (let folder = path.posix.dirname(target); ; folder = path.posix.dirname(folder)) {
    found.unshift(folder);
    if (folder === '/') return found;
  }
}

/** What to let the runtime read: the whole `.app` bundle when it lives in one (Electron needs its resources), else its folder. */
export function runtimeReadRoot(runtime: string): string {
  const names = runtime.split('/');
  const bundle = names.findIndex((name) => name.endsWith('.app'));
  if (bundle > 0) return names.slice(0, bundle + 1).join('/');
  return path.posix.dirname(runtime);
}

function depth(target: string): number {
  return target.split('/').filter((name) => name !== '').length;
}

/**
 * A Seatbelt profile for `sandbox-exec -p`: everything denied, then node's process needs, reads
 * of the workspaces, the runtime, the server bundle and a few system folders, and writes only to
 * the read-write workspaces and the two refusal-log files. In SBPL the last matching rule wins,
 * so workspaces go parents first: a read-only workspace nested in a read-write one is denied
 * after its parent's allow, and a read-write one nested in that is allowed again after it.
 */
export function seatbeltProfile(config: SeatbeltConfig): string {
  const readSubpaths = new Set<string>([
    ...config.runtime.map(runtimeReadRoot),
    ...config.script.map((script) => path.posix.dirname(script)),
    ...SEATBELT_SYSTEM_SUBPATHS,
    ...config.workspaces.map((workspace) => workspace.realPath),
  ]);
  const readLiterals = new Set<string>([...SEATBELT_SYSTEM_LITERALS, ...config.refusalLogFiles]);
  // node realpaths its script and the server re-resolves each grant, one lstat per name.
  const spelled = [...readSubpaths, ...readLiterals, ...config.runtime, ...config.script, ...config.workspaces.map((workspace) => workspace.path)];
  const metadata = new Set<string>();
  for (const target of spelled) for (const ancestor of ancestorsOf(target)) metadata.add(ancestor);
  for (const workspace of config.workspaces) metadata.add(workspace.path);

  const nested = [...config.workspaces].sort((a, b) => depth(a.realPath) - depth(b.realPath));
  const lines = [
    '(version 1)',
    '(deny default)',
    '(deny network*)',
    '(allow process-exec process-fork)',
    '(allow process-info* (target self))',
    '(allow signal (target self))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm ipc-posix-sem)',
    `(allow file-read-metadata\n${[...metadata].map((p) => `  (literal ${sbplString(p)})`).join('\n')})`,
    `(allow file-read*\n${[...readSubpaths].map((p) => `  (subpath ${sbplString(p)})`).join('\n')}\n${[...readLiterals].map((p) => `  (literal ${sbplString(p)})`).join('\n')})`,
    ...nested.map((workspace) => `(${workspace.rights === 'read-write' ? 'allow' : 'deny'} file-write* (subpath ${sbplString(workspace.realPath)}))`),
    ...config.refusalLogFiles.map((file) => `(allow file-write* (literal ${sbplString(file)}))`),
    '(allow file-write* (literal "/dev/null") (literal "/dev/dtracehelper") (regex #"^/dev/tty"))',
    '(allow file-ioctl (literal "/dev/null") (literal "/dev/dtracehelper") (regex #"^/dev/tty"))',
  ];
  return `${lines.join('\n')}\n`;
}
