// The naive decider on every example of "Converting a root URI to a path" and of "A root is a
// hint, not a permission": each gives the path the document says the conversion produces, the
// decision such a server makes, and the escape (or the wrong refusal) the document describes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Platform } from '../../src/core/index.js';
import { DECIDERS, type DeciderContext } from '../../src/deciders/index.js';
import { nodeDeciderFileSystem } from '../../src/host/node.js';

const decider = DECIDERS.naive!;
const NO_DISK = { lstat: () => ({ kind: 'missing' as const }), readlink: () => ({ ok: false as const, errno: 'ENOENT' }), readText: () => undefined };

function context(root: string, platform: Platform = 'linux', cwd = platform === 'win32' ? 'C:\\server' : '/srv/server'): DeciderContext {
  return { platform, fs: NO_DISK, simulated: true, home: '/home/me', cwd, addDirs: [], allowed: [], env: {}, root };
}

interface Row {
  readonly root: string;
  readonly input: string;
  readonly platform?: Platform;
  readonly decision: 'allow' | 'deny';
  /** Stage name -> the output the document says it produces. */
  readonly outputs: Readonly<Record<string, string | null>>;
  /** What the trace must say, in a stage's note. */
  readonly says: RegExp;
}

const ROWS: readonly (Row & { readonly trap: string })[] = [
  // Percent-encoding: the real folder, with its space, fails the prefix check against the encoded root.
  { trap: 'percent-encoded root, the real folder refused', root: 'file:///srv/app/my%20project', input: '/srv/app/my project/a.txt', decision: 'deny', outputs: { 'root: replace("file://", "")': '/srv/app/my%20project' }, says: /refuses a path inside: one side is percent-encoded/ },
  // ... and a folder literally named my%20project matches.
  { trap: 'percent-encoded root, the literal folder matches', root: 'file:///srv/app/my%20project', input: '/srv/app/my%20project/a.txt', decision: 'allow', outputs: { 'startsWith(root)': '/srv/app/my%20project/a.txt' }, says: /still percent-encoded/ },
  // Comparing before decoding: %2e%2e passes as text and becomes `..` after the check.
  { trap: 'encoded dot-dot', root: 'file:///srv/app/web', input: 'file:///srv/app/web/%2e%2e/%2e%2e/etc/shadow', decision: 'allow', outputs: { 'request: replace("file://", "")': '/srv/app/web/%2e%2e/%2e%2e/etc/shadow', decodeURIComponent: '/srv/app/web/../../etc/shadow', 'open()': '/srv/etc/shadow' }, says: /escape: encoded dot-dot/ },
  // new URL resolves the same %2e%2e itself.
  { trap: 'encoded dot-dot through new URL', root: 'file:///srv/app/web', input: 'file:///srv/app/web/%2e%2e/%2e%2e/etc/shadow', decision: 'allow', outputs: { 'new URL(u).pathname': '/srv/etc/shadow' }, says: /resolves %2e%2e as `\.\.` itself/ },
  // The host: localhost becomes the first name of a relative path, taken from the working folder.
  { trap: 'localhost host, relative', root: 'file://localhost/etc', input: 'file://localhost/etc/passwd', decision: 'allow', outputs: { 'root: replace("file://", "")': 'localhost/etc', 'request: replace("file://", "")': 'localhost/etc/passwd', 'open()': '/srv/server/localhost/etc/passwd', 'new URL(u).pathname': '/etc/passwd' }, says: /escape: the host is kept as the first name/ },
  // Another host: relative too; new URL drops the host and reads a remote share as a local path.
  { trap: 'attacker host', root: 'file://attacker.example/share/data', input: 'file://attacker.example/share/data/report.txt', decision: 'allow', outputs: { 'request: replace("file://", "")': 'attacker.example/share/data/report.txt', 'open()': '/srv/server/attacker.example/share/data/report.txt', 'new URL(u).pathname': '/share/data/report.txt' }, says: /escape: the host "?attacker\.example"? is dropped/ },
  // Windows: the drive-letter form keeps its leading slash.
  { trap: 'Windows drive letter', platform: 'win32', root: 'file:///C:/Users/dev/app', input: 'file:///C:/Users/dev/app/a.txt', decision: 'allow', outputs: { 'root: replace("file://", "")': '/C:/Users/dev/app', 'open()': 'C:\\C:\\Users\\dev\\app\\a.txt' }, says: /keeps the slash before the drive letter: not a Windows path/ },
  // Windows: a UNC host becomes a relative path instead of \\build-01\shared\app.
  { trap: 'UNC host on Windows', platform: 'win32', root: 'file://build-01/shared/app', input: 'file://build-01/shared/app/a.txt', decision: 'allow', outputs: { 'root: replace("file://", "")': 'build-01/shared/app', 'open()': 'C:\\server\\build-01\\shared\\app\\a.txt' }, says: /escape: the host is kept as the first name/ },
  // Case: on macOS, /Users/Dev/App and /users/dev/app are one folder that compares unequal.
  { trap: 'case on macOS', platform: 'darwin', root: 'file:///Users/Dev/App', input: '/users/dev/app/a.txt', decision: 'deny', outputs: {}, says: /refuses a path inside: the names differ only in case/ },
  // Case on Linux: refusing is right; lower-casing both sides would let /srv/App in.
  { trap: 'case on Linux', root: 'file:///srv/app', input: '/srv/App/secret', decision: 'deny', outputs: {}, says: /lower-cased both sides would let this other folder in/ },
  // Unicode: the root's café in NFC (five bytes), the request's in NFD (six).
  { trap: 'NFC root, NFD request', root: 'file:///srv/app/caf%C3%A9', input: '/srv/app/cafe\u0301/a.txt', decision: 'deny', outputs: { 'root: replace("file://", "")': '/srv/app/caf%C3%A9' }, says: /different Unicode forms/ },
  // Decoding twice: %252e%252e passes a check after one decode and opens `..` after the second.
  { trap: 'double decoding', root: 'file:///srv/app/web', input: '/srv/app/web/%252e%252e/%252e%252e/etc/shadow', decision: 'allow', outputs: { decodeURIComponent: '/srv/app/web/%2e%2e/%2e%2e/etc/shadow', 'decoded again': '/srv/app/web/../../etc/shadow' }, says: /escape: double decoding: .* opens \/srv\/etc\/shadow/ },
  // A URI built by concatenation: the # starts a fragment, and a parser asks for "report".
  { trap: 'a name holding #', root: 'file:///srv/app/web', input: 'file:///srv/app/web/report#2 draft.pdf', decision: 'allow', outputs: { 'new URL(u).pathname': '/srv/app/web/report' }, says: /cut off as a query or fragment/ },
  // "A root is a hint": the sibling whose name starts with the root's.
  { trap: 'sibling prefix', root: 'file:///work/notes', input: 'file:///work/notes-evil/secret.md', decision: 'allow', outputs: { 'open()': '/work/notes-evil/secret.md' }, says: /escape: sibling prefix/ },
  // "A root is a hint": the encoded traversal.
  { trap: 'encoded traversal', root: 'file:///work/notes', input: 'file:///work/notes/%2e%2e/private.md', decision: 'allow', outputs: { 'open()': '/work/private.md' }, says: /escape: encoded dot-dot/ },
];

