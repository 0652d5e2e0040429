// VS Code's agent, row by row on a disk in memory: its file tools as VS Code 1.139.1's code has
// them (not recorded live), on Linux, and on macOS and Windows simulated. Each ask or deny offers
// a fix that is applied to the row (a settings entry written to the user settings file, a folder
// added to the workspace, a path given instead) and checked to turn the decision to allow.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Platform } from '../../src/core/index.js';
import type { DeciderContext, Decision, DeciderVerdict } from '../../src/deciders/index.js';
import { vscodeAgent } from '../../src/deciders/vscode-agent/index.js';
import { fakeDisk, type FakeEntry } from './fakeDisk.js';

interface Row {
  readonly name: string;
  readonly platform?: Platform;
  readonly disk?: Readonly<Record<string, FakeEntry>>;
  readonly cwd?: string;
  readonly addDirs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly input: string;
  readonly tool?: string;
  /** User settings, written to the user settings file as JSON (or as the text given). */
  readonly user?: object | string;
  /** The working folder's .vscode/settings.json. */
  readonly workspace?: object;
  readonly want: Decision;
  readonly rule?: RegExp;
  /** The deciding rule's source line in the user settings file. */
  readonly line?: number;
  /** A word the stages' notes hold. */
  readonly noted?: RegExp;
}

const HOME = { linux: '/home/me', darwin: '/Users/me', win32: 'C:\\Users\\me' } as const;
const CWD = { linux: '/work/ws', darwin: '/Users/me/ws', win32: 'C:\\ws' } as const;
const USER_FILE = { linux: '/home/me/.config/Code/User/settings.json', darwin: '/Users/me/Library/Application Support/Code/User/settings.json', win32: 'C:\\Users\\me\\AppData\\Roaming\\Code\\User\\settings.json' } as const;
const EDITS = 'chat.tools.edits.autoApprove';
const json = (value: object) => JSON.stringify(value, null, 2);

const FILES: Readonly<Record<string, FakeEntry>> = {
  '/work/ws/a.txt': 'a',
  '/work/ws/sub/b.txt': 'b',
  '/work/ws2/a.txt': 'sibling',
  '/work/other/a.txt': 'other',
  '/elsewhere/x.txt': 'x',
  '/work/ws/out': { link: '/elsewhere' },
  '/elsewhere/in': { link: '/work/ws/sub' },
};

const sensitive = (name: string, input: string, glob: RegExp): Row => ({ name, input, tool: 'replace_string_in_file', want: 'ask', rule: glob });

