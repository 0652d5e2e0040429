// fast-check generators of hostile requests: names from the fixture and their look-alikes
// (another case, NFC or NFD, dotless i, the Kelvin sign, long s, fullwidth forms), dot segments,
// both separators and runs of them, percent-encoding of every kind (letters, dots, separators,
// `%25` double encoding), hosts, queries and fragments, and on Windows drives, shares, device
// paths, streams and reserved device names.
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Policy } from '../../src/core/index.js';

export type FuzzPlatform = 'linux' | 'win32' | 'darwin';

/** One request to judge: where, against which root, under which policy. */
export interface Case {
  readonly platform: FuzzPlatform;
  readonly root: string;
  readonly input: string;
  readonly policy: Partial<Policy>;
  readonly followFinal: boolean;
}

/** How a piece of text is spelt inside a URI. */
type Encoding = 'raw' | 'minimal' | 'lower' | 'upper' | 'mixed' | 'double';

interface Piece {
  readonly text: string;
  readonly encoding: Encoding;
}

const hex = (byte: number, upper: boolean) => {
  const digits = byte.toString(16).padStart(2, '0');
  return `%${upper ? digits.toUpperCase() : digits}`;
};

function escapeAll(char: string, upper: boolean): string {
  return Array.from(new TextEncoder().encode(char), (byte) => hex(byte, upper)).join('');
}

/** RFC 3986 pchar plus "/": what a URI path may hold without escaping. */
const URI_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;

export function encodePiece({ text, encoding }: Piece): string {
  const chars = Array.from(text);
  switch (encoding) {
    case 'raw':
      return text;
    case 'minimal':
      return chars.map((char) => (URI_SAFE.test(char) ? char : escapeAll(char, true))).join('');
    case 'lower':
      return chars.map((char) => escapeAll(char, false)).join('');
    case 'upper':
      return chars.map((char) => escapeAll(char, true)).join('');
    case 'mixed':
      return chars.map((char, i) => (i % 2 === 0 && URI_SAFE.test(char) ? char : escapeAll(char, i % 4 === 1))).join('');
    case 'double':
      return chars.map((char) => escapeAll(char, true).replace(/%/g, '%25')).join('');
  }
}

const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('minimal' as const) },
  { weight: 1, arbitrary: fc.constantFrom<Encoding>('raw', 'lower', 'upper', 'mixed', 'double') },
);

/** Look-alikes: what each name may become before it is sent. */
const MUTATIONS: Record<string, (name: string) => string> = {
  upper: (name) => name.toUpperCase(),
  lower: (name) => name.toLowerCase(),
  capital: (name) => name.charAt(0).toUpperCase() + name.slice(1),
  nfd: (name) => name.normalize('NFD'),
  nfc: (name) => name.normalize('NFC'),
  dotlessI: (name) => name.replace(/i/g, '\u0131'),
  dottedI: (name) => name.replace(/[iI]/g, '\u0130'),
  kelvin: (name) => name.replace(/[kK]/g, '\u212a'),
  longS: (name) => name.replace(/s/g, '\u017f'),
  micro: (name) => name.replace(/\u00b5/g, '\u03bc').replace(/m/g, '\u00b5'),
  sharpS: (name) => (name.includes('ss') ? name.replace(/ss/g, '\u00df') : name.replace(/\u00df/g, 'ss')),
  fullwidth: (name) => name.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0)),
  evil: (name) => `${name}-evil`,
  underscoreEvil: (name) => `${name}_evil`,
  trailingSpace: (name) => `${name} `,
  trailingDot: (name) => `${name}.`,
  trailingDots: (name) => `${name}..`,
  stream: (name) => `${name}:stream`,
  data: (name) => `${name}::$DATA`,
  indexAllocation: (name) => `${name}::$INDEX_ALLOCATION`,
  literalPercent: (name) => name.replace(/\./g, '%2e'),
};

const mutated = (names: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...names), fc.array(fc.constantFrom(...Object.keys(MUTATIONS)), { maxLength: 2 }))
    .map(([name, mutations]) => mutations.reduce((acc, mutation) => MUTATIONS[mutation]!(acc), name));

/** `.`, `..` and their look-alikes: three dots, fullwidth dots, dots with trailing spaces, encoded literally. */
const DOTS = ['.', '..', '..', '..', '...', '\uff0e\uff0e', '.. ', '. ', '%2e%2e', '.\u200b.'];

