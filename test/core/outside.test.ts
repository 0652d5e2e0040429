// Nothing outside the root is looked up, so nothing about it can leak into an answer: whether an
// outside path exists, what it is, or where a chain of links goes once it leaves the workspace.
// A recording filesystem port shows every name the pipeline asked about.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { prepareRoot, traceAgainst, type FileSystemPort, type Trace } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';

describe('outside the workspace: never looked up, never told', () => {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-outside-')));
  after(() => fs.rmSync(top, { recursive: true, force: true }));
  const ws = path.join(top, 'ws');
  const outside = path.join(top, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'exists.txt'), 'secret');
  fs.symlinkSync('../outside/exists.txt', path.join(ws, 'to-exists'));
  fs.symlinkSync('../outside/missing.txt', path.join(ws, 'to-missing'));
  fs.symlinkSync('../outside', path.join(ws, 'to-folder'));
  fs.symlinkSync('/proc/self/cwd', path.join(ws, 'to-cwd'));
  fs.symlinkSync('../outside/loop-a', path.join(ws, 'to-loop'));
  fs.symlinkSync('loop-b', path.join(outside, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(outside, 'loop-b'));
  fs.symlinkSync(ws, path.join(outside, 'back-in'));

  const asked: string[] = [];
  const recording: FileSystemPort = {
    lstat(p) {
      asked.push(p);
      return nodeFileSystem.lstat(p);
    },
    readlink(p) {
      asked.push(p);
      return nodeFileSystem.readlink(p);
    },
  };
  const root = prepareRoot(pathToFileURL(ws).href, { platform: 'linux', fs: recording });

  /** Traces and returns what was looked up that is neither the root, below it, nor one of its ancestors. */
  function traced(input: string): { trace: Trace; outsideLookups: string[] } {
    asked.length = 0;
    const result = traceAgainst(root, input);
    const outsideLookups = asked.filter((p) => !(p === ws || p.startsWith(`${ws}/`) || ws.startsWith(`${p}/`) || p === '/'));
    return { trace: result, outsideLookups };
  }

  /** What the answer says, with the one name that differs between the two inputs put back to a placeholder. */
  function said(result: Trace, name: string): string {
    return JSON.stringify({ verdict: result.verdict, code: result.code, stage: result.stage, reason: result.reason, path: result.path, kind: result.kind }).replaceAll(name, 'NAME');
  }

  const rows: readonly { name: string; existing: [string, string]; missing: [string, string] }[] = [
    // plainly outside by its names: an existing outside file and a missing one
    { name: 'outside by dot-dot', existing: ['../outside/exists.txt', 'exists'], missing: ['../outside/missing.txt', 'missing'] },
    // the same, absolute
    { name: 'outside, absolute', existing: [path.join(outside, 'exists.txt'), 'exists'], missing: [path.join(outside, 'missing.txt'), 'missing'] },
    // the same, as a file URI with an encoded dot-dot
    { name: 'outside by encoded dot-dot', existing: [`${pathToFileURL(ws).href}/%2e%2e/outside/exists.txt`, 'exists'], missing: [`${pathToFileURL(ws).href}/%2e%2e/outside/missing.txt`, 'missing'] },
    // a link to an existing outside file and a dangling one to outside
    { name: 'link out to an existing file, or to nothing', existing: ['to-exists', 'exists'], missing: ['to-missing', 'missing'] },
    // through a link to an outside folder: a name that exists there and one that does not
    { name: 'through a link to an outside folder', existing: ['to-folder/exists.txt', 'exists'], missing: ['to-folder/missing.txt', 'missing'] },
  ];

  for (const row of rows) {
    test(`${row.name}: the same answer whether the outside path exists or not, and nothing outside looked up`, () => {
      const existing = traced(row.existing[0]);
      assert.deepEqual(existing.outsideLookups, [], 'looked up outside for the existing path');
      const missing = traced(row.missing[0]);
      assert.deepEqual(missing.outsideLookups, [], 'looked up outside for the missing path');
      assert.equal(existing.trace.verdict, 'outside');
      assert.equal(said(existing.trace, row.existing[1]), said(missing.trace, row.missing[1]));
    });
  }

  test('a link to /proc/self/cwd is an escape that never says where the working directory is', () => {
    // A working directory named as no other path here is: its name in the trace is a leak.
    const working = path.join(top, 'the-working-directory');
    fs.mkdirSync(working);
    const before = process.cwd();
    process.chdir(working);
    let traced_: ReturnType<typeof traced>;
    try {
      traced_ = traced('to-cwd/x');
    } finally {
      process.chdir(before);
    }
    const { trace, outsideLookups } = traced_;
    assert.deepEqual(outsideLookups, []);
    assert.equal(trace.code, 'ERR_SYMLINK_ESCAPE');
    assert.ok(!JSON.stringify(trace).includes('the-working-directory'), `the working directory leaked: ${trace.reason}`);
    // The link's own text is content of the workspace: it may be shown.
    assert.match(trace.reason, /\/proc\/self\/cwd/);
  });

  test('a link into an outside loop is an escape, not a loop: the loop outside is never seen', () => {
    const { trace, outsideLookups } = traced('to-loop');
    assert.deepEqual(outsideLookups, []);
    assert.equal(trace.code, 'ERR_SYMLINK_ESCAPE');
    assert.ok(!trace.reason.includes('loop-b'));
  });

  test('an outside link pointing back in is outside by its names, and not looked up', () => {
    const { trace, outsideLookups } = traced(path.join(outside, 'back-in', 'x'));
    assert.deepEqual(outsideLookups, []);
    assert.equal(trace.code, 'ERR_OUTSIDE');
    assert.equal(trace.kind, null);
  });
});
