// Attacks on the server's layers, end to end: authorization (was this workspace granted?),
// containment (is the path inside it, links resolved?) and the refusals' record (the log). Each
// row names what it attacks; each refusal is checked for its code, its stage and its `next` step,
// and the files it aimed at are checked on disk afterwards (a refusal changes nothing).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  STAGE_NAMES,
  connect,
  expectContent,
  expectRefusal,
  fileUri,
  makeTempDir,
  readLog,
  removeDir,
  textOf,
  writeTree,
  type ExpectedRefusal,
  type Session,
} from './helpers.js';
import { eventually } from '../patience.js';
import { INSTRUCTIONS } from '../../src/server/protocol/createServer.js';
import { absent, excluding, exactly, including, link, table, type Matcher, type Refused, type Row } from './table.js';

// ------------------------------------------------------------------------------------------------
// Seed 001: a root is a hint, not a permission
// ------------------------------------------------------------------------------------------------

const OUTSIDE = { refused: 'ERR_OUTSIDE', stage: 'containment', verdict: 'outside' } as const;

/** Hostile paths beside and above the workspace "notes", each with the refusal it gets. */
const SEED_001: readonly (readonly [what: string, path: string, want: Refused])[] = [
  ['the sibling whose name starts with the workspace name, as a file URI', '{baseUri}/notes-evil/secret.md', OUTSIDE],
  ['the parent through an encoded dot-dot segment (%2e%2e)', '{W}/%2e%2e/private.md', OUTSIDE],
  ['the parent through an upper-case encoded dot-dot (%2E%2E)', '{W}/%2E%2E/private.md', OUTSIDE],
  ['the parent through a half-encoded dot-dot (.%2e)', '{W}/.%2e/private.md', OUTSIDE],
  ['the sibling as a plain absolute path', '{base}/notes-evil/secret.md', OUTSIDE],
  ['the sibling as a relative path', '../notes-evil/secret.md', OUTSIDE],
  ['the parent through dot-dot inside a deeper path', 'a/b/../../../private.md', OUTSIDE],
  ['an encoded slash hiding a dot-dot (..%2Fprivate.md)', '{W}/..%2Fprivate.md', { refused: 'ERR_ENCODED_SEPARATOR', stage: 'refusals', verdict: 'refused' }],
];
// Decoded exactly once, "%2e%2e" is a literal folder name inside notes: not a traversal.
const DOUBLE_ENCODED = '{W}/%252e%252e/private.md';

table({
  name: 'seed 001: one workspace "notes" granted; hostile deletes beside and above it',
  grants: [{ name: 'W', dir: 'notes' }],
  tree: { 'notes/todo.md': 'inside', 'notes-evil/secret.md': 'sibling secret', 'private.md': 'parent private' },
  rows: [
    ...SEED_001.map(([what, target, want]): Row => ({ name: what, tool: 'delete_path', args: { path: target }, want })),
    { name: 'a double-encoded dot-dot is a literal name, decoded once: inside, and missing', tool: 'delete_path', args: { path: DOUBLE_ENCODED }, want: { error: /ENOENT/ } },
    // The content never comes back.
    ...SEED_001.map(([what, target, want]): Row => ({ name: what, tool: 'read_text_file', args: { path: target }, want: { ...want, hides: ['sibling secret', 'parent private'] } })),
    { name: 'a double-encoded dot-dot is a literal name, decoded once: inside, and missing', tool: 'read_text_file', args: { path: DOUBLE_ENCODED }, want: { error: /ENOENT/ } },
    // explain_path shows the stage that decided for the two seed paths.
    {
      name: 'outside; the reason says a shared text prefix is not containment',
      tool: 'explain_path',
      args: { path: '{baseUri}/notes-evil/secret.md' },
      want: { structured: { verdict: 'outside', code: 'ERR_OUTSIDE', reason: /prefix/ } },
    },
    {
      name: 'outside, the parent\'s file, through every stage to containment',
      tool: 'explain_path',
      args: { path: '{W}/%2e%2e/private.md' },
      want: { structured: { verdict: 'outside', path: '{base}/private.md', stages: STAGE_NAMES.slice(0, STAGE_NAMES.indexOf('containment') + 1).map((stage) => ({ stage })) } },
    },
  ],
});

// ------------------------------------------------------------------------------------------------
// Hostile forms of the path itself
// ------------------------------------------------------------------------------------------------

