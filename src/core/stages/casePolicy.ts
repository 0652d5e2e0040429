import { isAscii, joinNames, toNfc, type SplitPath } from '../paths.js';
import { passed, type StageContext, type StageOutcome } from '../stage.js';
import type { FileSystemPort, Platform } from '../types.js';
import type { Normalised } from './normalise.js';
import { quoted } from '../visible.js';

/** How two names are compared. Fold only where the filesystem itself treats the names as one. */
export interface Comparison {
  readonly foldCase: boolean;
  readonly foldUnicode: boolean;
  /** Why: the probe's evidence, the policy, or the platform's default. */
  readonly basis: string;
}

const PLATFORM_DEFAULTS: Record<Platform, { foldCase: boolean; foldUnicode: boolean; why: string }> = {
  linux: { foldCase: false, foldUnicode: false, why: 'linux default: names are bytes' },
  darwin: { foldCase: true, foldUnicode: true, why: 'darwin default: APFS and HFS+ ignore case and Unicode normalisation' },
  win32: { foldCase: true, foldUnicode: false, why: 'win32 default: NTFS ignores case, not Unicode normalisation' },
};

/**
 * Simple (one code point to one code point) upper-casing, as NTFS's upcase table does; full
 * mappings such as "ß" to "SS" would make names equal that no filesystem treats as equal. A
 * letter whose capital belongs to another lower-case letter is kept as it is: "ı", "ſ" and the
 * micro sign "µ" upper-case to I, S and Greek Μ, but neither NTFS nor APFS folds them so, and
 * folding them here would let `skılls` pass for `skills`. Folding too little is a visible
 * refusal; folding too much is a silent escape.
 */
function foldCaseSimple(name: string): string {
  if (isAscii(name)) return name.toUpperCase();
  let folded = '';
  for (const char of name) {
    const upper = char.toUpperCase();
    folded += [...upper].length === 1 && upper.toLowerCase() === char.toLowerCase() ? upper : char;
  }
  return folded;
}

export function comparisonKey(name: string, comparison: Comparison): string {
  const unified = comparison.foldUnicode ? toNfc(name) : name;
  return comparison.foldCase ? foldCaseSimple(unified) : unified;
}

function otherCase(name: string): string {
  const upper = name.toUpperCase();
  return upper !== name ? upper : name.toLowerCase();
}

function otherForm(name: string): string {
  const nfd = name.normalize('NFD');
  return nfd !== name ? nfd : name.normalize('NFC');
}

/**
 * Asks the filesystem whether two spellings of one of the root's own names reach the same entry.
 * Read-only: it only looks names up. Returns undefined when no name of the root can tell.
 */
function probe(
  fs: FileSystemPort,
  root: SplitPath,
  platform: Platform,
  variant: (name: string) => string,
): { folds: boolean; evidence: string } | undefined {
  for (let i = root.names.length - 1; i >= 0; i--) {
    const name = root.names[i]!;
    const other = variant(name);
    if (other === name) continue;
    const original = joinNames(root.prefix, root.names.slice(0, i + 1), platform);
    const swapped = joinNames(root.prefix, [...root.names.slice(0, i), other], platform);
    const seen = fs.lstat(original);
    if (seen.kind === 'missing' || seen.kind === 'error') continue;
    const alt = fs.lstat(swapped);
    const same = alt.kind !== 'missing' && alt.kind !== 'error' && alt.dev === seen.dev && alt.ino === seen.ino;
    return {
      folds: same,
      evidence: `probe: ${quoted(original)} and ${quoted(swapped)} ${same ? 'are the same entry' : 'are not the same entry'}`,
    };
  }
  return undefined;
}

/** How the platform's usual disk compares names, without asking the disk. */
export function platformComparison(platform: Platform): Comparison {
  const defaults = PLATFORM_DEFAULTS[platform];
  return { foldCase: defaults.foldCase, foldUnicode: defaults.foldUnicode, basis: defaults.why };
}

/** Decides the comparison once per root. */
export function decideComparison(root: SplitPath, ctx: StageContext): Comparison {
  const defaults = PLATFORM_DEFAULTS[ctx.platform];
  const reasons: string[] = [];
  let foldCase = defaults.foldCase;
  let foldUnicode = defaults.foldUnicode;
  if (ctx.policy.case !== 'auto') {
    foldCase = ctx.policy.case === 'insensitive';
    reasons.push(`case policy ${ctx.policy.case}`);
  } else if (ctx.fs) {
    const caseProbe = probe(ctx.fs, root, ctx.platform, otherCase);
    if (caseProbe) {
      foldCase = caseProbe.folds;
      reasons.push(`case ${caseProbe.evidence}`);
    } else reasons.push(`case: no name of the root can be probed, ${defaults.why}`);
  } else reasons.push(`case: simulated, ${defaults.why}`);

  if (ctx.fs) {
    const unicodeProbe = probe(ctx.fs, root, ctx.platform, otherForm);
    if (unicodeProbe) {
      foldUnicode = unicodeProbe.folds;
      reasons.push(`Unicode ${unicodeProbe.evidence}`);
    } else reasons.push(`Unicode: ${defaults.why}`);
  } else if (ctx.policy.case !== 'auto') reasons.push(`Unicode: ${defaults.why}`);
  return { foldCase, foldUnicode, basis: reasons.join('; ') };
}

export function describeComparison(comparison: Comparison): string {
  const casePart = comparison.foldCase ? 'ignore case' : 'case matters';
  const unicodePart = comparison.foldUnicode ? 'NFC and NFD spellings are one name' : 'NFC and NFD spellings are different names';
  return `${casePart}; ${unicodePart}`;
}

export interface Compared extends Normalised {
  readonly comparison: Comparison;
}

/** Stage 5: report how names will be compared and the path's comparison form. */
export function casePolicy(normalised: Normalised, comparison: Comparison): StageOutcome<Compared> {
  const key = comparisonKey(normalised.path, comparison);
  const notes: string[] = [];
  if (!comparison.foldUnicode && normalised.path !== toNfc(normalised.path)) {
    notes.push('this path has names in NFD form: here they do not match their NFC spellings');
  }
  return passed(
    'case',
    { input: normalised.path, output: key, rule: `${describeComparison(comparison)} (${comparison.basis})`, notes },
    { path: normalised.path, split: normalised.split, comparison },
  );
}
