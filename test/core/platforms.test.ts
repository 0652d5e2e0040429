// win32 and darwin rules, run on any machine through the platform parameter. Simulated: no
// filesystem is consulted, so realpath is skipped and the case policy takes the platform's
// defaults. Node's fileURLToPath(x, { windows }) and path.win32 / path.posix are the oracles.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { prepareRoot, trace, traceAgainst } from '../../src/core/index.js';
import { traceRow, type TraceRow } from './assertTrace.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { fakeWin32Fs } from './fakeWin32Fs.js';

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
  // look-alike letters: ı, ſ and the micro sign upper-case to I, S and Greek Μ; NTFS's upcase table does not fold them (fuzz counterexamples)
  { name: 'dotless i is not i', input: 'C:\\Users\\dev\\\u0131pp\\x', root: 'file:///c%3A/Users/dev/ipp', verdict: 'outside', code: 'ERR_OUTSIDE' },
  { name: 'long s is not s', input: 'C:\\Users\\dev\\\u017fkills\\x', root: 'file:///c%3A/Users/dev/skills', verdict: 'outside', code: 'ERR_OUTSIDE' },
  { name: 'micro sign is not Greek mu', input: 'C:\\tools\\\u039cbin\\x', root: 'file:///c%3A/tools/%C2%B5bin', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // ordinary case folding still holds: É is é on NTFS
  { name: 'accented capital folds', input: 'C:\\Users\\dev\\\u00c9t\u00e9\\x', root: 'file:///c%3A/Users/dev/%C3%A9t%C3%A9', verdict: 'inside' },
  // ".. " as a folder name: Windows keeps a folder name's trailing space, so it is no climb; refused, not guessed
  { name: 'dot-dot with trailing space', input: 'C:\\Users\\dev\\app\\.. \\secret.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a folder name with a trailing space is another folder: "app \\x" is not "app\\x" (fuzz counterexample)
  { name: 'folder name with a trailing space', input: 'C:\\Users\\dev\\app \\secret.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a trailing separator keeps the last name's space: "app \\" opens the folder "app " (fuzz counterexample)
  { name: 'root name with a trailing space and separator', input: 'C:\\Users\\dev\\app \\', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // two trailing dots on a folder name: Windows drops at most one (fuzz counterexample)
  { name: 'folder name with two trailing dots', input: 'C:\\Users\\dev..\\app\\x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // the same in a URI, %20 decoded
  { name: 'URI folder name with a trailing space', input: 'file:///C:/Users/dev/app%20/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a last name's trailing spaces are dropped by Windows as the path is opened: kept inside
  { name: 'trailing space on the last name', input: 'C:\\Users\\dev\\app\\notes.txt ', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\notes.txt' },
  // trailing dot: secret.txt. opens secret.txt
  { name: 'trailing dot', input: 'secret.txt.', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\secret.txt' },
  // localhost on win32
  { name: 'localhost', input: 'file://localhost/C:/Users/dev/app/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_HOST' },
  // a URI without a drive letter is rooted on the root's drive
  { name: 'URI without a drive', input: 'file:///Users/dev/app/x', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\x' },
];

// Win32 naming rules: a reserved device name opens the device in any folder however it is
// followed (an extension, trailing dots or spaces, or a ":"), in a path or in a decoded URI.
// Relatives from Go's path/filepath IsLocal table for windows.
const deviceNameRows: readonly TraceRow[] = [
  // Go: "a/nul:" — the colon does not make it a file name
  { name: 'device name then colon', input: 'a\\nul:', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'refusals' },
  // Go: "a/nul : a" — spaces before the colon are dropped, then the device opens
  { name: 'device name, space, colon, stream', input: 'NUL : x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'refusals' },
  // the same in a URI, raw colon
  { name: 'device name then colon in a URI', input: 'file:///C:/Users/dev/app/com1:', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // the same in a URI, colon percent-encoded
  { name: 'device name then encoded colon', input: 'file:///C:/Users/dev/app/nul%3A', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // the same, spaces and colon encoded
  { name: 'device name, encoded space and colon', input: 'file:///C:/Users/dev/app/NUL%20:%20x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "nul .txt" — a space before the extension
  { name: 'device name, space, extension', input: 'logs\\nul .txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "com¹ : a" — superscript digits count as digits
  { name: 'superscript COM then colon', input: 'com\u00b9 : a', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // superscript LPT, then an encoded colon
  { name: 'superscript LPT then encoded colon', input: 'file:///C:/Users/dev/app/lpt%C2%B3%3A', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // the console output handle, a space before the extension
  { name: 'CONOUT$ with a space before the extension', input: 'conout$ .log', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // drive-relative: the name after the drive's colon is the device
  { name: 'device name on a drive-relative path', input: 'C:nul', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // drive-relative on another drive: a device, not merely outside
  { name: 'device name on another drive, drive-relative', input: 'D:prn.log', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "nul." — trailing dots
  { name: 'device name with trailing dots', input: 'src\\aux...', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "nul " — a trailing space
  { name: 'device name with a trailing space', input: 'nul ', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "cOm1" — any case
  { name: 'device name in mixed case', input: 'cOm1', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // COM0 is in Microsoft's list of reserved names (Go's IsLocal takes it as local)
  { name: 'COM0', input: 'com0', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "CONIN$" opens the console input
  { name: 'CONIN$', input: 'CONIN$', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "conout$"
  { name: 'conout$ in lower case', input: 'conout$', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Go: "dollar$" is not a device
  { name: 'dollar$ is an ordinary name', input: 'dollar$', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\dollar$' },
  // COM10 is not a device: only one digit follows
  { name: 'COM10 is an ordinary name', input: 'COM10', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\COM10' },
  // a device name that only starts a name
  { name: 'a name that starts with NUL is ordinary', input: 'nullable.ts', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\nullable.ts' },
  // in a URI, with an extension
  { name: 'NUL.txt in a URI', input: 'file:///C:/Users/dev/app/logs/NUL.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // superscript digit, percent-encoded in a URI
  { name: 'COM¹ encoded in a URI', input: 'file:///C:/Users/dev/app/COM%C2%B9', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // a device name as a folder
  { name: 'device name as a folder', input: 'con\\secret.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // LPT² with an extension
  { name: 'LPT² with an extension', input: 'LPT\u00b2.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // a device name that ".." would remove is still in the path as sent
  { name: 'device name undone by dot-dot', input: 'nul\\..\\x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
];

// NTFS reads "name:stream" and "dir::$INDEX_ALLOCATION" as streams of name and dir, so a ":"
// in any name after the drive is refused, in a path or in a decoded URI; the drive's own colon
// and a drive-relative "D:x" are not streams.
const streamRows: readonly TraceRow[] = [
  // the directory's index stream: writes into ro\x.txt
  { name: 'index allocation stream, absolute', input: 'C:\\Users\\dev\\app\\ro::$INDEX_ALLOCATION\\x.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER', stage: 'refusals' },
  // the same, relative
  { name: 'index allocation stream, relative', input: '.\\ro::$INDEX_ALLOCATION\\x.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER', stage: 'refusals' },
  // bare, it reads as a URI with the scheme "ro": refused as such, the scheme being first in the table
  { name: 'index allocation stream, bare: a scheme', input: 'ro::$INDEX_ALLOCATION\\x.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_SCHEME' },
  // a file's stream, bare: the reason says first that it is a stream, then that it parses as a scheme
  { name: 'a bare stream is said to be a stream first', input: 'hello.txt:secret', root: WIN_ROOT, verdict: 'refused', code: 'ERR_SCHEME', reason: /^"hello\.txt:secret" names an NTFS stream of "hello\.txt" .* and read as a URI it has the scheme "hello\.txt": neither is served\./ },
  // in a URI
  { name: 'index allocation stream in a URI', input: 'file:///C:/Users/dev/app/ro::$INDEX_ALLOCATION/x.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // in a URI, colons percent-encoded
  { name: 'index allocation stream, encoded', input: 'file:///C:/Users/dev/app/ro%3A%3A$INDEX_ALLOCATION/x.txt', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // Node's fileURLToPath row "colon" (file:///C:/foo:bar): an alternate data stream
  { name: 'alternate data stream in a URI', input: 'file:///C:/Users/dev/app/foo:bar', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // vscode-uri's drive spelling, and an encoded stream colon after it
  { name: 'alternate data stream, VS Code spelling', input: 'file:///c%3A/Users/dev/app/notes.txt%3Asecret', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // the default data stream named outright
  { name: '$DATA stream', input: 'src\\notes.txt::$DATA', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a stream on a drive-relative path
  { name: 'stream on a drive-relative path', input: 'C:a:b', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // an empty stream name
  { name: 'trailing colon', input: 'C:\\Users\\dev\\app\\b:', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a stream on a rooted path
  { name: 'stream on a rooted path', input: '\\Users\\dev\\app\\a:b', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // forward slashes
  { name: 'stream with forward slashes', input: 'c:/Users/dev/app/x:y', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // Go: "a/../c:" — after ".." only a drive-looking name is left, which is a name with a colon
  { name: 'dot-dot to a drive-looking name', input: 'a\\..\\c:', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a second drive further down a path
  { name: 'a drive inside a path', input: 'C:\\Users\\dev\\app\\D:\\x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a second drive further down a URI
  { name: 'a drive inside a URI', input: 'file:///C:/Users/dev/app/C:/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // RFC 8089 drives are a letter and ":" then "/": "C:a" is a name (Node reads it drive-relative)
  { name: 'drive-relative URI', input: 'file:///C:a/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // the same, VS Code's encoded colon
  { name: 'drive-relative URI, encoded colon', input: 'file:///c%3Aa/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a drive-relative path is not a stream: Go's "a:b" names drive A
  { name: 'drive-relative a:b is drive A', input: 'a:b', root: WIN_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE', path: 'A:\\b' },
  // the drive's own colon, WHATWG's "C|" spelling
  { name: 'drive colon spelt C|', input: 'file:///C|/Users/dev/app/x', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\x' },
  // the drive's own colon, and no other
  { name: 'drive-relative on the root drive is no stream', input: 'C:x', root: WIN_ROOT, verdict: 'inside', path: 'C:\\Users\\dev\\app\\x' },
];

const UNC_ROOT = 'file://sh%C3%A4res/team';
const ALLOW_UNC = { unc: 'allow' } as const;

// A UNC host is kept as the client wrote it, percent-decoded once, never in the WHATWG
// parser's punycode "xn--" form, so one share has one spelling; with UNC allowed by policy.
const uncRows: readonly TraceRow[] = [
  // the share written as a path, judged against the same share as a URI root
  { name: 'non-ASCII UNC host: path against a URI root', input: '\\\\sh\u00e4res\\team\\x', root: UNC_ROOT, policy: ALLOW_UNC, verdict: 'inside', path: '\\\\sh\u00e4res\\team\\x' },
  // the share written as a URI, judged against the same share as a path root
  { name: 'non-ASCII UNC host: URI against a path root', input: 'file://sh%C3%A4res/team/x', root: '\\\\sh\u00e4res\\team', policy: ALLOW_UNC, verdict: 'inside', path: '\\\\sh\u00e4res\\team\\x' },
  // the host not percent-encoded
  { name: 'raw non-ASCII UNC host', input: 'file://sh\u00e4res/team/x', root: '\\\\sh\u00e4res\\team', policy: ALLOW_UNC, verdict: 'inside', path: '\\\\sh\u00e4res\\team\\x' },
  // upper case kept as written; server names compare without case
  { name: 'upper-case encoded UNC host', input: 'file://SH%C3%84RES/team/x', root: '\\\\sh\u00e4res\\team', policy: ALLOW_UNC, verdict: 'inside', path: '\\\\SH\u00c4RES\\team\\x' },
  // the same against the URI root: both spellings of the host meet
  { name: 'non-ASCII UNC host: URI against a URI root', input: 'file://sh%C3%A4res/team/docs/a.md', root: UNC_ROOT, policy: ALLOW_UNC, verdict: 'inside', path: '\\\\sh\u00e4res\\team\\docs\\a.md' },
  // a sibling share on the same host
  { name: 'sibling share on a non-ASCII host', input: '\\\\sh\u00e4res\\team-evil\\x', root: UNC_ROOT, policy: ALLOW_UNC, verdict: 'outside', code: 'ERR_OUTSIDE' },
  // punycode the client wrote itself is another spelling, compared as written (NetBIOS does not read punycode)
  { name: 'client-written punycode host', input: 'file://xn--shres-hra/team/x', root: '\\\\sh\u00e4res\\team', policy: ALLOW_UNC, verdict: 'outside', code: 'ERR_OUTSIDE', path: '\\\\xn--shres-hra\\team\\x' },
  // the parser maps fullwidth letters to ASCII (UTS 46); the SMB client does not
  { name: 'fullwidth UNC host is not mapped', input: 'file://\uff53\uff45\uff52\uff56\uff45\uff52/share/x', root: '\\\\server\\share', policy: ALLOW_UNC, verdict: 'outside', code: 'ERR_OUTSIDE', path: '\\\\\uff53\uff45\uff52\uff56\uff45\uff52\\share\\x' },
  // the parser drops a soft hyphen (UTS 46); kept as written
  { name: 'soft hyphen in a UNC host is kept', input: 'file://ser%C2%ADver/share/x', root: '\\\\server\\share', policy: ALLOW_UNC, verdict: 'outside', code: 'ERR_OUTSIDE' },
  // Node's fileURLToPath and pathToFileURL row: \\nas\My Docs\File.doc
  { name: "Node's UNC row", input: 'file://nas/My%20Docs/File.doc', root: '\\\\nas\\My Docs', policy: ALLOW_UNC, verdict: 'inside', path: '\\\\nas\\My Docs\\File.doc' },
  // UNC is refused by default, whatever the host's spelling
  { name: 'non-ASCII UNC host refused by default', input: 'file://sh%C3%A4res/team/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_UNC' },
  // host "." is the device namespace \\.\ — even with UNC allowed
  { name: 'UNC host "." is a device path', input: 'file://./C:/Users/dev/app/x', root: WIN_ROOT, policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'refusals' },
  // the same, the dot percent-encoded
  { name: 'UNC host "%2E" is a device path', input: 'file://%2E/C:/Users/dev/app/x', root: WIN_ROOT, policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'refusals' },
  // four slashes then "./": the parser drops the dot segment, the client sent \\.\
  { name: 'four slashes and a dot: a device path', input: 'file:////./C:/Users/dev/app/x', root: WIN_ROOT, policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'refusals' },
  // a reserved device name as the host
  { name: 'device name as a UNC host', input: 'file://nul/share/x', root: '\\\\server\\share', policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // an encoded "localhost" is a host named localhost (not the local machine), and its share "C:" holds a colon
  { name: 'encoded localhost is a share host', input: 'file://%6C%6Fcalhost/C:/Users/dev/app/x', root: WIN_ROOT, policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a share name with a colon
  { name: 'UNC share with a colon', input: '\\\\server\\C:\\x', root: '\\\\server\\share', policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
  // a stream on a UNC path
  { name: 'stream on a UNC path', input: '\\\\server\\share\\a:b', root: '\\\\server\\share', policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER' },
];

// The same rules on the root: a refused root refuses every request, at the stage "root".
const rootRows: readonly TraceRow[] = [
  // a root that names a stream
  { name: 'root naming a stream', input: 'x', root: 'C:\\ws\\data:alt', verdict: 'refused', code: 'ERR_ILLEGAL_CHARACTER', stage: 'root' },
  // a root that names a device, a space before its extension
  { name: 'root naming a device', input: 'x', root: 'file:///C:/ws/con%20.txt', verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'root' },
  // a UNC root with host "." is the device namespace
  { name: 'root on the device namespace', input: 'x', root: 'file://%2E/PhysicalDrive0/ws', policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'root' },
];

// Device paths in every spelling (Go's IsLocal table: "\\?\", "\\.\").
const devicePathRows: readonly TraceRow[] = [
  // the long-path prefix with forward slashes
  { name: 'device path //?/', input: '//?/C:/Users/dev/app/x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // Node's pathToFileURL row: the long UNC form
  { name: 'device path \\\\?\\UNC', input: '\\\\?\\UNC\\server\\share\\x', root: WIN_ROOT, policy: ALLOW_UNC, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // the NT object namespace
  { name: 'NT namespace \\??\\', input: '\\??\\C:\\Users\\dev\\app\\x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
  // the device namespace naming a drive
  { name: 'device path \\\\.\\C:', input: '\\\\.\\C:\\Users\\dev\\app\\x', root: WIN_ROOT, verdict: 'refused', code: 'ERR_DEVICE_PATH' },
];

const darwinRows: readonly TraceRow[] = [
  // APFS ignores case by default
  { name: 'case folded', input: '/Users/Dev/App/notes.md', root: 'file:///Users/dev/app', verdict: 'inside' },
  // macOS stores NFD; a root in NFC still contains the NFD spelling
  { name: 'NFD inside an NFC root', input: '/Users/dev/cafe\u0301/x', root: 'file:///Users/dev/caf%C3%A9', verdict: 'inside' },
  // sibling prefix stays outside under folding
  { name: 'sibling prefix', input: '/Users/dev/App-evil/x', root: 'file:///Users/dev/app', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // look-alike letter: dotless ı upper-cases to I, but APFS keeps skılls and skills apart (fuzz counterexample)
  { name: 'dotless i is not i', input: '/Users/dev/sk\u0131lls/secret.txt', root: 'file:///Users/dev/skills', verdict: 'outside', code: 'ERR_OUTSIDE' },
  // a Windows drive path is another system's path on darwin, never a relative name
  { name: 'drive path is foreign', input: 'C:\\x', root: 'file:///Users/dev/app', verdict: 'refused', code: 'ERR_FOREIGN_PATH' },
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

describe('win32, simulated: reserved device names however followed', () => {
  for (const row of deviceNameRows) test(row.name, () => void simulated({ ...row, platform: 'win32' }));
});

describe('win32, simulated: a colon after the drive is a stream', () => {
  for (const row of streamRows) test(row.name, () => void simulated({ ...row, platform: 'win32' }));
});

describe('win32, simulated: UNC hosts as written', () => {
  for (const row of uncRows) test(row.name, () => void simulated({ ...row, platform: 'win32' }));
});

describe('win32, simulated: roots', () => {
  for (const row of rootRows) test(row.name, () => void simulated({ ...row, platform: 'win32' }));
});

describe('win32, simulated: device paths', () => {
  for (const row of devicePathRows) test(row.name, () => void simulated({ ...row, platform: 'win32' }));
});

test('nul: is a device first, and the stream colon is reported as also applying', () => {
  const result = simulated({ name: 'device name beats the stream colon', input: 'nul:', root: WIN_ROOT, platform: 'win32', verdict: 'refused', code: 'ERR_DEVICE_PATH', stage: 'refusals' });
  assert.match(result.stages.at(-1)!.note, /also: ERR_ILLEGAL_CHARACTER/);
});

test('the same stream colon is a name on linux and darwin', () => {
  for (const platform of ['linux', 'darwin'] as const) {
    traceRow({ name: 'encoded colon on POSIX', input: 'file:///srv/app/a%3Ab', root: 'file:///srv/app', platform, verdict: 'inside', path: '/srv/app/a:b' });
    traceRow({ name: 'nul: on POSIX', input: './nul:', root: 'file:///srv/app', platform, verdict: 'inside', path: '/srv/app/nul:' });
  }
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
  // UNC URIs, UNC allowed: Node's fileURLToPath gives the host decoded and never in "xn--" form.
  // (Node lower-cases an ASCII host and maps client-written punycode to Unicode; this product
  // keeps the host as written, so those two forms are not oracle rows.)
  const uncUris = ['file://nas/My%20Docs/File.doc', 'file://sh%C3%A4res/team/x', 'file://sh\u00e4res/team/a%20b', 'file://build-01/shared/app/../lib'];
  for (const uri of uncUris) {
    test(`UNC host and path agree with fileURLToPath and path.win32: ${uri}`, () => {
      const oracle = path.win32.normalize(fileURLToPath(uri, { windows: true }));
      const result = trace(uri, oracle, { platform: 'win32', policy: { unc: 'allow' } });
      assert.equal(result.verdict, 'inside', result.reason);
      assert.equal(result.path, oracle);
      assert.equal(result.rootPath, oracle);
    });
  }
  // Node's fileURLToPath windows table: names that must come through the decode unchanged.
  const nodeWinUris = ['file:///C:/foo%20bar', 'file:///C:/foo&bar', 'file:///C:/foo;bar', 'file:///C:/foo%25bar', 'file:///C:/f%C3%B3%C3%B3b%C3%A0r', 'file:///C:/%E2%82%AC', 'file:///C:/%F0%9F%9A%80'];
  for (const uri of nodeWinUris) {
    test(`Node's fileURLToPath row agrees: ${uri}`, () => {
      const result = trace(uri, 'file:///C:/', { platform: 'win32' });
      assert.equal(result.path, fileURLToPath(uri, { windows: true }));
    });
  }
  // Where Node converts and this product refuses: a stream, a device, a drive-relative URI.
  const nodeConvertsWeRefuse: readonly [string, string][] = [
    ['file:///C:/foo:bar', 'ERR_ILLEGAL_CHARACTER'],
    ['file:///C:/ws/nul%3A', 'ERR_DEVICE_PATH'],
    ['file:///C:a/x', 'ERR_ILLEGAL_CHARACTER'],
  ];
  for (const [uri, code] of nodeConvertsWeRefuse) {
    test(`fileURLToPath converts ${uri}; this product refuses it (${code})`, () => {
      assert.doesNotThrow(() => fileURLToPath(uri, { windows: true }));
      assert.equal(trace(uri, 'file:///C:/', { platform: 'win32' }).code, code);
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

// 8.3 short names on a Windows host: PROGRA~1 opens "Program Files", so the realpath stage
// compares long names, learnt from the filesystem port (fs.realpathSync.native on Windows). A
// fake NTFS volume stands in for the host so the rows run anywhere.
function shortNameVolume() {
  return fakeWin32Fs()
    .dir('C:\\Program Files', 'PROGRA~1')
    .dir('C:\\Program Files (x86)', 'PROGRA~2')
    .dir('C:\\Program Files (x86)\\ws')
    .dir('C:\\Program Files\\ws')
    .dir('C:\\Program Files\\ws\\src')
    .file('C:\\Program Files\\ws\\src\\a.ts')
    .file('C:\\Program Files\\ws\\report-final.md', 'REPORT~1.MD')
    .dir('C:\\Program Files\\ws\\long folder', 'LONGFO~1')
    .file('C:\\Program Files\\ws\\long folder\\notes-draft.txt', 'NOTES-~1.TXT')
    .dir('C:\\Program Files\\ws-evil', 'WS-EVI~1')
    .file('C:\\Program Files\\ws-evil\\secret.md')
    .dir('C:\\outside')
    .link('C:\\Program Files\\ws\\outside-link', 'C:\\outside', 'OUTSID~1')
    .link('C:\\Program Files\\ws\\docs-link', 'C:\\Program Files\\ws\\long folder', 'DOCS-L~1');
}

const LONG_ROOT = 'C:\\Program Files\\ws';

const shortNameRows: readonly TraceRow[] = [
  // the root's parent by its short name: the same folder, not a sibling
  { name: "short name of the root's parent", input: 'C:\\PROGRA~1\\ws\\src\\a.ts', root: LONG_ROOT, verdict: 'inside', path: 'C:\\Program Files\\ws\\src\\a.ts' },
  // a file below the root by its short name: the trace names it by its long name
  { name: 'short name of a file below the root', input: 'REPORT~1.MD', root: LONG_ROOT, verdict: 'inside', path: 'C:\\Program Files\\ws\\report-final.md' },
  // the root given by its short name, the request by its long name
  { name: 'root given by its short name', input: 'C:\\Program Files\\ws\\src\\a.ts', root: 'C:\\PROGRA~1\\ws', verdict: 'inside', path: 'C:\\Program Files\\ws\\src\\a.ts' },
  // short names on both sides, another case (a long name keeps the case it was written in)
  { name: 'short names on both sides', input: 'C:\\progra~1\\WS\\src\\a.ts', root: 'C:\\PROGRA~1\\ws', verdict: 'inside', path: 'C:\\Program Files\\WS\\src\\a.ts' },
  // a URI spelling short names
  { name: 'short names in a URI', input: 'file:///C:/PROGRA~1/ws/REPORT~1.MD', root: LONG_ROOT, verdict: 'inside', path: 'C:\\Program Files\\ws\\report-final.md' },
  // a folder and a file below the root, both short
  { name: 'short folder and file below the root', input: 'LONGFO~1\\NOTES-~1.TXT', root: LONG_ROOT, verdict: 'inside', path: 'C:\\Program Files\\ws\\long folder\\notes-draft.txt' },
  // a file that does not exist yet, in a short-named folder
  { name: 'new file in a short-named folder', input: 'LONGFO~1\\new.txt', root: LONG_ROOT, verdict: 'inside', path: 'C:\\Program Files\\ws\\long folder\\new.txt' },
  // a short-named link that stays inside
  { name: 'short name of a link that stays inside', input: 'DOCS-L~1\\NOTES-~1.TXT', root: LONG_ROOT, verdict: 'inside', path: 'C:\\Program Files\\ws\\long folder\\notes-draft.txt' },
  // a short-named link that leaves
  { name: 'short name of a link that leaves', input: 'OUTSID~1\\x', root: LONG_ROOT, verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath' },
  // a short name of another folder that shares the root's parent's prefix
  { name: 'short name of another folder', input: 'C:\\PROGRA~2\\ws\\x', root: LONG_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
  // a short name of nothing
  { name: 'short name of nothing', input: 'C:\\PROGRA~9\\ws\\x', root: LONG_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
  // sibling prefix, by its short name
  { name: 'sibling prefix by its short name', input: 'C:\\Program Files\\WS-EVI~1\\secret.md', root: LONG_ROOT, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
];

describe('win32 host (fake NTFS volume): 8.3 short names compare as their long names', () => {
  for (const row of shortNameRows) test(row.name, () => void traceRow({ ...row, platform: 'win32' }, shortNameVolume()));

  test("the root's real path is spelt with long names", () => {
    const root = prepareRoot('C:\\PROGRA~1\\ws', { platform: 'win32', fs: shortNameVolume() });
    assert.ok(root.ok);
    assert.equal(root.path, 'C:\\PROGRA~1\\ws', 'the root as given');
    assert.equal(root.realPath, 'C:\\Program Files\\ws');
  });

  test('a short name of another folder and a short name of nothing get the same answer', () => {
    const other = traceRow({ name: 'other', input: 'C:\\PROGRA~2\\ws\\x', root: LONG_ROOT, platform: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE' }, shortNameVolume());
    const nothing = traceRow({ name: 'nothing', input: 'C:\\PROGRA~9\\ws\\x', root: LONG_ROOT, platform: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE' }, shortNameVolume());
    const said = (result: typeof other, name: string) => JSON.stringify([result.reason, result.path, result.kind, result.stages.map((stage) => stage.note)]).replaceAll(name, 'NAME');
    assert.equal(said(other, 'PROGRA~2'), said(nothing, 'PROGRA~9'));
  });

  test("outside the root only the name at the root's own position is asked, and nothing below it", () => {
    const volume = shortNameVolume();
    const root = prepareRoot(LONG_ROOT, { platform: 'win32', fs: volume });
    volume.asked.length = 0;
    const result = traceAgainst(root, 'C:\\Program Files\\WS-EVI~1\\secret.md');
    assert.equal(result.verdict, 'outside');
    assert.deepEqual(volume.asked, ['longName C:\\Program Files\\WS-EVI~1']);
  });

  test('names without "~<digit>" are never asked for a long name', () => {
    const volume = shortNameVolume();
    traceRow({ name: 'long names only', input: 'src\\a.ts', root: LONG_ROOT, platform: 'win32', verdict: 'inside', path: 'C:\\Program Files\\ws\\src\\a.ts' }, volume);
    assert.deepEqual(volume.asked.filter((entry) => entry.startsWith('longName')), []);
  });

  test("the host's port offers long names only on Windows, the one host whose volumes keep short names", () => {
    assert.equal(typeof nodeFileSystem.longName, process.platform === 'win32' ? 'function' : 'undefined');
  });

  test('a port that cannot tell long names: noted, and compared as written', () => {
    const result = traceRow(
      { name: 'no longName', input: 'C:\\PROGRA~1\\ws\\src\\a.ts', root: LONG_ROOT, platform: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE' },
      fakeWin32Fs({ withLongNames: false }).dir('C:\\Program Files', 'PROGRA~1').dir('C:\\Program Files\\ws'),
    );
    const realpath = result.stages.find((stage) => stage.stage === 'realpath')!;
    assert.match(realpath.note, /"PROGRA~1" may be an 8\.3 short name/);
    assert.match(realpath.note, /compared as written/);
  });
});

describe('win32, simulated: 8.3 short names are noted and compared as written', () => {
  test('a ~digit name is noted in the realpath stage', () => {
    const result = simulated({ name: 'simulated short name', input: 'C:\\PROGRA~1\\ws\\src\\a.ts', root: LONG_ROOT, platform: 'win32', verdict: 'outside', code: 'ERR_OUTSIDE' });
    const realpath = result.stages.find((stage) => stage.stage === 'realpath')!;
    assert.match(realpath.note, /"PROGRA~1" may be an 8\.3 short name of another entry/);
    assert.match(realpath.note, /compared as written/);
  });
  test('a short-looking name below the root is noted too', () => {
    const result = simulated({ name: 'simulated short file', input: 'REPORT~1.MD', root: WIN_ROOT, platform: 'win32', verdict: 'inside', path: 'C:\\Users\\dev\\app\\REPORT~1.MD' });
    assert.match(result.stages.find((stage) => stage.stage === 'realpath')!.note, /"REPORT~1\.MD" may be an 8\.3 short name/);
  });
  test('no note without a ~digit name, nor on linux', () => {
    const plain = simulated({ name: 'plain', input: 'src\\a~b.ts', root: WIN_ROOT, platform: 'win32', verdict: 'inside' });
    assert.doesNotMatch(plain.stages.find((stage) => stage.stage === 'realpath')!.note, /8\.3/);
    const linux = simulated({ name: 'linux', input: 'PROGRA~1/x', root: 'file:///srv/app', platform: 'linux', verdict: 'inside' });
    assert.doesNotMatch(linux.stages.find((stage) => stage.stage === 'realpath')!.note, /8\.3/);
  });
});
