/**
 * The server's seccomp filter: a classic BPF program (linux/filter.h, linux/seccomp.h) built here,
 * with no native code, and handed to bubblewrap with `--seccomp FD`. It refuses with EPERM what
 * this server's job never needs and an attacker inside would use; everything else is allowed, so
 * that any Node (or VS Code's binary running as Node) starts under it.
 *
 * What Node itself needs, traced with strace while serving every tool: threads (clone3 from
 * glibc's pthread_create, clone where clone3 is refused), ioctl TCGETS and FIONBIO on stdio, and no
 * socket at all (the channel to the process outside is inherited). So `socket` is refused for every
 * family, and `clone` is allowed only for threads.
 */

export type SeccompArchitecture = 'x86_64' | 'aarch64';

/** AUDIT_ARCH_* (linux/audit.h): the `arch` field of seccomp_data a native syscall carries. */
const AUDIT_ARCH: Readonly<Record<SeccompArchitecture, number>> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };

/** x86_64's x32 ABI marks its syscall numbers with this bit; the server never makes one. */
const X32_SYSCALL_BIT = 0x40000000;

/** Syscalls refused outright, with their numbers (asm/unistd_64.h, asm-generic/unistd.h) and why. */
interface Refused {
  readonly name: string;
  readonly x86_64: number;
  /** Absent where the architecture has no such call (aarch64 has no fork, vfork, uselib, iopl). */
  readonly aarch64?: number;
  readonly why: string;
}

const WHY_PROCESSES = 'reading or changing another process';
const WHY_KEYRING = 'the session keyring holds the user\'s secrets';
const WHY_NAMESPACES = 'a namespace of its own would give the code inside capabilities again';
const WHY_MOUNTS = 'changing what the sandbox sees';
const WHY_KERNEL = 'a large kernel surface the server never uses';
const WHY_HOST = 'the host\'s own settings';

