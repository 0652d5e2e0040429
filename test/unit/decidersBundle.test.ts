// The deciders are a bundle of their own (esbuild.mjs, decidersApart): the extension and the
// server require dist/deciders.js beside them when the inspector first traces or the view first
// compares, so neither an activation nor a server's start parses them; the .vsix ships it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { shipped } from './vsix.js';

const dist = path.resolve(__dirname, '../../dist');
/** A stage name of the Codex model, in no other code. */
const DECIDER_CODE = 'assess_patch_safety';

for (const bundle of ['extension.js', 'server.js']) {
  test(`dist/${bundle} holds none of the deciders and requires dist/deciders.js instead`, () => {
    const text = fs.readFileSync(path.join(dist, bundle), 'utf8');
    assert.ok(!text.includes(DECIDER_CODE), `${bundle} holds a decider's code`);
    assert.match(text, /(require|import)\("\.\/deciders\.js"\)/);
  });
}

test('dist/deciders.js holds them, and the .vsix ships it beside the bundles that require it', () => {
  assert.ok(fs.readFileSync(path.join(dist, 'deciders.js'), 'utf8').includes(DECIDER_CODE));
  for (const file of ['dist/deciders.js', 'dist/extension.js', 'dist/server.js']) assert.ok(shipped(file), file);
});
