// Every tool's structured result against the output schema tools/list advertises, success and
// refusal alike, under both clients. The server does not check its own results at run time on the
// 2025-11-25 path (directCalls.ts), so this is where a result that drifts from its schema fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CLIENT_KINDS, connect, fileUri, makeTempDir, refusalOf, removeDir, textOf, writeTree, type ListedTool, type Session } from './helpers.js';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

type Expect = 'ok' | 'refused';

/** One call per row; every tool has a success and a refusal. */
const ROWS: readonly (readonly [tool: string, args: Record<string, unknown>, expect: Expect])[] = [
  ['list_workspaces', {}, 'ok'],
  // explain_path explains an outside path rather than refusing it; a refused workspace is a refusal.
  ['explain_path', { path: 'docs/readme.md' }, 'ok'],
  ['explain_path', { path: '../outside.txt' }, 'ok'],
  ['read_text_file', { path: 'docs/readme.md' }, 'ok'],
  ['read_text_file', { path: '../outside.txt' }, 'refused'],
  ['read_media_file', { path: 'media/pixel.png' }, 'ok'],
  ['read_media_file', { path: '../outside.txt' }, 'refused'],
  ['read_multiple_files', { paths: ['docs/readme.md', '../outside.txt'] }, 'ok'],
  ['write_file', { path: 'out/new.txt', content: 'new' }, 'ok'],
  ['write_file', { path: '../outside.txt', content: 'x' }, 'refused'],
  ['edit_file', { path: 'edit/e.txt', edits: [{ oldText: 'alpha', newText: 'ALPHA' }] }, 'ok'],
  ['edit_file', { path: 'edit/e.txt', edits: [{ oldText: 'beta', newText: 'BETA' }], dryRun: true }, 'ok'],
  ['edit_file', { path: '../outside.txt', edits: [{ oldText: 'o', newText: 'x' }] }, 'refused'],
  ['create_directory', { path: 'made/deep' }, 'ok'],
  ['create_directory', { path: '../made' }, 'refused'],
  ['list_directory', { path: 'docs' }, 'ok'],
  ['list_directory', { path: '..' }, 'refused'],
  ['list_directory_with_sizes', { path: 'docs', sortBy: 'size' }, 'ok'],
  ['list_directory_with_sizes', { path: '..' }, 'refused'],
  ['directory_tree', { path: '.', excludePatterns: ['media'] }, 'ok'],
  ['directory_tree', { path: '..' }, 'refused'],
  ['move_file', { source: 'mv/a.txt', destination: 'mv/b.txt' }, 'ok'],
  ['move_file', { source: 'mv/b.txt', destination: '../b.txt' }, 'refused'],
  ['search_files', { path: '.', pattern: '**/*.md' }, 'ok'],
  ['search_files', { path: '..', pattern: '*' }, 'refused'],
  ['get_file_info', { path: 'docs/readme.md' }, 'ok'],
  ['get_file_info', { path: 'docs/link' }, 'ok'],
  ['get_file_info', { path: '../outside.txt' }, 'refused'],
  ['delete_path', { path: 'del/x.txt' }, 'ok'],
  ['delete_path', { path: '../outside.txt' }, 'refused'],
  // audit_workspace takes no path: its refusal is a workspace that was not granted.
  ['audit_workspace', { maxEntries: 100 }, 'ok'],
  ['audit_workspace', { workspaceUri: 'file:///not/granted' }, 'refused'],
];

for (const { kind, version } of CLIENT_KINDS) {
  describe(`every structured result matches its advertised output schema (${kind} client, ${version})`, () => {
    let base: string;
    let ws: string;
    let session: Session;
    let tools: Map<string, ListedTool>;
    const validators = new AjvJsonSchemaValidator();

    before(async () => {
      base = makeTempDir();
      ws = path.join(base, 'ws');
      writeTree(base, {
        'outside.txt': 'outside',
        'ws/docs/readme.md': 'line 1\nline 2\n',
        'ws/media/pixel.png': PNG,
        'ws/out/.keep': '',
        'ws/edit/e.txt': 'alpha\nbeta\n',
        'ws/mv/a.txt': 'moving',
        'ws/del/x.txt': 'bye',
      });
      fs.symlinkSync('readme.md', path.join(ws, 'docs', 'link'));
      session = await connect(kind, { args: ['--workspace', fileUri(ws)] });
      tools = new Map((await session.listTools()).map((tool) => [tool.name, tool]));
    });

    after(async () => {
      await session?.close();
      removeDir(base);
    });

    test('the rows cover every tool, with a success and a refusal for each tool that takes a path', () => {
      assert.deepEqual([...new Set(ROWS.map(([tool]) => tool))].sort(), [...tools.keys()].sort());
      for (const tool of tools.keys()) {
        if (tool === 'list_workspaces' || tool === 'explain_path' || tool === 'read_multiple_files') continue;
        assert.ok(ROWS.some(([name, , expect]) => name === tool && expect === 'refused'), `${tool} has no refusal row`);
      }
    });

    test('the validator rejects what a schema does not describe', () => {
      const schema = tools.get('get_file_info')!.outputSchema!;
      assert.equal(validators.getValidator(schema)({ path: 1 }).valid, false);
    });

    for (const [tool, args, expect] of ROWS) {
      test(`${tool} ${JSON.stringify(args).slice(0, 80)}: ${expect}`, async () => {
        const workspaceUri = fileUri(ws);
        const result = await session.call(tool, tool === 'list_workspaces' ? args : { workspaceUri, ...args });
        const listed = tools.get(tool)!;
        assert.equal(result.isError === true, expect === 'refused', `${tool}: ${textOf(result).slice(0, 300)}`);
        if (expect === 'refused') {
          // An error result, which no output schema describes: its fields are in _meta, never in structuredContent.
          assert.equal(refusalOf(result)?.refused, true, `${tool}: a refusal carries its fields`);
          assert.equal(result.structuredContent, undefined, `${tool}: a refusal has no structuredContent`);
          return;
        }
        if (listed.outputSchema === undefined) {
          // A content tool: its text is its answer.
          assert.equal(result.structuredContent, undefined, tool);
          return;
        }
        assert.ok(result.structuredContent, `${tool}: no structuredContent`);
        const verdict = validators.getValidator(listed.outputSchema)(result.structuredContent);
        assert.equal(verdict.valid, true, `${tool}: ${verdict.errorMessage}\n${JSON.stringify(result.structuredContent).slice(0, 500)}`);
      });
    }
  });
}