export const REFUSED_SYSCALLS: readonly Refused[] = [
  { name: 'ptrace', x86_64: 101, aarch64: 117, why: WHY_PROCESSES },
  { name: 'process_vm_readv', x86_64: 310, aarch64: 270, why: WHY_PROCESSES },
  { name: 'process_vm_writev', x86_64: 311, aarch64: 271, why: WHY_PROCESSES },
  { name: 'pidfd_open', x86_64: 434, aarch64: 434, why: WHY_PROCESSES },
  { name: 'pidfd_getfd', x86_64: 438, aarch64: 438, why: 'taking a descriptor out of another process' },
  { name: 'process_madvise', x86_64: 440, aarch64: 440, why: WHY_PROCESSES },
  { name: 'kcmp', x86_64: 312, aarch64: 272, why: WHY_PROCESSES },
  { name: 'fork', x86_64: 57, why: 'the server starts no process' },
  { name: 'vfork', x86_64: 58, why: 'the server starts no process' },
  { name: 'keyctl', x86_64: 250, aarch64: 219, why: WHY_KEYRING },
  { name: 'add_key', x86_64: 248, aarch64: 217, why: WHY_KEYRING },
  { name: 'request_key', x86_64: 249, aarch64: 218, why: WHY_KEYRING },
  { name: 'unshare', x86_64: 272, aarch64: 97, why: WHY_NAMESPACES },
  { name: 'setns', x86_64: 308, aarch64: 268, why: WHY_NAMESPACES },
  { name: 'mount', x86_64: 165, aarch64: 40, why: WHY_MOUNTS },
  { name: 'umount2', x86_64: 166, aarch64: 39, why: WHY_MOUNTS },
  { name: 'pivot_root', x86_64: 155, aarch64: 41, why: WHY_MOUNTS },
  { name: 'chroot', x86_64: 161, aarch64: 51, why: WHY_MOUNTS },
  { name: 'open_tree', x86_64: 428, aarch64: 428, why: WHY_MOUNTS },
  { name: 'move_mount', x86_64: 429, aarch64: 429, why: WHY_MOUNTS },
  { name: 'fsopen', x86_64: 430, aarch64: 430, why: WHY_MOUNTS },
  { name: 'fsconfig', x86_64: 431, aarch64: 431, why: WHY_MOUNTS },
  { name: 'fsmount', x86_64: 432, aarch64: 432, why: WHY_MOUNTS },
  { name: 'fspick', x86_64: 433, aarch64: 433, why: WHY_MOUNTS },
  { name: 'mount_setattr', x86_64: 442, aarch64: 442, why: WHY_MOUNTS },
  { name: 'io_uring_setup', x86_64: 425, aarch64: 425, why: `${WHY_KERNEL}; libuv falls back to its thread pool` },
  { name: 'io_uring_enter', x86_64: 426, aarch64: 426, why: WHY_KERNEL },
  { name: 'io_uring_register', x86_64: 427, aarch64: 427, why: WHY_KERNEL },
  { name: 'bpf', x86_64: 321, aarch64: 280, why: WHY_KERNEL },
  { name: 'perf_event_open', x86_64: 298, aarch64: 241, why: WHY_KERNEL },
  { name: 'userfaultfd', x86_64: 323, aarch64: 282, why: 'stalling the kernel at will, the usual tool of a race exploit' },
  { name: 'socket', x86_64: 41, aarch64: 198, why: 'no network and no unix socket: the server opens none (a workspace may hold an agent\'s socket)' },
  { name: 'name_to_handle_at', x86_64: 303, aarch64: 264, why: 'file handles open files by number, around the mounts' },
  { name: 'open_by_handle_at', x86_64: 304, aarch64: 265, why: 'file handles open files by number, around the mounts' },
  { name: 'kexec_load', x86_64: 246, aarch64: 104, why: WHY_HOST },
  { name: 'kexec_file_load', x86_64: 320, aarch64: 294, why: WHY_HOST },
  { name: 'init_module', x86_64: 175, aarch64: 105, why: WHY_HOST },
  { name: 'finit_module', x86_64: 313, aarch64: 273, why: WHY_HOST },
  { name: 'delete_module', x86_64: 176, aarch64: 106, why: WHY_HOST },
  { name: 'reboot', x86_64: 169, aarch64: 142, why: WHY_HOST },
  { name: 'swapon', x86_64: 167, aarch64: 224, why: WHY_HOST },
  { name: 'swapoff', x86_64: 168, aarch64: 225, why: WHY_HOST },
  { name: 'acct', x86_64: 163, aarch64: 89, why: WHY_HOST },
  { name: 'syslog', x86_64: 103, aarch64: 116, why: 'the kernel log' },
  { name: 'quotactl', x86_64: 179, aarch64: 60, why: WHY_HOST },
  { name: 'settimeofday', x86_64: 164, aarch64: 170, why: WHY_HOST },
  { name: 'clock_settime', x86_64: 227, aarch64: 112, why: WHY_HOST },
  { name: 'clock_adjtime', x86_64: 305, aarch64: 266, why: WHY_HOST },
  { name: 'adjtimex', x86_64: 159, aarch64: 171, why: WHY_HOST },
  { name: 'lookup_dcookie', x86_64: 212, aarch64: 18, why: WHY_KERNEL },
  { name: 'fanotify_init', x86_64: 300, aarch64: 262, why: 'watching the whole filesystem' },
  { name: 'vhangup', x86_64: 153, aarch64: 58, why: 'terminals' },
  { name: 'uselib', x86_64: 134, why: WHY_KERNEL },
  { name: 'iopl', x86_64: 172, why: WHY_HOST },
  { name: 'ioperm', x86_64: 173, why: WHY_HOST },
];

/** Calls whose arguments decide: ioctl by request, clone by flags. */
const SYSCALL = {
  ioctl: { x86_64: 16, aarch64: 29 },
  clone: { x86_64: 56, aarch64: 220 },
  clone3: { x86_64: 435, aarch64: 435 },
} as const;

/** Terminal requests that type into, or take over, the terminal (CVE-2017-5226 and its kin). */
export const REFUSED_IOCTLS = { TIOCSTI: 0x5412, TIOCLINUX: 0x541c } as const;

/** CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET (linux/sched.h). */
export const CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;
const CLONE_THREAD = 0x00010000;

const EPERM = 1;
const ENOSYS = 38;

