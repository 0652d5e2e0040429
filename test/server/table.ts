// Tables of tool calls that read as specifications: each row is {tree, tool, args, want}, run as a
// test of its own against one in-process session per table and client kind, over a fresh folder:
// every table crosses both doors of the server, the SDK's (a 2026-07-28 client) and the direct one
// a 2025-11-25 client's plain calls take (VS Code's).
//
// Strings in args, trees, wants and disk expectations may name placeholders, replaced before the
// row runs, so rows (and test names) never hold a temporary path:
//   {base}      the table's folder, every tree and disk path is relative to it
//   {baseUri}   its file: URI
//   {W}, {RO}…  each grant's URI, by the name the table gives it (and any `placeholders` of its own)
// In a RegExp a placeholder stands for its value, escaped.
//
// A row's call is checked in this order: the disk (a refused or failed call changes nothing under
// {base}; `unchanged` folders are as before; `disk` holds), then the answer against `want`.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WORKSPACE_TOOLS } from '../../src/server/tools/index.js';
import {
  CLIENT_KINDS,
  connect,
  expectContent,
  expectError,
  expectOk,
  expectRefusal,
  fileUri,
  listingOf,
  makeTempDir,
  removeDir,
  snapshot,
  textOf,
  type ClientKind,
  type ExpectedRefusal,
  type Session,
  type ToolResult,
} from './helpers.js';

// ------------------------------------------------------------------------------------------------
// Trees and the disk
// ------------------------------------------------------------------------------------------------

export interface FileEntry {
  readonly file: string | Buffer;
  readonly mode?: number;
}
export interface LinkEntry {
  readonly link: string;
}
export interface FolderEntry {
  /** In a tree, empty files by these names inside; on disk, exactly these names inside (undefined: any). */
  readonly folder: readonly string[] | undefined;
}
export interface AbsentEntry {
  readonly absent: true;
}
export interface PresentEntry {
  readonly present: true;
}

/** A file's content (a plain string or Buffer is a file too), with its permission bits. */
export const file = (content: string | Buffer, mode?: number): FileEntry => (mode !== undefined ? { file: content, mode } : { file: content });
/** A symbolic link whose target text is `target` (placeholders replaced). */
export const link = (target: string): LinkEntry => ({ link: target });
/** A folder: in a tree, with an empty file for each of `names`; on disk, holding exactly `names` when given. */
export const folder = (names?: readonly string[]): FolderEntry => ({ folder: names });
/** Nothing there, not even a dangling link. In a tree: whatever is there is removed. */
export const absent: AbsentEntry = { absent: true };
/** On disk: something is there. */
export const present: PresentEntry = { present: true };

export type TreeEntry = string | Buffer | FileEntry | LinkEntry | FolderEntry | AbsentEntry;
export type DiskEntry = TreeEntry | PresentEntry;
/** Paths relative to {base}, in the order they are made. */
export type Tree = Readonly<Record<string, TreeEntry>>;
export type Disk = Readonly<Record<string, DiskEntry>>;

/** Writes each entry, replacing whatever is at its path. */
export function plant(base: string, tree: Tree, expand: (text: string) => string = (text) => text): void {
  for (const [relative, entry] of Object.entries(tree)) {
    const full = path.join(base, relative);
    fs.rmSync(full, { recursive: true, force: true });
    if (typeof entry === 'object' && 'absent' in entry) continue;
    fs.mkdirSync(path.dirname(full), { recursive: true });
    if (typeof entry === 'string' || Buffer.isBuffer(entry)) fs.writeFileSync(full, entry);
    else if ('link' in entry) fs.symlinkSync(expand(entry.link), full);
    else if ('folder' in entry) {
      fs.mkdirSync(full);
      for (const name of entry.folder ?? []) fs.writeFileSync(path.join(full, name), '');
    } else {
      fs.writeFileSync(full, entry.file);
      if (entry.mode !== undefined) fs.chmodSync(full, entry.mode);
    }
  }
}

