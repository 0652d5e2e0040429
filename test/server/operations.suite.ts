// explain_path and the tools judge a path from one table (src/shared/operations.ts), so an
// explanation and the action cannot disagree: for every input of the real-filesystem tests
// (test/core/filesystem.test.ts, test/server/outside.suite.ts) and every tool, explain_path with
// that tool says inside exactly when the tool itself is not refused, and the same code when it is.
// Errors that are not the boundary's (ENOENT, EISDIR, "not a folder") count as not refused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OPERATIONS, PATH_TOOL_NAMES, TOOL_NAMES, type ToolName } from '../../src/shared/operations.js';
import { WORKSPACE_TOOLS } from '../../src/server/tools/index.js';
import { accessOf, defineTool } from '../../src/server/tools/tool.js';
import { connect, expectContent, expectOk, expectRefusal, fileUri, makeTempDir, readLog, refusalOf, removeDir, textOf, type Session, type ToolResult } from './helpers.js';

/** Tools that take no path (audit_workspace) have nothing to explain, nor the view's comparison, which only explains. */
const WITH_PATH = PATH_TOOL_NAMES.filter((name) => {
  const input = WORKSPACE_TOOLS.find((tool) => tool.name === name)?.input ?? {};
  return 'path' in input || 'paths' in input || 'source' in input;
});

describe('the operation table', () => {
  test('every registered workspace tool has a row, and every row a tool', () => {
    assert.deepEqual(WORKSPACE_TOOLS.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort());
  });

  test('a definition whose change hints do not match its row is refused when it is made', () => {
    const [reading, changing] = [WORKSPACE_TOOLS.find((tool) => tool.hints === undefined)!, WORKSPACE_TOOLS.find((tool) => tool.hints !== undefined)!];
    assert.throws(() => defineTool({ ...reading, hints: { destructive: false, idempotent: true } }), /change hints exactly when/);
    const { hints: _hints, ...withoutHints } = changing;
    assert.throws(() => defineTool(withoutHints), /change hints exactly when/);
    for (const tool of WORKSPACE_TOOLS) assert.equal(accessOf(tool) === 'write', OPERATIONS[tool.name].changes, tool.name);
  });
});

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

/** The fixture as entries under the base folder: a folder, a file's text, or a link's target. */
type Entry = { readonly dir: true } | { readonly file: string } | { readonly link: string };

function fixture(base: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const dir = (name: string) => entries.set(name, { dir: true });
  const file = (name: string, text = 'inside\n') => entries.set(name, { file: text });
  const link = (name: string, target: string) => entries.set(name, { link: target });

  // test/core/filesystem.test.ts
  dir('ws');
  dir('ws/sub');
  file('ws/notes.md');
  file('ws/sub/file.txt');
  dir('ws/c');
  file('ws/c/file.txt');
  dir('ws-evil');
  file('ws-evil/secret.md', 'secret\n');
  dir('outside');
  file('outside/secret.txt', 'secret\n');
  link('ws/escape', '../outside');
  link('ws/escape-file', '../outside/secret.txt');
  link('ws/inner', 'sub');
  link('ws/abs-inner', path.join(base, 'ws', 'sub'));
  link('ws/out-and-back', '../ws/sub');
  link('ws/a', 'b');
  link('ws/b', 'c/');
  link('ws/hop1', 'hop2');
  link('ws/hop2', '../outside');
  link('ws/dangling-in', 'missing-name');
  link('ws/dangling-out', '../nowhere');
  link('ws/l1', 'l2');
  link('ws/l2', 'l1');
  link('ws/self', 'self');
  link('to-ws', 'ws');
  link('ws/up', '..');
  link('ws/here', '.');
  link('ws/slash', '/');
  link('ws/dangling-via-escape', 'escape/missing');
  dir(NFC);
  file(`${NFC}/file.txt`);
  dir(NFD);
  file(`${NFD}/secret.txt`, 'secret\n');
  dir('App');
  file('App/x');
  dir('app');
  file('app/x', 'secret\n');
  dir('real-parent');
  dir('real-parent/ws');
  file('real-parent/ws/file.txt');
  link('real-parent/ws/alias', 'file.txt');
  link('link-parent', 'real-parent');
  // test/server/outside.suite.ts
  dir('outside/present');
  file('outside/present/file.txt', 'OUTSIDE-SECRET');
  link('ws/link-present', '../outside/present');
  link('ws/link-vacant', '../outside/vacant');
  link('ws/cwd', '/proc/self/cwd');
  // Rights: read-only nested in read-write, and read-write nested in read-only.
  dir('ws/ro');
  file('ws/ro/file.txt');
  dir('ws/ro/sub');
  file('ws/ro/sub/inner.txt');
  link('ws/ro-link', 'ro');
  dir('ro-ws');
  file('ro-ws/file.txt');
  dir('ro-ws/sub');
  dir('ro-ws/rw');
  file('ro-ws/rw/file.txt');
  // A name that differs from an existing one only in case.
  dir('ws/Docs');
  file('ws/Docs/README.md');
  return entries;
}

