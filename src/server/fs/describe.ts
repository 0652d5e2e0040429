import type { BigIntStats } from 'node:fs';
import { inFolder, type CheckedPath } from './anchor.js';
import { fsError } from './errors.js';

/** What is at a checked path, never following a link at its last name, with a link's target text. */
export function describe(target: CheckedPath): { stats: BigIntStats; linkTarget: string | undefined } {
  if (target.names.length === 0) return target.anchor.with([], (folder) => ({ stats: folder.stat(), linkTarget: undefined }));
  return inFolder(target, (folder, name) => {
    // What the check looked at a moment ago through this same folder, when it did.
    const stats = target.seen ?? folder.lstat(name);
    if (stats === undefined) throw fsError('ENOENT', `${target.path} does not exist`);
    return { stats, linkTarget: stats.isSymbolicLink() ? folder.readlink(name) : undefined };
  });
}
