// jsonLength counts what a string costs in an answer without encoding it; JSON.stringify and
// Buffer.byteLength are the oracle.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonLength } from '../../src/server/limits.js';

const oracle = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

const ROWS: readonly (readonly [what: string, text: string])[] = [
  ['empty', ''],
  ['ASCII', 'src/index.ts'],
  ['quote and backslash, escaped', 'a"b\\c'],
  ['short escapes', '\n\r\t\b\f'],
  ['other controls, \\u00XX', '\u0000\u0001\u001f'],
  ['DEL is not escaped', '\u007f'],
  ['two-byte UTF-8', 'é ß'],
  ['three-byte UTF-8', '€ 漢'],
  ['a surrogate pair, four bytes', '😀'],
  ['a lone high surrogate, \\udXXX', '\ud800'],
  ['a lone low surrogate', '\udc00'],
  ['a high surrogate at the end', 'a\ud83d'],
  ['a low before a high is two lone ones', '\ude00\ud83d'],
  ['the edges of each UTF-8 length', '\u0080\u07ff\u0800\uffff'],
];

describe('jsonLength', () => {
  for (const [what, text] of ROWS) {
    test(what, () => assert.equal(jsonLength(text), oracle(text)));
  }

  test('random strings over the whole UTF-16 range', () => {
    let seed = 1;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2000; i += 1) {
      const text = Array.from({ length: next() % 12 }, () => String.fromCharCode(next() % 0x10000)).join('');
      assert.equal(jsonLength(text), oracle(text), JSON.stringify(text));
    }
  });
});