/** Each form with the code and stage of the design table. */
const HOSTILE_FORMS: readonly (readonly [what: string, path: string, code: Refused['refused'], stage: string])[] = [
  ['an empty path', '', 'ERR_PARSE', 'parse'],
  ['another scheme', 'https://example.com{base}/ws/x.txt', 'ERR_SCHEME', 'refusals'],
  ['a file URI with a host', 'file://host{base}/ws/x.txt', 'ERR_HOST', 'refusals'],
  ['file://localhost (refused by default)', 'file://localhost{base}/ws/x.txt', 'ERR_HOST', 'refusals'],
  ['an empty query marker', '{W}/x.txt?', 'ERR_QUERY_OR_FRAGMENT', 'refusals'],
  ['a fragment', '{W}/x.txt#frag', 'ERR_QUERY_OR_FRAGMENT', 'refusals'],
  ['a raw NUL in a path', 'x\u0000.txt', 'ERR_NUL', 'refusals'],
  ['an encoded NUL in a URI', '{W}/x%00.txt', 'ERR_NUL', 'refusals'],
  ['an encoded slash', '{W}/sub%2Fx.txt', 'ERR_ENCODED_SEPARATOR', 'refusals'],
  ['a raw backslash inside a URI', '{W}\\x.txt', 'ERR_ILLEGAL_CHARACTER', 'refusals'],
  ['a raw control character inside a URI', '{W}/x\t.txt', 'ERR_ILLEGAL_CHARACTER', 'refusals'],
  ['a malformed escape', '{W}/%zz.txt', 'ERR_BAD_ENCODING', 'decode'],
  ['an escape that is not UTF-8', '{W}/%ff.txt', 'ERR_BAD_ENCODING', 'decode'],
  ['a host-named path to outside', 'file://tmp{base}/outside/x.txt', 'ERR_HOST', 'refusals'],
  // ENAMETOOLONG from the lookup: a name too long, never a question of permissions
  ['a 2,000-character name', 'n'.repeat(2000), 'ERR_NAME_TOO_LONG', 'realpath'],
];

table({
  name: 'hostile path forms are refused at the stage that owns them, and nothing is written',
  grants: [{ name: 'W', dir: 'ws' }],
  tree: { 'ws/a.txt': 'a', 'outside/secret.txt': 'secret' },
  rows: HOSTILE_FORMS.map(([what, target, code, stage]): Row => ({ name: what, tool: 'write_file', args: { path: target, content: 'planted' }, want: { refused: code, stage, verdict: 'refused' } })),
});

// ------------------------------------------------------------------------------------------------
// Authorization: workspaceUri must equal a grant
// ------------------------------------------------------------------------------------------------

const NOT_GRANTED = { refused: 'ERR_NOT_GRANTED', stage: 'server', verdict: 'refused', fields: { reason: /{W}/ } } as const; // the reason lists the grants
const AT_ROOT = (code: Refused['refused']): Refused => ({ refused: code, stage: 'root', verdict: 'refused', fields: { next: /list_workspaces/ } });

/** Each ungranted workspaceUri, with a path it would reach the secrets by. */
const UNGRANTED: readonly (readonly [what: string, workspaceUri: string, path: string, want: Refused])[] = [
  ['a workspace that was never granted', '{baseUri}/other', 'file.md', NOT_GRANTED],
  ['a sub-folder of the granted workspace', '{W}/sub', 'deep.md', NOT_GRANTED],
  ['a sibling whose name starts with the granted name', '{baseUri}/notes-evil', 'secret.md', NOT_GRANTED],
  ['the sibling reached through %2e%2e from the grant', '{W}/%2e%2e/notes-evil', 'secret.md', NOT_GRANTED],
  ['the parent of the grant', '{baseUri}', 'notes-evil/secret.md', NOT_GRANTED],
  ['the filesystem root', 'file:///', '{secretFromRoot}', NOT_GRANTED],
  ['the granted workspace spelled file://localhost', 'file://localhost{base}/notes', 'todo.md', AT_ROOT('ERR_HOST')],
  ['the granted workspace with a query', '{W}?x=1', 'todo.md', AT_ROOT('ERR_QUERY_OR_FRAGMENT')],
  ['the granted workspace over https', 'https://example.com{base}/notes', 'todo.md', AT_ROOT('ERR_SCHEME')],
  ['the granted workspace as a relative path', 'notes', 'todo.md', AT_ROOT('ERR_NOT_ABSOLUTE')],
];

