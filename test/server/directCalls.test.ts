// The direct path (directCalls.ts) answers 2025-11-25 tool calls without the SDK's per-request
// layer; it must answer exactly as the SDK does. Two servers, one with --direct-calls off, each on
// its own copy of the same tree, get every row of the table in the same order, and answer alike.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ROWS, writeEveryToolTree } from './everyTool.js';
import { connect, fileUri, makeTempDir, removeDir, type Session, type ToolResult } from './helpers.js';

/** What may differ between two copies of a tree: the folder they are in, and the clock. */
function comparable(result: ToolResult, base: string): string {
  return JSON.stringify(result)
    .replaceAll(base, '<base>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>');
}

describe('the direct path answers every tool call as the SDK does', () => {
  const sides: { base: string; session: Session }[] = [];

  before(async () => {
    for (const flags of [[], ['--direct-calls', 'off']]) {
      const base = makeTempDir('bi-direct-');
      const ws = writeEveryToolTree(base);
      sides.push({ base, session: await connect('v1', { args: ['--workspace', fileUri(ws), ...flags] }) });
    }
  });
  after(async () => {
    for (const { base, session } of sides) {
      await session.close();
      removeDir(base);
    }
  });

  test('every row, success and refusal, the same answer on both paths; an invalid call too', async () => {
    const rows: [string, Record<string, unknown>][] = [
      ...ROWS.map(([tool, args]) => [tool, args] as [string, Record<string, unknown>]),
      // Arguments the schema refuses, and a cursor that is not one.
      ['read_text_file', { path: 7 }],
      ['list_directory', { path: '.', cursor: 'x' }],
    ];
    let differing = 0;
    for (const [tool, args] of rows) {
      const [direct, sdk] = await Promise.all(
        sides.map(async ({ base, session }) => {
          const workspaceUri = fileUri(`${base}/ws`);
          const result = await session.call(tool, tool === 'list_workspaces' || 'workspaceUri' in args ? args : { workspaceUri, ...args });
          return comparable(result, base);
        }),
      );
      if (direct !== sdk) differing += 1;
      assert.equal(direct, sdk, `${tool} ${JSON.stringify(args)}`);
    }
    assert.equal(differing, 0);
  });
});
