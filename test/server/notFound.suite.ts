// A path inside the workspace that names nothing: the answer says which existing entries it nearly
// named (the case, Unicode or encoding slip that makes an agent miss a file that is there), and the
// refusal log records it as a not-found event, for the inspector's feed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sandboxAvailability } from '../../bench/race/harness.js';
import { connect, fileUri, makeTempDir, readLog, removeDir, textOf, writeTree, type Session } from './helpers.js';
import { eventually } from '../patience.js';
import { RawServer } from './rawServer.js';

const NFC = 'caf\u00e9';

/** The log's lines that `accept` takes, once there are any. */
function logged(log: string, accept: (line: Record<string, any>) => boolean, what: string): Promise<Record<string, any>[]> {
  return eventually(() => {
    const lines = readLog(log).filter(accept);
    assert.ok(lines.length > 0, what);
    return lines;
  }, what);
}
const NFD = 'cafe\u0301';

describe('not found: the answer names what the path nearly named, and the log records it', () => {
  let base: string;
  let ws: string;
  let W: string;
  let log: string;
  let session: Session;
  let twinsApart = false;

  before(async () => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    log = path.join(base, 'logs', 'refusals.jsonl');
    writeTree(ws, { 'README.md': 'read me', 'docs/Guide.md': 'guide', 'plain.txt': 'plain' });
    fs.mkdirSync(path.join(ws, NFD));
    fs.writeFileSync(path.join(ws, NFD, 'menu.md'), 'menu');
    // The Unicode rows need a filesystem that keeps the two spellings apart (Linux's do).
    twinsApart = !fs.existsSync(path.join(ws, NFC));
    W = fileUri(ws);
    session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--refusal-log', log] });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  const rows: readonly { tool: string; args: Record<string, unknown>; suggests: string }[] = [
    { tool: 'read_text_file', args: { path: 'readme.md' }, suggests: 'README.md' },
    { tool: 'get_file_info', args: { path: 'docs/guide.md' }, suggests: 'docs/Guide.md' },
    { tool: 'list_directory', args: { path: 'Docs' }, suggests: 'docs' },
    { tool: 'delete_path', args: { path: 'readme.md' }, suggests: 'README.md' },
    { tool: 'move_file', args: { source: 'readme.md', destination: 'moved.md' }, suggests: 'README.md' },
    { tool: 'edit_file', args: { path: 'README.MD', edits: [{ oldText: 'read', newText: 'x' }] }, suggests: 'README.md' },
    { tool: 'read_text_file', args: { path: `${NFC}/menu.md` }, suggests: `${NFD}/menu.md` },
    // the workspace folder's own name repeated, and Windows' separator
    { tool: 'read_text_file', args: { path: 'ws/docs/Guide.md' }, suggests: 'docs/Guide.md' },
    { tool: 'get_file_info', args: { path: 'docs\\Guide.md' }, suggests: 'docs/Guide.md' },
  ];
  for (const { tool, args, suggests } of rows) {
    test(`${tool} ${JSON.stringify(args)}: ENOENT, "Did you mean ${suggests}?", logged as not found, nothing changed`, async (t) => {
      if (suggests.includes(NFD) && !twinsApart) return t.skip('this filesystem folds NFC and NFD');
      const before = fs.readdirSync(ws).sort();
      const result = await session.call(tool, { workspaceUri: W, ...args });
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, /^Error \(ENOENT\): .* does not exist\. Did you mean /);
      assert.ok(text.includes(`Did you mean ${suggests}`), text);
      assert.deepEqual(fs.readdirSync(ws).sort(), before);
      assert.equal(fs.readFileSync(path.join(ws, 'README.md'), 'utf8'), 'read me');
      const input = (args.path ?? args.source) as string;
      const [entry] = (await logged(log, (line) => line.tool === tool && line.input === input && line.event === 'not-found', `no not-found line for ${tool} ${input}`)) as [Record<string, any>];
      assert.equal(entry.code, 'ENOENT');
      assert.equal(entry.stage, 'realpath');
      assert.equal(entry.workspaceUri, W);
      assert.equal(entry.reason, text.replace(/^Error \(ENOENT\): /, ''));
      assert.ok(entry.trace.nearMisses.some((miss: { path: string }) => miss.path === path.join(ws, suggests)), JSON.stringify(entry.trace.nearMisses));
    });
  }

  test('read_multiple_files: each missing file says what it nearly named, the others are read', async () => {
    const text = textOf(await session.call('read_multiple_files', { workspaceUri: W, paths: ['readme.md', 'plain.txt'] }));
    assert.match(text, /readme\.md: Error \(ENOENT\): .* does not exist\. Did you mean README\.md\?/);
    assert.match(text, /plain\.txt:\nplain/);
  });

  test('write_file into a folder that is not there names the folder it nearly named', async () => {
    const result = await session.call('write_file', { workspaceUri: W, path: 'Docs/new.md', content: 'x' });
    assert.match(textOf(result), /^Error \(ENOENT\): .*Docs does not exist\. Did you mean docs\?$/);
    assert.equal(fs.existsSync(path.join(ws, 'docs', 'new.md')), false);
  });

  test('a missing name with nothing near it is a plain ENOENT, still logged as not found', async () => {
    const result = await session.call('read_text_file', { workspaceUri: W, path: 'nothing-like-it.txt' });
    assert.match(textOf(result), /^Error \(ENOENT\): .*nothing-like-it\.txt does not exist$/);
    await logged(log, (line) => line.input === 'nothing-like-it.txt' && line.event === 'not-found', 'no not-found line');
  });

  test('a refusal is still a refusal: no not-found event for a path outside', async () => {
    await session.call('read_text_file', { workspaceUri: W, path: '../README.md' });
    const lines = await logged(log, (line) => line.input === '../README.md', 'the refusal was not logged');
    assert.deepEqual(lines.map((line) => [line.code, line.event]), [['ERR_OUTSIDE', undefined]]);
  });

  test('write_file and create_directory at a missing path create it: no not-found event', async () => {
    await session.call('write_file', { workspaceUri: W, path: 'new.txt', content: 'new' });
    await session.call('create_directory', { workspaceUri: W, path: 'made/deeper' });
    assert.equal(fs.readFileSync(path.join(ws, 'new.txt'), 'utf8'), 'new');
    assert.ok(fs.statSync(path.join(ws, 'made/deeper')).isDirectory());
    await session.call('read_text_file', { workspaceUri: W, path: 'nothing-like-it.txt' });
    await eventually(() => assert.equal(readLog(log).filter((line) => line.input === 'nothing-like-it.txt').length, 2), 'the second not-found line');
    assert.deepEqual(readLog(log).filter((line) => line.input === 'new.txt' || line.input === 'made/deeper'), []);
  });
});

describe('not found inside the sandbox: the launcher outside writes the event', { skip: !sandboxAvailability().available && `no sandbox here: ${sandboxAvailability().reason}` }, () => {
  let base: string;
  before(() => {
    base = makeTempDir();
    writeTree(base, { 'ws/README.md': 'read me' });
  });
  after(() => removeDir(base));

  test('read_text_file readme.md: "Did you mean README.md?", and a not-found line in the log', async () => {
    const log = path.join(base, 'logs', 'refusals.jsonl');
    fs.mkdirSync(path.dirname(log));
    const W = fileUri(path.join(base, 'ws'));
    const server = RawServer.start(['--workspace', W, '--refusal-log', log], { sandboxed: true });
    try {
      await server.initialize();
      const answer = await server.call('read_text_file', { workspaceUri: W, path: 'readme.md' });
      assert.match(JSON.stringify(answer.result?.content), /readme\.md does not exist\. Did you mean README\.md\?/);
      const [line] = await logged(log, (entry) => entry.event === 'not-found', 'the launcher wrote no not-found line');
      assert.equal(line?.code, 'ENOENT');
      assert.equal(line?.input, 'readme.md');
    } finally {
      await server.close();
    }
  });
});
