// The bundles that serve (dist/server.js, and dist/cli.js for `serve`) take the MCP SDK's `_shims`
// entry from src/server/protocol/sdkShims.ts, so AJV, which the server never uses, is left out:
// it was a quarter of the bundle and about 10 ms of every start (bench/perf: startup).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const dist = path.resolve(__dirname, '../../dist');

for (const bundle of ['server.js', 'cli.js']) {
  test(`dist/${bundle} holds no AJV, and the SDK's validator there is the server's own`, () => {
    const text = fs.readFileSync(path.join(dist, bundle), 'utf8');
    assert.doesNotMatch(text, /ajv\/dist|new Ajv|ajv-formats/i);
    assert.match(text, /this server checks no JSON Schema at run time/);
  });
}
