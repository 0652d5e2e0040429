// A result encoded once must go out exactly as JSON.stringify would send the whole message, and
// nothing may change it behind its encoding (src/server/protocol/encodedOnce.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { encodedOnce, encodeMessage } from '../../src/server/protocol/encodedOnce.js';

const messageAround = (result: object) =>
  fc.tuple(fc.oneof(fc.integer(), fc.string()), fc.boolean()).map(([id, resultFirst]) =>
    resultFirst ? { result, jsonrpc: '2.0', id } : { jsonrpc: '2.0', id, result },
  );

describe('encodedOnce', () => {
  test('a marked result is sent as JSON.stringify sends the message, in the message\'s key order', () => {
    const result = fc.dictionary(fc.string(), fc.jsonValue());
    fc.assert(
      fc.property(result.chain((value) => messageAround(encodedOnce(value))), (message) => {
        assert.equal(encodeMessage(message), JSON.stringify(message));
      }),
    );
  });

  test('an unmarked result, or a message without one, is encoded as it is now', () => {
    const seen = { content: [{ type: 'text', text: 'before' }] };
    const message = { jsonrpc: '2.0', id: 1, result: seen };
    assert.equal(encodeMessage(message), JSON.stringify(message));
    seen.content[0]!.text = 'after';
    assert.match(encodeMessage(message), /after/);
    const notification = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } };
    assert.equal(encodeMessage(notification), JSON.stringify(notification));
  });

  test('a marked result cannot be changed at any depth', () => {
    const result = encodedOnce({ content: [{ type: 'text', text: 'listing' }], structuredContent: { layers: { sandbox: { active: false } } } });
    assert.throws(() => {
      (result.content[0] as { text: string }).text = 'changed';
    }, TypeError);
    assert.throws(() => {
      (result.structuredContent.layers.sandbox as { active: boolean }).active = true;
    }, TypeError);
    assert.throws(() => {
      (result.content as unknown[]).push({ type: 'text', text: 'more' });
    }, TypeError);
    assert.equal(encodeMessage({ jsonrpc: '2.0', id: 7, result }), JSON.stringify({ jsonrpc: '2.0', id: 7, result }));
  });
});
