// `trace --tool`: the path judged as one of the server's tools judges it, from the same table
// (src/shared/operations.ts). A link at the last name is followed by a read and judged itself by
// get_file_info; with no grants, no read-only rule applies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OPERATIONS, PATH_TOOL_NAMES } from '../../src/shared/operations.js';

const repoRoot = path.resolve(__dirname, '../..');
const cliPath = path.join(repoRoot, 'dist', 'cli.js');

function run(args: readonly string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  const result = spawnSync(process.execPath, [cliPath, ...args], { cwd: repoRoot, encoding: 'utf8', env });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('trace --tool', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
  let dir: string;
  let ws: string;

  before(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-cli-tool-')));
    ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'secret');
    fs.symlinkSync('../secret.txt', path.join(ws, 'escape-file'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const json = (args: readonly string[]) => {
    const result = run([...args, '--json']);
    return { ...result, body: JSON.parse(result.stdout) as Record<string, unknown> };
  };

  test('a link at the last name to outside: outside as read (the default), inside as get_file_info', () => {
    const read = json(['trace', 'escape-file', '--root', ws]);
    assert.equal(read.status, 3);
    assert.deepEqual([read.body.tool, read.body.verdict, read.body.code], ['read_text_file', 'outside', 'ERR_SYMLINK_ESCAPE']);
    const info = json(['trace', 'escape-file', '--root', ws, '--tool', 'get_file_info']);
    assert.equal(info.status, 0);
    assert.deepEqual([info.body.tool, info.body.verdict, info.body.kind], ['get_file_info', 'inside', 'symlink']);
    assert.equal(Object.keys(info.body)[0], 'tool');
  });

  test('every tool: followed or not as its row says', () => {
    for (const tool of PATH_TOOL_NAMES) {
      const { status, body } = json(['trace', 'escape-file', '--root', ws, '--tool', tool]);
      assert.equal(body.tool, tool);
      assert.equal(status, OPERATIONS[tool].followFinal ? 3 : 0, tool);
    }
  });

  test('the text names the tool and what it does with the path', () => {
    const { stdout } = run(['trace', 'escape-file', '--root', ws, '--tool', 'delete_path']);
    assert.ok(stdout.split('\n').includes(`as    delete_path: ${OPERATIONS.delete_path.acts}`), stdout);
  });

  test('an unknown tool is a usage error listing the names', () => {
    const { status, stderr, stdout } = run(['trace', 'escape-file', '--root', ws, '--tool', 'read_file']);
    assert.equal(status, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /--tool must be one of read_text_file, .*delete_path/);
    assert.match(stderr, /"read_file"/);
  });

  test('--help documents --tool', () => {
    assert.match(run(['trace', '--help']).stdout, /--tool <name>/);
  });
});
