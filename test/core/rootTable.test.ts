// The table of root forms from seed 000 ("Converting a root URI to a path"), one row each, plus
// a row for every other guard, so that each refusal row traces to exactly one guard and every
// guard has a row. Node's fileURLToPath is the oracle wherever it accepts the input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REFUSAL_CODES, rootToPath, type Platform, type Policy, type RefusalCode } from '../../src/core/index.js';

interface Row {
  readonly name: string;
  readonly root: string;
  readonly platform?: Platform;
  readonly policy?: Partial<Policy>;
  readonly path?: string;
  readonly code?: RefusalCode;
  /** The stage that refuses; defaults to the stage the code table gives. */
  readonly stage?: string;
  /** Later codes of the table that also apply (the first wins); none unless listed. */
  readonly also?: readonly RefusalCode[];
  /** Why fileURLToPath is no oracle for this row, where it is not. */
  readonly nodeDiffers?: string;
}

const seedRows: readonly Row[] = [
  // plain: the one shape that looks like a path with a prefix
  { name: 'plain', root: 'file:///srv/app/web', path: '/srv/app/web' },
  // percent-encoded space: decoded once, so the real directory matches, not one named "my%20project"
  { name: 'percent-encoded space', root: 'file:///srv/app/my%20project', path: '/srv/app/my project' },
  // https: parses fine, and names nothing on this machine
  { name: 'https', root: 'https://example.com/repo', code: 'ERR_SCHEME' },
  // localhost host: RFC 8089 allows it; refused by default so each file has one spelling
  { name: 'localhost host', root: 'file://localhost/etc/passwd', code: 'ERR_HOST' },
  // foreign host: stripping "file://" would leave a relative path resolved against the working directory
  { name: 'foreign host', root: 'file://attacker.example/share/data', code: 'ERR_HOST' },
  // query and fragment: they name no part of a file
  { name: 'query and fragment', root: 'file:///srv/app/web?x=1#top', code: 'ERR_QUERY_OR_FRAGMENT' },
  // not a URI: a relative path as a root would be a silently very wide root; a start-up failure instead
  { name: 'not a URI', root: 'not a uri', code: 'ERR_NOT_ABSOLUTE' },
  // drive letter: the leading slash before the drive is dropped
  { name: 'drive letter', root: 'file:///C:/Users/dev/app', platform: 'win32', path: 'C:\\Users\\dev\\app' },
  // UNC: a network share, refused by default
  { name: 'UNC', root: 'file://build-01/shared/app', platform: 'win32', code: 'ERR_UNC' },
  // NFC name: caf%C3%A9 decodes to the five-byte composed form and stays that way
  { name: 'NFC name', root: 'file:///srv/caf%C3%A9', path: '/srv/caf\u00e9' },
];

const guardRows: readonly Row[] = [
  // a URI the parser rejects: a port on a file URI
  { name: 'unparsable URI', root: 'file://host:80/x', code: 'ERR_PARSE' },
  // empty: a missing setting must not become a root
  { name: 'empty', root: '', code: 'ERR_PARSE' },
  // device path: \\?\ skips Win32 normalisation
  { name: 'device path', root: '\\\\?\\C:\\ws', platform: 'win32', code: 'ERR_DEVICE_PATH' },
  // NUL: no file name holds one
  { name: 'encoded NUL', root: 'file:///srv/ws%00', code: 'ERR_NUL' },
  // encoded separator: %2F becomes "/" only after the checks
  { name: 'encoded separator', root: 'file:///srv/a%2Fb', code: 'ERR_ENCODED_SEPARATOR' },
  // raw backslash: RFC 3986 has no place for it; the parser would silently make it "/"
  { name: 'raw backslash', root: 'file:///srv\\ws', code: 'ERR_ILLEGAL_CHARACTER' },
  // malformed escape
  { name: 'malformed escape', root: 'file:///srv/a%zz', code: 'ERR_BAD_ENCODING' },
  // another system's root: a Windows drive URI given to a Linux server (a folder "/C:" here)
  { name: "another system's root", root: 'file:///C:/Users/dev/app', code: 'ERR_FOREIGN_PATH' },
];