/**
 * Puts the fixture back after a tool changed it, keeping every folder that is still a folder: the
 * server holds the workspace roots open, so they must stay the same folders.
 */
function restore(base: string, entries: Map<string, Entry>): void {
  for (const [name, entry] of entries) {
    const full = path.join(base, name);
    const stats = fs.lstatSync(full, { throwIfNoEntry: false });
    if ('dir' in entry) {
      if (stats?.isDirectory()) continue;
      if (stats) fs.rmSync(full, { recursive: true, force: true });
      fs.mkdirSync(full);
    } else if ('file' in entry) {
      if (stats?.isFile() && fs.readFileSync(full, 'utf8') === entry.file) continue;
      if (stats) fs.rmSync(full, { recursive: true, force: true });
      fs.writeFileSync(full, entry.file);
    } else {
      if (stats?.isSymbolicLink() && fs.readlinkSync(full) === entry.link) continue;
      if (stats) fs.rmSync(full, { recursive: true, force: true });
      fs.symlinkSync(entry.link, full);
    }
  }
  const prune = (folder: string) => {
    for (const name of fs.readdirSync(path.join(base, folder))) {
      const relative = folder === '' ? name : `${folder}/${name}`;
      if (relative === 'log') continue;
      const entry = entries.get(relative);
      if (entry === undefined) fs.rmSync(path.join(base, relative), { recursive: true, force: true });
      else if ('dir' in entry) prune(relative);
    }
  };
  prune('');
}

interface Case {
  /** The workspace, by its folder under the base. */
  readonly workspace: string;
  readonly input: string;
}

