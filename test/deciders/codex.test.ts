// The Codex decider against the real Codex: every recorded case of the table, on the same folder
// and files the recording laid out, read from the real disk, decides as Codex 0.171.0 decided.
// The line that decided is the line in the file; every fix offered, applied to a fresh copy of the
// case, turns the decision to allow (or, for a configuration Codex will not start with, lets it
// start). Rows of its own cover what Linux cannot show: Windows and macOS path forms, simulated.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { DECIDERS, type DeciderContext, type DeciderFileSystem, type DeciderVerdict, type Fix } from '../../src/deciders/index.js';
import { lineOf, tableSpan } from '../../src/deciders/codex/toml.js';
import { nodeDeciderFileSystem } from '../../src/host/node.js';
import { fakeWin32Fs } from '../core/fakeWin32Fs.js';
import { CASES, type DeciderCase, type ToolName } from './cases.js';
import { DEFAULT_SCRATCH, inputOf, makeCaseFixture, removeFixture, type CaseFixture } from './fixture.js';
import { readRecording } from './recording.js';
import { layCodexSettings } from './run/codex.js';

const codex = DECIDERS.codex!;
const recording = readRecording();
const SCRATCH = path.join(DEFAULT_SCRATCH, 'model');
/** Where the recording's stand-in listened: only written into config.toml, never called. */
const STAND_IN = 'http://127.0.0.1:9';

after(() => fs.rmSync(SCRATCH, { recursive: true, force: true }));

interface Laid {
  readonly fx: CaseFixture;
  readonly ctx: DeciderContext;
  readonly input: string;
}

/** A fresh folder for the case, laid out as the recording laid it, and Codex's context in it. */
function lay(c: DeciderCase): Laid {
  const fx = makeCaseFixture(SCRATCH, c, 'codex');
  const run = layCodexSettings(c, fx, STAND_IN);
  const ctx: DeciderContext = {
    platform: 'linux',
    fs: nodeDeciderFileSystem,
    home: fx.home,
    cwd: fx.cwd,
    addDirs: run.addDirs,
    allowed: [],
    env: { HOME: fx.home, PATH: '/usr/bin:/bin', ...run.env },
    flags: run.flags,
  };
  return { fx, ctx, input: inputOf(c, fx) };
}

const codexCases = CASES.filter((c) => c.tools.codex !== undefined);
const jobs = codexCases.flatMap((c) => c.tools.codex!.map((tool) => ({ c, tool })));

function recorded(c: DeciderCase, tool: ToolName) {
  return recording?.cases[c.name]?.codex?.[tool];
}

describe('codex decides as Codex 0.171.0 was recorded deciding', () => {
  test('every Codex case of the table is recorded', () => {
    assert.deepEqual(
      jobs.filter(({ c, tool }) => recorded(c, tool) === undefined).map(({ c, tool }) => `${c.name} ${tool}`),
      [],
    );
  });

  const agree = new Map<string, { agree: number; of: number }>();
  for (const { c, tool } of jobs) {
    test(`${c.name} ${tool}`, () => {
      const seen = recorded(c, tool);
      assert.ok(seen, 'not recorded');
      const { fx, ctx, input } = lay(c);
      try {
        const verdict = codex.decide(input, tool, ctx);
        const tally = agree.get(tool) ?? { agree: 0, of: 0 };
        agree.set(tool, { agree: tally.agree + (verdict.decision === seen.decision ? 1 : 0), of: tally.of + 1 });
        assert.equal(verdict.decision, seen.decision, `${verdict.rule.text}\n${verdict.stages.map((stage) => `${stage.name}: ${stage.status} ${stage.note}`).join('\n')}\nrecorded: ${seen.message}`);
        assert.equal(verdict.tool, tool);
        assert.equal(verdict.basis, 'recorded');
        if (verdict.decision !== 'allow') assert.ok(verdict.fixes.length > 0, 'a refusal offers a fix');
      } finally {
        removeFixture(fx);
      }
    });
  }
  test('agreement, per tool', () => {
    const figures = Object.fromEntries([...agree].map(([tool, { agree: n, of }]) => [tool, `${n}/${of}`]));
    console.log(`codex agreement with the recording: ${JSON.stringify(figures)}`);
    for (const { agree: n, of } of agree.values()) assert.equal(n, of);
  });
});

