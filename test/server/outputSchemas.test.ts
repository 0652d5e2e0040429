// Every tool's structured result against the output schema tools/list advertises, success and
// refusal alike, under both clients. The server does not check its own results at run time on the
// 2025-11-25 path (directCalls.ts), so this is where a result that drifts from its schema fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ROWS, writeEveryToolTree } from './everyTool.js';
import { CLIENT_KINDS, connect, fileUri, makeTempDir, refusalOf, removeDir, textOf, type ListedTool, type Session } from './helpers.js';

for (const { kind, version } of CLIENT_KINDS) {
  describe(`every structured result matches its advertised output schema (${kind} client, ${version})`, () => {
    let base: string;
    let ws: string;
    let session: Session;
    let tools: Map<string, ListedTool>;
    const validators = new AjvJsonSchemaValidator();

    before(async () => {
      base = makeTempDir();
      ws = writeEveryToolTree(base);
      session = await connect(kind, { inProcess: true, args: ['--workspace', fileUri(ws)] });
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
