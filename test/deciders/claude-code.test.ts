// The claude-code decider against Claude Code 2.1.332 itself: every recorded case runs through
// the model on the fixture the recording used (the case's folder on the real disk, its settings
// files written where Claude Code reads them), and must decide as the program did; where a
// settings rule or the mode decided, the verdict names that file and line; and every fix offered
// for a deny or ask, applied to a fresh copy of the case's folder, turns the decision to allow.
// Then rows the recording cannot hold: rules read from Claude Code's code on this disk, and
// Windows and macOS forms on a simulated one.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { claudeCode } from '../../src/deciders/claude-code/index.js';
import type { Platform } from '../../src/core/index.js';
import type { DeciderContext, DeciderFileSystem, Fix } from '../../src/deciders/index.js';
import { nodeDeciderFileSystem } from '../../src/host/node.js';
import { link } from '../server/table.js';
import { CASES, type ClaudeSettings, type DeciderCase } from './cases.js';
import { baseEnv, DEFAULT_SCRATCH, inputOf, makeCaseFixture, removeFixture, writeSettings, type CaseFixture } from './fixture.js';
import { readRecording } from './recording.js';
import { writeClaudeSettings } from './run/claudeCode.js';

const recording = readRecording();

/** A case's folder made and its settings written, and the context Claude Code would run in. */
function prepare(c: DeciderCase, env: Record<string, string> = {}): { fx: CaseFixture; context: DeciderContext } {
  const fx = makeCaseFixture(DEFAULT_SCRATCH, c, 'claude-code');
  const { settingsFile } = writeClaudeSettings(c, fx);
  const context: DeciderContext = {
    platform: 'linux',
    fs: nodeDeciderFileSystem,
    home: fx.home,
    cwd: fx.cwd,
    addDirs: (c.addDirs ?? []).map(fx.expand),
    allowed: [],
    env: { ...baseEnv(fx), ...env },
    ...(settingsFile ? { flags: { settings: settingsFile } } : {}),
  };
  return { fx, context };
}

const LAYER_FILES: Readonly<Record<keyof Omit<ClaudeSettings, 'trusted'>, (fx: CaseFixture) => string>> = {
  user: (fx) => path.join(fx.home, '.claude', 'settings.json'),
  project: (fx) => path.join(fx.cwd, '.claude', 'settings.json'),
  local: (fx) => path.join(fx.cwd, '.claude', 'settings.local.json'),
  flag: (fx) => path.join(fx.base, 'flag-settings.json'),
};

/** The 1-based line of the file holding `text` as a JSON string (or key), found by reading the file. */
function lineHolding(file: string, text: string): number {
  const index = fs.readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text));
  assert.notEqual(index, -1, `${text} is not in ${file}`);
  return index + 1;
}

