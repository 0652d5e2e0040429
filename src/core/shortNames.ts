import { isInside } from './containment.js';
import { joinNames, joinSplit, type SplitPath } from './paths.js';
import type { StageContext, StageOutcome } from './stage.js';
import { comparisonKey, type Compared, type Comparison } from './stages/casePolicy.js';
import type { Realised, RootReal } from './stages/realpath.js';
import type { FileSystemPort, Platform, StageResult } from './types.js';
import { quoted } from './visible.js';

/**
 * 8.3 short names (Win32 naming rules): on a volume that keeps them, `PROGRA~1` opens
 * `Program Files` and `REPORT~1.MD` opens `report-final.md`, so a short and a long spelling
 * name one entry. Windows generates them as up to six characters, "~" and a number; only names
 * of that form are asked about. Known limit: a short name an administrator set by hand
 * (`fsutil file setshortname`) without "~" is compared as written.
 */
const SHORT_NAME_FORM = /~\d/;

export function mayBeShortName(name: string): boolean {
  return SHORT_NAME_FORM.test(name);
}

/** A name spelt short, and the long name the filesystem stores for it. */
interface Renamed {
  readonly short: string;
  readonly long: string;
}

/**
 * The split with each name of the short form replaced by its long name, asking the port from
 * the top down and stopping at the first name that is not there (the rest does not exist yet).
 * Used on real paths, which the realpath stage has already looked up name by name.
 */
export function spellLong(fs: FileSystemPort, split: SplitPath, platform: Platform): { split: SplitPath; renamed: Renamed[] } {
  if (platform !== 'win32' || !fs.longName || !split.names.some(mayBeShortName)) return { split, renamed: [] };
  const names = [...split.names];
  const renamed: Renamed[] = [];
  for (let i = 0; i < names.length; i++) {
    if (!mayBeShortName(names[i]!)) continue;
    const long = fs.longName(joinNames(split.prefix, names.slice(0, i + 1), platform));
    if (long === null) break;
    if (long !== names[i]) renamed.push({ short: names[i]!, long });
    names[i] = long;
  }
  return renamed.length === 0 ? { split, renamed } : { split: { prefix: split.prefix, names }, renamed };
}

/**
 * The lexical path with short names at the root's own positions replaced by the root's long
 * names where the filesystem says they are the same entry, so `C:\PROGRA~1\ws\x` is judged
 * inside `C:\Program Files\ws`. Only a path not already inside is read this way, only names
 * leading to the root are asked about, and only while every name before them is the root's: at
 * most one name outside the root is looked up for each spelling of the root (as given, and
 * real), a sibling of one of its folders, and the answer says nothing about it but that it is
 * not the root's. Names below the root are left to the realpath stage, which follows links one hop
 * at a time.
 */
function towardsRoot(
  fs: FileSystemPort,
  target: SplitPath,
  root: RootReal,
  comparison: Comparison,
  platform: Platform,
): { split: SplitPath; renamed: Renamed[]; unmatched: { name: string; roots: string }[] } {
  if (isInside(root.lexical, target, comparison) || isInside(root.real, target, comparison)) return { split: target, renamed: [], unmatched: [] };
  const asked = new Map<string, string | null>();
  /** Each short-looking name that was not the root's, with the root's names it was compared with. */
  const unmatched = new Map<string, Set<string>>();
  for (const ref of [root.lexical, root.real]) {
    if (ref.prefix.toUpperCase() !== target.prefix.toUpperCase()) continue;
    const names = [...target.names];
    const renamed: Renamed[] = [];
    for (let i = 0; i < Math.min(names.length, ref.names.length); i++) {
      const ours = comparisonKey(ref.names[i]!, comparison);
      if (comparisonKey(names[i]!, comparison) === ours) continue;
      if (!mayBeShortName(names[i]!)) break;
      const path = joinNames(target.prefix, names.slice(0, i + 1), platform);
      if (!asked.has(path)) asked.set(path, fs.longName!(path));
      const long = asked.get(path);
      if (long === null || long === undefined || comparisonKey(long, comparison) !== ours) {
        unmatched.set(names[i]!, (unmatched.get(names[i]!) ?? new Set()).add(quoted(ref.names[i]!)));
        break;
      }
      renamed.push({ short: names[i]!, long });
      names[i] = long;
    }
    const split = { prefix: target.prefix, names };
    if (renamed.length > 0 && isInside(ref, split, comparison)) return { split, renamed, unmatched: [] };
  }
  return { split: target, renamed: [], unmatched: [...unmatched].map(([name, roots]) => ({ name, roots: [...roots].join(' or ') })) };
}

function annotated<T>(outcome: StageOutcome<T>, notes: readonly string[], output?: string): StageOutcome<T> {
  if (notes.length === 0 && output === undefined) return outcome;
  const result: StageResult = {
    ...outcome.result,
    ...(output !== undefined ? { output } : {}),
    status: outcome.result.status === 'pass' && notes.length > 0 ? 'note' : outcome.result.status,
    note: [outcome.result.note, ...notes].filter((note) => note !== '').join('; '),
  };
  return { ...outcome, result };
}

const renamedNote = ({ short, long }: Renamed) => `8.3 short name ${quoted(short)} is ${quoted(long)} on disk: compared by its long name`;

/**
 * Runs the realpath stage so that it compares long names on a Windows host: short names that
 * lead to the root are read as the root's own names first, and the real path is spelt with long
 * names after. A simulated win32 trace (or a port that cannot tell long names) looks nothing
 * up: it notes each name of the short form and compares it as written.
 */
export function withLongNames(
  compared: Compared,
  ctx: StageContext,
  root: RootReal | undefined,
  realpathStage: (compared: Compared) => StageOutcome<Realised>,
): StageOutcome<Realised> {
  if (ctx.platform !== 'win32') return realpathStage(compared);
  const fs = ctx.fs;
  if (!fs || !fs.longName || !root) {
    const shortLooking = compared.split.names.filter(mayBeShortName).map((name) => quoted(name));
    const why = fs ? 'this filesystem cannot tell long names' : 'simulated, so nothing is looked up';
    const notes =
      shortLooking.length === 0
        ? []
        : [
            `${shortLooking.join(', ')} may ${shortLooking.length > 1 ? 'each ' : ''}be an 8.3 short name of another entry (Win32 naming rules); ` +
              `${why}, and ${shortLooking.length > 1 ? 'they are' : 'it is'} compared as written`,
          ];
    return annotated(realpathStage(compared), notes);
  }
  const lexical = towardsRoot(fs, compared.split, root, compared.comparison, ctx.platform);
  const notes = [
    ...lexical.renamed.map(renamedNote),
    // The same words whether the name is another entry or none: nothing about the outside is told.
    ...lexical.unmatched.map(({ name, roots }) => `${quoted(name)} may be an 8.3 short name: asked only whether it is the root's ${roots}, which it is not, so it is compared as written`),
  ];
  const named = lexical.renamed.length > 0 ? { ...compared, split: lexical.split, path: joinSplit(lexical.split, ctx.platform) } : compared;
  const outcome = realpathStage(named);
  if (!outcome.ok || outcome.value.real === null) return annotated(outcome, notes);
  const real = spellLong(fs, outcome.value.real, ctx.platform);
  const seen = new Set(lexical.renamed.map(({ short }) => short));
  notes.push(...real.renamed.filter(({ short }) => !seen.has(short)).map(renamedNote));
  if (real.renamed.length === 0) return annotated(outcome, notes);
  return annotated({ ...outcome, value: { ...outcome.value, real: real.split } }, notes, joinSplit(real.split, ctx.platform));
}
