// How every view shows text from the disk or the input (src/core/visible.ts), and the core's own
// prose (reasons, notes) holding none of what a view must escape.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { codePoints, hiddenCharacters, LONG_NAME, lookalikeNote, lookalikeParts, quoted, shownParts, trace, visible } from '../../src/core/index.js';

/**
 * What drives a terminal or reorders a line, written here apart from the module: controls,
 * format characters (bidi controls, zero-width ones), separators of lines and paragraphs.
 */
const DRIVES_DISPLAY = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

describe('visible: each hidden character as its JSON escape, everything else as it is', () => {
  const rows: readonly { name: string; text: string; shown: string }[] = [
    // the red team's link target: CSI erase line, cursor up, CR, LF, SGR 8 (conceal)
    { name: 'terminal sequences and line breaks', text: 'id_rsa\u001b[2K\u001b[1A\r\nverdict INSIDE\u001b[8m', shown: 'id_rsa\\u001b[2K\\u001b[1A\\u000d\\u000averdict INSIDE\\u001b[8m' },
    // Trojan Source: RIGHT-TO-LEFT OVERRIDE turns "txt.exe" around on screen
    { name: 'bidi override', text: 'invoice\u202etxt.exe', shown: 'invoice\\u202etxt.exe' },
    // the isolates and marks of the bidi algorithm
    { name: 'bidi isolates and marks', text: '\u2066a\u2069\u200e\u200f\u061c', shown: '\\u2066a\\u2069\\u200e\\u200f\\u061c' },
    // zero-width space, joiner, non-joiner, word joiner, BOM, soft hyphen
    { name: 'zero-width and invisible', text: 'a\u200bb\u200dc\u200cd\u2060e\ufeff\u00ad', shown: 'a\\u200bb\\u200dc\\u200cd\\u2060e\\ufeff\\u00ad' },
    // DEL and C1 controls (U+009B is a one-character CSI on some terminals)
    { name: 'DEL and C1', text: 'x\u007f\u0085\u009b2J', shown: 'x\\u007f\\u0085\\u009b2J' },
    // line and paragraph separators break lines in editors and JavaScript
    { name: 'line and paragraph separators', text: 'a\u2028b\u2029c', shown: 'a\\u2028b\\u2029c' },
    // Hangul filler: a letter by category, blank on screen
    { name: 'default-ignorable filler', text: 'x\u3164y', shown: 'x\\u3164y' },
    // a tag character, outside the BMP: escaped as JSON writes it, two surrogates
    { name: 'tag character', text: 'a\u{e0041}', shown: 'a\\udb40\\udc41' },
    // a lone surrogate cannot be encoded in any output
    { name: 'lone surrogate', text: 'a\ud800b', shown: 'a\\ud800b' },
    // what is visible stays as it is: accents in both forms, other scripts, emoji, a backslash
    { name: 'ordinary text', text: 'café cafe\u0301 日本 😀 C:\\Users "q"', shown: 'café cafe\u0301 日本 😀 C:\\Users "q"' },
  ];
  for (const row of rows) {
    test(row.name, () => {
      assert.equal(visible(row.text), row.shown);
      assert.equal(DRIVES_DISPLAY.exec(visible(row.text)), null);
    });
  }

  test('property: nothing that drives a display is left, and the escapes read back as the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        assert.equal(DRIVES_DISPLAY.exec(visible(text)), null);
        assert.equal(DRIVES_DISPLAY.exec(quoted(text)), null);
        assert.equal(JSON.parse(quoted(text)), text);
      }),
      { numRuns: 2000 },
    );
  });

  test('hiddenCharacters lists each once, in the order met', () => {
    assert.deepEqual(hiddenCharacters('a\u202eb\u200bc\u202e'), ['\u202e', '\u200b']);
    assert.deepEqual(hiddenCharacters('café'), []);
  });
});

