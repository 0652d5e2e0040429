// The secrets policy through the server: a client with elicitation (both eras) is asked, and
// allow once asks again next time, allow for the session does not, refuse refuses; a client
// without elicitation is refused with ERR_SECRET and the setting that would allow it; every tool
// and resources/read on a secret, nothing of its content in any answer; Claude Code's deny rules.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { CLIENT_KINDS, connect, expectContent, expectOk, makeFastTempDir, readLog, refusalOf, removeDir, textOf, writeTree, type Session, type ToolResult } from './helpers.js';

const SECRET = 'TOKEN=sk-live-5ecret-value';
const KEY = 'BEGIN-PRIVATE-KEY-material';

function answerAll(result: ToolResult | unknown): string {
  return JSON.stringify(result);
}

describe('secrets ask first', () => {
  let base: string;
  let ws: string;
  let workspaceUri: string;

  before(() => {
    base = makeFastTempDir('bi-secrets-');
    ws = path.join(base, 'ws');
    writeTree(base, {
      'ws/.env': `${SECRET}\n`,
      'ws/app/server.pem': `${KEY}\n`,
      'ws/docs/readme.md': 'hello\n',
      'ws/docs/private.md': 'private notes\n',
      'ws/.ssh/id_ed25519': `${KEY}\n`,
      'ws/.claude/settings.json': '{\n  "permissions": {\n    "deny": [\n      "Read(./docs/private.md)"\n    ]\n  }\n}\n',
    });
    fs.symlinkSync('../.env', path.join(ws, 'docs', 'settings.txt'));
    workspaceUri = pathToFileURL(ws).href;
  });
  after(() => removeDir(base));

  for (const { kind, version } of CLIENT_KINDS) {
    describe(`${kind} (${version}) with elicitation`, () => {
      let session: Session;
      let answer = 'once';
      const asked: string[] = [];
      before(async () => {
        session = await connect(kind, {
          args: ['--workspace', workspaceUri],
          inProcess: true,
          elicit: (params) => {
            asked.push(params.message);
            return answer === 'decline' ? { action: 'decline' } : { action: 'accept', content: { answer } };
          },
        });
      });
      after(async () => session.close());

      test('allow once reads it, and the next read asks again', async () => {
        answer = 'once';
        asked.length = 0;
        assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: '.env' }), 'once'), `${SECRET}\n`);
        assert.equal(asked.length, 1);
        assert.match(asked[0]!, /read "\.env" \(secret pattern "\.env\*", default\)/);
        assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: '.env' }), 'again'), `${SECRET}\n`);
        assert.equal(asked.length, 2);
      });
      test('refuse refuses with ERR_SECRET, and nothing of the file is in the answer', async () => {
        answer = 'refuse';
        asked.length = 0;
        const result = await session.call('read_text_file', { workspaceUri, path: 'docs/settings.txt' });
        assert.equal(refusalOf(result)?.code, 'ERR_SECRET');
        assert.equal(asked.length, 1);
        assert.ok(!answerAll(result).includes('sk-live'));
        answer = 'decline';
        assert.equal(refusalOf(await session.call('read_text_file', { workspaceUri, path: '.env' }))?.code, 'ERR_SECRET');
      });
      test('allow for the session reads it without asking again; a change is asked on its own', async () => {
        answer = 'session';
        asked.length = 0;
        assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: 'app/server.pem' }), 'session'), `${KEY}\n`);
        answer = 'refuse';
        assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: 'app/server.pem' }), 'session again'), `${KEY}\n`);
        assert.equal(asked.length, 1);
        const write = await session.call('write_file', { workspaceUri, path: 'app/server.pem', content: 'x' });
        assert.equal(refusalOf(write)?.code, 'ERR_SECRET');
        assert.equal(asked.length, 2);
        assert.equal(fs.readFileSync(path.join(ws, 'app/server.pem'), 'utf8'), `${KEY}\n`);
      });
      test('after consent a held file is still listed marked and left out of a search, and consent for one file lifts no other', async () => {
        answer = 'session';
        asked.length = 0;
        assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: '.ssh/id_ed25519' }), 'consented'), `${KEY}\n`);
        assert.equal(asked.length, 1);
        const lines = (text: string) => text.split('\n').map((line) => line.trim());
        assert.ok(lines(textOf(await session.call('directory_tree', { workspaceUri, path: '.' }))).includes('id_ed25519 (asks first)'));
        // Listing the held folder is asked about for itself: the file's consent is not the folder's.
        assert.ok(lines(textOf(await session.call('list_directory', { workspaceUri, path: '.ssh' }))).includes('id_ed25519 (asks first)'));
        assert.match(asked.at(-1)!, /read "\.ssh" /);
        const search = await session.call('search_file_contents', { workspaceUri, path: '.', pattern: 'PRIVATE' });
        assert.ok(!answerAll(search).includes('PRIVATE-KEY'), textOf(search));
        answer = 'refuse';
        assert.equal(refusalOf(await session.call('read_text_file', { workspaceUri, path: '.env' }))?.code, 'ERR_SECRET');
        assert.equal(refusalOf(await session.call('read_text_file', { workspaceUri, path: '.ssh/other' }))?.code, 'ERR_SECRET');
        assert.equal(asked.length, 4, asked.join('\n'));
      });
      test('the answer never comes from the arguments', async () => {
        answer = 'refuse';
        const result = await session.call('read_text_file', { workspaceUri, path: '.env', answer: 'session', consent: 'once' });
        assert.equal(refusalOf(result)?.code, 'ERR_SECRET');
      });
    });

    describe(`${kind} (${version}) without elicitation`, () => {
      let session: Session;
      before(async () => {
        session = await connect(kind, { args: ['--workspace', workspaceUri, '--claude-code-deny'], inProcess: true });
      });
      after(async () => session.close());

      test('refused with ERR_SECRET, naming the pattern and the setting that would allow it', async () => {
        const refusal = refusalOf(await session.call('read_text_file', { workspaceUri, path: '.env' }));
        assert.equal(refusal?.code, 'ERR_SECRET');
        assert.equal(refusal?.stage, 'secrets');
        assert.match(String(refusal?.reason), /^Asks first: reading "\.env".*"\.env\*" \(default\).*"!\.env" to boundaryInspector\.secrets\.patterns/);
      });

      // Every tool that could carry content, and resources/read: nothing of the secret in any answer.
      const CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
        ['read_text_file', { path: '.env' }],
        ['read_text_file', { path: 'docs/settings.txt' }],
        ['read_media_file', { path: '.env' }],
        ['read_multiple_files', { paths: ['docs/readme.md', '.env', 'app/server.pem'] }],
        ['search_file_contents', { path: '.', pattern: 'TOKEN' }],
        ['search_file_contents', { path: '.', pattern: 'PRIVATE', regex: true, context: 3 }],
        ['edit_file', { path: '.env', edits: [{ oldText: 'TOKEN', newText: 'X' }], dryRun: true }],
        ['write_file', { path: '.env', content: 'overwritten' }],
        ['move_file', { source: '.env', destination: 'docs/env.txt' }],
        ['move_file', { source: 'docs/readme.md', destination: '.env.local' }],
        ['get_file_info', { path: '.env' }],
        ['list_directory', { path: '.' }],
        ['directory_tree', { path: '.' }],
        ['search_files', { path: '.', pattern: '**/*env*' }],
      ];
      for (const [tool, args] of CALLS) {
        test(`${tool} ${JSON.stringify(args)}`, async () => {
          const result = await session.call(tool, { workspaceUri, ...args });
          const text = answerAll(result);
          assert.ok(!text.includes('sk-live') && !text.includes('PRIVATE-KEY'), `${tool}: ${text.slice(0, 400)}`);
        });
      }
      test('listings show held names marked: asks first, or refused by policy', async () => {
        const lines = (text: string) => text.split('\n').map((line) => line.trim());
        assert.ok(lines(textOf(await session.call('list_directory', { workspaceUri, path: '.' }))).includes('.env (asks first)'));
        assert.ok(lines(textOf(await session.call('list_directory', { workspaceUri, path: '.' }))).includes('.ssh (asks first)'));
        const docs = lines(textOf(await session.call('list_directory', { workspaceUri, path: 'docs' })));
        assert.ok(docs.includes('private.md (refused by policy)') && docs.includes('readme.md'), docs.join('|'));

        const sized = expectOk(await session.call('list_directory_with_sizes', { workspaceUri, path: '.' }), 'sizes');
        const heldOf = (entries: { name: string; held?: string }[]) => Object.fromEntries(entries.filter((entry) => entry.held !== undefined).map((entry) => [entry.name, entry.held]));
        assert.deepEqual(heldOf(sized.entries), { '.env': 'ask', '.ssh': 'ask' });

        const tree = await session.call('directory_tree', { workspaceUri, path: '.' });
        const nodes = (expectOk(tree, 'tree').tree as { name: string; held?: string; children?: unknown[] }[]);
        assert.deepEqual(heldOf(nodes), { '.env': 'ask', '.ssh': 'ask' });
        const docsNode = nodes.find((node) => node.name === 'docs')!;
        assert.deepEqual(heldOf(docsNode.children as { name: string; held?: string }[]), { 'private.md': 'deny' });
        const treeLines = lines(textOf(tree));
        for (const line of ['.env (asks first)', '.ssh/ (asks first)', 'id_ed25519 (asks first)', 'server.pem (asks first)', 'private.md (refused by policy)', 'readme.md']) assert.ok(treeLines.includes(line), `${line} in ${treeLines.join('|')}`);

        const found = await session.call('search_files', { workspaceUri, path: '.', pattern: '*.*' });
        assert.deepEqual(expectOk(found, 'search_files').held, { '.env': 'ask', '.ssh/': 'ask', 'app/server.pem': 'ask', 'docs/private.md': 'deny' });
        assert.ok(lines(textOf(found)).includes('app/server.pem (asks first)'), textOf(found));
        assert.ok(lines(textOf(found)).includes('docs/readme.md'), textOf(found));

        const resources = new Map((await session.listResources()).map((resource) => [resource.name, resource.description]));
        assert.match(String(resources.get('.env')), /asks first/);
        assert.match(String(resources.get('.ssh/id_ed25519')), /asks first/);
        assert.match(String(resources.get('docs/private.md')), /refused by policy/);
        assert.equal(resources.get('docs/readme.md'), undefined);
      });
      test('search_file_contents says how many held files it did not search', async () => {
        const result = await session.call('search_file_contents', { workspaceUri, path: '.', pattern: 'e' });
        assert.match(textOf(result), /\(3 files and 1 folder held by the secrets policy not searched/);
        const { held, heldFolders } = expectOk(result, 'search_file_contents').skipped;
        assert.deepEqual({ held, heldFolders }, { held: 3, heldFolders: 1 });
      });
      test('nothing on disk changed', () => {
        assert.equal(fs.readFileSync(path.join(ws, '.env'), 'utf8'), `${SECRET}\n`);
        assert.ok(!fs.existsSync(path.join(ws, '.env.local')));
        assert.ok(fs.existsSync(path.join(ws, 'docs/readme.md')));
      });
      test('resources/read of a secret is refused with ERR_SECRET', async () => {
        await assert.rejects(session.readResource(pathToFileURL(path.join(ws, '.env')).href), (error: Error) => {
          assert.match(error.message, /ERR_SECRET at secrets/);
          assert.ok(!error.message.includes('sk-live'));
          return true;
        });
      });
      test("a Claude Code deny rule in .claude/settings.json refuses by policy: read_text_file, search_file_contents, resources/read", async () => {
        const refusal = refusalOf(await session.call('read_text_file', { workspaceUri, path: 'docs/private.md' }));
        assert.equal(refusal?.code, 'ERR_SECRET');
        assert.match(String(refusal?.reason), /^Refused by policy: reading "docs\/private\.md" is denied by "Read\(\.\/docs\/private\.md\)" \(\.claude\/settings\.json line 4\)/);
        const searched = await session.call('search_file_contents', { workspaceUri, path: 'docs', pattern: 'notes' });
        const search = textOf(searched);
        assert.ok(!search.includes('private notes'), search);
        assert.match(search, /\(1 file held by the secrets policy not searched/);
        assert.equal(expectOk(searched, 'search_file_contents').skipped.held, 1);
        await assert.rejects(session.readResource(pathToFileURL(path.join(ws, 'docs/private.md')).href), /ERR_SECRET at secrets/);
        // Read rules hold reads only: the readme beside it is read.
        assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: 'docs/readme.md' }), 'readme'), 'hello\n');
      });
    });
  }

  for (const { kind, version } of CLIENT_KINDS) {
    test(`the refusal log (${kind}, ${version}): a question allowed is logged as asked, a question refused as asked and refused, no question as refused`, async () => {
      const log = path.join(base, `refusals-${kind}.jsonl`);
      let answer = 'once';
      const session = await connect(kind, {
        args: ['--workspace', workspaceUri, '--refusal-log', log],
        inProcess: true,
        elicit: () => ({ action: 'accept', content: { answer } }),
      });
      const lines = () => readLog(log).map((line) => `${line.event ?? 'refused'} ${line.code} ${line.input}`);
      try {
        assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: '.env' }), 'allowed'), `${SECRET}\n`);
        assert.deepEqual(lines(), ['asked ERR_SECRET .env']);
        answer = 'refuse';
        assert.equal(refusalOf(await session.call('read_text_file', { workspaceUri, path: 'app/server.pem' }))?.code, 'ERR_SECRET');
        assert.deepEqual(lines(), ['asked ERR_SECRET .env', 'asked ERR_SECRET app/server.pem', 'refused ERR_SECRET app/server.pem']);
        const [asked] = readLog(log);
        assert.equal(asked!.stage, 'secrets');
        assert.match(asked!.reason, /^Asks first/);
        // No client message for a question: the client is the one asking it.
        assert.ok(!session.logs.some((seen) => JSON.stringify(seen).includes('"input":".env"')), JSON.stringify(session.logs));
      } finally {
        await session.close();
      }
      const plain = await connect(kind, { args: ['--workspace', workspaceUri, '--refusal-log', log], inProcess: true });
      try {
        fs.rmSync(log);
        assert.equal(refusalOf(await plain.call('read_text_file', { workspaceUri, path: '.env' }))?.code, 'ERR_SECRET');
        assert.deepEqual(lines(), ['refused ERR_SECRET .env']);
      } finally {
        await plain.close();
      }
    });
  }

  test('with elicitation, a deny rule is never asked about', async () => {
    const asked: string[] = [];
    const session = await connect('v1', {
      args: ['--workspace', workspaceUri, '--claude-code-deny'],
      inProcess: true,
      elicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { answer: 'session' } };
      },
    });
    try {
      assert.equal(refusalOf(await session.call('read_text_file', { workspaceUri, path: 'docs/private.md' }))?.code, 'ERR_SECRET');
      assert.deepEqual(asked, []);
    } finally {
      await session.close();
    }
  });

  test('--no-default-secrets and --secret', async () => {
    const session = await connect('v1', { args: ['--workspace', workspaceUri, '--no-default-secrets', '--secret', 'docs/readme.md'], inProcess: true });
    try {
      assert.equal(expectContent(await session.call('read_text_file', { workspaceUri, path: '.env' }), '.env'), `${SECRET}\n`);
      const refusal = refusalOf(await session.call('read_text_file', { workspaceUri, path: 'docs/readme.md' }));
      assert.match(String(refusal?.reason), /"docs\/readme\.md" \(flag --secret\).*remove it from flag --secret/);
    } finally {
      await session.close();
    }
  });
});
