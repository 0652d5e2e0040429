// Each stage's rules, and properties that hold for any input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { comparisonKey, DEFAULT_POLICY, REFUSAL_CODES, STAGES, trace, PLATFORMS } from '../../src/core/index.js';
import { traceRow, type TraceRow } from './assertTrace.js';

test('policy defaults are the written-down ones', () => {
  // refuse localhost: one spelling per file; refuse UNC: no network shares; auto case: ask the
  // filesystem; contain symlinks: follow a link only when it lands inside.
  assert.deepEqual({ ...DEFAULT_POLICY }, { localhost: 'refuse', unc: 'refuse', case: 'auto', symlinks: 'contain' });
  assert.ok(Object.isFrozen(DEFAULT_POLICY));
});

const ROOT = 'file:///srv/ws';

const rows: readonly TraceRow[] = [
  // parse: nothing to classify
  { name: 'empty input', input: '', root: ROOT, verdict: 'refused', code: 'ERR_PARSE', stage: 'parse' },
  // parse: a URI the parser rejects
  { name: 'unparsable URI', input: 'file://a b/x', root: ROOT, verdict: 'refused', code: 'ERR_PARSE', stage: 'parse' },
  // refusals: the first code of the table wins over a later one
  { name: 'scheme before query', input: 'https://example.com/x?y', root: ROOT, verdict: 'refused', code: 'ERR_SCHEME' },
  // refusals: host before query
  { name: 'host before query', input: 'file://example.com/srv/ws/x?y', root: ROOT, verdict: 'refused', code: 'ERR_HOST' },
  // refusals: an empty query marker is still a marker, though the parser drops it
  { name: 'empty query', input: 'file:///srv/ws/a?', root: ROOT, verdict: 'refused', code: 'ERR_QUERY_OR_FRAGMENT' },
  // refusals: an empty fragment marker
  { name: 'empty fragment', input: 'file:///srv/ws/a#', root: ROOT, verdict: 'refused', code: 'ERR_QUERY_OR_FRAGMENT' },
  // refusals: an encoded localhost is still a host
  { name: 'encoded localhost', input: 'file://%6c%6fcalhost/srv/ws/a', root: ROOT, policy: { localhost: 'allow' }, verdict: 'refused', code: 'ERR_HOST' },
  // refusals: localhost allowed by policy
  { name: 'localhost allowed', input: 'file://localhost/srv/ws/a', root: ROOT, policy: { localhost: 'allow' }, verdict: 'inside', path: '/srv/ws/a' },
  // refusals: a raw NUL in a path
  { name: 'raw NUL in a path', input: 'a\u0000b', root: ROOT, verdict: 'refused', code: 'ERR_NUL' },
  // refusals: a raw tab, which the parser would silently delete
  { name: 'raw tab in a URI', input: 'file:///srv/ws/a\tb', root: ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // refusals: a raw backslash the parser would turn into "/"
  { name: 'raw backslash in a URI', input: 'file:///srv/ws/..\\..\\etc', root: ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // refusals: a relative name with a colon reads as a scheme; "./" makes it a path
  { name: 'colon name as a scheme', input: 'notes:draft.md', root: ROOT, verdict: 'refused', code: 'ERR_SCHEME', reason: /^"notes:draft\.md" is read as a URI with the scheme "notes" .* write "\.\/notes:draft\.md"\.$/ },
  { name: 'colon name as a path', input: './notes:draft.md', root: ROOT, verdict: 'inside', path: '/srv/ws/notes:draft.md' },
  // decode: not UTF-8
  { name: 'invalid UTF-8', input: 'file:///srv/ws/%C3%28', root: ROOT, verdict: 'refused', code: 'ERR_BAD_ENCODING', stage: 'decode' },
  // decode: Latin-1 is not UTF-8
  { name: 'Latin-1 escape', input: 'file:///srv/ws/caf%E9', root: ROOT, verdict: 'refused', code: 'ERR_BAD_ENCODING' },
  // decode: an overlong encoding of "." is invalid UTF-8
  { name: 'overlong dot', input: 'file:///srv/ws/%C0%AE%C0%AE/x', root: ROOT, verdict: 'refused', code: 'ERR_BAD_ENCODING' },
  // decode: a path is never decoded
  { name: 'literal %2e%2e path', input: '%2e%2e/x', root: ROOT, verdict: 'inside', path: '/srv/ws/%2e%2e/x' },
  // normalise: trailing separator dropped
  { name: 'trailing separator', input: 'a/b/', root: ROOT, verdict: 'inside', path: '/srv/ws/a/b' },
  // normalise: the root itself
  { name: 'the root itself', input: '.', root: ROOT, verdict: 'inside', path: '/srv/ws' },
  // normalise: collapsed separators
  { name: 'doubled separators', input: '/srv//ws///a', root: ROOT, verdict: 'inside', path: '/srv/ws/a' },
  // normalise: dot-dot above the filesystem root stays there
  { name: 'above the top', input: '/../../srv/ws/a', root: ROOT, verdict: 'inside', path: '/srv/ws/a' },
  // normalise: a root of "/" contains everything
  { name: 'filesystem root as root', input: '/etc/passwd', root: 'file:///', verdict: 'inside', path: '/etc/passwd' },
  // case: an explicit policy overrides the platform
  { name: 'insensitive on linux', input: '/srv/WS/a', root: ROOT, policy: { case: 'insensitive' }, verdict: 'inside' },
  { name: 'sensitive on win32', input: 'C:\\WS\\a', root: 'C:\\ws', platform: 'win32', policy: { case: 'sensitive' }, verdict: 'outside', code: 'ERR_OUTSIDE' },
  // containment: each reason leads with the plain fact, then where the two paths part
  { name: 'outside: another folder', input: '/etc/passwd', root: 'file:///tmp/notes', verdict: 'outside', code: 'ERR_OUTSIDE', reason: /^\/etc\/passwd is not under the workspace root \/tmp\/notes: after \/, the path goes into "etc", the root into "tmp"\. / },
  { name: 'outside: a sibling whose name starts with the root\'s', input: '/tmp/notes-evil/a', root: 'file:///tmp/notes', verdict: 'outside', code: 'ERR_OUTSIDE', reason: /^\/tmp\/notes-evil\/a is not under the workspace root \/tmp\/notes: after \/tmp, the path goes into "notes-evil", the root into "notes": / },
  { name: 'outside: above the root', input: '/tmp', root: 'file:///tmp/notes', verdict: 'outside', code: 'ERR_OUTSIDE', reason: /^\/tmp is not under the workspace root \/tmp\/notes: it is a folder above the root\. / },
  { name: 'outside: another case', input: '/tmp/Notes/a', root: 'file:///tmp/notes', verdict: 'outside', code: 'ERR_OUTSIDE', reason: /^\/tmp\/Notes\/a is not under the workspace root \/tmp\/notes: after \/tmp, the path goes into "Notes", the root into "notes": they differ only in case/ },
  { name: 'outside: another drive', input: 'D:\\x', root: 'C:\\ws', platform: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE', reason: /^D:\\x is not under the workspace root C:\\ws: it is on D:\\, the root on C:\\\. / },
  // containment: NFC and NFD look the same, so the code points that differ are named
  { name: 'outside: another Unicode form', input: '/tmp/cafe\u0301/a', root: 'file:///tmp/caf%C3%A9', verdict: 'outside', code: 'ERR_OUTSIDE', reason: /the same name in another Unicode form \("e\u0301" \(U\+0065 U\+0301\) in the path, "\u00e9" \(U\+00E9\) in the root\)/u },
];

describe('stage rules', () => {
  for (const row of rows) test(row.name, () => void traceRow(row));
});

test('an empty query is noted at parse and refused at refusals', () => {
  const result = trace('file:///srv/ws/a?', ROOT, { platform: 'linux' });
  assert.match(result.stages[0]!.note, /dropped an empty query/);
  assert.equal(result.stages[1]!.status, 'refuse');
});

test('a refusal lists the other codes that also applied', () => {
  const result = trace('https://example.com/x?y', ROOT, { platform: 'linux' });
  assert.match(result.stages[1]!.note, /also: ERR_QUERY_OR_FRAGMENT/);
});

test('case folding is one code point to one: "ß" is not "SS"', () => {
  const fold = { foldCase: true, foldUnicode: false, basis: '' };
  assert.notEqual(comparisonKey('straße', fold), comparisonKey('STRASSE', fold));
  assert.equal(comparisonKey('Straße', fold), comparisonKey('STRAßE', fold));
  assert.equal(comparisonKey('café', { ...fold, foldUnicode: true }), comparisonKey('CAFE\u0301', { ...fold, foldUnicode: true }));
  assert.notEqual(comparisonKey('café', fold), comparisonKey('CAFE\u0301', fold));
});

test('property: any input on any platform gives a well-formed trace and never throws', () => {
  const input = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme-composite', maxLength: 20 }).map((tail) => `file:///srv/ws/${tail}`),
    fc.constantFrom('file://', 'file:', '\\\\', '//', 'C:', '..', '%', '%2e', '\u0000').chain((head) =>
      fc.string({ maxLength: 20 }).map((tail) => head + tail),
    ),
  );
  fc.assert(
    fc.property(input, fc.constantFrom(...PLATFORMS), (text, platform) => {
      const root = platform === 'win32' ? 'file:///C:/srv/ws' : ROOT;
      const result = trace(text, root, { platform });
      const names = result.stages.map((stage) => stage.stage);
      assert.deepEqual(names, STAGES.slice(0, names.length));
      if (result.verdict === 'inside') {
        assert.equal(result.code, null);
        assert.equal(names.length, STAGES.length);
      } else {
        assert.ok(result.code !== null);
        assert.equal(REFUSAL_CODES[result.code].stage, result.stage, `${result.code} given by ${result.stage}`);
        assert.equal(result.verdict, result.code === 'ERR_OUTSIDE' || result.code === 'ERR_SYMLINK_ESCAPE' ? 'outside' : 'refused');
      }
    }),
    { numRuns: 2000 },
  );
});

test('property: on linux, a relative name without ".." segments is always inside', () => {
  const name = fc.string({ minLength: 1, maxLength: 10 }).filter((text) => !/[/\u0000:]/.test(text) && text !== '..' && text !== '.');
  fc.assert(
    fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), (names) => {
      const result = trace(`./${names.join('/')}`, ROOT, { platform: 'linux' });
      assert.equal(result.verdict, 'inside', result.reason);
    }),
  );
});