const ROWS: readonly Row[] = [
  // Inside the folder: read and edited without a question.
  { name: 'inside, read', input: '/work/ws/a.txt', want: 'allow' },
  { name: 'inside, edited', input: '/work/ws/sub/b.txt', tool: 'replace_string_in_file', want: 'allow' },
  // Outside: a question for a read and for an edit alike, not a refusal.
  { name: 'outside, read', input: '/elsewhere/x.txt', want: 'ask', rule: /outside of the current folder/ },
  { name: 'outside, edited', input: '/elsewhere/x.txt', tool: 'apply_patch', want: 'ask', rule: /outside of your workspace/ },
  // Outside and not there: read_file fails before it asks.
  { name: 'outside and missing, read', input: '/elsewhere/none.txt', want: 'deny', rule: /does not exist/ },
  // A sibling whose name starts with the folder's: containment is by whole names.
  { name: 'sibling prefix', input: '/work/ws2/a.txt', want: 'ask' },
  // `..` out of the folder, normalised before the check.
  { name: '.. out', input: '/work/ws/../other/a.txt', tool: 'apply_patch', want: 'ask', rule: /\/work\/other\/a\.txt/ },
  // `..` that stays inside.
  { name: '.. staying inside', input: '/work/ws/sub/../a.txt', want: 'allow' },
  // A link out: read_file asks, naming where it links.
  { name: 'link out, read', input: '/work/ws/out/x.txt', want: 'ask', rule: /links to \/elsewhere\/x\.txt/ },
  // A link out: the edit's real path is judged too.
  { name: 'link out, edited', input: '/work/ws/out/new.txt', tool: 'create_file', want: 'ask', rule: /outside of your workspace \(\/elsewhere\/new\.txt\)/ },
  // A link in from outside: the path as given is outside.
  { name: 'link in, read', input: '/elsewhere/in/b.txt', want: 'ask' },
  // Case on Linux: another folder.
  { name: 'case on Linux', input: '/work/WS/a.txt', tool: 'create_file', want: 'ask' },
  // A relative path: the tools refuse it.
  { name: 'relative path', input: 'a.txt', want: 'deny', rule: /Be sure to use an absolute path/ },
  // A file: URI, percent-decoded.
  { name: 'file: URI', input: 'file:///work/ws/sub/b%2Etxt', want: 'allow' },
  // Another scheme names no file here.
  { name: 'another scheme', input: 'vscode-remote://ssh/work/ws/a.txt', want: 'deny' },

  // Each default glob of chat.tools.edits.autoApprove asks, inside the workspace.
  sensitive('.env', '/work/ws/.env', /\.env,Cargo\.toml\}": false/),
  sensitive('.env in a subfolder', '/work/ws/sub/.env', /\.env/),
  sensitive('.git/', '/work/ws/.git/HEAD', /"\*\*\/\.git\/\*\*": false/),
  sensitive('package.json', '/work/ws/package.json', /package\.json/),
  sensitive('Cargo.toml', '/work/ws/Cargo.toml', /Cargo\.toml/),
  sensitive('.gitattributes', '/work/ws/.gitattributes', /gitattributes/),
  sensitive('.npmrc', '/work/ws/.npmrc', /\.npmrc/),
  sensitive('pnpm-workspace.yaml', '/work/ws/pnpm-workspace.yaml', /pnpm-workspace/),
  sensitive('a .csproj', '/work/ws/app/App.csproj', /code-workspace,csproj/),
  sensitive('a .code-workspace', '/work/ws/all.code-workspace', /code-workspace/),
  sensitive('gradle.properties', '/work/ws/gradle.properties', /gradle\.properties/),
  sensitive('ruby_lsp addon', '/work/ws/ruby_lsp/x/addon', /ruby_lsp/),
  sensitive('a .lock file', '/work/ws/yarn.lock', /\*\.lock/),
  sensitive('package-lock.json', '/work/ws/package-lock.json', /-lock\.\{yaml,json\}/),
  sensitive('.mcp.json', '/work/ws/.mcp.json', /\.mcp\.json/),
  sensitive('.vscode/*.json', '/work/ws/.vscode/tasks.json', /\.vscode\/\*\.json/),
  sensitive('.github/agents', '/work/ws/.github/agents/a.md', /\.github\/agents/),
  sensitive('.github/hooks', '/work/ws/.github/hooks/h.json', /\.github\/hooks/),
  sensitive('.claude/settings.json', '/work/ws/.claude/settings.json', /\.claude\/settings\.json/),
  sensitive('.codex/config.toml', '/work/ws/.codex/config.toml', /\.codex\/config\.toml/),
  // `.envrc` is no `.env`: a glob names whole names.
  { name: '.envrc is not .env', input: '/work/ws/.envrc', tool: 'replace_string_in_file', want: 'allow' },

  // The user's entries: appended after the defaults, and the last matching entry wins.
  { name: 'a user entry approves .env', user: { [EDITS]: { '**/.env': true } }, input: '/work/ws/.env', tool: 'replace_string_in_file', want: 'allow', line: 3 },
  // A user `false` entry: asks, with its file and line.
  { name: 'a user false entry', user: { [EDITS]: { 'docs/**': true, '**/*.md': false } }, input: '/work/ws/docs/a.md', tool: 'create_file', want: 'ask', rule: /\*\*\/\*\.md": false/, line: 4 },
  // A user entry replacing a default keeps the default's place: a later default still wins.
  { name: "a default replaced in place keeps its place", user: { [EDITS]: { '**/*': false, '**/*.txt': true } }, input: '/work/ws/new.txt', tool: 'create_file', want: 'allow' },
  // The tools' own list comes after the setting: no entry lifts it.
  { name: 'the tools\' own list is not lifted', user: { [EDITS]: { '**/.mcp.json': true } }, input: '/work/ws/.mcp.json', tool: 'create_file', want: 'ask', noted: /no setting lifts/ },
  // A hook file location comes after the setting too, whatever its value.
  { name: 'a hook file location is not lifted', user: { [EDITS]: { '**/.claude/**': true } }, input: '/work/ws/.claude/settings.local.json', tool: 'create_file', want: 'ask', noted: /hookFilesLocations/ },
  // A workspace entry is ignored: the setting is read from user settings alone.
  { name: 'a workspace entry does not override the user', workspace: { [EDITS]: { '**/.env': true } }, input: '/work/ws/.env', tool: 'create_file', want: 'ask', noted: /application setting/ },
  // Comments and trailing commas in user settings.
  { name: 'JSONC user settings', user: `{\n  // mine\n  "${EDITS}": { "**/.env": true, },\n}\n`, input: '/work/ws/.env', tool: 'create_file', want: 'allow', line: 3 },

  // The workbench's answer to a question.
  { name: 'the permission level from workspace settings', workspace: { 'chat.permissions.default': 'autoApprove' }, input: '/elsewhere/x.txt', tool: 'create_file', want: 'allow' },
  { name: 'global auto approve', user: { 'chat.tools.global.autoApprove': true }, input: '/elsewhere/x.txt', tool: 'create_file', want: 'allow' },
  { name: 'global auto approve in workspace settings is ignored', workspace: { 'chat.tools.global.autoApprove': true }, input: '/elsewhere/new.txt', tool: 'create_file', want: 'ask' },
  { name: 'a tool not eligible still asks', user: { 'chat.tools.global.autoApprove': true, 'chat.tools.eligibleForAutoApproval': { readFile: false } }, input: '/elsewhere/x.txt', want: 'ask', rule: /outside/ },
  { name: 'additional read access reads', user: { 'github.copilot.chat.additionalReadAccessPaths': ['/elsewhere'] }, input: '/elsewhere/x.txt', want: 'allow' },
  { name: 'additional read access is no edit access', user: { 'github.copilot.chat.additionalReadAccessPaths': ['/elsewhere'] }, input: '/elsewhere/new.txt', tool: 'create_file', want: 'ask' },

  // Multi-root: every folder is the workspace; globs are relative to the file's own folder.
  { name: 'multi-root, the second folder', addDirs: ['/work/other'], input: '/work/other/new.txt', tool: 'create_file', want: 'allow' },
  { name: 'multi-root, a sensitive file in the second folder', addDirs: ['/work/other'], input: '/work/other/.env', tool: 'create_file', want: 'ask' },
  // A home dotfile is a system file, even with home as the folder.
  { name: 'a home dotfile', cwd: '/home/me', input: '/home/me/.bashrc', tool: 'create_file', want: 'ask', rule: /system files/ },
  // A folder opened through a link: every edit is "outside of your workspace", reads are not.
  { name: 'a folder opened through a link, edited', disk: { '/work/link': { link: '/work/ws' } }, cwd: '/work/link', input: '/work/link/new.txt', tool: 'create_file', want: 'ask', rule: /outside of your workspace \(\/work\/ws\/new\.txt\)/ },
  { name: 'a folder opened through a link, read', disk: { '/work/link': { link: '/work/ws' } }, cwd: '/work/link', input: '/work/link/a.txt', want: 'allow' },
  // create_file on a file that is there: the tool refuses.
  { name: 'create_file on an existing file', input: '/work/ws/a.txt', tool: 'create_file', want: 'deny', rule: /already exists/ },

  // macOS, simulated: case folded whatever the disk.
  { name: 'macOS: case folded', platform: 'darwin', input: '/Users/me/WS/a.txt', want: 'allow' },
  { name: 'macOS: .ENV', platform: 'darwin', input: '/Users/me/ws/.ENV', tool: 'create_file', want: 'ask' },
  { name: 'macOS: ~/Library is a system folder', platform: 'darwin', cwd: '/Users/me', input: '/Users/me/Library/Preferences/x.plist', tool: 'create_file', want: 'ask', rule: /system files/ },
  // Windows, simulated.
  { name: 'Windows: inside', platform: 'win32', input: 'C:\\ws\\a.txt', want: 'allow' },
  { name: 'Windows: forward slashes', platform: 'win32', input: 'c:/ws/sub/a.txt', tool: 'create_file', want: 'allow' },
  { name: 'Windows: a path from the root takes the folder\'s drive', platform: 'win32', input: '/ws/a.txt', want: 'allow' },
  { name: 'Windows: case folded', platform: 'win32', input: 'C:\\WS\\A.TXT', tool: 'create_file', want: 'allow' },
  { name: 'Windows: sibling prefix', platform: 'win32', input: 'C:\\ws2\\a.txt', tool: 'create_file', want: 'ask' },
  { name: 'Windows: .ENV', platform: 'win32', input: 'C:\\ws\\.ENV', tool: 'create_file', want: 'ask' },
  { name: 'Windows: an 8.3 name', platform: 'win32', input: 'C:\\ws\\PROGRA~1\\x.txt', tool: 'create_file', want: 'deny', rule: /8\.3/ },
  { name: 'Windows: an alternate data stream', platform: 'win32', input: 'C:\\ws\\a.txt:hidden', tool: 'create_file', want: 'deny', rule: /alternate data stream/ },
  { name: 'Windows: %APPDATA% is a system folder', platform: 'win32', cwd: 'C:\\Users\\me', env: { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, input: 'C:\\Users\\me\\AppData\\Roaming\\x.json', tool: 'create_file', want: 'ask', rule: /system files/ },
];

function contextFor(row: Row, changes: { readonly user?: object; readonly addDirs?: readonly string[]; readonly permissionsFix?: true } = {}): DeciderContext {
  const platform = row.platform ?? 'linux';
  const cwd = row.cwd ?? CWD[platform];
  const entries: Record<string, FakeEntry> = platform === 'linux' ? { ...FILES, ...row.disk } : { ...row.disk };
  const user = changes.user ?? row.user;
  if (user !== undefined) entries[USER_FILE[platform]] = typeof user === 'string' ? user : json(user);
  if (row.workspace !== undefined) entries[`${cwd}${platform === 'win32' ? '\\' : '/'}.vscode${platform === 'win32' ? '\\' : '/'}settings.json`] = json(row.workspace);
  const simulated = platform !== 'linux';
  return {
    platform,
    fs: fakeDisk(platform, entries),
    ...(simulated ? { simulated } : {}),
    home: HOME[platform],
    cwd,
    addDirs: [...(row.addDirs ?? []), ...(changes.addDirs ?? [])],
    allowed: [],
    env: row.env ?? {},
  };
}

const decide = (row: Row, context: DeciderContext, input = row.input) => vscodeAgent.decide(input, row.tool ?? 'read_file', context);

/** The user settings with a fix's addition written in: a setting of its own, or an entry of chat.tools.edits.autoApprove. */
function withAddition(row: Row, add: string): object {
  const current = typeof row.user === 'object' ? (row.user as Record<string, unknown>) : {};
  const added = JSON.parse(`{${add}}`) as Record<string, unknown>;
  const [key] = Object.keys(added);
  if (key!.startsWith('chat.') || key!.startsWith('github.')) return { ...current, ...added };
  return { ...current, [EDITS]: { ...((current[EDITS] as object | undefined) ?? {}), ...added } };
}

function fixWorks(row: Row, verdict: DeciderVerdict): boolean {
  return verdict.fixes.some((fix) => {
    let again: DeciderVerdict;
    if (fix.add !== undefined) again = decide(row, contextFor(row, { user: withAddition(row, fix.add) }));
    else if (fix.path !== undefined && fix.text.startsWith('Add the folder')) again = decide(row, contextFor(row, { addDirs: [fix.path] }));
    else if (fix.path !== undefined) again = decide(row, contextFor(row), fix.path);
    else return false;
    return again.decision === 'allow';
  });
}

describe("vscode-agent: VS Code's agent, as its code decides", () => {
  for (const row of ROWS) {
    test(row.name, () => {
      const verdict = decide(row, contextFor(row));
      assert.equal(verdict.decision, row.want, `${verdict.rule.text}\n${verdict.stages.map((s) => `${s.name}: ${s.status} ${s.output ?? ''} ${s.note}`).join('\n')}`);
      assert.equal(verdict.basis, 'documented');
      assert.ok(verdict.stages.every((stage) => stage.note.includes('not recorded from a live run')), 'every stage says it was not recorded');
      if (row.rule) assert.match(verdict.rule.text + (verdict.rule.source?.text ?? ''), row.rule);
      if (row.line !== undefined) {
        const source = verdict.stages.map((stage) => stage.source).find((each) => each?.file !== undefined);
        assert.deepEqual([source?.file, source?.line], [USER_FILE[row.platform ?? 'linux'], row.line]);
      }
      if (row.noted) assert.match(verdict.stages.map((stage) => stage.note).join(' '), row.noted);
      if (row.want !== 'allow') {
        assert.ok(verdict.fixes.length > 0, 'a fix is offered');
        // A fix that only says what to do (use another tool, name the file otherwise) has nothing to apply here.
        if (verdict.fixes.some((fix) => fix.add !== undefined || fix.path !== undefined)) assert.ok(fixWorks(row, verdict), `a fix turns it to allow: ${verdict.fixes.map((fix) => fix.text).join(' / ')}`);
      }
    });
  }

  test('the user settings file and the workspace settings file are named, found or not', () => {
    const verdict = decide(ROWS[0]!, contextFor({ ...ROWS[0]!, workspace: {} }));
    assert.deepEqual(
      verdict.configFiles.map((file) => [file.role, file.path, file.found]),
      [
        ['user settings', USER_FILE.linux, false],
        ['workspace settings', '/work/ws/.vscode/settings.json', true],
      ],
    );
  });
});
