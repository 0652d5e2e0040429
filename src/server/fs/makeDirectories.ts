import type { CheckedPath } from './anchor.js';
import { errnoOf } from './errors.js';
import type { Folder } from './folder.js';

/** Makes a checked folder and any missing folders above it, each through its anchored parent. Returns whether the folder itself was made. */
export function makeDirectories(target: CheckedPath): boolean {
  let folder = target.anchor.folder([]);
  let created = false;
  try {
    for (const name of target.names) {
      let next: Folder;
      try {
        next = folder.openFolder(name);
        created = false;
      } catch (error) {
        if (errnoOf(error) !== 'ENOENT') throw error;
        try {
          folder.mkdir(name);
          created = true;
        } catch (mkdirError) {
          // Made meanwhile by someone else: open whatever is there, which must be a folder.
          if (errnoOf(mkdirError) !== 'EEXIST') throw mkdirError;
          created = false;
        }
        next = folder.openFolder(name);
      }
      folder.close();
      folder = next;
    }
    return created;
  } finally {
    folder.close();
  }
}
