// The limits tests wait with (test/patience.ts) hold on a busy machine: an answer that came in
// time is read even when this process was kept busy past the limit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { expireAfter, patience } from '../patience.js';

/** Whether `pid` has exited (a zombie until this process reaps it, which only its event loop does). */
function exited(pid: number): boolean {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

test('an answer that came while the test process was busy past the limit is read, not called late', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  const child = spawn(process.execPath, ['-e', 'process.stdout.write("answer")'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const quietMs = 50;
  const limit = patience(quietMs);
  let plainTimerFired = false;
  setTimeout(() => (plainTimerFired = true), limit);
  const answer = new Promise<string>((resolve, reject) => {
    const cancel = expireAfter(quietMs, (waited) => reject(new Error(`no answer within ${waited} ms`)));
    child.stdout.once('data', (chunk: Buffer) => {
      cancel();
      resolve(chunk.toString());
    });
  });
  // Busy, as a test making a large fixture synchronously is: the child answers and exits meanwhile.
  const started = Date.now();
  while (!exited(child.pid!) || Date.now() - started < 2 * limit + 100);
  assert.equal(await answer, 'answer');
  assert.ok(plainTimerFired, 'a plain timer of the same limit had fired before the answer was read');
});
