// What the stage table marks as changed between a stage's input and output (webview/diff.ts).
// Expectations are written with each changed span in [brackets]: removed from the input on the
// left, added to the output on the right.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { trace, type Platform } from '../../src/core/index.js';
import { MAX_DIFF_LENGTH, stageChange, type Segment } from '../../webview/diff.js';

function marked(segments: readonly Segment[]): string {
  return segments.map((segment) => (segment.changed ? `[${segment.text}]` : segment.text)).join('');
}

interface Row {
  readonly name: string;
  readonly input: string;
  readonly output: string;
  readonly removed: string;
  readonly added: string;
}

const rows: readonly Row[] = [
  // the parser resolves an encoded dot-dot: the names it swallowed, not scattered letters
  { name: 'encoded dot-dot', input: 'file:///w/notes/%2e%2e/outside/secret.txt', output: 'file:///w/outside/secret.txt', removed: 'file:///w/[notes/%2e%2e/]outside/secret.txt', added: 'file:///w/outside/secret.txt' },
  // the parser decodes %2E to "." but keeps the segment
  { name: 'upper-case encoded dot-dot kept as a segment', input: 'file:///w/notes/%2E%2E/x', output: 'file:///w/notes/../x', removed: 'file:///w/notes/[%2E%2E]/x', added: 'file:///w/notes/[..]/x' },
  // normalise resolves a relative path against the root: one run, not "a" removed and ".." become "w"
  { name: 'relative dot-dot resolved against the root', input: 'a/../b/Readme.MD', output: '/w/notes/b/Readme.MD', removed: '[a/..]/b/Readme.MD', added: '[/w/notes]/b/Readme.MD' },
  // case folding marks the letters that changed, not the ones already upper case
  { name: 'case folded', input: '/w/notes/b/Readme.MD', output: '/W/NOTES/B/README.MD', removed: '/[w]/[notes]/[b]/R[eadme].MD', added: '/[W]/[NOTES]/[B]/R[EADME].MD' },
  // realpath follows a link: the link's name for the target's
  { name: 'link hop', input: '/w/link/x', output: '/w/target/x', removed: '/w/[link]/x', added: '/w/[target]/x' },
  // a link whose chain lands outside: two names for one, the separators around them kept
  { name: 'symlink escape', input: '/base/notes/escape/secret.txt', output: '/base/outside/secret.txt', removed: '/base/[notes/escape]/secret.txt', added: '/base/[outside]/secret.txt' },
  // letters two unrelated names share are not matched up
  { name: 'unrelated names marked whole', input: '/w/notes/a/link/file', output: '/w/other/file', removed: '/w/[notes/a/link]/file', added: '/w/[other]/file' },
  // decode: each escape becomes its character, the "2" between them is kept
  { name: 'decoded escapes', input: '/w/report%232%20draft.pdf', output: '/w/report#2 draft.pdf', removed: '/w/report[%23]2[%20]draft.pdf', added: '/w/report[#]2[ ]draft.pdf' },
  // decode on win32: the drive's escape and slash, then each separator
  { name: 'win32 drive and separators', input: '/c%3A/Users/dev/a.ts', output: 'c:\\Users\\dev\\a.ts', removed: '[/c%3A/]Users[/]dev[/]a.ts', added: '[c:\\]Users[\\]dev[\\]a.ts' },
  // normalise upper-cases the drive letter only
  { name: 'drive letter upper-cased', input: 'c:\\Users\\a.ts', output: 'C:\\Users\\a.ts', removed: '[c]:\\Users\\a.ts', added: '[C]:\\Users\\a.ts' },
  // NFC to NFD: the one code point that became two
  { name: 'Unicode form changed', input: '/w/caf\u00e9', output: '/w/cafe\u0301', removed: '/w/caf[\u00e9]', added: '/w/caf[e\u0301]' },
  // an emoji is one code point: never half of its surrogate pair
  { name: 'astral code point kept whole', input: '/w/a\u{1F600}b', output: '/w/a\u{1F601}b', removed: '/w/a[\u{1F600}]b', added: '/w/a[\u{1F601}]b' },
  // a trailing separator dropped
  { name: 'trailing separator', input: '/w/x/', output: '/w/x', removed: '/w/x[/]', added: '/w/x' },
  // nothing before: all of it added
  { name: 'from empty', input: '', output: '/w', removed: '', added: '[/w]' },
  { name: 'unchanged', input: '/w/notes/hello.txt', output: '/w/notes/hello.txt', removed: '/w/notes/hello.txt', added: '/w/notes/hello.txt' },
];

