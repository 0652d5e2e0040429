// "Decided by" and the side-by-side table (src/extension/deciding.ts), without an editor: the
// deciders read this machine's configuration (the home folder given, the root's folder as the
// working folder), every program judges its own tool for the same access, this server's row says
// what its grants refuse, and a simulated platform reads nothing of this disk.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DEFAULT_POLICY } from '../../src/core/index.js';
import { deciderChoices, deciderContextFor, judgeRequest, namedFiles, type Judged } from '../../src/extension/deciding.js';
import { hostPlatform } from '../../src/host/node.js';
import type { ComparedRow, RootChoice, TraceRequest } from '../../src/shared/messages.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-deciding-')));
after(() => fs.rmSync(base, { recursive: true, force: true }));
const ws = path.join(base, 'ws');
const home = path.join(base, 'home');
const localSettings = path.join(ws, '.claude', 'settings.local.json');
fs.mkdirSync(path.join(ws, 'notes'), { recursive: true });
fs.mkdirSync(path.join(ws, '.claude'), { recursive: true });
fs.mkdirSync(home);
fs.writeFileSync(path.join(ws, 'notes', 'plan.md'), '# plan\n');
// The allow rule on line 4: Claude Code applies a local settings file's grants at once.
fs.writeFileSync(localSettings, '{\n  "permissions": {\n    "allow": [\n      "Edit(./notes/**)"\n    ],\n    "deny": [\n      "Read(./secrets/**)"\n    ]\n  }\n}\n');

const folder: RootChoice = { label: 'ws', uri: pathToFileURL(ws).href, rights: 'read-write' };
const setup = { home, env: { HOME: home, USER: 'root' } };

function judge(overrides: Partial<TraceRequest>, roots: readonly RootChoice[] = [folder]): Judged {
  const request: TraceRequest = { input: 'notes/plan.md', root: folder.uri, platform: hostPlatform(), policy: DEFAULT_POLICY, tool: 'write_file', ...overrides };
  return judgeRequest(request, roots, DEFAULT_POLICY, setup);
}

function row(rows: readonly ComparedRow[], decider: string): ComparedRow {
  const found = rows.find((candidate) => candidate.decider === decider);
  assert.ok(found, `no row for ${decider}: ${JSON.stringify(rows)}`);
  return found;
}

function decided(row: ComparedRow): Extract<ComparedRow, { decision: unknown }> {
  assert.ok('decision' in row, `${row.decider} did not decide: ${JSON.stringify(row)}`);
  return row;
}

describe('deciders in the inspector', { skip: process.platform === 'win32' && 'POSIX paths in the settings' }, () => {
  test('"Decided by" offers every program modelled, this server first, each with its own tools', () => {
    const choices = deciderChoices();
    assert.equal(choices[0]?.name, 'boundary-inspector');
    const claude = choices.find((choice) => choice.name === 'claude-code');
    assert.ok(claude?.tools.change.includes('Edit') && claude.tools.read.includes('Read'));
  });

  test('one input, every program: Claude Code allows a change its local settings allow, Codex refuses it in its default read-only sandbox', () => {
    const judged = judge({});
    assert.equal(judged.kind, 'trace');
    const rows = judged.compared;
    assert.deepEqual(rows.map((compared) => compared.decider), deciderChoices().map((choice) => choice.name));
    const claude = decided(row(rows, 'claude-code'));
    assert.equal(claude.decision, 'allow');
    // Each program judges its own tool for the same access: a change is Claude Code's Write and Codex's apply_patch.
    assert.equal(claude.tool, 'Write');
    assert.deepEqual(claude.rule.source, { text: 'Edit(./notes/**)', file: localSettings, line: 4 });
    const codex = decided(row(rows, 'codex'));
    assert.equal(codex.tool, 'apply_patch');
    assert.equal(codex.decision, 'deny');
    assert.equal(decided(row(rows, 'boundary-inspector')).decision, 'allow');
  });

  test('"Decided by" Claude Code: its own verdict, the files it names that are on this disk, the working folder', () => {
    const judged = judge({ decider: 'claude-code', tool: 'Read', input: 'secrets/key.txt' });
    assert.equal(judged.kind, 'decided');
    assert.ok(judged.kind === 'decided' && !('error' in judged.verdict));
    const { verdict } = judged;
    assert.equal(verdict.decision, 'deny');
    assert.equal(verdict.tool, 'Read');
    assert.deepEqual(verdict.rule.source, { text: 'Read(./secrets/**)', file: localSettings, line: 7 });
    const fix = verdict.fixes.find((candidate) => candidate.file === localSettings);
    assert.equal(fix?.line, 7, JSON.stringify(verdict.fixes));
    assert.equal(verdict.cwd, ws);
    assert.equal(verdict.simulated, false);
    assert.ok(verdict.present.includes(localSettings));
    // The user settings in the home folder given were looked for, not found, and are not offered to open.
    assert.ok(verdict.configFiles.some((file) => file.path === path.join(home, '.claude', 'settings.json') && !file.found));
    assert.ok(!verdict.present.includes(path.join(home, '.claude', 'settings.json')));
    assert.deepEqual(new Set(verdict.present), new Set(namedFiles(verdict).filter((file) => fs.existsSync(file))));
    // This server's row is its own trace, for its own tool of the same access (a read).
    const server = decided(row(judged.compared, 'boundary-inspector'));
    assert.equal(server.tool, 'read_text_file');
  });

  test("a root that is not granted: this server's row denies as the server would, with ERR_NOT_GRANTED", () => {
    const judged = judge({}, [{ ...folder, rights: 'none' }]);
    const server = decided(row(judged.compared, 'boundary-inspector'));
    assert.equal(server.decision, 'deny');
    assert.match(server.rule.text, /^ERR_NOT_GRANTED: /);
    assert.ok(judged.kind === 'trace' && judged.serverNote?.code === 'ERR_NOT_GRANTED');
  });

  test('another platform simulated reads nothing of this disk: no settings file is found, none is offered to open', () => {
    const other = hostPlatform() === 'darwin' ? 'linux' : 'darwin';
    const judged = judge({ decider: 'claude-code', platform: other });
    assert.ok(judged.kind === 'decided' && !('error' in judged.verdict));
    assert.equal(judged.verdict.simulated, true);
    assert.deepEqual(judged.verdict.present, []);
    assert.ok(judged.verdict.configFiles.every((file) => !file.found), JSON.stringify(judged.verdict.configFiles));
    // Without the local settings' allow rule, the change asks.
    assert.equal(judged.verdict.decision, 'ask');
  });

  test("the context: the root's folder is the working folder and the reference server's allowed directory; VS Code's agent's inputs come from the caller", () => {
    const request: TraceRequest = { input: 'a', root: folder.uri, platform: hostPlatform(), policy: DEFAULT_POLICY, tool: 'read_text_file' };
    const vscodeContext = { workspaceFolders: [ws], autoApprove: [] };
    const context = deciderContextFor(request, { ...setup, vscode: () => vscodeContext });
    assert.equal(context.cwd, ws);
    assert.deepEqual(context.allowed, [ws]);
    assert.deepEqual(context.addDirs, []);
    assert.equal(context.home, home);
    assert.equal(context.vscode, vscodeContext);
    assert.equal(deciderContextFor(request, setup).vscode, undefined);
  });
});
