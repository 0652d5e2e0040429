// `trace --as <decider>` and `compare`, through the built CLI (dist/cli.js): the decider's own
// inputs as options, its stages, decision, rule, fixes and differences in text and JSON, today's
// JSON shape kept, exit status by decision, every text from the input or the disk escaped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DECIDERS, DECIDER_NAMES } from '../../src/deciders/index.js';

const repoRoot = path.resolve(__dirname, '../..');
const cliPath = path.join(repoRoot, 'dist', 'cli.js');
const REGISTERED = DECIDER_NAMES.filter((name) => DECIDERS[name] !== undefined);
/** The keys of `trace --json` without --as (docs/cli.md). */
const TRACE_KEYS = ['tool', 'verdict', 'code', 'stage', 'reason', 'path', 'root', 'rootPath', 'platform', 'simulated', 'policy', 'links', 'kind', 'nearMisses', 'secret', 'stages', 'rootStages'];
const VERDICT_KEYS = ['decider', 'program', 'version', 'basis', 'decision', 'rule', 'access', 'fixes', 'differences', 'configFiles'];

function run(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const base: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: repoRoot, encoding: 'utf8', env: base });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json<T = Record<string, unknown>>(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = run([...args, '--json'], env);
  const lines = result.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `${result.stdout}\n${result.stderr}`);
  return { ...result, body: JSON.parse(lines[0]!) as T };
}

