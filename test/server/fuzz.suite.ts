// Hostile inputs beyond the hand-written tables: paths built at random from the pieces attacks
// are made of (dot-dot in every spelling, escaping links, sibling prefixes, absolute and URI
// forms, separators and their encodings) are sent to every tool that changes files. Whatever each
// call answers, nothing outside the workspace may change.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { connect, fileUri, makeTempDir, removeDir, snapshot, writeTree, type Session } from './helpers.js';

let base: string;
let ws: string;
let session: Session;

before(async () => {
  base = makeTempDir('bi-fuzz-');
  ws = path.join(base, 'ws');
  writeTree(base, {
    'ws/a.txt': 'inside',
    'ws/dir/b.txt': 'inside',
    'ws-evil/secret.md': 'secret',
    'outside/secret.txt': 'secret',
    'outside/dir/c.txt': 'secret',
    'private.md': 'private',
  });
  fs.symlinkSync('../outside', path.join(ws, 'escape'));
  fs.symlinkSync('../outside/secret.txt', path.join(ws, 'escape-file'));
  fs.symlinkSync('dir', path.join(ws, 'inner'));
  session = await connect('v2', { inProcess: true, args: ['--workspace', fileUri(ws)] });
});

after(async () => {
  await session?.close();
  removeDir(base);
});

/** Everything but the workspace itself. */
function outsideSnapshot(): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot(base)).filter(([name]) => name !== 'ws' && !name.startsWith(`ws${path.sep}`)));
}

const segment = fc.constantFrom(
  '..', '%2e%2e', '.%2e', '%2E%2E', '%252e%252e', '.', 'escape', 'escape-file', 'inner', 'dir', 'a.txt', 'new.txt',
  'ws', 'ws-evil', 'outside', 'secret.txt', 'secret.md', 'private.md', '%2f', '%5c', '..\\..', 'x%00', '~',
);
const relative = fc.array(segment, { minLength: 1, maxLength: 6 }).map((names) => names.join('/'));
const hostile = fc.oneof(
  relative,
  relative.map((rest) => `${ws}/${rest}`),
  relative.map((rest) => `file://${ws}/${rest}`),
  relative.map((rest) => `file://${base}/${rest}`),
  relative.map((rest) => `file://localhost${ws}/${rest}`),
  relative.map((rest) => `${base}/${rest}`),
);

const call = fc.oneof(
  hostile.map((p) => ['write_file', { path: p, content: 'pwned' }] as const),
  hostile.map((p) => ['create_directory', { path: p }] as const),
  hostile.map((p) => ['delete_path', { path: p, recursive: true }] as const),
  hostile.map((p) => ['edit_file', { path: p, edits: [{ oldText: 'secret', newText: 'pwned' }] }] as const),
  fc.tuple(hostile, hostile).map(([source, destination]) => ['move_file', { source, destination }] as const),
);

test('property: no mutation through any tool changes anything outside the workspace', async () => {
  const before = outsideSnapshot();
  let refusals = 0;
  await fc.assert(
    fc.asyncProperty(call, async ([tool, args]) => {
      const result = await session.call(tool, { workspaceUri: fileUri(ws), ...args });
      if (result.isError) refusals += 1;
      assert.deepEqual(outsideSnapshot(), before, `${tool} ${JSON.stringify(args)} changed something outside the workspace`);
    }),
    { numRuns: 300 },
  );
  // The generator must reach the boundary: most calls are refused, not merely failing inside.
  assert.ok(refusals > 100, `only ${refusals} of 300 calls were refused or failed`);
});
