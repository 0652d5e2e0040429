import { firstDifference } from '../containment.js';
import { joinNames, joinSplit, normalisationForm, type SplitPath } from '../paths.js';
import { passed, refused, type StageContext, type StageOutcome } from '../stage.js';
import type { Realised } from './realpath.js';
import { lookalikeParts, quoted, spelledOut, visible } from '../visible.js';

export interface RootPaths {
  readonly lexical: SplitPath;
  readonly real: SplitPath | null;
}

/** The form and bytes of a name, for names that look alike on screen. */
function formAndBytes(name: string): string {
  const form = normalisationForm(name) ?? 'mixed form';
  return `${form}, ${new TextEncoder().encode(name).length} bytes`;
}

/**
 * Why a path is outside: first the plain fact (it is not under the root), then where the two
 * part, in words: another drive, above the root, or the first name each goes on into.
 */
function describeOutside(root: SplitPath, target: SplitPath, index: number, ctx: StageContext): string {
  const rootPath = visible(joinSplit(root, ctx.platform));
  const targetPath = visible(joinSplit(target, ctx.platform));
  let why: string;
  if (index === -1) why = `it is on ${visible(target.prefix)}, the root on ${visible(root.prefix)}`;
  else if (index >= target.names.length) why = 'it is a folder above the root';
  else {
    const theirs = target.names[index]!;
    const ours = root.names[index]!;
    const goes = `after ${visible(joinNames(root.prefix, root.names.slice(0, index), ctx.platform))}, the path goes into ${quoted(theirs)}`;
    if (theirs.normalize('NFC') === ours.normalize('NFC')) {
      const [mine, rootsOwn] = lookalikeParts(theirs, ours)!;
      why =
        `${goes} (${formAndBytes(theirs)}), the root into ${quoted(ours)} (${formAndBytes(ours)}): the same name in another Unicode form ` +
        `(${spelledOut(mine)} in the path, ${spelledOut(rootsOwn)} in the root), which this filesystem keeps apart`;
    } else if (theirs.toLowerCase() === ours.toLowerCase()) {
      why = `${goes}, the root into ${quoted(ours)}: they differ only in case, and case matters on this filesystem`;
    } else if (theirs.startsWith(ours)) {
      why = `${goes}, the root into ${quoted(ours)}: a name that only starts with the root's is another folder (a shared text prefix is not containment)`;
    } else why = `${goes}, the root into ${quoted(ours)}`;
  }
  return `${targetPath} is not under the workspace root ${rootPath}: ${why}. Use a path inside ${rootPath}, or name the workspace that holds it.`;
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