const piece = (text: fc.Arbitrary<string>): fc.Arbitrary<Piece> => fc.tuple(text, encoding).map(([t, e]) => ({ text: t, encoding: e }));

/** Separators: either kind, runs of them, fullwidth look-alikes, and in URIs their percent-encodings. */
function separator(platform: FuzzPlatform): fc.Arbitrary<Piece> {
  const texts = platform === 'win32' ? ['\\', '/', '\\\\', '//', '\\/', '\uff0f', '\uff3c'] : ['/', '//', '///', '\\', '\uff0f'];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<Piece>({ text: platform === 'win32' ? '\\' : '/', encoding: 'minimal' }) },
    { weight: 3, arbitrary: fc.constantFrom(...texts).map((text): Piece => ({ text, encoding: 'minimal' })) },
    { weight: 1, arbitrary: piece(fc.constantFrom(...texts)) },
  );
}

/** Names and separators, alternating, with or without a trailing separator. */
function body(platform: FuzzPlatform, names: fc.Arbitrary<string>, maxLength = 6): fc.Arbitrary<Piece[]> {
  const name = piece(fc.oneof({ weight: 3, arbitrary: names }, { weight: 1, arbitrary: fc.constantFrom(...DOTS) }));
  return fc
    .tuple(fc.array(fc.tuple(name, separator(platform)), { maxLength }), fc.boolean())
    .map(([pairs, trailing]) => pairs.flatMap(([n, sep], i) => (i < pairs.length - 1 || trailing ? [n, sep] : [n])));
}

const joinText = (pieces: readonly Piece[]) => pieces.map((p) => p.text).join('');
const joinUri = (pieces: readonly Piece[]) => pieces.map(encodePiece).join('');

/** What a URI may carry after its path: nothing, mostly; otherwise a query or fragment marker, empty or not. */
const uriTail = fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('?', '#', '?x=1', '#frag', '?#', '%00', '%2F..') });

const fileScheme = fc.oneof({ weight: 6, arbitrary: fc.constant('file:') }, { weight: 1, arbitrary: fc.constantFrom('FILE:', 'File:', 'https:', 'vscode-remote:') });

/** A root's own path spelt again, each name now and then swapped for a look-alike. */
function spelledAgain(names: readonly string[], sep: fc.Arbitrary<Piece>): fc.Arbitrary<Piece[]> {
  const name = (n: string) => piece(fc.oneof({ weight: 3, arbitrary: fc.constant(n) }, { weight: 1, arbitrary: mutated([n]) }));
  return fc.tuple(...names.map((n) => fc.tuple(name(n), sep))).map((pairs) => pairs.flat());
}

/** Roots and names of the simulated platforms: each root has letters that fold differently on NTFS, APFS and in JavaScript. */
export const WIN32_ROOTS = ['file:///c%3A/Users/dev/skills', 'C:\\Users\\dev\\skills', 'C:\\work\\caf\u00e9', 'file:///C:/tools/\u00b5bin', '\\\\server\\share\\team'];
export const DARWIN_ROOTS = ['/Users/dev/skills', 'file:///Users/dev/caf%C3%A9', '/Users/dev/\u00b5bin', 'file:///Users/dev/stra%C3%9Fe'];

const WIN32_NAMES = [
  'Users', 'dev', 'skills', 'skills-evil', 'work', 'caf\u00e9', 'cafe\u0301', 'tools', '\u00b5bin', 'server', 'share', 'team', 'secret.txt', 'src',
  'Windows', 'win.ini', 'nul', 'NUL', 'CON.txt', 'com1:', 'LPT\u00b9', 'NUL : x', 'con .txt', 'aux.', 'prn.tar.gz', 'CONIN$', 'COM0', 'lpt9',
  'name:stream', 'file.txt::$DATA', 'ro::$INDEX_ALLOCATION', 'C:', 'c:x',
];
const DARWIN_NAMES = ['Users', 'dev', 'skills', 'skills-evil', 'caf\u00e9', 'cafe\u0301', '\u00b5bin', 'stra\u00dfe', 'strasse', 'secret.txt', 'etc', 'private'];

