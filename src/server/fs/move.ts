import type { BigIntStats } from 'node:fs';
import nodePath from 'node:path';
import { fileName, inFolder, type CheckedPath } from './anchor.js';
import { attempt, ChangedError, entryTypeOf, errnoOf, fsError, LINK_UNSUPPORTED, rethrow, type EntryType } from './errors.js';
import type { Folder } from './folder.js';
import { withTemporary } from './temporary.js';

/** The error for a destination that holds something already: moving never replaces it. */
export function destinationExists(destination: string): NodeJS.ErrnoException {
  return fsError('EEXIST', `${destination} already exists; move_file never overwrites. Delete it first (delete_path) or choose another name.`);
}

/**
 * Moves a checked entry between two anchored folders, never replacing anything and never
 * unlinking a name it did not check. A file or link is taken aside atomically (rename to a private
 * temporary beside it), so whatever is at the source in that instant is what moves, a save
 * included; it then gets its new name with link(2), which fails if the destination exists (and
 * the entry goes back). A folder is renamed after its destination is confirmed absent. Nothing is
 * copied. `expected` is what the check saw at the source: if something else is there, nothing is
 * done.
 */
export function move(source: CheckedPath, destination: CheckedPath, expected: EntryType): void {
  if (source.names.length === 0) throw new Error('move_file never moves the workspace folder itself');
  if (destination.names.length === 0) throw destinationExists(destination.path);
  const toName = fileName(destination);
  inFolder(source, (sourceFolder, fromName) => {
    let destinationFolder: Folder;
    try {
      destinationFolder = destination.anchor.folder(destination.names.slice(0, -1));
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
      throw fsError('ENOENT', `the destination's folder ${nodePath.dirname(destination.path)} does not exist; create it first with create_directory`);
    }
    try {
      const stats = sourceFolder.lstat(fromName);
      if (stats === undefined) throw fsError('ENOENT', `${source.path} does not exist`);
      const kind = entryTypeOf(stats);
      if (kind !== expected) throw new ChangedError(source.path, `a ${kind} is there now, where the check saw a ${expected}`);
      if (destinationFolder.lstat(toName) !== undefined) throw destinationExists(destination.path);
      // Linux links a symlink itself; macOS and the BSDs would link its target, which may lie outside.
      if (kind === 'directory' || (kind === 'symlink' && source.anchor.platform !== 'linux')) {
        renameIfAbsent(sourceFolder, fromName, destinationFolder, toName, destination.path);
        return;
      }
      withTemporary(sourceFolder, fromName, 'old', (aside) => {
        sourceFolder.rename(fromName, sourceFolder, aside);
        const taken = sourceFolder.lstat(aside);
        if (taken === undefined || entryTypeOf(taken) !== kind) {
          putBackEntry(sourceFolder, aside, fromName, taken);
          throw new ChangedError(source.path, `a ${taken === undefined ? 'missing entry' : entryTypeOf(taken)} was there when it was moved, where the check saw a ${expected}`);
        }
        try {
          sourceFolder.link(aside, destinationFolder, toName);
        } catch (error) {
          const code = errnoOf(error) ?? '';
          if (LINK_UNSUPPORTED.has(code) && destinationFolder.lstat(toName) === undefined) {
            sourceFolder.rename(aside, destinationFolder, toName);
            return;
          }
          putBackEntry(sourceFolder, aside, fromName, taken);
          if (code === 'EEXIST') throw destinationExists(destination.path);
          rethrow(destination.path, error);
        }
      });
    } finally {
      destinationFolder.close();
    }
  });
}

/** Gives an entry taken aside its name back; a name made again meanwhile holds something newer, and keeps it. */
function putBackEntry(folder: Folder, aside: string, name: string, taken: BigIntStats | undefined): void {
  try {
    if (taken?.isDirectory()) {
      if (folder.lstat(name) === undefined) folder.rename(aside, folder, name);
    } else folder.link(aside, folder, name);
  } catch (error) {
    if (errnoOf(error) !== 'EEXIST' && errnoOf(error) !== 'ENOENT') throw error;
  }
}

/**
 * rename(2) replaces what is at the destination, so absence is confirmed first. Only an empty
 * folder made at the destination in the instant between can be replaced: a file or a link there
 * makes a folder's rename fail.
 */
function renameIfAbsent(sourceFolder: Folder, fromName: string, destinationFolder: Folder, toName: string, destination: string): void {
  if (destinationFolder.lstat(toName) !== undefined) throw destinationExists(destination);
  attempt(destination, () => sourceFolder.rename(fromName, destinationFolder, toName));
}
