import { joinSplit, type SplitPath } from '../paths.js';
import { passed, type StageContext, type StageOutcome } from '../stage.js';
import { aliasFamilies, describeSpelling } from '../spellings.js';
import { comparisonKey, type Comparison } from './casePolicy.js';
import type { Normalised } from './normalise.js';

/** Whether `member` is the start of `path`: its prefix (any case on Windows) and its names, compared as the root compares names. */
function startsWith(path: SplitPath, member: SplitPath, comparison: Comparison, win32: boolean): boolean {
  const samePrefix = win32 ? path.prefix.toLowerCase() === member.prefix.toLowerCase() : path.prefix === member.prefix;
  if (!samePrefix || member.names.length > path.names.length) return false;
  return member.names.every((name, index) => comparisonKey(name, comparison) === comparisonKey(path.names[index]!, comparison));
}

/**
 * Stage 5: another spelling of the root's folder becomes the root's own, once. The system's own
 * aliases only (macOS's /private links and iCloud Drive, Windows' two names for a WSL
 * distribution, a mapped drive and its share); a path written for another system was refused
 * before this stage.
 */
export function alias(normalised: Normalised, ctx: StageContext, root: SplitPath, comparison: Comparison): StageOutcome<Normalised> {
  const rule = "another spelling of the root's folder is converted to the root's own: macOS's /tmp, /var, /etc and /private/..., Finder's iCloud Drive; Windows' \\\\wsl$ and \\\\wsl.localhost, a mapped drive and its share";
  const win32 = ctx.platform === 'win32';
  for (const { members, why } of ctx.aliases ?? aliasFamilies(root, ctx.platform, ctx.spellings, ctx.fs)) {
    const rootsOwn = members.find((member) => startsWith(root, member, comparison, win32));
    if (rootsOwn === undefined) continue;
    const other = members.find((member) => member !== rootsOwn && startsWith(normalised.split, member, comparison, win32) && !startsWith(normalised.split, rootsOwn, comparison, win32));
    if (other === undefined) continue;
    const split: SplitPath = { prefix: rootsOwn.prefix, names: [...rootsOwn.names, ...normalised.split.names.slice(other.names.length)] };
    const path = joinSplit(split, ctx.platform);
    const note = `${describeSpelling(other, ctx.platform)} is ${describeSpelling(rootsOwn, ctx.platform)}, the root's spelling of the same folder: ${why}`;
    return passed('alias', { input: normalised.path, output: path, rule, notes: [note] }, { path, split });
  }
  return passed('alias', { input: normalised.path, output: normalised.path, rule }, normalised);
}

/** An absolute path in the root's spelling: another spelling of the root's folder converted, anything else as it was. */
export function inRootSpelling(split: SplitPath, ctx: StageContext, root: SplitPath, comparison: Comparison): SplitPath {
  const converted = alias({ path: joinSplit(split, ctx.platform), split }, ctx, root, comparison);
  return converted.ok ? converted.value.split : split;
}