// Where a settings rule or the mode decided: the layer and the rule (or `defaultMode`) as written.
const DECIDED_BY: Readonly<Record<string, { readonly layer: keyof typeof LAYER_FILES; readonly rule: string }>> = {
  'claude-deny-read-dot-relative': { layer: 'project', rule: 'Read(./a.txt)' },
  'claude-deny-read-case': { layer: 'project', rule: 'Read(./A.TXT)' },
  'claude-deny-read-dot-env-nested': { layer: 'project', rule: 'Read(./.env)' },
  'claude-deny-read-dot-env': { layer: 'project', rule: 'Read(./.env)' },
  'claude-deny-read-bare-nested': { layer: 'project', rule: 'Read(.env)' },
  'claude-deny-read-dot-path': { layer: 'project', rule: 'Read(./sub/b.txt)' },
  'claude-deny-read-dot-name-nested': { layer: 'project', rule: 'Read(./b.txt)' },
  'claude-deny-read-slash-project': { layer: 'project', rule: 'Read(/sub/**)' },
  'claude-deny-read-double-slash': { layer: 'project', rule: 'Read(/{base}/ws/a.txt)' },
  'claude-deny-read-double-slash-outside': { layer: 'project', rule: 'Read(/{base}/outside/**)' },
  'claude-deny-read-tilde': { layer: 'user', rule: 'Read(~/h.txt)' },
  'claude-deny-read-glob-star-star': { layer: 'project', rule: 'Read(**/*.txt)' },
  'claude-deny-read-glob-star-nested': { layer: 'project', rule: 'Read(*.txt)' },
  'claude-deny-read-glob-folder': { layer: 'project', rule: 'Read(./sub/*)' },
  'claude-deny-read-folder-bare': { layer: 'project', rule: 'Read(./sub)' },
  'claude-deny-read-folder-slash': { layer: 'project', rule: 'Read(./sub/)' },
  'claude-deny-read-nfc-rule': { layer: 'project', rule: 'Read(./caf\u00e9/**)' },
  'claude-deny-target-read-through-link': { layer: 'project', rule: 'Read(/{base}/outside/**)' },
  'claude-deny-link-read-by-target': { layer: 'project', rule: 'Read(./sub/**)' },
  'claude-deny-read-then-edit': { layer: 'project', rule: 'Read(./a.txt)' },
  'claude-deny-edit-write': { layer: 'project', rule: 'Edit(./new.txt)' },
  'claude-deny-edit-edit': { layer: 'project', rule: 'Edit(./a.txt)' },
  'claude-ask-read-inside': { layer: 'project', rule: 'Read(./a.txt)' },
  'claude-allow-read-outside-user': { layer: 'user', rule: 'Read(/{base}/outside/**)' },
  'claude-allow-read-outside-local': { layer: 'local', rule: 'Read(/{base}/outside/**)' },
  'claude-allow-read-outside-project-trusted': { layer: 'project', rule: 'Read(/{base}/outside/**)' },
  'claude-allow-read-case-user': { layer: 'user', rule: 'Read(/{base}/OUTSIDE/**)' },
  'claude-allow-edit-then-read-outside': { layer: 'user', rule: 'Edit(/{base}/outside/**)' },
  'claude-allow-edit-write-outside': { layer: 'user', rule: 'Edit(/{base}/outside/**)' },
  'claude-allow-edit-write-inside-local': { layer: 'local', rule: 'Edit(./**)' },
  'claude-allow-bare-read-outside': { layer: 'user', rule: '"Read"' },
  'claude-precedence-deny-over-allow': { layer: 'user', rule: 'Read(/{base}/outside/secret.txt)' },
  'claude-precedence-ask-over-allow': { layer: 'user', rule: 'Read(/{base}/outside/**)' },
  'claude-precedence-deny-over-ask': { layer: 'project', rule: 'Read(./*.txt)' },
  'claude-layers-user-deny-project-allow': { layer: 'user', rule: 'Read(/{base}/outside/**)' },
  'claude-layers-local-allow-project-deny': { layer: 'project', rule: 'Read(./a.txt)' },
  'claude-layers-local-deny': { layer: 'local', rule: 'Read(./a.txt)' },
  'claude-layers-user-dot-relative': { layer: 'user', rule: 'Read(./a.txt)' },
  'claude-layers-project-ask-user-allow': { layer: 'project', rule: 'Read(/{base}/outside/**)' },
  'claude-layers-flag-deny': { layer: 'flag', rule: 'Read(./a.txt)' },
  'claude-layers-flag-allow-project-deny': { layer: 'project', rule: 'Read(./a.txt)' },
  'claude-add-dir-flag-deny-rule': { layer: 'project', rule: 'Read(/{base}/extra/**)' },
  'claude-mode-bypass-deny-rule': { layer: 'project', rule: 'Read(./a.txt)' },
  'claude-mode-accept-edits-inside': { layer: 'project', rule: '"defaultMode"' },
  'claude-mode-accept-edits-user': { layer: 'user', rule: '"defaultMode"' },
  'claude-mode-accept-edits-local': { layer: 'local', rule: '"defaultMode"' },
  'claude-mode-bypass-outside-user': { layer: 'user', rule: '"defaultMode"' },
  'claude-mode-plan-write': { layer: 'project', rule: '"defaultMode"' },
  'claude-mode-dont-ask-outside': { layer: 'project', rule: '"defaultMode"' },
  'claude-accept-edits-dotenv': { layer: 'user', rule: '"defaultMode"' },
  'claude-accept-edits-edit-inside': { layer: 'user', rule: '"defaultMode"' },
  'claude-allow-both-link-ends-read': { layer: 'user', rule: 'Read(./escape-file)' },
  'claude-allow-read-tilde': { layer: 'user', rule: 'Read(~/h.txt)' },
  'claude-deny-read-one-name-folder-nested': { layer: 'project', rule: 'Read(./sub/**)' },
  'claude-deny-read-relative-added-dir': { layer: 'user', rule: 'Read(.env)' },
  'claude-deny-linked-folder-real-path': { layer: 'project', rule: 'Read(/{base}/ws/inner/**)' },
  'claude-deny-whole-write-tool': { layer: 'user', rule: '"Write"' },
};