function checkDisk(base: string, disk: Disk, expand: (text: string) => string): void {
  for (const [relative, entry] of Object.entries(disk)) {
    const full = path.join(base, relative);
    const stats = fs.lstatSync(full, { throwIfNoEntry: false });
    const what = `on disk, ${relative}`;
    if (typeof entry === 'object' && 'absent' in entry) {
      assert.equal(stats, undefined, `${what}: expected nothing there, found a ${stats?.isSymbolicLink() ? 'link' : stats?.isDirectory() ? 'folder' : 'file'}`);
      continue;
    }
    assert.ok(stats, `${what}: missing`);
    if (typeof entry === 'object' && 'present' in entry) continue;
    if (typeof entry === 'object' && 'link' in entry) {
      assert.ok(stats.isSymbolicLink(), `${what}: not a link`);
      assert.equal(fs.readlinkSync(full), expand(entry.link), `${what}: link target`);
    } else if (typeof entry === 'object' && 'folder' in entry) {
      assert.ok(stats.isDirectory(), `${what}: not a folder`);
      if (entry.folder !== undefined) assert.deepEqual(fs.readdirSync(full).sort(), [...entry.folder].sort(), `${what}: the folder's names`);
    } else {
      const content = typeof entry === 'string' || Buffer.isBuffer(entry) ? entry : entry.file;
      assert.ok(stats.isFile(), `${what}: not a regular file`);
      assert.deepEqual(fs.readFileSync(full), Buffer.from(content), `${what}: content`);
      if (typeof entry === 'object' && 'mode' in entry && entry.mode !== undefined) assert.equal(stats.mode & 0o777, entry.mode, `${what}: mode`);
    }
  }
}

/** The entries of a snapshot at or under `relative`. */
function under(entries: Record<string, string>, relative: string): Record<string, string> {
  return Object.fromEntries(Object.entries(entries).filter(([key]) => key === relative || key.startsWith(`${relative}/`)));
}

// ------------------------------------------------------------------------------------------------
// Matching answers
// ------------------------------------------------------------------------------------------------

/** An expectation given as code: asserts on the value found. */
export type Matcher = (actual: any, t: Context, what: string) => void;

/**
 * How an expected value matches what came back: a function asserts on it; a RegExp matches a
 * string; an array matches an array of the same length, item by item; a plain object matches
 * the keys it names (a key given as undefined must be absent); anything else is deepEqual.
 */