table({
  name: 'authorization: a workspaceUri that was not granted',
  grants: [{ name: 'W', dir: 'notes' }],
  placeholders: (base) => ({ secretFromRoot: path.relative('/', path.join(base, 'notes-evil/secret.md')) }),
  tree: { 'notes/todo.md': 'inside', 'notes/sub/deep.md': 'deep', 'notes-evil/secret.md': 'sibling secret', 'other/file.md': 'other' },
  rows: [
    // The refusal names the workspaceUri as sent; nothing is deleted.
    ...UNGRANTED.map(([what, workspaceUri, target, want]): Row => ({ name: what, tool: 'delete_path', args: { workspaceUri, path: target, recursive: true }, want })),
    ...UNGRANTED.map(([what, workspaceUri, target, want]): Row => ({ name: what, tool: 'read_text_file', args: { workspaceUri, path: target }, want: { ...want, hides: 'sibling secret' } })),
    { name: 'control: the granted workspace is accepted', tool: 'read_text_file', args: { workspaceUri: '{W}', path: 'todo.md' }, want: { text: 'inside' } },
    { name: 'control: the granted workspace with a trailing slash is accepted', tool: 'read_text_file', args: { workspaceUri: '{W}/', path: 'todo.md' }, want: { text: 'inside' } },
    { name: 'control: the granted workspace by its path is accepted', tool: 'read_text_file', args: { workspaceUri: '{base}/notes', path: 'todo.md' }, want: { text: 'inside' } },
    { name: 'control: the granted workspace by its path with a trailing slash is accepted', tool: 'read_text_file', args: { workspaceUri: '{base}/notes/', path: 'todo.md' }, want: { text: 'inside' } },
    {
      // Any spelling of the granted folder is accepted (the controls above): no text asks for the URI "exactly".
      name: 'the words agree with the behaviour: every text about workspaceUri asks for the folder itself, and none for its URI exactly',
      async check(t) {
        const description = (await t.session.listTools()).find((tool) => tool.name === 'list_workspaces')!.description!;
        const listed = await t.call('list_workspaces', {});
        const inside = await t.call('read_text_file', { workspaceUri: '{W}/sub', path: 'deep.md' });
        const rootRefused = await t.call('read_text_file', { workspaceUri: 'notes', path: 'todo.md' });
        const texts = {
          description,
          instructions: INSTRUCTIONS,
          'the authorization layer': (listed.structuredContent as { layers: { authorization: string } }).layers.authorization,
          'the list_workspaces text': textOf(listed),
          'the refusal of a folder inside': textOf(inside),
          'the refusal of a root': textOf(rootRefused),
        };
        for (const [what, text] of Object.entries(texts)) assert.doesNotMatch(text, /\bexactly\b/, what);
        assert.match(description, /path\) as workspaceUri .*never a folder inside it/, 'list_workspaces says a path names the workspace too');
        assert.match(textOf(inside), /Next: .*a granted workspace itself as workspaceUri, and the rest of the path as path/, 'the refusal says what to send instead');
      },
    },
  ],
});

// ------------------------------------------------------------------------------------------------
// Symlink escapes
// ------------------------------------------------------------------------------------------------

const SECRET = 'TOP SECRET outside';
const ESCAPE = { refused: 'ERR_SYMLINK_ESCAPE', stage: 'realpath', verdict: 'outside' } as const;

