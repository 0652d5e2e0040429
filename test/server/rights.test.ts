// Rights that hold for whole folders. The most specific grant decides: a read-only workspace
// nested in a read-write one is read-only, including for changes to any folder that holds it
// (deleting or moving its parent, writing over it); a read-write workspace nested in a read-only
// one is writable inside. Every mutating tool is tried against a read-only grant nested at each
// depth, and the disk is compared afterwards.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  connect,
  expectOk,
  expectRefusal,
  fileUri,
  makeTempDir,
  removeDir,
  runServerToExit,
  snapshot,
  writeTree,
  type Session,
} from './helpers.js';

/** Read-only grants nested in the read-write workspace `outer`, one per depth. */
const NESTED = ['ro1', 'a/ro2', 'a/b/ro3'] as const;

describe('rights for whole folders: read-only grants nested at each depth of a read-write workspace', () => {
  let base: string;
  let outer: string;
  let session: Session;
  let OUTER: string;

  before(async () => {
    base = makeTempDir();
    outer = path.join(base, 'outer');
    const files: Record<string, string> = { 'outer/plain.txt': 'plain' };
    for (const nested of NESTED) {
      files[`outer/${nested}/file.txt`] = 'read only\n';
      files[`outer/${nested}/sub/inner.txt`] = 'inner';
    }
    writeTree(base, files);
    fs.symlinkSync('ro1', path.join(outer, 'alias-of-ro1'));
    OUTER = fileUri(outer);
    const readOnly = NESTED.flatMap((nested) => ['--read-only-workspace', fileUri(path.join(outer, nested))]);
    session = await connect('v2', { inProcess: true, args: ['--workspace', OUTER, ...readOnly] });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  for (const nested of NESTED) {
    const inside = `${nested}/file.txt`;
    const attacks: readonly [string, Record<string, unknown>][] = [
      ['write_file', { path: inside, content: 'changed' }],
      ['write_file', { path: `${nested}/new.txt`, content: 'new' }],
      ['edit_file', { path: inside, edits: [{ oldText: 'read only', newText: 'changed' }] }],
      ['create_directory', { path: `${nested}/made` }],
      ['delete_path', { path: inside }],
      ['delete_path', { path: `${nested}/sub`, recursive: true }],
      ['move_file', { source: inside, destination: 'moved-out.txt' }],
      ['move_file', { source: 'plain.txt', destination: `${nested}/moved-in.txt` }],
      // the folder that is the grant, and every folder that holds it
      ['delete_path', { path: nested, recursive: true }],
      ['move_file', { source: nested, destination: 'moved-grant' }],
      ['write_file', { path: nested, content: 'over the folder' }],
      ...nested
        .split('/')
        .slice(0, -1)
        .map((_, i, names) => names.slice(0, i + 1).join('/'))
        .flatMap((holder): [string, Record<string, unknown>][] => [
          ['delete_path', { path: holder, recursive: true }],
          ['move_file', { source: holder, destination: `moved-${holder.replace(/\//g, '-')}` }],
          ['write_file', { path: holder, content: 'over the holder' }],
        ]),
    ];
    for (const [tool, args] of attacks) {
      test(`${nested}: ${tool} ${JSON.stringify(args)} is ERR_READ_ONLY, naming the grant, and changes nothing`, async () => {
        const before = snapshot(outer);
        const refusal = expectRefusal(await session.call(tool, { workspaceUri: OUTER, ...args }), { code: 'ERR_READ_ONLY' }, tool);
        assert.match(refusal.reason, new RegExp(fileUri(path.join(outer, nested)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the reason names the grant');
        assert.deepEqual(snapshot(outer), before, 'nothing changed on disk');
      });
    }
  }

  test('another spelling of a path in a read-only grant (a link to it, a case change) is refused the same', async () => {
    const before = snapshot(outer);
    expectRefusal(
      await session.call('write_file', { workspaceUri: OUTER, path: 'alias-of-ro1/file.txt', content: 'through the link' }),
      { code: 'ERR_READ_ONLY' },
      'write through a link to the read-only grant',
    );
    expectRefusal(
      await session.call('delete_path', { workspaceUri: OUTER, path: 'alias-of-ro1/sub', recursive: true }),
      { code: 'ERR_READ_ONLY' },
      'delete through a link to the read-only grant',
    );
    assert.deepEqual(snapshot(outer), before, 'nothing changed on disk');
  });

  test('changes beside the nested grants still work', async () => {
    expectOk(await session.call('write_file', { workspaceUri: OUTER, path: 'a/beside.txt', content: 'fine' }), 'write beside');
    expectOk(await session.call('delete_path', { workspaceUri: OUTER, path: 'a/beside.txt' }), 'delete beside');
    // The link itself is the subject of a delete: removing it changes nothing in the grant.
    expectOk(await session.call('delete_path', { workspaceUri: OUTER, path: 'alias-of-ro1' }), 'delete the link');
    assert.ok(fs.existsSync(path.join(outer, 'ro1', 'file.txt')));
  });
});

describe('rights for whole folders: a read-write grant nested in a read-only one is writable inside', () => {
  let base: string;
  let ro: string;
  let RO: string;
  let INNER: string;
  let session: Session;

  before(async () => {
    base = makeTempDir();
    ro = path.join(base, 'ro');
    writeTree(base, { 'ro/kept.txt': 'kept', 'ro/rw/inner.txt': 'inner\n' });
    RO = fileUri(ro);
    INNER = fileUri(path.join(ro, 'rw'));
    session = await connect('v2', { inProcess: true, args: ['--read-only-workspace', RO, '--workspace', INNER] });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  for (const [label, workspace] of [['named by the read-only outer workspace', () => RO], ['named by itself', () => INNER]] as const) {
    test(`${label}: writes, edits, creates, moves and deletes inside it succeed`, async () => {
      const prefix = workspace() === RO ? 'rw/' : '';
      const call = (tool: string, args: Record<string, unknown>) => session.call(tool, { workspaceUri: workspace(), ...args });
      expectOk(await call('write_file', { path: `${prefix}new.txt`, content: 'new\n' }), 'write');
      expectOk(await call('edit_file', { path: `${prefix}new.txt`, edits: [{ oldText: 'new', newText: 'edited' }] }), 'edit');
      expectOk(await call('create_directory', { path: `${prefix}made` }), 'create');
      expectOk(await call('move_file', { source: `${prefix}new.txt`, destination: `${prefix}made/new.txt` }), 'move');
      assert.equal(fs.readFileSync(path.join(ro, 'rw', 'made', 'new.txt'), 'utf8'), 'edited\n');
      expectOk(await call('delete_path', { path: `${prefix}made`, recursive: true }), 'delete');
    });
  }

  test('the read-only rest of the outer workspace, and the nested grant\'s own folder, stay read-only', async () => {
    const before = snapshot(ro);
    const attacks: readonly [string, Record<string, unknown>][] = [
      ['write_file', { path: 'kept.txt', content: 'changed' }],
      ['write_file', { path: 'new-beside.txt', content: 'new' }],
      // the nested grant's folder is an entry of the read-only folder: not removed, not renamed
      ['delete_path', { path: 'rw', recursive: true }],
      ['move_file', { source: 'rw', destination: 'renamed' }],
      ['move_file', { source: 'rw/inner.txt', destination: 'escaped.txt' }],
    ];
    for (const [tool, args] of attacks) {
      expectRefusal(await session.call(tool, { workspaceUri: RO, ...args }), { code: 'ERR_READ_ONLY' }, `${tool} ${JSON.stringify(args)}`);
    }
    assert.deepEqual(snapshot(ro), before, 'nothing changed on disk');
  });
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