const posixPolicy = (cases: readonly Policy['case'][]): fc.Arbitrary<Partial<Policy>> =>
  fc.record({
    localhost: fc.constantFrom<Policy['localhost']>('refuse', 'allow'),
    case: fc.constantFrom(...cases),
    symlinks: fc.constantFrom<Policy['symlinks']>('contain', 'refuse'),
  });

const posixNamesOf = (root: string) => (/^file:/i.test(root) ? fileURLToPath(root, { windows: false }) : root).split('/').filter((n) => n !== '');

/** Requests against the real fixture, judged on Linux with the host's filesystem. */
export function linuxCase(fixture: { readonly base: string; readonly roots: readonly string[]; readonly names: readonly string[] }): fc.Arbitrary<Case> {
  const names = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fixture.names) },
    { weight: 1, arbitrary: mutated(fixture.names) },
    { weight: 1, arbitrary: fc.constantFrom('x\u0000y', '%2e%2e', '%252e', 'a%2Fb', 'a\\b', 'C:\\x') },
  );
  const sep = separator('linux');
  const starts = [`${fixture.base}/`, '/', '/tmp/'];
  return fc.constantFrom(...fixture.roots).chain((root) => {
    const rootSpelled = spelledAgain(posixNamesOf(root), sep).map((pieces): Piece[] => [{ text: '/', encoding: 'minimal' }, ...pieces]);
    const absolute = fc.oneof({ weight: 2, arbitrary: rootSpelled }, { weight: 1, arbitrary: fc.constantFrom(...starts).map((text): Piece[] => [{ text, encoding: 'minimal' }]) });
    const request = fc.oneof(
      // A path, taken literally: relative to the root, or absolute.
      { weight: 3, arbitrary: body('linux', names).map(joinText) },
      { weight: 3, arbitrary: fc.tuple(absolute, body('linux', names)).map(([start, pieces]) => joinText(start) + joinText(pieces)) },
      // A file: URI, its path encoded piece by piece.
      {
        weight: 3,
        arbitrary: fc
          .tuple(fileScheme, fc.constantFrom('//', '//', '//', '//localhost', '//LocalHost', '//evil.example', ''), absolute, body('linux', names), uriTail)
          .map(([scheme, authority, start, pieces, tail]) => `${scheme}${authority}${joinUri(start)}${joinUri(pieces)}${tail}`),
      },
    );
    return fc.record({
      platform: fc.constant<FuzzPlatform>('linux'),
      root: fc.constant(root),
      input: request,
      // Folding case on a filesystem that keeps it is an override the server refuses at start-up.
      policy: posixPolicy(['auto', 'sensitive']),
      followFinal: fc.boolean(),
    });
  });
}

/** A Windows root as its prefix and names: `C:` and `\\server\share`. */
function win32NamesOf(root: string): { readonly prefix: string; readonly names: string[] } {
  const full = /^file:/i.test(root) ? fileURLToPath(root, { windows: true }) : root;
  const unc = /^\\\\([^\\]+)\\([^\\]+)/.exec(full);
  if (unc) return { prefix: unc[0], names: full.slice(unc[0].length).split('\\').filter((n) => n !== '') };
  return { prefix: full.slice(0, 2), names: full.slice(2).split('\\').filter((n) => n !== '') };
}

