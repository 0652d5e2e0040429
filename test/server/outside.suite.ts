// The agent learns nothing about the outside: for an outside path that exists and one that does
// not, every answer is the same once the one differing name is set aside; where a chain of links
// goes beyond the workspace is never told. The refusal log, for the person at the machine, keeps
// the whole trace.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connect, fileUri, makeTempDir, readLog, removeDir, textOf, writeTree, type Session, type ToolResult } from './helpers.js';

describe('answers about outside paths reveal nothing (v2 client)', () => {
  let base: string;
  let ws: string;
  let W: string;
  let log: string;
  let session: Session;
  const WORKING_DIR = 'the-servers-working-directory';

  before(async () => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    writeTree(base, { 'ws/inside.txt': 'inside', 'outside/present/file.txt': 'OUTSIDE-SECRET' });
    fs.symlinkSync('../outside/present', path.join(ws, 'link-present'));
    fs.symlinkSync('../outside/vacant', path.join(ws, 'link-vacant'));
    fs.symlinkSync('/proc/self/cwd', path.join(ws, 'cwd'));
    W = fileUri(ws);
    log = path.join(base, 'log', 'refusals.jsonl');
    // A working directory of its own, named as no other path here is: its name in an answer is a leak.
    fs.mkdirSync(path.join(base, WORKING_DIR));
    session = await connect('v2', { args: ['--workspace', W, '--refusal-log', log], cwd: path.join(base, WORKING_DIR) });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  /** Everything the agent sees of an answer, with the differing name made a placeholder. */
  function seen(result: ToolResult, name: string): string {
    return JSON.stringify({ isError: result.isError, structured: result.structuredContent, text: textOf(result) }).replaceAll(name, 'NAME');
  }

  const pairs: readonly [string, (name: string) => string][] = [
    ['by dot-dot', (name) => `../outside/${name}/file.txt`],
    ['absolute', (name) => path.join(base, 'outside', name)],
    ['through a link', (name) => `link-${name}/file.txt`],
    ['the link itself, followed', (name) => `link-${name}`],
  ];
  const calls: readonly [string, (target: string) => Record<string, unknown>][] = [
    ['read_text_file', (target) => ({ path: target })],
    ['get_file_info', (target) => ({ path: target })],
    ['list_directory', (target) => ({ path: target })],
    ['explain_path', (target) => ({ path: target })],
    ['write_file', (target) => ({ path: target, content: 'x' })],
    ['create_directory', (target) => ({ path: target })],
    ['delete_path', (target) => ({ path: target })],
  ];

  // Names of one length, found in no message: only the outside state differs between the two.
  for (const [form, spell] of pairs) {
    for (const [tool, argsFor] of calls) {
      // get_file_info describes the link itself, an entry of the workspace (its times differ).
      if (tool === 'get_file_info' && form === 'the link itself, followed') continue;
      test(`${tool}, ${form}: the same answer whether the outside path exists or not`, async () => {
        const existing = await session.call(tool, { workspaceUri: W, ...argsFor(spell('present')) });
        const missing = await session.call(tool, { workspaceUri: W, ...argsFor(spell('vacant')) });
        assert.equal(seen(existing, 'present'), seen(missing, 'vacant'));
        assert.ok(!JSON.stringify(existing).includes('OUTSIDE-SECRET'));
      });
    }
  }

  test('a link to /proc/self/cwd never tells the server\'s working directory', async () => {
    for (const tool of ['read_text_file', 'explain_path', 'list_directory']) {
      const result = await session.call(tool, { workspaceUri: W, path: 'cwd/x' });
      assert.ok(!JSON.stringify(result).includes(WORKING_DIR), `${tool}: ${textOf(result)}`);
    }
  });

  test('the refusal log keeps the whole trace for the person at the machine', async () => {
    await session.call('read_text_file', { workspaceUri: W, path: 'link-present/file.txt' });
    // The line is on disk before the refusal is answered.
    const entry = readLog(log).find((line) => line.input === 'link-present/file.txt');
    assert.ok(entry, 'the refusal was logged');
    assert.equal(entry.code, 'ERR_SYMLINK_ESCAPE');
    assert.deepEqual(entry.trace.stages.map((stage: { stage: string }) => stage.stage), ['parse', 'refusals', 'decode', 'normalise', 'alias', 'case', 'realpath']);
    assert.deepEqual(entry.trace.links, [{ link: path.join(ws, 'link-present'), target: '../outside/present' }]);
  });
});
