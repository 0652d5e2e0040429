// Every tool's happy path, end to end, under both clients: the v2 client negotiating 2026-07-28
// and the v1 SDK client negotiating 2025-11-25. Each assertion checks the structuredContent the
// server returns AND what actually happened on disk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CLIENT_KINDS,
  STAGE_NAMES,
  connect,
  expectError,
  expectContent,
  expectOk,
  expectRefusal,
  fileUri,
  isSymlink,
  makeTempDir,
  removeDir,
  textOf,
  writeTree,
  type Session,
  listingOf,
} from './helpers.js';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const BINARY = Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x80, 0x7f]);

for (const { kind, version } of CLIENT_KINDS) {
  describe(`tools, happy paths (${kind} client, ${version})`, () => {
    let base: string;
    let ws: string;
    let W: string;
    let session: Session;
    const at = (relative: string) => path.join(ws, relative);
    const call = (name: string, args: Record<string, unknown>) => session.call(name, { workspaceUri: W, ...args });

    before(async () => {
      base = makeTempDir();
      ws = path.join(base, 'workspace');
      writeTree(ws, {
        'docs/readme.md': 'line 1\nline 2\nline 3\nline 4\nline 5\n',
        'media/pixel.png': PNG,
        'media/blob.bin': BINARY,
        'media/sound.wav': Buffer.from('RIFF0000WAVE'),
        'many/a.txt': 'content a',
        'many/b.txt': 'content b',
        'write/existing.txt': 'old content',
        'edit/e.txt': 'alpha\nbeta\ngamma\n',
        'edit/twice.txt': 'x and x',
        'list/file.txt': 'f',
        'list/sub/inner.txt': 'i',
        'sizes/big.bin': Buffer.alloc(300, 1),
        'sizes/small.txt': 'small',
        'sizes/sub/ignored.txt': 'not counted',
        'tree/src/index.ts': 'export {};',
        'tree/src/util/helper.ts': 'export {};',
        'tree/src/old.log': 'log',
        'tree/debug.log': 'log',
        'tree/node_modules/pkg/index.js': 'module.exports = {};',
        'tree/.hidden/x': 'x',
        'mv/from.txt': 'moving',
        'mv/dir/child.txt': 'child',
        'mv/keep-src.txt': 'source stays',
        'mv/keep-dst.txt': 'destination stays',
        'search/a.ts': '',
        'search/b.js': '',
        'search/deep/c.ts': '',
        'search/deep/Readme.md': '',
        'search/node_modules/x.ts': '',
        'info/file.txt': 'twelve bytes',
        'del/file.txt': 'bye',
        'del/full/one.txt': '1',
        'del/full/nested/two.txt': '2',
      });
      fs.mkdirSync(at('del/empty'));
      fs.symlinkSync('file.txt', at('list/link'));
      fs.symlinkSync('file.txt', at('info/link'));
      fs.chmodSync(at('info/file.txt'), 0o640);
      W = fileUri(ws);
      session = await connect(kind, { inProcess: true, args: ['--workspace', W] });
    });

    after(async () => {
      await session?.close();
      removeDir(base);
    });

    test(`negotiates ${version}`, () => {
      assert.equal(session.negotiatedVersion(), version);
    });

    test('list_workspaces: the one grant, read-write, its URI round-trips, sandbox off', async () => {
      const s = expectOk(await session.call('list_workspaces', {}), 'list_workspaces');
      assert.deepEqual(s.workspaces, [{ uri: W, path: ws, realPath: ws, rights: 'read-write' }]);
      assert.equal(s.layers.sandbox.active, false);
      assert.equal(s.layers.sandbox.mechanism, undefined, 'no sandbox, no mechanism');
      assert.match(s.layers.authorization, /active/);
      assert.match(s.layers.containment, /active/);
      // Linux anchors every operation on descriptors of the checked folders; other hosts say why not.
      assert.equal(s.layers.anchoredIo.active, process.platform === 'linux');
      assert.match(s.layers.anchoredIo.detail, process.platform === 'linux' ? /descriptors/ : /not available/);
      assert.match(textOf(await session.call('list_workspaces', {})), process.platform === 'linux' ? /anchored I\/O: active/ : /anchored I\/O: not active/);
      assert.match(textOf(await session.call('list_workspaces', {})), new RegExp(W.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    });

    test('explain_path: inside, with all seven stages in order; and an outside path explained, not refused', async () => {
      const inside = expectOk(await call('explain_path', { path: 'docs/readme.md' }), 'explain_path inside');
      assert.equal(inside.verdict, 'inside');
      assert.equal(inside.code, undefined, 'no code when inside');
      assert.equal(inside.stage, 'containment');
      assert.equal(inside.path, at('docs/readme.md'));
      assert.deepEqual(inside.stages.map((stage: { stage: string }) => stage.stage), [...STAGE_NAMES]);
      for (const stage of inside.stages) assert.notEqual(stage.status, 'refuse', `${stage.stage} refused an inside path`);

      const outside = expectOk(await call('explain_path', { path: '../elsewhere.txt' }), 'explain_path outside');
      assert.equal(outside.verdict, 'outside');
      assert.equal(outside.code, 'ERR_OUTSIDE');
      assert.equal(outside.stage, 'containment');
      assert.equal(outside.path, path.join(base, 'elsewhere.txt'));
    });

    test('read_text_file: whole file, head, tail; the text is the content, sent once; the uri names the real file', async () => {
      const text = async (args: Record<string, unknown>, what: string) => {
        const result = await call('read_text_file', args);
        return { text: expectContent(result, what), blocks: result.content.length };
      };
      const whole = await text({ path: 'docs/readme.md' }, 'read whole');
      assert.equal(whole.text, 'line 1\nline 2\nline 3\nline 4\nline 5\n');
      assert.equal(whole.blocks, 1, 'one text block');
      const head = await text({ path: 'docs/readme.md', head: 2 }, 'read head');
      assert.equal(head.text, 'line 1\nline 2');
      assert.equal((await text({ path: 'docs/readme.md', tail: 2 }, 'read tail')).text, 'line 4\nline 5');
      // The same file named by an absolute path and by a file: URI inside the workspace.
      assert.equal((await text({ path: at('docs/readme.md'), head: 1 }, 'absolute')).text, 'line 1');
      assert.equal((await text({ path: fileUri(at('docs/readme.md')), tail: 1 }, 'uri')).text, 'line 5');
      expectError(await call('read_text_file', { path: 'docs/readme.md', head: 1, tail: 1 }), /head or tail/, 'head and tail');
      expectError(await call('read_text_file', { path: 'docs/missing.md' }), /ENOENT/, 'missing file');
    });

    test('read_media_file: an image block, an audio block, a resource block for unknown types', async () => {
      const png = await call('read_media_file', { path: 'media/pixel.png' });
      const s = expectOk(png, 'read png');
      // The data is in the image block only; the structured result describes it.
      assert.deepEqual(s, { path: 'media/pixel.png', mimeType: 'image/png', size: PNG.length });
      const image = png.content.find((block) => block.type === 'image');
      assert.ok(image, 'an image content block');
      assert.equal(image.data, PNG.toString('base64'));
      assert.equal(image.mimeType, 'image/png');

      const wav = await call('read_media_file', { path: 'media/sound.wav' });
      assert.equal(expectOk(wav, 'read wav').mimeType, 'audio/wav');
      assert.ok(wav.content.some((block) => block.type === 'audio'), 'an audio content block');

      const bin = await call('read_media_file', { path: 'media/blob.bin' });
      const b = expectOk(bin, 'read bin');
      assert.equal(b.mimeType, 'application/octet-stream');
      assert.equal(b.size, BINARY.length);
      const resource = bin.content.find((block) => block.type === 'resource');
      assert.ok(resource?.resource, 'an embedded resource block');
      assert.deepEqual(Buffer.from(String(resource.resource.blob), 'base64'), BINARY);
      assert.equal(resource.resource.uri, fileUri(at('media/blob.bin')));
    });

    test('read_multiple_files: each file on its own; a missing file and an outside path do not stop the others', async () => {
      const result = await call('read_multiple_files', { paths: ['many/a.txt', 'many/missing.txt', '../outside.txt', 'many/b.txt'] });
      // Each file's content, or why it was not read, under its path, in the order given.
      const sections = expectContent(result, 'read_multiple_files').split('\n---\n');
      assert.equal(sections.length, 4);
      assert.equal(sections[0], 'many/a.txt:\ncontent a');
      assert.match(sections[1]!, /^many\/missing\.txt: Error \(ENOENT\): /);
      assert.match(sections[2]!, /^\.\.\/outside\.txt: Refused \(ERR_OUTSIDE at containment\): /);
      assert.equal(sections[3], 'many/b.txt:\ncontent b');
    });

    test('write_file: creates, then replaces; no temporary file is left behind', async () => {
      const created = expectOk(await call('write_file', { path: 'write/new.txt', content: 'héllo\n' }), 'write new');
      assert.deepEqual(created, { path: 'write/new.txt', bytes: Buffer.byteLength('héllo\n'), created: true });
      assert.equal(fs.readFileSync(at('write/new.txt'), 'utf8'), 'héllo\n');

      const replaced = expectOk(await call('write_file', { path: 'write/existing.txt', content: 'new content' }), 'write existing');
      assert.equal(replaced.created, false);
      assert.equal(replaced.bytes, 11);
      assert.equal(fs.readFileSync(at('write/existing.txt'), 'utf8'), 'new content');

      assert.deepEqual(fs.readdirSync(at('write')).sort(), ['existing.txt', 'new.txt'], 'no .tmp file left');
      expectError(await call('write_file', { path: 'write/no-such-folder/x.txt', content: 'x' }), /ENOENT/, 'write into a missing folder');
      assert.equal(fs.existsSync(at('write/no-such-folder')), false);
    });

    test('edit_file: dryRun returns the diff and leaves the file; a real edit writes it; a missing or ambiguous oldText changes nothing', async () => {
      const edits = [{ oldText: 'beta', newText: 'BETA' }, { oldText: 'gamma\n', newText: 'gamma\ndelta\n' }];
      const dryResult = await call('edit_file', { path: 'edit/e.txt', edits, dryRun: true });
      const dry = expectOk(dryResult, 'edit dry run');
      assert.deepEqual(dry, { path: 'edit/e.txt', applied: false, diffShown: true, linesAdded: 2, linesRemoved: 1, size: 23, lines: 4 });
      const dryDiff = textOf(dryResult).replace(/^Dry run, nothing written\.\n/, '');
      assert.match(dryDiff, /^-beta$/m);
      assert.match(dryDiff, /^\+BETA$/m);
      assert.match(dryDiff, /^\+delta$/m);
      assert.match(dryDiff, /^@@ /m);
      assert.equal(fs.readFileSync(at('edit/e.txt'), 'utf8'), 'alpha\nbeta\ngamma\n', 'dry run left the file');

      const realResult = await call('edit_file', { path: 'edit/e.txt', edits });
      const real = expectOk(realResult, 'edit');
      assert.equal(real.applied, true);
      assert.equal(textOf(realResult).replace(/^Edited edit\/e\.txt\.\n/, ''), dryDiff, 'the real edit reports the diff the dry run showed');
      assert.equal(fs.readFileSync(at('edit/e.txt'), 'utf8'), 'alpha\nBETA\ngamma\ndelta\n');

      expectError(await call('edit_file', { path: 'edit/e.txt', edits: [{ oldText: 'nowhere', newText: 'x' }] }), /not found/, 'missing oldText');
      expectError(await call('edit_file', { path: 'edit/twice.txt', edits: [{ oldText: 'x', newText: 'y' }] }), /2 times/, 'ambiguous oldText');
      assert.equal(fs.readFileSync(at('edit/e.txt'), 'utf8'), 'alpha\nBETA\ngamma\ndelta\n');
      assert.equal(fs.readFileSync(at('edit/twice.txt'), 'utf8'), 'x and x');
      assert.deepEqual(fs.readdirSync(at('edit')).sort(), ['e.txt', 'twice.txt'], 'no .tmp file left');
    });

    test('create_directory: nested folders created; again is idempotent (created: false); a file there is EEXIST', async () => {
      const made = expectOk(await call('create_directory', { path: 'made/deep/er' }), 'create');
      assert.deepEqual(made, { path: 'made/deep/er', created: true });
      assert.ok(fs.statSync(at('made/deep/er')).isDirectory());
      const again = expectOk(await call('create_directory', { path: 'made/deep/er' }), 'create again');
      assert.equal(again.created, false);
      expectError(await call('create_directory', { path: 'docs/readme.md' }), /EEXIST/, 'create over a file');
      assert.ok(fs.statSync(at('docs/readme.md')).isFile());
    });

    test('list_directory: names by kind, each sorted, a link listed as a link', async () => {
      // A listing is content: its text is the answer, read back here by heading.
      assert.deepEqual(listingOf(await call('list_directory', { path: 'list' }), 'list'), {
        directories: ['sub'],
        files: ['file.txt'],
        links: ['link'],
        other: [],
        nextCursor: undefined,
      });
      const root = listingOf(await call('list_directory', { path: '.' }), 'list root');
      assert.ok(root.directories.includes('docs'));
      expectError(await call('list_directory', { path: 'list/file.txt' }), /ENOTDIR/, 'list a file');
    });

    test('list_directory_with_sizes: own sizes, totals, sortBy size', async () => {
      const s = expectOk(await call('list_directory_with_sizes', { path: 'sizes' }), 'sizes');
      assert.equal(s.path, 'sizes');
      assert.deepEqual(s.entries.map((entry: { name: string; type: string }) => [entry.name, entry.type]), [
        ['big.bin', 'file'],
        ['small.txt', 'file'],
        ['sub', 'directory'],
      ]);
      assert.equal(s.entries[0].size, 300);
      assert.equal(s.entries[1].size, 5);
      assert.equal(s.entries[2].size, fs.lstatSync(at('sizes/sub')).size);
      assert.equal(s.totalFiles, 2);
      assert.equal(s.totalDirectories, 1);
      assert.equal(s.totalBytes, 305);
      const bySize = expectOk(await call('list_directory_with_sizes', { path: 'sizes', sortBy: 'size' }), 'sizes by size');
      const sizes = bySize.entries.map((entry: { size: number }) => entry.size);
      assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a), 'largest first');
      assert.ok(
        bySize.entries.findIndex((e: { name: string }) => e.name === 'big.bin') < bySize.entries.findIndex((e: { name: string }) => e.name === 'small.txt'),
        'big.bin before small.txt',
      );
    });

    test('directory_tree: recursive, sorted, excludePatterns leave out names at any depth and whole folders', async () => {
      const s = expectOk(await call('directory_tree', { path: 'tree', excludePatterns: ['node_modules', '*.log'] }), 'tree');
      assert.equal(s.path, 'tree');
      assert.equal(s.truncated, false);
      assert.deepEqual(s.tree, [
        { name: '.hidden', type: 'directory', children: [{ name: 'x', type: 'file' }] },
        {
          name: 'src',
          type: 'directory',
          children: [
            { name: 'index.ts', type: 'file' },
            { name: 'util', type: 'directory', children: [{ name: 'helper.ts', type: 'file' }] },
          ],
        },
      ]);
      const all = expectOk(await call('directory_tree', { path: 'tree' }), 'tree without excludes');
      assert.deepEqual(all.tree.map((node: { name: string }) => node.name), ['.hidden', 'debug.log', 'node_modules', 'src']);
    });

    test('move_file: renames a file and a folder; never overwrites (EEXIST, both files unchanged)', async () => {
      const moved = expectOk(await call('move_file', { source: 'mv/from.txt', destination: 'mv/to.txt' }), 'move file');
      assert.deepEqual(moved, { source: 'mv/from.txt', destination: 'mv/to.txt' });
      assert.equal(fs.existsSync(at('mv/from.txt')), false);
      assert.equal(fs.readFileSync(at('mv/to.txt'), 'utf8'), 'moving');

      const folder = expectOk(await call('move_file', { source: 'mv/dir', destination: 'mv/dir2' }), 'move folder');
      assert.equal(folder.destination, 'mv/dir2');
      assert.equal(fs.existsSync(at('mv/dir')), false);
      assert.equal(fs.readFileSync(at('mv/dir2/child.txt'), 'utf8'), 'child');

      expectError(await call('move_file', { source: 'mv/keep-src.txt', destination: 'mv/keep-dst.txt' }), /EEXIST/, 'move over an existing file');
      assert.equal(fs.readFileSync(at('mv/keep-src.txt'), 'utf8'), 'source stays');
      assert.equal(fs.readFileSync(at('mv/keep-dst.txt'), 'utf8'), 'destination stays');

      expectError(await call('move_file', { source: 'mv/keep-src.txt', destination: 'mv/nowhere/x.txt' }), /ENOENT/, 'move into a missing folder');
      assert.ok(fs.existsSync(at('mv/keep-src.txt')));
    });

    test('search_files: a glob at any depth, excludePatterns, a case-insensitive substring', async () => {
      const ts = expectOk(await call('search_files', { path: 'search', pattern: '*.ts' }), 'search *.ts');
      assert.equal(ts.path, 'search');
      assert.equal(ts.truncated, false);
      assert.equal(ts.nextCursor, undefined);
      // Relative to the workspace, so each passes back as a path; a folder ends with /.
      assert.deepEqual(ts.matches, ['search/a.ts', 'search/deep/c.ts', 'search/node_modules/x.ts']);
      assert.deepEqual(expectOk(await call('search_files', { path: 'search', pattern: 'deep' }), 'search a folder').matches, ['search/deep/']);
      const excluded = expectOk(await call('search_files', { path: 'search', pattern: '**/*.ts', excludePatterns: ['node_modules'] }), 'search excluded');
      assert.deepEqual(excluded.matches, ['search/a.ts', 'search/deep/c.ts']);
      const substring = expectOk(await call('search_files', { path: 'search', pattern: 'README' }), 'search substring');
      assert.deepEqual(substring.matches, ['search/deep/Readme.md']);
      const none = expectOk(await call('search_files', { path: 'search', pattern: 'zzz' }), 'search none');
      assert.deepEqual(none.matches, []);
    });

    test('get_file_info: a file, a folder, and a link described as itself', async () => {
      const file = expectOk(await call('get_file_info', { path: 'info/file.txt' }), 'info file');
      const stats = fs.statSync(at('info/file.txt'));
      assert.equal(file.path, 'info/file.txt');
      assert.equal(file.type, 'file');
      assert.equal(file.size, 12);
      assert.equal(file.permissions, '640');
      assert.equal(file.modified, stats.mtime.toISOString());
      assert.ok(!Number.isNaN(Date.parse(file.accessed)));
      assert.equal(file.linkTarget, undefined);

      const folder = expectOk(await call('get_file_info', { path: 'info' }), 'info folder');
      assert.equal(folder.type, 'directory');

      const link = expectOk(await call('get_file_info', { path: 'info/link' }), 'info link');
      assert.equal(link.type, 'symlink');
      assert.equal(link.path, 'info/link');
      assert.equal(link.linkTarget, 'file.txt');
      assert.equal(link.size, fs.lstatSync(at('info/link')).size);
    });

    test('delete_path: a file, an empty folder, a full folder only with recursive, never the workspace itself', async () => {
      assert.deepEqual(expectOk(await call('delete_path', { path: 'del/file.txt' }), 'delete file'), { path: 'del/file.txt', kind: 'file' });
      assert.equal(fs.existsSync(at('del/file.txt')), false);

      assert.deepEqual(expectOk(await call('delete_path', { path: 'del/empty' }), 'delete empty'), { path: 'del/empty', kind: 'directory' });
      assert.equal(fs.existsSync(at('del/empty')), false);

      expectError(await call('delete_path', { path: 'del/full' }), /ENOTEMPTY|not empty/i, 'delete full without recursive');
      assert.equal(fs.readFileSync(at('del/full/nested/two.txt'), 'utf8'), '2', 'nothing inside was deleted');

      const full = expectOk(await call('delete_path', { path: 'del/full', recursive: true }), 'delete recursive');
      assert.deepEqual(full, { path: 'del/full', kind: 'directory' });
      assert.equal(fs.existsSync(at('del/full')), false);

      expectError(await call('delete_path', { path: '.', recursive: true }), /workspace folder/, 'delete the workspace');
      expectError(await call('delete_path', { path: W, recursive: true }), /workspace folder/, 'delete the workspace by its URI');
      assert.ok(fs.existsSync(at('docs/readme.md')), 'the workspace is still there');
      expectError(await call('delete_path', { path: 'del/gone.txt' }), /ENOENT/, 'delete a missing file');
    });

    test('an outside path is refused by every path-taking tool with the same structured refusal', async () => {
      const cases: [string, Record<string, unknown>][] = [
        ['read_text_file', { path: '../x' }],
        ['read_media_file', { path: '../x' }],
        ['write_file', { path: '../x', content: 'x' }],
        ['edit_file', { path: '../x', edits: [{ oldText: 'a', newText: 'b' }] }],
        ['create_directory', { path: '../x' }],
        ['list_directory', { path: '..' }],
        ['list_directory_with_sizes', { path: '..' }],
        ['directory_tree', { path: '..' }],
        ['move_file', { source: '../x', destination: 'y' }],
        ['move_file', { source: 'docs/readme.md', destination: '../x' }],
        ['search_files', { path: '..', pattern: 'x' }],
        ['get_file_info', { path: '../x' }],
        ['delete_path', { path: '../x' }],
      ];
      for (const [tool, args] of cases) {
        const s = expectRefusal(await call(tool, args), { code: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' }, `${tool} ${JSON.stringify(args)}`);
        assert.equal(s.workspaceUri, W, `${tool}: the refusal names the workspace`);
      }
      assert.equal(fs.existsSync(path.join(base, 'x')), false, 'nothing was created outside');
      assert.equal(fs.existsSync(path.join(base, 'y')), false);
      assert.ok(fs.existsSync(at('docs/readme.md')));
      assert.equal(isSymlink(at('list/link')), true);
    });
  });
}
