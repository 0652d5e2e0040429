// The inspector's traces (src/extension/tracing.ts), without an editor: the tool's operation
// decides a link at the last name, near misses come from this machine's disk and the other
// granted workspaces, and a change is noted when a read-only grant would refuse it as the server does.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DEFAULT_POLICY } from '../../src/core/index.js';
import { simulatedRequest, spellingsFor, traceRequest } from '../../src/extension/tracing.js';
import { hostPlatform } from '../../src/host/node.js';
import type { RootChoice, TraceRequest } from '../../src/shared/messages.js';
import type { ToolName } from '../../src/shared/operations.js';

const onLinux = process.platform === 'linux';
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-tracing-')));
after(() => fs.rmSync(base, { recursive: true, force: true }));

const at = (...names: string[]) => path.join(base, ...names);
const uri = (...names: string[]) => pathToFileURL(at(...names)).href;
fs.mkdirSync(at('ws', 'ro'), { recursive: true });
fs.mkdirSync(at('ws', 'ro', 'rw'), { recursive: true });
fs.mkdirSync(at('other'), { recursive: true });
fs.mkdirSync(at('outside'), { recursive: true });
fs.writeFileSync(at('ws', 'README.md'), 'x\n');
fs.writeFileSync(at('ws', 'ro', 'a.txt'), 'x\n');
fs.writeFileSync(at('other', 'b.txt'), 'x\n');
fs.symlinkSync('../outside', at('ws', 'escape'));

const ws: RootChoice = { label: 'ws', uri: uri('ws'), rights: 'read-write' };
const ro: RootChoice = { label: 'ro', uri: uri('ws', 'ro'), rights: 'read' };
const rw: RootChoice = { label: 'rw', uri: uri('ws', 'ro', 'rw'), rights: 'read-write' };
const other: RootChoice = { label: 'other', uri: uri('other'), rights: 'read-write' };
const roots = [ws, ro, rw, other];

function traced(input: string, root: RootChoice, tool: ToolName, overrides: Partial<TraceRequest> = {}) {
  const request: TraceRequest = { input, root: root.uri, platform: hostPlatform(), policy: DEFAULT_POLICY, tool, ...overrides };
  return traceRequest(request, roots, DEFAULT_POLICY);
}