// Where a setting decides, the verdict names its file and the line that holds it.
const SOURCES: readonly { readonly name: string; readonly tool: ToolName; readonly file?: string; readonly holds?: string; readonly flag?: string }[] = [
  // read-only set in config.toml.
  { name: 'codex-read-only-inside', tool: 'apply_patch', file: 'home/.codex/config.toml', holds: 'sandbox_mode = "read-only"' },
  // read-only in the profile file --profile chose, over config.toml's workspace-write.
  { name: 'codex-profile-file-flag', tool: 'shell-write', file: 'home/.codex/locked.config.toml', holds: 'sandbox_mode = "read-only"' },
  // read-only in a trusted project's own .codex/config.toml.
  { name: 'codex-project-config-mode', tool: 'apply_patch', file: 'ws/.codex/config.toml', holds: 'sandbox_mode = "read-only"' },
  // /tmp kept out by exclude_slash_tmp.
  { name: 'codex-tmp-excluded', tool: 'shell-write', file: 'home/.codex/config.toml', holds: 'exclude_slash_tmp = true' },
  // $TMPDIR kept out by exclude_tmpdir_env_var.
  { name: 'codex-tmpdir-excluded', tool: 'apply_patch', file: 'home/.codex/config.toml', holds: 'exclude_tmpdir_env_var = true' },
  // The writable root that let the write in.
  { name: 'codex-writable-roots-inside', tool: 'apply_patch', file: 'home/.codex/config.toml', holds: 'writable_roots = ["{base}/extra"]' },
  // A relative root in a trusted project's file.
  { name: 'codex-project-writable-roots-relative', tool: 'shell-write', file: 'ws/.codex/config.toml', holds: 'writable_roots = ["../../extra"]' },
  // workspace-write from a trusted project without sandbox_mode.
  { name: 'codex-trusted-project-default', tool: 'apply_patch', file: 'home/.codex/config.toml', holds: 'trust_level = "trusted"' },
  // The legacy selector Codex will not start with.
  { name: 'codex-profile-legacy-selector', tool: 'apply_patch', file: 'home/.codex/config.toml', holds: 'profile = "open"' },
  // The legacy table --profile may not be used with.
  { name: 'codex-profile-legacy-table-flag', tool: 'shell-write', file: 'home/.codex/config.toml', holds: '[profiles.locked]' },
  // approval_policy = "untrusted", no longer taken.
  { name: 'codex-approval-untrusted-inside', tool: 'apply_patch', file: 'home/.codex/config.toml', holds: 'approval_policy = "untrusted"' },
  // A mode Codex does not know.
  { name: 'codex-sandbox-mode-invalid', tool: 'apply_patch', file: 'home/.codex/config.toml', holds: 'sandbox_mode = "workspace"' },
  // --sandbox over config.toml.
  { name: 'codex-sandbox-flag-over-config', tool: 'apply_patch', flag: '--sandbox read-only' },
  // --add-dir's folder.
  { name: 'codex-add-dir-inside', tool: 'shell-write', flag: '--add-dir {base}/extra' },
];

describe('codex names the file and line, or the flag, that decided', () => {
  for (const row of SOURCES) {
    test(`${row.name} ${row.tool}`, () => {
      const c = CASES.find((candidate) => candidate.name === row.name)!;
      const { fx, ctx, input } = lay(c);
      try {
        const source = codex.decide(input, row.tool, ctx).rule.source;
        assert.ok(source, 'no source');
        if (row.flag !== undefined) {
          assert.equal(source.flag, fx.expand(row.flag));
          return;
        }
        assert.equal(source.file, path.join(fx.base, row.file!));
        assert.ok(source.line, 'no line');
        assert.equal(fs.readFileSync(source.file, 'utf8').split('\n')[source.line - 1]!.trim(), fx.expand(row.holds!));
      } finally {
        removeFixture(fx);
      }
    });
  }
});

