// The realpath and containment stages against a real filesystem: a fixture tree in a fresh temp
// directory, traced with the host's port on Linux rules. Each row names the attack (or the layout)
// it pins, and asserts the verdict, the code, the deciding stage and, where they matter, the path,
// the link hops and the kind of entry (docs/pipeline.md, "The stages", case policy to containment).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  STAGES,
  trace,
  type EntryKind,
  type FileSystemPort,
  type FsLookup,
  type LinkHop,
  type Policy,
  type RefusalCode,
  type StageName,
  type Trace,
  type Verdict,
} from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';

// The directory name is taken now so the tables can name paths; the tree is built in before().
// Its real path is used throughout, so the expectations hold even where os.tmpdir() is a link.
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'boundary-fs-')));

/** An absolute path under the fixture. */
const at = (...names: string[]): string => path.join(base, ...names);
/** The `file:` URI of a path under the fixture, built as the server builds published URIs. */
const uriOf = (...names: string[]): string => pathToFileURL(at(...names)).href;

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

const WS = at('ws');

/**
 * The fixture. Link targets are written as a user would write them (relative where that is the
 * natural spelling), and recorded verbatim in the trace's hops.
 */
function buildFixture(): void {
  const dir = (...names: string[]) => fs.mkdirSync(at(...names), { recursive: true });
  const file = (text: string, ...names: string[]) => fs.writeFileSync(at(...names), text);
  const link = (target: string, ...names: string[]) => fs.symlinkSync(target, at(...names));

  dir('ws', 'sub');
  file('inside\n', 'ws', 'notes.md');
  file('inside\n', 'ws', 'sub', 'file.txt');
  dir('ws', 'c');
  file('inside\n', 'ws', 'c', 'file.txt');
  dir('ws-evil');
  file('secret\n', 'ws-evil', 'secret.md');
  dir('outside');
  file('secret\n', 'outside', 'secret.txt');

  link('../outside', 'ws', 'escape'); // escapes the root
  link('../outside/secret.txt', 'ws', 'escape-file'); // a link to one outside file
  link('sub', 'ws', 'inner'); // stays inside
  link(at('ws', 'sub'), 'ws', 'abs-inner'); // stays inside, absolute target
  link('../ws/sub', 'ws', 'out-and-back'); // leaves the root and comes back in
  link('b', 'ws', 'a'); // a -> b -> c/
  link('c/', 'ws', 'b');
  link('hop2', 'ws', 'hop1'); // hop1 -> hop2 -> ../outside: the last hop leaves
  link('../outside', 'ws', 'hop2');
  link('missing-name', 'ws', 'dangling-in'); // dangling, inside
  link('../nowhere', 'ws', 'dangling-out'); // dangling, outside
  link('l2', 'ws', 'l1'); // a loop
  link('l1', 'ws', 'l2');
  link('self', 'ws', 'self'); // a link to itself
  link('ws', 'to-ws'); // outside the root, pointing in
  link('ws', 'ws-link'); // a root that is itself a link
  link('..', 'ws', 'up'); // a link to the root's parent
  link('.', 'ws', 'here'); // a link to the root itself
  link('/', 'ws', 'slash'); // a link to the filesystem root
  link('escape/missing', 'ws', 'dangling-via-escape'); // dangling, through an escaping link

  // Unicode: the root is café in NFC; its NFD twin is another directory on Linux.
  dir(NFC);
  file('inside\n', NFC, 'file.txt');
  dir(NFD);
  file('secret\n', NFD, 'secret.txt');

  // Case: the root is App; app is another directory on a case-sensitive filesystem.
  dir('App');
  file('inside\n', 'App', 'x');
  dir('app');
  file('secret\n', 'app', 'x');

  // A workspace reached through a symlinked parent (as macOS /tmp is).
  dir('real-parent', 'ws');
  file('inside\n', 'real-parent', 'ws', 'file.txt');
  link('file.txt', 'real-parent', 'ws', 'alias'); // a link below that root
  link('real-parent', 'link-parent');
}