describe('inspector traces', { skip: onLinux ? false : 'a case-sensitive filesystem and symlinks without privileges' }, () => {
  test('a link at the last name: get_file_info judges the link itself, read_text_file where it leads', () => {
    const info = traced('escape', ws, 'get_file_info').trace;
    assert.equal(info.verdict, 'inside');
    assert.equal(info.kind, 'symlink');
    const read = traced('escape', ws, 'read_text_file').trace;
    assert.equal(read.verdict, 'outside');
    assert.equal(read.code, 'ERR_SYMLINK_ESCAPE');
  });

  test('an unknown tool is explained as the default read', () => {
    const read = traced('escape', ws, 'no_such_tool' as ToolName).trace;
    assert.equal(read.code, 'ERR_SYMLINK_ESCAPE');
  });

  test('case twin miss: readme.md offers README.md', () => {
    const { trace } = traced('readme.md', ws, 'read_text_file');
    assert.equal(trace.kind, 'missing');
    assert.deepEqual(trace.nearMisses, [{ path: at('ws', 'README.md'), uri: uri('ws', 'README.md'), why: 'case' }]);
  });

  test('a path in another granted workspace: offered with that workspace', () => {
    const { trace } = traced(at('other', 'b.txt'), ws, 'read_text_file');
    assert.equal(trace.verdict, 'outside');
    assert.deepEqual(trace.nearMisses, [{ path: at('other', 'b.txt'), uri: uri('other', 'b.txt'), why: 'workspace', workspace: other.uri }]);
  });

  test('simulated: no near misses, nothing on disk consulted', () => {
    const { trace } = traced('readme.md', { label: 'app', uri: 'file:///c%3A/app', rights: 'none' }, 'read_text_file', { platform: hostPlatform() === 'win32' ? 'linux' : 'win32' });
    assert.equal(trace.simulated, true);
    assert.deepEqual(trace.nearMisses, []);
  });

  const rows: readonly { name: string; input: string; root: RootChoice; tool: ToolName; refused: boolean }[] = [
    // a read needs no write grant
    { name: 'read in a read-only workspace', input: 'a.txt', root: ro, tool: 'read_text_file', refused: false },
    // the named workspace is read-only
    { name: 'write in a read-only workspace', input: 'a.txt', root: ro, tool: 'write_file', refused: true },
    // named by the outer read-write workspace: the deepest grant holding the folder decides
    { name: 'write into a nested read-only workspace', input: 'ro/a.txt', root: ws, tool: 'edit_file', refused: true },
    // a read-write workspace nested in a read-only one is writable inside
    { name: 'write in a read-write workspace nested in a read-only one', input: 'new.txt', root: rw, tool: 'write_file', refused: false },
    // deleting the folder that holds a read-only workspace would change it
    { name: 'delete a folder holding a read-only workspace', input: 'ro', root: ws, tool: 'delete_path', refused: true },
    // creating a folder is no replacement: only the deciding grant counts
    { name: 'create a folder beside a read-only workspace', input: 'made', root: ws, tool: 'create_directory', refused: false },
    // outside: the trace refuses first, no rights note
    { name: 'write outside', input: '../outside/x', root: ws, tool: 'write_file', refused: false },
  ];
  for (const row of rows) {
    test(`rights: ${row.name}`, () => {
      const { serverNote } = traced(row.input, row.root, row.tool);
      if (row.refused) {
        assert.equal(serverNote?.code, 'ERR_READ_ONLY');
        assert.match(serverNote.reason, /read-only/);
      } else assert.equal(serverNote, null);
    });
  }

  test('a root that is no granted workspace: the verdict stands, and ERR_NOT_GRANTED is noted beside it', () => {
    fs.mkdirSync(at('ws', 'plain'), { recursive: true });
    fs.writeFileSync(at('ws', 'plain', 'c.txt'), 'x\n');
    // Inside a granted workspace is not granted: the server compares the root itself.
    for (const root of [{ label: 'plain', uri: uri('ws', 'plain'), rights: 'read-write' as const }, { label: 'outside', uri: uri('outside'), rights: 'read-write' as const }]) {
      const { trace, serverNote } = traceRequest({ input: 'c.txt', root: root.uri, platform: hostPlatform(), policy: DEFAULT_POLICY, tool: 'read_text_file' }, roots, DEFAULT_POLICY);
      assert.equal(trace.verdict, 'inside', root.uri);
      assert.equal(serverNote?.code, 'ERR_NOT_GRANTED', root.uri);
      assert.ok(serverNote.reason.startsWith(`${root.uri} is not a granted workspace`), serverNote.reason);
      assert.ok(serverNote.reason.includes(`Granted: ${ws.uri}, ${ro.uri}, ${rw.uri}, ${other.uri}.`), serverNote.reason);
    }
  });

  test('a workspace folder not granted (rights none) is ERR_NOT_GRANTED, with nothing granted said so', () => {
    const untrusted: RootChoice = { ...ws, rights: 'none' };
    const request: TraceRequest = { input: 'README.md', root: ws.uri, platform: hostPlatform(), policy: DEFAULT_POLICY, tool: 'write_file' };
    const { trace, serverNote } = traceRequest(request, [untrusted], DEFAULT_POLICY);
    assert.equal(trace.verdict, 'inside');
    assert.equal(serverNote?.code, 'ERR_NOT_GRANTED');
    assert.match(serverNote.reason, /Nothing is granted now\.$/);
  });

  test('a granted workspace spelled otherwise (its path, a trailing slash) is the grant, as the server finds it', () => {
    for (const spelling of [at('ws'), `${ws.uri}/`]) {
      assert.equal(traced('README.md', { ...ws, uri: spelling }, 'read_text_file').serverNote, null, spelling);
    }
    // ...and its rights still decide.
    assert.equal(traced('a.txt', { ...ro, uri: at('ws', 'ro') }, 'write_file').serverNote?.code, 'ERR_READ_ONLY');
  });

  test('simulated: a workspace folder not granted is noted; a typed root of another platform cannot be told', () => {
    const platform = hostPlatform() === 'win32' ? 'linux' : 'win32';
    const folder: RootChoice = { label: 'app', uri: 'file:///c%3A/app', rights: 'none' };
    const request: TraceRequest = { input: 'a.txt', root: folder.uri, platform, policy: DEFAULT_POLICY, tool: 'read_text_file' };
    assert.equal(traceRequest(request, [folder], DEFAULT_POLICY).serverNote?.code, 'ERR_NOT_GRANTED');
    assert.equal(traceRequest(request, roots, DEFAULT_POLICY).serverNote, null);
  });

  test('rights, simulated: the named workspace decides', () => {
    const platform = hostPlatform() === 'win32' ? 'linux' : 'win32';
    const choice: RootChoice = { label: 'app', uri: 'file:///c%3A/app', rights: 'read' };
    const request: TraceRequest = { input: 'a.txt', root: choice.uri, platform, policy: DEFAULT_POLICY, tool: 'write_file' };
    assert.equal(traceRequest(request, [choice], DEFAULT_POLICY).serverNote?.code, 'ERR_READ_ONLY');
    assert.equal(traceRequest({ ...request, tool: 'read_text_file' }, [choice], DEFAULT_POLICY).serverNote, null);
  });
});

