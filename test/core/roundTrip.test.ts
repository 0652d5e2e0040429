// The reverse direction: a URI this product publishes must convert back to the same path, by
// Node's fileURLToPath and by this product's own root conversion. A name that fails is a name
// the server cannot address.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { pathToUri, rootToPath, trace, type Platform } from '../../src/core/index.js';

const awkwardNames: readonly string[] = [
  'my project', // space
  'report#2 draft.pdf', // "#" would start a fragment if concatenated
  'what?.md', // "?" would start a query
  '100%.txt', // "%" must be encoded, or it reads as an escape
  '%2e%2e', // a literal name that looks like an encoded dot-dot
  'notes \u{1F4DD}.md', // emoji, four UTF-8 bytes
  'trailing.', // trailing dot
  'caf\u00e9', // NFC
  'cafe\u0301', // NFD
  'c#', // the team whose repository has a directory called c#
  'semi;colon,comma', // sub-delimiters
  '[brackets]', // gen-delimiters
];

function roundTrip(path: string, platform: Platform) {
  const uri = pathToUri(path, platform);
  assert.equal(fileURLToPath(uri, { windows: platform === 'win32' }), path, `fileURLToPath(${uri})`);
  const converted = rootToPath(uri, { platform });
  assert.ok(converted.ok, `${uri} refused: ${!converted.ok && converted.reason}`);
  assert.equal(converted.path, path, `rootToPath(${uri})`);
  assert.doesNotMatch(uri, /[#?]/, 'a published URI never carries a query or fragment marker');
}

describe('awkward names round-trip on linux', () => {
  for (const name of awkwardNames) test(JSON.stringify(name), () => roundTrip(`/srv/ws/${name}`, 'linux'));
});

describe('awkward names round-trip on win32', () => {
  // Windows drops a trailing dot when it opens a file, so Win32 cannot name "trailing." at all.
  for (const name of awkwardNames.filter((name) => !/[?. ]$/.test(name) && !/[?]/.test(name))) {
    test(JSON.stringify(name), () => roundTrip(`C:\\ws\\${name}`, 'win32'));
  }
});

describe('UNC shares round-trip on win32, the host as written', () => {
  const shares: readonly { path: string; uri: string }[] = [
    // a non-ASCII host: published percent-encoded, never as the parser's "xn--shres-hra"
    { path: '\\\\sh\u00e4res\\team\\x', uri: 'file://sh%C3%A4res/team/x' },
    // Node's pathToFileURL row
    { path: '\\\\nas\\My Docs\\File.doc', uri: 'file://nas/My%20Docs/File.doc' },
    // an upper-case host keeps its case
    { path: '\\\\BUILD-01\\Shared\\report#2.md', uri: 'file://BUILD-01/Shared/report%232.md' },
  ];
  for (const share of shares) {
    test(share.path, () => {
      const uri = pathToUri(share.path, 'win32');
      assert.equal(uri, share.uri);
      const converted = rootToPath(uri, { platform: 'win32', policy: { unc: 'allow' } });
      assert.ok(converted.ok, `${uri} refused: ${!converted.ok && converted.reason}`);
      assert.equal(converted.path, share.path);
      // Node lower-cases an ASCII host; server names compare without case.
      assert.equal(fileURLToPath(uri, { windows: true }).toUpperCase(), share.path.toUpperCase());
    });
  }
});

test('NFC and NFD names publish different URIs and come back unchanged', () => {
  const nfc = pathToUri('/srv/caf\u00e9', 'linux');
  const nfd = pathToUri('/srv/cafe\u0301', 'linux');
  assert.notEqual(nfc, nfd);
  assert.equal(nfc, 'file:///srv/caf%C3%A9');
  assert.equal(nfd, 'file:///srv/cafe%CC%81');
});

test('a published URI traces inside the workspace it came from', () => {
  const uri = pathToUri('/srv/ws/report#2 draft.pdf', 'linux');
  const result = trace(uri, 'file:///srv/ws', { platform: 'linux' });
  assert.equal(result.verdict, 'inside');
  assert.equal(result.path, '/srv/ws/report#2 draft.pdf');
});

test('pathToUri refuses a relative path rather than resolving it against the working directory', () => {
  assert.throws(() => pathToUri('relative/name', 'linux'), TypeError);
  assert.throws(() => pathToUri('/posix/on/windows', 'win32'), TypeError);
});

// Names a filesystem of each platform can hold: no separator, no NUL, not "." or "..".
const posixName = fc
  .string({ unit: 'grapheme-composite', minLength: 1, maxLength: 12 })
  .filter((name) => !name.includes('/') && !name.includes('\u0000') && name !== '.' && name !== '..');
const win32Name = fc
  .string({ unit: 'grapheme-composite', minLength: 1, maxLength: 12 })
  .filter(
    (name) =>
      !/[<>:"/\\|?*\u0000-\u001f]/.test(name) &&
      !/[. ]$/.test(name) &&
      !/^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])(\..*)?$/i.test(name),
  );

test('property: every POSIX name round-trips', () => {
  fc.assert(
    fc.property(fc.array(posixName, { minLength: 1, maxLength: 4 }), (names) => roundTrip(`/${names.join('/')}`, 'linux')),
    { numRuns: 500 },
  );
});

test('property: every Win32 name round-trips', () => {
  fc.assert(
    fc.property(fc.array(win32Name, { minLength: 1, maxLength: 4 }), (names) => roundTrip(`C:\\${names.join('\\')}`, 'win32')),
    { numRuns: 500 },
  );
});
