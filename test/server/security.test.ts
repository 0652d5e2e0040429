// Attacks on the server's layers, end to end: authorization (was this workspace granted?),
// containment (is the path inside it, links resolved?) and the refusals' record (the log). Each
// test names what it attacks; each refusal is checked for its code, its stage and its `next` step,
// and the files it aimed at are checked on disk afterwards.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CLIENT_KINDS,
  STAGE_NAMES,
  connect,
  eventually,
  expectContent,
  expectOk,
  expectRefusal,
  fileUri,
  isSymlink,
  makeTempDir,
  readLog,
  removeDir,
  snapshot,
  textOf,
  writeTree,
  type ExpectedRefusal,
  type Session,
  type ToolResult,
  refusalOf,
  listingOf,
} from './helpers.js';

function assertNoLeak(result: ToolResult, secret: string, what: string): void {
  assert.ok(!JSON.stringify(result).includes(secret), `${what}: the outside file's content came back`);
}

// ------------------------------------------------------------------------------------------------
// Seed 001: a root is a hint, not a permission
// ------------------------------------------------------------------------------------------------

for (const { kind, version } of CLIENT_KINDS) {
  describe(`seed 001: one workspace "notes" granted; hostile deletes beside and above it (${kind} client, ${version})`, () => {
    let base: string;
    let notes: string;
    let W: string;
    let session: Session;

    before(async () => {
      base = makeTempDir();
      notes = path.join(base, 'notes');
      writeTree(base, {
        'notes/todo.md': 'inside',
        'notes-evil/secret.md': 'sibling secret',
        'private.md': 'parent private',
      });
      W = fileUri(notes);
      session = await connect(kind, { inProcess: true, args: ['--workspace', W] });
    });
    after(async () => {
      await session?.close();
      removeDir(base);
    });

    const attacks = (): [string, string, ExpectedRefusal][] => [
      ['the sibling whose name starts with the workspace name, as a file URI', fileUri(path.join(base, 'notes-evil/secret.md')), { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }],
      ['the parent through an encoded dot-dot segment (%2e%2e)', `${W}/%2e%2e/private.md`, { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }],
      ['the parent through an upper-case encoded dot-dot (%2E%2E)', `${W}/%2E%2E/private.md`, { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }],
      ['the parent through a half-encoded dot-dot (.%2e)', `${W}/.%2e/private.md`, { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }],
      ['the sibling as a plain absolute path', path.join(base, 'notes-evil/secret.md'), { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }],
      ['the sibling as a relative path', '../notes-evil/secret.md', { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }],
      ['the parent through dot-dot inside a deeper path', 'a/b/../../../private.md', { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }],
      ['an encoded slash hiding a dot-dot (..%2Fprivate.md)', `${W}/..%2Fprivate.md`, { code: 'ERR_ENCODED_SEPARATOR', stage: 'refusals', verdict: 'refused' }],
      ['a double-encoded dot-dot (%252e%252e) is a literal name, decoded once: inside, and missing', `${W}/%252e%252e/private.md`, { code: 'ERR_OUTSIDE' }],
    ];

    test('delete_path of each hostile path is refused with its code, stage and next step; the files are still there', async () => {
      for (const [what, target, expected] of attacks()) {
        const result = await session.call('delete_path', { workspaceUri: W, path: target });
        if (target.includes('%252e')) {
          // Decoded exactly once, "%2e%2e" is a literal folder name inside notes: not a traversal.
          assert.equal(result.isError, true, what);
          assert.equal(refusalOf(result), undefined, `${what}: inside the workspace, so a plain ENOENT, not a refusal: ${textOf(result)}`);
          assert.match(textOf(result), /ENOENT/, what);
          continue;
        }
        const s = expectRefusal(result, expected, `delete_path ${what}`);
        assert.equal(s.input, target, `${what}: the refusal echoes the input as sent`);
        assert.equal(s.workspaceUri, W);
      }
      assert.equal(fs.readFileSync(path.join(base, 'notes-evil/secret.md'), 'utf8'), 'sibling secret');
      assert.equal(fs.readFileSync(path.join(base, 'private.md'), 'utf8'), 'parent private');
      assert.equal(fs.readFileSync(path.join(notes, 'todo.md'), 'utf8'), 'inside');
    });

    test('reading the same hostile paths is refused too, and their content never comes back', async () => {
      for (const [what, target, expected] of attacks()) {
        if (target.includes('%252e')) continue;
        const result = await session.call('read_text_file', { workspaceUri: W, path: target });
        expectRefusal(result, expected, `read_text_file ${what}`);
        assertNoLeak(result, 'sibling secret', what);
        assertNoLeak(result, 'parent private', what);
      }
    });

    test('explain_path shows the stage that decided for the two seed paths', async () => {
      const sibling = expectOk(await session.call('explain_path', { workspaceUri: W, path: fileUri(path.join(base, 'notes-evil/secret.md')) }), 'explain sibling');
      assert.equal(sibling.verdict, 'outside');
      assert.equal(sibling.code, 'ERR_OUTSIDE');
      assert.match(sibling.reason, /prefix/, 'the reason says a shared text prefix is not containment');
      const traversal = expectOk(await session.call('explain_path', { workspaceUri: W, path: `${W}/%2e%2e/private.md` }), 'explain traversal');
      assert.equal(traversal.verdict, 'outside');
      assert.equal(traversal.path, path.join(base, 'private.md'));
      assert.deepEqual(traversal.stages.map((stage: { stage: string }) => stage.stage), [...STAGE_NAMES]);
    });
  });
}