/** A fix made on disk (its file), or in the context (its flag), or in the input (its path). */
function applyFix(fix: Fix, laid: Laid): { ctx: DeciderContext; input: string } {
  let { ctx, input } = laid;
  if (fix.file !== undefined && fix.add !== undefined) {
    const text = fs.existsSync(fix.file) ? fs.readFileSync(fix.file, 'utf8') : '';
    const lines = text.split('\n');
    if (fix.line !== undefined) lines.splice(fix.line - 1, fix.lines ?? 1, ...(fix.add === '' ? [] : fix.add.split('\n')));
    else {
      if (lines.at(-1) === '') lines.pop();
      lines.push(...fix.add.split('\n'), '');
    }
    fs.mkdirSync(path.dirname(fix.file), { recursive: true });
    fs.writeFileSync(fix.file, lines.join('\n'));
  }
  if (fix.flag !== undefined) {
    const words = fix.flag.split(' ');
    const addDirs = [...ctx.addDirs];
    const flags = { ...ctx.flags };
    for (let i = 0; i < words.length; i += 2) {
      if (words[i] === '--add-dir') addDirs.push(words[i + 1]!);
      else flags[words[i]!.replace(/^--/, '')] = words[i + 1]!;
    }
    ctx = { ...ctx, addDirs, flags };
  }
  if (fix.path !== undefined) input = fix.path;
  return { ctx, input };
}

const refusedToStart = (verdict: DeciderVerdict) => verdict.stages[0]?.status === 'refuse';

describe('every refusal offers a fix that works', () => {
  for (const { c, tool } of jobs.filter(({ c, tool }) => recorded(c, tool)?.decision === 'deny')) {
    test(`${c.name} ${tool}`, () => {
      const first = lay(c);
      const verdict = codex.decide(first.input, tool, first.ctx);
      removeFixture(first.fx);
      const outcomes: string[] = [];
      for (const fix of verdict.fixes) {
        // Each fix on a fresh copy of the case; paths in it name the first copy's folder.
        const laid = lay(c);
        const moved = JSON.parse(JSON.stringify(fix).replaceAll(first.fx.base, laid.fx.base)) as Fix;
        try {
          const fixed = applyFix(moved, laid);
          const after = codex.decide(fixed.input, tool, fixed.ctx);
          const works = refusedToStart(verdict) ? !refusedToStart(after) : after.decision === 'allow';
          outcomes.push(`${works ? 'works' : 'fails'}: ${fix.text} -> ${after.decision} (${after.rule.text})`);
        } finally {
          removeFixture(laid.fx);
        }
      }
      assert.ok(outcomes.some((outcome) => outcome.startsWith('works')), `no fix works:\n${outcomes.join('\n')}`);
    });
  }
});

/** A POSIX disk in memory, for macOS: each path given is there as it is written; links are read, never followed here. */
function memoryDisk(entries: Readonly<Record<string, string | { readonly link: string } | null>>): DeciderFileSystem {
  const disk = new Map<string, { kind: 'file' | 'directory' | 'symlink'; text?: string; target?: string }>();
  for (const [where, what] of Object.entries(entries)) {
    const names = where.split('/').filter(Boolean);
    for (let depth = 1; depth < names.length; depth++) {
      const folder = `/${names.slice(0, depth).join('/')}`;
      if (!disk.has(folder)) disk.set(folder, { kind: 'directory' });
    }
    const at = `/${names.join('/')}`;
    disk.set(at, what === null ? { kind: 'directory' } : typeof what === 'string' ? { kind: 'file', text: what } : { kind: 'symlink', target: what.link });
  }
  disk.set('/', { kind: 'directory' });
  let ino = 0n;
  return {
    lstat: (at) => {
      const entry = disk.get(at);
      return entry ? { kind: entry.kind, dev: 1n, ino: ++ino } : { kind: 'missing' };
    },
    readlink: (at) => {
      const entry = disk.get(at);
      return entry?.kind === 'symlink' ? { ok: true, target: entry.target! } : { ok: false, errno: 'EINVAL' };
    },
    readText: (at) => disk.get(at)?.text,
  };
}

/** A Windows volume in memory (names without case), with the text of its configuration files. */
function windowsDisk(folders: readonly string[], files: Readonly<Record<string, string>>): DeciderFileSystem {
  const volume = fakeWin32Fs();
  for (const folder of folders) volume.dir(folder);
  for (const file of Object.keys(files)) volume.file(file);
  const texts = new Map(Object.entries(files).map(([file, text]) => [file.toUpperCase(), text]));
  return Object.assign(volume, { readText: (at: string) => texts.get(at.toUpperCase()) });
}