// Classic BPF opcodes (linux/bpf_common.h) and seccomp return values.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
export const retErrno = (errno: number) => SECCOMP_RET_ERRNO | errno;

/** Offsets in struct seccomp_data; an argument's low 32 bits on a little-endian machine. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const argLow = (index: number) => 16 + 8 * index;

type Target = string | 0;
interface Instruction {
  readonly code: number;
  readonly k: number;
  readonly jt?: Target;
  readonly jf?: Target;
  readonly label?: string;
}

/** Resolves labels to the forward offsets classic BPF jumps take (at most 255 instructions). */
function assemble(program: readonly Instruction[]): Buffer {
  const at = new Map<string, number>();
  program.forEach((instruction, index) => instruction.label !== undefined && at.set(instruction.label, index));
  const out = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    const offset = (target: Target | undefined) => {
      if (target === undefined || target === 0) return 0;
      const to = at.get(target);
      if (to === undefined || to <= index || to - index - 1 > 255) throw new Error(`seccomp: bad jump from ${index} to ${target}`);
      return to - index - 1;
    };
    // struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }, in the machine's byte order (both are little-endian).
    out.writeUInt16LE(instruction.code, index * 8);
    out.writeUInt8(offset(instruction.jt), index * 8 + 2);
    out.writeUInt8(offset(instruction.jf), index * 8 + 3);
    out.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return out;
}

/**
 * The filter for one architecture. A call from another ABI (32-bit x86 on x86_64, x32) is refused
 * whole: its numbers mean other calls. `clone3` gets ENOSYS, not EPERM: its flags are in memory a
 * filter cannot read, and glibc falls back to `clone`, whose flags it can, only on ENOSYS.
 */
export function seccompFilter(arch: SeccompArchitecture): Buffer {
  const refused = REFUSED_SYSCALLS.flatMap((call) => (call[arch] === undefined ? [] : [call[arch]!]));
  const jumpTo = (k: number, target: string): Instruction => ({ code: JEQ_K, k, jt: target, jf: 0 });
  return assemble([
    { code: LD_W_ABS, k: OFFSET_ARCH },
    { code: JEQ_K, k: AUDIT_ARCH[arch], jt: 0, jf: 'deny' },
    { code: LD_W_ABS, k: OFFSET_NR },
    ...(arch === 'x86_64' ? [{ code: JGE_K, k: X32_SYSCALL_BIT, jt: 'deny', jf: 0 } as Instruction] : []),
    ...refused.map((nr) => jumpTo(nr, 'deny')),
    jumpTo(SYSCALL.clone3[arch], 'enosys'),
    jumpTo(SYSCALL.ioctl[arch], 'ioctl'),
    jumpTo(SYSCALL.clone[arch], 'clone'),
    { code: RET_K, k: SECCOMP_RET_ALLOW },
    // The request is an unsigned int in the kernel: only the low 32 bits count (CVE-2019-10063).
    { label: 'ioctl', code: LD_W_ABS, k: argLow(1) },
    jumpTo(REFUSED_IOCTLS.TIOCSTI, 'deny'),
    jumpTo(REFUSED_IOCTLS.TIOCLINUX, 'deny'),
    { code: RET_K, k: SECCOMP_RET_ALLOW },
    // Every namespace flag lies in the low 32 bits of clone's first argument on both architectures.
    { label: 'clone', code: LD_W_ABS, k: argLow(0) },
    { code: JSET_K, k: CLONE_NAMESPACE_FLAGS, jt: 'deny', jf: 0 },
    { code: JSET_K, k: CLONE_THREAD, jt: 0, jf: 'deny' },
    { code: RET_K, k: SECCOMP_RET_ALLOW },
    { label: 'deny', code: RET_K, k: retErrno(EPERM) },
    { label: 'enosys', code: RET_K, k: retErrno(ENOSYS) },
  ]);
}

/** The filter's architecture for Node's `process.arch`, or undefined where there is no filter. */
export function seccompArchitecture(nodeArch: string): SeccompArchitecture | undefined {
  if (nodeArch === 'x64') return 'x86_64';
  if (nodeArch === 'arm64') return 'aarch64';
  return undefined;
}