// ------------------------------------------------------------------------------------------------
// Hostile forms of the path itself
// ------------------------------------------------------------------------------------------------

describe('hostile path forms are refused at the stage that owns them, and nothing is written (v2 client)', () => {
  let base: string;
  let ws: string;
  let W: string;
  let session: Session;

  before(async () => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    writeTree(base, { 'ws/a.txt': 'a', 'outside/secret.txt': 'secret' });
    W = fileUri(ws);
    session = await connect('v2', { inProcess: true, args: ['--workspace', W] });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  test('write_file with each form: the code and stage of the design table', async () => {
    const cases: [string, () => string, ExpectedRefusal][] = [
      ['an empty path', () => '', { code: 'ERR_PARSE', stage: 'parse' }],
      ['another scheme', () => `https://example.com${ws}/x.txt`, { code: 'ERR_SCHEME', stage: 'refusals' }],
      ['a file URI with a host', () => `file://host${ws}/x.txt`, { code: 'ERR_HOST', stage: 'refusals' }],
      ['file://localhost (refused by default)', () => `file://localhost${ws}/x.txt`, { code: 'ERR_HOST', stage: 'refusals' }],
      ['an empty query marker', () => `${W}/x.txt?`, { code: 'ERR_QUERY_OR_FRAGMENT', stage: 'refusals' }],
      ['a fragment', () => `${W}/x.txt#frag`, { code: 'ERR_QUERY_OR_FRAGMENT', stage: 'refusals' }],
      ['a raw NUL in a path', () => 'x\u0000.txt', { code: 'ERR_NUL', stage: 'refusals' }],
      ['an encoded NUL in a URI', () => `${W}/x%00.txt`, { code: 'ERR_NUL', stage: 'refusals' }],
      ['an encoded slash', () => `${W}/sub%2Fx.txt`, { code: 'ERR_ENCODED_SEPARATOR', stage: 'refusals' }],
      ['a raw backslash inside a URI', () => `${W}\\x.txt`, { code: 'ERR_ILLEGAL_CHARACTER', stage: 'refusals' }],
      ['a raw control character inside a URI', () => `${W}/x\t.txt`, { code: 'ERR_ILLEGAL_CHARACTER', stage: 'refusals' }],
      ['a malformed escape', () => `${W}/%zz.txt`, { code: 'ERR_BAD_ENCODING', stage: 'decode' }],
      ['an escape that is not UTF-8', () => `${W}/%ff.txt`, { code: 'ERR_BAD_ENCODING', stage: 'decode' }],
      ['a host-named path to outside', () => `file://tmp${path.join(base, 'outside')}/x.txt`, { code: 'ERR_HOST', stage: 'refusals' }],
    ];
    const before = snapshot(base);
    for (const [what, input, expected] of cases) {
      const s = expectRefusal(await session.call('write_file', { workspaceUri: W, path: input(), content: 'planted' }), { ...expected, verdict: 'refused' }, what);
      assert.equal(s.input, input(), `${what}: the input is echoed as sent`);
    }
    assert.deepEqual(snapshot(base), before, 'nothing was written anywhere');
  });
});

// ------------------------------------------------------------------------------------------------
// Authorization: workspaceUri must equal a grant
// ------------------------------------------------------------------------------------------------

for (const { kind, version } of CLIENT_KINDS) {
  describe(`authorization: a workspaceUri that was not granted (${kind} client, ${version})`, () => {
    let base: string;
    let notes: string;
    let W: string;
    let session: Session;

    before(async () => {
      base = makeTempDir();
      notes = path.join(base, 'notes');
      writeTree(base, {
        'notes/todo.md': 'inside',
        'notes/sub/deep.md': 'deep',
        'notes-evil/secret.md': 'sibling secret',
        'other/file.md': 'other',
      });
      W = fileUri(notes);
      session = await connect(kind, { inProcess: true, args: ['--workspace', W] });
    });
    after(async () => {
      await session?.close();
      removeDir(base);
    });

    test('each ungranted workspaceUri is refused ERR_NOT_GRANTED (stage server) or at the root; nothing is deleted', async () => {
      const cases: [string, () => string, string, ExpectedRefusal][] = [
        ['a workspace that was never granted', () => fileUri(path.join(base, 'other')), 'file.md', { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }],
        ['a sub-folder of the granted workspace', () => fileUri(path.join(notes, 'sub')), 'deep.md', { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }],
        ['a sibling whose name starts with the granted name', () => fileUri(path.join(base, 'notes-evil')), 'secret.md', { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }],
        ['the sibling reached through %2e%2e from the grant', () => `${W}/%2e%2e/notes-evil`, 'secret.md', { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }],
        ['the parent of the grant', () => fileUri(base), 'notes-evil/secret.md', { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }],
        ['the filesystem root', () => 'file:///', path.join(base, 'notes-evil/secret.md').slice(1), { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }],
        ['the granted workspace spelled file://localhost', () => `file://localhost${notes}`, 'todo.md', { code: 'ERR_HOST', stage: 'root', verdict: 'refused' }],
        ['the granted workspace with a query', () => `${W}?x=1`, 'todo.md', { code: 'ERR_QUERY_OR_FRAGMENT', stage: 'root', verdict: 'refused' }],
        ['the granted workspace over https', () => `https://example.com${notes}`, 'todo.md', { code: 'ERR_SCHEME', stage: 'root', verdict: 'refused' }],
        ['the granted workspace as a relative path', () => 'notes', 'todo.md', { code: 'ERR_NOT_ABSOLUTE', stage: 'root', verdict: 'refused' }],
      ];
      const before = snapshot(base);
      for (const [what, uri, target, expected] of cases) {
        const workspaceUri = uri();
        const result = await session.call('delete_path', { workspaceUri, path: target, recursive: true });
        const s = expectRefusal(result, expected, what);
        assert.equal(s.workspaceUri, workspaceUri, `${what}: the refusal names the workspaceUri as sent`);
        if (expected.code === 'ERR_NOT_GRANTED') assert.ok(s.reason.includes(W), `${what}: the reason lists the grants: ${s.reason}`);
        if (expected.stage === 'root') assert.match(s.next, /list_workspaces/, `${what}: next points at list_workspaces`);
        const read = await session.call('read_text_file', { workspaceUri, path: target });
        expectRefusal(read, expected, `${what} (read)`);
        assertNoLeak(read, 'sibling secret', what);
      }
      assert.deepEqual(snapshot(base), before, 'nothing changed on disk');
    });

    test('control: the granted workspace, also with a trailing slash, is accepted', async () => {
      for (const [workspaceUri, what] of [[W, 'exact'], [`${W}/`, 'trailing slash']] as const) {
        const read = await session.call('read_text_file', { workspaceUri, path: 'todo.md' });
        assert.equal(expectContent(read, what), 'inside', what);
      }
    });
  });
}

// ------------------------------------------------------------------------------------------------
// Symlink escapes
// ------------------------------------------------------------------------------------------------

describe('symlink escapes: links inside the workspace that point outside (v2 client)', () => {
  const SECRET = 'TOP SECRET outside';
  let base: string;
  let ws: string;
  let outside: string;
  let W: string;
  let session: Session;
  const at = (relative: string) => path.join(ws, relative);
  const call = (name: string, args: Record<string, unknown>) => session.call(name, { workspaceUri: W, ...args });
  const escape: ExpectedRefusal = { code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', verdict: 'outside' };
  /** A fresh link at `name` (replacing whatever is there) pointing to `target`. */
  const link = (name: string, target: string) => {
    fs.rmSync(at(name), { force: true, recursive: true });
    fs.symlinkSync(target, at(name));
  };

  before(async () => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    writeTree(base, {
      'ws/a.txt': 'inside a',
      'ws/inside-target.txt': 'inside target',
      'outside/secret.txt': SECRET,
      'outside/dir/deeper.txt': SECRET,
    });
    W = fileUri(ws);
    session = await connect('v2', { inProcess: true, args: ['--workspace', W] });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  test('reading through a link to an outside file or folder is refused ERR_SYMLINK_ESCAPE and returns nothing of it', async () => {
    link('link-file', path.join(outside, 'secret.txt'));
    link('link-rel', '../outside/secret.txt');
    link('link-dir', outside);
    link('chain', 'link-file'); // a link to a link that escapes
    const before = snapshot(outside);
    const cases: [string, Record<string, unknown>][] = [
      ['read_text_file', { path: 'link-file' }],
      ['read_text_file', { path: 'link-rel' }],
      ['read_text_file', { path: 'chain' }],
      ['read_text_file', { path: 'link-dir/secret.txt' }],
      ['read_text_file', { path: fileUri(at('link-file')) }],
      ['read_media_file', { path: 'link-file' }],
      ['edit_file', { path: 'link-file', edits: [{ oldText: 'TOP', newText: 'PWNED' }], dryRun: true }],
      ['edit_file', { path: 'link-file', edits: [{ oldText: 'TOP', newText: 'PWNED' }] }],
      ['list_directory', { path: 'link-dir' }],
      ['list_directory_with_sizes', { path: 'link-dir' }],
      ['directory_tree', { path: 'link-dir' }],
      ['search_files', { path: 'link-dir', pattern: 'secret' }],
      ['get_file_info', { path: 'link-dir/secret.txt' }],
    ];
    for (const [tool, args] of cases) {
      const result = await call(tool, args);
      expectRefusal(result, escape, `${tool} ${JSON.stringify(args)}`);
      assertNoLeak(result, SECRET, tool);
    }
    const manyResult = await call('read_multiple_files', { paths: ['a.txt', 'link-file', 'link-dir/secret.txt'] });
    const sections = expectContent(manyResult, 'read_multiple_files').split('\n---\n');
    assert.equal(sections[0], 'a.txt:\ninside a');
    for (const section of sections.slice(1)) assert.match(section, /: Refused \(ERR_SYMLINK_ESCAPE /);
    assert.ok(!JSON.stringify(manyResult).includes(SECRET), 'read_multiple_files leaked the outside file');
    assert.deepEqual(snapshot(outside), before, 'the outside tree is unchanged');
  });

  test('walking the workspace (directory_tree, search_files, list_directory) shows escaping links as links and never descends them', async () => {
    link('link-dir', outside);
    const tree = expectOk(await call('directory_tree', { path: '.' }), 'tree of the workspace');
    const node = tree.tree.find((entry: { name: string }) => entry.name === 'link-dir');
    assert.deepEqual(node, { name: 'link-dir', type: 'symlink' }, 'listed as a link, no children');
    assert.ok(!JSON.stringify(tree).includes('deeper.txt'), 'nothing under the link was listed');
    const found = expectOk(await call('search_files', { path: '.', pattern: 'deeper' }), 'search the workspace');
    assert.deepEqual(found.matches, []);
    const listed = listingOf(await call('list_directory', { path: '.' }), 'list the workspace');
    assert.ok(listed.links.includes('link-dir') && !listed.directories.includes('link-dir'), 'listed as a link');
  });

  test('control: a link whose chain stays inside is followed', async () => {
    link('inside-link', 'inside-target.txt');
    const read = await call('read_text_file', { path: 'inside-link' });
    assert.equal(expectContent(read, 'read inside link'), 'inside target');
  });

  test('write_file and create_directory through an escaping directory link are refused; nothing is created outside', async () => {
    link('link-dir', outside);
    const before = snapshot(outside);
    expectRefusal(await call('write_file', { path: 'link-dir/new.txt', content: 'planted' }), escape, 'write through a dir link');
    expectRefusal(await call('write_file', { path: 'link-dir/secret.txt', content: 'overwritten' }), escape, 'overwrite through a dir link');
    expectRefusal(await call('write_file', { path: 'link-dir/dir/deeper.txt', content: 'overwritten' }), escape, 'overwrite deeper through a dir link');
    expectRefusal(await call('create_directory', { path: 'link-dir/newdir' }), escape, 'mkdir through a dir link');
    expectRefusal(await call('delete_path', { path: 'link-dir/secret.txt' }), escape, 'delete through a dir link');
    expectRefusal(await call('delete_path', { path: 'link-dir/dir', recursive: true }), escape, 'delete a folder through a dir link');
    assert.deepEqual(snapshot(outside), before, 'nothing created, changed or deleted outside (no temporary file either)');
  });

  test('write_file AT a link (the final name) replaces the link and never writes its outside target', async () => {
    link('at-link', path.join(outside, 'secret.txt'));
    const s = expectOk(await call('write_file', { path: 'at-link', content: 'replaced the link' }), 'write at a link');
    assert.equal(s.path, 'at-link');
    assert.equal(isSymlink(at('at-link')), false, 'the link is gone');
    assert.equal(fs.readFileSync(at('at-link'), 'utf8'), 'replaced the link');
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), SECRET, 'the outside target is unchanged');
  });

  test('write_file AT a dangling link to an outside name replaces the link and never creates the outside file', async () => {
    link('dangling', path.join(outside, 'planted.txt'));
    const result = await call('write_file', { path: 'dangling', content: 'planted?' });
    assert.equal(fs.existsSync(path.join(outside, 'planted.txt')), false, 'nothing was created outside');
    const s = expectOk(result, 'write at a dangling link');
    assert.equal(s.path, 'dangling');
    assert.equal(isSymlink(at('dangling')), false);
    assert.equal(fs.readFileSync(at('dangling'), 'utf8'), 'planted?');
  });

  test('create_directory AT a dangling link to an outside name is EEXIST and never creates the outside folder', async () => {
    link('dangling-dir', path.join(outside, 'newdir'));
    const result = await call('create_directory', { path: 'dangling-dir' });
    assert.equal(fs.existsSync(path.join(outside, 'newdir')), false, 'nothing was created outside');
    assert.equal(result.isError, true, `create_directory at a link succeeded: ${textOf(result)}`);
    assert.match(textOf(result), /EEXIST|ERR_SYMLINK_ESCAPE/);
    assert.equal(isSymlink(at('dangling-dir')), true, 'the link is left as it was');
  });

  test('delete_path on a link removes the link, never its target (file or folder, recursive or not)', async () => {
    link('del-file-link', path.join(outside, 'secret.txt'));
    link('del-dir-link', outside);
    const before = snapshot(outside);
    assert.deepEqual(expectOk(await call('delete_path', { path: 'del-file-link' }), 'delete file link'), { path: 'del-file-link', kind: 'symlink' });
    assert.deepEqual(expectOk(await call('delete_path', { path: 'del-dir-link', recursive: true }), 'delete dir link'), { path: 'del-dir-link', kind: 'symlink' });
    assert.equal(isSymlink(at('del-file-link')) || fs.existsSync(at('del-file-link')), false);
    assert.equal(isSymlink(at('del-dir-link')) || fs.existsSync(at('del-dir-link')), false);
    assert.deepEqual(snapshot(outside), before, 'the targets are untouched');
  });

  test('move_file of an escaping link moves the link itself; moving into an escaping directory link is refused', async () => {
    link('mv-link', path.join(outside, 'secret.txt'));
    link('link-dir', outside);
    const before = snapshot(outside);
    const moved = expectOk(await call('move_file', { source: 'mv-link', destination: 'moved-link' }), 'move a link');
    assert.equal(moved.destination, 'moved-link');
    assert.equal(isSymlink(at('mv-link')), false, 'the source name is gone');
    assert.equal(isSymlink(at('moved-link')), true, 'the destination is the link itself');
    assert.equal(fs.readlinkSync(at('moved-link')), path.join(outside, 'secret.txt'));

    expectRefusal(await call('move_file', { source: 'a.txt', destination: 'link-dir/a.txt' }), escape, 'move into an escaping dir link');
    expectRefusal(await call('move_file', { source: 'link-dir/secret.txt', destination: 'stolen.txt' }), escape, 'move out through an escaping dir link');
    assert.equal(fs.readFileSync(at('a.txt'), 'utf8'), 'inside a');
    assert.equal(fs.existsSync(at('stolen.txt')), false);
    assert.deepEqual(snapshot(outside), before, 'the outside tree is unchanged');
  });
});

// ------------------------------------------------------------------------------------------------
// Read-only grants
// ------------------------------------------------------------------------------------------------

describe('a read-only grant (--read-only-workspace) beside a read-write one (v2 client)', () => {
  let base: string;
  let ro: string;
  let rw: string;
  let RO: string;
  let RW: string;
  let session: Session;

  before(async () => {
    base = makeTempDir();
    ro = path.join(base, 'ro');
    rw = path.join(base, 'rw');
    writeTree(base, {
      'ro/file.txt': 'read me\nsecond\n',
      'ro/folder/inner.txt': 'inner',
      'ro/empty/.keep': '',
      'rw/file.txt': 'writable',
    });
    RO = fileUri(ro);
    RW = fileUri(rw);
    session = await connect('v2', { inProcess: true, args: ['--read-only-workspace', RO, '--workspace', RW] });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  test('list_workspaces reports each grant with its rights', async () => {
    const s = expectOk(await session.call('list_workspaces', {}), 'list_workspaces');
    const rights = Object.fromEntries(s.workspaces.map((workspace: { uri: string; rights: string }) => [workspace.uri, workspace.rights]));
    assert.deepEqual(rights, { [RO]: 'read', [RW]: 'read-write' });
  });

  test('every read tool works on the read-only workspace', async () => {
    const call = (name: string, args: Record<string, unknown>) => session.call(name, { workspaceUri: RO, ...args });
    const read = await call('read_text_file', { path: 'file.txt', head: 1 });
    assert.equal(expectContent(read, 'read'), 'read me');
    const many = await call('read_multiple_files', { paths: ['file.txt', 'folder/inner.txt'] });
    assert.match(expectContent(many, 'read many'), /^folder\/inner\.txt:\ninner$/m);
    assert.match(textOf(many), /^folder\/inner\.txt:\ninner$/m);
    assert.equal(expectOk(await call('read_media_file', { path: 'file.txt' }), 'read media').size, 15);
    const listed = listingOf(await call('list_directory', { path: '.' }), 'list');
    assert.ok(listed.directories.length + listed.files.length + listed.links.length >= 3);
    expectOk(await call('list_directory_with_sizes', { path: '.' }), 'list with sizes');
    expectOk(await call('directory_tree', { path: '.' }), 'tree');
    assert.equal(expectOk(await call('search_files', { path: '.', pattern: 'inner' }), 'search').matches.length, 1);
    assert.equal(expectOk(await call('get_file_info', { path: 'file.txt' }), 'info').type, 'file');
    assert.equal(expectOk(await call('explain_path', { path: 'file.txt' }), 'explain').verdict, 'inside');
  });

  test('every write-class tool is refused ERR_READ_ONLY and nothing changes', async () => {
    const before = snapshot(ro);
    const cases: [string, Record<string, unknown>][] = [
      ['write_file', { path: 'file.txt', content: 'overwritten' }],
      ['write_file', { path: 'new.txt', content: 'created' }],
      ['edit_file', { path: 'file.txt', edits: [{ oldText: 'read me', newText: 'edited' }] }],
      ['edit_file', { path: 'file.txt', edits: [{ oldText: 'read me', newText: 'edited' }], dryRun: true }],
      ['create_directory', { path: 'newdir' }],
      ['move_file', { source: 'file.txt', destination: 'moved.txt' }],
      ['delete_path', { path: 'file.txt' }],
      ['delete_path', { path: 'folder', recursive: true }],
      ['delete_path', { path: 'empty/.keep' }],
    ];
    for (const [tool, args] of cases) {
      const s = expectRefusal(await session.call(tool, { workspaceUri: RO, ...args }), { code: 'ERR_READ_ONLY', stage: 'server', verdict: 'refused' }, `${tool} ${JSON.stringify(args)}`);
      assert.match(s.next, /read-only/, `${tool}: next explains the read-only grant`);
      assert.equal(s.workspaceUri, RO);
    }
    assert.deepEqual(snapshot(ro), before, 'the read-only workspace is unchanged');
  });

  test('naming the read-write workspace and a path into the read-only one is ERR_OUTSIDE, never a way round the grant', async () => {
    const before = snapshot(ro);
    const cases: [string, Record<string, unknown>][] = [
      ['write_file', { path: fileUri(path.join(ro, 'file.txt')), content: 'overwritten' }],
      ['write_file', { path: path.join(ro, 'new.txt'), content: 'created' }],
      ['delete_path', { path: '../ro/file.txt' }],
      ['move_file', { source: '../ro/file.txt', destination: 'stolen.txt' }],
      ['edit_file', { path: `${RW}/%2e%2e/ro/file.txt`, edits: [{ oldText: 'read me', newText: 'edited' }] }],
    ];
    for (const [tool, args] of cases) {
      expectRefusal(await session.call(tool, { workspaceUri: RW, ...args }), { code: 'ERR_OUTSIDE', stage: 'containment' }, `${tool} ${JSON.stringify(args)}`);
    }
    assert.deepEqual(snapshot(ro), before, 'the read-only workspace is unchanged');
    assert.equal(fs.existsSync(path.join(rw, 'stolen.txt')), false);
  });

  test('control: the read-write workspace in the same server still takes writes', async () => {
    expectOk(await session.call('write_file', { workspaceUri: RW, path: 'file.txt', content: 'written' }), 'write rw');
    assert.equal(fs.readFileSync(path.join(rw, 'file.txt'), 'utf8'), 'written');
  });

  test('the same workspace granted read-only and read-write keeps the narrower right', async () => {
    const twice = await connect('v2', { inProcess: true, args: ['--workspace', RO, '--read-only-workspace', RO] });
    try {
      const s = expectOk(await twice.call('list_workspaces', {}), 'list_workspaces');
      assert.deepEqual(s.workspaces.map((workspace: { rights: string }) => workspace.rights), ['read']);
      expectRefusal(await twice.call('write_file', { workspaceUri: RO, path: 'x.txt', content: 'x' }), { code: 'ERR_READ_ONLY' }, 'write to a twice-granted workspace');
      assert.equal(fs.existsSync(path.join(ro, 'x.txt')), false);
    } finally {
      await twice.close();
    }
  });

  test('a read-only workspace nested in a read-write one stays read-only when the outer workspace is named', async () => {
    const outer = await connect('v2', { inProcess: true, args: ['--workspace', fileUri(base), '--read-only-workspace', RO] });
    const before = snapshot(ro);
    try {
      const cases: [string, Record<string, unknown>][] = [
        ['write_file', { path: 'ro/file.txt', content: 'overwritten' }],
        ['edit_file', { path: 'ro/file.txt', edits: [{ oldText: 'read me', newText: 'edited' }] }],
        ['create_directory', { path: 'ro/made' }],
        ['delete_path', { path: 'ro/folder', recursive: true }],
        ['move_file', { source: 'ro/file.txt', destination: 'rw/stolen.txt' }],
        ['move_file', { source: 'rw/file.txt', destination: 'ro/planted.txt' }],
      ];
      for (const [tool, args] of cases) {
        expectRefusal(await outer.call(tool, { workspaceUri: fileUri(base), ...args }), { code: 'ERR_READ_ONLY' }, `${tool} ${JSON.stringify(args)}`);
      }
      assert.deepEqual(snapshot(ro), before, 'the nested read-only workspace is unchanged');
      expectContent(await outer.call('read_text_file', { workspaceUri: fileUri(base), path: 'ro/file.txt' }), 'reading through the outer grant');
    } finally {
      await outer.close();
    }
  });

  test('the same folder granted under two names (a link to it read-write, the folder itself read-only) keeps the narrower right under both', async () => {
    const alias = path.join(base, 'ro-alias');
    fs.symlinkSync(ro, alias);
    const before = snapshot(ro);
    const twice = await connect('v2', { inProcess: true, args: ['--workspace', fileUri(alias), '--read-only-workspace', RO] });
    try {
      const result = await twice.call('write_file', { workspaceUri: fileUri(alias), path: 'file.txt', content: 'written through the alias' });
      assert.equal(fs.readFileSync(path.join(ro, 'file.txt'), 'utf8'), 'read me\nsecond\n', 'the read-only folder was written through its alias');
      expectRefusal(result, { code: 'ERR_READ_ONLY' }, 'write through the read-write alias of a read-only workspace');
      assert.deepEqual(snapshot(ro), before);
    } finally {
      await twice.close();
      fs.rmSync(path.join(ro, 'file.txt'), { force: true });
      fs.writeFileSync(path.join(ro, 'file.txt'), 'read me\nsecond\n');
      fs.unlinkSync(alias);
    }
  });
});

// ------------------------------------------------------------------------------------------------
// The refusal log
// ------------------------------------------------------------------------------------------------

describe('the refusal log (--refusal-log)', () => {
  let base: string;
  let ws: string;
  let ro: string;
  let W: string;
  let RO: string;

  before(() => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    ro = path.join(base, 'ro');
    writeTree(base, { 'ws/a.txt': 'a', 'ro/b.txt': 'b', 'outside/secret.txt': 'secret' });
    fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(ws, 'escape'));
    W = fileUri(ws);
    RO = fileUri(ro);
  });
  after(() => removeDir(base));

  test('each refusal is one JSON line with time, tool, workspaceUri, input, code, stage, reason and trace; successes are not logged', async () => {
    const log = path.join(base, 'logs', 'nested', 'refusals.jsonl'); // its folder does not exist yet
    const session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--read-only-workspace', RO, '--refusal-log', log] });
    try {
      expectContent(await session.call('read_text_file', { workspaceUri: W, path: 'a.txt' }), 'a success');
      const refusals: [string, Record<string, unknown>, string, string][] = [
        ['delete_path', { workspaceUri: W, path: `${W}/%2e%2e/outside/secret.txt` }, 'ERR_OUTSIDE', 'containment'],
        ['read_text_file', { workspaceUri: W, path: 'escape' }, 'ERR_SYMLINK_ESCAPE', 'realpath'],
        ['read_text_file', { workspaceUri: W, path: `${W}/a.txt?x` }, 'ERR_QUERY_OR_FRAGMENT', 'refusals'],
        ['write_file', { workspaceUri: fileUri(path.join(base, 'outside')), path: 'secret.txt', content: 'x' }, 'ERR_NOT_GRANTED', 'server'],
        ['write_file', { workspaceUri: `file://localhost${ws}`, path: 'a.txt', content: 'x' }, 'ERR_HOST', 'root'],
        ['delete_path', { workspaceUri: RO, path: 'b.txt' }, 'ERR_READ_ONLY', 'server'],
      ];
      for (const [tool, args, code] of refusals) expectRefusal(await session.call(tool, args), { code: code as ExpectedRefusal['code'] }, `${tool} ${code}`);
      const many = expectContent(await session.call('read_multiple_files', { workspaceUri: W, paths: ['a.txt', '../outside/secret.txt'] }), 'read many');
      assert.match(many.split('\n---\n')[1]!, /: Refused \(ERR_OUTSIDE /);

      const lines = await eventually(() => {
        const read = readLog(log);
        assert.equal(read.length, refusals.length + 1);
        return read;
      }, 'every refusal logged');
      for (const [i, [tool, args, code, stage]] of refusals.entries()) {
        const line = lines[i]!;
        const what = `log line ${i + 1} (${tool} ${code})`;
        assert.deepEqual(Object.keys(line).sort(), ['code', 'input', 'reason', 'stage', 'time', 'tool', 'trace', 'workspaceUri'], what);
        assert.ok(!Number.isNaN(Date.parse(line.time)) && line.time.endsWith('Z'), `${what}: time is ISO 8601`);
        assert.equal(line.tool, tool, what);
        assert.equal(line.workspaceUri, args.workspaceUri, what);
        assert.equal(line.input, args.path, what);
        assert.equal(line.code, code, what);
        assert.equal(line.stage, stage, what);
        assert.equal(typeof line.reason, 'string', what);
        assert.ok(line.reason.length > 0, what);
        if (STAGE_NAMES.includes(stage as (typeof STAGE_NAMES)[number])) {
          assert.ok(line.trace, `${what}: a pipeline refusal carries its trace`);
          assert.ok(Array.isArray(line.trace.stages) && line.trace.stages.length > 0, `${what}: the trace has stages`);
          assert.equal(line.trace.code, code, `${what}: trace.code`);
          assert.equal(line.trace.stage, stage, `${what}: trace.stage`);
          assert.equal(line.trace.stages.at(-1).stage, stage, `${what}: the last stage is the one that refused`);
          assert.equal(line.trace.stages.at(-1).status, 'refuse', what);
        } else {
          assert.ok(line.trace === null || Array.isArray(line.trace.stages), `${what}: trace is null or has stages`);
        }
      }
      const last = lines.at(-1)!;
      assert.equal(last.tool, 'read_multiple_files');
      assert.equal(last.input, '../outside/secret.txt', 'read_multiple_files logs each refused entry by its own input');
      assert.equal(last.code, 'ERR_OUTSIDE');
      assert.ok(Array.isArray(last.trace?.stages));
      assert.equal((fs.statSync(log).mode & 0o777).toString(8), '600', 'the log is private to its owner');
    } finally {
      await session.close();
    }
  });

  test('a log that cannot be written never fails the call: the refusal still comes back (a directory at the log path)', async () => {
    const log = path.join(base, 'broken', 'refusals.jsonl');
    const session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--refusal-log', log] });
    try {
      fs.mkdirSync(log, { recursive: true }); // appendFile now fails with EISDIR
      for (let i = 0; i < 3; i += 1) {
        const s = expectRefusal(await session.call('delete_path', { workspaceUri: W, path: `../outside/secret.txt` }), { code: 'ERR_OUTSIDE', stage: 'containment' }, `refusal ${i + 1} with a broken log`);
        assert.equal(s.input, '../outside/secret.txt');
      }
      const read = await session.call('read_text_file', { workspaceUri: W, path: 'a.txt' });
      assert.equal(expectContent(read, 'a success after'), 'a');
      await eventually(() => assert.match(session.stderr(), /could not write the refusal log/), 'the failure is reported on stderr');
      assert.ok(fs.existsSync(path.join(base, 'outside/secret.txt')));
    } finally {
      await session.close();
    }
  });

  test('rotation (--refusal-log-size 1024): <file>.1 appears and the current file stays under the limit', async () => {
    const log = path.join(base, 'rotating', 'refusals.jsonl');
    const session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--refusal-log', log, '--refusal-log-size', '1024'] });
    try {
      const count = 12;
      for (let i = 1; i <= count; i += 1) {
        // ERR_NOT_GRANTED lines carry no trace: a few hundred bytes each, so several fit in 1024.
        expectRefusal(await session.call('read_text_file', { workspaceUri: fileUri(path.join(base, 'ungranted')), path: `marker-${i}.txt` }), { code: 'ERR_NOT_GRANTED' }, `refusal ${i}`);
      }
      await eventually(() => assert.equal(readLog(log).at(-1)?.input, `marker-${count}.txt`), 'the last refusal is in the current file');
      assert.ok(fs.existsSync(`${log}.1`), `${log}.1 exists`);
      assert.ok(fs.statSync(log).size <= 1024, `the current file is ${fs.statSync(log).size} bytes, over the 1024 limit`);
      assert.ok(fs.statSync(`${log}.1`).size <= 1024, `the rotated file is ${fs.statSync(`${log}.1`).size} bytes, over the 1024 limit`);
      const current = readLog(log);
      const rotated = readLog(`${log}.1`);
      assert.ok(current.length >= 1 && rotated.length >= 1);
      const inputs = [...rotated, ...current].map((line) => line.input);
      const numbers = inputs.map((input) => Number(/marker-(\d+)/.exec(input)?.[1]));
      assert.deepEqual(numbers, numbers.map((_, i) => count - numbers.length + 1 + i), 'the two files hold the most recent refusals, in order, none lost between them');
    } finally {
      await session.close();
    }
  });
});
