// The server's launch arguments from the editor's state: exactly the trusted file: folders, as
// explicit workspace URIs, read-only where the settings say, nothing when untrusted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLICY } from '../../src/core/index.js';
import { serverLaunch, type Folder } from '../../src/extension/grants.js';
import type { Settings } from '../../src/extension/settings.js';
import { DEFAULT_SIMULATED_ROOTS, NO_SIMULATED_SPELLINGS } from '../../src/shared/simulatedRoots.js';

const settings: Settings = { policy: DEFAULT_POLICY, readOnlyFolders: [], refusalLogSize: 4096, simulatedRoots: DEFAULT_SIMULATED_ROOTS, simulatedSpellings: NO_SIMULATED_SPELLINGS };
const app: Folder = { name: 'app', uri: 'file:///c%3A/Users/dev/app', scheme: 'file', fsPath: 'c:\\Users\\dev\\app' };
const docs: Folder = { name: 'docs', uri: 'file:///home/dev/docs', scheme: 'file', fsPath: '/home/dev/docs' };
const remote: Folder = { name: 'remote', uri: 'vscode-remote://ssh/home/dev/x', scheme: 'vscode-remote', fsPath: '/home/dev/x' };

function workspaces(args: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  args.forEach((arg, i) => {
    if (arg === '--workspace' || arg === '--read-only-workspace') pairs.push([arg, args[i + 1]!]);
  });
  return pairs;
}

test('each trusted file: folder is one explicit --workspace, its URI exactly as VS Code spells it', () => {
  const launch = serverLaunch([app, docs], true, settings, '/logs/refusals.jsonl');
  assert.deepEqual(workspaces(launch.args), [['--workspace', app.uri], ['--workspace', docs.uri]]);
  assert.deepEqual(launch.args.slice(-4), ['--refusal-log', '/logs/refusals.jsonl', '--refusal-log-size', '4096']);
  assert.deepEqual(launch.notes, []);
});

test('readOnlyFolders matches a folder by name, path or URI', () => {
  for (const entry of ['docs', '/home/dev/docs', 'file:///home/dev/docs']) {
    const launch = serverLaunch([app, docs], true, { ...settings, readOnlyFolders: [entry] }, null);
    assert.deepEqual(workspaces(launch.args), [['--workspace', app.uri], ['--read-only-workspace', docs.uri]], entry);
    assert.deepEqual(launch.roots.map((root) => root.rights), ['read-write', 'read']);
  }
});

test('an untrusted workspace grants nothing and says why', () => {
  const launch = serverLaunch([app, docs], false, settings, '/logs/refusals.jsonl');
  assert.deepEqual(launch.args, []);
  assert.deepEqual(launch.notes, [{ kind: 'untrusted' }]);
  assert.deepEqual(launch.roots.map((root) => root.rights), ['none', 'none']);
});

test('no folder open: nothing granted, and the note says so', () => {
  const launch = serverLaunch([], true, settings, null);
  assert.deepEqual(launch.args, []);
  assert.deepEqual(launch.notes, [{ kind: 'no-folder' }]);
});

test('a folder on another filesystem scheme is not granted, and the note names it', () => {
  const launch = serverLaunch([docs, remote], true, settings, null);
  assert.deepEqual(workspaces(launch.args), [['--workspace', docs.uri]]);
  assert.deepEqual(launch.notes, [{ kind: 'not-local', folders: ['remote'] }]);
});

test('the policy settings become server flags', () => {
  const policy = { localhost: 'allow', unc: 'allow', case: 'sensitive', symlinks: 'refuse' } as const;
  const launch = serverLaunch([docs], true, { ...settings, policy }, null);
  for (const flag of ['--allow-localhost', '--allow-unc']) assert.ok(launch.args.includes(flag), flag);
  assert.equal(launch.args[launch.args.indexOf('--case') + 1], 'sensitive');
  assert.equal(launch.args[launch.args.indexOf('--symlinks') + 1], 'refuse');
});

test('case "insensitive" is the inspector\'s to simulate: the server is told auto, and the panel says so', () => {
  const policy = { ...settings.policy, case: 'insensitive' } as const;
  const launch = serverLaunch([docs], true, { ...settings, policy }, null);
  assert.equal(launch.args[launch.args.indexOf('--case') + 1], 'auto');
  assert.deepEqual(launch.notes, [{ kind: 'case-simulated' }]);
});

test('the version changes exactly when the arguments change', () => {
  const a = serverLaunch([app, docs], true, settings, null);
  assert.equal(serverLaunch([app, docs], true, settings, null).version, a.version);
  assert.notEqual(serverLaunch([app], true, settings, null).version, a.version);
  assert.notEqual(serverLaunch([app, docs], true, { ...settings, readOnlyFolders: ['docs'] }, null).version, a.version);
  assert.notEqual(serverLaunch([app, docs], false, settings, null).version, a.version);
});

test('the arguments it builds start the real server: the VS Code drive spelling is a valid root', async () => {
  const { rootToPath } = await import('../../src/core/index.js');
  const converted = rootToPath(app.uri, { platform: 'win32' });
  assert.ok(converted.ok);
  assert.equal(converted.path, 'C:\\Users\\dev\\app');
});

test('the secrets settings become the server\'s flags, the patterns named as the setting\'s, and parse as serve parses them', async () => {
  const { parseServeArgs } = await import('../../src/server/launch/options.js');
  const launch = serverLaunch([docs], true, { ...settings, secrets: { defaults: false, patterns: ['*.sqlite', '!.env.example'], claudeCodeDeny: true } }, null);
  const parsed = parseServeArgs(launch.args);
  assert.deepEqual(parsed.secrets, {
    defaults: false,
    patterns: [
      { pattern: '*.sqlite', source: 'setting boundaryInspector.secrets.patterns' },
      { pattern: '!.env.example', source: 'setting boundaryInspector.secrets.patterns' },
    ],
    claudeCodeDeny: true,
  });
  const plain = parseServeArgs(serverLaunch([docs], true, { ...settings, secrets: { defaults: true, patterns: [], claudeCodeDeny: false } }, null).args);
  assert.deepEqual(plain.secrets, { defaults: true, patterns: [], claudeCodeDeny: false });
});
