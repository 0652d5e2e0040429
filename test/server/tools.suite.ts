// Every tool's happy path, end to end, under both clients: the v2 client negotiating 2026-07-28
// and the v1 SDK client negotiating 2025-11-25. Each row checks the answer the server returns AND
// what actually happened on disk (a refused or failed call leaves the disk as it was).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { STAGE_NAMES, textOf } from './helpers.js';
import { absent, exactly, file, folder, including, link, plant, table, type Matcher, type Row, type Tree } from './table.js';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const BINARY = Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x80, 0x7f]);
/** "café" in Latin-1: one byte that is not UTF-8. */
const LATIN1 = Buffer.from('café\n', 'latin1');
const LINUX = process.platform === 'linux';

const E_TXT = 'alpha\nbeta\ngamma\n';
const EDITS = [{ oldText: 'beta', newText: 'BETA' }, { oldText: 'gamma\n', newText: 'gamma\ndelta\n' }];
const EDITED = 'alpha\nBETA\ngamma\ndelta\n';

/** An entry's size is the lstat size of `relative`. */
const sizeOf =
  (relative: string): Matcher =>
  (size, t, what) =>
    assert.equal(size, fs.lstatSync(t.at(relative)).size, what);

const largestFirst: Matcher = (entries: { name: string; size: number }[], _t, what) => {
  const sizes = entries.map((entry) => entry.size);
  assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a), `${what}: largest first`);
  assert.ok(entries.findIndex((e) => e.name === 'big.bin') < entries.findIndex((e) => e.name === 'small.txt'), `${what}: big.bin before small.txt`);
};

/** What the rows read; the rows that change the disk plant what they change. */
const TREE: Tree = {
  'ws/docs/readme.md': 'line 1\nline 2\nline 3\nline 4\nline 5\n',
  'ws/media/pixel.png': PNG,
  'ws/media/blob.bin': BINARY,
  'ws/media/sound.wav': Buffer.from('RIFF0000WAVE'),
  'ws/media/nul.txt': 'valid UTF-8 but for\0this',
  'ws/media/utf16.txt': Buffer.from('\ufeffUTF-16 text\n', 'utf16le'),
  'ws/media/bom.txt': '\ufeffwith a mark\n',
  'ws/many/a.txt': 'content a',
  'ws/many/b.txt': 'content b',
  'ws/list/file.txt': 'f',
  'ws/list/sub/inner.txt': 'i',
  'ws/list/link': link('file.txt'),
  'ws/sizes/big.bin': Buffer.alloc(300, 1),
  'ws/sizes/small.txt': 'small',
  'ws/sizes/sub/ignored.txt': 'not counted',
  'ws/tree/src/index.ts': 'export {};',
  'ws/tree/src/util/helper.ts': 'export {};',
  'ws/tree/src/old.log': 'log',
  'ws/tree/debug.log': 'log',
  'ws/tree/node_modules/pkg/index.js': 'module.exports = {};',
  'ws/tree/.hidden/x': 'x',
  'ws/search/a.ts': '',
  'ws/search/b.js': '',
  'ws/search/deep/c.ts': '',
  'ws/search/deep/Readme.md': '',
  'ws/search/node_modules/x.ts': '',
  'ws/info/file.txt': file('twelve bytes', 0o640),
  'ws/info/link': link('file.txt'),
};

