// Seed 001 ("A root is a hint, not a permission"): one workspace, two hostile requests that a
// string-prefix check accepts. Both must be judged outside, each by the stage that can see it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { trace } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { traceRow } from './assertTrace.js';

const allowed = 'file:///work/notes';
const attacker = 'file:///work/notes-evil/secret.md';
const traversal = 'file:///work/notes/%2e%2e/private.md';

test('a string-prefix check would accept both hostile requests', () => {
  assert.ok(attacker.startsWith(allowed));
  assert.ok(traversal.startsWith(allowed));
});

describe('the hostile pair, simulated on every platform', () => {
  for (const platform of ['linux', 'darwin'] as const) {
    test(`sibling prefix on ${platform}: refused by containment, component by component`, () => {
      const result = traceRow({ name: 'sibling prefix', input: attacker, root: allowed, platform, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: '/work/notes-evil/secret.md' });
      assert.match(result.reason, /shared text prefix is not containment/);
    });
    test(`encoded dot-dot on ${platform}: the parser resolves it, containment refuses it`, () => {
      const result = traceRow({ name: 'encoded dot-dot', input: traversal, root: allowed, platform, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: '/work/private.md' });
      const parse = result.stages.find((stage) => stage.stage === 'parse')!;
      assert.equal(parse.status, 'note');
      assert.match(parse.note, /dot segments/);
    });
  }
  test('the same pair on win32', () => {
    traceRow({ name: 'sibling prefix', input: 'file:///C:/work/notes-evil/secret.md', root: 'file:///C:/work/notes', platform: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' });
    traceRow({ name: 'encoded dot-dot', input: 'file:///C:/work/notes/%2e%2e/private.md', root: 'file:///C:/work/notes', platform: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' });
  });
});

describe('variants of the traversal', () => {
  const rows = [
    // mixed-case escape
    { name: 'mixed case %2E', input: 'file:///work/notes/%2E%2e/private.md' },
    // half-encoded
    { name: 'half-encoded .%2e', input: 'file:///work/notes/.%2e/private.md' },
    // relative dot-dot
    { name: 'relative dot-dot', input: '../private.md' },
    // deep then back out
    { name: 'deep then out', input: 'a/b/../../../private.md' },
  ];
  for (const row of rows) {
    test(row.name, () => void traceRow({ ...row, root: allowed, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: '/work/private.md' }));
  }
  // double encoding: decoded once, "%2e%2e" stays a literal name inside the workspace
  test('double-encoded %252e%252e stays a literal name', () => {
    const result = traceRow({ name: 'double encoding', input: 'file:///work/notes/%252e%252e/private.md', root: allowed, verdict: 'inside', path: '/work/notes/%2e%2e/private.md' });
    assert.match(result.stages.find((stage) => stage.stage === 'decode')!.note, /literal/);
  });
  // encoded slash: refused before it can become a separator
  test('encoded slash ..%2f', () => {
    traceRow({ name: 'encoded slash', input: 'file:///work/notes/..%2fprivate.md', root: allowed, verdict: 'refused', code: 'ERR_ENCODED_SEPARATOR', stage: 'refusals' });
  });
});

describe('the hostile pair on a real filesystem', () => {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-hostile-'));
  after(() => fs.rmSync(top, { recursive: true, force: true }));
  const notes = path.join(top, 'notes');
  fs.mkdirSync(notes);
  fs.mkdirSync(path.join(top, 'notes-evil'));
  fs.writeFileSync(path.join(top, 'notes-evil', 'secret.md'), 'secret');
  fs.writeFileSync(path.join(top, 'private.md'), 'private');
  const root = pathToFileURL(notes).href;

  test('sibling prefix is outside', () => {
    const result = trace(`${pathToFileURL(path.join(top, 'notes-evil', 'secret.md')).href}`, root, { platform: 'linux', fs: nodeFileSystem });
    assert.equal(result.verdict, 'outside');
    assert.equal(result.stage, 'containment');
    // Outside by its names alone: never looked up, so nothing is learnt about what is there.
    assert.equal(result.kind, null);
    assert.equal(result.stages.find((stage) => stage.stage === 'realpath')?.status, 'skip');
  });
  test('encoded dot-dot is outside', () => {
    const result = trace(`${root}/%2e%2e/private.md`, root, { platform: 'linux', fs: nodeFileSystem });
    assert.equal(result.verdict, 'outside');
    assert.equal(result.stage, 'containment');
    assert.equal(result.path, path.join(top, 'private.md'));
  });
});
