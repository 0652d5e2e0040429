// The line reader takes a plain request without the SDK's JSON-RPC schema: whatever it takes,
// the schema must accept and give back unchanged (src/server/protocol/lineTransport.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { plainRequest } from '../../src/server/protocol/lineTransport.js';

function schemaVerdict(value: unknown): unknown {
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return 'refused';
  }
}

const id = fc.oneof(fc.integer(), fc.string(), fc.double(), fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 53 - 1, -0, null, true));
const params = fc.oneof(
  fc.dictionary(fc.string(), fc.jsonValue()),
  fc.record({ name: fc.string(), arguments: fc.dictionary(fc.string(), fc.jsonValue()) }),
  fc.record({ _meta: fc.oneof(fc.jsonValue(), fc.record({ progressToken: fc.oneof(fc.string(), fc.double()) })) }),
  fc.jsonValue(),
);
const nearRequest = fc.record(
  {
    jsonrpc: fc.constantFrom('2.0', '1.0', 2),
    id,
    method: fc.oneof(fc.constantFrom('tools/call', 'ping'), fc.string(), fc.integer()),
    params,
    result: fc.jsonValue(),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('plainRequest', () => {
  test('takes only what the SDK\'s schema accepts, and as the schema gives it back', () => {
    fc.assert(
      // As the line reader meets it: parsed from JSON.
      fc.property(fc.oneof(nearRequest, fc.jsonValue()).map((value) => JSON.parse(JSON.stringify(value)) as unknown), (value) => {
        const taken = plainRequest(value);
        if (taken !== undefined) assert.deepEqual(schemaVerdict(value), taken);
      }),
      { numRuns: 5_000 },
    );
  });

  test('takes the requests a client sends on every call', () => {
    for (const request of [
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_workspaces', arguments: {} } },
      { method: 'tools/call', params: { name: 'get_file_info', arguments: { path: 'a' } }, jsonrpc: '2.0', id: 'x-1' },
      { jsonrpc: '2.0', id: 0, method: 'tools/list' },
    ]) {
      assert.equal(plainRequest(request), request);
    }
  });

  test('leaves to the schema what it must check or refuse', () => {
    for (const value of [
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: 2 ** 53, method: 'ping' },
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1.5 } } },
      { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    ]) {
      assert.equal(plainRequest(value), undefined, JSON.stringify(value));
    }
  });
});
