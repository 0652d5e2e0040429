// Resources, end to end, under both clients: the URIs the server publishes must round-trip to the
// files they name (names with #, %, spaces, emoji), read back with the right content, and a
// resources/read of a URI outside every workspace is refused through the same pipeline as the
// tools, and logged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_KINDS, connect, fileUri, makeTempDir, readLog, removeDir, writeTree, type Session } from './helpers.js';

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0xff, 0xfe, 0x00, 0x80]), Buffer.from('\n%%EOF\n')]);
const SECRETS = ['sibling secret', 'parent private', 'outside secret'];

const FILES: Readonly<Record<string, string | Buffer>> = {
  'report#2 draft.pdf': PDF,
  'c#/notes.md': '# C sharp notes\n',
  '🦄 unicorn ünïcödé.txt': 'emoji name\n',
  '100% done.txt': 'percent\n',
  'what?.txt': 'question\n',
  'space name/x y.md': 'spaces\n',
  'plain.txt': 'plain\n',
  // Valid UTF-8 with NUL bytes is not text; a byte order mark is part of a text.
  'data.bin': Buffer.from('ascii\0bytes\0', 'latin1'),
  'marked.txt': '\ufeffmarked\n',
  '.git/config': 'skipped folder\n',
  'node_modules/m/index.js': 'skipped folder\n',
};
/** What resources/list must show: every file but those under .git and node_modules, and never a link. */
const LISTED = ['report#2 draft.pdf', 'c#/notes.md', '🦄 unicorn ünïcödé.txt', '100% done.txt', 'what?.txt', 'space name/x y.md', 'plain.txt', 'data.bin', 'marked.txt'];