export function win32Case(): fc.Arbitrary<Case> {
  const names = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...WIN32_NAMES) }, { weight: 2, arbitrary: mutated(WIN32_NAMES) });
  const sep = separator('win32');
  const pathStarts = ['C:\\', 'c:/', 'C:', 'D:\\', 'd:', '\\', '/', 'C:\\Users\\dev\\', '\\\\server\\share\\', '//server/share/', '\\\\?\\C:\\', '\\\\.\\', '\\??\\C:\\', '//?/c:/'];
  const uriStarts = [
    'file:///C:/', 'file:///c%3A/', 'file:///c%3a/Users/dev/', 'file:///C|/', 'file://localhost/C:/', 'file://server/share/', 'file:////server/share/',
    'file:////%3F/C:/', 'file:////./C:/', 'file:///', 'FILE:///C:/', 'file://sh%C3%A4res/team/', 'file:///c:/Users/dev/skills/',
  ];
  return fc.constantFrom(...WIN32_ROOTS).chain((root) => {
    const { prefix, names: rootNames } = win32NamesOf(root);
    const unc = prefix.startsWith('\\\\');
    const rootSpelled = spelledAgain(rootNames, sep);
    const drive = fc.constantFrom(prefix, prefix.toLowerCase());
    // The root's own URI spellings: a share's host, or a drive as VS Code and others write it.
    const uriPrefixes = unc
      ? [`file:${prefix.replace(/\\/g, '/')}`, `file://${prefix.replace(/\\/g, '/')}`, `file:${prefix.replace(/\\/g, '/').toUpperCase()}`]
      : [`file:///${prefix}`, `file:///${prefix[0]!.toLowerCase()}%3A`, `file://localhost/${prefix}`];
    const request = fc.oneof(
      { weight: 3, arbitrary: body('win32', names).map(joinText) },
      { weight: 3, arbitrary: fc.tuple(drive, sep, rootSpelled, body('win32', names)).map(([d, s, spelled, pieces]) => d + s.text + joinText(spelled) + joinText(pieces)) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...pathStarts), body('win32', names)).map(([start, pieces]) => start + joinText(pieces)) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom(...uriPrefixes), rootSpelled, body('win32', names), uriTail)
          .map(([uriPrefix, spelled, pieces, tail]) => `${uriPrefix}/${joinUri(spelled.map((p) => (p.text === '\\' ? { ...p, text: '/' } : p)))}${joinUri(pieces)}${tail}`),
      },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...uriStarts), body('win32', names), uriTail).map(([start, pieces, tail]) => start + joinUri(pieces) + tail) },
    );
    return fc.record({
      platform: fc.constant<FuzzPlatform>('win32'),
      root: fc.constant(root),
      input: request,
      policy: fc.record({
        localhost: fc.constantFrom<Policy['localhost']>('refuse', 'allow'),
        // A share root needs shares allowed, or every request is refused at the root.
        unc: unc ? fc.constant<Policy['unc']>('allow') : fc.constantFrom<Policy['unc']>('refuse', 'allow'),
        case: fc.constantFrom<Policy['case']>('auto', 'sensitive', 'insensitive'),
      }),
      followFinal: fc.constant(true),
    });
  });
}

export function darwinCase(): fc.Arbitrary<Case> {
  const names = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...DARWIN_NAMES) }, { weight: 2, arbitrary: mutated(DARWIN_NAMES) });
  const sep = separator('darwin');
  const starts = ['/', '/Users/dev/', '/Users/', '/private/'];
  return fc.constantFrom(...DARWIN_ROOTS).chain((root) => {
    const rootSpelled = spelledAgain(posixNamesOf(root), sep).map((pieces): Piece[] => [{ text: '/', encoding: 'minimal' }, ...pieces]);
    const absolute = fc.oneof({ weight: 2, arbitrary: rootSpelled }, { weight: 1, arbitrary: fc.constantFrom(...starts).map((text): Piece[] => [{ text, encoding: 'minimal' }]) });
    const request = fc.oneof(
      { weight: 3, arbitrary: body('darwin', names).map(joinText) },
      { weight: 3, arbitrary: fc.tuple(absolute, body('darwin', names)).map(([start, pieces]) => joinText(start) + joinText(pieces)) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fileScheme, fc.constantFrom('//', '//', '//localhost'), absolute, body('darwin', names), uriTail)
          .map(([scheme, authority, start, pieces, tail]) => `${scheme}${authority}${joinUri(start)}${joinUri(pieces)}${tail}`),
      },
    );
    return fc.record({
      platform: fc.constant<FuzzPlatform>('darwin'),
      root: fc.constant(root),
      input: request,
      policy: fc.record({
        localhost: fc.constantFrom<Policy['localhost']>('refuse', 'allow'),
        case: fc.constantFrom<Policy['case']>('auto', 'sensitive', 'insensitive'),
      }),
      followFinal: fc.constant(true),
    });
  });
}

/** Half the cases on the real filesystem, the rest simulated. */
export function anyCase(fixture: Parameters<typeof linuxCase>[0]): fc.Arbitrary<Case> {
  return fc.oneof({ weight: 5, arbitrary: linuxCase(fixture) }, { weight: 3, arbitrary: win32Case() }, { weight: 2, arbitrary: darwinCase() });
}