describe('stageChange marks what a stage changed', () => {
  for (const row of rows) {
    test(row.name, () => {
      const change = stageChange(row.input, row.output);
      assert.equal(marked(change.input), row.removed, 'input');
      assert.equal(marked(change.output), row.added, 'output');
    });
  }
});

/** The invariants every answer keeps, whatever the strings. */
function assertWellFormed(input: string, output: string): void {
  const change = stageChange(input, output);
  for (const [side, segments, text] of [['input', change.input, input], ['output', change.output, output]] as const) {
    assert.equal(segments.map((segment) => segment.text).join(''), text, `${side}: the segments spell it`);
    segments.forEach((segment, i) => {
      assert.notEqual(segment.text, '', `${side}: no empty segment`);
      if (i > 0) assert.notEqual(segment.changed, segments[i - 1]!.changed, `${side}: neighbours differ`);
      // Both halves of a surrogate pair stay in one segment.
      assert.doesNotMatch(segment.text, /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/, `${side}: ${JSON.stringify(segment.text)} splits a code point`);
    });
  }
  const kept = (segments: readonly Segment[]) => segments.filter((segment) => !segment.changed).map((segment) => segment.text).join('');
  assert.equal(kept(change.input), kept(change.output), 'what is kept is the same on both sides');
  if (input === output) assert.ok(change.input.every((segment) => !segment.changed), 'nothing marked when nothing changed');
}

const pathPiece = fc.constantFrom('/', '\\', 'a', 'B', 'notes', 'NOTES', '..', '%2e', '%2E', '%23', '#', ' ', 'caf\u00e9', 'cafe\u0301', '\u{1F600}', '\u{1F601}', 'c:', 'file://');
const pathLike = fc.array(pathPiece, { maxLength: 12 }).map((pieces) => pieces.join(''));

test('property: the segments spell both strings, keep the same text on both sides, and split no code point', () => {
  fc.assert(fc.property(pathLike, pathLike, assertWellFormed), { numRuns: 2000 });
  fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }), assertWellFormed), { numRuns: 1000 });
  fc.assert(fc.property(pathLike, (path) => assertWellFormed(path, path.toUpperCase())), { numRuns: 500 });
});

test('every row of real traces keeps the invariants', () => {
  const policy = { localhost: 'refuse', unc: 'refuse', case: 'insensitive', symlinks: 'contain' } as const;
  const cases: readonly [string, string, Platform][] = [
    ['file:///w/notes/%2e%2e/outside/secret.txt', 'file:///w/notes', 'linux'],
    ['a/../b/Readme.MD', 'file:///w/notes', 'darwin'],
    ['file:///c%3A/Users/dev/app/src/a.ts', 'file:///c%3A/Users/dev/app', 'win32'],
    ['file:///w/notes/report%232%20draft.pdf', 'file:///w/notes', 'linux'],
  ];
  for (const [input, root, platform] of cases) {
    const result = trace(input, root, { platform, policy });
    for (const stage of [...result.rootStages, ...result.stages]) {
      if (stage.output !== null) assertWellFormed(stage.input, stage.output);
    }
  }
});

test('long inputs: past MAX_DIFF_LENGTH nothing is aligned, only the common prefix and suffix are kept', () => {
  // Two names changed far apart: aligned, each is marked alone; past the bound, one span covers both.
  const pair = (names: number) => [`/w/a/${'x/'.repeat(names)}b/end`, `/w/A/${'x/'.repeat(names)}B/end`] as const;
  const [shortInput, shortOutput] = pair(10);
  assert.deepEqual(stageChange(shortInput, shortOutput).input.map((segment) => segment.changed), [false, true, false, true, false]);
  const [input, output] = pair(MAX_DIFF_LENGTH);
  const change = stageChange(input, output);
  assert.deepEqual(change.input.map((segment) => segment.changed), [false, true, false]);
  assert.equal(change.input[0]!.text, '/w/');
  assert.equal(change.output[2]!.text, '/end');
  assertWellFormed(input, output);
});

test('many names changed past the edit bound: still marked, between a common prefix and suffix', () => {
  const input = `/w/${Array.from({ length: 400 }, (_, i) => `n${i}`).join('/')}/end`;
  const output = `/w/${Array.from({ length: 400 }, (_, i) => `m${i}`).join('/')}/end`;
  const change = stageChange(input, output);
  // "399/end" is common to both ends, so it stays unmarked.
  assert.equal(marked(change.input), `/w/[${input.slice(3, -7)}]399/end`);
  assertWellFormed(input, output);
});
