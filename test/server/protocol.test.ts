// The server as an MCP peer: what tools/list promises, the legacy roots adapter in both eras
// (MRTR input_required on 2026-07-28, never a live server-to-client request on 2025-11-25), stdout
// carrying JSON-RPC only, and start-up errors. The operating-system sandbox is in sandbox.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CLIENT_KINDS,
  assertJsonRpc,
  connect,
  expectContent,
  expectOk,
  expectRefusal,
  fileUri,
  makeTempDir,
  rawSession,
  removeDir,
  repoRoot,
  runServerToExit,
  serverPath,
  serverToClientRequests,
  textOf,
  writeTree,
  type ListedTool,
  type Session,
  type Wire,
  type WireMessage,
  refusalOf,
} from './helpers.js';
import { RawServer } from './rawServer.js';
import { patience } from '../patience.js';
import { sandboxAvailability } from '../../bench/race/harness.js';
import { OPERATIONS, TOOL_NAMES } from '../../src/shared/operations.js';

// The listed tools and their read-only hints must be the operation table's.
const READ_TOOLS = ['list_workspaces', ...TOOL_NAMES.filter((name) => !OPERATIONS[name].changes)];
const ALL_TOOLS = ['list_workspaces', ...TOOL_NAMES].sort();

/** Every property of a JSON Schema, nested objects and array items included, with its path. */
function propertiesOf(schema: Record<string, any> | undefined, at = ''): [string, Record<string, any>][] {
  if (!schema || typeof schema !== 'object') return [];
  const found: [string, Record<string, any>][] = [];
  for (const [name, property] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
    found.push([`${at}${name}`, property]);
    found.push(...propertiesOf(property, `${at}${name}.`));
  }
  if (schema.items) found.push(...propertiesOf(schema.items, `${at}[].`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of schema[key] ?? []) found.push(...propertiesOf(branch, at));
  return found;
}

/** Every JSON-RPC message on the wire is well formed and nothing failed to parse. */
function assertCleanWire(wire: Wire, what: string): void {
  assert.deepEqual(wire.errors.map((error) => error.message), [], `${what}: the transport reported errors (a non-JSON-RPC line on stdout?)`);
  wire.received.forEach((message, i) => assertJsonRpc(message, `${what}: received #${i + 1}`));
  wire.sent.forEach((message, i) => assertJsonRpc(message, `${what}: sent #${i + 1}`));
}

// Each suite below has its own folders and servers: the suites run side by side, each one's
// tests one at a time.
describe('the server as an MCP peer', { concurrency: true }, () => {
  // ------------------------------------------------------------------------------------------------
  // tools/list
  // ------------------------------------------------------------------------------------------------

  for (const { kind, version } of CLIENT_KINDS) {
    describe(`tools/list (${kind} client, ${version})`, { concurrency: false }, () => {
      let base: string;
      let session: Session;
      let tools: ListedTool[];

      before(async () => {
        base = makeTempDir();
        fs.mkdirSync(path.join(base, 'ws'));
        session = await connect(kind, { args: ['--workspace', fileUri(path.join(base, 'ws'))] });
        tools = await session.listTools();
      });
      after(async () => {
        await session?.close();
        removeDir(base);
      });

      test('lists exactly the seventeen tools: sixteen for the model, compare_deciders for the view', () => {
        assert.equal(session.negotiatedVersion(), version);
        assert.deepEqual(tools.map((tool) => tool.name).sort(), ALL_TOOLS);
      });

      // A tool whose answer is a file's content has no outputSchema: clients that have a structured
      // result show it to the model instead of the text (VS Code does), so the text is the answer.
      const CONTENT_TOOLS = ['read_text_file', 'read_multiple_files', 'list_directory'];

      test('every tool has a title, a description, an object inputSchema, and an outputSchema unless its answer is content', () => {
        for (const tool of tools) {
          assert.ok(tool.title && tool.title.length > 0, `${tool.name}: title`);
          assert.ok(tool.description && tool.description.length > 20, `${tool.name}: description`);
          assert.equal(tool.inputSchema.type, 'object', `${tool.name}: inputSchema`);
          if (CONTENT_TOOLS.includes(tool.name)) {
            assert.equal(tool.outputSchema, undefined, `${tool.name}: its content is its text`);
            continue;
          }
          assert.ok(tool.outputSchema, `${tool.name}: outputSchema`);
          assert.equal(tool.outputSchema.type, 'object', `${tool.name}: outputSchema type`);
        }
      });

      // The definitions go to the model with every request: what they carry beyond the shape costs every turn.
      test('the schemas carry no $schema, no ±2^53-1 bounds and no nullable type arrays, in and out', () => {
        const noise = (schema: unknown, where: string): string[] => {
          if (Array.isArray(schema)) return schema.flatMap((item, i) => noise(item, `${where}[${i}]`));
          if (schema === null || typeof schema !== 'object') return [];
          return Object.entries(schema).flatMap(([key, value]) => [
            ...(key === '$schema' ? [`${where}.$schema`] : []),
            ...((key === 'maximum' || key === 'minimum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER ? [`${where}.${key}`] : []),
            ...(key === 'type' && Array.isArray(value) ? [`${where}.type ${JSON.stringify(value)}`] : []),
            ...noise(value, `${where}.${key}`),
          ]);
        };
        const found = tools.flatMap((tool) => [...noise(tool.inputSchema, `${tool.name}.inputSchema`), ...noise(tool.outputSchema, `${tool.name}.outputSchema`)]);
        assert.deepEqual(found, []);
      });

      test('what workspaceUri and a path are is said once, in list_workspaces\' description', () => {
        const description = tools.find((tool) => tool.name === 'list_workspaces')!.description!;
        assert.match(description, /workspaceUri to every other tool/);
        assert.match(description, /relative to that workspace/);
        for (const tool of tools) {
          for (const name of ['workspaceUri', 'path', 'source', 'destination']) {
            assert.equal(tool.inputSchema.properties?.[name]?.description, undefined, `${tool.name}.${name} repeats it`);
          }
        }
      });

      test('annotations: readOnlyHint, destructiveHint, idempotentHint given, openWorldHint false; read tools read-only, write tools not', () => {
        for (const tool of tools) {
          const a = tool.annotations ?? {};
          for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
            assert.equal(typeof a[hint], 'boolean', `${tool.name}: ${hint} is missing`);
          }
          assert.equal(a.openWorldHint, false, `${tool.name}: openWorldHint`);
          assert.equal(a.readOnlyHint, READ_TOOLS.includes(tool.name), `${tool.name}: readOnlyHint`);
          if (a.readOnlyHint) assert.equal(a.destructiveHint, false, `${tool.name}: a read-only tool is not destructive`);
        }
        assert.equal(tools.find((tool) => tool.name === 'delete_path')?.annotations?.destructiveHint, true, 'delete_path is destructive');
      });

      test('every workspace tool takes workspaceUri; an outputSchema describes the tool\'s own result, never a refusal', () => {
        for (const tool of tools.filter((candidate) => candidate.name !== 'list_workspaces')) {
          const property = tool.inputSchema.properties?.workspaceUri;
          assert.ok(property, `${tool.name}: no workspaceUri`);
          assert.equal(property.type, 'string');
          if (CONTENT_TOOLS.includes(tool.name)) continue;
          const fields = propertiesOf(tool.outputSchema).map(([name]) => name);
          assert.ok(!fields.includes('refused'), `${tool.name}: the outputSchema describes a refusal`);
          assert.equal(tool.outputSchema?.anyOf, undefined, `${tool.name}: the outputSchema is a union`);
        }
        assert.deepEqual(Object.keys(tools.find((tool) => tool.name === 'list_workspaces')!.inputSchema.properties ?? {}), []);
      });

      if (kind === 'v1') {
        test('on the 2025-11-25 connection workspaceUri is required by every workspace tool', () => {
          for (const tool of tools.filter((candidate) => candidate.name !== 'list_workspaces')) {
            assert.ok(tool.inputSchema.required?.includes('workspaceUri'), `${tool.name}: workspaceUri is not required: ${JSON.stringify(tool.inputSchema.required)}`);
          }
        });
      } else {
        test('on the 2026-07-28 connection workspaceUri may be omitted (the legacy roots adapter)', () => {
          for (const tool of tools.filter((candidate) => candidate.name !== 'list_workspaces')) {
            assert.ok(!tool.inputSchema.required?.includes('workspaceUri'), `${tool.name}: workspaceUri is required`);
          }
        });
      }
    });
  }

  // ------------------------------------------------------------------------------------------------
  // The legacy roots adapter
  // ------------------------------------------------------------------------------------------------

  describe('legacy roots adapter on 2026-07-28: roots only choose among grants, through MRTR input_required', { concurrency: false }, () => {
    let base: string;
    let a: string;
    let b: string;
    let A: string;
    let B: string;
    let log: string;
    const roots: { uri: string; name?: string }[] = [];
    let session: Session;

    const setRoots = (...uris: string[]) => roots.splice(0, roots.length, ...uris.map((uri) => ({ uri })));
    const toolCalls = (wire: Wire) => wire.sent.filter((message) => message.method === 'tools/call');
    const answerTo = (wire: Wire, request: WireMessage) => wire.received.find((message) => message.id === request.id && message.method === undefined);

    before(async () => {
      base = makeTempDir();
      a = path.join(base, 'alpha');
      b = path.join(base, 'beta');
      writeTree(base, { 'alpha/a.txt': 'from alpha', 'beta/a.txt': 'from beta', 'other/a.txt': 'from other' });
      A = fileUri(a);
      B = fileUri(b);
      log = path.join(base, 'refusals.jsonl');
      setRoots(A);
      session = await connect('v2', { args: ['--workspace', A, '--workspace', B, '--refusal-log', log], roots });
    });
    after(async () => {
      await session?.close();
      removeDir(base);
    });

    test('a call without workspaceUri is served from the one granted root, after an input_required round', async () => {
      setRoots(A);
      const callsBefore = toolCalls(session.wire).length;
      const rootsBefore = session.rootsCalls;
      const read = await session.call('read_text_file', { path: 'a.txt' });
      assert.equal(expectContent(read, 'read without workspaceUri'), 'from alpha');

      const calls = toolCalls(session.wire).slice(callsBefore);
      assert.equal(calls.length, 2, 'two tools/call requests: the first, and its retry with the roots');
      const [first, retry] = calls as [WireMessage, WireMessage];
      assert.equal(first.params?.workspaceUri, undefined);
      assert.equal(first.params?.inputResponses, undefined);
      const firstAnswer = answerTo(session.wire, first);
      assert.equal(firstAnswer?.result?.resultType, 'input_required', `the first call was answered: ${JSON.stringify(firstAnswer).slice(0, 300)}`);
      assert.deepEqual((firstAnswer?.result?.inputRequests as Record<string, any>)?.roots?.method, 'roots/list');
      assert.deepEqual((retry.params?.inputResponses as Record<string, any>)?.roots?.roots?.map((root: { uri: string }) => root.uri), [A]);
      assert.equal(answerTo(session.wire, retry)?.result?.resultType ?? 'complete', 'complete');
      assert.equal(session.rootsCalls - rootsBefore, 1, 'the client answered roots/list once');
      assert.deepEqual(serverToClientRequests(session.wire), [], 'no live server-to-client request');
    });

    test('a write without workspaceUri lands in the chosen grant, and only there', async () => {
      setRoots(fileUri(path.join(base, 'other')), A); // the ungranted root is ignored; exactly one grant matches
      expectOk(await session.call('write_file', { path: 'chosen.txt', content: 'chosen' }), 'write without workspaceUri');
      assert.equal(fs.readFileSync(path.join(a, 'chosen.txt'), 'utf8'), 'chosen');
      assert.equal(fs.existsSync(path.join(b, 'chosen.txt')), false);
      assert.equal(fs.existsSync(path.join(base, 'other', 'chosen.txt')), false);
    });

    test('roots that match no grant (or several) are refused ERR_NOT_GRANTED listing the grants; roots never widen a grant', async () => {
      const cases: [string, string[]][] = [
        ['a root that was never granted', [fileUri(path.join(base, 'other'))]],
        ['the parent of the grants', [fileUri(base)]],
        ['a sub-folder of a grant', [fileUri(path.join(a, 'sub'))]],
        ['a sibling-prefix root', [fileUri(`${a}-evil`)]],
        ['a grant spelled with localhost', [`file://localhost${a}`]],
        ['no roots at all', []],
        ['two granted workspaces at once', [A, B]],
      ];
      for (const [what, uris] of cases) {
        setRoots(...uris);
        const result = await session.call('write_file', { path: 'planted.txt', content: 'x' });
        const s = expectRefusal(result, { code: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused' }, what);
        assert.ok(s.reason.includes(A) && s.reason.includes(B), `${what}: the reason lists the grants: ${s.reason}`);
        assert.equal(s.workspaceUri, null);
      }
      for (const folder of [base, a, b, path.join(base, 'other')]) assert.equal(fs.existsSync(path.join(folder, 'planted.txt')), false);
      const logged = fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
      assert.ok(logged.some((line) => line.code === 'ERR_NOT_GRANTED' && line.workspaceUri === null && line.tool === 'write_file'), 'the adapter\'s refusals are logged');
      assert.deepEqual(serverToClientRequests(session.wire), [], 'no live server-to-client request');
      assertCleanWire(session.wire, 'v2 roots session');
    });

    test('a client without the roots capability is refused ERR_NOT_GRANTED at once, with no input_required round', async () => {
      const bare = await connect('v2', { args: ['--workspace', A] });
      try {
        const s = expectRefusal(await bare.call('read_text_file', { path: 'a.txt' }), { code: 'ERR_NOT_GRANTED', stage: 'server' }, 'no roots capability');
        assert.ok(s.reason.includes(A));
        assert.equal(toolCalls(bare.wire).length, 1, 'one tools/call, no retry');
        assert.ok(!bare.wire.received.some((message) => message.result?.resultType === 'input_required'));
        assert.deepEqual(serverToClientRequests(bare.wire), []);
      } finally {
        await bare.close();
      }
    });
  });

  describe('on 2025-11-25 (v1 client with the roots capability) no server-to-client request is ever sent', { concurrency: false }, () => {
    let base: string;
    let ws: string;
    let W: string;

    before(() => {
      base = makeTempDir();
      ws = path.join(base, 'ws');
      writeTree(base, { 'ws/a.txt': 'a', 'outside.txt': 'outside' });
      W = fileUri(ws);
    });
    after(() => removeDir(base));

    test('a whole session: calls without workspaceUri are input-validation errors; roots/list is never asked', async () => {
      const session = await connect('v1', { args: ['--workspace', W], roots: [{ uri: W }] });
      try {
        assert.equal(session.negotiatedVersion(), '2025-11-25');
        await session.listTools();
        expectOk(await session.call('list_workspaces', {}), 'list_workspaces');
        for (const [tool, args] of [
          ['read_text_file', { path: 'a.txt' }],
          ['write_file', { path: 'new.txt', content: 'x' }],
          ['delete_path', { path: 'a.txt' }],
          ['list_directory', { path: '.' }],
        ] as const) {
          const result = await session.call(tool, args);
          assert.equal(result.isError, true, `${tool} without workspaceUri succeeded: ${textOf(result)}`);
          assert.match(textOf(result), /Input validation error/, tool);
          assert.match(textOf(result), /workspaceUri/, tool);
          assert.notEqual(result.resultType, 'input_required', tool);
        }
        assert.equal(fs.existsSync(path.join(ws, 'new.txt')), false);
        assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a');
        // With workspaceUri everything works, refusals included.
        const read = await session.call('read_text_file', { workspaceUri: W, path: 'a.txt' });
        assert.equal(expectContent(read, 'read'), 'a');
        expectRefusal(await session.call('read_text_file', { workspaceUri: W, path: '../outside.txt' }), { code: 'ERR_OUTSIDE' }, 'outside');
        expectRefusal(await session.call('read_text_file', { workspaceUri: fileUri(base), path: 'outside.txt' }), { code: 'ERR_NOT_GRANTED' }, 'not granted');
        await session.listResources();
        await assert.rejects(session.readResource(`${W}/%2e%2e/outside.txt`), /ERR_OUTSIDE/);

        assert.equal(session.rootsCalls, 0, 'the client was never asked for its roots');
        assert.deepEqual(serverToClientRequests(session.wire), [], 'no message with both method and id came from the server');
        assert.ok(!session.wire.received.some((message) => message.method === 'roots/list'));
        assert.ok(!session.wire.received.some((message) => message.result?.resultType === 'input_required'), 'no input_required on the old era');
        assertCleanWire(session.wire, 'v1 session');
      } finally {
        await session.close();
      }
    });
  });

  // ------------------------------------------------------------------------------------------------
  // stdout carries JSON-RPC only
  // ------------------------------------------------------------------------------------------------

  describe('stdout carries JSON-RPC only', { concurrency: false }, () => {
    let base: string;
    let ws: string;
    let W: string;

    before(() => {
      base = makeTempDir();
      ws = path.join(base, 'ws');
      writeTree(base, { 'ws/a.txt': 'a', 'outside.txt': 'outside' });
      W = fileUri(ws);
    });
    after(() => removeDir(base));

    test('raw stdio: every line the server writes is one JSON-RPC 2.0 response to a request or a refusal notice; nothing goes to stderr', async () => {
      const call = (id: number, name: string, args: Record<string, unknown>) => ({ id, method: 'tools/call', params: { name, arguments: args } });
      const messages: Record<string, unknown>[] = [
        { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'raw', version: '1' } } },
        { method: 'notifications/initialized' },
        { id: 2, method: 'tools/list' },
        call(3, 'list_workspaces', {}),
        call(4, 'read_text_file', { workspaceUri: W, path: 'a.txt' }),
        call(5, 'read_text_file', { workspaceUri: W, path: '../outside.txt' }),
        call(6, 'read_text_file', { workspaceUri: W, path: 'missing.txt' }),
        call(7, 'read_text_file', { path: 'a.txt' }),
        call(8, 'no_such_tool', {}),
        { id: 9, method: 'resources/list' },
        { id: 10, method: 'resources/read', params: { uri: `${W}/%2e%2e/outside.txt` } },
        { id: 11, method: 'ping' },
        { id: 12, method: 'no/such/method' },
      ];
      const { lines, stderr } = await rawSession(['--workspace', W, '--sandbox', 'off', '--refusal-log', path.join(base, 'log.jsonl')], messages);
      const parsed = lines.map((line, i) => {
        try {
          return JSON.parse(line) as WireMessage;
        } catch {
          throw new Error(`stdout line ${i + 1} is not JSON: ${line.slice(0, 200)}`);
        }
      });
      parsed.forEach((message, i) => assertJsonRpc(message, `stdout line ${i + 1}`));
      const requestIds = messages.filter((message) => message.id !== undefined).map((message) => message.id);
      const answers = parsed.filter((message) => message.method === undefined);
      assert.deepEqual(answers.map((message) => message.id).sort((x, y) => Number(x) - Number(y)), requestIds, 'exactly one answer per request');
      // Besides the answers, only the two refusals' notices (the tool call's and the resource read's).
      const notices = parsed.filter((message) => message.method !== undefined);
      assert.deepEqual(
        notices.map((message) => [message.method, message.id, message.params?.level, (message.params?.data as { code?: string })?.code]),
        [
          ['notifications/message', undefined, 'warning', 'ERR_OUTSIDE'],
          ['notifications/message', undefined, 'warning', 'ERR_OUTSIDE'],
        ],
        'the server sent no request, and no notification but the refusal notices',
      );
      const byId = new Map(parsed.map((message) => [message.id, message]));
      assert.equal(byId.get(1)?.result?.protocolVersion, '2025-11-25');
      assert.equal(refusalOf(byId.get(5)?.result as never)?.code, 'ERR_OUTSIDE');
      assert.ok(byId.get(10)?.error, 'an outside resources/read is a JSON-RPC error');
      assert.match(byId.get(10)?.error?.message ?? '', /ERR_OUTSIDE/);
      // Refusals, errors and unknown methods are answers, never logs: stderr stays empty.
      assert.equal(stderr, '', 'nothing on stderr over a normal session');
    });
  });

  // ------------------------------------------------------------------------------------------------
  // Cancellation and request metadata on 2025-11-25
  // ------------------------------------------------------------------------------------------------

  describe('tools/call on 2025-11-25: cancellation and request metadata', { concurrency: false }, () => {
    let base: string;
    let W: string;
    let server: RawServer;

    before(async () => {
      base = makeTempDir();
      writeTree(base, { 'ws/a.txt': 'a' });
      W = fileUri(path.join(base, 'ws'));
      server = RawServer.start(['--workspace', W]);
      await server.initialize();
    });
    after(async () => {
      await server?.close();
      removeDir(base);
    });

    test('a call cancelled in the same write as it is sent is never answered; the next call is', async () => {
      const cancelled = server.newId();
      const next = server.newId();
      const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_file_info', arguments: { workspaceUri: W, path: 'a.txt' } } });
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: cancelled, reason: 'changed my mind' } };
      const answer = server.answerTo(next);
      server.write(`${[call(cancelled), cancel, call(next)].map((message) => JSON.stringify(message)).join('\n')}\n`);
      assert.equal((await answer).result?.structuredContent?.type, 'file');
      // Time enough for a late answer to arrive, were one sent.
      await new Promise((resolve) => setTimeout(resolve, patience(300)));
      assert.deepEqual(server.unmatched.filter((message) => message.id === cancelled), [], 'the cancelled call was not answered');
    });

    test('a progress token, or other _meta, changes nothing in the answer', async () => {
      const plain = await server.call('get_file_info', { workspaceUri: W, path: 'a.txt' });
      for (const _meta of [{ progressToken: 'p-1' }, { progressToken: 7 }, { progressToken: 'p-2', 'example.com/trace': 'x' }]) {
        const answer = await server.request('tools/call', { name: 'get_file_info', arguments: { workspaceUri: W, path: 'a.txt' }, _meta });
        assert.deepEqual(answer.result, plain.result, JSON.stringify(_meta));
      }
    });
  });

  // ------------------------------------------------------------------------------------------------
  // Start-up errors
  // ------------------------------------------------------------------------------------------------

  describe('start-up: a refused, missing or absent workspace is exit 2 with the reason on stderr', { concurrency: false }, () => {
    let base: string;
    let ws: string;

    before(() => {
      base = makeTempDir();
      ws = path.join(base, 'ws');
      writeTree(base, { 'ws/a.txt': 'a', 'regular-file': 'not a folder' });
    });
    after(() => removeDir(base));

    test('each bad launch exits 2, says why on stderr, and writes nothing on stdout', async () => {
      const cases: [string, () => string[], RegExp][] = [
        ['no workspace at all', () => [], /no workspace/i],
        ['an https workspace', () => ['--workspace', `https://example.com${ws}`], /ERR_SCHEME/],
        ['a file://localhost workspace', () => ['--workspace', `file://localhost${ws}`], /ERR_HOST/],
        ['a file://host workspace', () => ['--read-only-workspace', `file://server${ws}`], /ERR_HOST/],
        ['a workspace with a query', () => ['--workspace', `${fileUri(ws)}?x`], /ERR_QUERY_OR_FRAGMENT/],
        ['a relative workspace', () => ['--workspace', 'ws'], /ERR_NOT_ABSOLUTE/],
        ['a workspace that does not exist', () => ['--workspace', fileUri(path.join(base, 'missing'))], /not an existing directory/],
        ['a workspace that is a regular file', () => ['--workspace', fileUri(path.join(base, 'regular-file'))], /not an existing directory/],
        ['one good and one refused workspace (never a subset)', () => ['--workspace', fileUri(ws), '--workspace', `file://localhost${ws}`], /ERR_HOST/],
        ['an unknown option', () => ['--workspace', fileUri(ws), '--no-such-option'], /no-such-option/],
        ['a bad --sandbox value', () => ['--workspace', fileUri(ws), '--sandbox', 'maybe'], /--sandbox/],
        ['a --refusal-log-size under 1024', () => ['--workspace', fileUri(ws), '--refusal-log-size', '10'], /--refusal-log-size/],
      ];
      const results = await Promise.all(cases.map(([, args]) => runServerToExit(args())));
      cases.forEach(([what, , pattern], i) => {
        const result = results[i]!;
        assert.equal(result.status, 2, `${what}: exit status ${result.status}; stderr:\n${result.stderr}`);
        assert.match(result.stderr, pattern, `${what}: stderr`);
        assert.equal(result.stdout, '', `${what}: stdout must stay empty`);
        assert.doesNotMatch(result.stderr, /^\s+at /m, `${what}: a stack trace instead of a message`);
      });
    });

    test('--help exits 0 with the usage on stdout (server and `cli serve`)', async () => {
      const help = await runServerToExit(['--help']);
      assert.equal(help.status, 0);
      assert.match(help.stdout, /Usage: boundary-inspector serve --workspace <uri>/);
      assert.match(help.stdout, /--read-only-workspace/);
      assert.match(help.stdout, /--refusal-log/);
      const viaCli = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'serve', '--help'], { encoding: 'utf8' });
      assert.equal(viaCli.status, 0, viaCli.stderr);
      assert.match(viaCli.stdout, /Usage: boundary-inspector serve/);
    });

    test('a --refusal-log whose folder cannot be created (its parent is a regular file) is a start-up error: exit 2 with a message, not a crash', async () => {
      const result = await runServerToExit(['--workspace', fileUri(ws), '--sandbox', 'off', '--refusal-log', path.join(base, 'regular-file', 'refusals.jsonl')]);
      assert.equal(result.stdout, '');
      assert.doesNotMatch(result.stderr, /^\s+at /m, `an uncaught exception with a stack trace:\n${result.stderr}`);
      assert.equal(result.status, 2, `exit status ${result.status}; stderr:\n${result.stderr}`);
      assert.match(result.stderr, /refusal.log|refusals\.jsonl/i);
    });
  });

  // ------------------------------------------------------------------------------------------------
  // stderr: clients log every line a stdio server writes there as an error
  // ------------------------------------------------------------------------------------------------

  describe('stderr: nothing on a normal start; a sandbox asked for and missing is said, and at a terminal what is served', { concurrency: false }, () => {
    let base: string;
    let W: string;
    before(() => {
      base = makeTempDir();
      fs.mkdirSync(path.join(base, 'ws'));
      fs.mkdirSync(path.join(base, 'empty-path'));
      W = fileUri(path.join(base, 'ws'));
    });
    after(() => removeDir(base));

    /** stderr over a whole session: start, initialize, the tools, a call, end of input, exit. */
    const stderrOf = async (options: { sandboxed: boolean; env?: NodeJS.ProcessEnv }) => {
      const server = RawServer.start(['--workspace', W], options);
      try {
        await server.initialize();
        await server.request('tools/list', {});
        await server.call('list_workspaces', {});
      } finally {
        await server.close();
      }
      return server.stderr();
    };

    test('with its sandbox running, nothing at all', { skip: !sandboxAvailability().available && `no sandbox here: ${sandboxAvailability().reason}` }, async () => {
      assert.equal(await stderrOf({ sandboxed: true }), '');
    });

    test('with --sandbox off, a choice list_workspaces reports, nothing at all', async () => {
      assert.equal(await stderrOf({ sandboxed: false }), '');
    });

    test('the sandbox asked for and not installed: one line saying so', { skip: process.platform !== 'linux' && 'bubblewrap is looked for on Linux' }, async () => {
      // No bwrap on PATH: the server starts without its sandbox, and says so.
      const stderr = await stderrOf({ sandboxed: true, env: { ...process.env, PATH: path.join(base, 'empty-path') } });
      assert.match(stderr, /^boundary-inspector: serving \S+ \(read-write\); sandbox: none, bubblewrap \(bwrap\) is not installed/);
      assert.equal(stderr.trim().split('\n').length, 1, stderr);
    });

    const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
    test('at a terminal, one line naming what is served; --quiet leaves it out', { skip: script.status !== 0 && 'no script(1) to give the server a terminal' }, () => {
      const atTerminal = (extra: string) => {
        // script(1) runs the server with a terminal for its stdio; its input ends at once, so the server ends too.
        const command = `'${process.execPath}' '${serverPath}' --workspace '${W}' --sandbox off ${extra}`;
        const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', input: '' });
        assert.equal(run.status, 0, run.stderr);
        return run.stdout;
      };
      assert.match(atTerminal(''), /^boundary-inspector: serving \S+ \(read-write\); sandbox: none, turned off/m);
      assert.doesNotMatch(atTerminal('--quiet'), /serving/);
    });
  });
});
