// What to do about each refusal code is written once, in src/core/codes.ts, and the README's
// "Why was my path refused?" table says the same: a fix the trace offers is the advice a person reads.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REFUSAL_CODES, type RefusalCode } from '../../src/core/index.js';

test("each code's advice is the README's \"what to do\", and every code has a row", () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Why was my path refused?'));
  const advice = new Map<string, string>();
  for (const line of table.split('\n')) {
    const row = /^\| (`ERR_[^|]*) \| .* \| (.*) \|$/.exec(line);
    if (row) for (const [, code] of row[1]!.matchAll(/`(ERR_[A-Z_]+)`/g)) advice.set(code!, row[2]!);
  }
  assert.deepEqual([...advice.keys()].sort(), Object.keys(REFUSAL_CODES).sort());
  for (const [code, text] of advice) assert.equal(REFUSAL_CODES[code as RefusalCode].advice, text, code);
});