interface SimulatedRow {
  readonly name: string;
  readonly ctx: Omit<DeciderContext, 'allowed'>;
  readonly input: string;
  readonly tool: ToolName;
  readonly want: 'allow' | 'deny';
  /** Part of the deciding rule's text. */
  readonly rule?: string;
  readonly basis?: 'recorded' | 'documented';
  /** Part of a difference from Boundary Inspector's own rules the verdict must say. */
  readonly difference?: string;
}

const WIN_HOME = 'C:\\Users\\dev';
const WIN_PROJECT = 'C:\\Users\\dev\\proj';
const WIN_CONFIG = 'C:\\Users\\dev\\.codex\\config.toml';
const winDisk = (config: string, more: Readonly<Record<string, string>> = {}) =>
  windowsDisk([WIN_PROJECT, `${WIN_PROJECT}\\sub`, 'C:\\Users\\dev\\extra', 'C:\\Users\\dev\\.codex'], { [WIN_CONFIG]: config, ...more });
const winCtx = (fsPort: DeciderFileSystem): SimulatedRow['ctx'] => ({ platform: 'win32', fs: fsPort, home: WIN_HOME, cwd: WIN_PROJECT, addDirs: [], env: { USERPROFILE: WIN_HOME } });
const WIN_SANDBOX = 'sandbox_mode = "workspace-write"\n[windows]\nsandbox = "unelevated"\n';

const MAC_HOME = '/Users/dev';
const macDisk = (config: string) =>
  memoryDisk({ '/Users/dev/proj/a.txt': 'a\n', '/Users/dev/.codex/config.toml': config, '/private/tmp': null, '/tmp': { link: 'private/tmp' }, '/Users/dev/outside': null });
const macCtx = (config: string): SimulatedRow['ctx'] => ({ platform: 'darwin', fs: macDisk(config), home: MAC_HOME, cwd: '/Users/dev/proj', addDirs: [], env: { HOME: MAC_HOME } });

