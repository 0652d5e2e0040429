// What the recording of Gemini CLI could not cover, row by row on a disk in memory: its rules on
// macOS and Windows, the environment's say on trust, settings it refuses or expands, its own
// folders, and the policy engine's other turns, as its code (0.61.0) has them. Each row's verdict
// is "documented" where the recording never saw the rule decide.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Platform } from '../../src/core/index.js';
import { geminiCli } from '../../src/deciders/gemini-cli/index.js';
import type { Decision } from '../../src/deciders/index.js';
import { fakeDisk, type FakeEntry } from './fakeDisk.js';

interface Row {
  /** The trap, as the row's name. */
  readonly name: string;
  readonly platform?: Platform;
  readonly disk?: Readonly<Record<string, FakeEntry>>;
  readonly cwd?: string;
  readonly input: string;
  readonly tool?: 'read_file' | 'write_file';
  readonly env?: Readonly<Record<string, string>>;
  /** Gemini CLI's own flags, as the context carries them. */
  readonly flags?: Readonly<Record<string, string>>;
  readonly addDirs?: readonly string[];
  /** No trustedFolders.json rule for the working folder. */
  readonly untrusted?: true;
  readonly want: Decision;
  /** What the deciding rule says. */
  readonly rule?: RegExp;
  readonly basis?: 'recorded' | 'documented';
}

const HOME = { linux: '/home/me', darwin: '/Users/me', win32: 'C:\\Users\\me' } as const;
const CWD = { linux: '/work/ws', darwin: '/Users/me/ws', win32: 'C:\\ws' } as const;

const settings = (value: object) => JSON.stringify(value, null, 2);
const ROOT_OWNED = (text: string, mode = 0o100644) => ({ text, uid: 0, mode });

