// Rights that hold for whole folders. The most specific grant decides: a read-only workspace
// nested in a read-write one is read-only, including for changes to any folder that holds it
// (deleting or moving its parent, writing over it); a read-write workspace nested in a read-only
// one is writable inside. Every mutating tool is tried against a read-only grant nested at each
// depth, and the disk is compared afterwards (a refusal changes nothing).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connect, expectOk, fileUri, makeTempDir, removeDir, runServerToExit, writeTree } from './helpers.js';
import { absent, folder, link, table, type Grant, type Row, type Tree } from './table.js';

/** Read-only grants nested in the read-write workspace `outer`, one per depth, by placeholder. */
const NESTED = [
  ['ro1', 'RO1'],
  ['a/ro2', 'RO2'],
  ['a/b/ro3', 'RO3'],
] as const;

/** Every change a read-only grant at `nested` must refuse: inside it, into it, to it, and to every folder holding it. */
function attacks(nested: string): [name: string | undefined, tool: string, args: Record<string, unknown>][] {
  const inside = `${nested}/file.txt`;
  const holders = nested
    .split('/')
    .slice(0, -1)
    .map((_, i, names) => names.slice(0, i + 1).join('/'));
  return [
    [undefined, 'write_file', { path: inside, content: 'changed' }],
    [undefined, 'write_file', { path: `${nested}/new.txt`, content: 'new' }],
    [undefined, 'edit_file', { path: inside, edits: [{ oldText: 'read only', newText: 'changed' }] }],
    [undefined, 'create_directory', { path: `${nested}/made` }],
    [undefined, 'delete_path', { path: inside }],
    [undefined, 'delete_path', { path: `${nested}/sub`, recursive: true }],
    [undefined, 'move_file', { source: inside, destination: 'moved-out.txt' }],
    [undefined, 'move_file', { source: 'plain.txt', destination: `${nested}/moved-in.txt` }],
    ['the folder that is the grant', 'delete_path', { path: nested, recursive: true }],
    ['the folder that is the grant', 'move_file', { source: nested, destination: 'moved-grant' }],
    ['the folder that is the grant', 'write_file', { path: nested, content: 'over the folder' }],
    ...holders.flatMap((holder): [string, string, Record<string, unknown>][] => [
      ['a folder holding the grant', 'delete_path', { path: holder, recursive: true }],
      ['a folder holding the grant', 'move_file', { source: holder, destination: `moved-${holder.replace(/\//g, '-')}` }],
      ['a folder holding the grant', 'write_file', { path: holder, content: 'over the holder' }],
    ]),
  ];
}

const nestedTree: Tree = Object.fromEntries(NESTED.flatMap(([nested]) => [[`outer/${nested}/file.txt`, 'read only\n'], [`outer/${nested}/sub/inner.txt`, 'inner']]));

table({
  name: 'rights for whole folders: read-only grants nested at each depth of a read-write workspace',
  grants: [{ name: 'OUTER', dir: 'outer' }, ...NESTED.map(([nested, name]): Grant => ({ name, dir: `outer/${nested}`, rights: 'read' }))],
  tree: { 'outer/plain.txt': 'plain', ...nestedTree, 'outer/alias-of-ro1': link('ro1') },
  rows: [
    // Each refusal's reason names the grant.
    ...NESTED.flatMap(([nested, name]) => attacks(nested).map(([what, tool, args]): Row => ({ ...(what !== undefined ? { name: what } : {}), tool, args, want: { refused: 'ERR_READ_ONLY', fields: { reason: new RegExp(`{${name}}`) } } }))),

    // Another spelling of a path in a read-only grant is refused the same.
    { name: 'write through a link to the read-only grant', tool: 'write_file', args: { path: 'alias-of-ro1/file.txt', content: 'through the link' }, want: { refused: 'ERR_READ_ONLY' } },
    { name: 'delete through a link to the read-only grant', tool: 'delete_path', args: { path: 'alias-of-ro1/sub', recursive: true }, want: { refused: 'ERR_READ_ONLY' } },

    // Changes beside the nested grants still work.
    { name: 'written beside', tool: 'write_file', args: { path: 'a/beside.txt', content: 'fine' }, want: { structured: {} }, disk: { 'outer/a/beside.txt': 'fine' } },
    { name: 'deleted beside', tree: { 'outer/a/beside-gone.txt': 'gone' }, tool: 'delete_path', args: { path: 'a/beside-gone.txt' }, want: { structured: {} }, disk: { 'outer/a/beside-gone.txt': absent } },
    // The link itself is the subject of a delete: removing it changes nothing in the grant.
    { name: 'the link deleted, the grant untouched', tree: { 'outer/link-to-ro1': link('ro1') }, tool: 'delete_path', args: { path: 'link-to-ro1' }, want: { structured: {} }, disk: { 'outer/link-to-ro1': absent }, unchanged: ['outer/ro1'] },
  ],
});

