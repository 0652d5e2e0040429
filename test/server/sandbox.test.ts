// The server's operating-system sandbox: the bubblewrap arguments and what they show a process
// inside (a plain `node -e` probe, no server and no containment, run under exactly the server's
// sandbox), the macOS Seatbelt profile as text, the refusal log's rotation when its files are
// mount points, and sandboxed server sessions (--sandbox auto, the default).
import { after, before, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeFileSystem } from '../../src/host/node.js';
import { buildGrants, type GrantSpec } from '../../src/server/grants.js';
import { RefusalLog, type RefusalRecord } from '../../src/server/refusals/refusalLog.js';
import { findOnPath } from '../../src/host/node.js';
import { SANDBOX_EXEC } from '../../src/host/protection.js';
import { WINDOWS_SANDBOX_DETAIL } from '../../src/shared/layers.js';
import { bubblewrapArgs } from '../../src/server/launch/bubblewrap.js';
import {
  sandboxDetail,
  LAUNCHER_CHANNEL_FD,
  sandboxLaunch,
  spawnSandboxedSync,
  startInSandbox,
  STARTED_INSIDE,
  type SandboxConfig,
} from '../../src/server/launch/sandbox.js';
import type { SandboxWorkspace } from '../../src/server/launch/sandboxEnvironment.js';
import { ancestorsOf, frameworkResources, SEATBELT_MACH_SERVICES, sbplString, seatbeltProfile } from '../../src/server/launch/seatbelt.js';
import { seccompArchitecture } from '../../src/server/launch/seccomp.js';
import { connect, expectContent, expectOk, expectRefusal, fileUri, makeTempDir, removeDir, repoRoot, serverPath, writeTree } from './helpers.js';
import { eventually, expireAfter, patience } from '../patience.js';

const isDirectory = (target: string) => {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
};

/** The workspaces as the server builds them from its launch arguments. */
function grantsOf(specs: readonly GrantSpec[]): SandboxWorkspace[] {
  const { grants, errors } = buildGrants(specs, { platform: 'linux', policy: {}, fs: nodeFileSystem, isDirectory });
  assert.deepEqual(errors, []);
  return grants.map((grant) => ({ path: grant.path, realPath: grant.realPath, rights: grant.rights }));
}

/** The sandbox the built server would make for these workspaces and this log. */
function serverConfig(workspaces: readonly SandboxWorkspace[], refusalLog?: string): SandboxConfig {
  return {
    platform: 'linux',
    workspaces,
    refusalLog,
    runtime: process.execPath,
    script: fs.realpathSync(serverPath),
    bwrap: findOnPath('bwrap', process.env),
  };
}

/**
 * Why this machine cannot run a bubblewrap test, or undefined when it can. Asked of bwrap itself,
 * with the simplest arguments: a fault in the server's own arguments must fail the tests, not skip them.
 */
function unavailable(): string | undefined {
  if (process.platform !== 'linux') return `the bubblewrap sandbox is Linux only (this is ${process.platform})`;
  const bwrap = findOnPath('bwrap', process.env);
  if (!bwrap) return 'bwrap is not on PATH: install bubblewrap to run this test';
  const probe = spawnSync(bwrap, ['--ro-bind', '/', '/', '--unshare-net', '--unshare-ipc', '--', process.execPath, '-e', ''], { encoding: 'utf8', timeout: patience(10_000) });
  return probe.status === 0 ? undefined : `bwrap is on PATH but cannot create namespaces here: ${probe.stderr.trim()}`;
}

/** Indexes of the first occurrence of each flag-and-operand pair. */
function indexOfPair(args: readonly string[], ...pair: string[]): number {
  for (let i = 0; i + pair.length <= args.length; i += 1) if (pair.every((part, j) => args[i + j] === part)) return i;
  return -1;
}

// ------------------------------------------------------------------------------------------------
// The bubblewrap arguments
// ------------------------------------------------------------------------------------------------