/**
 * Applies a fix to a fresh copy of a case's folder, as a person would: the settings edits its text
 * names, the trust record, the `--add-dir` or the other path. Returns the context and input to try.
 */
function applyFix(fix: Fix, c: DeciderCase, from: CaseFixture): { fx: CaseFixture; context: DeciderContext; input: string } {
  const { fx, context } = prepare(c);
  const moved = (text: string) => text.replaceAll(from.base, fx.base);
  let input = inputOf(c, fx);
  const addDirs = [...context.addDirs];
  if (fix.path !== undefined) input = moved(fix.path);
  if (fix.flag !== undefined) {
    const [flag, value] = fix.flag.split(/ (.*)/s);
    assert.equal(flag, '--add-dir', fix.flag);
    addDirs.push(moved(value!));
  }
  const text = moved(fix.text);
  const trust = /^In (\S+): set `projects\[(".*?")\]\.hasTrustDialogAccepted` to `true`/.exec(text);
  if (trust) {
    const file = trust[1]!;
    const value = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { projects?: Record<string, object> }) : {};
    const key = JSON.parse(trust[2]!) as string;
    writeSettings(file, { ...value, projects: { ...(value.projects ?? {}), [key]: { ...(value.projects?.[key] ?? {}), hasTrustDialogAccepted: true } } }, fx);
  } else {
    for (const [, file, edits] of text.matchAll(/(?:^|\s)In (?:managed settings|--settings|local settings|project settings|user settings) (\S+?)(?: \(a new file\))?: (.*?)\.(?=\s+In |$)/g)) {
      const value = fs.existsSync(file!) ? (JSON.parse(fs.readFileSync(file!, 'utf8')) as { permissions?: Record<string, unknown> }) : {};
      const permissions: Record<string, unknown> = { ...(value.permissions ?? {}) };
      const list = (key: string) => (Array.isArray(permissions[key]) ? (permissions[key] as unknown[]) : []);
      for (const edit of edits!.split('; ')) {
        let m: RegExpExecArray | null;
        if ((m = /^remove `(.+)` from `permissions\.(\w+)`/.exec(edit))) permissions[m[2]!] = list(m[2]!).filter((entry) => entry !== m![1]);
        else if ((m = /^add `(.+)` to `permissions\.(\w+)`/.exec(edit))) permissions[m[2]!] = [...list(m[2]!), m[1]];
        else if ((m = /^set `permissions\.defaultMode` to `(\w+)`/.exec(edit))) permissions.defaultMode = m[1];
        else if (/^remove `permissions\.defaultMode`/.test(edit)) delete permissions.defaultMode;
        else assert.fail(`a fix's edit the test cannot apply: ${edit}`);
      }
      writeSettings(file!, { ...value, permissions }, fx);
    }
  }
  return { fx, context: { ...context, addDirs }, input };
}

