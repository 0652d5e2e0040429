// Answers with a budget: past ANSWER_BUDGET_BYTES, list_directory, directory_tree, search_files
// and read_multiple_files answer with where to go on, and following it gives every entry once,
// in order, as one unbudgeted answer would have. Tables of {tool, args, the entries of one answer}.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ANSWER_BUDGET_BYTES } from '../../src/server/limits.js';
import { connect, expectOk, listingOf, makeFastTempDir, removeDir, textOf, type Session } from './helpers.js';

/** Folders of files, wide and deep enough that no tree, search or listing of it fits one answer. */
function writeWideTree(root: string): string[] {
  const written: string[] = [];
  for (let top = 0; top < 12; top += 1) {
    for (let middle = 0; middle < 8; middle += 1) {
      const folder = path.join(root, `folder-${String(top).padStart(2, '0')}`, `nested-${middle}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let file = 0; file < 40; file += 1) {
        const name = `a-file-with-a-longish-name-${String(file).padStart(3, '0')}.txt`;
        fs.writeFileSync(path.join(folder, name), '');
        written.push(path.relative(root, path.join(folder, name)));
      }
    }
  }
  return written;
}

interface TreeNode {
  name: string;
  type: string;
  children?: TreeNode[];
}

/** The files of a tree answer, as paths from its starting folder. */
function filesOf(nodes: readonly TreeNode[], above = ''): string[] {
  return nodes.flatMap((node) => (node.children !== undefined ? filesOf(node.children, `${above}${node.name}/`) : node.type === 'file' ? [`${above}${node.name}`] : []));
}

/** What each tool's answer holds, for comparing the pages with one answer. */
const ROWS: readonly { tool: string; args: Record<string, unknown>; entries: (structured: Record<string, any>) => string[] }[] = [
  { tool: 'search_files', args: { path: 'wide', pattern: '*.txt' }, entries: (s) => s.matches },
  { tool: 'directory_tree', args: { path: 'wide' }, entries: (s) => filesOf(s.tree).map((file) => `wide/${file}`) },
];

describe('answers past their budget go on with a cursor', () => {
  let base: string;
  let server: Session;
  let workspaceUri: string;
  let files: string[];

  before(async () => {
    base = makeFastTempDir('bi-continuation-');
    const ws = path.join(base, 'ws');
    files = writeWideTree(path.join(ws, 'wide'))
      .map((file) => `wide/${file.split(path.sep).join('/')}`)
      .sort();
    fs.mkdirSync(path.join(ws, 'flat'));
    for (let i = 0; i < 3000; i += 1) fs.writeFileSync(path.join(ws, 'flat', `entry-with-a-long-name-${String(i).padStart(5, '0')}`), '');
    for (let i = 0; i < 6; i += 1) fs.writeFileSync(path.join(ws, `part-${i}.txt`), `${i}`.repeat(ANSWER_BUDGET_BYTES / 4));
    workspaceUri = pathToFileURL(ws).href;
    server = await connect('v1', { args: ['--workspace', workspaceUri], inProcess: true });
  });
  after(async () => {
    await server.close();
    removeDir(base);
  });

  for (const row of ROWS) {
    test(`${row.tool}: pages within the budget, each cursor in the text too, together every entry once and in order`, async () => {
      const collected: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const result = await server.call(row.tool, { workspaceUri, ...row.args, ...(cursor !== undefined ? { cursor } : {}) });
        const structured = expectOk(result, `${row.tool} page ${pages}`);
        assert.ok(Buffer.byteLength(JSON.stringify(structured)) <= ANSWER_BUDGET_BYTES + 512, `page ${pages}: ${JSON.stringify(structured).length} bytes`);
        assert.ok(Buffer.byteLength(textOf(result)) <= ANSWER_BUDGET_BYTES + 512, `page ${pages}'s text`);
        assert.equal(structured.truncated, structured.nextCursor !== undefined);
        if (structured.nextCursor !== undefined) assert.ok(textOf(result).includes(`cursor ${structured.nextCursor}`), 'the text says how to go on');
        collected.push(...row.entries(structured));
        cursor = structured.nextCursor;
        pages += 1;
      } while (cursor !== undefined && pages < 100);
      assert.equal(cursor, undefined, 'the last page has no cursor');
      assert.ok(pages >= 2, `${row.tool}: ${pages} page(s): the fixture does not pass the budget`);
      const expected = files;
      // A continued tree repeats the folders it goes on inside; files are never repeated.
      assert.equal(new Set(collected).size, collected.length, 'no entry twice');
      assert.deepEqual(row.tool === 'search_files' ? collected : [...collected].sort(), expected);
    });
  }

  test('list_directory: pages within the budget, its text naming the cursor, together every entry once and in order', async () => {
    const collected: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = await server.call('list_directory', { workspaceUri, path: 'flat', ...(cursor !== undefined ? { cursor } : {}) });
      assert.ok(Buffer.byteLength(textOf(result)) <= ANSWER_BUDGET_BYTES + 512, `page ${pages}'s text`);
      const listing = listingOf(result, `page ${pages}`);
      collected.push(...listing.files);
      cursor = listing.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 100);
    assert.ok(pages >= 2, `${pages} page(s): the fixture does not pass the budget`);
    assert.deepEqual(collected, Array.from({ length: 3000 }, (_, i) => `entry-with-a-long-name-${String(i).padStart(5, '0')}`));
  });

  test('a continued directory_tree shows again the folders it goes on inside, marked in the text', async () => {
    const first = expectOk(await server.call('directory_tree', { workspaceUri, path: 'wide' }), 'first page');
    const second = await server.call('directory_tree', { workspaceUri, path: 'wide', cursor: first.nextCursor });
    const tree = expectOk(second, 'second page').tree as TreeNode[];
    const [firstLine, secondLine] = textOf(second).split('\n');
    assert.match(firstLine!, /^folder-\d\d\/ \(continued\)$/);
    assert.equal(tree[0]!.name, firstLine!.split('/')[0], 'the page starts inside the folder it continues');
    // The first page stopped inside a nested folder: it is shown again below its top folder.
    assert.match(secondLine!, /^ {2}nested-\d\/ \(continued\)$/);
  });

  test('read_multiple_files: the files past the budget are named, to read in the next call; one larger than an answer is an error', async () => {
    const paths = Array.from({ length: 6 }, (_, i) => `part-${i}.txt`);
    const text = textOf(await server.call('read_multiple_files', { workspaceUri, paths }));
    assert.ok(Buffer.byteLength(text) <= ANSWER_BUDGET_BYTES, `${Buffer.byteLength(text)} bytes`);
    const rest = /call again with paths (\[.*\])\)$/.exec(text);
    assert.ok(rest, text.slice(-300));
    const left = JSON.parse(rest[1]!) as string[];
    assert.ok(left.length > 0 && left.length < paths.length);
    assert.deepEqual(left, paths.slice(paths.length - left.length), 'the rest, in order');
    const next = textOf(await server.call('read_multiple_files', { workspaceUri, paths: left }));
    assert.ok(next.startsWith(`${left[0]}:\n`), next.slice(0, 100));

    fs.writeFileSync(path.join(base, 'ws', 'huge.txt'), 'h'.repeat(ANSWER_BUDGET_BYTES * 2));
    const huge = textOf(await server.call('read_multiple_files', { workspaceUri, paths: ['huge.txt', 'part-0.txt'] }));
    assert.match(huge, /^huge\.txt: Error \(EFBIG\): not read: larger than one answer/);
    assert.match(huge, /\n---\npart-0\.txt:\n0+$/, 'the next file is still read');
  });

  test('a cursor that is not one is refused with what to do, and nothing is listed', async () => {
    for (const cursor of ['not a cursor', Buffer.from(JSON.stringify({ walk: ['..', 'x'] })).toString('base64url'), Buffer.from(JSON.stringify({ after: 'a/b' })).toString('base64url')]) {
      for (const tool of ['search_files', 'directory_tree', 'list_directory', 'list_directory_with_sizes']) {
        const result = await server.call(tool, { workspaceUri, path: 'wide', pattern: '*', cursor });
        assert.equal(result.isError, true, `${tool} ${cursor}`);
        assert.match(textOf(result), /Invalid cursor .*pass the nextCursor of the previous answer exactly/);
      }
    }
  });
});
