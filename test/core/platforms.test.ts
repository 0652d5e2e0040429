// win32 and darwin rules, run on any machine through the platform parameter. Simulated: no
// filesystem is consulted, so realpath is skipped and the case policy takes the platform's
// defaults. Node's fileURLToPath(x, { windows }) and path.win32 / path.posix are the oracles.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { trace } from '../../src/core/index.js';
import { traceRow, type TraceRow } from './assertTrace.js';

const WIN_ROOT = 'file:///c%3A/Users/dev/app';

const win32Rows: readonly TraceRow[] = [
  // VS Code spells drives as file:///c%3A/...; the same folder as C:\
  { name: 'VS Code drive spelling', input: 'file:///c%3A/Users/dev/app/src/a.ts', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\src\\a.ts' },
  // the ordinary drive spelling of the same file
  { name: 'drive letter URI', input: 'file:///C:/Users/dev/app/src/a.ts', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\src\\a.ts' },
  // a Win32 path with forward slashes and another case: NTFS ignores case
  { name: 'case and slashes', input: 'c:/users/DEV/app/README.md', root: WIN_ROOT, verdict: 'inside', path: 'C:\\users\\DEV\\app\\README.md' },
  // relative, with backslashes
  { name: 'relative', input: 'src\\..\\lib\\b.ts', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\lib\\b.ts' },
  // sibling prefix on Windows
  { name: 'sibling prefix', input: 'C:\\Users\\dev\\app-evil\\x', root: WIN_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
  // dot-dot out of the root
  { name: 'dot-dot', input: 'C:\\Users\\dev\\app\\..\\secret.txt', root: WIN_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE' },
  // another drive
  { name: 'another drive', input: 'D:\\Users\\dev\\app\\x', root: WIN_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE' },
  // drive-relative on the root's drive: the root stands for the drive's current folder
  { name: 'drive-relative, same drive', input: 'C:src\\a.ts', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\src\\a.ts' },
  // drive-relative on another drive: outside
  { name: 'drive-relative, other drive', input: 'D:a.ts', root: WIN_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE' },
  // rooted: the root's drive, from its top
  { name: 'rooted', input: '\\Windows\\win.ini', root: WIN_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE', path: 'C:\\Windows\\win.ini' },
  // UNC path: refused by default
  { name: 'UNC path', input: '\\\\server\\share\\x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_UNC', stage: 'refusals' },
  // UNC with forward slashes
  { name: 'UNC forward slashes', input: '//server/share/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_UNC' },
  // UNC as file://host/share
  { name: 'UNC URI', input: 'file://server/share/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_UNC' },
  // UNC as file:////host/share (empty authority, path of two slashes)
  { name: 'UNC four slashes', input: 'file:////server/share/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_UNC' },
  // device path \\?\ skips Win32 normalisation
  { name: 'device path \\\\?\\', input: '\\\\?\\C:\\Users\\dev\\app\\..\\..\\x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // device path \\.\ names devices
  { name: 'device path \\\\.\\', input: '\\\\.\\PhysicalDrive0', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // device path through a URI: a raw "?" would start a query, so the attack encodes it
  { name: 'device path URI', input: 'file:////%3F/C:/Users/dev/app/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // the same with a raw "?": refused first as a query marker
  { name: 'device path URI, raw ?', input: 'file:////?/C:/Users/dev/app/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_QUERY_OR_FRAGMENT' },
  // reserved device name: NUL in any folder is the null device
  { name: 'reserved device name', input: 'logs\\nul.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // %5C is a separator on Windows
  { name: 'encoded backslash', input: 'file:///C:/Users/dev/app/..%5C..%5Cx', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ENCODED_SEPARATOR' },
  // trailing dots and spaces are dropped by Windows: ".. " climbs
  { name: 'dot-dot with trailing space', input: 'C:\\Users\\dev\\app\\.. \\secret.txt', root: WIN_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE' },
  // trailing dot: secret.txt. opens secret.txt
  { name: 'trailing dot', input: 'secret.txt.', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\secret.txt' },
  // localhost on win32
  { name: 'localhost', input: 'file://localhost/C:/Users/dev/app/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_HOST' },
  // a URI without a drive letter is rooted on the root's drive
  { name: 'URI without a drive', input: 'file:///Users/dev/app/x', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\x' },
];

const darwinRows: readonly TraceRow[] = [
  // APFS ignores case by default
  { name: 'case folded', input: '/Users/Dev/App/notes.md', root: 'file:///Users/dev/app', verdict: 'inside' },
  // macOS stores NFD; a root in NFC still contains the NFD spelling
  { name: 'NFD inside an NFC root', input: '/Users/dev/cafe\u0301/x', root: 'file:///Users/dev/caf%C3%A9', verdict: 'inside' },
  // sibling prefix stays outside under folding
  { name: 'sibling prefix', input: '/Users/dev/App-evil/x', root: 'file:///Users/dev/app', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // a drive-looking path is a relative name on darwin
  { name: 'drive path is relative', input: 'C:\\x', root: 'file:///Users/dev/app', verdict: 'inside', path: '/Users/dev/app/C:\\x' },
];

const linuxRows: readonly TraceRow[] = [
  // names are bytes: another case is another directory
  { name: 'case is a different directory', input: '/srv/App/secret', root: 'file:///srv/app', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // NFD and NFC are different directories
  { name: 'NFD is a different directory', input: '/srv/cafe\u0301/secret', root: 'file:///srv/caf%C3%A9', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // %5C is an ordinary character on Linux: a name with a backslash
  { name: 'encoded backslash is a name', input: 'file:///srv/app/a%5Cb', root: 'file:///srv/app', verdict: 'inside', path: '/srv/app/a\\b' },
];

function simulated(row: TraceRow) {
  const result = traceRow(row);
  assert.equal(result.simulated, true);
  if (result.verdict === 'inside' || result.stage === 'containment') {
    const realpath = result.stages.find((stage) => stage.stage === 'realpath')!;
    assert.equal(realpath.status, 'skip');
    assert.match(realpath.note, /simulated/);
  }
  return result;
}

describe('win32, simulated', () => {
  for (const row of win32Rows) test(row.name, () => void simulated({ ...row, platform: 'win32' }));
});

describe('darwin, simulated', () => {
  for (const row of darwinRows) test(row.name, () => void simulated({ ...row, platform: 'darwin' }));
});

describe('linux, simulated', () => {
  for (const row of linuxRows) test(row.name, () => void simulated({ ...row, platform: 'linux' }));
});

describe('oracles', () => {
  const winUris = [
    'file:///C:/Users/dev/app',
    'file:///c%3A/Users/dev/my%20app',
    'file:///C:/Users/dev/caf%C3%A9/report%232%20draft.pdf',
    'file:///C:/a/b/../c',
    'file:///C:/a/./b/',
  ];
  for (const uri of winUris) {
    test(`decode and normalise agree with fileURLToPath and path.win32: ${uri}`, () => {
      // This product spells drive letters in upper case; Node keeps the URI's case.
      const oracle = path.win32.normalize(fileURLToPath(uri, { windows: true })).replace(/\\$/, '').replace(/^[a-z]:/, (drive) => drive.toUpperCase());
      const result = trace(uri, 'file:///C:/', { platform: 'win32' });
      assert.equal(result.path, oracle);
    });
  }
  const posixUris = ['file:///srv/a%20b', 'file:///srv/x/../y/./z/', 'file:///srv/caf%C3%A9', 'file:///srv//double'];
  for (const uri of posixUris) {
    test(`decode and normalise agree with fileURLToPath and path.posix: ${uri}`, () => {
      const oracle = path.posix.normalize(fileURLToPath(uri, { windows: false })).replace(/(.)\/$/, '$1');
      const result = trace(uri, '/', { platform: 'linux' });
      assert.equal(result.path, oracle);
    });
  }
  const winPaths = ['C:\\a\\..\\b', 'c:/x//y/./z', 'C:\\a\\b\\..\\..\\..\\c'];
  for (const input of winPaths) {
    test(`normalise agrees with path.win32.normalize: ${input}`, () => {
      const result = trace(input, 'C:\\', { platform: 'win32' });
      assert.equal(result.path, path.win32.normalize(input).replace(/^c:/, 'C:'));
    });
  }
});

test('a simulated win32 trace never consults the filesystem, even with a port given to another platform', () => {
  const touched: string[] = [];
  const spy = {
    lstat: (p: string) => (touched.push(p), { kind: 'missing' as const }),
    readlink: (p: string) => (touched.push(p), { ok: false as const, errno: 'EINVAL' }),
  };
  trace('C:\\Users\\dev\\app\\x', WIN_ROOT, { platform: 'win32' });
  assert.deepEqual(touched, []);
  // With a port, the same platform is traced for real: the port is consulted.
  trace('/srv/ws/x', '/srv/ws', { platform: 'linux', fs: spy });
  assert.ok(touched.length > 0);
});