describe('claude-code decides as Claude Code 2.1.332 was recorded deciding', () => {
  if (!recording) {
    test('the recording', () => assert.fail('test/deciders/recorded.json is missing'));
    return;
  }
  const recorded = recording;
  for (const c of CASES) {
    for (const tool of c.tools['claude-code'] ?? []) {
      const seen = recorded.cases[c.name]?.['claude-code']?.[tool];
      if (!seen) continue;
      test(`${c.name} ${tool}: ${seen.decision}`, () => {
        const { fx, context } = prepare(c);
        try {
          const verdict = claudeCode.decide(inputOf(c, fx), tool, context);
          assert.equal(verdict.decision, seen.decision, `recorded: ${seen.message.slice(0, 160)}\nmodel: ${fx.unexpand(JSON.stringify(verdict.stages.at(-1)))}`);
          assert.equal(verdict.tool, tool);
          assert.equal(verdict.basis, 'recorded', 'every recorded case is decided by rules the recording saw');

          const decidedBy = DECIDED_BY[c.name];
          if (decidedBy) {
            const file = LAYER_FILES[decidedBy.layer](fx);
            const rule = decidedBy.rule.startsWith('"') ? decidedBy.rule : JSON.stringify(fx.expand(decidedBy.rule));
            assert.equal(verdict.rule.source?.file, file, `decided by ${verdict.rule.text}`);
            assert.equal(verdict.rule.source?.line, lineHolding(file, rule), `the line of ${rule} in ${file}`);
          }

          if (verdict.decision === 'allow') {
            assert.deepEqual(verdict.fixes, []);
            return;
          }
          assert.ok(verdict.fixes.length > 0, 'a deny or ask offers a fix');
          if (['a sensitive file', 'a suspicious path form', 'a network path'].includes(verdict.rule.text)) {
            // No setting lifts it: the fix says so and points nowhere.
            assert.deepEqual(verdict.fixes.map((fix) => [fix.file, fix.flag, fix.path]), [[undefined, undefined, undefined]]);
            assert.match(verdict.fixes[0]!.text, /^No setting lets Claude Code (read|change)/);
            return;
          }
          for (const fix of verdict.fixes) {
            assert.ok(fix.file !== undefined || fix.flag !== undefined || fix.path !== undefined, `a fix that changes nothing: ${fix.text}`);
            const applied = applyFix(fix, c, fx);
            try {
              const after = claudeCode.decide(applied.input, tool, applied.context);
              assert.equal(after.decision, 'allow', `the fix "${fx.unexpand(fix.text)}" leaves ${after.decision}: ${applied.fx.unexpand(after.rule.text)}`);
            } finally {
              removeFixture(applied.fx);
            }
          }
        } finally {
          removeFixture(fx);
        }
      });
    }
  }
});

// ------------------------------------------------------------------------------------------------
// Rules the recording cannot hold, read from Claude Code 2.1.332's code: on this disk, in a case's
// folder (BASE_TREE), each decided as that code decides; the verdict says it is not recorded.
// ------------------------------------------------------------------------------------------------

interface Row extends DeciderCase {
  readonly tool: 'Read' | 'Write' | 'Edit';
  readonly want: 'allow' | 'ask' | 'deny';
  /** The verdict rests on the recording (default: not, these rows being beyond it). */
  readonly recorded?: true;
  readonly env?: Record<string, string>;
  /** More files to write, after the case's own (placeholders expanded). */
  readonly files?: Readonly<Record<string, object>>;
}

const row = (name: string, tool: Row['tool'], input: string, want: Row['want'], claude: ClaudeSettings, more: Partial<Row> = {}): Row => ({
  name,
  tool,
  input,
  want,
  claude,
  tools: { 'claude-code': [tool] },
  ...more,
});
const rules = (lists: { allow?: string[]; ask?: string[]; deny?: string[] }, more: object = {}) => ({ permissions: { ...lists, ...more } });
const acceptEdits = { permissions: { defaultMode: 'acceptEdits' } };

