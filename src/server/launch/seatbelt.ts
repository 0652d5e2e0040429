import path from 'node:path';
import type { SandboxWorkspace } from './sandboxEnvironment.js';

/** What the macOS profile lets the server see and change. Every path is absolute and already real. */
export interface SeatbeltConfig {
  readonly workspaces: readonly SandboxWorkspace[];
  /** The runtime binary, as launched and by its real path. */
  readonly runtime: readonly string[];
  /** The libraries the runtime has loaded (the launcher is the same binary), as they were opened. */
  readonly libraries: readonly string[];
  /** The server bundle's script, as launched and by its real path. */
  readonly script: readonly string[];
}

/**
 * The only Mach services the server may look up, each with why; everything else (the pasteboard,
 * Spotlight, Apple Events, securityd, launch services) is refused.
 */
export const SEATBELT_MACH_SERVICES: Readonly<Record<string, string>> = {
  'com.apple.system.logger': 'the C library\'s own log (asl), written to when it reports an error',
  'com.apple.logd': 'os_log, which the system libraries log through',
  'com.apple.system.notification_center': 'notifyd: the C library\'s time-zone code registers for changes',
  'com.apple.system.opendirectoryd.libinfo': 'getpwuid, which libuv asks for the user\'s name and shell (os.userInfo)',
};

/**
 * The only sysctls the server may read: what V8, libuv and Node ask of the processor, the memory
 * and the system's version. None tells anything of another process (no kern.proc.*, no kern.procargs2).
 */
export const SEATBELT_SYSCTLS: readonly string[] = [
  'hw.activecpu',
  'hw.byteorder',
  'hw.cachelinesize',
  'hw.cpufamily',
  'hw.cpufrequency',
  'hw.cputype',
  'hw.l1dcachesize',
  'hw.l2cachesize',
  'hw.logicalcpu',
  'hw.logicalcpu_max',
  'hw.machine',
  'hw.memsize',
  'hw.ncpu',
  'hw.pagesize',
  'hw.physicalcpu',
  'hw.physicalcpu_max',
  'kern.argmax',
  'kern.boottime',
  'kern.hostname',
  'kern.maxfilesperproc',
  'kern.osproductversion',
  'kern.osrelease',
  'kern.ostype',
  'kern.osversion',
  'kern.tcsm_available',
  'kern.tcsm_enable',
  'kern.usrstack64',
  'kern.version',
  'machdep.cpu.brand_string',
  'machdep.ptrauth_enabled',
  'security.mac.lockdown_mode_state',
  'sysctl.proc_cputype',
  'vm.loadavg',
];
/** Processor features V8 reads by prefix (hw.optional.arm.FEAT_*, hw.optional.avx2_0, machdep.cpu.features). */
export const SEATBELT_SYSCTL_PREFIXES: readonly string[] = ['hw.optional.', 'hw.perflevel', 'machdep.cpu.'];

/**
 * System locations node reads to start: the system libraries and the shared cache dyld maps them
 * from, ICU's and the time zones' data. They hold the operating system, nothing of the user's.
 */
const SYSTEM_SUBPATHS = ['/usr/lib', '/System/Library', '/System/Volumes/Preboot/Cryptexes/OS', '/usr/share/icu', '/usr/share/zoneinfo', '/private/var/db/timezone'] as const;
const SYSTEM_LITERALS = ['/private/etc/localtime', '/dev/null', '/dev/zero', '/dev/random', '/dev/urandom'] as const;

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

/** A framework's own resources (Electron reads its ICU data and V8 snapshot there): `X.framework/Versions/A/Resources`. */
export function frameworkResources(library: string): string | undefined {
  const match = /^(.*\.framework\/Versions\/[^/]+)\/[^/]+$/.exec(library);
  return match === null ? undefined : `${match[1]}/Resources`;
}

const list = (kind: string, items: Iterable<string>) => [...items].map((item) => `  (${kind} ${sbplString(item)})`).join('\n');

function depth(target: string): number {
  return target.split('/').filter((name) => name !== '').length;
}

const within = (target: string, folder: string) => target === folder || target.startsWith(folder === '/' ? '/' : `${folder}/`);

/**
 * A Seatbelt profile for `sandbox-exec -p`: everything denied, then what node needs to run. Reads:
 * the workspaces, the runtime binary and the libraries it loads (files, not their folders), the
 * server bundle and the system's own libraries and data. Writes: the read-write workspaces and
 * /dev/null. No terminal (no ioctl, no write on any tty), no network, Mach services and sysctls by
 * allowlist. In SBPL the last matching rule wins, so workspaces go parents first: a read-only
 * workspace nested in a read-write one is denied after its parent's allow, and a read-write one
 * nested in that is allowed again after it.
 */
export function seatbeltProfile(config: SeatbeltConfig): string {
  const libraries = config.libraries.filter((library) => library.startsWith('/') && !SYSTEM_SUBPATHS.some((system) => within(library, system)));
  const readSubpaths = new Set<string>([
    ...config.script.map((script) => path.posix.dirname(script)),
    ...libraries.flatMap((library) => frameworkResources(library) ?? []),
    ...SYSTEM_SUBPATHS,
    ...config.workspaces.map((workspace) => workspace.realPath),
  ]);
  const readLiterals = new Set<string>([...config.runtime, ...libraries, ...SYSTEM_LITERALS]);
  // dyld, node and the server resolve each of these name by name: one lstat per folder above.
  const spelled = [...readSubpaths, ...readLiterals, ...config.workspaces.map((workspace) => workspace.path)];
  const metadata = new Set<string>();
  for (const target of spelled) for (const ancestor of ancestorsOf(target)) metadata.add(ancestor);
  for (const workspace of config.workspaces) metadata.add(workspace.path);

  const nested = [...config.workspaces].sort((a, b) => depth(a.realPath) - depth(b.realPath));
  const lines = [
    '(version 1)',
    '(deny default)',
    '(deny network*)',
    // sandbox-exec's one exec, into the runtime; the server itself starts no process and forks none.
    `(allow process-exec\n${list('literal', config.runtime)})`,
    '(allow process-info* (target self))',
    '(allow signal (target self))',
    `(allow sysctl-read\n${list('sysctl-name', SEATBELT_SYSCTLS)}\n${list('sysctl-name-prefix', SEATBELT_SYSCTL_PREFIXES)})`,
    `(allow mach-lookup\n${list('global-name', Object.keys(SEATBELT_MACH_SERVICES))})`,
    `(allow file-read-metadata\n${list('literal', metadata)})`,
    `(allow file-read*\n${list('subpath', readSubpaths)}\n${list('literal', readLiterals)})`,
    ...nested.map((workspace) => `(${workspace.rights === 'read-write' ? 'allow' : 'deny'} file-write* (subpath ${sbplString(workspace.realPath)}))`),
    '(allow file-write-data (literal "/dev/null"))',
  ];
  return `${lines.join('\n')}\n`;
}
