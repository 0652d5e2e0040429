import type { Dirent } from 'node:fs';
import { inFolder, type CheckedPath } from './anchor.js';
import { ChangedError, entryTypeOf, errnoOf, fsError, type EntryType } from './errors.js';
import type { Folder } from './folder.js';

/**
 * Descriptors kept while removing a deep tree: the folders nearest the one being emptied, every
 * REMOVE_SPAN-th within REMOVE_SPAN² levels of it, and every REMOVE_SPAN²-th above that. A folder
 * closed to stay under this is reopened, when the removal climbs back to it, from the nearest open
 * one above it, each folder through its parent: a few descriptors for any depth, and each level
 * reopened a bounded number of times.
 */
const REMOVE_SPAN = 32;

function keptOpen(depth: number, top: number): boolean {
  const distance = top - depth;
  return distance < REMOVE_SPAN || (depth % REMOVE_SPAN === 0 && distance < REMOVE_SPAN * REMOVE_SPAN) || depth % (REMOVE_SPAN * REMOVE_SPAN) === 0;
}

interface Removal {
  readonly name: string;
  folder: Folder | undefined;
  entries: Dirent[] | undefined;
  index: number;
}

/** Empties and removes the folder `name` inside `parent`, depth first with an explicit stack (no recursion), never following a link. */
function removeTree(parent: Folder, name: string): void {
  const stack: Removal[] = [];
  const folderAt = (depth: number): Folder => (depth < 0 ? parent : stack[depth]!.folder!);
  /** The folder of the frame at `depth`, reopened from the nearest open one above it if it was closed. */
  const open = (depth: number): Folder => {
    if (stack[depth]!.folder !== undefined) return stack[depth]!.folder!;
    let from = depth - 1;
    while (from >= 0 && stack[from]!.folder === undefined) from -= 1;
    for (let level = from + 1; level <= depth; level += 1) {
      const frame = stack[level]!;
      frame.folder = folderAt(level - 1).openFolder(frame.name);
      const above = level - 1;
      if (above > from && !keptOpen(above, depth)) {
        stack[above]!.folder!.close();
        stack[above]!.folder = undefined;
      }
    }
    return stack[depth]!.folder!;
  };
  const push = (within: number, child: string) => {
    const folder = open(within).openFolder(child);
    stack.push({ name: child, folder, entries: undefined, index: 0 });
    // One level deeper, only the folders now REMOVE_SPAN or REMOVE_SPAN² levels up can fall out of what is kept.
    const top = stack.length - 1;
    for (const depth of [top - REMOVE_SPAN, top - REMOVE_SPAN * REMOVE_SPAN]) {
      const frame = stack[depth];
      if (frame?.folder !== undefined && !keptOpen(depth, top)) {
        frame.folder.close();
        frame.folder = undefined;
      }
    }
  };
  try {
    stack.push({ name, folder: parent.openFolder(name), entries: undefined, index: 0 });
    while (stack.length > 0) {
      const depth = stack.length - 1;
      const frame = stack[depth]!;
      const folder = open(depth);
      frame.entries ??= folder.list();
      const entry = frame.entries[frame.index];
      if (entry === undefined) {
        // Emptied: removed through its parent's descriptor.
        folder.close();
        frame.folder = undefined;
        stack.pop();
        (depth === 0 ? parent : open(depth - 1)).rmdir(frame.name);
        continue;
      }
      frame.index += 1;
      if (entry.isDirectory()) {
        push(depth, entry.name);
        continue;
      }
      try {
        folder.unlink(entry.name);
      } catch (error) {
        // Replaced by a folder since the listing: remove it as one.
        const code = errnoOf(error);
        if (code !== 'EISDIR' && code !== 'EPERM') throw error;
        push(depth, entry.name);
      }
    }
  } finally {
    for (const frame of stack) frame.folder?.close();
  }
}

/**
 * Deletes a checked entry. A link is removed itself; a folder's contents are removed through
 * descriptors of each folder, never following a link. `expected` is what the check saw there: if
 * something else is there now, nothing is done.
 */
export function remove(target: CheckedPath, expected: EntryType, recursive: boolean): void {
  if (target.names.length === 0) throw new Error('the workspace folder itself is never deleted');
  inFolder(target, (folder, name) => {
    const stats = folder.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${target.path} does not exist`);
    const kind = entryTypeOf(stats);
    if (kind !== expected) throw new ChangedError(target.path, `a ${kind} is there now, where the check saw a ${expected}`);
    if (kind !== 'directory') folder.unlink(name);
    else if (recursive) removeTree(folder, name);
    else folder.rmdir(name);
  });
}
