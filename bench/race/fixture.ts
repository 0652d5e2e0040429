// The race fixture: a workspace whose folder `d` the swap helper keeps exchanging with a link to
// a twin folder outside. The twin holds the same names, but its contents and the names only it
// has carry markers, so any answer or file that came from outside is recognisable afterwards.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Calls kept in flight at once, one worker each; every worker has its own victims and names. */
export const WORKERS = 8;
/** Victims per worker for deletes and moves: an outside victim, once gone, stays gone. */
export const VICTIMS_PER_WORKER = 16;

/** Every outside entry gets this time, so metadata described from outside is recognisable. */
export const OUTSIDE_TIME = new Date(Date.UTC(1999, 8, 9, 9, 9, 9));

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface EntryState {
  readonly type: EntryType;
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly content?: Buffer;
  readonly target?: string;
}

export type TreeState = ReadonlyMap<string, EntryState>;

export interface Fixture {
  readonly base: string;
  readonly workspace: string;
  readonly workspaceUri: string;
  readonly outside: string;
  /** Its own folder: the server may write its refusal log there, and nowhere near `outside`. */
  readonly refusalLog: string;
  /** `ws/d` and `ws/swap`: the two names the swap helper exchanges. */
  readonly swapping: readonly [string, string];
  /** Prefix of every outside file's content marker; the full marker also names the file. */
  readonly contentMarker: string;
  /** Part of every name that only the outside twin has. */
  readonly nameMarker: string;
  /** Size of each outside file, by the id in its content marker. */
  readonly outsideFileSizes: ReadonlyMap<string, number>;
  /** A name inside the real inside folder, wherever the swap has put it right now. */
  inside(name: string): string;
  /** A name in `ws/top`, a folder nobody swaps. */
  top(name: string): string;
  /** Workspace files holding the outside marker that the harness had to overwrite during the run. */
  markedFilesOverwritten: number;
  readonly workspaceBefore: TreeState;
  readonly outsideBefore: TreeState;
  /** Closes the descriptor and removes the base folder; safe to call twice. */
  dispose(): void;
}

function entryTypeOf(stats: fs.Stats | fs.BigIntStats): EntryType {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFile()) return 'file';
  return 'other';
}

/** Every entry below `root` by relative path, never following a link; file contents included. */
export function walkTree(root: string): Map<string, EntryState> {
  const entries = new Map<string, EntryState>();
  const visit = (folder: string, relative: string) => {
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(folder, name);
      const childRelative = relative === '' ? name : `${relative}/${name}`;
      let stats: fs.BigIntStats;
      try {
        stats = fs.lstatSync(full, { bigint: true });
      } catch {
        continue;
      }
      const type = entryTypeOf(stats);
      const state: EntryState = {
        type,
        ino: stats.ino,
        mtimeNs: stats.mtimeNs,
        ...(type === 'file' ? { content: fs.readFileSync(full) } : {}),
        ...(type === 'symlink' ? { target: fs.readlinkSync(full) } : {}),
      };
      entries.set(childRelative, state);
      if (type === 'directory') visit(full, childRelative);
    }
  };
  visit(root, '');
  return entries;
}

