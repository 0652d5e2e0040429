// The seccomp filter as data: its syscall numbers against the kernel's own headers where the machine
// has them, and its decisions run through a small classic-BPF interpreter written from the kernel's
// documentation (linux/filter.h), not from the filter's builder. The probe in test/sandbox runs the
// same filter in the kernel.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  CLONE_NAMESPACE_FLAGS,
  REFUSED_IOCTLS,
  REFUSED_SYSCALLS,
  retErrno,
  SECCOMP_RET_ALLOW,
  seccompArchitecture,
  seccompFilter,
  type SeccompArchitecture,
} from '../../src/server/launch/seccomp.js';

const AUDIT = { x86_64: 0xc000003e, aarch64: 0xc00000b7, i386: 0x40000003 } as const;
const EPERM = retErrno(1);
const ENOSYS = retErrno(38);

/** Runs a classic BPF program over struct seccomp_data { nr, arch, ip, args[6] } (64-bit args, little-endian). */
function run(program: Buffer, nr: number, arch: number, args: readonly bigint[] = []): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  args.forEach((arg, i) => data.writeBigUInt64LE(arg, 16 + 8 * i));
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    const cls = code & 0x07;
    if (cls === 0x00) {
      assert.equal(code, 0x20, 'only BPF_LD|BPF_W|BPF_ABS loads');
      accumulator = data.readUInt32LE(k);
      pc += 1;
    } else if (cls === 0x05) {
      const op = code & 0xf0;
      assert.equal(code & 0x08, 0, 'only BPF_K jumps');
      const taken = op === 0x10 ? accumulator === k : op === 0x30 ? accumulator >= k : op === 0x40 ? (accumulator & k) !== 0 : assert.fail(`jump op ${op}`);
      pc += 1 + (taken ? jt : jf);
    } else if (cls === 0x06) {
      return k;
    } else assert.fail(`instruction class ${cls}`);
  }
  return assert.fail('the program ran off its end');
}

/** `#define __NR_name number` lines of a header, or undefined when the machine lacks it. */
function headerNumbers(file: string): Map<string, number> | undefined {
  if (!fs.existsSync(file)) return undefined;
  const numbers = new Map<string, number>();
  for (const match of fs.readFileSync(file, 'utf8').matchAll(/^#define __NR(?:3264)?_(\w+)\s+(\d+)\s*$/gm)) numbers.set(match[1]!, Number(match[2]));
  return numbers;
}

const HEADERS: Record<SeccompArchitecture, string> = {
  x86_64: '/usr/include/x86_64-linux-gnu/asm/unistd_64.h',
  aarch64: '/usr/include/asm-generic/unistd.h',
};
const NUMBERS: Record<SeccompArchitecture, { ioctl: number; clone: number; clone3: number; read: number; openat: number; mmap: number }> = {
  x86_64: { ioctl: 16, clone: 56, clone3: 435, read: 0, openat: 257, mmap: 9 },
  aarch64: { ioctl: 29, clone: 220, clone3: 435, read: 63, openat: 56, mmap: 222 },
};

const CLONE_THREAD_FLAGS = 0x003d0f00n; // CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT_SETTID|CHILD_CLEARTID, as glibc's pthread_create

for (const arch of ['x86_64', 'aarch64'] as const) {
  describe(`seccomp filter for ${arch}`, () => {
    const program = seccompFilter(arch);
    const n = NUMBERS[arch];

    test('its syscall numbers are the kernel\'s', (t) => {
      const header = headerNumbers(HEADERS[arch]);
      if (header === undefined) {
        t.skip(`${HEADERS[arch]} is not on this machine (install libc6-dev)`);
        return;
      }
      for (const call of REFUSED_SYSCALLS) assert.equal(header.get(call.name), call[arch], `${call.name} on ${arch}`);
      for (const name of ['ioctl', 'clone', 'clone3', 'read', 'openat', 'mmap'] as const) assert.equal(header.get(name), n[name], name);
    });

    test('every refused call gets EPERM; what Node needs is allowed', () => {
      for (const call of REFUSED_SYSCALLS) if (call[arch] !== undefined) assert.equal(run(program, call[arch]!, AUDIT[arch]), EPERM, call.name);
      for (const nr of [n.read, n.openat, n.mmap]) assert.equal(run(program, nr, AUDIT[arch]), SECCOMP_RET_ALLOW, String(nr));
    });

    test('ioctl: TIOCSTI and TIOCLINUX refused, by the low 32 bits of the request whatever the high ones; terminal queries allowed', () => {
      assert.equal(run(program, n.ioctl, AUDIT[arch], [0n, BigInt(REFUSED_IOCTLS.TIOCSTI)]), EPERM);
      assert.equal(run(program, n.ioctl, AUDIT[arch], [1n, BigInt(REFUSED_IOCTLS.TIOCLINUX)]), EPERM);
      assert.equal(run(program, n.ioctl, AUDIT[arch], [0n, (1n << 32n) | BigInt(REFUSED_IOCTLS.TIOCSTI)]), EPERM, 'high bits set (CVE-2019-10063)');
      assert.equal(run(program, n.ioctl, AUDIT[arch], [0n, 0x5401n /* TCGETS */]), SECCOMP_RET_ALLOW);
      assert.equal(run(program, n.ioctl, AUDIT[arch], [0n, 0x5421n /* FIONBIO */]), SECCOMP_RET_ALLOW);
    });

    test('clone: threads allowed; a new process or any namespace flag refused; clone3 gets ENOSYS so glibc falls back to clone', () => {
      assert.equal(run(program, n.clone, AUDIT[arch], [CLONE_THREAD_FLAGS]), SECCOMP_RET_ALLOW);
      assert.equal(run(program, n.clone, AUDIT[arch], [17n /* SIGCHLD: fork */]), EPERM);
      for (let bit = 0; bit < 32; bit += 1) {
        const flag = 1 << bit;
        if ((CLONE_NAMESPACE_FLAGS & flag) === 0) continue;
        assert.equal(run(program, n.clone, AUDIT[arch], [CLONE_THREAD_FLAGS | BigInt(flag)]), EPERM, `flag ${flag.toString(16)}`);
      }
      assert.equal(run(program, n.clone3, AUDIT[arch]), ENOSYS);
    });

    test('a call from another ABI is refused whole', () => {
      assert.equal(run(program, n.read, AUDIT.i386), EPERM, '32-bit x86');
      if (arch === 'x86_64') assert.equal(run(program, 0x40000000 | n.read, AUDIT.x86_64), EPERM, 'x32');
    });
  });
}

test('the filter is chosen by Node\'s processor name; elsewhere there is none', () => {
  assert.equal(seccompArchitecture('x64'), 'x86_64');
  assert.equal(seccompArchitecture('arm64'), 'aarch64');
  assert.equal(seccompArchitecture('ia32'), undefined);
  assert.equal(seccompArchitecture('riscv64'), undefined);
});