interface Row {
  /** The attack or layout the row pins. */
  readonly name: string;
  readonly input: string;
  /** Defaults to the fixture's ws. */
  readonly root?: string;
  readonly policy?: Partial<Policy>;
  readonly followFinal?: boolean;
  /** Defaults to the host's port. */
  readonly fs?: FileSystemPort;
  readonly verdict: Verdict;
  readonly code: RefusalCode | null;
  readonly stage: StageName | 'root';
  readonly path?: string | null;
  readonly links?: readonly LinkHop[];
  readonly kind?: EntryKind | null;
}

function traceRow(row: Row): Trace {
  return trace(row.input, row.root ?? WS, {
    platform: 'linux',
    fs: row.fs ?? nodeFileSystem,
    ...(row.policy ? { policy: row.policy } : {}),
    ...(row.followFinal !== undefined ? { followFinal: row.followFinal } : {}),
  });
}

/**
 * Every stage of an inside trace passes or notes. The exceptions the pipeline itself makes: decode
 * percent-decodes "only URIs", so for a path input it is skipped (the path is taken literally), and
 * the secrets stage is skipped without a secrets policy (none is given here).
 */
function assertNoneRefusing(t: Trace, label: string): void {
  const isUri = t.input.startsWith('file:');
  for (const s of t.stages) {
    const allowed = (s.stage === 'decode' && !isUri) || s.stage === 'secrets' ? ['pass', 'note', 'skip'] : ['pass', 'note'];
    assert.ok(allowed.includes(s.status), `${label}: stage ${s.stage} is ${s.status}`);
  }
}

/** Traces one row and asserts what it expects, plus the invariants every trace keeps. */
function check(row: Row): void {
  const t = traceRow(row);
  const label = `${row.name}: ${JSON.stringify(row.input)} -> ${t.verdict} ${t.code} at ${t.stage} (${t.reason})`;
  assert.deepEqual(
    { verdict: t.verdict, code: t.code, stage: t.stage },
    { verdict: row.verdict, code: row.code, stage: row.stage },
    label,
  );
  if (row.path !== undefined) assert.equal(t.path, row.path, `${label}: path`);
  if (row.links !== undefined) assert.deepEqual(t.links, row.links, `${label}: links`);
  if (row.kind !== undefined) assert.equal(t.kind, row.kind, `${label}: kind`);

  // Invariants: the verdict follows from the code (docs/pipeline.md, "Refusal codes").
  if (t.verdict === 'inside') {
    assert.equal(t.code, null, label);
    assert.deepEqual(t.stages.map((s) => s.stage), [...STAGES], `${label}: every stage in order`);
    assertNoneRefusing(t, label);
  } else if (t.stage !== 'root') {
    const outside = t.code === 'ERR_OUTSIDE' || t.code === 'ERR_SYMLINK_ESCAPE';
    assert.equal(t.verdict, outside ? 'outside' : 'refused', label);
    const last = t.stages.at(-1);
    assert.equal(last?.stage, t.stage, `${label}: the deciding stage is the last row`);
    assert.equal(last?.status, 'refuse', `${label}: the deciding stage refuses`);
  }
}

before(buildFixture);
after(() => fs.rmSync(base, { recursive: true, force: true }));