const ON_DISK: readonly Row[] = [
  // An allow `x/**` of one name is anchored at the working folder (recorded for conf/sub/): sub/ itself.
  row('allow one-name folder at the top', 'Write', '{base}/ws/sub/new.txt', 'allow', { local: rules({ allow: ['Edit(sub/**)'] }) }, { recorded: true }),
  // An unanchored allow is matched below the working folder only, not below an added one.
  row('relative allow not below an added folder', 'Write', '{base}/extra/new.txt', 'ask', { user: rules({ allow: ['Edit(new.txt)'] }) }, { addDirs: ['{base}/extra'] }),
  // Write, as Edit (recorded), does not write through a link at the last name.
  row('write to a link at the last name', 'Write', '{base}/ws/to-a', 'deny', { user: acceptEdits }, { tree: { 'ws/to-a': link('a.txt') }, recorded: true }),
  // Sensitive beyond the names the recording saw: .idea/, and a name in capitals.
  row('sensitive .idea folder', 'Write', '{base}/ws/.idea/workspace.xml', 'ask', { user: acceptEdits }),
  row('sensitive in upper case', 'Write', '{base}/ws/.GIT/new-hook', 'ask', { user: acceptEdits }),
  // An agent's worktree below the project's .claude/worktrees/ is not sensitive.
  row('.claude/worktrees is not sensitive', 'Write', '{base}/ws/.claude/worktrees/w1/new.txt', 'allow', { user: acceptEdits }),
  // A name ending in a dot, a form Windows reads otherwise, on Linux too.
  row('a name ending in a dot', 'Read', '{base}/ws/notes.', 'ask', {}, { tree: { 'ws/notes.': 'n\n' } }),
  // bypassPermissions as another user, its warning accepted: everything but a rule or a safety check.
  row('bypass as another user', 'Write', '{base}/outside/new.txt', 'allow', { user: { permissions: { defaultMode: 'bypassPermissions' } } }, { env: { USER: 'dev' }, files: { 'home/.claude.json': { bypassPermissionsModeAccepted: true } } }),
  row('bypass not yet accepted', 'Write', '{base}/outside/new.txt', 'ask', { user: { permissions: { defaultMode: 'bypassPermissions' } } }, { env: { USER: 'dev' } }),
  row('bypass and a sensitive file', 'Write', '{base}/ws/.git/new-hook', 'ask', { user: { permissions: { defaultMode: 'bypassPermissions' } } }, { env: { USER: 'dev' }, files: { 'home/.claude.json': { bypassPermissionsModeAccepted: true } } }),
  row('bypass and an ask rule', 'Read', '{base}/ws/a.txt', 'ask', { user: { permissions: { defaultMode: 'bypassPermissions', ask: ['Read(./a.txt)'] } } }, { env: { USER: 'dev' }, files: { 'home/.claude.json': { bypassPermissionsModeAccepted: true } } }),
  // dontAsk refuses a change that would ask, as it refuses a read (recorded).
  row('dontAsk and a write inside', 'Write', '{base}/ws/new.txt', 'deny', { project: { permissions: { defaultMode: 'dontAsk' } } }, { recorded: true }),
  // CLAUDE_CONFIG_DIR moves the user's settings: ~/.claude is then not read.
  row('CLAUDE_CONFIG_DIR moves the user settings', 'Read', '{base}/ws/a.txt', 'deny', { user: rules({ allow: ['Read(./a.txt)'] }) }, { env: { CLAUDE_CONFIG_DIR: '{base}/config' }, files: { 'config/settings.json': rules({ deny: ['Read(./a.txt)'] }) } }),
  // In a git repository the trust record of its top folder counts for a folder below it.
  row('trust of the repository top', 'Read', '{base}/outside/secret.txt', 'allow', { project: rules({ allow: ['Read(/{base}/outside/**)'] }) }, { cwd: 'ws/sub', files: { 'home/.claude.json': { projects: { '{base}/ws': { hasTrustDialogAccepted: true } } } } }),
  row('trust of the folder below the top', 'Read', '{base}/outside/secret.txt', 'ask', { project: rules({ allow: ['Read(/{base}/outside/**)'] }) }, { cwd: 'ws/sub', files: { 'home/.claude.json': { projects: { '{base}/ws/sub': { hasTrustDialogAccepted: true } } } } }),
  // A rule on the whole Write tool leaves Edit (Write denied so is recorded); an ask on the whole Read tool.
  row('deny on Write leaves Edit', 'Edit', '{base}/ws/a.txt', 'allow', { user: rules({ deny: ['Write'] }, { defaultMode: 'acceptEdits' }) }),
  row('ask on the whole Read tool', 'Read', '{base}/ws/a.txt', 'ask', { user: rules({ ask: ['Read'] }) }),
  // A settings file that is not JSON is not used.
  row('settings that are not JSON', 'Read', '{base}/ws/a.txt', 'allow', {}, { tree: { 'ws/.claude/settings.json': '{ "permissions": { "deny": ["Read(./a.txt)"] ' } }),
];

describe('claude-code on rules read from its code, on this disk', () => {
  for (const r of ON_DISK) {
    test(`${r.name}: ${r.want}`, () => {
      const { fx, context } = prepare(r, r.env ? Object.fromEntries(Object.entries(r.env).map(([key, value]) => [key, value.replaceAll('{base}', '')])) : {});
      try {
        for (const [file, value] of Object.entries(r.files ?? {})) writeSettings(path.join(fx.base, file), value, fx);
        const env = Object.fromEntries(Object.entries(context.env).map(([key, value]) => [key, value === undefined ? value : fx.expand(r.env?.[key] ?? value)]));
        const verdict = claudeCode.decide(inputOf(r, fx), r.tool, { ...context, env });
        assert.equal(verdict.decision, r.want, fx.unexpand(verdict.stages.map((stage) => `${stage.name}: ${stage.note}`).join('\n')));
        assert.equal(verdict.basis, r.recorded ? 'recorded' : 'documented', fx.unexpand(verdict.stages.at(-1)!.note));
        if (verdict.decision !== 'allow') assert.ok(verdict.fixes.length > 0);
      } finally {
        removeFixture(fx);
      }
    });
  }
});