function cases(base: string): Case[] {
  const at = (...names: string[]) => path.join(base, ...names);
  const uriOf = (...names: string[]) => fileUri(at(...names));
  const ws = (...inputs: string[]) => inputs.map((input) => ({ workspace: 'ws', input }));
  return [
    ...ws(
      at('ws-evil', 'secret.md'), uriOf('ws-evil', 'secret.md'), '../ws-evil/secret.md',
      `${uriOf('ws')}/%2e%2e/outside/secret.txt`, `${uriOf('ws')}/%2E%2E/outside/secret.txt`,
      at('outside', 'secret.txt'), at('to-ws', 'notes.md'),
      at('ws', 'sub', 'file.txt'), 'sub/file.txt',
      at('ws', 'escape', 'secret.txt'), uriOf('ws', 'escape', 'secret.txt'), 'escape/secret.txt',
      at('ws', 'escape-file'), at('ws', 'escape'),
      at('ws', 'inner', 'file.txt'), at('ws', 'abs-inner', 'file.txt'), at('ws', 'out-and-back', 'file.txt'), at('ws', 'a', 'file.txt'),
      at('ws', 'hop1', 'secret.txt'),
      at('ws', 'dangling-in'), at('ws', 'dangling-in', 'child.txt'), at('ws', 'dangling-out'),
      at('ws', 'l1'), at('ws', 'l1', 'x.txt'), at('ws', 'self'),
      at('ws', 'escape', 'new-file.txt'), at('ws', 'escape', 'new-dir', 'new-file.txt'),
      at('ws', 'sub', 'new-file.txt'), at('ws', 'new-dir', 'deeper', 'new-file.txt'),
      at('ws', 'up', 'ws', 'notes.md'), at('ws', 'up', 'ws-evil', 'secret.md'), at('ws', 'here', 'here', 'notes.md'),
      at('ws', 'slash', 'etc', 'passwd'), at('ws', 'dangling-via-escape'),
      at('ws', 'notes.md', 'x'), at('ws', 'escape-file', 'x'), at('ws', 'inner', 'new-file.txt'),
      '.', './', uriOf('ws'), `${uriOf('ws')}/`, '..',
      // Links and folders that are the subject itself.
      'inner', 'a', 'up', 'here', 'slash', 'sub', 'notes.md',
      // outside.suite.ts
      '../outside/present/file.txt', '../outside/vacant/file.txt', at('outside', 'present'), at('outside', 'vacant'),
      'link-present/file.txt', 'link-vacant/file.txt', 'link-present', 'link-vacant', 'cwd/x', 'cwd',
      // Rights
      'ro', 'ro/file.txt', 'ro/sub', 'ro/new.txt', 'ro-link', 'ro-link/file.txt', 'ro-link/new.txt',
      'docs/README.md', at('WS', 'notes.md'),
    ),
    ...['file.txt', 'sub', 'new.txt', 'rw', 'rw/file.txt', 'rw/new.txt', '.'].map((input) => ({ workspace: 'ro-ws', input })),
    ...['file.txt', 'new.txt', '.', '..', '../file.txt'].map((input) => ({ workspace: 'ro-ws/rw', input })),
    ...[at(NFD, 'secret.txt'), uriOf(NFD, 'secret.txt'), at(NFC, 'file.txt'), uriOf(NFC, 'file.txt')].map((input) => ({ workspace: NFC, input })),
    ...[at('app', 'x'), at('App', 'x')].map((input) => ({ workspace: 'App', input })),
    ...[at('link-parent', 'ws', 'file.txt'), at('real-parent', 'ws', 'file.txt'), 'file.txt', at('real-parent', 'ws-evil'), 'alias', at('link-parent', 'ws', 'alias')].map(
      (input) => ({ workspace: 'link-parent/ws', input }),
    ),
  ];
}

/** Valid arguments for the tool besides the path, so only the path decides. */
function argsFor(tool: ToolName, input: string, fresh: string): Record<string, unknown> {
  switch (tool) {
    case 'read_multiple_files':
      return { paths: [input] };
    case 'search_files':
      return { path: input, pattern: '*.txt' };
    case 'search_file_contents':
      return { path: input, pattern: 'inside' };
    case 'write_file':
      return { path: input, content: 'written' };
    case 'edit_file':
      return { path: input, edits: [{ oldText: 'inside', newText: 'edited' }] };
    case 'move_file':
      return { source: input, destination: fresh };
    case 'delete_path':
      return { path: input, recursive: true };
    default:
      return { path: input };
  }
}

/** The boundary's refusal code for a tool's answer, or null when the boundary let it through. */
function refusalCode(tool: ToolName, input: string, result: ToolResult): string | null {
  if (tool === 'explain_path') return result.structuredContent?.code ?? null;
  if (tool === 'read_multiple_files') {
    const text = textOf(result);
    const prefix = `${input}: Refused (`;
    return text.startsWith(prefix) ? text.slice(prefix.length).split(' ')[0]! : null;
  }
  return (refusalOf(result)?.code as string | undefined) ?? null;
}