describe('another platform against a workspace folder: the folder where that platform would hold it', () => {
  const templates = { linux: '/home/dev/{name}', darwin: '/Users/dev/{name}', win32: 'C:\\Users\\dev\\{name}' };
  const request = (input: string, platform: 'win32' | 'darwin', root = ws): TraceRequest => ({ input, root: root.uri, platform, policy: DEFAULT_POLICY, tool: 'read_text_file' });
  const traceOn = (input: string, platform: 'win32' | 'darwin', root = ws) => traceRequest(simulatedRequest(request(input, platform, root), roots, templates, 'linux'), roots, DEFAULT_POLICY, 'linux').trace;

  test('a relative path traces inside the simulated folder, on win32 and on darwin', () => {
    const windows = traceOn('src/a.ts', 'win32');
    assert.equal(windows.verdict, 'inside');
    assert.equal(windows.path, 'C:\\Users\\dev\\ws\\src\\a.ts');
    const mac = traceOn('src/a.ts', 'darwin');
    assert.equal(mac.verdict, 'inside');
    assert.equal(mac.path, '/Users/dev/ws/src/a.ts');
  });

  test("this machine's URI or path of a file in the folder moves with it; one outside does not", () => {
    assert.equal(traceOn(uri('ws', 'README.md'), 'win32').path, 'C:\\Users\\dev\\ws\\README.md');
    assert.equal(traceOn(at('ws', 'README.md'), 'win32').path, 'C:\\Users\\dev\\ws\\README.md');
    // A sibling whose name starts with the folder's is not in it.
    const sibling = simulatedRequest(request(`${uri('ws')}-evil/x`, 'win32'), roots, templates, 'linux');
    assert.equal(sibling.input, `${uri('ws')}-evil/x`);
    assert.equal(traceOn('../outside.txt', 'win32').verdict, 'outside');
  });

  test('a root that is no workspace folder, and this machine\'s own platform, are left as they are', () => {
    const custom: TraceRequest = { ...request('x', 'win32'), root: 'file:///c%3A/Users/dev/app' };
    assert.deepEqual(simulatedRequest(custom, roots, templates, 'linux'), custom);
    const here: TraceRequest = { ...request('x', 'win32'), platform: 'linux' };
    assert.deepEqual(simulatedRequest(here, roots, templates, 'linux'), here);
  });
});

