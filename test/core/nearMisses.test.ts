// Near misses: existing entries an input nearly named, on a real temp tree (this Linux
// filesystem keeps case and Unicode forms apart). Each row names the slip it pins; the rest pin
// the bounds: one folder, a few hundred names, ten answers, and nothing outside looked up.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DEFAULT_MAX_NAMES,
  MAX_NEAR_MISSES,
  findNearMisses,
  prepareRoot,
  trace,
  traceAgainst,
  withNearMisses,
  type FileSystemPort,
  type NearMiss,
  type NearMissOptions,
  type Trace,
} from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { recording, searched } from './nearMissSearch.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-near-')));
after(() => fs.rmSync(base, { recursive: true, force: true }));

const at = (...names: string[]): string => path.join(base, ...names);
const uriOf = (...names: string[]): string => pathToFileURL(at(...names)).href;
const WS = at('ws');
const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';
const BIG = 3000;

const dir = (...names: string[]) => fs.mkdirSync(at(...names), { recursive: true });
const file = (...names: string[]) => fs.writeFileSync(at(...names), 'x\n');
dir('ws', 'docs');
file('ws', 'docs', 'README.md');
dir('ws', NFC);
file('ws', NFC, 'note.txt');
file('ws', 'my file.txt');
file('ws', 'a#b.txt');
file('ws', 'q?x.txt');
file('ws', 'draft 2.md');
file('ws', 'report.txt.');
file('ws', 'notes');
dir('ws', 'big');
for (let i = 0; i < BIG; i++) file('ws', 'big', `f${String(i).padStart(4, '0')}`);
file('ws', 'big', 'zzz');
dir('ws', 'dots');
for (const suffix of ['.', '..', '...', ' ', '  ', '. ', ' .', '.. ', ' ..', '. .', ' . ', '....', '    ', '.  ']) file('ws', 'dots', `t${suffix}`);
dir('outside');
file('outside', 'secret');
dir('other', 'inner');
file('other', 'x.txt');
fs.symlinkSync('../outside', at('ws', 'link-out'));
fs.symlinkSync('docs', at('ws', 'link-in'));

const root = prepareRoot(WS, { platform: 'linux', fs: nodeFileSystem });

/** Traces, finds near misses with a recording port, and checks nothing outside the workspace was touched. */
function nearMisses(input: string, options: Omit<NearMissOptions, 'fs'> = {}) {
  return searched(root, WS, input, options);
}

const isInsideWs = (p: string) => p === WS || p.startsWith(`${WS}/`);

const miss = (why: NearMiss['why'], ...names: string[]): NearMiss => ({ path: at(...names), uri: uriOf(...names), why });