// ------------------------------------------------------------------------------------------------
// Windows and macOS, and managed settings, on a simulated disk: the paths each platform spells.
// ------------------------------------------------------------------------------------------------

/** A disk in memory: files with their text, folders made for them; names compared without case except on Linux. */
function memoryDisk(platform: Platform, files: Readonly<Record<string, string>>): DeciderFileSystem {
  const separator = platform === 'win32' ? '\\' : '/';
  const key = (entry: string) => (platform === 'linux' ? entry : entry.toLowerCase()).replace(/[\\/]+$/, '');
  const entries = new Map<string, { kind: 'file' | 'directory'; text?: string; name: string }>();
  let ino = 1n;
  for (const [file, text] of Object.entries(files)) {
    const names = file.split(separator);
    for (let i = 1; i < names.length; i++) {
      const folder = names.slice(0, i).join(separator) || separator;
      if (!entries.has(key(folder))) entries.set(key(folder), { kind: 'directory', name: names[i - 1]! });
    }
    entries.set(key(file), { kind: 'file', text, name: names.at(-1)! });
  }
  const root = (entry: string) => entry === '/' || /^[A-Za-z]:\\?$/.test(entry);
  return {
    lstat: (entry) => {
      const found = entries.get(key(entry));
      if (found) return { kind: found.kind, dev: 1n, ino: ino++ };
      return root(entry) ? { kind: 'directory', dev: 1n, ino: 0n } : { kind: 'missing' };
    },
    readlink: () => ({ ok: false, errno: 'EINVAL' }),
    readText: (entry) => entries.get(key(entry))?.text,
    listNames: (folder) => [...entries.entries()].filter(([entry]) => entry.startsWith(`${key(folder)}${separator}`) && !entry.slice(key(folder).length + 1).includes(separator)).map(([, found]) => found.name),
  };
}

interface SimulatedRow {
  readonly name: string;
  readonly platform: Platform;
  readonly home: string;
  readonly cwd: string;
  readonly files: Readonly<Record<string, object | string>>;
  readonly tool: 'Read' | 'Write';
  readonly input: string;
  readonly want: 'allow' | 'ask' | 'deny';
  /** The file and line the deciding rule is written at. */
  readonly source?: { readonly file: string; readonly line: number };
  readonly addDirs?: readonly string[];
  /** A difference from Boundary Inspector's own rules the verdict must say. */
  readonly difference?: RegExp;
}

const settingsText = (value: object | string) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
const WIN_HOME = 'C:\\Users\\me';
const WIN_CWD = 'C:\\Work\\Proj';
const MAC_HOME = '/Users/me';
const MAC_CWD = '/Users/me/Proj';