/** The changes made inside the read-write grant, named through `workspaceUri` with `prefix` before each path. */
function changesInside(tag: string, workspaceUri: string, prefix: string): Row[] {
  const inRw = (name: string) => `ro/rw/${name}`;
  return [
    { name: 'written', tool: 'write_file', args: { workspaceUri, path: `${prefix}new-${tag}.txt`, content: 'new\n' }, want: { structured: {} }, disk: { [inRw(`new-${tag}.txt`)]: 'new\n' } },
    { name: 'edited', tree: { [inRw(`edit-${tag}.txt`)]: 'new\n' }, tool: 'edit_file', args: { workspaceUri, path: `${prefix}edit-${tag}.txt`, edits: [{ oldText: 'new', newText: 'edited' }] }, want: { structured: {} }, disk: { [inRw(`edit-${tag}.txt`)]: 'edited\n' } },
    { name: 'created', tool: 'create_directory', args: { workspaceUri, path: `${prefix}made-${tag}` }, want: { structured: {} }, disk: { [inRw(`made-${tag}`)]: folder() } },
    {
      name: 'moved',
      tree: { [inRw(`move-${tag}.txt`)]: 'edited\n', [inRw(`moved-${tag}`)]: folder() },
      tool: 'move_file',
      args: { workspaceUri, source: `${prefix}move-${tag}.txt`, destination: `${prefix}moved-${tag}/new.txt` },
      want: { structured: {} },
      disk: { [inRw(`move-${tag}.txt`)]: absent, [inRw(`moved-${tag}/new.txt`)]: 'edited\n' },
    },
    { name: 'deleted', tree: { [inRw(`delete-${tag}/new.txt`)]: 'edited\n' }, tool: 'delete_path', args: { workspaceUri, path: `${prefix}delete-${tag}`, recursive: true }, want: { structured: {} }, disk: { [inRw(`delete-${tag}`)]: absent } },
  ];
}

table({
  name: 'rights for whole folders: a read-write grant nested in a read-only one is writable inside',
  grants: [
    { name: 'RO', dir: 'ro', rights: 'read' },
    { name: 'INNER', dir: 'ro/rw' },
  ],
  tree: { 'ro/kept.txt': 'kept', 'ro/rw/inner.txt': 'inner\n' },
  rows: [
    // Writes, edits, creates, moves and deletes inside it succeed, named by the read-only outer workspace or by itself.
    ...changesInside('via-outer', '{RO}', 'rw/'),
    ...changesInside('via-itself', '{INNER}', ''),

    // The read-only rest of the outer workspace, and the nested grant's own folder, stay read-only.
    ...(
      [
        ['write_file', { path: 'kept.txt', content: 'changed' }],
        ['write_file', { path: 'new-beside.txt', content: 'new' }],
        // the nested grant's folder is an entry of the read-only folder: not removed, not renamed
        ['delete_path', { path: 'rw', recursive: true }],
        ['move_file', { source: 'rw', destination: 'renamed' }],
        ['move_file', { source: 'rw/inner.txt', destination: 'escaped.txt' }],
      ] as const
    ).map(([tool, args]): Row => ({ tool, args, want: { refused: 'ERR_READ_ONLY' } })),
  ],
});

describe('--case insensitive on a case-sensitive filesystem', () => {
  let base: string;

  before(() => {
    base = makeTempDir();
    writeTree(base, { 'App/a.txt': 'a', 'app/secret.txt': 'secret' });
  });
  after(() => removeDir(base));

  test('the server refuses to start (status 2), saying why', async (t) => {
    // The probe needs a filesystem that keeps App and app apart, as Linux's usually do.
    if (fs.statSync(path.join(base, 'App')).ino === fs.statSync(path.join(base, 'app')).ino) return t.skip('this filesystem folds case');
    const result = await runServerToExit(['--workspace', fileUri(path.join(base, 'App')), '--case', 'insensitive', '--sandbox', 'off']);
    assert.equal(result.status, 2, `exit status ${result.status}; stderr:\n${result.stderr}`);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /--case insensitive is refused/);
    assert.match(result.stderr, /sibling/);
  });

  test('--case sensitive and auto still start', async () => {
    for (const policy of ['sensitive', 'auto']) {
      const session = await connect('v2', { inProcess: true, args: ['--workspace', fileUri(path.join(base, 'App')), '--case', policy] });
      try {
        expectOk(await session.call('list_workspaces', {}), `list_workspaces with --case ${policy}`);
      } finally {
        await session.close();
      }
    }
  });
});
