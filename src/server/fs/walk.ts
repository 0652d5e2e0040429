import type { Dirent } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CancelledError, SLICE_MS, type CancelSignal } from '../cancellation.js';
import type { Anchor } from './anchor.js';
import { ChangedError, compareNames, entryTypeOf, errnoOf, type EntryType } from './errors.js';
import type { Folder } from './folder.js';
import { MAX_OPEN_FOLDERS, MAX_WALK_DEPTH } from '../limits.js';

/** One entry met by a walk, in depth-first order, each folder's entries sorted by name. */
export interface WalkEntry {
  readonly name: string;
  /** The names from the starting folder down to this entry, this entry's own included. */
  readonly names: readonly string[];
  /** The names joined with `/`: what exclude patterns are matched against. */
  readonly relative: string;
  /** From the listing: a link is `symlink`, never its target's type. */
  readonly type: EntryType;
  /** 1 for the starting folder's own entries. */
  readonly depth: number;
}

/** What is below an entry: its listing if it is a folder the walk could enter. */
export type Below =
  | { readonly kind: 'leaf' }
  | { readonly kind: 'folder'; readonly count: number }
  /** Deeper than the walk goes: not opened. */
  | { readonly kind: 'too-deep' }
  /** Removed since its folder was listed. */
  | { readonly kind: 'gone' }
  /** A link is there now, where the listing saw a folder: never followed. */
  | { readonly kind: 'changed' }
  | { readonly kind: 'unreadable'; readonly code: string };

/** Ends the walk after this entry: a walk resumed from its position goes on with the next one. */
export const STOP = Symbol('stop');
/** Ends the walk without this entry (an answer that has no room for it): a resumed walk starts with it. */
export const STOP_BEFORE = Symbol('stop before');

export interface WalkOptions<C> {
  readonly anchor: Anchor;
  /** The starting folder, as names below the workspace root. */
  readonly start: readonly string[];
  /** The context the starting folder's entries are visited with. */
  readonly context: C;
  /** Entries examined before the walk stops, excluded ones included. */
  readonly maxEntries: number;
  readonly maxDepth?: number;
  /** A time (Date.now()) past which the walk stops, once it has examined `minEntries` (so every walk gets somewhere). */
  readonly deadline?: number;
  readonly minEntries?: number;
  /** A position an earlier walk stopped at (its `position`): the walk goes on from there. */
  readonly resume?: readonly string[];
  /**
   * The context of each folder a resumed walk starts inside, from the folder above's (its
   * `names` from the starting folder down); without it every one gets `context`.
   */
  readonly resumeInside?: (names: readonly string[], parent: C) => C;
  /** Entries examined between readings of the clock in walkInTurns: fewer where visiting an entry is long work (reading a file). */
  readonly clockEvery?: number;
  /** Entries left out, and never entered; they still count as examined. */
  readonly exclude?: (entry: WalkEntry) => boolean;
  /**
   * Called for each entry not excluded, with what is below it. For a listed folder, return the
   * context its entries are visited with to enter it, or undefined to pass it by. STOP or
   * STOP_BEFORE ends the walk. `folder` opens the folder holding the entry (held by the walk: never closed by the visitor).
   */
  readonly visit: (entry: WalkEntry, below: Below, parent: C, folder: () => Folder) => C | undefined | typeof STOP | typeof STOP_BEFORE;
}

export interface WalkResult {
  /** done: every entry was examined; entries, time: a limit stopped it; visitor: `visit` did. */
  readonly stopped: 'done' | 'entries' | 'time' | 'visitor';
  readonly examined: number;
  /**
   * Where to go on from, when the walk stopped early: for each folder from the starting one down,
   * the name of the last entry examined in it ('' for none). Names only: resuming opens each
   * folder again from the root, through its parent, never through a link.
   */
  readonly position: readonly string[] | undefined;
}

interface Frame<C> {
  readonly names: readonly string[];
  readonly depth: number;
  context: C;
  /** Entries after `after` in name order; listed when the frame is first needed. */
  entries: Dirent[] | undefined;
  after: string;
  index: number;
  /** Open while entries of this folder may still be entered; closed (and reopened) to bound descriptors. */
  folder: Folder | undefined;
}

/**
 * Walks a folder depth first with an explicit stack, never recursion, so any depth or width
 * works. Every folder is opened through its parent's descriptor without following a link
 * (descriptorFolder.ts); at most MAX_OPEN_FOLDERS descriptors are held, the shallowest closed first and
 * reopened from the workspace root when the walk comes back to them. The walk examines at most
 * `maxEntries` entries and stops at `deadline`. Each folder is read whole by readdir before its
 * entries are examined.
 */
export function walk<C>(options: WalkOptions<C>): WalkResult {
  const run = steps(options, false);
  for (;;) {
    const next = run.next();
    if (next.done) return next.value;
  }
}

export interface TurnOptions {
  /** Checked at each turn: a cancelled walk closes its descriptors and rejects with CancelledError. */
  readonly signal?: CancelSignal | undefined;
  /** Called at each turn with the entries examined so far. */
  readonly onProgress?: ((examined: number) => void) | undefined;
}

/**
 * The same walk, letting the event loop in every SLICE_MS so a cancellation is heard (and other
 * calls are served) while a large tree is walked. Descriptors held are closed however it ends.
 */