const SIMULATED: readonly SimulatedRow[] = [
  // Windows without Codex's own sandbox: workspace-write runs as read-only.
  { name: 'windows-workspace-write-downgraded', ctx: winCtx(winDisk('sandbox_mode = "workspace-write"\n')), input: `${WIN_PROJECT}\\new.txt`, tool: 'apply_patch', want: 'deny', rule: 'read-only', basis: 'documented' },
  // Windows with [windows] sandbox set: the working folder is writable.
  { name: 'windows-sandbox-on', ctx: winCtx(winDisk(WIN_SANDBOX)), input: `${WIN_PROJECT}\\new.txt`, tool: 'apply_patch', want: 'allow', basis: 'documented' },
  // Forward slashes after the drive: the same folder.
  { name: 'windows-forward-slashes', ctx: winCtx(winDisk(WIN_SANDBOX)), input: 'C:/Users/dev/proj/sub/new.txt', tool: 'apply_patch', want: 'allow' },
  // A lower-case drive letter: drive letters are one.
  { name: 'windows-drive-letter-case', ctx: winCtx(winDisk(WIN_SANDBOX)), input: 'c:\\Users\\dev\\proj\\new.txt', tool: 'apply_patch', want: 'allow' },
  // The folder's name in other letter case: Codex's own check compares names as written.
  { name: 'windows-name-case', ctx: winCtx(winDisk(WIN_SANDBOX)), input: 'C:\\Users\\dev\\PROJ\\new.txt', tool: 'apply_patch', want: 'deny', rule: 'outside the writable roots', difference: 'letter case included' },
  // A relative writable root is taken from $CODEX_HOME, with backslashes.
  { name: 'windows-relative-writable-root', ctx: winCtx(winDisk(`${WIN_SANDBOX}[sandbox_workspace_write]\nwritable_roots = ['..\\extra']\n`)), input: 'C:\\Users\\dev\\extra\\new.txt', tool: 'shell-write', want: 'allow', rule: 'C:\\Users\\dev\\extra' },
  // A drive-relative path on the working folder's drive.
  { name: 'windows-drive-relative', ctx: winCtx(winDisk(WIN_SANDBOX)), input: 'C:sub\\new.txt', tool: 'apply_patch', want: 'allow' },
  // The system configuration under ProgramData, read first and overridden by nothing here.
  { name: 'windows-system-config', ctx: winCtx(windowsDisk([WIN_PROJECT, 'C:\\Data'], { 'C:\\ProgramData\\OpenAI\\Codex\\config.toml': 'sandbox_mode = "danger-full-access"\n' })), input: 'C:\\Data\\new.txt', tool: 'apply_patch', want: 'allow', rule: 'danger-full-access', basis: 'documented' },
  // macOS: /tmp is a link to /private/tmp; a patch to /tmp passes both checks.
  { name: 'macos-tmp-alias', ctx: macCtx('sandbox_mode = "workspace-write"\n'), input: '/tmp/new.txt', tool: 'apply_patch', want: 'allow', basis: 'documented' },
  // macOS: the same file by /private/tmp fails Codex's own check, which knows /tmp only as written.
  { name: 'macos-private-tmp-patch', ctx: macCtx('sandbox_mode = "workspace-write"\n'), input: '/private/tmp/new.txt', tool: 'apply_patch', want: 'deny', rule: 'outside the writable roots' },
  // ...and a shell write there lands in the sandbox's /tmp.
  { name: 'macos-private-tmp-shell', ctx: macCtx('sandbox_mode = "workspace-write"\n'), input: '/private/tmp/new.txt', tool: 'shell-write', want: 'allow' },
  // A config.toml that is not TOML: Codex stops at start, naming the line.
  { name: 'toml-syntax-error', ctx: macCtx('sandbox_mode = \n'), input: '/Users/dev/proj/a.txt', tool: 'shell-read', want: 'deny', rule: 'not valid TOML' },
  // CODEX_HOME naming a folder that is not there.
  { name: 'codex-home-missing', ctx: { ...macCtx(''), env: { HOME: MAC_HOME, CODEX_HOME: '/nowhere' } }, input: '/Users/dev/proj/a.txt', tool: 'shell-read', want: 'deny', rule: 'CODEX_HOME' },
  // A [permissions] profile chosen: not modelled, so only documented.
  { name: 'default-permissions', ctx: macCtx('default_permissions = "mine"\nsandbox_mode = "workspace-write"\n'), input: '/Users/dev/proj/new.txt', tool: 'apply_patch', want: 'allow', basis: 'documented' },
  // --sandbox with a mode Codex does not know.
  { name: 'sandbox-flag-invalid', ctx: { ...macCtx(''), flags: { sandbox: 'full' } }, input: '/Users/dev/proj/new.txt', tool: 'apply_patch', want: 'deny', rule: '--sandbox' },
  // writable_roots written as a string, not an array.
  { name: 'writable-roots-not-array', ctx: macCtx('sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = "/Users/dev/outside"\n'), input: '/Users/dev/outside/new.txt', tool: 'apply_patch', want: 'deny', rule: 'invalid type' },
  // A trust level Codex does not know.
  { name: 'trust-level-unknown', ctx: macCtx('[projects."/Users/dev/proj"]\ntrust_level = "yes"\n'), input: '/Users/dev/proj/new.txt', tool: 'apply_patch', want: 'deny', rule: 'unknown variant' },
];

describe('codex on what Linux cannot show (simulated)', () => {
  for (const row of SIMULATED) {
    test(row.name, () => {
      const verdict = codex.decide(row.input, row.tool, { ...row.ctx, allowed: [] });
      assert.equal(verdict.decision, row.want, `${verdict.rule.text}\n${verdict.stages.map((stage) => `${stage.name}: ${stage.status} ${stage.note}`).join('\n')}`);
      if (row.rule !== undefined) assert.ok(verdict.rule.text.includes(row.rule), verdict.rule.text);
      if (row.basis !== undefined) assert.equal(verdict.basis, row.basis);
      if (row.difference !== undefined) assert.ok(verdict.differences.some((text) => text.includes(row.difference!)), verdict.differences.join('\n'));
      if (verdict.decision === 'deny') assert.ok(verdict.fixes.length > 0);
    });
  }
});