describe('trace --as and compare', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
  let dir: string;
  let ws: string;

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-cli-deciders-')));
    ws = path.join(dir, 'ws');
    fs.mkdirSync(path.join(dir, 'ws'));
    fs.mkdirSync(path.join(dir, 'ws-evil'));
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.mkdirSync(path.join(dir, 'home'));
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a');
    fs.writeFileSync(path.join(dir, 'ws-evil', 'secret.txt'), 's');
    fs.writeFileSync(path.join(dir, 'home', 'h.txt'), 'h');
    fs.symlinkSync('../outside', path.join(ws, 'escape'));
    fs.symlinkSync('ws', path.join(dir, 'ws-link'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('server-filesystem refuses the sibling prefix: exit 3, its own stages, the rule in its words, a fix', () => {
    const { status, body } = json(['trace', `${dir}/ws-evil/secret.txt`, '--as', 'server-filesystem', '--root', ws]);
    assert.equal(status, 3);
    assert.deepEqual(Object.keys(body), [...TRACE_KEYS, ...VERDICT_KEYS]);
    assert.equal(body.decider, 'server-filesystem');
    assert.equal(body.version, '2026.8.31');
    assert.equal(body.decision, 'deny');
    assert.deepEqual(body.rule, {
      text: `Access denied - path outside allowed directories: ${dir}/ws-evil/secret.txt not in ${ws}`,
      source: { text: ws, flag: `mcp-server-filesystem ${ws}` },
    });
    const stages = body.stages as { stage: string; status: string }[];
    assert.deepEqual(stages.map((s) => s.stage).slice(0, 2), ['allowed directories', 'expandHome']);
    assert.equal(body.stage, 'isPathWithinAllowedDirectories');
    assert.deepEqual((body.fixes as { flag?: string }[]).map((fix) => fix.flag), [`${dir}/ws-evil`]);
  });

  test('--allowed (repeatable) replaces the --root default, and the fix offered works when passed', () => {
    const asked = ['trace', `${dir}/ws-evil/secret.txt`, '--as', 'server-filesystem', '--allowed', ws];
    assert.equal(run(asked).status, 3);
    const { status, body } = json([...asked, '--allowed', `${dir}/ws-evil`]);
    assert.equal(status, 0);
    assert.equal(body.decision, 'allow');
    assert.equal(body.verdict, 'inside');
    assert.deepEqual(body.fixes, []);
  });

  test("an allowed directory that is a link allows its target, and the trace says where that differs from this server's", () => {
    const { status, body } = json(['trace', `${ws}/a.txt`, '--as', 'server-filesystem', '--allowed', `${dir}/ws-link`]);
    assert.equal(status, 0);
    assert.equal((body.stages as { output: string }[])[0]!.output, `${dir}/ws-link, ${ws}`);
    assert.ok((body.differences as string[]).some((line) => line.includes('a link')), String(body.differences));
  });

  test('--home is what ~ means; --cwd is where a relative allowed directory starts', () => {
    const home = json(['trace', '~/h.txt', '--as', 'server-filesystem', '--allowed', '~', '--home', path.join(dir, 'home')]);
    assert.equal(home.body.decision, 'allow');
    assert.equal(home.body.path, path.join(dir, 'home', 'h.txt'));
    const relative = json(['trace', `${ws}/a.txt`, '--as', 'server-filesystem', '--allowed', 'ws', '--cwd', dir]);
    assert.equal(relative.body.decision, 'allow');
  });

  test('--tool takes the program\'s own names and this server\'s, by what they do', () => {
    assert.equal(json(['trace', 'a.txt', '--as', 'server-filesystem', '--root', ws, '--tool', 'edit_file']).body.tool, 'edit_file');
    const mapped = json(['trace', 'a.txt', '--as', 'server-filesystem', '--root', ws, '--tool', 'delete_path']).body;
    assert.deepEqual([mapped.tool, mapped.access], ['write_file', 'change']);
    const unknown = run(['trace', 'a.txt', '--as', 'server-filesystem', '--root', ws, '--tool', 'rm -rf']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /--tool must be a tool of this server or of a decider/);
  });

  test('--as boundary-inspector keeps the trace whole: the same JSON as trace without --as, and the decision', () => {
    for (const input of ['a.txt', 'escape/x', '../ws-evil/secret.txt']) {
      const plain = json(['trace', input, '--root', ws]);
      const as = json(['trace', input, '--root', ws, '--as', 'boundary-inspector']);
      assert.equal(as.status, plain.status);
      for (const key of TRACE_KEYS) assert.deepEqual(as.body[key], plain.body[key], `${input}: ${key}`);
      assert.equal(as.body.decision, plain.body.verdict === 'inside' ? 'allow' : 'deny');
    }
  });

  test('the text: stages as rows, the deciding one marked, the decision, the rule and its source, the fixes', () => {
    const { status, stdout } = run(['trace', `${ws}/escape/new.txt`, '--as', 'server-filesystem', '--root', ws, '--tool', 'write_file']);
    assert.equal(status, 3);
    const lines = stdout.split('\n');
    assert.ok(lines.some((line) => /^> resolveUnicodeEquivalentPath +refuse /.test(line)), stdout);
    assert.ok(lines.includes('decision DENY'), stdout);
    assert.ok(lines.some((line) => line.startsWith(`rule     Access denied - symlink target outside allowed directories: ${dir}/outside not in ${ws} (mcp-server-filesystem ${ws})`)), stdout);
    assert.ok(lines.includes('To allow it:'), stdout);
    assert.ok(lines.includes(`      flag: ${dir}/outside`), stdout);
  });

  test('text from the input is escaped: a terminal escape in the path cannot drive the terminal', () => {
    const { stdout } = run(['trace', `${ws}/\u001b]0;pwned\u0007.txt`, '--as', 'naive', '--root', ws]);
    assert.ok(!stdout.includes('\u001b'), JSON.stringify(stdout));
    assert.ok(stdout.includes('\\u001b]0;pwned\\u0007.txt'));
    const compared = run(['compare', `${ws}/\u202e.txt`, '--root', ws]);
    assert.ok(!compared.stdout.includes('\u202e'), JSON.stringify(compared.stdout));
  });

  test('compare: one line per decider; they disagree on a link that leads out', () => {
    const { status, stdout } = run(['compare', `${ws}/escape/new.txt`, '--root', ws, '--tool', 'write_file']);
    assert.equal(status, 3);
    const lines = stdout.split('\n').slice(2).filter(Boolean);
    assert.deepEqual(lines.map((line) => line.split(/\s+/)[0]), REGISTERED);
    const decisions = Object.fromEntries(lines.map((line) => line.split(/\s+/).slice(0, 2)));
    assert.equal(decisions['server-filesystem'], 'DENY');
    assert.equal(decisions['boundary-inspector'], 'DENY');
    assert.equal(decisions.naive, 'ALLOW');
    const body = json<{ decider: string; decision: string; tool: string }[]>(['compare', `${ws}/escape/new.txt`, '--root', ws, '--tool', 'write_file']).body;
    assert.deepEqual(body.map((verdict) => verdict.decider), REGISTERED);
    assert.deepEqual(body.map((verdict) => verdict.decision), lines.map((line) => line.split(/\s+/)[1]!.toLowerCase()));
  });

  test('compare: every decider allows a file inside, exit 0', () => {
    // Gemini CLI stops in a folder nobody trusted; the variable trusts it, as for any headless run.
    const { status, body } = json<{ decision: string }[]>(['compare', `${ws}/a.txt`, '--root', ws], { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    assert.equal(status, 0);
    assert.ok(body.every((verdict) => verdict.decision === 'allow'), JSON.stringify(body));
  });

  // The fixture lies under /tmp, which Codex's workspace-write leaves writable: its config.toml keeps /tmp out.
  const codexEnv = () => ({ CODEX_HOME: path.join(dir, 'home', '.codex'), TMPDIR: '' });
  const codexConfig = (lines: string) => {
    fs.mkdirSync(path.join(dir, 'home', '.codex'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'home', '.codex', 'config.toml'), `${lines}\n[sandbox_workspace_write]\nexclude_slash_tmp = true\n`);
  };

  test('codex: a patch outside, under the /tmp config.toml keeps out, is refused by that line, and the --add-dir offered works', () => {
    codexConfig('sandbox_mode = "workspace-write"');
    const asked = ['trace', `${dir}/outside/new.txt`, '--as', 'codex', '--cwd', ws, '--home', path.join(dir, 'home'), '--tool', 'apply_patch'];
    const { status, body } = json(asked, codexEnv());
    assert.equal(status, 3);
    assert.equal(body.decision, 'deny');
    const exclusion = 'sandbox_workspace_write.exclude_slash_tmp = true';
    assert.deepEqual(body.rule, { text: `outside the writable roots: ${exclusion}`, source: { text: exclusion, file: path.join(dir, 'home', '.codex', 'config.toml'), line: 3 } });
    const flag = (body.fixes as { flag?: string }[]).find((fix) => fix.flag?.startsWith('--add-dir'))!.flag!;
    assert.equal(flag, `--add-dir ${dir}/outside`);
    const fixed = json([...asked, ...flag.split(' ')], codexEnv());
    assert.equal(fixed.status, 0);
    assert.equal(fixed.body.decision, 'allow');
  });

  test("codex: --sandbox and --profile reach Codex's own flags", () => {
    codexConfig('sandbox_mode = "workspace-write"');
    fs.writeFileSync(path.join(dir, 'home', '.codex', 'open.config.toml'), 'sandbox_mode = "danger-full-access"\n');
    const base = ['--as', 'codex', '--cwd', ws, '--home', path.join(dir, 'home'), '--tool', 'shell-write'];
    const readOnly = json(['trace', `${ws}/new.txt`, ...base, '--sandbox', 'read-only'], codexEnv()).body;
    assert.equal(readOnly.decision, 'deny');
    assert.deepEqual((readOnly.rule as { source: unknown }).source, { text: '--sandbox read-only', flag: '--sandbox read-only' });
    const open = json(['trace', `${dir}/outside/new.txt`, ...base, '--profile', 'open'], codexEnv()).body;
    assert.equal(open.decision, 'allow');
    assert.equal((open.rule as { source: { file: string } }).source.file, path.join(dir, 'home', '.codex', 'open.config.toml'));
  });

  test('claude-code takes --settings, a file or inline JSON, as a settings layer of its own', () => {
    const file = path.join(dir, 'flag-settings.json');
    fs.writeFileSync(file, '{\n  "permissions": {\n    "deny": ["Read(./a.txt)"]\n  }\n}\n');
    const byFile = json<{ decision: string; rule: { source?: { file?: string; line?: number } } }>(['trace', `${ws}/a.txt`, '--as', 'claude-code', '--tool', 'Read', '--cwd', ws, '--home', path.join(dir, 'home'), '--settings', file]);
    assert.equal(byFile.status, 3);
    assert.equal(byFile.body.decision, 'deny');
    assert.deepEqual(byFile.body.rule.source, { text: 'Read(./a.txt)', file, line: 3 });
    const inline = json<{ decision: string; rule: { source?: { flag?: string } } }>(['trace', `${ws}/a.txt`, '--as', 'claude-code', '--tool', 'Read', '--cwd', ws, '--home', path.join(dir, 'home'), '--settings', '{"permissions":{"deny":["Read(./a.txt)"]}}']);
    assert.equal(inline.body.decision, 'deny');
    assert.equal(inline.body.rule.source?.flag, '--settings');
    const none = json<{ decision: string }>(['trace', `${ws}/a.txt`, '--as', 'claude-code', '--tool', 'Read', '--cwd', ws, '--home', path.join(dir, 'home')]);
    assert.equal(none.body.decision, 'allow');
  });

  test('gemini-cli: a write in the default mode asks, and the --approval-mode offered lets it through; .env and an untrusted folder are refused', () => {
    const home = path.join(dir, 'home');
    const trust = path.join(home, '.gemini', 'trustedFolders.json');
    fs.mkdirSync(path.dirname(trust), { recursive: true });
    fs.writeFileSync(trust, JSON.stringify({ [ws]: 'TRUST_FOLDER' }, null, 2));
    const base = ['--as', 'gemini-cli', '--cwd', ws, '--home', home];
    const asked = ['trace', `${ws}/new.txt`, ...base, '--tool', 'write_file'];
    const { status, body } = json(asked);
    assert.equal(status, 3);
    assert.equal(body.decision, 'ask');
    const flag = (body.fixes as { flag?: string }[]).find((fix) => fix.flag?.startsWith('--approval-mode'))!.flag!;
    const fixed = json([...asked, ...flag.split(' ')]);
    assert.equal(fixed.status, 0);
    assert.equal(fixed.body.decision, 'allow');
    fs.writeFileSync(path.join(ws, '.env'), 'X=1\n');
    const dotenv = json(['trace', `${ws}/.env`, ...base]).body;
    assert.equal(dotenv.decision, 'deny');
    assert.match((dotenv.rule as { text: string }).text, /^Path not in workspace/);
    fs.rmSync(trust);
    const untrusted = json(['trace', `${ws}/a.txt`, ...base]).body;
    assert.equal(untrusted.decision, 'deny');
    assert.ok((untrusted.fixes as { flag?: string }[]).some((fix) => fix.flag === '--skip-trust'));
  });

  test("vscode-agent: an edit of .env asks by VS Code's default glob, and the entry offered, written to the user settings file, lets it through from its line", () => {
    const home = path.join(dir, 'home-vscode');
    fs.writeFileSync(path.join(ws, '.env'), 'X=1\n');
    const asked = ['trace', `${ws}/.env`, '--as', 'vscode-agent', '--cwd', ws, '--home', home, '--tool', 'replace_string_in_file'];
    const { status, body } = json(asked, { XDG_CONFIG_HOME: '', VSCODE_APPDATA: '' });
    assert.equal(status, 3);
    assert.equal(body.decision, 'ask');
    assert.equal(body.basis, 'documented');
    assert.match((body.rule as { text: string }).text, /sensitive files/);
    const userFile = path.join(home, '.config', 'Code', 'User', 'settings.json');
    assert.deepEqual((body.configFiles as { path: string; found: boolean }[]).map((file) => [file.path, file.found]), [
      [userFile, false],
      [path.join(ws, '.vscode', 'settings.json'), false],
    ]);
    const fix = (body.fixes as { file?: string; add?: string }[]).find((each) => each.add?.endsWith(': true'))!;
    assert.equal(fix.file, userFile);
    fs.mkdirSync(path.dirname(userFile), { recursive: true });
    fs.writeFileSync(userFile, `{\n  // JSONC, as VS Code reads it\n  "chat.tools.edits.autoApprove": {\n    ${fix.add},\n  },\n}\n`);
    const fixed = json(asked, { XDG_CONFIG_HOME: '', VSCODE_APPDATA: '' });
    assert.equal(fixed.status, 0);
    assert.equal(fixed.body.decision, 'allow');
    assert.deepEqual(fixed.body.rule, { text: `${ws}/.env is edited without asking`, source: { text: fix.add, file: userFile, line: 4 } });
    const compared = json<{ decider: string; decision: string }[]>(['compare', `${ws}/escape/new.txt`, '--root', ws, '--home', home, '--tool', 'write_file']).body;
    assert.equal(compared.find((row) => row.decider === 'vscode-agent')?.decision, 'ask');
  });

  test("usage: an unknown decider, and a decider's input without --as", () => {
    const unknown = run(['trace', 'a.txt', '--as', 'cursor', '--root', ws]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, new RegExp(`--as must be one of ${REGISTERED.join(', ')}`));
    const stray = run(['trace', 'a.txt', '--root', ws, '--allowed', ws]);
    assert.equal(stray.status, 2);
    assert.match(stray.stderr, /--allowed is a decider's input: name the decider with --as/);
  });

  test('--help documents --as, the deciders and their inputs, for trace and compare', () => {
    const trace = run(['trace', '--help']).stdout;
    for (const text of ['--as <decider>', '--allowed <dir>', '--cwd <dir>', '--add-dir <dir>', '--home <dir>', '--sandbox <mode>', '--profile <name>', '--settings <file-or-json>', '--approval-mode <mode>', ...REGISTERED]) assert.ok(trace.includes(text), text);
    const compare = run(['compare', '--help']);
    assert.equal(compare.status, 0);
    for (const text of ['Usage: boundary-inspector compare <input>', '--allowed <dir>', '--json']) assert.ok(compare.stdout.includes(text), text);
    assert.match(run(['--help']).stdout, /compare <input>/);
  });
});