describe('bubblewrap arguments: an empty root and only what the server needs', { skip: process.platform !== 'linux' && 'the arguments read a Linux filesystem' }, () => {
  let base: string;
  let ws: string;
  let log: string;
  let args: string[];

  before(() => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    writeTree(base, { 'ws/ro/rw/a.txt': 'a', 'logs/keep.txt': 'x' });
    log = path.join(base, 'logs', 'refusals.jsonl');
    args = bubblewrapArgs(
      serverConfig(
        grantsOf([
          { uri: fileUri(path.join(ws, 'ro', 'rw')), rights: 'read-write' },
          { uri: fileUri(path.join(ws, 'ro')), rights: 'read' },
          { uri: fileUri(ws), rights: 'read-write' },
        ]),
        log,
      ),
    );
  });
  after(() => removeDir(base));

  test('never the whole filesystem, never a home; /proc, a minimal /dev, an empty /tmp; namespaces of its own, a new session, no capabilities', () => {
    assert.equal(indexOfPair(args, '--ro-bind', '/', '/'), -1);
    assert.equal(indexOfPair(args, '--bind', '/', '/'), -1);
    assert.ok(!args.includes('/etc') && !args.includes(os.homedir()), args.join(' '));
    const flags = [['--proc', '/proc'], ['--dev', '/dev'], ['--tmpfs', '/tmp'], ['--unshare-user'], ['--unshare-pid'], ['--unshare-ipc'], ['--unshare-uts'], ['--unshare-net'], ['--unshare-cgroup-try']];
    for (const pair of [...flags, ['--new-session'], ['--cap-drop', 'ALL'], ['--die-with-parent'], ['--clearenv']]) {
      assert.notEqual(indexOfPair(args, ...pair), -1, `missing ${pair.join(' ')}`);
    }
    for (const file of ['/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d']) {
      if (fs.existsSync(file)) assert.notEqual(indexOfPair(args, '--ro-bind', file, file), -1, file);
    }
    if (fs.existsSync('/proc/keys')) assert.notEqual(indexOfPair(args, '--ro-bind', '/dev/null', '/proc/keys'), -1, 'the keyring list is covered');
  });

  test('the environment is the given one alone; a setuid bubblewrap is not asked for --disable-userns, which it refuses', () => {
    const withEnv = bubblewrapArgs(serverConfig([]), { HOME: '/nonexistent', LANG: 'C.UTF-8' }, true);
    const cleared = withEnv.indexOf('--clearenv');
    assert.ok(cleared !== -1 && indexOfPair(withEnv, '--setenv', 'HOME', '/nonexistent') > cleared && indexOfPair(withEnv, '--setenv', 'LANG', 'C.UTF-8') > cleared);
    assert.equal(withEnv.filter((arg) => arg === '--setenv').length, 2);
    assert.notEqual(indexOfPair(withEnv, '--seccomp', '3'), -1);
    assert.equal(indexOfPair(bubblewrapArgs(serverConfig([])), '--seccomp', '3'), -1, 'no filter: no --seccomp');
    const stock = bubblewrapArgs({ ...serverConfig([]), bwrap: process.execPath });
    assert.ok(stock.includes('--disable-userns'));
    const setuid = path.join(base, 'setuid-bwrap');
    fs.copyFileSync(process.execPath, setuid);
    fs.chmodSync(setuid, 0o4755);
    if (process.getuid?.() === 0) assert.ok(!bubblewrapArgs({ ...serverConfig([]), bwrap: setuid }).includes('--disable-userns'));
    const withoutUser = bubblewrapArgs({ ...serverConfig([]), userNamespace: false });
    assert.ok(!withoutUser.includes('--unshare-user') && !withoutUser.includes('--disable-userns'));
  });

  test('system folders: a link (merged /usr) is recreated as the same link, a real folder is bound read-only', () => {
    for (const folder of ['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin']) {
      const stats = fs.lstatSync(folder, { throwIfNoEntry: false });
      if (stats === undefined) continue;
      if (stats.isSymbolicLink()) assert.notEqual(indexOfPair(args, '--symlink', fs.readlinkSync(folder), folder), -1, folder);
      else assert.notEqual(indexOfPair(args, '--ro-bind', folder, folder), -1, folder);
    }
  });

  test('the runtime\'s folder and the server bundle are visible read-only', () => {
    const shown = args.flatMap((arg, i) => (arg === '--ro-bind' || arg === '--symlink' ? [args[i + 2]!] : []));
    const bound = (folder: string) => shown.some((dest) => folder === dest || folder.startsWith(`${dest}/`));
    for (const folder of [path.dirname(process.execPath), path.dirname(fs.realpathSync(process.execPath)), path.dirname(fs.realpathSync(serverPath))]) {
      assert.ok(bound(folder), `${folder} is not visible: ${args.join(' ')}`);
    }
    assert.ok(!args.includes(repoRoot), 'the repository itself is not bound, only the bundle\'s folder');
  });

  test('order: /tmp, then runtime binds, then workspaces (parents first), then read-only root, /tmp and /dev; the refusal log is never bound', () => {
    const tmp = indexOfPair(args, '--tmpfs', '/tmp');
    const outer = indexOfPair(args, '--bind', ws, ws);
    const ro = indexOfPair(args, '--ro-bind', path.join(ws, 'ro'), path.join(ws, 'ro'));
    const inner = indexOfPair(args, '--bind', path.join(ws, 'ro', 'rw'), path.join(ws, 'ro', 'rw'));
    const usr = indexOfPair(args, '--ro-bind', '/usr', '/usr');
    assert.ok(tmp !== -1 && tmp < usr, '/tmp before the runtime: a bundle under /tmp stays visible');
    assert.ok(usr < outer && outer < ro && ro < inner, `workspaces after the runtime and /tmp, parents first: ${args.join(' ')}`);
    for (const folder of ['/tmp', '/dev', '/']) assert.ok(indexOfPair(args, '--remount-ro', folder) > inner, folder);
    assert.ok(!args.some((arg) => arg.startsWith(path.dirname(log))), 'neither the log nor its folder');
  });

  test('a workspace granted through a link is bound at its real path and its granted spelling recreated as a link', () => {
    const real = path.join(base, 'real');
    fs.mkdirSync(path.join(real, 'one'), { recursive: true });
    fs.symlinkSync(path.join(real, 'one'), path.join(base, 'at'));
    fs.symlinkSync(real, path.join(base, 'above'));
    const linked = bubblewrapArgs(
      serverConfig(grantsOf([{ uri: fileUri(path.join(base, 'at')), rights: 'read-write' }, { uri: fileUri(path.join(base, 'above', 'one', '..', 'one')), rights: 'read' }])),
    );
    // The same folder twice is one workspace with the narrower rights: read.
    assert.notEqual(indexOfPair(linked, '--ro-bind', path.join(real, 'one'), path.join(real, 'one')), -1, linked.join(' '));
    assert.notEqual(indexOfPair(linked, '--symlink', path.join(real, 'one'), path.join(base, 'at')), -1, linked.join(' '));
  });

  test('a workspace at /tmp or at / keeps its rights: the read-only remount skips it', () => {
    const atTmp = bubblewrapArgs(serverConfig([{ path: '/tmp', realPath: '/tmp', rights: 'read-write' }]));
    assert.equal(indexOfPair(atTmp, '--remount-ro', '/tmp'), -1);
    assert.notEqual(indexOfPair(atTmp, '--remount-ro', '/'), -1);
    const atRoot = bubblewrapArgs(serverConfig([{ path: '/', realPath: '/', rights: 'read-write' }]));
    assert.equal(indexOfPair(atRoot, '--remount-ro', '/'), -1);
    assert.equal(indexOfPair(atRoot, '--remount-ro', '/tmp'), -1);
  });

  test('sandboxLaunch runs the given command after `--`, with the allowlisted environment, a seccomp filter and the channel to the launcher', () => {
    const launch = sandboxLaunch(serverConfig([], log), '/bin/echo', ['a', 'b'], { PATH: '/usr/bin', GITHUB_TOKEN: 'secret', LANG: 'C.UTF-8', NODE_OPTIONS: '--require /x' });
    assert.equal(launch.command, findOnPath('bwrap', process.env) ?? 'bwrap');
    assert.deepEqual(launch.args.slice(-4), ['--', '/bin/echo', 'a', 'b']);
    assert.deepEqual(Object.keys(launch.env).sort(), ['BOUNDARY_INSPECTOR_SANDBOX', 'HOME', 'LANG']);
    assert.ok(!launch.args.includes('secret') && !launch.args.includes('--require /x'));
    assert.equal(launch.seccomp === undefined, seccompArchitecture(process.arch) === undefined);
    const marker = JSON.parse(launch.env.BOUNDARY_INSPECTOR_SANDBOX!) as { channel: number; refusalLog: string; outside: Record<string, string> };
    assert.equal(marker.channel, LAUNCHER_CHANNEL_FD);
    assert.equal(marker.refusalLog, log);
    assert.equal(marker.outside.pid, fs.readlinkSync('/proc/self/ns/pid'));
    assert.equal(fs.existsSync(log), false, 'nothing is created for the log: the launcher writes it when there is a line');
  });
});