describe('explain_path with a tool agrees with that tool, for every input and every tool', { skip: process.platform !== 'linux' && 'the fixture needs case and Unicode twins side by side' }, () => {
  for (const symlinks of ['contain', 'refuse'] as const) {
    describe(`--symlinks ${symlinks}`, () => {
      let base: string;
      let entries: Map<string, Entry>;
      let session: Session;

      before(async () => {
        base = makeTempDir('bi-operations-');
        entries = fixture(base);
        restore(base, entries);
        const grant = (flag: string, name: string) => [flag, fileUri(path.join(base, name))];
        session = await connect('v1', {
          inProcess: true,
          recordWire: false,
          args: [
            ...grant('--workspace', 'ws'),
            ...grant('--read-only-workspace', 'ws/ro'),
            ...grant('--read-only-workspace', 'ro-ws'),
            ...grant('--workspace', 'ro-ws/rw'),
            ...grant('--workspace', NFC),
            ...grant('--workspace', 'App'),
            ...grant('--workspace', 'link-parent/ws'),
            '--symlinks',
            symlinks,
          ],
        });
      });
      after(async () => {
        await session?.close();
        removeDir(base);
      });

      for (const tool of WITH_PATH) {
        test(tool, async () => {
          let agreed = 0;
          let refusals = 0;
          for (const [i, { workspace, input }] of cases(base).entries()) {
            const workspaceUri = fileUri(path.join(base, workspace));
            const what = `${tool} ${JSON.stringify(input)} in ${workspace}`;
            const explained = expectOk(await session.call('explain_path', { workspaceUri, path: input, tool }), `explain ${what}`);
            assert.equal(explained.tool, tool, what);
            assert.equal(explained.acts, OPERATIONS[tool].acts, what);
            // The fixture is put back between calls, from outside the server: read first, as an agent
            // does, so a file changed since this connection read it is not what decides.
            if (tool === 'write_file' || tool === 'edit_file') await session.call('read_text_file', { workspaceUri, path: input });
            // A destination where the workspace is writable, so only the source decides.
            const result = await session.call(tool, { workspaceUri, ...argsFor(tool, input, `${workspace === 'ro-ws' ? 'rw/' : ''}moved-${i}`) });
            let code = refusalCode(tool, input, result);
            // Refused after the path was allowed: the fixture put back a link where this connection
            // wrote a file, which a read through the link cannot show it.
            if (code === 'ERR_CHANGED_SINCE_READ' && explained.verdict === 'inside') code = null;
            const said = `explain_path said ${explained.verdict} ${explained.code ?? ''} (${explained.reason}); ${tool} answered ${textOf(result).slice(0, 300)}`;
            assert.equal(code, explained.code ?? null, `${what}: ${said}`);
            assert.equal(explained.verdict === 'inside', code === null, `${what}: ${said}`);
            if (code !== null) refusals += 1;
            agreed += 1;
            if (OPERATIONS[tool].changes) restore(base, entries);
          }
          // Both answers occur for every tool: the table is not trivially agreed.
          assert.ok(refusals > 0 && refusals < agreed, `${tool}: ${refusals} of ${agreed} refused`);
        });
      }
    });
  }
});

