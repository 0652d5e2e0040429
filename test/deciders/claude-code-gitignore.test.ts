// The gitignore patterns Claude Code matches its Read and Edit rules with (gitignore.ts), on a
// table of gitignore(5)'s own examples and the forms its rules take once anchored: a path
// relative to the rule's root, folders above it tested first, letter case ignored.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePattern, matchPatterns } from '../../src/deciders/claude-code/gitignore.js';
import { matcherPattern } from '../../src/deciders/claude-code/rules.js';

const ROWS: readonly (readonly [patterns: readonly string[], path: string, matches: boolean])[] = [
  // A name without a slash matches at any depth.
  [['.env'], '.env', true],
  [['.env'], 'conf/.env', true],
  // ... but only the whole name.
  [['.env'], '.env.local', false],
  [['.env'], 'conf/.env.bak', false],
  // A slash at the start or in the middle anchors at the root.
  [['/a.txt'], 'a.txt', true],
  [['/a.txt'], 'sub/a.txt', false],
  [['sub/b.txt'], 'sub/b.txt', true],
  [['sub/b.txt'], 'x/sub/b.txt', false],
  // A folder matched takes everything below it along.
  [['sub'], 'sub/deep/b.txt', true],
  [['sub/'], 'sub/b.txt', true],
  // A trailing slash matches folders only: a file of that name is not one.
  [['sub/'], 'sub', false],
  // `*` stays within a name; `**/` and `/**/` cross folders; `/**` is everything inside.
  [['*.txt'], 'sub/b.txt', true],
  [['sub/*'], 'sub/b.txt', true],
  [['sub/*'], 'sub', false],
  [['**/*.txt'], 'a/b/c.txt', true],
  [['a/**/c.txt'], 'a/c.txt', true],
  [['a/**/c.txt'], 'a/x/y/c.txt', true],
  [['a/**'], 'a/x', true],
  [['a/**'], 'a', false],
  [['**'], 'anything/at/all', true],
  // `?` is one character of a name; brackets a set of them.
  [['?.txt'], 'a.txt', true],
  [['?.txt'], 'ab.txt', false],
  [['[ab].txt'], 'b.txt', true],
  [['[!ab].txt'], 'b.txt', false],
  // Letter case is ignored, Unicode forms are not folded.
  [['A.TXT'], 'a.txt', true],
  [['caf\u00e9/**'], 'cafe\u0301/n.txt', false],
  // A `!` pattern lets go of a match made before it; a later pattern takes it again.
  [['*.txt', '!keep.txt'], 'keep.txt', false],
  [['*.txt', '!keep.txt', 'keep.*'], 'keep.txt', true],
  // An escaped `#` or `!` is a name; a trailing unescaped space is dropped.
  [['\\#notes'], '#notes', true],
  [['a.txt '], 'a.txt', true],
];

test('gitignore patterns match as gitignore(5) says, ignoring letter case', () => {
  for (const [patterns, path, matches] of ROWS) {
    const compiled = patterns.map((pattern) => compilePattern(pattern)!);
    assert.equal(matchPatterns(compiled, path) !== undefined, matches, `${JSON.stringify(patterns)} on ${path}`);
  }
});

test('comments, blank lines and a trailing backslash are skipped', () => {
  for (const pattern of ['#x', '', '   ', 'a\\']) assert.equal(compilePattern(pattern), null, JSON.stringify(pattern));
});

// How a rule's content reaches the matcher: `x/**` is the folder x; an allow's one-name x is anchored.
const RULE_FORMS: readonly (readonly [pattern: string, allow: boolean, matcher: string])[] = [
  ['sub/**', false, 'sub'],
  ['sub/**', true, '/sub'],
  ['/sub/**', false, '/sub'],
  ['a/b/**', true, 'a/b'],
  ['/**', true, '/**'],
  ['*.txt', true, '*.txt'],
];

test("a rule's pattern as Claude Code hands it to the matcher", () => {
  for (const [pattern, allow, matcher] of RULE_FORMS) assert.equal(matcherPattern(pattern, allow), matcher, `${pattern} (${allow ? 'allow' : 'deny'})`);
});