function matches(actual: unknown, expected: unknown, what: string, t: Context): void {
  if (typeof expected === 'function') (expected as Matcher)(actual, t, what);
  else if (expected instanceof RegExp) {
    assert.equal(typeof actual, 'string', `${what}: expected a string to match ${expected}, got ${show(actual)}`);
    assert.match(actual as string, expected, what);
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${what}: expected an array, got ${show(actual)}`);
    assert.equal(actual.length, expected.length, `${what}: length of ${show(actual)}`);
    expected.forEach((item, i) => matches(actual[i], item, `${what}[${i}]`, t));
  } else if (expected !== null && typeof expected === 'object' && Object.getPrototypeOf(expected) === Object.prototype) {
    assert.ok(actual !== null && typeof actual === 'object', `${what}: expected an object, got ${show(actual)}`);
    for (const [key, value] of Object.entries(expected)) matches((actual as Record<string, unknown>)[key], value, `${what}.${key}`, t);
  } else assert.deepEqual(actual, expected, what);
}

function matchesQuietly(actual: unknown, expected: unknown, t: Context): boolean {
  try {
    matches(actual, expected, '', t);
    return true;
  } catch {
    return false;
  }
}

/** A matcher given as code, shown in test names as `label`. */
function named(label: string, matcher: Matcher): Matcher {
  return Object.assign(matcher, { label });
}

/** Exactly this value: no key more or fewer (placeholders replaced). */
export const exactly = (value: unknown): Matcher => named(`exactly ${show(value)}`, (actual, t, what) => assert.deepEqual(actual, t.expand(value), what));

/** An array holding, somewhere, an item matching each of these. */
export const including = (...items: readonly unknown[]): Matcher =>
  named(`including ${show(items)}`, (actual, t, what) => {
    assert.ok(Array.isArray(actual), `${what}: expected an array, got ${show(actual)}`);
    for (const item of items) assert.ok(actual.some((found) => matchesQuietly(found, t.expand(item), t)), `${what}: no item matches ${show(item)} in ${show(actual)}`);
  });

/** An array with no item matching any of these. */
export const excluding = (...items: readonly unknown[]): Matcher =>
  named(`excluding ${show(items)}`, (actual, t, what) => {
    assert.ok(Array.isArray(actual), `${what}: expected an array, got ${show(actual)}`);
    for (const item of items) assert.ok(!actual.some((found) => matchesQuietly(found, t.expand(item), t)), `${what}: an item matches ${show(item)} in ${show(actual)}`);
  });

/** A value for a test name or a message: RegExps as /…/, Buffers by size, code by its label or as ƒ. */
function show(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item instanceof RegExp) return `${item}`;
      if (typeof item === 'function') return (item as { label?: string }).label ?? 'ƒ';
      if (item !== null && typeof item === 'object' && (item as { type?: unknown }).type === 'Buffer') return `<${(item as { data: unknown[] }).data.length} bytes>`;
      return item;
    }) ?? String(value)
  );
}

// ------------------------------------------------------------------------------------------------
// Wants
// ------------------------------------------------------------------------------------------------

interface Hides {
  /** Text that must appear nowhere in the result (an outside file's content). */
  readonly hides?: string | readonly string[];
}

/**
 * A success. With `structured`, the answer is structuredContent (expectOk); without it, the text
 * is the answer and nothing structured repeats it (expectContent).
 */
export interface Answer extends Hides {
  readonly structured?: unknown;
  /** The whole text, or patterns it matches. */
  readonly text?: string | RegExp | readonly RegExp[];
  /** The text's sections, split at `\n---\n` (read_multiple_files): as many, each equal or matching. */
  readonly sections?: readonly (string | RegExp)[];
  /** A list_directory answer read back by heading (listingOf). */
  readonly listing?: unknown;
  /** The content blocks. */
  readonly blocks?: unknown;
}

/** A refusal (expectRefusal): its code, stage and verdict; `fields` matches more of them. */
export interface Refused extends Hides {
  readonly refused: ExpectedRefusal['code'];
  readonly stage?: string;
  readonly verdict?: 'outside' | 'refused';
  readonly fields?: unknown;
}

/** An error that is not a refusal (expectError), its text matching; `orRefused`: a refusal will do too. */
export interface Failed extends Hides {
  readonly error: RegExp;
  readonly orRefused?: true;
}

export type Want = Answer | Refused | Failed;

function summary(want: Want): string {
  const hiding = want.hides !== undefined ? `, hiding ${show(want.hides)}` : '';
  if ('refused' in want) {
    const fields = want.fields !== null && typeof want.fields === 'object' ? Object.entries(want.fields).map(([key, value]) => `, ${key} ${value instanceof RegExp ? String(value) : show(value)}`) : [];
    return `refused ${want.refused}${want.stage !== undefined ? ` at ${want.stage}` : ''}${want.verdict !== undefined ? ` (${want.verdict})` : ''}${fields.join('')}${hiding}`;
  }
  if ('error' in want) return `fails ${want.error}${want.orRefused === true ? ' or is refused' : ''}${hiding}`;
  const shown = show(Object.fromEntries(Object.entries(want).filter(([key]) => key !== 'hides')));
  return `answers ${shown.length > 160 ? `${shown.slice(0, 160)}…` : shown}${hiding}`;
}

/** Checks a result against a want; `sent` is the arguments as sent (for the refusal's echo of them). */
function checkWant(result: ToolResult, want: Want, sent: Record<string, unknown>, t: Context, what: string): void {
  const w = t.expand(want);
  if ('refused' in w) {
    const s = expectRefusal(result, { code: w.refused, ...(w.stage !== undefined ? { stage: w.stage } : {}), ...(w.verdict !== undefined ? { verdict: w.verdict } : {}) }, what);
    // A refusal names the workspaceUri and the input as they were sent.
    if (typeof sent.workspaceUri === 'string') assert.equal(s.workspaceUri, sent.workspaceUri, `${what}: the refusal names the workspaceUri as sent`);
    if (typeof sent.path === 'string') assert.equal(s.input, sent.path, `${what}: the refusal echoes the input as sent`);
    else if (typeof sent.source === 'string') assert.ok([sent.source, sent.destination].includes(s.input), `${what}: the refusal echoes the source or destination as sent, not ${show(s.input)}`);
    if (w.fields !== undefined) matches(s, w.fields, `${what}: refusal`, t);
  } else if ('error' in w) {
    if (w.orRefused === true) {
      assert.equal(result.isError, true, `${what}: expected an error, got success: ${textOf(result)}`);
      assert.match(textOf(result), w.error, `${what}: error text`);
    } else expectError(result, w.error, what);
  } else {
    if (w.structured !== undefined) matches(expectOk(result, what), w.structured, `${what}: structuredContent`, t);
    else expectContent(result, what);
    const text = textOf(result);
    if (typeof w.text === 'string') assert.equal(text, w.text, `${what}: text`);
    else if (w.text instanceof RegExp) assert.match(text, w.text, `${what}: text`);
    else for (const pattern of w.text ?? []) assert.match(text, pattern, `${what}: text`);
    if (w.sections !== undefined) matches(text.split('\n---\n'), w.sections, `${what}: sections`, t);
    if (w.listing !== undefined) matches(listingOf(result, what), w.listing, `${what}: listing`, t);
    if (w.blocks !== undefined) matches(result.content, w.blocks, `${what}: content blocks`, t);
  }
  for (const secret of typeof w.hides === 'string' ? [w.hides] : (w.hides ?? [])) assert.ok(!JSON.stringify(result).includes(secret), `${what}: ${show(secret)} came back`);
}

// ------------------------------------------------------------------------------------------------
// Rows and tables
// ------------------------------------------------------------------------------------------------

/** One call and what it must answer and leave on disk. */
export interface Call {
  /** What the answer is (a success), or what a refusal or failure shows, when the want does not say it alone. */
  readonly name?: string;
  /** Written (replacing what is there) just before the call. */
  readonly tree?: Tree;
  readonly tool: string;
  /** The tool's arguments; workspaceUri is the table's workspace unless given. */
  readonly args: Record<string, unknown>;
  readonly want: Want;
  /** What is on disk afterwards. */
  readonly disk?: Disk;
  /** Folders (relative to {base}) whose every entry is as it was before the call. */
  readonly unchanged?: readonly string[];
}

/** A row that needs code: several calls in sequence, say. */
export interface Check {
  readonly name: string;
  check(t: Context): Promise<void> | void;
}

export type Row = Call | Check;

export interface Grant {
  /** The placeholder for its URI: {W}. */
  readonly name: string;
  /** Its folder, relative to {base}. */
  readonly dir: string;
  readonly rights?: 'read';
}

export interface Table {
  readonly name: string;
  /** Written under {base} before the server starts. */
  readonly tree: Tree;
  /** Granted in this order (--workspace, or --read-only-workspace for rights: 'read'). */
  readonly grants: readonly Grant[];
  /** The grant whose URI a row's workspaceUri is unless it gives one: the first by default. */
  readonly workspace?: string;
  /** Placeholders of the table's own, from its folder. */
  readonly placeholders?: (base: string) => Readonly<Record<string, string>>;
  readonly rows: readonly Row[];
}

/** What a row (or a matcher given as code) can reach. */
export interface Context {
  readonly session: Session;
  readonly kind: ClientKind;
  /** The protocol version this client negotiates. */
  readonly version: string;
  readonly base: string;
  /** A path relative to {base}, absolute. */
  at(relative: string): string;
  /** The value with its placeholders replaced, at any depth, keys too (matchers given as code are kept). */
  expand<T>(value: T): T;
  /** A call as a row makes it: placeholders replaced, workspaceUri filled in. */
  call(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** A result checked against a want, as a row's is (but for the refusal's echo of the arguments). */
  expect(result: ToolResult, want: Want, what: string): void;
}

/** The tools a workspaceUri is filled in for. */
const TAKES_WORKSPACE: ReadonlySet<string> = new Set(WORKSPACE_TOOLS.map((tool) => tool.name));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function expander(values: Readonly<Record<string, string>>): <T>(value: T) => T {
  const replace = (text: string, escape: (text: string) => string) =>
    text.replace(/\{([A-Za-z]\w*)\}/g, (_token, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`unknown placeholder {${name}} in ${text}`);
      return escape(value);
    });
  const expand = (value: unknown): unknown => {
    if (typeof value === 'string') return replace(value, (text) => text);
    if (value instanceof RegExp) return new RegExp(replace(value.source, escapeRegExp), value.flags);
    if (Array.isArray(value)) return value.map(expand);
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([key, item]) => [replace(key, (text) => text), expand(item)]));
    return value;
  };
  return expand as <T>(value: T) => T;
}

/** The call, then what it must answer: a success by the row's name when it has one. */
function callName(row: Call): string {
  const call = `${row.tool} ${show(row.args)}`;
  if ('refused' in row.want || 'error' in row.want) return `${call} → ${summary(row.want)}${row.name !== undefined ? `: ${row.name}` : ''}`;
  return `${call} → ${row.name ?? summary(row.want)}`;
}

/** Registers a describe per client kind, a test per row. */
export function table(spec: Table): void {
  for (const { kind, version } of CLIENT_KINDS) {
    describe(`${spec.name} (${kind} client, ${version})`, () => {
      let base: string;
      let session: Session;
      let expand: <T>(value: T) => T;
      let uris: Record<string, string>;
      const argsFor = (tool: string, args: Record<string, unknown>) => {
        const given = expand(args);
        const workspace = spec.workspace ?? spec.grants[0]?.name;
        return 'workspaceUri' in given || !TAKES_WORKSPACE.has(tool) || workspace === undefined ? given : { workspaceUri: uris[workspace], ...given };
      };
      const t: Context = {
        get session() {
          return session;
        },
        kind,
        version,
        get base() {
          return base;
        },
        at: (relative) => path.join(base, relative),
        expand: (value) => expand(value),
        call: (tool, args) => session.call(tool, argsFor(tool, args)),
        expect: (result, want, what) => checkWant(result, want, {}, t, what),
      };

      before(async () => {
        base = makeTempDir();
        uris = Object.fromEntries(spec.grants.map((grant) => [grant.name, fileUri(path.join(base, grant.dir))]));
        expand = expander({ base, baseUri: fileUri(base), ...uris, ...spec.placeholders?.(base) });
        plant(base, spec.tree, expand);
        const args = spec.grants.flatMap((grant) => [grant.rights === 'read' ? '--read-only-workspace' : '--workspace', uris[grant.name]!]);
        session = await connect(kind, { inProcess: true, args, recordWire: false });
      });
      after(async () => {
        await session?.close();
        removeDir(base);
      });

      for (const row of spec.rows) {
        if ('check' in row) {
          test(row.name, () => row.check(t));
          continue;
        }
        test(callName(row), async () => {
          if (row.tree !== undefined) plant(base, row.tree, expand);
          const sent = argsFor(row.tool, row.args);
          // A success that was not wanted fails on its want; only a wanted failure needs the disk before.
          const was = 'refused' in row.want || 'error' in row.want || row.unchanged !== undefined ? snapshot(base) : undefined;
          const result = await session.call(row.tool, sent);
          if (was !== undefined) {
            const now = snapshot(base);
            if (result.isError === true) assert.deepEqual(now, was, `${row.tool}: a refused or failed call changed the disk: ${textOf(result)}`);
            for (const folder of row.unchanged ?? []) assert.deepEqual(under(now, folder), under(was, folder), `${folder} is unchanged`);
          }
          if (row.disk !== undefined) checkDisk(base, row.disk, expand);
          checkWant(result, row.want, sent, t, `${row.tool} ${show(row.args)}`);
        });
      }
    });
  }
}
