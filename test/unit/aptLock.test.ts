// `npm start` installs Debian packages with apt-get: while another apt or dpkg holds its lock it
// waits and says so, instead of failing with apt's own errors. A stand-in apt-get on PATH plays
// the other apt: it refuses with apt's words until a given try, and records how it was called.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { aptGet } from '../../scripts/vscode-env.js';

const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-apt-'));
after(() => fs.rmSync(bin, { recursive: true, force: true }));

const LOCKED = 'E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)\nE: Unable to lock directory /var/lib/apt/lists/';

/** An apt-get that fails with `LOCKED` on its first `lockedTries` calls, then succeeds; each call's arguments are appended to `calls`. */
function fakeAptGet(lockedTries: number): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const dir = fs.mkdtempSync(path.join(bin, 'run-'));
  const calls = path.join(dir, 'calls');
  const script = `#!/bin/sh
echo "$*" >> '${calls}'
tries=$(wc -l < '${calls}')
if [ "$tries" -le ${lockedTries} ]; then printf '%s\\n' '${LOCKED.replace(/'/g, '')}' >&2; exit 100; fi
echo 'Reading package lists... Done'
`;
  fs.writeFileSync(path.join(dir, 'apt-get'), script, { mode: 0o755 });
  return { env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env['PATH'] ?? ''}` }, calls: () => fs.readFileSync(calls, 'utf8').trim().split('\n') };
}

test('apt-get waits while another apt holds the lock, says who holds it, and goes on once it is free', { skip: process.platform === 'win32' }, async () => {
  const { env, calls } = fakeAptGet(2);
  const lines: string[] = [];
  await aptGet(['update'], (line) => lines.push(line), { env, waitMs: 60_000, retryMs: 10 });
  assert.equal(calls().length, 3);
  // dpkg's own lock is waited for by apt-get itself.
  for (const call of calls()) assert.match(call, /^-o DPkg::Lock::Timeout=\d+ update$/);
  assert.equal(lines.filter((line) => line.includes("apt-get (process 4242) holds apt's lock; waiting for it")).length, 2, lines.join('\n'));
});

test('past the wait, the error names the holder and what to do, not apt\'s raw lines alone', { skip: process.platform === 'win32' }, async () => {
  const { env } = fakeAptGet(1000);
  await assert.rejects(aptGet(['install', '-y', 'chromium'], () => undefined, { env, waitMs: 200, retryMs: 20 }), (error: Error) => {
    assert.match(error.message, /^apt-get install chromium: apt-get \(process 4242\) has held apt's lock for 0 s\. Let it finish \(or stop it\), then run this again\.$/);
    return true;
  });
});

test('another failure is not waited for', { skip: process.platform === 'win32' }, async () => {
  const dir = fs.mkdtempSync(path.join(bin, 'other-'));
  const calls = path.join(dir, 'calls');
  fs.writeFileSync(path.join(dir, 'apt-get'), `#!/bin/sh\necho "$*" >> '${calls}'\necho 'E: Unable to locate package nosuch' >&2\nexit 100\n`, { mode: 0o755 });
  await assert.rejects(aptGet(['install', 'nosuch'], () => undefined, { env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env['PATH'] ?? ''}` }, waitMs: 60_000, retryMs: 10 }), /Unable to locate package nosuch/);
  assert.equal(fs.readFileSync(calls, 'utf8').trim().split('\n').length, 1);
});