const SIMULATED: readonly SimulatedRow[] = [
  // `//c/...` is an absolute Windows path in a rule.
  { name: 'win32 //c/ rule', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: { 'C:\\Users\\me\\.claude\\settings.json': rules({ deny: ['Read(//c/Users/me/secret/**)'] }), 'C:\\Users\\me\\secret\\a.txt': 'a' }, tool: 'Read', input: 'C:\\Users\\me\\secret\\a.txt', want: 'deny', source: { file: 'C:\\Users\\me\\.claude\\settings.json', line: 4 } },
  // A drive path written in a rule is absolute too.
  { name: 'win32 drive rule', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: { 'C:\\Users\\me\\.claude\\settings.json': rules({ allow: ['Read(C:\\Data\\**)'] }), 'C:\\Data\\x.txt': 'x' }, tool: 'Read', input: 'C:\\Data\\x.txt', want: 'allow', source: { file: 'C:\\Users\\me\\.claude\\settings.json', line: 4 } },
  // Windows' path.relative ignores letter case: the working folder in other letters still holds the file.
  { name: 'win32 working folder in other case', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: { 'C:\\Work\\Proj\\a.txt': 'a' }, tool: 'Read', input: 'c:\\work\\PROJ\\a.txt', want: 'allow' },
  // A relative path and forward slashes.
  { name: 'win32 relative with slashes', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: { 'C:\\Work\\Proj\\sub\\b.txt': 'b' }, tool: 'Read', input: 'sub/b.txt', want: 'allow' },
  // An 8.3 short name may open another file than it seems.
  { name: 'win32 short name', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: {}, tool: 'Read', input: 'C:\\Work\\Proj\\PROGRA~1\\x.txt', want: 'ask' },
  // A colon past the drive names an NTFS stream.
  { name: 'win32 stream name', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: { 'C:\\Work\\Proj\\a.txt': 'a' }, tool: 'Write', input: 'C:\\Work\\Proj\\a.txt:hidden', want: 'ask' },
  // A network share asks, whatever the rules.
  { name: 'win32 UNC path', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: { 'C:\\Users\\me\\.claude\\settings.json': rules({ allow: ['Read'] }) }, tool: 'Read', input: '\\\\server\\share\\a.txt', want: 'ask' },
  // Managed settings on Windows, in Program Files: above every other layer.
  { name: 'win32 managed deny', platform: 'win32', home: WIN_HOME, cwd: WIN_CWD, files: { 'C:\\Program Files\\ClaudeCode\\managed-settings.json': rules({ deny: ['Read(./a.txt)'] }), 'C:\\Work\\Proj\\.claude\\settings.local.json': rules({ allow: ['Read(./a.txt)'] }), 'C:\\Work\\Proj\\a.txt': 'a' }, tool: 'Read', input: 'C:\\Work\\Proj\\a.txt', want: 'deny', source: { file: 'C:\\Program Files\\ClaudeCode\\managed-settings.json', line: 4 } },
  // macOS: the disk ignores case, Claude Code's working folders do not.
  { name: 'darwin working folder in other case', platform: 'darwin', home: MAC_HOME, cwd: MAC_CWD, files: { '/Users/me/Proj/a.txt': 'a' }, tool: 'Read', input: '/Users/me/proj/a.txt', want: 'ask', difference: /letter for letter/ },
  // macOS: the rules ignore case.
  { name: 'darwin rule in other case', platform: 'darwin', home: MAC_HOME, cwd: MAC_CWD, files: { '/Users/me/.claude/settings.json': rules({ deny: ['Read(./SECRET.txt)'] }), '/Users/me/Proj/secret.txt': 's' }, tool: 'Read', input: '/Users/me/Proj/secret.txt', want: 'deny', source: { file: '/Users/me/.claude/settings.json', line: 4 } },
  // allowManagedPermissionRulesOnly: the user's allow is not in force.
  { name: 'darwin managed rules only', platform: 'darwin', home: MAC_HOME, cwd: MAC_CWD, files: { '/Library/Application Support/ClaudeCode/managed-settings.json': { allowManagedPermissionRulesOnly: true }, '/Users/me/.claude/settings.json': rules({ allow: ['Read(//etc/hosts)'] }), '/etc/hosts': 'h' }, tool: 'Read', input: '/etc/hosts', want: 'ask' },
  // A managed drop-in file adds its rules.
  { name: 'linux managed drop-in', platform: 'linux', home: '/home/me', cwd: '/home/me/proj', files: { '/etc/claude-code/managed-settings.d/10-secrets.json': rules({ deny: ['Read(**/.env)'] }), '/home/me/proj/conf/.env': 'X=1' }, tool: 'Read', input: '/home/me/proj/conf/.env', want: 'deny', source: { file: '/etc/claude-code/managed-settings.d/10-secrets.json', line: 4 } },
];

describe('claude-code on Windows and macOS paths and managed settings, simulated', () => {
  for (const r of SIMULATED) {
    test(`${r.name}: ${r.want}`, () => {
      const files = Object.fromEntries(Object.entries(r.files).map(([file, value]) => [file, settingsText(value)]));
      const fs = memoryDisk(r.platform, files);
      const verdict = claudeCode.decide(r.input, r.tool, { platform: r.platform, fs, home: r.home, cwd: r.cwd, addDirs: r.addDirs ?? [], allowed: [], env: {} });
      assert.equal(verdict.decision, r.want, verdict.stages.map((stage) => `${stage.name}: ${stage.note}`).join('\n'));
      assert.equal(verdict.basis, 'documented', 'recorded on Linux only');
      if (r.source) assert.deepEqual({ file: verdict.rule.source?.file, line: verdict.rule.source?.line }, r.source);
      if (r.difference) assert.ok(verdict.differences.some((difference) => r.difference!.test(difference)), verdict.differences.join('\n'));
      if (verdict.decision !== 'allow') assert.ok(verdict.fixes.length > 0);
    });
  }
});