// The line a setting is written on, however config.toml spells it.
const LINES: readonly { readonly name: string; readonly text: string; readonly path: readonly string[]; readonly line: number | undefined }[] = [
  // A key under its table's header.
  { name: 'key-under-header', text: 'a = 1\n[sandbox_workspace_write]\n# roots\nwritable_roots = ["/x"]\n', path: ['sandbox_workspace_write', 'writable_roots'], line: 4 },
  // A dotted key at the top level.
  { name: 'dotted-key', text: 'sandbox_workspace_write.exclude_slash_tmp = true\n', path: ['sandbox_workspace_write', 'exclude_slash_tmp'], line: 1 },
  // An inline table: the line of the key holding it.
  { name: 'inline-table', text: 'x = 1\nsandbox_workspace_write = { exclude_slash_tmp = true }\n', path: ['sandbox_workspace_write', 'exclude_slash_tmp'], line: 2 },
  // A header whose quoted key holds dots and slashes.
  { name: 'quoted-header', text: '[projects."/home/a.b/ws"]\ntrust_level = "trusted"\n', path: ['projects', '/home/a.b/ws', 'trust_level'], line: 2 },
  // A key inside a multi-line array is no key.
  { name: 'inside-array', text: 'writable_roots = [\n  "/a",\n]\nsandbox_mode = "read-only"\n', path: ['sandbox_mode'], line: 4 },
  // The same key in another table is not it.
  { name: 'other-table', text: '[profiles.x]\nsandbox_mode = "read-only"\n', path: ['sandbox_mode'], line: undefined },
  // An array of tables opens a table too.
  { name: 'array-of-tables', text: '[[hooks]]\nsandbox_mode = "x"\n[other]\n', path: ['sandbox_mode'], line: undefined },
];

describe('codex finds the line a setting is written on', () => {
  for (const row of LINES) test(row.name, () => assert.equal(lineOf(row.text, row.path), row.line));
  // A table's lines run from its header to its last key, blank lines and comments after it left out.
  test('table-span', () => assert.deepEqual(tableSpan('a = 1\n[profiles.x]\nb = 2\nc = [\n 1,\n]\n\n# next\n[other]\n', ['profiles', 'x']), { line: 2, lines: 5 }));
});

// Fixes that edit config.toml where the recording's spelling is not the only one: each row's
// file fix, applied to the case's folder, allows.
const SPELLINGS: readonly DeciderCase[] = [
  // The exclusion of /tmp as a dotted key at the top.
  { name: 'fix-dotted-exclusion', tools: { codex: ['apply_patch'] }, input: '/tmp/{case}.txt', codex: { config: 'sandbox_mode = "workspace-write"\nsandbox_workspace_write.exclude_slash_tmp = true' } },
  // writable_roots spread over several lines.
  { name: 'fix-multi-line-roots', tools: { codex: ['shell-write'] }, input: '{base}/outside/new.txt', codex: { config: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = [\n  "{base}/extra",\n]' } },
  // A [sandbox_workspace_write] table without writable_roots.
  { name: 'fix-table-without-roots', tools: { codex: ['apply_patch'] }, input: '{base}/outside/new.txt', codex: { config: 'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nnetwork_access = false' } },
  // No sandbox_mode, and a table first in the file: the mode goes above it.
  { name: 'fix-mode-above-table', tools: { codex: ['apply_patch'] }, input: '{base}/ws/new.txt', codex: { config: '[sandbox_workspace_write]\nnetwork_access = false' } },
];

describe('codex fixes edit config.toml as it is spelled', () => {
  for (const c of SPELLINGS) {
    test(c.name, () => {
      const first = lay(c);
      const tool = c.tools.codex![0]!;
      const verdict = codex.decide(first.input, tool, first.ctx);
      removeFixture(first.fx);
      assert.equal(verdict.decision, 'deny');
      const edits = verdict.fixes.filter((fix) => fix.file !== undefined && fix.add !== undefined && fix.file.endsWith('config.toml'));
      assert.ok(edits.length > 0, 'no edit of config.toml offered');
      for (const fix of edits) {
        const laid = lay(c);
        try {
          const fixed = applyFix(JSON.parse(JSON.stringify(fix).replaceAll(first.fx.base, laid.fx.base)) as Fix, laid);
          const after = codex.decide(fixed.input, tool, fixed.ctx);
          assert.equal(after.decision, 'allow', `${fix.text}: ${after.rule.text}\n${fs.readFileSync(fix.file!.replace(first.fx.base, laid.fx.base), 'utf8')}`);
        } finally {
          removeFixture(laid.fx);
        }
      }
    });
  }
});