const allowedByPolicy: readonly Row[] = [
  // the localhost policy, when allowed, reads the host as the local machine
  { name: 'localhost allowed', root: 'file://localhost/srv/ws', policy: { localhost: 'allow' }, path: '/srv/ws' },
  // the UNC policy, when allowed, converts as Windows does
  { name: 'UNC allowed', root: 'file://build-01/shared/app', platform: 'win32', policy: { unc: 'allow' }, path: '\\\\build-01\\shared\\app' },
];

// Windows rules apply to roots as to requests: a UNC host as written, reserved device names
// however followed, and a ":" after the drive.
const win32Rows: readonly Row[] = [
  // a non-ASCII UNC host, percent-encoded: decoded once, never the parser's "xn--shres-hra"
  { name: 'UNC root with a non-ASCII host', root: 'file://sh%C3%A4res/team/app', platform: 'win32', policy: { unc: 'allow' }, path: '\\\\sh\u00e4res\\team\\app' },
  // the same host written raw
  { name: 'UNC root with a raw non-ASCII host', root: 'file://sh\u00e4res/team/app', platform: 'win32', policy: { unc: 'allow' }, path: '\\\\sh\u00e4res\\team\\app' },
  // the host's case as the client wrote it (Node lower-cases it)
  { name: 'UNC root host keeps its case', root: 'file://BUILD-01/shared/app', platform: 'win32', policy: { unc: 'allow' }, path: '\\\\BUILD-01\\shared\\app', nodeDiffers: 'Node lower-cases the host' },
  // the same share as a path root
  { name: 'UNC path root with a non-ASCII host', root: '\\\\sh\u00e4res\\team\\app', platform: 'win32', policy: { unc: 'allow' }, path: '\\\\sh\u00e4res\\team\\app' },
  // a UNC root is refused by default, in any host spelling
  { name: 'UNC root with a non-ASCII host, default', root: 'file://sh%C3%A4res/team/app', platform: 'win32', code: 'ERR_UNC' },
  // host "." is the device namespace, refused even with UNC allowed
  { name: 'UNC root with host "."', root: 'file://./PhysicalDrive0/ws', platform: 'win32', policy: { unc: 'allow' }, code: 'ERR_DEVICE_PATH' },
  // a reserved device name and a colon: the device code wins, the stream colon also applies
  { name: 'root ending in a device name and a colon', root: 'file:///C:/ws/nul:', platform: 'win32', code: 'ERR_DEVICE_PATH', also: ['ERR_ILLEGAL_CHARACTER'] },
  // the same as a path, spaces before the colon
  { name: 'root path with a device name, space and colon', root: 'C:\\ws\\NUL : x', platform: 'win32', code: 'ERR_DEVICE_PATH', also: ['ERR_ILLEGAL_CHARACTER'] },
  // a device name with a space before its extension
  { name: 'root with a device name and an extension', root: 'file:///C:/ws/con%20.txt', platform: 'win32', code: 'ERR_DEVICE_PATH' },
  // the directory index stream in a root
  { name: 'root with an index allocation stream', root: 'file:///C:/ws/x::$INDEX_ALLOCATION', platform: 'win32', code: 'ERR_ILLEGAL_CHARACTER' },
  // a stream in a root path
  { name: 'root path with a stream', root: 'C:\\ws:stream', platform: 'win32', code: 'ERR_ILLEGAL_CHARACTER' },
  // an encoded stream colon after VS Code's encoded drive colon
  { name: 'root with an encoded stream colon', root: 'file:///c%3A/ws%3Aalt', platform: 'win32', code: 'ERR_ILLEGAL_CHARACTER' },
  // RFC 8089: "C:ws" is no drive; Node would read it against the drive's current folder
  { name: 'drive-relative root URI', root: 'file:///C:ws', platform: 'win32', code: 'ERR_ILLEGAL_CHARACTER' },
  // five slashes (Python's url2pathname): the share, not a rooted path on the current drive
  { name: 'five-slash UNC root', root: 'file://///build-01/shared/app', platform: 'win32', policy: { unc: 'allow' }, path: '\\\\build-01\\shared\\app', nodeDiffers: 'Node reads \\\\\\build-01\\shared\\app' },
  // four slashes: the same share
  { name: 'four-slash UNC root', root: 'file:////build-01/shared/app', platform: 'win32', policy: { unc: 'allow' }, path: '\\\\build-01\\shared\\app', nodeDiffers: 'Node refuses an empty host with a UNC path' },
  // five slashes, the UNC policy at its default: refused as a share, not as a relative root
  { name: 'five-slash UNC root, default', root: 'file://///build-01/shared/app', platform: 'win32', code: 'ERR_UNC' },
  // the drive letter where the host goes: a host, and the reason says it is the drive
  { name: 'drive letter as the host', root: 'file://C:/ws', platform: 'win32', code: 'ERR_HOST' },
  // the same with "|" for ":" (as old clients write)
  { name: 'drive letter and bar as the host', root: 'file://C|/ws', platform: 'win32', code: 'ERR_HOST' },
  // the drive's own colon, VS Code's spelling (Node keeps the lower-case drive letter)
  { name: 'VS Code drive spelling', root: 'file:///c%3A/ws', platform: 'win32', path: 'C:\\ws', nodeDiffers: 'Node keeps the drive letter lower case' },
];

