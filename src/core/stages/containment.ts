import { firstDifference } from '../containment.js';
import { joinSplit, normalisationForm, type SplitPath } from '../paths.js';
import { passed, refused, type StageContext, type StageOutcome } from '../stage.js';
import type { Realised } from './realpath.js';
import { quoted, visible } from '../visible.js';

export interface RootPaths {
  readonly lexical: SplitPath;
  readonly real: SplitPath | null;
}

/** Names the form and bytes of a name, for names that look alike on screen. */
function unicodeForm(name: string): string {
  const form = normalisationForm(name) ?? 'mixed form';
  return `${form}, ${new TextEncoder().encode(name).length} bytes`;
}

function describeOutside(root: SplitPath, target: SplitPath, index: number, ctx: StageContext): string {
  const rootPath = visible(joinSplit(root, ctx.platform));
  const targetPath = visible(joinSplit(target, ctx.platform));
  let why: string;
  if (index === -1) why = `it is on ${visible(target.prefix)}, the root on ${visible(root.prefix)}`;
  else if (index >= target.names.length) why = 'it is above the root';
  else {
    const theirs = target.names[index]!;
    const ours = root.names[index]!;
    if (theirs.normalize('NFC') === ours.normalize('NFC')) {
      why = `its name ${quoted(theirs)} (${unicodeForm(theirs)}) is the root's ${quoted(ours)} (${unicodeForm(ours)}) in another Unicode form, and this filesystem keeps the two apart`;
    } else if (theirs.toLowerCase() === ours.toLowerCase()) {
      why = `its name ${quoted(theirs)} differs from the root's ${quoted(ours)} only in case, and case matters on this filesystem`;
    } else if (theirs.startsWith(ours)) {
      why = `its name ${quoted(theirs)} only starts with the root's ${quoted(ours)}: a shared text prefix is not containment`;
    } else why = `its name ${quoted(theirs)} is not the root's ${quoted(ours)}`;
  }
  return `${targetPath} is outside the workspace root ${rootPath}: ${why}. Use a path inside ${rootPath}, or name the workspace that holds it.`;
}

/**
 * Stage 7: compare components under the case policy. Both must hold: the lexical path is inside
 * the root as given or the root's real path, and the real path is inside the root's real path.
 */
export function containment(realised: Realised, ctx: StageContext, root: RootPaths): StageOutcome<Realised> {
  const rule = 'compare path components, never string prefixes; the lexical and the real path must both be inside';
  const { comparison } = realised;
  const lexicalAgainstGiven = firstDifference(root.lexical, realised.split, comparison);
  const lexicalAgainstReal = root.real ? firstDifference(root.real, realised.split, comparison) : lexicalAgainstGiven;
  const input = realised.real ? joinSplit(realised.real, ctx.platform) : realised.path;
  if (lexicalAgainstGiven !== undefined && lexicalAgainstReal !== undefined) {
    return refused('containment', { input, rule }, 'ERR_OUTSIDE', describeOutside(root.lexical, realised.split, lexicalAgainstGiven, ctx));
  }
  if (realised.real && root.real) {
    const realDifference = firstDifference(root.real, realised.real, comparison);
    if (realDifference !== undefined) {
      return refused('containment', { input, rule }, 'ERR_OUTSIDE', describeOutside(root.real, realised.real, realDifference, ctx));
    }
  }
  const notes = lexicalAgainstGiven !== undefined ? ['inside the root\'s real path, reached through a link above the root'] : [];
  return passed('containment', { input, output: 'inside', rule, notes }, realised);
}