describe('near misses: one row per slip', () => {
  const rows: readonly { name: string; input: string; verdict: Trace['verdict']; expected: NearMiss[] }[] = [
    // a folder in the wrong case, the rest of the path found below the right one
    { name: 'case twin', input: 'Docs/README.md', verdict: 'inside', expected: [miss('case', 'ws', 'docs', 'README.md')] },
    // a file in the wrong case, found among the names of its folder
    { name: 'case twin of a file', input: 'docs/readme.md', verdict: 'inside', expected: [miss('case', 'ws', 'docs', 'README.md')] },
    // through a link that stays inside: searched at its real path
    { name: 'case twin through an inside link', input: 'link-in/readme.md', verdict: 'inside', expected: [miss('case', 'ws', 'docs', 'README.md')] },
    // the NFD spelling of an NFC folder name
    { name: 'NFD twin', input: `${NFD}/note.txt`, verdict: 'inside', expected: [miss('unicode', 'ws', NFC, 'note.txt')] },
    // a path is never decoded: the name with its %20 decoded exists
    { name: 'percent-encoded path', input: 'my%20file.txt', verdict: 'inside', expected: [miss('percent-encoding', 'ws', 'my file.txt')] },
    // a raw "#" made the rest of the name a fragment
    { name: 'fragment cut the name', input: `${uriOf('ws')}/a#b.txt`, verdict: 'refused', expected: [miss('percent-encoding', 'ws', 'a#b.txt')] },
    // a raw "?" made the rest of the name a query
    { name: 'query cut the name', input: `${uriOf('ws')}/q?x.txt`, verdict: 'refused', expected: [miss('percent-encoding', 'ws', 'q?x.txt')] },
    // a raw trailing space (refused: a parser drops it, a path keeps it): the name went on after it
    { name: 'space cut the name', input: `${uriOf('ws')}/draft `, verdict: 'refused', expected: [miss('percent-encoding', 'ws', 'draft 2.md')] },
    // the entry's name ends in a dot the input left out
    { name: 'trailing dot on disk', input: 'report.txt', verdict: 'inside', expected: [miss('trailing-dot-space', 'ws', 'report.txt.')] },
    // the input's name ends in a space the entry does not have
    { name: 'trailing space in the input', input: 'notes ', verdict: 'inside', expected: [miss('trailing-dot-space', 'ws', 'notes')] },
    // the root's own name in another case: compared by name, then found below the root
    { name: 'root name in the wrong case', input: path.join(base, 'WS', 'docs', 'README.md'), verdict: 'outside', expected: [miss('case', 'ws', 'docs', 'README.md')] },
    // a twin in a folder too big to list is still found by looking up its other case
    { name: 'case twin in a huge folder', input: 'big/ZZZ', verdict: 'inside', expected: [miss('case', 'ws', 'big', 'zzz')] },
    // the workspace folder's own name repeated at the start of a path already inside it
    { name: "the workspace's name repeated", input: 'ws/docs/README.md', verdict: 'inside', expected: [miss('root-name', 'ws', 'docs', 'README.md')] },
    // an absolute path written as if the workspace were the filesystem's root
    { name: "written from the filesystem's root", input: '/docs/README.md', verdict: 'outside', expected: [miss('root-relative', 'ws', 'docs', 'README.md')] },
    // both: from the filesystem's root, and through the workspace's own name
    { name: "the workspace's name from the filesystem's root", input: '/ws/docs/README.md', verdict: 'outside', expected: [miss('root-name', 'ws', 'docs', 'README.md')] },
    // as a URI too
    { name: "a URI from the filesystem's root", input: 'file:///docs/README.md', verdict: 'outside', expected: [miss('root-relative', 'ws', 'docs', 'README.md')] },
    // Windows' separator, one name here
    { name: 'a backslash for a slash', input: 'docs\\README.md', verdict: 'inside', expected: [miss('separator', 'ws', 'docs', 'README.md')] },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const { trace: traced, misses } = nearMisses(row.input);
      assert.equal(traced.verdict, row.verdict, `${row.input}: ${traced.reason}`);
      assert.deepEqual(misses, row.expected);
      assert.deepEqual(withNearMisses(traced, root, { fs: nodeFileSystem }).nearMisses, row.expected);
    });
  }

  test('another granted workspace holding the path is named, the most specific one', () => {
    const others = [
      { uri: pathToFileURL(at('other')).href, path: at('other') },
      { uri: pathToFileURL(at('other', 'inner')).href, path: at('other', 'inner') },
      { uri: pathToFileURL(WS).href, path: WS },
    ];
    const { trace: traced, misses, touched } = nearMisses('../other/inner/y.txt', { otherWorkspaces: others });
    assert.equal(traced.code, 'ERR_OUTSIDE');
    assert.deepEqual(misses, [{ ...miss('workspace', 'other', 'inner', 'y.txt'), workspace: pathToFileURL(at('other', 'inner')).href }]);
    assert.deepEqual(touched, [], 'by names alone');
    assert.deepEqual(nearMisses('../other/x.txt', { otherWorkspaces: others }).misses, [{ ...miss('workspace', 'other', 'x.txt'), workspace: others[0]!.uri }]);
    // the trace's own root is no other workspace
    assert.deepEqual(nearMisses('../nowhere.txt', { otherWorkspaces: [others[2]!] }).misses, []);
  });

  test('simulated: no disk, but another workspace is found by names', () => {
    const simulated = prepareRoot('C:\\ws', { platform: 'win32' });
    const traced = traceAgainst(simulated, 'C:\\other\\x.txt');
    const others = [{ uri: 'file:///C:/other', path: 'C:\\other' }];
    assert.deepEqual(findNearMisses(traced, simulated, { otherWorkspaces: others }), [
      { path: 'C:\\other\\x.txt', uri: 'file:///C:/other/x.txt', why: 'workspace', workspace: 'file:///C:/other' },
    ]);
    const linux = prepareRoot(WS, { platform: 'linux' });
    assert.deepEqual(findNearMisses(traceAgainst(linux, 'Docs/README.md'), linux, { fs: nodeFileSystem }), [], 'a simulated trace never consults a port');
  });

  test('a path from the wrong place is offered only where all of it exists below the root, and never climbs', () => {
    // relative and outside: it named the place it meant
    assert.deepEqual(nearMisses('../docs/README.md').misses, []);
    // below the root, not all of it is there
    assert.deepEqual(nearMisses('/docs/nothing.md').misses, []);
    assert.deepEqual(nearMisses('ws/nothing/README.md').misses, []);
    // split at its backslashes, the path would climb out
    assert.deepEqual(nearMisses('..\\outside\\secret').misses, []);
    // through a link: the entries reached by folders that are not links only
    assert.deepEqual(nearMisses('/link-out/secret').misses, []);
    // the root's name alone names the root, which is no near miss
    assert.deepEqual(nearMisses('ws').misses, []);
  });

  test('a URI is decoded once: a double-encoded name is no percent-encoding near miss', () => {
    const { misses } = nearMisses(`${uriOf('ws')}/my%2520file.txt`);
    assert.deepEqual(misses, []);
  });
});