for (const row of ROWS) {
  test(row.trap, () => {
    const verdict = decider.decide(row.input, 'read_text_file', context(row.root, row.platform));
    assert.equal(verdict.decision, row.decision);
    for (const [name, output] of Object.entries(row.outputs)) {
      assert.equal(verdict.stages.find((stage) => stage.name === name)?.output, output, name);
    }
    const notes = verdict.stages.map((stage) => stage.note).join('\n');
    assert.match(notes, row.says);
    // An escape or a wrong refusal is a difference from this server's own conversion.
    if (/escape|refuses/.test(row.says.source)) assert.ok(verdict.differences.length > 0);
    if (verdict.decision === 'deny') assert.ok(verdict.fixes.some((fix) => fix.add?.includes('fileURLToPath') && fix.add.includes('path.relative')));
    else assert.deepEqual(verdict.fixes, []);
  });
}

test('a path inside, by the correct conversion too: no escape', () => {
  const verdict = decider.decide('file:///srv/app/web/a.txt', 'read_text_file', context('file:///srv/app/web'));
  assert.equal(verdict.decision, 'allow');
  assert.deepEqual(verdict.differences, []);
  assert.equal(verdict.path, '/srv/app/web/a.txt');
});

test('a link inside that leads out: the prefix check passes, the filesystem follows it out', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-naive-')));
  try {
    fs.mkdirSync(path.join(dir, 'ws'));
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.symlinkSync('../outside', path.join(dir, 'ws', 'escape'));
    const verdict = decider.decide(`${dir}/ws/escape/new.txt`, 'write_file', { ...context(`file://${dir}/ws`), fs: nodeDeciderFileSystem, simulated: false, cwd: dir });
    assert.equal(verdict.decision, 'allow');
    assert.match(verdict.stages.find((stage) => stage.name === 'open()')!.note, /escape: a link: the filesystem follows it to .*outside/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