for (const { kind, version } of CLIENT_KINDS) {
  describe(`resources (${kind} client, ${version})`, () => {
    let base: string;
    let ws: string;
    let W: string;
    let log: string;
    let session: Session;

    before(async () => {
      base = makeTempDir();
      ws = path.join(base, 'ws');
      writeTree(ws, FILES);
      writeTree(base, {
        'ws-evil/secret.md': 'sibling secret',
        'private.md': 'parent private',
        'outside/secret.txt': 'outside secret',
      });
      fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(ws, 'link-out'));
      fs.symlinkSync(path.join(base, 'outside'), path.join(ws, 'link-dir'));
      W = fileUri(ws);
      log = path.join(base, 'refusals.jsonl');
      session = await connect(kind, { inProcess: true, args: ['--workspace', W, '--refusal-log', log] });
    });
    after(async () => {
      await session?.close();
      removeDir(base);
    });

    test('resources/list lists the files, skips .git and node_modules, and never lists or follows a link', async () => {
      const resources = await session.listResources();
      assert.deepEqual(resources.map((resource) => resource.name).sort(), [...LISTED].sort());
      const pdf = resources.find((resource) => resource.name === 'report#2 draft.pdf');
      assert.equal(pdf?.mimeType, 'application/pdf');
      assert.equal(resources.find((resource) => resource.name === 'c#/notes.md')?.mimeType, 'text/markdown');
    });

    test('every listed URI round-trips with fileURLToPath to the real file, and is pathToFileURL of it', async () => {
      for (const resource of await session.listResources()) {
        const real = path.join(ws, ...resource.name.split('/'));
        assert.equal(fileURLToPath(resource.uri), real, `${resource.name}: ${resource.uri} does not convert back to its file`);
        assert.equal(resource.uri, fileUri(real), `${resource.name}: the URI is pathToFileURL of the file`);
        assert.ok(!/[#?\s]/.test(resource.uri.slice('file://'.length)), `${resource.name}: # ? and spaces are percent-encoded in ${resource.uri}`);
      }
    });

    test('every listed URI reads back through resources/read with the file\'s exact bytes', async () => {
      for (const resource of await session.listResources()) {
        const contents = await session.readResource(resource.uri);
        assert.equal(contents.length, 1, resource.name);
        const [content] = contents;
        assert.equal(content!.uri, resource.uri, `${resource.name}: the content names the URI asked for`);
        assert.equal(content!.mimeType, resource.mimeType, `${resource.name}: mimeType`);
        const expected = Buffer.from(FILES[resource.name]!);
        const got = content!.text !== undefined ? Buffer.from(content!.text, 'utf8') : Buffer.from(content!.blob ?? '', 'base64');
        assert.deepEqual(got, expected, `${resource.name}: content`);
      }
      const [pdf] = await session.readResource(fileUri(path.join(ws, 'report#2 draft.pdf')));
      assert.equal(pdf!.text, undefined, 'bytes that are not UTF-8 come back as a blob');
      assert.deepEqual(Buffer.from(pdf!.blob ?? '', 'base64'), PDF);
      const [data] = await session.readResource(fileUri(path.join(ws, 'data.bin')));
      assert.equal(data!.text, undefined, 'UTF-8 holding NUL bytes is not text: it comes back as a blob');
      const [marked] = await session.readResource(fileUri(path.join(ws, 'marked.txt')));
      assert.equal(marked!.text, '\ufeffmarked\n', 'a text keeps its byte order mark');
    });

    test('resources/read of a file inside the workspace that does not exist is "resource not found", not an internal error', async () => {
      await assert.rejects(
        session.readResource(`${W}/no-such-file.md`),
        (error: { code?: unknown; message?: string }) => error.code === -32602 && /Resource not found/.test(String(error.message)),
      );
    });

    test('resources/read outside the workspace is an error naming the code, leaks nothing, and is logged', async () => {
      const cases: [string, () => string, string][] = [
        ['the parent through %2e%2e', () => `${W}/%2e%2e/private.md`, 'ERR_OUTSIDE'],
        ['the sibling whose name starts with the workspace name', () => fileUri(path.join(base, 'ws-evil/secret.md')), 'ERR_OUTSIDE'],
        ['a link to an outside file', () => `${W}/link-out`, 'ERR_SYMLINK_ESCAPE'],
        ['a file under a link to an outside folder', () => `${W}/link-dir/secret.txt`, 'ERR_SYMLINK_ESCAPE'],
        ['a listed file spelled with localhost', () => `file://localhost${ws}/plain.txt`, 'ERR_HOST'],
        ['an unencoded # (c#/notes.md): a fragment, not a name', () => `${W}/c#/notes.md`, 'ERR_QUERY_OR_FRAGMENT'],
        ['another scheme', () => `https://example.com${ws}/plain.txt`, 'ERR_SCHEME'],
      ];
      for (const [what, uri, code] of cases) {
        let caught: unknown;
        try {
          const contents = await session.readResource(uri());
          assert.fail(`${what}: ${uri()} was read: ${JSON.stringify(contents).slice(0, 200)}`);
        } catch (error) {
          caught = error;
        }
        const error = caught as { message?: string; code?: unknown; data?: { code?: string } };
        assert.ok(!(caught instanceof assert.AssertionError), String(error.message));
        assert.match(String(error.message), new RegExp(code), `${what}: the error names ${code}`);
        assert.equal(error.code, -32602, `${what}: an invalid-params protocol error`);
        for (const secret of SECRETS) assert.ok(!String(error.message).includes(secret), `${what}: leaked ${secret}`);
      }
      const lines = readLog(log).filter((line) => line.tool === 'resources/read');
      assert.deepEqual(lines.map((line) => [line.input, line.code]), cases.map(([, uri, code]) => [uri(), code]), 'each refused read is logged with its URI and code');
      for (const line of lines) {
        assert.equal(typeof line.time, 'string');
        assert.equal(typeof line.reason, 'string');
        assert.ok(line.trace && Array.isArray(line.trace.stages), 'the log line carries the trace');
      }
      assert.equal(fs.readFileSync(path.join(base, 'private.md'), 'utf8'), 'parent private');
    });
  });
}