describe('shortened: a long name cut to its ends, the whole kept behind the parts', () => {
  test('a 2,000-character name in a path: its ends and a count; short names whole', () => {
    const name = `${'a'.repeat(1000)}${'b'.repeat(1000)}`;
    const shown = visible(`/ws/${name}/x.txt`, { shorten: true });
    assert.equal(shown, `/ws/${'a'.repeat(40)}…(1,920 characters)…${'b'.repeat(40)}/x.txt`);
    assert.equal(visible(`/ws/${'a'.repeat(LONG_NAME)}`, { shorten: true }), `/ws/${'a'.repeat(LONG_NAME)}`);
    // Without `shorten`, nothing is cut.
    assert.equal(visible(`/ws/${name}`), `/ws/${name}`);
  });

  test('property: the parts give back the text, and no shown name is longer than the limit and its count', () => {
    const long = fc.string({ unit: 'binary', minLength: LONG_NAME - 5, maxLength: 300 });
    fc.assert(
      fc.property(fc.array(fc.oneof(long, fc.string({ maxLength: 5 }), fc.constantFrom('/', '\\', ' ')), { maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        const parts = shownParts(text, { shorten: true });
        assert.equal(parts.map((part) => part.real).join(''), text);
        const shown = parts.map((part) => part.shown).join('');
        assert.equal(DRIVES_DISPLAY.exec(shown), null);
      }),
      { numRuns: 500 },
    );
  });
});

describe('lookalikeParts: where two names that look alike differ', () => {
  const rows: readonly { name: string; a: string; b: string; parts: readonly [string, string] | undefined }[] = [
    // NFC against NFD: the accented letter, its mark kept with it
    { name: 'NFC and NFD', a: 'caf\u00e9', b: 'cafe\u0301', parts: ['\u00e9', 'e\u0301'] },
    // in the middle of the name
    { name: 'NFD inside', a: 're\u0301sume\u0301.txt', b: 'r\u00e9sum\u00e9.txt', parts: ['e\u0301sume\u0301', '\u00e9sum\u00e9'] },
    // KELVIN SIGN against a Latin K: a case twin that looks the same
    { name: 'Kelvin sign', a: '\u212a.txt', b: 'k.txt', parts: ['\u212a', 'k'] },
    // a zero-width space hidden in one of them
    { name: 'zero-width space', a: 'ab', b: 'a\u200bb', parts: ['', '\u200b'] },
    { name: 'the same name', a: 'x', b: 'x', parts: undefined },
    // a difference in ASCII shows on screen: nothing to point out
    { name: 'an ASCII difference', a: 'README.md', b: 'Readme.md', parts: undefined },
  ];
  for (const row of rows) {
    test(row.name, () => assert.deepEqual(lookalikeParts(row.a, row.b), row.parts));
  }
  test('codePoints', () => assert.equal(codePoints('e\u0301\u{1f600}'), 'U+0065 U+0301 U+1F600'));
  test('lookalikeNote: the first names of two paths that differ, in words', () => {
    assert.equal(lookalikeNote('/ws/caf\u00e9/menu.md', '/ws/cafe\u0301/menu.md'), '"e\u0301" (U+0065 U+0301) here, "\u00e9" (U+00E9) in the input');
    assert.equal(lookalikeNote('/ws/Docs/a', '/ws/docs/a'), undefined);
  });
});

test("property: the core's reasons and notes hold nothing a view must escape, whatever the input", () => {
  const hidden = fc.constantFrom('\u001b[2J', '\r\n', '\u202e', '\u200b', '\u2028', '\u0085', '%1b', '%0d%0a', '%e2%80%ae', '%c2%85');
  const input = fc
    .array(fc.oneof(hidden, fc.string({ maxLength: 6 }), fc.constantFrom('/', '..', 'file:///srv/ws/', 'file:///etc/', 'x:y', 'C:\\')), { maxLength: 8 })
    .map((pieces) => pieces.join(''));
  fc.assert(
    fc.property(input, fc.constantFrom('linux', 'darwin', 'win32') as fc.Arbitrary<'linux' | 'darwin' | 'win32'>, (text, platform) => {
      const root = platform === 'win32' ? 'file:///C:/srv/ws' : 'file:///srv/ws';
      const result = trace(text, root, { platform });
      assert.equal(DRIVES_DISPLAY.exec(result.reason), null, `reason: ${JSON.stringify(result.reason)}`);
      for (const stage of result.stages) {
        assert.equal(DRIVES_DISPLAY.exec(stage.note), null, `${stage.stage} note: ${JSON.stringify(stage.note)}`);
        assert.equal(DRIVES_DISPLAY.exec(stage.rule), null, `${stage.stage} rule: ${JSON.stringify(stage.rule)}`);
      }
    }),
    { numRuns: 3000 },
  );
});