const ROWS: readonly Row[] = [
  // ---------------------------------------------------------------------------------------------
  // The system settings file: skipped when others could have written it.
  // ---------------------------------------------------------------------------------------------
  // Not owned by root: skipped without a word in the decision.
  { name: 'system settings not owned by root are skipped', disk: { '/etc/gemini-cli/settings.json': { text: settings({ context: { includeDirectories: ['/work/extra'] } }), uid: 1000, mode: 0o100644 }, '/work/extra/notes.txt': 'x' }, input: '/work/extra/notes.txt', want: 'deny', basis: 'documented' },
  // Its folder writable by the group: skipped too.
  { name: 'system settings in a group-writable folder are skipped', disk: { '/etc/gemini-cli': { uid: 0, mode: 0o40775, folder: true }, '/etc/gemini-cli/settings.json': ROOT_OWNED(settings({ context: { includeDirectories: ['/work/extra'] } })), '/work/extra/notes.txt': 'x' }, input: '/work/extra/notes.txt', want: 'deny' },

  // ---------------------------------------------------------------------------------------------
  // Trust, settings and flags Gemini CLI reads before any path.
  // ---------------------------------------------------------------------------------------------
  // A trust level it does not know stops it at start.
  { name: 'an unknown trust level stops it at start', disk: { '/home/me/.gemini/trustedFolders.json': settings({ '/work/ws': 'TRUSTED' }) }, input: '/work/ws/a.txt', want: 'deny', rule: /Invalid trust level/ },
  // GEMINI_CLI_TRUSTED_FOLDERS_PATH moves the trust file.
  { name: 'GEMINI_CLI_TRUSTED_FOLDERS_PATH moves the trust file', untrusted: true, env: { GEMINI_CLI_TRUSTED_FOLDERS_PATH: '/etc/trust.json' }, disk: { '/etc/trust.json': settings({ '/work': 'TRUST_FOLDER' }) }, input: '/work/ws/a.txt', want: 'allow' },
  // `${VAR:-default}` when the variable is unset.
  { name: '${VAR:-default} in includeDirectories', disk: { '/home/me/.gemini/settings.json': settings({ context: { includeDirectories: ['${EXTRA:-/work/extra}'] } }), '/work/extra/notes.txt': 'x' }, input: '/work/extra/notes.txt', want: 'allow' },
  // Comments are allowed in a settings file.
  { name: 'comments in a settings file', disk: { '/home/me/.gemini/settings.json': '{\n  // more\n  "context": { "includeDirectories": ["/work/extra"] /* here */ }\n}', '/work/extra/notes.txt': 'x' }, input: '/work/extra/notes.txt', want: 'allow' },
  // An untrusted workspace's broken file stops it too: every file is read.
  { name: "an untrusted workspace's broken settings stop it at start", untrusted: true, env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' }, disk: { '/work/ws/.gemini/settings.json': '{' }, input: '/work/ws/a.txt', want: 'deny', rule: /refuses to start/ },
  // --yolo and --approval-mode together: yargs refuses.
  { name: '--yolo with --approval-mode refuses to start', flags: { yolo: 'true', 'approval-mode': 'auto_edit' }, input: '/work/ws/new.txt', tool: 'write_file', want: 'deny', rule: /Cannot use both/ },
  // The approval mode as the context's flag.
  { name: 'approval-mode auto_edit as a flag', flags: { 'approval-mode': 'auto_edit' }, input: '/work/ws/new.txt', tool: 'write_file', want: 'allow' },

  // ---------------------------------------------------------------------------------------------
  // Paths and Gemini CLI's own folders.
  // ---------------------------------------------------------------------------------------------
  // A .bzl extension is a build file, whatever its case.
  { name: 'a .BZL file is a build file', flags: { 'approval-mode': 'auto_edit' }, input: '/work/ws/rules.BZL', tool: 'write_file', want: 'deny', rule: /build file/ },
  // `@/sub/b.txt`: the `@` and the slashes after it dropped.
  { name: '@/ reference', input: '@/sub/b.txt', want: 'allow' },
  // `@sub` kept when a name beginning with `@` is there.
  { name: '@ kept for a name that has it', disk: { '/work/ws/@sub/b.txt': 'at' }, input: '@sub/b.txt', want: 'allow' },
  // Once projects.json gives the project another name, the folder named after it is another project's.
  { name: "the folder's own name is another project's once registered otherwise", flags: { 'approval-mode': 'yolo' }, disk: { '/home/me/.gemini/projects.json': settings({ projects: { '/work/ws': 'ws-2' } }), '/home/me/.gemini/tmp/ws-2/.project_root': '/work/ws' }, input: '/home/me/.gemini/tmp/ws/x.txt', tool: 'write_file', want: 'deny' },
  // A slug taken by another project's folder: the next one is claimed.
  { name: 'a slug owned by another project', flags: { 'approval-mode': 'yolo' }, disk: { '/home/me/.gemini/tmp/ws/.project_root': '/elsewhere/ws' }, input: '/home/me/.gemini/tmp/ws-1/x.txt', tool: 'write_file', want: 'allow' },
  // context.fileName as a list: its first name is the global memory file.
  { name: 'context.fileName renames the global memory file', disk: { '/home/me/.gemini/settings.json': settings({ context: { fileName: ['AGENTS.md', 'GEMINI.md'] } }), '/home/me/.gemini/AGENTS.md': 'm' }, input: '/home/me/.gemini/AGENTS.md', want: 'allow' },
  // ...and GEMINI.md is no longer it.
  { name: 'GEMINI.md is not the memory file once renamed', disk: { '/home/me/.gemini/settings.json': settings({ context: { fileName: 'AGENTS.md' } }), '/home/me/.gemini/GEMINI.md': 'm' }, input: '/home/me/.gemini/GEMINI.md', want: 'deny' },
  // GEMINI_CLI_HOME moves its own files, the project temp directory with them.
  { name: 'GEMINI_CLI_HOME moves its own folders', flags: { 'approval-mode': 'yolo' }, env: { GEMINI_CLI_HOME: '/srv/gh' }, untrusted: true, disk: { '/srv/gh/.gemini/trustedFolders.json': settings({ '/work/ws': 'TRUST_FOLDER' }) }, input: '/srv/gh/.gemini/tmp/ws/x.txt', tool: 'write_file', want: 'allow', basis: 'documented' },
  // Under macOS's sandbox-exec its temporary folders move to ~/.cache/.gemini.
  { name: 'sandbox-exec moves the temporary folders', flags: { 'approval-mode': 'yolo' }, env: { SANDBOX: 'sandbox-exec' }, untrusted: true, disk: { '/home/me/.cache/.gemini/trustedFolders.json': settings({ '/work/ws': 'TRUST_FOLDER' }) }, input: '/home/me/.cache/.gemini/tmp/ws/x.txt', tool: 'write_file', want: 'allow', basis: 'documented' },

  // ---------------------------------------------------------------------------------------------
  // macOS (simulated): a disk that ignores case, a check that does not.
  // ---------------------------------------------------------------------------------------------
  // A name typed in another case: Node's realpath keeps it, path.relative compares it: outside.
  { name: 'macOS: the working folder typed in another case', platform: 'darwin', input: '/Users/me/WS/a.txt', want: 'deny', basis: 'documented' },
  // .ENV is blocked on macOS as everywhere.
  { name: 'macOS: .ENV', platform: 'darwin', input: '/Users/me/ws/.ENV', want: 'deny', basis: 'documented' },
  // A trust rule typed in another case still trusts (trust keys are lower-cased on macOS).
  { name: 'macOS: a trust rule in another case', platform: 'darwin', untrusted: true, disk: { '/Users/me/.gemini/trustedFolders.json': settings({ '/users/me/WS': 'TRUST_FOLDER' }) }, input: '/Users/me/ws/a.txt', want: 'allow', basis: 'documented' },
  // The system settings live in /Library/Application Support/GeminiCli.
  { name: "macOS: the system settings' place", platform: 'darwin', disk: { '/Library/Application Support/GeminiCli/settings.json': ROOT_OWNED(settings({ context: { includeDirectories: ['/Users/me/extra'] } })), '/Users/me/extra/n.txt': 'x' }, input: '/Users/me/extra/n.txt', want: 'allow', basis: 'documented' },

  // ---------------------------------------------------------------------------------------------
  // Windows (simulated).
  // ---------------------------------------------------------------------------------------------
  // A path in another case is inside: path.win32.relative folds case.
  { name: 'Windows: the working folder in another case', platform: 'win32', input: 'c:\\WS\\a.txt', want: 'allow', basis: 'documented' },
  // Forward slashes are separators.
  { name: 'Windows: forward slashes', platform: 'win32', input: 'C:/ws/a.txt', want: 'allow', basis: 'documented' },
  // An alternate data stream of .env.
  { name: 'Windows: .env with a stream', platform: 'win32', input: 'C:\\ws\\.env:secret', want: 'deny', basis: 'documented' },
  // The 8.3 short name of .git.
  { name: 'Windows: GIT~1', platform: 'win32', input: 'C:\\ws\\GIT~1\\config', want: 'deny', basis: 'documented' },
  // .env with a trailing dot and space, which Windows drops.
  { name: 'Windows: .env. with a trailing space', platform: 'win32', input: 'C:\\ws\\.env. ', want: 'deny', basis: 'documented' },
  // Another drive.
  { name: 'Windows: another drive', platform: 'win32', input: 'D:\\ws\\a.txt', want: 'deny', basis: 'documented' },
  // A sibling whose name starts with the folder's.
  { name: "Windows: a sibling whose name starts with the folder's", platform: 'win32', input: 'C:\\ws-evil\\a.txt', want: 'deny', basis: 'documented' },
  // A relative path with backslashes.
  { name: 'Windows: a relative path with backslashes', platform: 'win32', input: 'sub\\b.txt', want: 'allow', basis: 'documented' },
  // The system settings in C:\ProgramData\gemini-cli (their ACLs are not modelled).
  { name: "Windows: the system settings' place", platform: 'win32', disk: { 'C:\\ProgramData\\gemini-cli\\settings.json': settings({ context: { includeDirectories: ['C:\\extra'] } }), 'C:\\extra\\n.txt': 'x' }, input: 'C:\\extra\\n.txt', want: 'allow', basis: 'documented' },
];

describe('gemini-cli where the recording cannot reach', () => {
  for (const row of ROWS) {
    test(row.name, () => {
      const platform = row.platform ?? 'linux';
      const home = HOME[platform];
      const cwd = row.cwd ?? CWD[platform];
      const sep = platform === 'win32' ? '\\' : '/';
      const disk: Record<string, FakeEntry> = {
        [`${CWD[platform]}${sep}a.txt`]: 'a',
        [`${CWD[platform]}${sep}sub${sep}b.txt`]: 'b',
        ...(row.untrusted ? {} : { [`${home}${sep}.gemini${sep}trustedFolders.json`]: settings({ [cwd]: 'TRUST_FOLDER' }) }),
        ...row.disk,
      };
      const verdict = geminiCli.decide(row.input, row.tool ?? 'read_file', {
        platform,
        fs: fakeDisk(platform, disk),
        home,
        cwd,
        addDirs: row.addDirs ?? [],
        ...(row.flags ? { flags: row.flags } : {}),
        allowed: [],
        env: { HOME: home, ...row.env },
      });
      const trace = `${verdict.rule.text}\n${verdict.stages.map((s) => `${s.name} ${s.status}: ${s.note}`).join('\n')}`;
      assert.equal(verdict.decision, row.want, trace);
      if (row.rule) assert.match(verdict.rule.text, row.rule, trace);
      assert.equal(verdict.basis, row.basis ?? 'recorded', trace);
      if (verdict.decision !== 'allow') assert.ok(verdict.fixes.length > 0, 'a deny or an ask offers a fix');
    });
  }
});

// trace --as on another platform than the machine's: a disk with nothing on it.
const NO_DISK = { lstat: () => ({ kind: 'missing' as const }), readlink: () => ({ ok: false as const, errno: 'ENOENT' }), readText: () => undefined };

describe('gemini-cli on a simulated platform reads nothing and takes its folders as given', () => {
  // Each: the platform, the input, the tool, the decision.
  const SIMULATED: readonly [Platform, string, 'read_file' | 'write_file', Decision][] = [
    // Inside, read: the working folder is taken as there and trusted.
    ['win32', 'C:\\ws\\sub\\b.txt', 'read_file', 'allow'],
    // .env folded to .ENV: blocked.
    ['win32', 'C:\\ws\\.ENV', 'read_file', 'deny'],
    // A write in the default mode: asks.
    ['darwin', '/Users/me/ws/new.txt', 'write_file', 'ask'],
    // Another drive: outside.
    ['win32', 'D:\\x', 'read_file', 'deny'],
  ];
  for (const [platform, input, tool, want] of SIMULATED) {
    test(`${platform} ${input} ${tool}`, () => {
      const verdict = geminiCli.decide(input, tool, { platform, fs: NO_DISK, simulated: true, home: HOME[platform], cwd: CWD[platform], addDirs: [], allowed: [], env: {} });
      assert.equal(verdict.decision, want, verdict.rule.text);
      assert.equal(verdict.basis, 'documented');
      assert.match(verdict.stages.at(-1)!.note, /simulated/);
    });
  }
});

test('gemini-cli: a working folder that is not there starts nothing', () => {
  const verdict = geminiCli.decide('/work/ws/a.txt', 'read_file', { platform: 'linux', fs: fakeDisk('linux', {}), home: HOME.linux, cwd: '/work/none', addDirs: [], allowed: [], env: {} });
  assert.equal(verdict.decision, 'deny');
  assert.match(verdict.rule.text, /not a folder/);
});