describe('explain_path explains one operation, with near misses, and logs nothing', () => {
  let base: string;
  let ws: string;
  let W: string;
  let log: string;
  let session: Session;

  before(async () => {
    base = makeTempDir('bi-operations-');
    restore(base, fixture(base));
    ws = path.join(base, 'ws');
    W = fileUri(ws);
    log = path.join(base, 'log', 'refusals.jsonl');
    session = await connect('v2', {
      inProcess: true,
      args: ['--workspace', W, '--read-only-workspace', fileUri(path.join(ws, 'ro')), '--workspace', fileUri(path.join(base, 'App')), '--refusal-log', log],
    });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  // The case: a link at the last name that points outside.
  test('a link at the last name to outside: read_text_file (the default) is outside, get_file_info inside', async () => {
    const read = expectOk(await session.call('explain_path', { workspaceUri: W, path: 'escape-file' }), 'default');
    assert.equal(read.tool, 'read_text_file');
    assert.equal(read.verdict, 'outside');
    assert.equal(read.code, 'ERR_SYMLINK_ESCAPE');
    const info = await session.call('explain_path', { workspaceUri: W, path: 'escape-file', tool: 'get_file_info' });
    assert.equal(expectOk(info, 'get_file_info').verdict, 'inside');
    assert.match(textOf(info), /^As get_file_info judges it \(describes the entry itself/);
    expectRefusal(await session.call('read_text_file', { workspaceUri: W, path: 'escape-file' }), { code: 'ERR_SYMLINK_ESCAPE' }, 'read');
    assert.equal(expectOk(await session.call('get_file_info', { workspaceUri: W, path: 'escape-file' }), 'info').type, 'symlink');
  });

  test('a change in a read-only workspace is explained as refused there, a read as inside', async () => {
    const write = expectOk(await session.call('explain_path', { workspaceUri: W, path: 'ro/file.txt', tool: 'write_file' }), 'write');
    assert.deepEqual([write.verdict, write.code, write.stage], ['refused', 'ERR_READ_ONLY', 'server']);
    assert.match(write.reason, /write_file changes files/);
    assert.equal(expectOk(await session.call('explain_path', { workspaceUri: W, path: 'ro/file.txt' }), 'read').verdict, 'inside');
  });

  test('near misses: a name in another case, in the structured result and under "Did you mean"', async () => {
    const result = await session.call('explain_path', { workspaceUri: W, path: 'docs/README.md' });
    const explained = expectOk(result, 'case twin');
    assert.equal(explained.verdict, 'inside');
    const wanted = path.join(ws, 'Docs', 'README.md');
    assert.deepEqual(explained.nearMisses, [{ path: wanted, uri: fileUri(wanted), why: 'case' }]);
    assert.match(textOf(result), new RegExp(`Did you mean:\\n  ${fileUri(wanted).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(case\\)`));
  });

  test('near misses: a path in another granted workspace', async () => {
    const other = path.join(base, 'App', 'x');
    const explained = expectOk(await session.call('explain_path', { workspaceUri: W, path: other }), 'other workspace');
    assert.equal(explained.verdict, 'outside');
    assert.deepEqual(explained.nearMisses, [{ path: other, uri: fileUri(other), why: 'workspace', workspace: fileUri(path.join(base, 'App')) }]);
  });

  test('explain_path logs nothing, whatever it explains', async () => {
    const before = readLog(log).length;
    for (const tool of PATH_TOOL_NAMES) {
      for (const input of ['escape-file', '../outside/secret.txt', 'l1', 'ro/file.txt']) {
        expectOk(await session.call('explain_path', { workspaceUri: W, path: input, tool }), `${tool} ${input}`);
      }
    }
    assert.equal(readLog(log).length, before);
  });

  test('a refusal-log line opens with the tool, and carries the near misses of its trace', async () => {
    const input = path.join(base, 'WS', 'notes.md');
    expectRefusal(await session.call('read_text_file', { workspaceUri: W, path: input }), { code: 'ERR_OUTSIDE' }, 'case twin of the root');
    const line = fs.readFileSync(log, 'utf8').split('\n').find((text) => text.includes(JSON.stringify(input)));
    assert.ok(line, 'the refusal was logged');
    assert.ok(line.startsWith('{"tool":"read_text_file",'), line.slice(0, 80));
    const entry = JSON.parse(line) as Record<string, any>;
    const wanted = path.join(ws, 'notes.md');
    assert.deepEqual(entry.trace.nearMisses, [{ path: wanted, uri: fileUri(wanted), why: 'case' }]);
  });

  test('a read-only refusal is logged under the tool that was refused', async () => {
    expectRefusal(await session.call('delete_path', { workspaceUri: W, path: 'ro/file.txt' }), { code: 'ERR_READ_ONLY' }, 'delete');
    const entry = readLog(log).findLast((line) => line.input === 'ro/file.txt');
    assert.equal(entry?.tool, 'delete_path');
    assert.equal(Object.keys(entry!)[0], 'tool');
    expectContent(await session.call('read_text_file', { workspaceUri: W, path: 'ro/file.txt' }), 'still there');
  });
});