/** Creates the file unless something is already there (the harness's refill never replaces). */
export function ensureFile(target: string, content: string | Buffer): void {
  try {
    fs.writeFileSync(target, content, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

export function ensureDirectory(target: string): void {
  try {
    fs.mkdirSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

export function holdsMarker(target: string, marker: string): boolean {
  try {
    const stats = fs.lstatSync(target);
    return stats.isFile() && fs.readFileSync(target).includes(marker);
  } catch {
    return false;
  }
}

/**
 * Removes what a call made inside so the next call has something to do again, unless it holds
 * the outside marker: that file came from outside and is counted at the end.
 */
export function removeUnlessMarked(target: string, marker: string): void {
  if (holdsMarker(target, marker)) return;
  fs.rmSync(target, { recursive: true, force: true });
}

export function victimName(worker: number, index: number): string {
  return `victim-${worker}-${index % VICTIMS_PER_WORKER}`;
}

export function victimDirectoryName(worker: number, index: number): string {
  return `victim-dir-${worker}-${index % VICTIMS_PER_WORKER}`;
}

export function editName(worker: number): string {
  return `edit-${worker}.txt`;
}

export const EDIT_ORIGINAL = 'value: A\n';
export const VICTIM_CONTENT = 'a victim of the race harness\n';

/** The names both `ws/d` and its outside twin hold; the twin's files carry a marker. */
function sharedTree(): Record<string, string | Buffer | null> {
  const tree: Record<string, string | Buffer | null> = {
    'file.txt': 'an ordinary file inside the workspace\n'.repeat(4),
    'image.png': Buffer.concat([PNG_SIGNATURE, Buffer.from('inside image\n')]),
    sub: null,
    'sub/inner.txt': 'inside, one folder down\n',
  };
  for (let worker = 0; worker < WORKERS; worker += 1) {
    tree[editName(worker)] = EDIT_ORIGINAL;
    for (let index = 0; index < VICTIMS_PER_WORKER; index += 1) {
      tree[victimName(worker, index)] = VICTIM_CONTENT;
      tree[victimDirectoryName(worker, index)] = null;
      tree[`${victimDirectoryName(worker, index)}/inner.txt`] = VICTIM_CONTENT;
    }
  }
  return tree;
}

function writeTree(root: string, tree: Record<string, string | Buffer | null>): void {
  for (const [relative, content] of Object.entries(tree)) {
    const full = path.join(root, relative);
    if (content === null) fs.mkdirSync(full, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
    }
  }
}

export function createFixture(): Fixture {
  const run = randomBytes(6).toString('hex');
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-race-')));
  const workspace = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  const twin = path.join(outside, 'd');
  const contentMarker = `OUTSIDE-SECRET-${run}`;
  const nameMarker = `outside-only-${run}`;
  let descriptor: number | undefined;
  try {
    const shared = sharedTree();
    writeTree(path.join(workspace, 'd'), shared);
    for (let worker = 0; worker < WORKERS; worker += 1) {
      for (let index = 0; index < VICTIMS_PER_WORKER; index += 1) writeTree(path.join(workspace, 'top'), { [victimName(worker, index)]: VICTIM_CONTENT });
    }

    // The twin: same names, each file's text followed by a marker naming that file, plus names only it has.
    const outsideFileSizes = new Map<string, number>();
    let nextId = 0;
    const marked = (content: string | Buffer) => {
      const id = String(nextId++);
      const bytes = Buffer.concat([Buffer.from(content), Buffer.from(`${contentMarker}-${id}!\n`)]);
      outsideFileSizes.set(id, bytes.length);
      return bytes;
    };
    const twinTree: Record<string, string | Buffer | null> = {};
    for (const [relative, content] of Object.entries(shared)) twinTree[relative] = content === null ? null : marked(content);
    twinTree[`${nameMarker}.txt`] = marked('only outside\n');
    twinTree[`${nameMarker}-folder`] = null;
    twinTree[`sub/${nameMarker}-sub.txt`] = marked('only outside, one folder down\n');
    writeTree(twin, twinTree);
    fs.symlinkSync(twin, path.join(workspace, 'swap'));
    // Deepest first: setting a folder's entries' times does not touch the folder's own.
    for (const relative of [...walkTree(outside).keys()].sort().reverse()) fs.lutimesSync(path.join(outside, relative), OUTSIDE_TIME, OUTSIDE_TIME);
    fs.lutimesSync(outside, OUTSIDE_TIME, OUTSIDE_TIME);

    // Opened before any swap: the harness refills the real inside folder through this, never by the swapping name.
    const openedDescriptor = fs.openSync(path.join(workspace, 'd'), fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    descriptor = openedDescriptor;
    const refusalLog = path.join(base, 'log', 'refusals.jsonl');
    fs.mkdirSync(path.dirname(refusalLog));
    let disposed = false;
    return {
      base,
      workspace,
      workspaceUri: pathToFileURL(workspace).href,
      outside,
      refusalLog,
      swapping: [path.join(workspace, 'd'), path.join(workspace, 'swap')],
      contentMarker,
      nameMarker,
      outsideFileSizes,
      inside: (name) => `/proc/self/fd/${openedDescriptor}/${name}`,
      top: (name) => path.join(workspace, 'top', name),
      markedFilesOverwritten: 0,
      workspaceBefore: walkTree(workspace),
      outsideBefore: walkTree(outside),
      dispose() {
        if (disposed) return;
        disposed = true;
        fs.closeSync(openedDescriptor);
        fs.rmSync(base, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (descriptor !== undefined) fs.closeSync(descriptor);
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  }
}

export interface DiskCounts {
  /** Entries outside that were not there before (temporary files apart). */
  readonly createdOutside: number;
  /** Outside entries whose type, identity, content or (for files) modification time changed. */
  readonly changedOutside: number;
  readonly deletedOutside: number;
  /** Workspace files holding the outside marker: moved (or copied by an edit) in from outside. */
  readonly movedIn: number;
  readonly tmpInside: number;
  readonly tmpOutside: number;
}

const isTemporary = (relative: string) => relative.endsWith('.tmp');

/** How many paths of each kind the audit keeps as evidence. */
const EVIDENCE_PATHS = 5;

export interface DiskAudit {
  readonly counts: DiskCounts;
  /** A few of the paths behind each count, relative to `outside/` or `ws/`. */
  readonly paths: Partial<Record<keyof DiskCounts, string[]>>;
}

/** Compares the disk with the snapshots; call once nothing runs any more. */
export function auditDisk(fixture: Fixture): DiskAudit {
  const counts: Record<keyof DiskCounts, number> = {
    createdOutside: 0,
    changedOutside: 0,
    deletedOutside: 0,
    movedIn: fixture.markedFilesOverwritten,
    tmpInside: 0,
    tmpOutside: 0,
  };
  const paths: Partial<Record<keyof DiskCounts, string[]>> = {};
  const found = (kind: keyof DiskCounts, where: string) => {
    counts[kind] += 1;
    const list = (paths[kind] ??= []);
    if (list.length < EVIDENCE_PATHS) list.push(where);
  };

  const outsideNow = walkTree(fixture.outside);
  for (const [relative, now] of outsideNow) {
    const before = fixture.outsideBefore.get(relative);
    if (before === undefined) {
      found(isTemporary(relative) ? 'tmpOutside' : 'createdOutside', `outside/${relative}`);
      continue;
    }
    const changed =
      now.type !== before.type ||
      now.ino !== before.ino ||
      (now.type === 'file' && (now.mtimeNs !== before.mtimeNs || !now.content!.equals(before.content!))) ||
      (now.type === 'symlink' && now.target !== before.target);
    if (changed) found('changedOutside', `outside/${relative}`);
  }
  for (const relative of fixture.outsideBefore.keys()) if (!outsideNow.has(relative)) found('deletedOutside', `outside/${relative}`);

  for (const [relative, now] of walkTree(fixture.workspace)) {
    if (isTemporary(relative) && !fixture.workspaceBefore.has(relative)) found('tmpInside', `ws/${relative}`);
    if (now.type === 'file' && now.content!.includes(fixture.contentMarker)) found('movedIn', `ws/${relative}`);
  }
  return { counts, paths };
}