describe('near misses: when none are looked for', () => {
  test('an existing entry inside: empty, the shared frozen array, and the port never asked', () => {
    const one = traceAgainst(root, 'docs/README.md');
    const two = trace('notes', WS, { platform: 'linux', fs: nodeFileSystem });
    assert.deepEqual(one.nearMisses, []);
    assert.equal(one.nearMisses, two.nearMisses);
    assert.ok(Object.isFrozen(one.nearMisses));
    const { port, touched } = recording();
    assert.deepEqual(findNearMisses(one, root, { fs: port }), []);
    assert.deepEqual(touched, []);
    assert.equal(withNearMisses(one, root, { fs: port }), one, 'the same trace back');
  });

  test('a missing name with nothing like it: none', () => {
    const { trace: traced, misses } = nearMisses('docs/unrelated.md');
    assert.equal(traced.kind, 'missing');
    assert.deepEqual(misses, []);
  });

  test('traceAgainst itself never looks: a missing name with a twin still has none', () => {
    assert.deepEqual(traceAgainst(root, 'Docs/README.md').nearMisses, []);
  });

  test('a refused root: none', () => {
    const refused = prepareRoot('https://example.com/ws', { platform: 'linux', fs: nodeFileSystem });
    assert.deepEqual(findNearMisses(traceAgainst(refused, 'x'), refused), []);
  });
});

describe('near misses: bounded', () => {
  test(`a folder of ${BIG} names: at most maxNames read, in one listing`, () => {
    const traced = traceAgainst(root, 'big/nothing-like-it');
    for (const maxNames of [0, 1, 100, DEFAULT_MAX_NAMES]) {
      const { port, listings } = recording();
      findNearMisses(traced, root, { fs: port, maxNames });
      const read = listings.reduce((sum, listing) => sum + listing.count, 0);
      assert.ok(read <= maxNames, `read ${read} names with maxNames ${maxNames}`);
      assert.ok(listings.every((listing) => listing.max <= maxNames));
      assert.equal(listings.length, maxNames === 0 ? 0 : 1);
    }
    assert.ok(DEFAULT_MAX_NAMES <= 500, 'a few hundred by default');
  });

  test('the host port reads no more than it is asked for', () => {
    assert.equal(nodeFileSystem.listNames!(at('ws', 'big'), 50)!.length, 50);
    assert.equal(nodeFileSystem.listNames!(at('ws', 'big'), 0)!.length, 0);
    assert.equal(nodeFileSystem.listNames!(at('ws', 'link-in'), 50), null, 'a link is not listed');
    assert.equal(nodeFileSystem.listNames!(at('ws', 'missing'), 50), null);
  });

  test(`at most ${MAX_NEAR_MISSES} near misses, no path twice`, () => {
    const { misses } = nearMisses('dots/t');
    assert.equal(misses.length, MAX_NEAR_MISSES);
    assert.equal(new Set(misses.map((m) => m.path)).size, misses.length);
    assert.ok(misses.every((m) => m.why === 'trailing-dot-space' && path.dirname(m.path) === at('ws', 'dots')));
  });
});

describe('near misses: never outside', () => {
  const rows: readonly { name: string; input: string }[] = [
    // outside by dot-dot, an outside folder holding the name in another case
    { name: 'outside by dot-dot', input: '../outside/Secret' },
    // the same, absolute
    { name: 'outside, absolute', input: at('outside', 'Secret') },
    // through a link to the outside folder: the link is not followed
    { name: 'symlink escape', input: 'link-out/Secret' },
    // a fragment cut outside the root
    { name: 'fragment cut outside', input: `${uriOf('outside')}/sec#ret` },
    // a path climbing out with percent-encoding
    { name: 'encoded name outside', input: '../outside/s%65cret' },
  ];
  for (const row of rows) {
    test(`${row.name}: no near miss, nothing outside looked up`, () => {
      const { trace: traced, misses, touched } = nearMisses(row.input);
      assert.notEqual(traced.verdict, 'inside');
      assert.deepEqual(misses, []);
      assert.ok(touched.every(isInsideWs));
    });
  }

  test('a folder that changes while it is searched: nothing found on disk is kept', () => {
    let listed = false;
    const port: FileSystemPort = {
      lstat(p) {
        const look = nodeFileSystem.lstat(p);
        // After the listing the folder reads as another one, as if swapped for a link and back.
        return listed && p === at('ws', 'docs') && look.kind === 'directory' ? { ...look, ino: look.ino + 1n } : look;
      },
      readlink: nodeFileSystem.readlink,
      listNames(folder, max) {
        listed = true;
        return nodeFileSystem.listNames!(folder, max);
      },
    };
    const traced = traceAgainst(root, 'docs/readme.md');
    assert.deepEqual(findNearMisses(traced, root, { fs: nodeFileSystem }), [miss('case', 'ws', 'docs', 'README.md')]);
    assert.deepEqual(findNearMisses(traced, root, { fs: port }), []);
  });
});