function check(row: Row) {
  const platform = row.platform ?? 'linux';
  const converted = rootToPath(row.root, { platform, ...(row.policy ? { policy: row.policy } : {}) });
  if (row.path !== undefined) {
    assert.ok(converted.ok, `${row.name}: expected ${row.path}, refused: ${!converted.ok && converted.reason}`);
    assert.equal(converted.path, row.path);
    if (row.root.startsWith('file:') && row.nodeDiffers === undefined) {
      const oracle = fileURLToPath(row.root, { windows: platform === 'win32' });
      assert.equal(converted.path, oracle, `${row.name}: fileURLToPath disagrees`);
    }
  } else {
    assert.ok(!converted.ok, `${row.name}: expected ${row.code}, converted to ${converted.ok && converted.path}`);
    assert.equal(converted.code, row.code);
    assert.equal(converted.stage, row.stage ?? REFUSAL_CODES[row.code!].stage);
    assert.ok(converted.reason.length > 20, 'a reason a person can act on');
    // Exactly one guard: the refusing stage reports no other code that also applied, unless the row lists them.
    const refusing = converted.stages.at(-1)!;
    assert.equal(refusing.status, 'refuse');
    if (row.also) assert.match(refusing.note, new RegExp(`also: ${row.also.join(', ')}(;|$)`));
    else assert.doesNotMatch(refusing.note, /also: /);
  }
}

describe('root forms from seed 000', () => {
  for (const row of seedRows) test(row.name, () => check(row));
});

describe('a row for every other guard', () => {
  for (const row of guardRows) test(row.name, () => check(row));
});

describe('Windows rules on roots', () => {
  for (const row of win32Rows) test(row.name, () => check(row));
});

describe('forms a policy allows', () => {
  for (const row of allowedByPolicy) test(row.name, () => check(row));
});

test('every guard of root conversion has a refusal row', () => {
  const rootStages = new Set(['parse', 'refusals', 'decode', 'normalise']);
  const guards = Object.entries(REFUSAL_CODES)
    .filter(([, entry]) => rootStages.has(entry.stage))
    .map(([code]) => code)
    .sort();
  const covered = [...new Set([...seedRows, ...guardRows].flatMap((row) => (row.code ? [row.code] : [])))].sort();
  assert.deepEqual(covered, guards);
});

test('the NFC row keeps the five-byte composed name, unlike its six-byte NFD spelling', () => {
  const converted = rootToPath('file:///srv/caf%C3%A9', { platform: 'linux' });
  assert.ok(converted.ok);
  const name = converted.path.split('/').at(-1)!;
  assert.equal(Buffer.byteLength(name), 5);
  assert.equal(Buffer.byteLength(name.normalize('NFD')), 6);
});

test('Node accepts file://localhost while this product refuses it: a deliberate choice, not an accident', () => {
  assert.equal(fileURLToPath('file://localhost/etc/passwd'), '/etc/passwd');
  const converted = rootToPath('file://localhost/etc/passwd', { platform: 'linux' });
  assert.equal(converted.ok, false);
});
