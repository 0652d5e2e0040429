// Near misses found with a port that records every path the search asks about, for the near-miss
// suites: what was found, and proof that nothing outside the workspace was looked up.
import assert from 'node:assert/strict';
import { findNearMisses, traceAgainst, type FileSystemPort, type NearMiss, type NearMissOptions, type PreparedRoot, type Trace } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';

export interface Listing {
  readonly folder: string;
  readonly max: number;
  readonly count: number;
}

/** A port over the host's that records every path it is asked about and every listing. */
export function recording(): { port: FileSystemPort; touched: string[]; listings: Listing[] } {
  const touched: string[] = [];
  const listings: Listing[] = [];
  const port: FileSystemPort = {
    lstat(p) {
      touched.push(p);
      return nodeFileSystem.lstat(p);
    },
    readlink(p) {
      touched.push(p);
      return nodeFileSystem.readlink(p);
    },
    listNames(folder, max) {
      touched.push(folder);
      const names = nodeFileSystem.listNames!(folder, max);
      listings.push({ folder, max, count: names?.length ?? -1 });
      return names;
    },
  };
  return { port, touched, listings };
}

/** Traces `input` against `root`, finds its near misses with a recording port, and checks nothing outside `workspace` was touched. */
export function searched(root: PreparedRoot, workspace: string, input: string, options: Omit<NearMissOptions, 'fs'> = {}): { trace: Trace; misses: NearMiss[]; touched: string[]; listings: Listing[] } {
  const traced = traceAgainst(root, input);
  const { port, touched, listings } = recording();
  const misses = findNearMisses(traced, root, { ...options, fs: port });
  const inside = (p: string) => p === workspace || p.startsWith(`${workspace}/`);
  assert.deepEqual(touched.filter((p) => !inside(p)), [], `${input}: looked up outside the workspace`);
  return { trace: traced, misses, touched, listings };
}
