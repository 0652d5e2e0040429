import { comparisonKey, type Comparison } from './stages/casePolicy.js';
import type { SplitPath } from './paths.js';

/**
 * Component-wise containment: the root's names are a prefix of the target's, compared under the
 * comparison. Never a string prefix (`/work/notes-evil` is not inside `/work/notes`). The root is
 * inside itself. Like `is-path-inside`, this is no security mechanism on its own: it judges the
 * strings it is given, so the caller must give it resolved paths.
 */
export function isInside(root: SplitPath, target: SplitPath, comparison: Comparison): boolean {
  return firstDifference(root, target, comparison) === undefined;
}

function sameName(ours: string, theirs: string, comparison: Comparison): boolean {
  return ours === theirs || ((comparison.foldCase || comparison.foldUnicode) && comparisonKey(ours, comparison) === comparisonKey(theirs, comparison));
}

/** The index of the first of the root's names the target does not share (-1 for the prefix), or undefined when inside. */
export function firstDifference(root: SplitPath, target: SplitPath, comparison: Comparison): number | undefined {
  // Drive letters and UNC server and share names are case-insensitive on every Windows volume.
  if (root.prefix.toUpperCase() !== target.prefix.toUpperCase()) return -1;
  if (target.names.length < root.names.length) {
    for (let i = 0; i < target.names.length; i++) {
      if (!sameName(root.names[i]!, target.names[i]!, comparison)) return i;
    }
    return target.names.length;
  }
  for (let i = 0; i < root.names.length; i++) {
    if (!sameName(root.names[i]!, target.names[i]!, comparison)) return i;
  }
  return undefined;
}
