// A tool's schema as the SDK lists it: its JSON Schema is made at the first tools/list, once,
// never while the handshake is being answered (start-up waits for nothing it does not need).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as z from 'zod';
import { listedSchema } from '../../src/server/protocol/listedSchema.js';

test('a listed schema makes its JSON Schema when first listed, and only once', () => {
  let walked = 0;
  // z.lazy's getter runs whenever the schema is walked, as a conversion to JSON Schema does.
  const schema = z.object({ path: z.lazy(() => ((walked += 1), z.string())) });
  const listed = listedSchema(schema)['~standard'];
  assert.equal(walked, 0, 'nothing is converted when the tool is registered');
  const first = listed.jsonSchema.input({ target: 'draft-2020-12' });
  assert.ok(walked > 0, 'the first listing converts it');
  const after = walked;
  assert.equal(listed.jsonSchema.input({ target: 'draft-2020-12' }), first, 'the same object every time');
  assert.equal(walked, after, 'never converted again');
  assert.deepEqual(first, { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
});