table({
  name: 'symlink escapes: links inside the workspace that point outside',
  grants: [{ name: 'W', dir: 'ws' }],
  tree: {
    'ws/a.txt': 'inside a',
    'ws/inside-target.txt': 'inside target',
    'outside/secret.txt': SECRET,
    'outside/dir/deeper.txt': SECRET,
    'ws/link-file': link('{base}/outside/secret.txt'),
    'ws/link-rel': link('../outside/secret.txt'),
    'ws/link-dir': link('{base}/outside'),
    'ws/chain': link('link-file'), // a link to a link that escapes
  },
  rows: [
    // Reading through a link to an outside file or folder returns nothing of it.
    ...(
      [
        ['read_text_file', { path: 'link-file' }],
        ['read_text_file', { path: 'link-rel' }],
        ['read_text_file', { path: 'chain' }],
        ['read_text_file', { path: 'link-dir/secret.txt' }],
        ['read_text_file', { path: '{W}/link-file' }],
        ['read_media_file', { path: 'link-file' }],
        ['edit_file', { path: 'link-file', edits: [{ oldText: 'TOP', newText: 'PWNED' }], dryRun: true }],
        ['edit_file', { path: 'link-file', edits: [{ oldText: 'TOP', newText: 'PWNED' }] }],
        ['list_directory', { path: 'link-dir' }],
        ['list_directory_with_sizes', { path: 'link-dir' }],
        ['directory_tree', { path: 'link-dir' }],
        ['search_files', { path: 'link-dir', pattern: 'secret' }],
        ['get_file_info', { path: 'link-dir/secret.txt' }],
      ] as const
    ).map(([tool, args]): Row => ({ tool, args, want: { ...ESCAPE, hides: SECRET } })),
    {
      name: 'the inside file read, each escaping link refused on its own',
      tool: 'read_multiple_files',
      args: { paths: ['a.txt', 'link-file', 'link-dir/secret.txt'] },
      want: { sections: ['a.txt:\ninside a', /: Refused \(ERR_SYMLINK_ESCAPE /, /: Refused \(ERR_SYMLINK_ESCAPE /], hides: SECRET },
      unchanged: ['outside'],
    },

    // Walking the workspace shows escaping links as links and never descends them.
    { name: 'the link listed as a link, no children', tool: 'directory_tree', args: { path: '.' }, want: { structured: { tree: including(exactly({ name: 'link-dir', type: 'symlink' })) }, hides: 'deeper.txt' } },
    { name: 'nothing under the link found', tool: 'search_files', args: { path: '.', pattern: 'deeper' }, want: { structured: { matches: [] } } },
    { name: 'the link listed as a link', tool: 'list_directory', args: { path: '.' }, want: { listing: { links: including('link-dir'), directories: excluding('link-dir') } } },

    { name: 'control: a link whose chain stays inside is followed', tree: { 'ws/inside-link': link('inside-target.txt') }, tool: 'read_text_file', args: { path: 'inside-link' }, want: { text: 'inside target' } },

    // Through an escaping directory link nothing is created, changed or deleted outside (no temporary file either).
    { name: 'write through a dir link', tool: 'write_file', args: { path: 'link-dir/new.txt', content: 'planted' }, want: ESCAPE },
    { name: 'overwrite through a dir link', tool: 'write_file', args: { path: 'link-dir/secret.txt', content: 'overwritten' }, want: ESCAPE },
    { name: 'overwrite deeper through a dir link', tool: 'write_file', args: { path: 'link-dir/dir/deeper.txt', content: 'overwritten' }, want: ESCAPE },
    { name: 'mkdir through a dir link', tool: 'create_directory', args: { path: 'link-dir/newdir' }, want: ESCAPE },
    { name: 'delete through a dir link', tool: 'delete_path', args: { path: 'link-dir/secret.txt' }, want: ESCAPE },
    { name: 'delete a folder through a dir link', tool: 'delete_path', args: { path: 'link-dir/dir', recursive: true }, want: ESCAPE },

    {
      name: 'AT a link (the final name): the link replaced, its outside target never written',
      tree: { 'ws/at-link': link('{base}/outside/secret.txt') },
      tool: 'write_file',
      args: { path: 'at-link', content: 'replaced the link' },
      want: { structured: { path: 'at-link' } },
      disk: { 'ws/at-link': 'replaced the link', 'outside/secret.txt': SECRET },
    },
    {
      name: 'AT a dangling link to an outside name: the link replaced, the outside file never created',
      tree: { 'ws/dangling': link('{base}/outside/planted.txt') },
      tool: 'write_file',
      args: { path: 'dangling', content: 'planted?' },
      want: { structured: { path: 'dangling' } },
      disk: { 'outside/planted.txt': absent, 'ws/dangling': 'planted?' },
    },
    {
      name: 'AT a dangling link to an outside name: the outside folder never created, the link left',
      tree: { 'ws/dangling-dir': link('{base}/outside/newdir') },
      tool: 'create_directory',
      args: { path: 'dangling-dir' },
      want: { error: /EEXIST|ERR_SYMLINK_ESCAPE/, orRefused: true },
      disk: { 'outside/newdir': absent, 'ws/dangling-dir': link('{base}/outside/newdir') },
    },

    // delete_path on a link removes the link, never its target.
    {
      name: 'a link to a file: the link deleted',
      tree: { 'ws/del-file-link': link('{base}/outside/secret.txt') },
      tool: 'delete_path',
      args: { path: 'del-file-link' },
      want: { structured: exactly({ path: 'del-file-link', kind: 'symlink' }) },
      disk: { 'ws/del-file-link': absent },
      unchanged: ['outside'],
    },
    {
      name: 'a link to a folder, recursive: the link deleted',
      tree: { 'ws/del-dir-link': link('{base}/outside') },
      tool: 'delete_path',
      args: { path: 'del-dir-link', recursive: true },
      want: { structured: exactly({ path: 'del-dir-link', kind: 'symlink' }) },
      disk: { 'ws/del-dir-link': absent },
      unchanged: ['outside'],
    },

    {
      name: 'an escaping link moved as the link itself',
      tree: { 'ws/mv-link': link('{base}/outside/secret.txt') },
      tool: 'move_file',
      args: { source: 'mv-link', destination: 'moved-link' },
      want: { structured: { destination: 'moved-link' } },
      disk: { 'ws/mv-link': absent, 'ws/moved-link': link('{base}/outside/secret.txt') },
      unchanged: ['outside'],
    },
    { name: 'move into an escaping dir link', tool: 'move_file', args: { source: 'a.txt', destination: 'link-dir/a.txt' }, want: ESCAPE },
    { name: 'move out through an escaping dir link', tool: 'move_file', args: { source: 'link-dir/secret.txt', destination: 'stolen.txt' }, want: ESCAPE },
  ],
});

// ------------------------------------------------------------------------------------------------
// Read-only grants
// ------------------------------------------------------------------------------------------------

const RO_TREE = { 'ro/file.txt': 'read me\nsecond\n', 'ro/folder/inner.txt': 'inner', 'ro/empty/.keep': '' };
const READ_ONLY = { refused: 'ERR_READ_ONLY', stage: 'server', verdict: 'refused', fields: { next: /read-only/ } } as const; // next explains the read-only grant

/** The rights of each workspace listed, by URI (placeholders replaced), in any order. */
const rightsByUri =
  (expected: Readonly<Record<string, string>>): Matcher =>
  (workspaces: { uri: string; rights: string }[], t, what) =>
    assert.deepEqual(Object.fromEntries(workspaces.map((workspace) => [workspace.uri, workspace.rights])), t.expand(expected), what);

table({
  name: 'a read-only grant (--read-only-workspace) beside a read-write one',
  grants: [
    { name: 'RO', dir: 'ro', rights: 'read' },
    { name: 'RW', dir: 'rw' },
  ],
  tree: { ...RO_TREE, 'rw/file.txt': 'writable' },
  rows: [
    { name: 'each grant with its rights', tool: 'list_workspaces', args: {}, want: { structured: { workspaces: rightsByUri({ '{RO}': 'read', '{RW}': 'read-write' }) } } },

    // Every read tool works on the read-only workspace.
    { name: 'its first line', tool: 'read_text_file', args: { path: 'file.txt', head: 1 }, want: { text: 'read me' } },
    { name: 'each file under its path', tool: 'read_multiple_files', args: { paths: ['file.txt', 'folder/inner.txt'] }, want: { text: /^folder\/inner\.txt:\ninner$/m } },
    { name: 'its size', tool: 'read_media_file', args: { path: 'file.txt' }, want: { structured: { size: 15 } } },
    {
      name: 'its entries, at least three',
      tool: 'list_directory',
      args: { path: '.' },
      want: { listing: ((listed: { directories: string[]; files: string[]; links: string[] }, _t, what) => assert.ok(listed.directories.length + listed.files.length + listed.links.length >= 3, what)) satisfies Matcher },
    },
    { name: 'its entries with sizes', tool: 'list_directory_with_sizes', args: { path: '.' }, want: { structured: {} } },
    { name: 'its tree', tool: 'directory_tree', args: { path: '.' }, want: { structured: {} } },
    { name: 'the one match', tool: 'search_files', args: { path: '.', pattern: 'inner' }, want: { structured: { matches: ['folder/inner.txt'] } } },
    { name: 'a file', tool: 'get_file_info', args: { path: 'file.txt' }, want: { structured: { type: 'file' } } },
    { name: 'inside', tool: 'explain_path', args: { path: 'file.txt' }, want: { structured: { verdict: 'inside' } } },

    // Every write-class tool is refused and nothing changes.
    ...(
      [
        ['write_file', { path: 'file.txt', content: 'overwritten' }],
        ['write_file', { path: 'new.txt', content: 'created' }],
        ['edit_file', { path: 'file.txt', edits: [{ oldText: 'read me', newText: 'edited' }] }],
        ['edit_file', { path: 'file.txt', edits: [{ oldText: 'read me', newText: 'edited' }], dryRun: true }],
        ['create_directory', { path: 'newdir' }],
        ['move_file', { source: 'file.txt', destination: 'moved.txt' }],
        ['delete_path', { path: 'file.txt' }],
        ['delete_path', { path: 'folder', recursive: true }],
        ['delete_path', { path: 'empty/.keep' }],
      ] as const
    ).map(([tool, args]): Row => ({ tool, args, want: READ_ONLY })),

    // Naming the read-write workspace and a path into the read-only one is never a way round the grant.
    ...(
      [
        ['write_file', { path: '{RO}/file.txt', content: 'overwritten' }],
        ['write_file', { path: '{base}/ro/new.txt', content: 'created' }],
        ['delete_path', { path: '../ro/file.txt' }],
        ['move_file', { source: '../ro/file.txt', destination: 'stolen.txt' }],
        ['edit_file', { path: '{RW}/%2e%2e/ro/file.txt', edits: [{ oldText: 'read me', newText: 'edited' }] }],
      ] as const
    ).map(([tool, args]): Row => ({ tool, args: { workspaceUri: '{RW}', ...args }, want: { refused: 'ERR_OUTSIDE', stage: 'containment' } })),

    { name: 'control: the read-write workspace in the same server still takes writes', tool: 'write_file', args: { workspaceUri: '{RW}', path: 'file.txt', content: 'written' }, want: { structured: {} }, disk: { 'rw/file.txt': 'written' } },
  ],
});

table({
  name: 'the same workspace granted read-only and read-write keeps the narrower right',
  grants: [
    { name: 'W', dir: 'ro' },
    { name: 'RO', dir: 'ro', rights: 'read' },
  ],
  tree: RO_TREE,
  rows: [
    { name: 'one workspace, read-only', tool: 'list_workspaces', args: {}, want: { structured: { workspaces: [{ rights: 'read' }] } } },
    { tool: 'write_file', args: { path: 'x.txt', content: 'x' }, want: { refused: 'ERR_READ_ONLY' } },
  ],
});

table({
  name: 'a read-only workspace nested in a read-write one stays read-only when the outer workspace is named',
  grants: [
    { name: 'OUTER', dir: '.' },
    { name: 'RO', dir: 'ro', rights: 'read' },
  ],
  tree: { ...RO_TREE, 'rw/file.txt': 'writable' },
  rows: [
    ...(
      [
        ['write_file', { path: 'ro/file.txt', content: 'overwritten' }],
        ['edit_file', { path: 'ro/file.txt', edits: [{ oldText: 'read me', newText: 'edited' }] }],
        ['create_directory', { path: 'ro/made' }],
        ['delete_path', { path: 'ro/folder', recursive: true }],
        ['move_file', { source: 'ro/file.txt', destination: 'rw/stolen.txt' }],
        ['move_file', { source: 'rw/file.txt', destination: 'ro/planted.txt' }],
      ] as const
    ).map(([tool, args]): Row => ({ tool, args, want: { refused: 'ERR_READ_ONLY' } })),
    { name: 'reading through the outer grant', tool: 'read_text_file', args: { path: 'ro/file.txt' }, want: { text: 'read me\nsecond\n' } },
  ],
});

table({
  name: 'the same folder granted under two names (a link to it read-write, the folder itself read-only) keeps the narrower right under both',
  grants: [
    { name: 'ALIAS', dir: 'ro-alias' },
    { name: 'RO', dir: 'ro', rights: 'read' },
  ],
  tree: { ...RO_TREE, 'ro-alias': link('{base}/ro') },
  rows: [
    {
      name: 'write through the read-write alias of a read-only workspace',
      tool: 'write_file',
      args: { path: 'file.txt', content: 'written through the alias' },
      want: { refused: 'ERR_READ_ONLY' },
      disk: { 'ro/file.txt': 'read me\nsecond\n' },
    },
  ],
});

// ------------------------------------------------------------------------------------------------
// The refusal log
// ------------------------------------------------------------------------------------------------

describe('the refusal log (--refusal-log)', () => {
  let base: string;
  let ws: string;
  let ro: string;
  let W: string;
  let RO: string;

  before(() => {
    base = makeTempDir();
    ws = path.join(base, 'ws');
    ro = path.join(base, 'ro');
    writeTree(base, { 'ws/a.txt': 'a', 'ro/b.txt': 'b', 'outside/secret.txt': 'secret' });
    fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(ws, 'escape'));
    W = fileUri(ws);
    RO = fileUri(ro);
  });
  after(() => removeDir(base));

  test('each refusal is one JSON line with time, tool, workspaceUri, input, code, stage, reason and trace; successes are not logged', async () => {
    const log = path.join(base, 'logs', 'nested', 'refusals.jsonl'); // its folder does not exist yet
    const session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--read-only-workspace', RO, '--refusal-log', log] });
    try {
      expectContent(await session.call('read_text_file', { workspaceUri: W, path: 'a.txt' }), 'a success');
      const refusals: [string, Record<string, unknown>, string, string][] = [
        ['delete_path', { workspaceUri: W, path: `${W}/%2e%2e/outside/secret.txt` }, 'ERR_OUTSIDE', 'containment'],
        ['read_text_file', { workspaceUri: W, path: 'escape' }, 'ERR_SYMLINK_ESCAPE', 'realpath'],
        ['read_text_file', { workspaceUri: W, path: `${W}/a.txt?x` }, 'ERR_QUERY_OR_FRAGMENT', 'refusals'],
        ['write_file', { workspaceUri: fileUri(path.join(base, 'outside')), path: 'secret.txt', content: 'x' }, 'ERR_NOT_GRANTED', 'server'],
        ['write_file', { workspaceUri: `file://localhost${ws}`, path: 'a.txt', content: 'x' }, 'ERR_HOST', 'root'],
        ['delete_path', { workspaceUri: RO, path: 'b.txt' }, 'ERR_READ_ONLY', 'server'],
      ];
      for (const [tool, args, code] of refusals) expectRefusal(await session.call(tool, args), { code: code as ExpectedRefusal['code'] }, `${tool} ${code}`);
      const many = expectContent(await session.call('read_multiple_files', { workspaceUri: W, paths: ['a.txt', '../outside/secret.txt'] }), 'read many');
      assert.match(many.split('\n---\n')[1]!, /: Refused \(ERR_OUTSIDE /);

      const lines = await eventually(() => {
        const read = readLog(log);
        assert.equal(read.length, refusals.length + 1);
        return read;
      }, 'every refusal logged');
      for (const [i, [tool, args, code, stage]] of refusals.entries()) {
        const line = lines[i]!;
        const what = `log line ${i + 1} (${tool} ${code})`;
        assert.deepEqual(Object.keys(line).sort(), ['code', 'input', 'reason', 'stage', 'time', 'tool', 'trace', 'workspaceUri'], what);
        assert.ok(!Number.isNaN(Date.parse(line.time)) && line.time.endsWith('Z'), `${what}: time is ISO 8601`);
        assert.equal(line.tool, tool, what);
        assert.equal(line.workspaceUri, args.workspaceUri, what);
        assert.equal(line.input, args.path, what);
        assert.equal(line.code, code, what);
        assert.equal(line.stage, stage, what);
        assert.equal(typeof line.reason, 'string', what);
        assert.ok(line.reason.length > 0, what);
        if (STAGE_NAMES.includes(stage as (typeof STAGE_NAMES)[number])) {
          assert.ok(line.trace, `${what}: a pipeline refusal carries its trace`);
          assert.ok(Array.isArray(line.trace.stages) && line.trace.stages.length > 0, `${what}: the trace has stages`);
          assert.equal(line.trace.code, code, `${what}: trace.code`);
          assert.equal(line.trace.stage, stage, `${what}: trace.stage`);
          assert.equal(line.trace.stages.at(-1).stage, stage, `${what}: the last stage is the one that refused`);
          assert.equal(line.trace.stages.at(-1).status, 'refuse', what);
        } else {
          assert.ok(line.trace === null || Array.isArray(line.trace.stages), `${what}: trace is null or has stages`);
        }
      }
      const last = lines.at(-1)!;
      assert.equal(last.tool, 'read_multiple_files');
      assert.equal(last.input, '../outside/secret.txt', 'read_multiple_files logs each refused entry by its own input');
      assert.equal(last.code, 'ERR_OUTSIDE');
      assert.ok(Array.isArray(last.trace?.stages));
      assert.equal((fs.statSync(log).mode & 0o777).toString(8), '600', 'the log is private to its owner');
    } finally {
      await session.close();
    }
  });

  test('a line of the log cannot drive a terminal or reorder an editor\'s line: hidden characters are JSON escapes, read back exactly', async () => {
    const log = path.join(base, 'logs', 'hidden', 'refusals.jsonl');
    const session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--refusal-log', log] });
    const input = '../x\u001b[2J\u202e\u2028\u200b.txt';
    try {
      expectRefusal(await session.call('read_text_file', { workspaceUri: W, path: input }), { code: 'ERR_OUTSIDE' }, 'outside');
      const [line] = await eventually(() => {
        const read = readLog(log);
        assert.equal(read.length, 1);
        return read;
      }, 'the refusal logged');
      assert.equal(line!.input, input);
      const raw = fs.readFileSync(log, 'utf8');
      assert.equal(/(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.exec(raw), null, JSON.stringify(raw));
      assert.ok(raw.includes('\\u202e\\u2028\\u200b'), raw);
    } finally {
      await session.close();
    }
  });

  test('a log that cannot be written never fails the call: the refusal still comes back (a directory at the log path)', async () => {
    const log = path.join(base, 'broken', 'refusals.jsonl');
    const session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--refusal-log', log] });
    try {
      fs.mkdirSync(log, { recursive: true }); // appendFile now fails with EISDIR
      for (let i = 0; i < 3; i += 1) {
        const s = expectRefusal(await session.call('delete_path', { workspaceUri: W, path: `../outside/secret.txt` }), { code: 'ERR_OUTSIDE', stage: 'containment' }, `refusal ${i + 1} with a broken log`);
        assert.equal(s.input, '../outside/secret.txt');
      }
      const read = await session.call('read_text_file', { workspaceUri: W, path: 'a.txt' });
      assert.equal(expectContent(read, 'a success after'), 'a');
      await eventually(() => assert.match(session.stderr(), /could not write the refusal log/), 'the failure is reported on stderr');
      assert.ok(fs.existsSync(path.join(base, 'outside/secret.txt')));
    } finally {
      await session.close();
    }
  });

  test('rotation (--refusal-log-size 1024): <file>.1 appears and the current file stays under the limit', async () => {
    const log = path.join(base, 'rotating', 'refusals.jsonl');
    const session = await connect('v2', { inProcess: true, args: ['--workspace', W, '--refusal-log', log, '--refusal-log-size', '1024'] });
    try {
      const count = 12;
      for (let i = 1; i <= count; i += 1) {
        // ERR_NOT_GRANTED lines carry no trace: a few hundred bytes each, so several fit in 1024.
        expectRefusal(await session.call('read_text_file', { workspaceUri: fileUri(path.join(base, 'ungranted')), path: `marker-${i}.txt` }), { code: 'ERR_NOT_GRANTED' }, `refusal ${i}`);
      }
      await eventually(() => assert.equal(readLog(log).at(-1)?.input, `marker-${count}.txt`), 'the last refusal is in the current file');
      assert.ok(fs.existsSync(`${log}.1`), `${log}.1 exists`);
      assert.ok(fs.statSync(log).size <= 1024, `the current file is ${fs.statSync(log).size} bytes, over the 1024 limit`);
      assert.ok(fs.statSync(`${log}.1`).size <= 1024, `the rotated file is ${fs.statSync(`${log}.1`).size} bytes, over the 1024 limit`);
      const current = readLog(log);
      const rotated = readLog(`${log}.1`);
      assert.ok(current.length >= 1 && rotated.length >= 1);
      const inputs = [...rotated, ...current].map((line) => line.input);
      const numbers = inputs.map((input) => Number(/marker-(\d+)/.exec(input)?.[1]));
      assert.deepEqual(numbers, numbers.map((_, i) => count - numbers.length + 1 + i), 'the two files hold the most recent refusals, in order, none lost between them');
    } finally {
      await session.close();
    }
  });
});

// ------------------------------------------------------------------------------------------------
// Names that would forge lines in the answers a model reads
// ------------------------------------------------------------------------------------------------

describe('text answers: a name or link target holding hidden characters is quoted, never drawn raw', () => {
  /** What forges a line or hides text, written apart from the server's own escaping; the answers' own line breaks aside. */
  const FORGES = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
  // A name that draws a listing line of its own, one turned around by U+202E, and a link whose
  // target draws a line of get_file_info's answer.
  const FORGED = 'notes.md\n[FILE] secret.txt';
  const OVERRIDE = 'invoice\u202etxt.exe';
  const TARGET = 'notes.md\ntype: file\u2028size: 1';
  let base: string;
  let W: string;
  let session: Session;

  before(async () => {
    base = makeTempDir();
    writeTree(base, { [`ws/docs/${FORGED}`]: 'x', [`ws/docs/${OVERRIDE}`]: 'y' });
    fs.symlinkSync(TARGET, path.join(base, 'ws/docs/link'));
    W = fileUri(path.join(base, 'ws'));
    session = await connect('v2', { inProcess: true, args: ['--workspace', W] });
  });
  after(async () => {
    await session?.close();
    removeDir(base);
  });

  const calls: readonly (readonly [tool: string, args: Record<string, unknown>, shows: readonly string[]])[] = [
    ['list_directory', { path: 'docs' }, [JSON.stringify(FORGED), '"invoice\\u202etxt.exe"']],
    ['list_directory_with_sizes', { path: 'docs' }, [JSON.stringify(FORGED)]],
    ['directory_tree', { path: 'docs' }, [JSON.stringify(FORGED)]],
    ['search_files', { path: '.', pattern: '**/notes*' }, [JSON.stringify(`docs/${FORGED}`)]],
    ['get_file_info', { path: 'docs/link' }, ['linkTarget: "notes.md\\ntype: file\\u2028size: 1"']],
    ['read_text_file', { path: `docs/${FORGED}.missing` }, [JSON.stringify(`docs/${FORGED}.missing`)]],
    ['audit_workspace', {}, ['"docs/invoice\\u202etxt.exe"']],
    ['explain_path', { path: 'docs/link' }, []],
    ['read_multiple_files', { paths: [`docs/${FORGED}`, `docs/${FORGED}.missing`] }, [`${JSON.stringify(`docs/${FORGED}`)}:\nx`]],
    ['create_directory', { path: `docs/${FORGED}.made` }, [`Created ${JSON.stringify(`docs/${FORGED}.made`)}.`]],
    ['write_file', { path: `docs/${OVERRIDE}`, content: 'z' }, ['Replaced "docs/invoice\\u202etxt.exe"']],
    ['move_file', { source: `docs/${FORGED}`, destination: `docs/${FORGED}.moved` }, [`Moved ${JSON.stringify(`docs/${FORGED}`)}`]],
    ['delete_path', { path: `docs/${FORGED}.made` }, [`Deleted directory ${JSON.stringify(`docs/${FORGED}.made`)}.`]],
  ];
  for (const [tool, args, shows] of calls) {
    test(`${tool}: nothing in the text forges a line or hides text, and the names are quoted`, async () => {
      const text = textOf(await session.call(tool, { workspaceUri: W, ...args }));
      assert.equal(FORGES.exec(text), null, `${tool}: ${JSON.stringify(text)}`);
      assert.ok(!text.split('\n').some((line) => /^\s*(\[FILE\] secret\.txt|type: file$|secret\.txt)/.test(line)), `${tool} drew a forged line: ${text}`);
      for (const shown of shows) assert.ok(text.includes(shown), `${tool} shows ${shown}: ${text}`);
    });
  }
});