export async function walkInTurns<C>(options: WalkOptions<C> & TurnOptions): Promise<WalkResult> {
  const run = steps(options, true);
  try {
    for (;;) {
      const next = run.next();
      if (next.done) return next.value;
      await nextTurn();
      if (options.signal?.aborted === true) throw new CancelledError();
      options.onProgress?.(next.value);
    }
  } finally {
    // Runs the walk's own finally when it stopped in a turn: every folder it holds is closed.
    run.return(undefined as never);
  }
}

/** The walk itself; with `inTurns` it yields the entries examined so far once SLICE_MS has passed. */
function* steps<C>(options: WalkOptions<C>, inTurns: boolean): Generator<number, WalkResult, void> {
  const maxDepth = options.maxDepth ?? MAX_WALK_DEPTH;
  const clockEvery = options.clockEvery ?? 64;
  const frames: Frame<C>[] = [];
  const opened: Frame<C>[] = [];
  let examined = 0;

  const close = (frame: Frame<C>) => {
    frame.folder?.close();
    frame.folder = undefined;
    const at = opened.indexOf(frame);
    if (at !== -1) opened.splice(at, 1);
  };
  const hold = (frame: Frame<C>, folder: Folder) => {
    frame.folder = folder;
    opened.push(frame);
    // The shallowest goes first: the deepest are the ones in use.
    while (opened.length > MAX_OPEN_FOLDERS) close(opened[0]!);
  };
  const openFrame = (frame: Frame<C>): Folder => {
    if (frame.folder !== undefined) return frame.folder;
    const folder = options.anchor.folder([...options.start, ...frame.names]);
    hold(frame, folder);
    return folder;
  };
  /** Lists a frame's folder, keeping only what sorts after where an earlier walk stopped. */
  const list = (frame: Frame<C>, folder: Folder) => {
    const entries = folder.list();
    frame.entries = frame.after === '' ? entries : entries.filter((entry) => compareNames(entry.name, frame.after) > 0);
  };
  const position = () => frames.map((frame) => frame.after);
  let sliceStart = Date.now();

  const resume = options.resume !== undefined && options.resume.length > 0 ? options.resume : [''];
  for (let level = 0; level < resume.length; level += 1) {
    const names = resume.slice(0, level);
    const context = level === 0 || options.resumeInside === undefined ? options.context : options.resumeInside(names, frames.at(-1)!.context);
    frames.push({ names, depth: level, context, entries: undefined, after: resume[level]!, index: 0, folder: undefined });
  }

  try {
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      if (frame.entries === undefined) {
        try {
          list(frame, openFrame(frame));
        } catch (error) {
          // The starting folder must be there; a folder below it that went away is passed by.
          if (frames.length === 1 && frame.depth === 0) throw error;
          frame.entries = [];
        }
      }
      const entries = frame.entries!;
      if (frame.index >= entries.length) {
        close(frame);
        frames.pop();
        continue;
      }
      if (examined >= options.maxEntries) return { stopped: 'entries', examined, position: position() };
      if (options.deadline !== undefined && examined >= (options.minEntries ?? 1) && Date.now() > options.deadline) {
        return { stopped: 'time', examined, position: position() };
      }
      // The clock is read every 64 entries by default: an entry takes microseconds.
      if (inTurns && examined % clockEvery === 0 && examined > 0 && Date.now() - sliceStart >= SLICE_MS) {
        yield examined;
        sliceStart = Date.now();
      }
      const dirent = entries[frame.index]!;
      const before = frame.after;
      frame.index += 1;
      frame.after = dirent.name;
      examined += 1;
      const names = [...frame.names, dirent.name];
      const entry: WalkEntry = { name: dirent.name, names, relative: names.join('/'), type: entryTypeOf(dirent), depth: frame.depth + 1 };
      if (options.exclude?.(entry)) continue;

      let below: Below = { kind: 'leaf' };
      let child: Frame<C> | undefined;
      if (entry.type === 'directory') {
        if (entry.depth >= maxDepth) below = { kind: 'too-deep' };
        else {
          try {
            const folder = openFrame(frame).openFolder(dirent.name);
            child = { names, depth: entry.depth, context: options.context, entries: undefined, after: '', index: 0, folder: undefined };
            try {
              list(child, folder);
            } catch (error) {
              folder.close();
              throw error;
            }
            // A folder with no folder in it needs no descriptor to go on.
            if (child.entries!.some((inner) => !inner.isFile() && !inner.isSymbolicLink())) hold(child, folder);
            else folder.close();
            below = { kind: 'folder', count: child.entries!.length };
          } catch (error) {
            child = undefined;
            const code = errnoOf(error);
            if (error instanceof ChangedError) below = { kind: 'changed' };
            else if (code === 'ENOENT') below = { kind: 'gone' };
            else if (code !== undefined) below = { kind: 'unreadable', code };
            else throw error;
          }
        }
      }
      const next = options.visit(entry, below, frame.context, () => openFrame(frame));
      if (next === STOP || next === STOP_BEFORE) {
        if (child !== undefined) close(child);
        if (next === STOP_BEFORE) {
          frame.after = before;
          examined -= 1;
        }
        return { stopped: 'visitor', examined, position: position() };
      }
      if (child !== undefined) {
        if (next === undefined) close(child);
        else {
          child.context = next;
          frames.push(child);
        }
      }
    }
    return { stopped: 'done', examined, position: undefined };
  } finally {
    for (const frame of [...opened]) close(frame);
  }
}