test('simulated: a change in a read-only folder is still noted, by the folder it stands for', () => {
  const templates = { linux: '/home/dev/{name}', darwin: '/Users/dev/{name}', win32: 'C:\\Users\\dev\\{name}' };
  const request: TraceRequest = { input: 'a.txt', root: ro.uri, platform: 'win32', policy: DEFAULT_POLICY, tool: 'write_file' };
  const { trace, serverNote } = traceRequest(simulatedRequest(request, roots, templates, 'linux'), roots, DEFAULT_POLICY, 'linux');
  assert.equal(trace.path, 'C:\\Users\\dev\\ro\\a.txt');
  assert.equal(serverNote?.code, 'ERR_READ_ONLY');
  assert.match(serverNote?.reason ?? '', new RegExp(ro.uri.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
});

describe('the spellings the inspector simulates (boundaryInspector.simulatedSpellings)', () => {
  const none = { wslDistribution: '', mappedDrives: {} };
  test('a WSL distribution for Linux, mapped drives for Windows; neither for the other platform', () => {
    assert.deepEqual(spellingsFor('linux', { wslDistribution: 'Ubuntu', mappedDrives: {} }, 'win32'), { wsl: { distro: 'Ubuntu' } });
    assert.deepEqual(spellingsFor('win32', { wslDistribution: '', mappedDrives: { 'Z:': '\\\\fs1\\team' } }, 'linux'), { mappedDrives: { 'Z:': '\\\\fs1\\team' } });
    assert.deepEqual(spellingsFor('darwin', { wslDistribution: 'Ubuntu', mappedDrives: { 'Z:': '\\\\fs1\\team' } }, 'linux'), {});
    assert.deepEqual(spellingsFor('win32', none, 'linux'), {}, "another platform's, unset: none of this machine's");
  });

  test('a Windows path traced for Linux as inside WSL names its /mnt spelling; a mapped share traced for Windows is the drive', () => {
    const wsl: TraceRequest = { input: 'C:\\Users\\me\\a.txt', root: uri('ws'), platform: 'linux', policy: DEFAULT_POLICY, tool: 'read_text_file' };
    const inWsl = traceRequest(wsl, roots, DEFAULT_POLICY, 'linux', { wslDistribution: 'Ubuntu', mappedDrives: {} }).trace;
    assert.equal(inWsl.code, 'ERR_FOREIGN_PATH');
    assert.match(inWsl.reason, /\/mnt\/c\/Users\/me\/a\.txt/);
    const mapped: TraceRequest = { input: '\\\\fs1\\team\\ws\\a.txt', root: 'file:///z%3A/ws', platform: 'win32', policy: DEFAULT_POLICY, tool: 'read_text_file' };
    const onDrive = traceRequest(mapped, roots, DEFAULT_POLICY, 'linux', { wslDistribution: '', mappedDrives: { 'Z:': '\\\\fs1\\team' } }).trace;
    assert.equal(onDrive.verdict, 'inside', onDrive.reason);
    assert.equal(onDrive.path, 'Z:\\ws\\a.txt');
    assert.equal(traceRequest(mapped, roots, DEFAULT_POLICY, 'linux', none).trace.code, 'ERR_UNC');
  });
});

describe("the server's secrets policy, from the extension's settings", { skip: onLinux ? false : 'a case-sensitive filesystem' }, () => {
  const held = at('held');
  fs.mkdirSync(path.join(held, '.git'), { recursive: true });
  fs.mkdirSync(path.join(held, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(held, '.env'), 'TOKEN=x\n');
  fs.writeFileSync(path.join(held, 'data.sqlite'), 'x');
  fs.writeFileSync(path.join(held, 'private.md'), 'x\n');
  fs.writeFileSync(path.join(held, '.git', 'config'), '[core]\n');
  fs.writeFileSync(path.join(held, '.claude', 'settings.json'), '{ "permissions": { "deny": ["Read(./private.md)"] } }\n');
  const root: RootChoice = { label: 'held', uri: uri('held'), rights: 'read-write' };
  const defaults = { defaults: true, patterns: [], claudeCodeDeny: false };
  const secretTrace = (input: string, tool: ToolName, secrets?: Parameters<typeof traceRequest>[5]) =>
    traceRequest({ input, root: root.uri, platform: hostPlatform(), policy: DEFAULT_POLICY, tool }, [root], DEFAULT_POLICY, hostPlatform(), undefined, secrets).trace;
  const stage = (trace: ReturnType<typeof secretTrace>) => trace.stages.find((candidate) => candidate.stage === 'secrets')?.status;

  test('a held file asks first, by the default pattern; without the settings the stage is skipped', () => {
    const trace = secretTrace('.env', 'read_text_file', defaults);
    assert.equal(trace.code, 'ERR_SECRET');
    assert.deepEqual(trace.secret, { decision: 'ask', pattern: '.env*', source: 'default', path: '.env' });
    assert.match(trace.reason, /^Asks first: reading "\.env"/);
    assert.equal(stage(secretTrace('.env', 'read_text_file')), 'skip');
    assert.equal(stage(secretTrace('private.md', 'read_text_file', defaults)), 'pass');
  });

  test('judged for the tool: .git is held for a change only', () => {
    assert.equal(secretTrace('.git/config', 'read_text_file', defaults).verdict, 'inside');
    assert.equal(secretTrace('.git/config', 'write_file', defaults).code, 'ERR_SECRET');
  });

  test('patterns from the setting, named as the setting; the defaults off; a pattern the server would refuse left out', () => {
    const trace = secretTrace('data.sqlite', 'read_text_file', { defaults: false, patterns: ['*.sqlite', '['], claudeCodeDeny: false });
    assert.deepEqual(trace.secret, { decision: 'ask', pattern: '*.sqlite', source: 'setting boundaryInspector.secrets.patterns', path: 'data.sqlite' });
    assert.equal(secretTrace('.env', 'read_text_file', { defaults: false, patterns: ['*.sqlite'], claudeCodeDeny: false }).verdict, 'inside');
  });

  test("with claudeCodeDeny, the workspace's Claude Code deny rule refuses by policy", () => {
    const trace = secretTrace('private.md', 'read_text_file', { ...defaults, claudeCodeDeny: true });
    assert.equal(trace.secret?.decision, 'deny');
    assert.match(trace.reason, /^Refused by policy: reading "private\.md" is denied by "Read\(\.\/private\.md\)" \(\.claude\/settings\.json line 1\)/);
  });
});