const rows: readonly Row[] = [
  { name: 'negotiates its client\'s protocol version', check: (t) => assert.equal(t.session.negotiatedVersion(), t.version) },

  {
    name: 'the one grant, read-write, its URI round-trips, sandbox off',
    tool: 'list_workspaces',
    args: {},
    want: {
      structured: {
        workspaces: exactly([{ uri: '{W}', path: '{base}/ws', realPath: '{base}/ws', rights: 'read-write' }]),
        // Linux anchors every operation on descriptors of the checked folders; other hosts say why not.
        layers: { sandbox: { active: false, mechanism: undefined }, authorization: /active/, containment: /active/, anchoredIo: { active: LINUX, detail: LINUX ? /descriptors/ : /not available/ } },
      },
      text: [LINUX ? /anchored I\/O: active/ : /anchored I\/O: not active/, /{W}/],
    },
  },

  {
    name: 'inside, with all seven stages in order, none refusing',
    tool: 'explain_path',
    args: { path: 'docs/readme.md' },
    want: { structured: { verdict: 'inside', code: undefined, stage: 'containment', path: '{base}/ws/docs/readme.md', stages: STAGE_NAMES.map((stage) => ({ stage, status: /^(pass|note|skip)$/ })) } }, // any status but refuse
  },
  { name: 'an outside path explained, not refused', tool: 'explain_path', args: { path: '../elsewhere.txt' }, want: { structured: { verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: '{base}/elsewhere.txt' } } },

  // The text is the content, sent once, in one block.
  { name: 'the whole file', tool: 'read_text_file', args: { path: 'docs/readme.md' }, want: { text: 'line 1\nline 2\nline 3\nline 4\nline 5\n', blocks: [{ type: 'text' }] } },
  { name: 'its first 2 lines', tool: 'read_text_file', args: { path: 'docs/readme.md', limit: 2 }, want: { text: 'line 1\nline 2' } },
  { name: 'its last 2 lines', tool: 'read_text_file', args: { path: 'docs/readme.md', offset: -2 }, want: { text: 'line 4\nline 5' } },
  { name: 'its first line, the file named by an absolute path', tool: 'read_text_file', args: { path: '{base}/ws/docs/readme.md', limit: 1 }, want: { text: 'line 1' } },
  { name: 'its last line, the file named by a file: URI inside the workspace', tool: 'read_text_file', args: { path: '{W}/docs/readme.md', offset: -1 }, want: { text: 'line 5' } },
  { tool: 'read_text_file', args: { path: 'docs/readme.md', limit: 0 }, want: { error: /limit must be 1 or more/ } },
  { tool: 'read_text_file', args: { path: 'docs/missing.md' }, want: { error: /ENOENT/ } },
  // Not text (bytes that are not UTF-8, or a NUL): refused, never shown with U+FFFD in place of bytes.
  ...(['media/pixel.png', 'media/blob.bin', 'media/nul.txt', 'media/utf16.txt'] as const).map(
    (path): Row => ({ tool: 'read_text_file', args: { path }, want: { refused: 'ERR_NOT_TEXT', stage: 'server', verdict: 'refused', fields: { reason: /^media\/\S+ is not text: it holds (NUL bytes|bytes that are not UTF-8)\b.*\. Read it with read_media_file, as base64\.$/, path: `{base}/ws/${path}` } } }),
  ),
  { name: 'a byte order mark is kept, as in the file', tool: 'read_text_file', args: { path: 'media/bom.txt' }, want: { text: '\ufeffwith a mark\n' } },

  // The data is in the content block only; the structured result describes it.
  {
    name: 'an image block',
    tool: 'read_media_file',
    args: { path: 'media/pixel.png' },
    want: { structured: exactly({ path: 'media/pixel.png', mimeType: 'image/png', size: PNG.length }), blocks: including({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }) },
  },
  { name: 'an audio block', tool: 'read_media_file', args: { path: 'media/sound.wav' }, want: { structured: { mimeType: 'audio/wav' }, blocks: including({ type: 'audio' }) } },
  {
    name: 'a resource block, naming the real file, for unknown types',
    tool: 'read_media_file',
    args: { path: 'media/blob.bin' },
    want: { structured: { mimeType: 'application/octet-stream', size: BINARY.length }, blocks: including({ type: 'resource', resource: { blob: BINARY.toString('base64'), uri: '{W}/media/blob.bin' } }) },
  },

  {
    name: 'each file\'s content, or why it was not read, under its path, in the order given',
    tool: 'read_multiple_files',
    args: { paths: ['many/a.txt', 'many/missing.txt', '../outside.txt', 'many/b.txt'] },
    want: { sections: ['many/a.txt:\ncontent a', /^many\/missing\.txt: Error \(ENOENT\): /, /^\.\.\/outside\.txt: Refused \(ERR_OUTSIDE at containment\): /, 'many/b.txt:\ncontent b'] },
  },
  {
    name: 'a file that is not text refused in its section, with the tool to read it',
    tool: 'read_multiple_files',
    args: { paths: ['many/a.txt', 'media/pixel.png'] },
    want: { sections: ['many/a.txt:\ncontent a', /^media\/pixel\.png: Refused \(ERR_NOT_TEXT at server\): media\/pixel\.png is not text: it holds NUL bytes.*\. Read it with read_media_file/], hides: '\ufffd' },
  },

  // The folder's names afterwards: no temporary file is left behind.
  {
    name: 'created, no temporary file left',
    tree: { 'ws/write/new': folder() },
    tool: 'write_file',
    args: { path: 'write/new/new.txt', content: 'héllo\n' },
    want: { structured: exactly({ path: 'write/new/new.txt', bytes: Buffer.byteLength('héllo\n'), created: true }) },
    disk: { 'ws/write/new': folder(['new.txt']), 'ws/write/new/new.txt': 'héllo\n' },
  },
  {
    name: 'replaced, no temporary file left',
    tree: { 'ws/write/old/existing.txt': 'old content' },
    tool: 'write_file',
    args: { path: 'write/old/existing.txt', content: 'new content' },
    want: { structured: exactly({ path: 'write/old/existing.txt', bytes: 11, created: false }) },
    disk: { 'ws/write/old': folder(['existing.txt']), 'ws/write/old/existing.txt': 'new content' },
  },
  { tool: 'write_file', args: { path: 'write/no-such-folder/x.txt', content: 'x' }, want: { error: /ENOENT/ }, disk: { 'ws/write/no-such-folder': absent } },

  {
    name: 'the diff, the file left as it was',
    tree: { 'ws/edit/dry/e.txt': E_TXT },
    tool: 'edit_file',
    args: { path: 'edit/dry/e.txt', edits: EDITS, dryRun: true },
    want: { structured: exactly({ path: 'edit/dry/e.txt', applied: false, diffShown: true, linesAdded: 2, linesRemoved: 1, size: 23, lines: 4 }), text: [/^Dry run, nothing written\.\n/, /^-beta$/m, /^\+BETA$/m, /^\+delta$/m, /^@@ /m] },
    disk: { 'ws/edit/dry': folder(['e.txt']), 'ws/edit/dry/e.txt': E_TXT },
  },
  {
    name: 'the file written',
    tree: { 'ws/edit/real/e.txt': E_TXT },
    tool: 'edit_file',
    args: { path: 'edit/real/e.txt', edits: EDITS },
    want: { structured: { applied: true }, text: /^Edited edit\/real\/e\.txt\.\n/ },
    disk: { 'ws/edit/real': folder(['e.txt']), 'ws/edit/real/e.txt': EDITED },
  },
  {
    name: 'edit_file: the real edit reports the diff the dry run showed',
    check: async (t) => {
      plant(t.base, { 'ws/edit/both/e.txt': E_TXT });
      const dry = await t.call('edit_file', { path: 'edit/both/e.txt', edits: EDITS, dryRun: true });
      const real = await t.call('edit_file', { path: 'edit/both/e.txt', edits: EDITS });
      t.expect(real, { structured: { applied: true } }, 'edit');
      assert.equal(textOf(real).replace(/^Edited edit\/both\/e\.txt\.\n/, ''), textOf(dry).replace(/^Dry run, nothing written\.\n/, ''));
    },
  },
  { name: 'a missing oldText changes nothing', tree: { 'ws/edit/e.txt': E_TXT }, tool: 'edit_file', args: { path: 'edit/e.txt', edits: [{ oldText: 'nowhere', newText: 'x' }] }, want: { error: /not found/ } },
  {
    name: 'a file that is not text is never edited through U+FFFD',
    tree: { 'ws/edit/latin1.txt': LATIN1 },
    tool: 'edit_file',
    args: { path: 'edit/latin1.txt', edits: [{ oldText: 'caf', newText: 'CAF' }] },
    want: { refused: 'ERR_NOT_TEXT', stage: 'server', fields: { reason: /^edit\/latin1\.txt is not text: it holds bytes that are not UTF-8\. edit_file changes only text, and nothing was changed; read_media_file/ } },
    disk: { 'ws/edit/latin1.txt': LATIN1 },
  },
  { name: 'an ambiguous oldText changes nothing', tree: { 'ws/edit/twice.txt': 'x and x' }, tool: 'edit_file', args: { path: 'edit/twice.txt', edits: [{ oldText: 'x', newText: 'y' }] }, want: { error: /2 times/ } },

  { name: 'nested folders created', tool: 'create_directory', args: { path: 'made/deep/er' }, want: { structured: exactly({ path: 'made/deep/er', created: true }) }, disk: { 'ws/made/deep/er': folder() } },
  { name: 'created: false for a folder already there', tree: { 'ws/again/deep/er': folder() }, tool: 'create_directory', args: { path: 'again/deep/er' }, want: { structured: { created: false } }, disk: { 'ws/again/deep/er': folder() } },
  { name: 'a file is there', tool: 'create_directory', args: { path: 'docs/readme.md' }, want: { error: /EEXIST/ } },

  // A listing is content: its text is the answer, read back here by heading.
  {
    name: 'names by kind, each sorted, a link listed as a link',
    tool: 'list_directory',
    args: { path: 'list' },
    want: { listing: exactly({ directories: ['sub'], files: ['file.txt'], links: ['link'], other: [], nextCursor: undefined }) },
  },
  { name: 'the workspace\'s folders, docs among them', tool: 'list_directory', args: { path: '.' }, want: { listing: { directories: including('docs') } } },
  { tool: 'list_directory', args: { path: 'list/file.txt' }, want: { error: /ENOTDIR/ } },
  {
    name: 'list_directory in pages: a heading counts the folder (n of total) where the page holds part of a kind, and each page says which entries it holds; list_directory_with_sizes too',
    check: async (t) => {
      // 500 names of 203 characters: about 190 to a 40,000-byte page; the folder sorts after them.
      const files = Array.from({ length: 500 }, (_, i) => `${String(i).padStart(3, '0')}${'x'.repeat(200)}`);
      plant(t.base, { ...Object.fromEntries(files.map((name) => [`ws/paged/${name}`, ''])), 'ws/paged/sub': folder() });
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const lines = textOf(await t.call('list_directory', { path: 'paged', ...(cursor !== undefined ? { cursor } : {}) })).split('\n');
        const footer = lines.pop()!;
        const [, from, to] = /^\(entries (\d+) to (\d+) of 501 by name: (call again with cursor \S+ for the rest|the last of them)\)$/.exec(footer) ?? assert.fail(`no footer: ${footer}`);
        cursor = /cursor (\S+)/.exec(footer)?.[1];
        const onPage = lines.filter((line) => !line.endsWith(':'));
        assert.deepEqual([Number(from), Number(to)], [seen.length + 1, seen.length + onPage.length], footer);
        const fileCount = onPage.filter((name) => name !== 'sub').length;
        assert.ok(lines.includes(`Files (${fileCount} of 500):`), `the heading counts the folder's files: ${lines.filter((line) => line.endsWith(':'))}`);
        assert.equal(lines.includes('Folders (1):'), onPage.includes('sub'), 'a kind all on this page is counted as it is');
        seen.push(...onPage);
      } while (cursor !== undefined);
      // By kind within a page, so sorted here.
      assert.deepEqual([...seen].sort(), [...files, 'sub']);
      // list_directory_with_sizes: the totals are the folder's on every page, and each page says which entries it holds.
      let sized = 0;
      do {
        const result = await t.call('list_directory_with_sizes', { path: 'paged', ...(cursor !== undefined ? { cursor } : {}) });
        const text = textOf(result);
        const count = (result.structuredContent!.entries as unknown[]).length;
        assert.match(text, /^Total: 500 files, 1 folders$/m);
        const [, from, to, next] = /^\(entries (\d+) to (\d+) of 501: (call again with cursor \S+ for the rest|the last of them)\)$/m.exec(text) ?? assert.fail(`no footer: ${text.slice(-300)}`);
        assert.deepEqual([Number(from), Number(to)], [sized + 1, sized + count]);
        sized += count;
        cursor = /cursor (\S+)/.exec(next!)?.[1];
      } while (cursor !== undefined);
      assert.equal(sized, 501);
    },
  },

  {
    name: 'own sizes and totals',
    tool: 'list_directory_with_sizes',
    args: { path: 'sizes' },
    want: {
      structured: {
        path: 'sizes',
        entries: [
          { name: 'big.bin', type: 'file', size: 300 },
          { name: 'small.txt', type: 'file', size: 5 },
          { name: 'sub', type: 'directory', size: sizeOf('ws/sizes/sub') },
        ],
        totalFiles: 2,
        totalDirectories: 1,
        totalBytes: 305,
      },
    },
  },
  { name: 'largest first', tool: 'list_directory_with_sizes', args: { path: 'sizes', sortBy: 'size' }, want: { structured: { entries: largestFirst } } },

  {
    name: 'recursive, sorted, excludePatterns leave out names at any depth and whole folders',
    tool: 'directory_tree',
    args: { path: 'tree', excludePatterns: ['node_modules', '*.log'] },
    want: {
      structured: {
        path: 'tree',
        truncated: false,
        tree: exactly([
          { name: '.hidden', type: 'directory', children: [{ name: 'x', type: 'file' }] },
          {
            name: 'src',
            type: 'directory',
            children: [
              { name: 'index.ts', type: 'file' },
              { name: 'util', type: 'directory', children: [{ name: 'helper.ts', type: 'file' }] },
            ],
          },
        ]),
      },
    },
  },
  { name: 'every name, without excludes', tool: 'directory_tree', args: { path: 'tree' }, want: { structured: { tree: [{ name: '.hidden' }, { name: 'debug.log' }, { name: 'node_modules' }, { name: 'src' }] } } },

  {
    name: 'renames a file',
    tree: { 'ws/mv/from.txt': 'moving' },
    tool: 'move_file',
    args: { source: 'mv/from.txt', destination: 'mv/to.txt' },
    want: { structured: exactly({ source: 'mv/from.txt', destination: 'mv/to.txt' }) },
    disk: { 'ws/mv/from.txt': absent, 'ws/mv/to.txt': 'moving' },
  },
  {
    name: 'renames a folder',
    tree: { 'ws/mv/dir/child.txt': 'child' },
    tool: 'move_file',
    args: { source: 'mv/dir', destination: 'mv/dir2' },
    want: { structured: { destination: 'mv/dir2' } },
    disk: { 'ws/mv/dir': absent, 'ws/mv/dir2/child.txt': 'child' },
  },
  { name: 'never overwrites, both files unchanged', tree: { 'ws/mv/keep-src.txt': 'source stays', 'ws/mv/keep-dst.txt': 'destination stays' }, tool: 'move_file', args: { source: 'mv/keep-src.txt', destination: 'mv/keep-dst.txt' }, want: { error: /EEXIST/ } },
  { tree: { 'ws/mv/keep-src.txt': 'source stays' }, tool: 'move_file', args: { source: 'mv/keep-src.txt', destination: 'mv/nowhere/x.txt' }, want: { error: /ENOENT/ } },

  // Matches are relative to the workspace, so each passes back as a path; a folder ends with /.
  { name: 'matches of a glob at any depth', tool: 'search_files', args: { path: 'search', pattern: '*.ts' }, want: { structured: { path: 'search', truncated: false, nextCursor: undefined, matches: ['search/a.ts', 'search/deep/c.ts', 'search/node_modules/x.ts'] } } },
  { name: 'a folder, ending with /', tool: 'search_files', args: { path: 'search', pattern: 'deep' }, want: { structured: { matches: ['search/deep/'] } } },
  { name: 'excludePatterns leave out a folder', tool: 'search_files', args: { path: 'search', pattern: '**/*.ts', excludePatterns: ['node_modules'] }, want: { structured: { matches: ['search/a.ts', 'search/deep/c.ts'] } } },
  { name: 'matches of a case-insensitive substring', tool: 'search_files', args: { path: 'search', pattern: 'README' }, want: { structured: { matches: ['search/deep/Readme.md'] } } },
  { name: 'no matches', tool: 'search_files', args: { path: 'search', pattern: 'zzz' }, want: { structured: { matches: [] } } },

  {
    name: 'a file: its type, size, permissions and times',
    tool: 'get_file_info',
    args: { path: 'info/file.txt' },
    want: {
      structured: {
        path: 'info/file.txt',
        type: 'file',
        size: 12,
        permissions: '640',
        modified: ((modified, t, what) => assert.equal(modified, fs.statSync(t.at('ws/info/file.txt')).mtime.toISOString(), what)) satisfies Matcher,
        accessed: ((accessed: string, _t, what) => assert.ok(!Number.isNaN(Date.parse(accessed)), what)) satisfies Matcher,
        linkTarget: undefined,
      },
    },
  },
  { name: 'a folder', tool: 'get_file_info', args: { path: 'info' }, want: { structured: { type: 'directory' } } },
  { name: 'a link described as itself', tool: 'get_file_info', args: { path: 'info/link' }, want: { structured: { type: 'symlink', path: 'info/link', linkTarget: 'file.txt', size: sizeOf('ws/info/link') } } },

  { name: 'the file deleted', tree: { 'ws/del/file.txt': 'bye' }, tool: 'delete_path', args: { path: 'del/file.txt' }, want: { structured: exactly({ path: 'del/file.txt', kind: 'file' }) }, disk: { 'ws/del/file.txt': absent } },
  { name: 'the empty folder deleted', tree: { 'ws/del/empty': folder() }, tool: 'delete_path', args: { path: 'del/empty' }, want: { structured: exactly({ path: 'del/empty', kind: 'directory' }) }, disk: { 'ws/del/empty': absent } },
  { name: 'a full folder only with recursive', tree: { 'ws/del/full/one.txt': '1', 'ws/del/full/nested/two.txt': '2' }, tool: 'delete_path', args: { path: 'del/full' }, want: { error: /ENOTEMPTY|not empty/i } },
  {
    name: 'the full folder deleted, with recursive',
    tree: { 'ws/del/full-r/one.txt': '1', 'ws/del/full-r/nested/two.txt': '2' },
    tool: 'delete_path',
    args: { path: 'del/full-r', recursive: true },
    want: { structured: exactly({ path: 'del/full-r', kind: 'directory' }) },
    disk: { 'ws/del/full-r': absent },
  },
  { name: 'never the workspace itself', tool: 'delete_path', args: { path: '.', recursive: true }, want: { error: /workspace folder/ } },
  { name: 'never the workspace itself, by its URI', tool: 'delete_path', args: { path: '{W}', recursive: true }, want: { error: /workspace folder/ } },
  { tool: 'delete_path', args: { path: 'del/gone.txt' }, want: { error: /ENOENT/ } },

  // An outside path is refused by every path-taking tool with the same structured refusal.
  ...(
    [
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
    ] as const
  ).map(([tool, args]): Row => ({ tool, args, want: { refused: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' } })),
];

table({
  name: 'tools, happy paths',
  grants: [{ name: 'W', dir: 'ws' }],
  tree: TREE,
  rows,
});