describe('containment on the real filesystem', () => {
  const rows: Row[] = [
    // sibling prefix: ws-evil shares the text prefix "ws" but is not inside ws
    { name: 'sibling prefix (path)', input: at('ws-evil', 'secret.md'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: at('ws-evil', 'secret.md') },
    // sibling prefix, spelled as a file URI
    { name: 'sibling prefix (URI)', input: uriOf('ws-evil', 'secret.md'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
    // sibling prefix, reached by a relative request climbing out of the root
    { name: 'sibling prefix (relative dot-dot)', input: '../ws-evil/secret.md', verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
    // encoded dot-dot: the URL parser resolves %2e%2e as .., so the URI names ../outside
    { name: 'encoded dot-dot', input: `${uriOf('ws')}/%2e%2e/outside/secret.txt`, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: at('outside', 'secret.txt') },
    // encoded dot-dot in upper case
    { name: 'encoded dot-dot (upper case)', input: `${uriOf('ws')}/%2E%2E/outside/secret.txt`, verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
    // plainly outside: an absolute path elsewhere under the same parent
    { name: 'plainly outside', input: at('outside', 'secret.txt'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
    // a link outside the root pointing in: the lexical path is outside, so it stays outside
    { name: 'outside link into the workspace', input: at('to-ws', 'notes.md'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
    // an ordinary file inside
    { name: 'plain file inside', input: at('ws', 'sub', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'file.txt'), links: [], kind: 'file' },
    // a relative request resolves against the root
    { name: 'relative file inside', input: 'sub/file.txt', verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'file.txt'), kind: 'file' },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

describe('symbolic links (policy contain)', () => {
  const rows: Row[] = [
    // symlink escape: ws/escape -> ../outside; the trace's path is the path asked for: where the
    // chain goes outside is never looked up
    { name: 'symlink escape', input: at('ws', 'escape', 'secret.txt'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape', 'secret.txt'), links: [{ link: at('ws', 'escape'), target: '../outside' }] },
    // symlink escape, spelled as a file URI
    { name: 'symlink escape (URI)', input: uriOf('ws', 'escape', 'secret.txt'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape', 'secret.txt') },
    // symlink escape, relative request
    { name: 'symlink escape (relative)', input: 'escape/secret.txt', verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape', 'secret.txt') },
    // symlink escape at the last name: a link to one outside file
    { name: 'symlink escape (final name)', input: at('ws', 'escape-file'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape-file') },
    // symlink escape to the outside directory itself
    { name: 'symlink escape (the link itself, followed)', input: at('ws', 'escape'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape') },
    // a link that stays inside: the path is the real one under sub, the hop recorded
    { name: 'symlink inside', input: at('ws', 'inner', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'file.txt'), links: [{ link: at('ws', 'inner'), target: 'sub' }], kind: 'file' },
    // a link with an absolute target that stays inside
    { name: 'symlink inside (absolute target)', input: at('ws', 'abs-inner', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'file.txt'), links: [{ link: at('ws', 'abs-inner'), target: at('ws', 'sub') }], kind: 'file' },
    // a link whose target climbs out and back in: only where the chain lands counts
    { name: 'symlink out and back in', input: at('ws', 'out-and-back', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'file.txt'), kind: 'file' },
    // chained links a -> b -> c/ inside
    { name: 'chained links inside', input: at('ws', 'a', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'c', 'file.txt'), links: [{ link: at('ws', 'a'), target: 'b' }, { link: at('ws', 'b'), target: 'c/' }], kind: 'file' },
    // chained links, the last hop of the chain leaves the root
    { name: 'chained symlink escape', input: at('ws', 'hop1', 'secret.txt'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'hop1', 'secret.txt'), links: [{ link: at('ws', 'hop1'), target: 'hop2' }, { link: at('ws', 'hop2'), target: '../outside' }] },
    // a dangling link to a missing inside name
    { name: 'dangling link inside', input: at('ws', 'dangling-in'), verdict: 'refused', code: 'ERR_SYMLINK_DANGLING', stage: 'realpath' },
    // a dangling link used as a directory
    { name: 'dangling link inside (below it)', input: at('ws', 'dangling-in', 'child.txt'), verdict: 'refused', code: 'ERR_SYMLINK_DANGLING', stage: 'realpath' },
    // dangling symlink escape: a link to nothing outside is an escape, not a dangling link
    { name: 'dangling symlink escape', input: at('ws', 'dangling-out'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'dangling-out') },
    // symlink loop: l1 -> l2 -> l1
    { name: 'symlink loop', input: at('ws', 'l1'), verdict: 'refused', code: 'ERR_SYMLINK_LOOP', stage: 'realpath' },
    // symlink loop used as a directory
    { name: 'symlink loop (below it)', input: at('ws', 'l1', 'x.txt'), verdict: 'refused', code: 'ERR_SYMLINK_LOOP', stage: 'realpath' },
    // a link to itself
    { name: 'self loop', input: at('ws', 'self'), verdict: 'refused', code: 'ERR_SYMLINK_LOOP', stage: 'realpath' },
    // escape by creation: a name that does not exist yet under an escaping link
    { name: 'symlink escape (new file)', input: at('ws', 'escape', 'new-file.txt'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape', 'new-file.txt') },
    // escape by creation, several missing names deep
    { name: 'symlink escape (new nested file)', input: at('ws', 'escape', 'new-dir', 'new-file.txt'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape', 'new-dir', 'new-file.txt') },
    // a name that does not exist yet in a real directory
    { name: 'new file inside', input: at('ws', 'sub', 'new-file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'new-file.txt'), links: [], kind: 'missing' },
    // a new file several missing names deep
    { name: 'new nested file inside', input: at('ws', 'new-dir', 'deeper', 'new-file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'new-dir', 'deeper', 'new-file.txt'), kind: 'missing' },
    // a link to the parent, then back into the root by name
    { name: 'parent link back in', input: at('ws', 'up', 'ws', 'notes.md'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'notes.md'), kind: 'file' },
    // parent link escape: a link to .. then into the sibling
    { name: 'parent link escape', input: at('ws', 'up', 'ws-evil', 'secret.md'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'up', 'ws-evil', 'secret.md') },
    // a link to the root itself, used twice
    { name: 'link to the root', input: at('ws', 'here', 'here', 'notes.md'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'notes.md'), kind: 'file' },
    // filesystem-root link escape: ws/slash -> /
    { name: 'filesystem-root link escape', input: at('ws', 'slash', 'etc', 'passwd'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'slash', 'etc', 'passwd') },
    // a dangling link whose chain leaves through another link: an escape
    { name: 'dangling symlink escape through a link', input: at('ws', 'dangling-via-escape'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'dangling-via-escape') },
    // a file used as a directory: nothing can exist below it
    { name: 'file used as a directory', input: at('ws', 'notes.md', 'x'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'notes.md', 'x'), kind: 'missing' },
    // symlink escape through a link to an outside file, used as a directory
    { name: 'symlink escape (file link used as a directory)', input: at('ws', 'escape-file', 'x'), verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape-file', 'x') },
    // a new file under a link that stays inside: resolved up to the link's target
    { name: 'new file under an inside link', input: at('ws', 'inner', 'new-file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'new-file.txt'), links: [{ link: at('ws', 'inner'), target: 'sub' }], kind: 'missing' },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

describe('followFinal: false (the link itself is the subject)', () => {
  const rows: Row[] = [
    // deleting an escaping link: the link itself lies inside
    { name: 'escaping link, not followed', input: at('ws', 'escape'), followFinal: false, verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'escape'), links: [], kind: 'symlink' },
    // deleting a link to one outside file
    { name: 'escaping file link, not followed', input: at('ws', 'escape-file'), followFinal: false, verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'escape-file'), kind: 'symlink' },
    // deleting a dangling link
    { name: 'dangling link, not followed', input: at('ws', 'dangling-in'), followFinal: false, verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'dangling-in'), kind: 'symlink' },
    // deleting a link in a loop
    { name: 'loop link, not followed', input: at('ws', 'l1'), followFinal: false, verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'l1'), kind: 'symlink' },
    // symlink escape in a parent: links before the last name are still followed
    { name: 'symlink escape in a parent, followFinal false', input: at('ws', 'escape', 'secret.txt'), followFinal: false, verdict: 'outside', code: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', path: at('ws', 'escape', 'secret.txt') },
    // an ordinary file is unaffected
    { name: 'plain file, followFinal false', input: at('ws', 'sub', 'file.txt'), followFinal: false, verdict: 'inside', code: null, stage: 'containment', kind: 'file' },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

describe('names the filesystem does not fold (Linux)', () => {
  const cafe = at(NFC);
  const app = at('App');
  const rows: Row[] = [
    // Unicode fold escape: café in NFD is a different directory from the NFC root on Linux
    { name: 'NFD sibling of an NFC root (path)', root: cafe, input: at(NFD, 'secret.txt'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: at(NFD, 'secret.txt') },
    // the same, spelled as a file URI (percent-encoded NFD bytes)
    { name: 'NFD sibling of an NFC root (URI)', root: pathToFileURL(cafe).href, input: uriOf(NFD, 'secret.txt'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
    // the NFC spelling itself is inside
    { name: 'NFC path in an NFC root', root: cafe, input: at(NFC, 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at(NFC, 'file.txt'), kind: 'file' },
    // the NFC spelling as a URI
    { name: 'NFC URI in an NFC root', root: pathToFileURL(cafe).href, input: uriOf(NFC, 'file.txt'), verdict: 'inside', code: null, stage: 'containment', kind: 'file' },
    // case fold escape: app is not App on a case-sensitive filesystem (the probe says so)
    { name: 'case sibling of the root', root: app, input: at('app', 'x'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: at('app', 'x') },
    // the root's own spelling is inside
    { name: 'exact case inside', root: app, input: at('App', 'x'), verdict: 'inside', code: null, stage: 'containment', path: at('App', 'x'), kind: 'file' },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

describe('a workspace under a symlinked parent', () => {
  const viaLink = at('link-parent', 'ws');
  const rows: Row[] = [
    // the file spelled through the link, as the root was given
    { name: 'file via the linked spelling', root: viaLink, input: at('link-parent', 'ws', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('real-parent', 'ws', 'file.txt'), kind: 'file' },
    // the file spelled by its real path
    { name: 'file via the real spelling', root: viaLink, input: at('real-parent', 'ws', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('real-parent', 'ws', 'file.txt'), kind: 'file' },
    // the root given as a URI through the link, the file relative
    { name: 'relative file, root URI through the link', root: pathToFileURL(viaLink).href, input: 'file.txt', verdict: 'inside', code: null, stage: 'containment', path: at('real-parent', 'ws', 'file.txt'), kind: 'file' },
    // sibling of the real parent's workspace is still outside
    { name: 'sibling prefix beside a linked root', root: viaLink, input: at('real-parent', 'ws-evil'), verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment' },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

describe('symlink policy refuse', () => {
  const refuse: Partial<Policy> = { symlinks: 'refuse' };
  const viaLink = at('link-parent', 'ws');
  const rows: Row[] = [
    // a link below the root that stays inside is refused all the same
    { name: 'inside link refused', policy: refuse, input: at('ws', 'inner', 'file.txt'), verdict: 'refused', code: 'ERR_SYMLINK_REFUSED', stage: 'realpath' },
    // an escaping link is refused by policy before it is followed
    { name: 'symlink escape refused', policy: refuse, input: at('ws', 'escape', 'secret.txt'), verdict: 'refused', code: 'ERR_SYMLINK_REFUSED', stage: 'realpath' },
    // the final name is a link
    { name: 'final link refused', policy: refuse, input: at('ws', 'escape-file'), verdict: 'refused', code: 'ERR_SYMLINK_REFUSED', stage: 'realpath' },
    // chained links: the first hop is refused
    { name: 'chained links refused', policy: refuse, input: at('ws', 'a', 'file.txt'), verdict: 'refused', code: 'ERR_SYMLINK_REFUSED', stage: 'realpath' },
    // a loop is refused as a link before it can loop
    { name: 'loop refused as a link', policy: refuse, input: at('ws', 'l1'), verdict: 'refused', code: 'ERR_SYMLINK_REFUSED', stage: 'realpath' },
    // no link on the way: inside as usual
    { name: 'plain file under refuse', policy: refuse, input: at('ws', 'sub', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'sub', 'file.txt'), links: [], kind: 'file' },
    // a link above the root (the symlinked parent) is followed, not judged
    { name: 'link above the root followed', policy: refuse, root: viaLink, input: at('link-parent', 'ws', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', path: at('real-parent', 'ws', 'file.txt'), kind: 'file' },
    // a root that is itself a link: a link at the root is not below it
    { name: 'root that is a link', policy: refuse, root: at('ws-link'), input: at('ws-link', 'notes.md'), verdict: 'inside', code: null, stage: 'containment', path: at('ws', 'notes.md'), kind: 'file' },
    // the real spelling under a linked root
    { name: 'real spelling under a linked root', policy: refuse, root: viaLink, input: at('real-parent', 'ws', 'file.txt'), verdict: 'inside', code: null, stage: 'containment', kind: 'file' },
    // but a link below that root is refused
    { name: 'link below a linked root refused', policy: refuse, root: viaLink, input: at('link-parent', 'ws', 'alias'), verdict: 'refused', code: 'ERR_SYMLINK_REFUSED', stage: 'realpath' },
    // the same link, spelled by the real path
    { name: 'link below a linked root refused (real spelling)', policy: refuse, root: viaLink, input: at('real-parent', 'ws', 'alias'), verdict: 'refused', code: 'ERR_SYMLINK_REFUSED', stage: 'realpath' },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

describe('the root itself', () => {
  const rows: Row[] = [
    // '.' is the root
    { name: 'dot', input: '.', verdict: 'inside', code: null, stage: 'containment', path: WS, links: [], kind: 'directory' },
    // the empty relative name after a trailing separator
    { name: 'dot slash', input: './', verdict: 'inside', code: null, stage: 'containment', path: WS, kind: 'directory' },
    // the root's own URI
    { name: 'root URI', input: pathToFileURL(WS).href, verdict: 'inside', code: null, stage: 'containment', path: WS, kind: 'directory' },
    // the root's URI with a trailing slash
    { name: 'root URI with trailing slash', input: `${pathToFileURL(WS).href}/`, verdict: 'inside', code: null, stage: 'containment', path: WS, kind: 'directory' },
    // the root's own path, given as a URI root
    { name: 'root path against a URI root', root: pathToFileURL(WS).href, input: WS, verdict: 'inside', code: null, stage: 'containment', path: WS, kind: 'directory' },
    // the root's parent is not inside
    { name: 'parent of the root', input: '..', verdict: 'outside', code: 'ERR_OUTSIDE', stage: 'containment', path: base },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

/**
 * A port over the host's, except that one path answers EACCES (tests run as root, so real
 * permission bits would not stop them).
 */
function deniedAt(denied: string, what: 'lstat' | 'readlink'): FileSystemPort {
  return {
    lstat(p: string): FsLookup {
      if (what === 'lstat' && p === denied) return { kind: 'error', errno: 'EACCES' };
      return nodeFileSystem.lstat(p);
    },
    readlink(p: string) {
      if (what === 'readlink' && p === denied) return { ok: false, errno: 'EACCES' };
      return nodeFileSystem.readlink(p);
    },
  };
}

describe('permission failures (fake port)', () => {
  const rows: Row[] = [
    // a directory on the way cannot be looked up
    { name: 'unreadable directory', fs: deniedAt(at('ws', 'sub'), 'lstat'), input: at('ws', 'sub', 'file.txt'), verdict: 'refused', code: 'ERR_PERMISSION', stage: 'realpath' },
    // the target itself cannot be looked up
    { name: 'unreadable file', fs: deniedAt(at('ws', 'sub', 'file.txt'), 'lstat'), input: at('ws', 'sub', 'file.txt'), verdict: 'refused', code: 'ERR_PERMISSION', stage: 'realpath' },
    // a link on the way cannot be read
    { name: 'unreadable link', fs: deniedAt(at('ws', 'inner'), 'readlink'), input: at('ws', 'inner', 'file.txt'), verdict: 'refused', code: 'ERR_PERMISSION', stage: 'realpath' },
    // the same port, another path: unaffected
    { name: 'denial elsewhere does not matter', fs: deniedAt(at('ws', 'sub'), 'lstat'), input: at('ws', 'notes.md'), verdict: 'inside', code: null, stage: 'containment', kind: 'file' },
    // the root itself cannot be looked up: refused at the root, with the root's code
    { name: 'unreadable root', fs: deniedAt(WS, 'lstat'), input: 'notes.md', verdict: 'refused', code: 'ERR_PERMISSION', stage: 'root' },
  ];
  for (const row of rows) test(row.name, () => check(row));
});

// ENAMETOOLONG is the length of a name or a path, never a question of rights: a code of its own,
// and a reason that does not send the person to the folder's permissions.
describe('a name or a path too long for the filesystem', () => {
  const longName = 'n'.repeat(2000);
  test('a 2,000-character name: ERR_NAME_TOO_LONG at realpath, the name shortened in the reason', { skip: process.platform === 'win32' }, () => {
    const t = traceRow({ name: 'long name', input: longName, verdict: 'refused', code: 'ERR_NAME_TOO_LONG', stage: 'realpath' });
    check({ name: 'long name', input: longName, verdict: 'refused', code: 'ERR_NAME_TOO_LONG', stage: 'realpath' });
    assert.match(t.reason, /^A name in the path is too long for the filesystem: "n{39}…\(1,922 characters\)…n{39}" is 2,000 bytes/);
    assert.doesNotMatch(t.reason, /permission/);
  });
  test('a path too long with no name too long (PATH_MAX): ERR_NAME_TOO_LONG, the path named as too long', () => {
    const port: FileSystemPort = {
      lstat: (p: string): FsLookup => (p === at('ws', 'sub') ? { kind: 'error', errno: 'ENAMETOOLONG' } : nodeFileSystem.lstat(p)),
      readlink: (p: string) => nodeFileSystem.readlink(p),
    };
    const t = traceRow({ name: 'long path', input: at('ws', 'sub', 'file.txt'), fs: port, verdict: 'refused', code: 'ERR_NAME_TOO_LONG', stage: 'realpath' });
    assert.equal(t.code, 'ERR_NAME_TOO_LONG', t.reason);
    assert.match(t.reason, /^The path is too long for the filesystem \(ENAMETOOLONG\)/);
  });
  test('any other errno is said as it is, and only EACCES and EPERM speak of permissions', () => {
    const failing = (errno: string): FileSystemPort => ({
      lstat: (p: string): FsLookup => (p === at('ws', 'sub') ? { kind: 'error', errno } : nodeFileSystem.lstat(p)),
      readlink: (p: string) => nodeFileSystem.readlink(p),
    });
    const reason = (errno: string) => traceRow({ name: errno, input: at('ws', 'sub', 'file.txt'), fs: failing(errno), verdict: 'refused', code: 'ERR_PERMISSION', stage: 'realpath' }).reason;
    assert.match(reason('EACCES'), /\(EACCES\); check its folder's permissions\.$/);
    assert.match(reason('EIO'), /\(EIO\)\.$/);
  });
});

describe('the stages of an inside trace', () => {
  const inputs = [
    at('ws', 'sub', 'file.txt'),
    uriOf('ws', 'inner', 'file.txt'),
    'a/file.txt',
    at('ws', 'sub', 'new-file.txt'),
    '.',
  ];
  for (const input of inputs) {
    test(`every stage, none refusing: ${input.replace(base, '<tmp>')}`, () => {
      const t = trace(input, WS, { platform: 'linux', fs: nodeFileSystem });
      assert.equal(t.verdict, 'inside', t.reason);
      assert.equal(t.simulated, false);
      assert.deepEqual(t.stages.map((s) => s.stage), ['parse', 'refusals', 'decode', 'normalise', 'alias', 'case', 'realpath', 'containment', 'secrets']);
      assertNoneRefusing(t, input);
      assert.equal(t.rootPath, WS);
    });
  }

  test('a link hop is noted on the realpath row', () => {
    const t = trace(at('ws', 'inner', 'file.txt'), WS, { platform: 'linux', fs: nodeFileSystem });
    const realpathRow = t.stages.find((s) => s.stage === 'realpath');
    assert.equal(realpathRow?.status, 'note');
    assert.match(realpathRow?.note ?? '', /inner -> "sub"/);
    assert.equal(realpathRow?.output, at('ws', 'sub', 'file.txt'));
  });

  test('the case row says the probe found names unfolded', () => {
    const t = trace('notes.md', WS, { platform: 'linux', fs: nodeFileSystem });
    const caseRow = t.stages.find((s) => s.stage === 'case');
    assert.match(caseRow?.rule ?? '', /case matters/);
    assert.match(caseRow?.rule ?? '', /NFC and NFD spellings are different names/);
    assert.match(caseRow?.rule ?? '', /case probe/);
  });

  test('the Unicode decision for the café root comes from the probe', () => {
    const t = trace('file.txt', at(NFC), { platform: 'linux', fs: nodeFileSystem });
    const caseRow = t.stages.find((s) => s.stage === 'case');
    assert.match(caseRow?.rule ?? '', /NFC and NFD spellings are different names/);
    assert.match(caseRow?.rule ?? '', /Unicode probe/);
  });
});