// ------------------------------------------------------------------------------------------------
// The macOS profile and the other platforms
// ------------------------------------------------------------------------------------------------

describe('sandbox-exec profile (macOS), generated as text', () => {
  const rw = '/Users/me/My "Project" \\ x';
  const ro = `${rw}/vendor docs`;
  const rwAgain = `${ro}/scratch`;
  const app = '/Applications/Visual Studio Code.app/Contents';
  const config = {
    workspaces: [
      { path: rwAgain, realPath: rwAgain, rights: 'read-write' as const },
      { path: '/tmp/ro-link', realPath: '/private/tmp/ro', rights: 'read' as const },
      { path: ro, realPath: ro, rights: 'read' as const },
      { path: rw, realPath: rw, rights: 'read-write' as const },
    ],
    runtime: [`${app}/Frameworks/Code Helper (Plugin).app/Contents/MacOS/Code Helper (Plugin)`],
    libraries: [
      `${app}/Frameworks/Electron Framework.framework/Versions/A/Electron Framework`,
      '/opt/homebrew/opt/icu4c/lib/libicuuc.77.dylib',
      '/usr/lib/libSystem.B.dylib',
      '/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation',
    ],
    script: ['/Users/me/.vscode/extensions/bi/dist/server.js'],
  };
  const profile = seatbeltProfile(config);
  const lines = profile.split('\n');
  /** The body of the first rule that starts with `head`. */
  const rule = (head: string) => {
    const start = profile.indexOf(`(${head}`);
    assert.notEqual(start, -1, `no (${head} rule:\n${profile}`);
    return profile.slice(start, profile.indexOf(')\n(', start) + 1);
  };

  test('SBPL strings: backslash and double quote escaped, spaces kept, control characters cannot end the string', () => {
    assert.equal(sbplString('/a b/c'), '"/a b/c"');
    assert.equal(sbplString('/a"b\\c'), '"/a\\"b\\\\c"');
    assert.equal(sbplString('/a\nb'), '"/a\\x0ab"');
    assert.ok(profile.includes('(subpath "/Users/me/My \\"Project\\" \\\\ x")'), profile);
  });

  test('deny by default (files and network); no process but the runtime\'s exec, signals and process information only for itself', () => {
    assert.equal(lines[0], '(version 1)');
    assert.equal(lines[1], '(deny default)');
    assert.ok(lines.includes('(deny network*)'));
    assert.doesNotMatch(profile, /\(allow network|\(allow process-fork|\(allow default|\(allow file-read\*? *\)|\(allow file-write\*? *\)/);
    assert.equal(rule('allow process-exec'), `(allow process-exec\n  (literal ${sbplString(config.runtime[0]!)}))`);
    for (const line of ['(allow signal (target self))', '(allow process-info* (target self))']) assert.ok(lines.includes(line), line);
  });

  test('Mach services and sysctls by allowlist: no pasteboard, Spotlight, Apple Events or securityd; no kern.proc* or kern.procargs2', () => {
    assert.ok(!lines.includes('(allow mach-lookup)') && !lines.includes('(allow sysctl-read)'), 'neither is unrestricted');
    const mach = rule('allow mach-lookup');
    const named = [...mach.matchAll(/\(global-name "([^"]+)"\)/g)].map((match) => match[1]);
    assert.deepEqual(named, Object.keys(SEATBELT_MACH_SERVICES));
    for (const service of ['com.apple.pasteboard.1', 'com.apple.metadata.mds', 'com.apple.coreservices.appleevents', 'com.apple.SecurityServer', 'com.apple.securityd.xpc']) assert.ok(!mach.includes(service), service);
    assert.doesNotMatch(mach, /global-name-prefix/);
    const sysctl = rule('allow sysctl-read');
    assert.doesNotMatch(sysctl, /kern\.proc|procargs/);
    assert.match(sysctl, /\(sysctl-name "hw\.ncpu"\)/);
    assert.ok([...sysctl.matchAll(/sysctl-name-prefix "([^"]+)"/g)].every((match) => /^(hw|machdep)\./.test(match[1]!)), 'prefixes only for processor features');
  });

  test('no terminal: no ioctl at all, and no write to any device but /dev/null', () => {
    assert.doesNotMatch(profile, /file-ioctl/);
    assert.doesNotMatch(profile, /tty/);
    assert.ok(lines.includes('(allow file-write-data (literal "/dev/null"))'));
  });

  test('writes: only read-write workspaces; a nested read-only one denied AFTER its parent, a read-write one inside it allowed after that', () => {
    const at = (text: string) => {
      const i = profile.indexOf(text);
      assert.notEqual(i, -1, `missing ${text}\n${profile}`);
      return i;
    };
    const outer = at(`(allow file-write* (subpath ${sbplString(rw)}))`);
    const nestedReadOnly = at(`(deny file-write* (subpath ${sbplString(ro)}))`);
    const inner = at(`(allow file-write* (subpath ${sbplString(rwAgain)}))`);
    assert.ok(outer < nestedReadOnly && nestedReadOnly < inner, 'last match wins: parents first');
    const writeRules = lines.filter((line) => /allow file-write/.test(line));
    assert.equal(writeRules.length, 2 + 1, writeRules.join('\n'));
  });

  test('reads: the workspaces, the runtime and each library it loaded as files (not their folders), a framework\'s resources, the bundle, the system\'s own', () => {
    const reads = rule('allow file-read*');
    for (const subpath of [rw, ro, '/private/tmp/ro', '/Users/me/.vscode/extensions/bi/dist', '/usr/lib', '/System/Library', `${app}/Frameworks/Electron Framework.framework/Versions/A/Resources`]) {
      assert.ok(reads.includes(`(subpath ${sbplString(subpath)})`), `${subpath} is not readable:\n${reads}`);
    }
    for (const literal of [config.runtime[0]!, config.libraries[0]!, config.libraries[1]!, '/private/etc/localtime']) assert.ok(reads.includes(`(literal ${sbplString(literal)})`), literal);
    for (const folder of ['/Applications/Visual Studio Code.app', `${app}/Frameworks`, '/opt/homebrew/opt/icu4c/lib', '/opt/homebrew', '/Users/me', '/', '/dev']) {
      assert.ok(!reads.includes(`(subpath ${sbplString(folder)})`), `${folder} is readable as a whole`);
    }
    assert.ok(!reads.includes('libSystem'), 'system libraries come with /usr/lib');
    assert.equal(frameworkResources('/opt/homebrew/lib/libuv.1.dylib'), undefined);
    assert.deepEqual(ancestorsOf('/private/tmp/ro'), ['/', '/private', '/private/tmp']);
    const metadata = rule('allow file-read-metadata');
    for (const ancestor of ['/', '/Users', '/Users/me', '/private', '/private/tmp', '/tmp', '/tmp/ro-link', '/Applications', '/opt/homebrew/opt/icu4c/lib']) {
      assert.ok(metadata.includes(`(literal ${sbplString(ancestor)})`), `no metadata for ${ancestor}`);
    }
  });

  test('sandboxLaunch on darwin: /usr/bin/sandbox-exec -p <profile> <command> <args>, with the allowlisted environment; the log is not in the profile', () => {
    const base = makeTempDir();
    try {
      const log = path.join(base, 'logs', 'refusals.jsonl');
      const launch = sandboxLaunch(
        { platform: 'darwin', workspaces: [{ path: base, realPath: base, rights: 'read-write' }], refusalLog: log, runtime: '/usr/local/bin/node', script: '/opt/bi/dist/server.js' },
        '/usr/local/bin/node',
        ['/opt/bi/dist/server.js', '--workspace', fileUri(base)],
        { GITHUB_TOKEN: 'secret', TZ: 'UTC' },
      );
      assert.equal(launch.command, SANDBOX_EXEC);
      assert.equal(launch.args[0], '-p');
      assert.deepEqual(launch.args.slice(2), ['/usr/local/bin/node', '/opt/bi/dist/server.js', '--workspace', fileUri(base)]);
      assert.match(launch.args[1]!, /^\(version 1\)\n\(deny default\)/);
      assert.ok(launch.args[1]!.includes(`(allow file-write* (subpath ${sbplString(base)}))`));
      assert.ok(!launch.args[1]!.includes('refusals.jsonl'));
      assert.deepEqual(Object.keys(launch.env).sort(), ['BOUNDARY_INSPECTOR_SANDBOX', 'HOME', 'TZ']);
    } finally {
      removeDir(base);
    }
  });

  test('Windows: no operating-system sandbox; the state says so plainly', () => {
    assert.throws(() => sandboxLaunch({ platform: 'win32', workspaces: [], runtime: 'C:\\node.exe' }, 'C:\\node.exe', []), /no operating-system sandbox/);
    assert.match(WINDOWS_SANDBOX_DETAIL, /Windows has no operating-system sandbox/);
    assert.match(WINDOWS_SANDBOX_DETAIL, /authorization and containment/);
    assert.match(WINDOWS_SANDBOX_DETAIL, /cannot close/);
  });

  test('the detail names what is visible and what is writable', () => {
    const detail = sandboxDetail('bubblewrap', {
      platform: 'linux',
      workspaces: [{ path: '/srv/ws', realPath: '/srv/ws', rights: 'read-write' }, { path: '/srv/ref', realPath: '/srv/ref', rights: 'read' }],
      refusalLog: '/var/log/bi.jsonl',
      runtime: '/usr/bin/node',
    });
    assert.match(detail, /writable: \/srv\/ws/);
    assert.match(detail, /read-only: \/srv\/ref/);
    assert.match(detail, /\/var\/log\/bi\.jsonl/);
    assert.match(detail, /no network/);
  });
});

// ------------------------------------------------------------------------------------------------
// The refusal log's rotation
// ------------------------------------------------------------------------------------------------

describe('refusal log rotation: works whether or not the files can be renamed (bind mounts cannot)', () => {
  let base: string;
  before(() => {
    base = makeTempDir();
  });
  after(() => removeDir(base));

  const record = (n: number): RefusalRecord => ({
    time: new Date(0).toISOString(),
    tool: 'read_text_file',
    workspaceUri: null,
    input: `input-${n}-${'x'.repeat(200)}`,
    code: 'ERR_OUTSIDE',
    stage: 'containment',
    reason: 'outside',
    trace: null,
  });
  const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((line) => line !== '') : []);
  const inputs = (file: string) => lines(file).map((line) => (JSON.parse(line) as RefusalRecord).input.split('-')[1]);

  async function fill(file: string, count: number, errors: Error[]): Promise<void> {
    const log = new RefusalLog(file, 1024, (error) => errors.push(error));
    for (let n = 1; n <= count; n += 1) await log.append(record(n));
  }

  function assertBoundedWithNewest(file: string, count: number): void {
    assert.ok(fs.statSync(file).size <= 1024, `the log passed its limit: ${fs.statSync(file).size}`);
    assert.ok(fs.statSync(`${file}.1`).size <= 1024);
    assert.equal(inputs(file).at(-1), String(count), 'the newest line is the log\'s last');
    const kept = [...inputs(`${file}.1`), ...inputs(file)].map(Number);
    assert.deepEqual(kept, kept.map((_, i) => count - kept.length + 1 + i), 'the rotated file and the log hold the newest lines, in order, none lost');
  }

  test('by rename when it works', async () => {
    const file = path.join(base, 'renamed.jsonl');
    const errors: Error[] = [];
    await fill(file, 12, errors);
    assert.deepEqual(errors, []);
    assertBoundedWithNewest(file, 12);
  });

  for (const code of ['EBUSY', 'EXDEV', 'EROFS']) {
    test(`by copying when rename fails with ${code}; both files keep their inodes (what a bind mount needs)`, async () => {
      const file = path.join(base, `copied-${code}.jsonl`);
      fs.writeFileSync(file, '', { mode: 0o600 });
      fs.writeFileSync(`${file}.1`, '', { mode: 0o600 });
      const inodes = [fs.statSync(file).ino, fs.statSync(`${file}.1`).ino];
      const rename = mock.method(fs.promises, 'rename', async () => {
        throw Object.assign(new Error(`rename: ${code}`), { code });
      });
      try {
        const errors: Error[] = [];
        await fill(file, 12, errors);
        assert.deepEqual(errors, []);
        assert.ok(rename.mock.callCount() > 0, 'rotation was attempted');
      } finally {
        rename.mock.restore();
      }
      assertBoundedWithNewest(file, 12);
      assert.deepEqual([fs.statSync(file).ino, fs.statSync(`${file}.1`).ino], inodes);
    });
  }

  test('when neither rename nor the copy works, the failure is reported, the log still stays bounded and the newest line is written', async () => {
    const file = path.join(base, 'stuck.jsonl');
    fs.mkdirSync(`${file}.1`);
    const errors: Error[] = [];
    await fill(file, 12, errors);
    assert.ok(errors.length > 0, 'the failed rotation was reported');
    assert.ok(fs.statSync(file).size <= 1024);
    assert.equal(inputs(file).at(-1), '12');
  });
});

// ------------------------------------------------------------------------------------------------
// Inside the sandbox: a bare probe, no server
// ------------------------------------------------------------------------------------------------

/** Runs `node -e` under exactly the server's sandbox; each check is [operation, path], each result { ok, code?, value? }. */
const PROBE = `
const fs = require('fs');
const checks = JSON.parse(process.argv[1]);
const run = (op, target) => {
  switch (op) {
    case 'read': return fs.readFileSync(target, 'utf8');
    case 'stat': return fs.statSync(target).isDirectory() ? 'dir' : 'file';
    case 'list': return fs.readdirSync(target).sort();
    case 'write': fs.writeFileSync(target, 'written inside'); return null;
    case 'append': fs.appendFileSync(target, 'appended inside\\n'); return null;
    case 'realpath': return fs.realpathSync(target);
  }
};
const results = {};
for (const [label, [op, target]] of Object.entries(checks)) {
  try { results[label] = { ok: true, value: run(op, target) ?? null }; } catch (error) { results[label] = { ok: false, code: error.code }; }
}
const socket = require('net').connect({ host: '192.0.2.1', port: 80 });
let done = false;
const finish = (outcome) => {
  if (done) return;
  done = true;
  socket.destroy();
  results.network = outcome;
  // /proc/net/dev, not os.networkInterfaces(): the netlink socket that asks for is refused inside.
  results.interfaces = { ok: true, value: fs.readFileSync('/proc/self/net/dev', 'utf8').split('\\n').slice(2).map((line) => line.split(':')[0].trim()).filter(Boolean) };
  process.stdout.write(JSON.stringify(results));
};
socket.on('connect', () => finish({ ok: true }));
socket.on('error', (error) => finish({ ok: false, code: error.code }));
socket.setTimeout(5000, () => finish({ ok: false, code: 'TIMEOUT' }));
`;

type ProbeResults = Record<string, { ok: boolean; code?: string; value?: unknown }>;

function probeInside(config: SandboxConfig, checks: Record<string, [string, string]>): ProbeResults {
  const launch = sandboxLaunch(config, process.execPath, ['-e', PROBE, JSON.stringify(checks)]);
  const result = spawnSandboxedSync(launch, { timeout: patience(20_000) });
  assert.equal(result.status, 0, `the probe failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ProbeResults;
}

/** The names a listing of `folder` inside the sandbox may show: only the way to something bound below it. */
function pathsToward(folder: string, bound: readonly string[]): string[] {
  const names = new Set<string>();
  for (const target of bound) {
    const relative = path.relative(folder, target);
    if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)) names.add(relative.split(path.sep)[0]!);
  }
  return [...names].sort();
}

describe('the sandbox seen from inside (a bare node probe under the server\'s own bubblewrap arguments)', () => {
  let base: string;
  let ws: string;
  let log: string;
  let marker: string;
  let config: SandboxConfig;

  before(() => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    writeTree(base, { 'ws/a.txt': 'a', 'ws/ro/b.txt': 'b', 'ws/ro/rw/c.txt': 'c', 'sibling/secret.txt': 'secret', 'logs/other.txt': 'not the log' });
    log = path.join(base, 'logs', 'refusals.jsonl');
    marker = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-marker-'));
    if (process.platform === 'linux') {
      config = serverConfig(
        grantsOf([
          { uri: fileUri(ws), rights: 'read-write' },
          { uri: fileUri(path.join(ws, 'ro')), rights: 'read' },
          { uri: fileUri(path.join(ws, 'ro', 'rw')), rights: 'read-write' },
        ]),
        log,
      );
    }
  });
  after(() => {
    removeDir(base);
    removeDir(marker);
  });

  test('sees the workspaces and nothing beside them; writes only where granted read-write; the log is not there; no network', (t) => {
    const why = unavailable();
    if (why) {
      t.skip(why);
      return;
    }
    const home = os.homedir();
    const homeFiles = fs.existsSync(home) ? fs.readdirSync(home).map((name) => path.join(home, name)) : [];
    const homeFile = homeFiles.find((full) => isFile(full)) ?? path.join(home, '.profile');
    const r = probeInside(config, {
      siblingRead: ['read', path.join(base, 'sibling', 'secret.txt')],
      siblingStat: ['stat', path.join(base, 'sibling')],
      siblingList: ['list', path.join(base, 'sibling')],
      parentList: ['list', base],
      homeRead: ['read', homeFile],
      homeStat: ['stat', home],
      homeList: ['list', home],
      writeOutside: ['write', path.join(base, 'escaped.txt')],
      writeTmp: ['write', '/tmp/escaped.txt'],
      writeRoot: ['write', '/escaped.txt'],
      readInside: ['read', path.join(ws, 'a.txt')],
      writeInside: ['write', path.join(ws, 'inside.txt')],
      writeNestedReadOnly: ['write', path.join(ws, 'ro', 'no.txt')],
      writeReadWriteInReadOnly: ['write', path.join(ws, 'ro', 'rw', 'yes.txt')],
      tmpList: ['list', '/tmp'],
      markerStat: ['stat', marker],
      etcList: ['list', '/etc'],
      logAppend: ['append', log],
      rotatedAppend: ['append', `${log}.1`],
      logSiblingRead: ['read', path.join(base, 'logs', 'other.txt')],
      logSiblingWrite: ['write', path.join(base, 'logs', 'other.txt')],
      logSiblingCreate: ['write', path.join(base, 'logs', 'new.txt')],
      logFolderList: ['list', path.join(base, 'logs')],
    });
    const failed = (label: string) => assert.equal(r[label]?.ok, false, `${label} should have failed inside: ${JSON.stringify(r[label])}`);
    const succeeded = (label: string) => assert.equal(r[label]?.ok, true, `${label} should have worked inside: ${JSON.stringify(r[label])}`);

    for (const label of ['siblingRead', 'siblingStat', 'siblingList']) failed(label);
    assert.deepEqual(r.parentList?.value, ['ws'], 'the workspace\'s parent shows only the way to what is bound');

    const bound = [ws, path.dirname(fs.realpathSync(serverPath)), path.dirname(fs.realpathSync(process.execPath)), path.dirname(process.execPath)];
    failed('homeRead');
    const towardFromHome = pathsToward(home, bound);
    if (towardFromHome.length === 0) {
      failed('homeStat');
      failed('homeList');
    } else assert.deepEqual(r.homeList?.value, towardFromHome, 'the home folder shows only the way to the bundle or a workspace');

    for (const label of ['writeOutside', 'writeTmp', 'writeRoot']) {
      failed(label);
      assert.equal(r[label]?.code, 'EROFS', label);
    }
    assert.equal(fs.existsSync(path.join(base, 'escaped.txt')), false);
    succeeded('readInside');
    succeeded('writeInside');
    assert.equal(fs.readFileSync(path.join(ws, 'inside.txt'), 'utf8'), 'written inside');
    failed('writeNestedReadOnly');
    assert.equal(r.writeNestedReadOnly?.code, 'EROFS');
    assert.equal(fs.existsSync(path.join(ws, 'ro', 'no.txt')), false);
    succeeded('writeReadWriteInReadOnly');

    assert.deepEqual(r.tmpList?.value, pathsToward('/tmp', bound), '/tmp is empty but for the way to what is bound');
    failed('markerStat');
    assert.ok((r.etcList?.value as string[]).every((name) => name.startsWith('ld.so')), `only the loader's files of /etc: ${JSON.stringify(r.etcList?.value)}`);

    for (const label of ['logAppend', 'rotatedAppend', 'logSiblingRead', 'logSiblingWrite', 'logSiblingCreate', 'logFolderList']) failed(label);
    assert.equal(fs.existsSync(log), false, 'the log\'s files are the launcher\'s: nothing made them here');
    assert.equal(fs.readFileSync(path.join(base, 'logs', 'other.txt'), 'utf8'), 'not the log');
    assert.equal(fs.existsSync(path.join(base, 'logs', 'new.txt')), false);

    assert.equal(r.network?.ok, false);
    assert.notEqual(r.network?.code, 'TIMEOUT', 'the connection failed at once: no route out');
    assert.ok((r.interfaces?.value as string[]).every((name) => name === 'lo'), `only loopback: ${JSON.stringify(r.interfaces)}`);
  });

  test('startInSandbox starts a program that announces itself, and says why when the sandbox cannot start (nothing was read from stdin)', async (t) => {
    const why = unavailable();
    if (why) {
      t.skip(why);
      return;
    }
    const announce = `require('fs').writeSync(${LAUNCHER_CHANNEL_FD}, '${STARTED_INSIDE}')`;
    const started = await startInSandbox(config, process.execPath, ['-e', announce], process.env);
    assert.ok('child' in started, JSON.stringify(started));
    await new Promise((resolve) => started.child.once('exit', resolve));
    const gone = path.join(base, 'gone');
    const failed = await startInSandbox({ ...config, workspaces: [{ path: gone, realPath: gone, rights: 'read' }] }, process.execPath, ['-e', announce], process.env);
    assert.ok(!('child' in failed) && failed.active === false);
    assert.match(failed.detail, /bubblewrap could not start the server's sandbox here \(.*gone/, failed.detail);
    const silent = await startInSandbox(config, process.execPath, ['-e', 'process.exit(7)'], process.env);
    assert.ok(!('child' in silent) && /exit status 7/.test(silent.detail), 'a program that ends without announcing itself did not start');
  });

  test('a workspace granted through a link (at it, or above it) is seen under that spelling too, resolving to the same folder', (t) => {
    const why = unavailable();
    if (why) {
      t.skip(why);
      return;
    }
    const linked = path.join(base, 'linked');
    writeTree(linked, { 'real/one/1.txt': '1', 'real2/two/2.txt': '2' });
    fs.symlinkSync(path.join(linked, 'real', 'one'), path.join(linked, 'at'));
    fs.symlinkSync(path.join(linked, 'real2'), path.join(linked, 'above'));
    const at = path.join(linked, 'at');
    const above = path.join(linked, 'above', 'two');
    const linkedConfig = serverConfig(grantsOf([{ uri: fileUri(at), rights: 'read-write' }, { uri: fileUri(above), rights: 'read' }]));
    const r = probeInside(linkedConfig, {
      atReal: ['realpath', at],
      atList: ['list', at],
      atWrite: ['write', path.join(at, 'through-link.txt')],
      aboveReal: ['realpath', above],
      aboveRead: ['read', path.join(above, '2.txt')],
      aboveWrite: ['write', path.join(above, 'no.txt')],
    });
    assert.deepEqual(r.atReal, { ok: true, value: path.join(linked, 'real', 'one') });
    assert.deepEqual(r.atList, { ok: true, value: ['1.txt'] });
    assert.equal(r.atWrite?.ok, true, JSON.stringify(r.atWrite));
    assert.equal(fs.readFileSync(path.join(linked, 'real', 'one', 'through-link.txt'), 'utf8'), 'written inside');
    assert.deepEqual(r.aboveReal, { ok: true, value: path.join(linked, 'real2', 'two') });
    assert.deepEqual(r.aboveRead, { ok: true, value: '2' });
    assert.equal(r.aboveWrite?.ok, false);
  });
});

function isFile(target: string): boolean {
  try {
    return fs.statSync(target).isFile();
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------------------------------------
// Sandboxed server sessions
// ------------------------------------------------------------------------------------------------

// Each test starts a sandboxed server of its own, on folders of its own: side by side.
describe('the sandbox (default --sandbox auto, bubblewrap)', { concurrency: true }, () => {
  let base: string;
  let ws: string;
  let W: string;

  before(() => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    writeTree(base, { 'ws/a.txt': 'a', 'outside.txt': 'outside' });
    W = fileUri(ws);
  });
  after(() => removeDir(base));

  test('list_workspaces reports bubblewrap active; writes inside work; the refusal log (its file only bound writable) is written', async (t) => {
    const why = unavailable();
    if (why) {
      t.skip(why);
      return;
    }
    const log = path.join(base, 'logs', 'refusals.jsonl');
    const session = await connect('v2', { args: ['--workspace', W, '--refusal-log', log], sandbox: 'default' });
    try {
      const s = expectOk(await session.call('list_workspaces', {}), 'list_workspaces');
      assert.equal(s.layers.sandbox.active, true, `sandbox: ${JSON.stringify(s.layers.sandbox)}`);
      assert.equal(s.layers.sandbox.mechanism, 'bubblewrap');
      assert.ok(s.layers.sandbox.detail.includes(ws), `the detail names the writable workspace: ${s.layers.sandbox.detail}`);
      expectOk(await session.call('write_file', { workspaceUri: W, path: 'inside.txt', content: 'written in the sandbox' }), 'write inside');
      assert.equal(fs.readFileSync(path.join(ws, 'inside.txt'), 'utf8'), 'written in the sandbox');
      expectRefusal(await session.call('write_file', { workspaceUri: W, path: '../outside.txt', content: 'x' }), { code: 'ERR_OUTSIDE' }, 'write outside');
      await eventually(() => assert.match(fs.readFileSync(log, 'utf8'), /ERR_OUTSIDE/), 'the refusal log was written from inside the sandbox');
      assert.equal(fs.statSync(log).mode & 0o777, 0o600);
      assert.doesNotMatch(session.stderr(), /could not write the refusal log/);
    } finally {
      await session.close();
    }
  });

  test('a workspace granted through a link (at it and above it) is served from inside the sandbox', async (t) => {
    const why = unavailable();
    if (why) {
      t.skip(why);
      return;
    }
    writeTree(base, { 'real/one/1.txt': 'one', 'real2/two/2.txt': 'two' });
    fs.symlinkSync(path.join(base, 'real', 'one'), path.join(base, 'at'));
    fs.symlinkSync(path.join(base, 'real2'), path.join(base, 'above'));
    const At = fileUri(path.join(base, 'at'));
    const Above = fileUri(path.join(base, 'above', 'two'));
    const session = await connect('v1', { args: ['--workspace', At, '--read-only-workspace', Above], sandbox: 'default' });
    try {
      const s = expectOk(await session.call('list_workspaces', {}), 'list_workspaces');
      assert.equal(s.layers.sandbox.active, true, `sandbox: ${JSON.stringify(s.layers.sandbox)}`);
      const one = await session.call('read_text_file', { workspaceUri: At, path: '1.txt' });
      assert.equal(expectContent(one, 'read at'), 'one');
      const two = await session.call('read_text_file', { workspaceUri: Above, path: '2.txt' });
      assert.equal(expectContent(two, 'read above'), 'two');
      expectOk(await session.call('write_file', { workspaceUri: At, path: 'new.txt', content: 'n' }), 'write through the link');
      assert.equal(fs.readFileSync(path.join(base, 'real', 'one', 'new.txt'), 'utf8'), 'n');
    } finally {
      await session.close();
    }
  });

  test('past --refusal-log-size, the log rotates inside the sandbox (its files are mount points): bounded, newest line kept', async (t) => {
    const why = unavailable();
    if (why) {
      t.skip(why);
      return;
    }
    const log = path.join(base, 'rotating', 'refusals.jsonl');
    const limit = 8192;
    const session = await connect('v2', { args: ['--workspace', W, '--refusal-log', log, '--refusal-log-size', String(limit)], sandbox: 'default' });
    try {
      for (let n = 1; n <= 8; n += 1) {
        expectRefusal(await session.call('read_text_file', { workspaceUri: W, path: `../outside-${n}.txt` }), { code: 'ERR_OUTSIDE' }, `refusal ${n}`);
      }
      await eventually(() => assert.match(fs.readFileSync(log, 'utf8'), /outside-8\.txt/), 'the newest refusal reached the log');
      assert.doesNotMatch(session.stderr(), /could not write the refusal log/);
    } finally {
      await session.close();
    }
    const lines = fs.readFileSync(log, 'utf8').split('\n').filter((line) => line !== '');
    const rotated = fs.readFileSync(`${log}.1`, 'utf8');
    assert.ok(rotated.length > 0, 'the log rotated into refusals.jsonl.1');
    assert.ok(fs.statSync(log).size <= limit && Buffer.byteLength(rotated) <= limit, `both files stay bounded: ${fs.statSync(log).size} and ${Buffer.byteLength(rotated)} bytes`);
    assert.match(lines.at(-1) ?? '', /outside-8\.txt/, 'the newest line is the log\'s last');
    assert.ok(lines.length > 1 ? /outside-7\.txt/.test(lines.at(-2)!) : /outside-7\.txt/.test(rotated), 'the line before it was not lost in the rotation');
    assert.deepEqual(fs.readdirSync(path.dirname(log)).sort(), ['refusals.jsonl', 'refusals.jsonl.1']);
  });

  test('with Node 24 from the code-server test cache (.vscode-test), the server starts sandboxed too', async (t) => {
    const why = unavailable();
    const node24 = findBinNode(path.join(repoRoot, '.vscode-test'), 5);
    if (why || !node24) {
      t.skip(why ?? 'no */bin/node under .vscode-test (npm start installs it)');
      return;
    }
    const answer = await listWorkspacesWith(node24, ['--workspace', W]);
    assert.equal(answer.sandbox.active, true, `sandbox with ${node24}: ${JSON.stringify(answer.sandbox)}`);
    assert.equal(answer.sandbox.mechanism, 'bubblewrap');
  });

  test('control: the built server is the one spawned', () => {
    assert.ok(fs.existsSync(serverPath), `${serverPath} is missing: run node esbuild.mjs first`);
  });
});

/** The first `bin/node` at most `depth` folders below `folder`. */
function findBinNode(folder: string, depth: number): string | undefined {
  const candidate = path.join(folder, 'bin', 'node');
  if (isFile(candidate)) return candidate;
  if (depth === 0) return undefined;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const found = findBinNode(path.join(folder, entry.name), depth - 1);
    if (found) return found;
  }
  return undefined;
}

/** Starts the server with another runtime and asks list_workspaces over raw JSON-RPC (2025-11-25 handshake). */
function listWorkspacesWith(runtime: string, args: readonly string[]): Promise<{ sandbox: { active: boolean; mechanism: string | null; detail: string } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(runtime, [serverPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const cancel = expireAfter(20_000, () => {
      child.kill('SIGKILL');
      reject(new Error(`no answer from ${runtime}; stderr:\n${stderr}`));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let initialized = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split('\n')) {
        let message: { id?: number; result?: { structuredContent?: { layers?: { sandbox: { active: boolean; mechanism: string | null; detail: string } } } } };
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id === 1 && !initialized) {
          initialized = true;
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_workspaces', arguments: {} } })}\n`);
        }
        const sandbox = message.id === 2 ? message.result?.structuredContent?.layers?.sandbox : undefined;
        if (sandbox) {
          cancel();
          child.stdin.end();
          resolve({ sandbox });
          return;
        }
      }
    });
    child.on('error', reject);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'node24', version: '1' } } })}\n`);
  });
}
