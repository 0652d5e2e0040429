import { isInside } from './containment.js';
import { joinNames, joinSplit, parentOf, splitAbsolute, toNfc, type SplitPath } from './paths.js';
import { percentDecode } from './percent.js';
import type { PreparedRoot } from './root.js';
import { comparisonKey, type Comparison } from './stages/casePolicy.js';
import { decode } from './stages/decode.js';
import { normalise } from './stages/normalise.js';
import { parse, type Parsed } from './stages/parse.js';
import { foreignInput, refusals } from './stages/refusals.js';
import { traceAgainst } from './trace.js';
import type { FileSystemPort, NearMiss, NearMissWhy, Platform, Trace } from './types.js';
import { pathToUri } from './uri.js';

/** At most this many near misses per trace. */
export const MAX_NEAR_MISSES = 10;
/** Names read from folders per trace, unless `maxNames` says otherwise. */
export const DEFAULT_MAX_NAMES = 256;

/** Another granted workspace: its URI as granted and its path. */
export interface OtherWorkspace {
  readonly uri: string;
  readonly path: string;
}

export interface NearMissOptions {
  /** Defaults to the port the root was prepared with. A simulated trace never consults one. */
  readonly fs?: FileSystemPort;
  /** Workspaces granted beside the trace's root, compared by name only (no lookup). */
  readonly otherWorkspaces?: readonly OtherWorkspace[];
  /** Names read from folders at most, all listings together (default `DEFAULT_MAX_NAMES`). */
  readonly maxNames?: number;
}

const FOLD_BOTH: Comparison = { foldCase: true, foldUnicode: true, basis: '' };
const HEX_ESCAPE = /%[0-9A-Fa-f]{2}/;

interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** One search's state: the folders it relied on, what it found and the names it may still read. */
interface Search {
  readonly fs: FileSystemPort;
  readonly platform: Platform;
  readonly comparison: Comparison;
  readonly rootReal: SplitPath;
  readonly folders: Map<string, Identity>;
  readonly listings: Map<string, readonly string[]>;
  readonly found: NearMiss[];
  budget: number;
}

/**
 * Existing entries the input nearly named, for a trace refused, outside, or inside with nothing
 * there (otherwise none): the same name in another case or Unicode form where the comparison
 * keeps them apart, with trailing dots or spaces added or dropped, percent-decoded (a path
 * holding `%xx`), the name a raw `#`, `?` or trailing space cut from a `file:` URI, a path that
 * lies in another granted workspace, and, when none of those is found, a path written from the
 * wrong place (`searchRebased`).
 *
 * Bounded and inside: the deepest existing folder of the path is searched first, reached from the
 * root's real path through folders that are not links. If it offers nothing, an earlier name may
 * be the slip (`café/` typed, the file in its NFD twin beside it): from the deepest level up, the
 * entries beside each earlier name that relate to it in those same ways are offered where all of
 * the input's later names exist below them, through folders that are not links, and the first
 * level offering any ends the search. Spellings the input suggests are looked up by name, at most
 * `maxNames` names are listed (all folders together), and each related entry is followed no
 * deeper than the path. Nothing outside the root's real path is looked up; the root's own names
 * and other workspaces are compared by name alone. Every folder relied on is looked up again at
 * the end, and if one changed (a folder swapped for a link) nothing found on disk is kept. A swap
 * and a swap back while a folder is listed is not seen: a host port that lists through a
 * descriptor (as `nodeFileSystem` does on Linux) narrows that.
 * `trace` must be one made against `root`.
 */
export function findNearMisses(trace: Trace, root: PreparedRoot, options: NearMissOptions = {}): NearMiss[] {
  if (!root.ok || !wanted(trace)) return [];
  const found: NearMiss[] = [];
  const platform = root.ctx.platform;
  if (trace.verdict === 'outside' && options.otherWorkspaces) addWorkspace(found, trace, root, options.otherWorkspaces);

  const fs = options.fs ?? root.ctx.fs;
  if (trace.simulated || !fs || !root.real) return found;
  if (trace.code === 'ERR_FOREIGN_PATH') {
    addOtherSystem(found, trace, root);
    return found;
  }
  const search: Search = {
    fs,
    platform,
    comparison: root.comparison,
    rootReal: root.real,
    folders: new Map(),
    listings: new Map(),
    found: [],
    budget: Math.max(0, Math.floor(options.maxNames ?? DEFAULT_MAX_NAMES)),
  };
  const parsed = parse(trace.input, root.requestCtx);
  const url = parsed.ok && parsed.value.form === 'uri' ? parsed.value.url : null;
  if (url?.protocol === 'file:') searchCut(search, root, trace.input);
  // A URI refused for the spaces around it: a trailing one may have been part of a name.
  const leading = trace.input.trimStart();
  if (!parsed.ok && leading !== trace.input.trim()) {
    const trimmed = parse(trace.input.trim(), root.requestCtx);
    if (trimmed.ok && trimmed.value.form === 'uri' && trimmed.value.url.protocol === 'file:') searchCut(search, root, leading);
  }
  const target = targetOf(trace, platform);
  // Only a path is taken literally: a URI was decoded once already, and never is again.
  if (target) searchTarget(search, root, target, url === null);
  if (target && search.found.length === 0) searchRebased(search, root, target, parsed.ok && isAbsoluteForm(parsed.value));
  if (!unchanged(search)) return found;
  for (const miss of search.found) add(found, miss);
  return found;
}

/**
 * Another system's path, spelt as this one spells it (inside WSL, `C:\x` is `/mnt/c/x`): offered
 * when that path, judged as any input is, is inside and there.
 */
function addOtherSystem(found: NearMiss[], trace: Trace, root: Extract<PreparedRoot, { ok: true }>): void {
  const parsed = parse(trace.input, root.requestCtx);
  const translated = parsed.ok ? foreignInput(parsed.value, root.requestCtx)?.translated : undefined;
  if (translated === undefined) return;
  const judged = traceAgainst(root, translated);
  if (judged.verdict === 'inside' && judged.kind !== null && judged.kind !== 'missing' && judged.path !== null) {
    add(found, { path: judged.path, uri: pathToUri(judged.path, root.ctx.platform), why: 'other-system' });
  }
}

/** The trace with `nearMisses` filled; the same trace when there are none. */
export function withNearMisses(trace: Trace, root: PreparedRoot, options: NearMissOptions = {}): Trace {
  const nearMisses = findNearMisses(trace, root, options);
  return nearMisses.length === 0 ? trace : { ...trace, nearMisses };
}

function wanted(trace: Trace): boolean {
  return trace.stage !== 'root' && (trace.verdict !== 'inside' || trace.kind === 'missing');
}

/** Where to search: the real path of an inside trace, else the lexical path (stage 4), if it got that far. */
function targetOf(trace: Trace, platform: Platform): SplitPath | null {
  if (trace.verdict === 'inside') return trace.path === null ? null : splitAbsolute(trace.path, platform);
  // The alias stage's output is the lexical path in the root's spelling.
  const lexical = trace.stages.find((stage) => stage.stage === 'alias') ?? trace.stages.find((stage) => stage.stage === 'normalise');
  if (!lexical || lexical.status === 'refuse' || lexical.output === null) return null;
  return splitAbsolute(lexical.output, platform);
}

function add(found: NearMiss[], miss: NearMiss): void {
  if (found.length < MAX_NEAR_MISSES && !found.some((other) => other.path === miss.path)) found.push(miss);
}

function nearMiss(path: string, why: NearMissWhy, platform: Platform): NearMiss {
  return { path, uri: pathToUri(path, platform), why };
}

/** The most specific other workspace holding the path, by names alone. */
function addWorkspace(found: NearMiss[], trace: Trace, root: Extract<PreparedRoot, { ok: true }>, others: readonly OtherWorkspace[]): void {
  const platform = root.ctx.platform;
  const target = trace.path === null ? null : splitAbsolute(trace.path, platform);
  if (!target) return;
  const same = (a: SplitPath, b: SplitPath) => isInside(a, b, root.comparison) && isInside(b, a, root.comparison);
  let best: { workspace: OtherWorkspace; split: SplitPath } | undefined;
  for (const workspace of others) {
    const split = splitAbsolute(workspace.path, platform);
    if (!split || same(split, root.split) || (root.real && same(split, root.real))) continue;
    if (!isInside(split, target, root.comparison)) continue;
    if (!best || split.names.length > best.split.names.length) best = { workspace, split };
  }
  if (best) add(found, { ...nearMiss(joinSplit(target, platform), 'workspace', platform), workspace: best.workspace.uri });
}

/** Win32 naming rules drop these from a name; elsewhere they are part of it and easily mistyped. */
function withoutTrailing(name: string): string {
  return name.replace(/[ .]+$/, '');
}

/** A single name that can be joined to a folder: no separator, no NUL, not `.` or `..`. */
function isPlainName(name: string, platform: Platform): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\u0000') && !(platform === 'win32' && name.includes('\\'));
}

/** How an existing name relates to the name asked for, or null. */
function relation(asked: string, existing: string, comparison: Comparison, percent: boolean): NearMissWhy | null {
  if (asked === existing) return null;
  if (percent && HEX_ESCAPE.test(asked) && percentDecode(asked) === existing) return 'percent-encoding';
  if (!comparison.foldUnicode && toNfc(asked) === toNfc(existing)) return 'unicode';
  if (!comparison.foldCase && comparisonKey(asked, FOLD_BOTH) === comparisonKey(existing, FOLD_BOTH)) return 'case';
  const trimmed = withoutTrailing(asked);
  if (trimmed !== '' && trimmed === withoutTrailing(existing)) return 'trailing-dot-space';
  return null;
}

/** Spellings of `asked` worth one lookup each: found even in a folder too large to list. */
function spellings(asked: string, comparison: Comparison, percent: boolean): [string, NearMissWhy][] {
  const out: [string, NearMissWhy][] = [];
  if (percent && HEX_ESCAPE.test(asked)) {
    const decoded = percentDecode(asked);
    if (decoded !== null) out.push([decoded, 'percent-encoding']);
  }
  if (!comparison.foldUnicode) out.push([asked.normalize('NFC'), 'unicode'], [asked.normalize('NFD'), 'unicode']);
  if (!comparison.foldCase) out.push([asked.toLowerCase(), 'case'], [asked.toUpperCase(), 'case']);
  out.push([withoutTrailing(asked), 'trailing-dot-space']);
  return out.filter(([spelling]) => spelling !== asked);
}

/** The names below the root's real path, if `split` lies inside the root by either of its paths. */
function belowRoot(root: Extract<PreparedRoot, { ok: true }>, split: SplitPath): readonly string[] | null {
  if (isInside(root.split, split, root.comparison)) return split.names.slice(root.split.names.length);
  if (root.real && isInside(root.real, split, root.comparison)) return split.names.slice(root.real.names.length);
  return null;
}

/**
 * The names below the root for a path that misses the root only by the spelling of the root's
 * own names (`/srv/WS/a` for `/srv/ws`), and why; compared by name, nothing above the root is
 * looked up.
 */
function respelledBelowRoot(root: Extract<PreparedRoot, { ok: true }>, split: SplitPath, percent: boolean): { names: readonly string[]; why: NearMissWhy } | null {
  for (const rootSplit of root.real ? [root.split, root.real] : [root.split]) {
    if (split.prefix.toUpperCase() !== rootSplit.prefix.toUpperCase() || split.names.length < rootSplit.names.length) continue;
    let why: NearMissWhy | null = null;
    let matches = true;
    for (let i = 0; i < rootSplit.names.length && matches; i++) {
      if (split.names[i] === rootSplit.names[i]) continue;
      const related = relation(split.names[i]!, rootSplit.names[i]!, root.comparison, percent);
      if (related === null) matches = false;
      else why ??= related;
    }
    if (matches && why !== null) return { names: split.names.slice(rootSplit.names.length), why };
  }
  return null;
}

function pathBelow(search: Search, names: readonly string[]): string {
  return joinNames(search.rootReal.prefix, [...search.rootReal.names, ...names], search.platform);
}

function exists(search: Search, path: string): boolean {
  const look = search.fs.lstat(path);
  return look.kind !== 'missing' && look.kind !== 'error';
}

/** Whether `path` is a folder and not a link; remembered, to be looked up again at the end. */
function plainFolder(search: Search, path: string): boolean {
  const look = search.fs.lstat(path);
  if (look.kind !== 'directory') return false;
  search.folders.set(path, { dev: look.dev, ino: look.ino });
  return true;
}

/** Every folder relied on is still the same folder. */
function unchanged(search: Search): boolean {
  for (const [path, identity] of search.folders) {
    const look = search.fs.lstat(path);
    if (look.kind !== 'directory' || look.dev !== identity.dev || look.ino !== identity.ino) return false;
  }
  return true;
}

/** Down from the root's real path through folders that are not links: how many of `names` it went. */
function descend(search: Search, names: readonly string[]): number {
  if (!plainFolder(search, pathBelow(search, []))) return -1;
  let depth = 0;
  while (depth < names.length && plainFolder(search, pathBelow(search, names.slice(0, depth + 1)))) depth++;
  return depth;
}

/** Up to the budget, the names in a folder, sorted so the answer does not depend on the disk's order. */
function namesIn(search: Search, folder: string): readonly string[] {
  const cached = search.listings.get(folder);
  if (cached) return cached;
  let names: readonly string[] = [];
  if (search.fs.listNames && search.budget > 0) {
    names = (search.fs.listNames(folder, search.budget) ?? []).slice(0, search.budget);
    search.budget -= names.length;
    names = [...names].sort();
  }
  search.listings.set(folder, names);
  return names;
}

/** `names` followed as far down `rest` as entries exist, through folders that are not links. */
function followed(search: Search, names: readonly string[], rest: readonly string[]): string[] {
  const reached = [...names];
  for (const next of rest) {
    if (!isPlainName(next, search.platform) || !plainFolder(search, pathBelow(search, reached))) break;
    if (!exists(search, pathBelow(search, [...reached, next]))) break;
    reached.push(next);
  }
  return reached;
}

/**
 * Offers the existing entry `name` in the folder at `folderNames`, followed as far down `rest`
 * (the names the input had after it) as entries exist, through folders that are not links.
 */
function offer(search: Search, folderNames: readonly string[], name: string, rest: readonly string[], why: NearMissWhy): void {
  add(search.found, nearMiss(pathBelow(search, followed(search, [...folderNames, name], rest)), why, search.platform));
}

/**
 * Existing entries of the folder at `folderNames` related to `asked`, each once: its suggested
 * spellings first (found even in a folder too large to list), then the folder's listed names.
 */
function relatedEntries(search: Search, folderNames: readonly string[], asked: string, percent: boolean): [string, NearMissWhy][] {
  const related = new Map<string, NearMissWhy>();
  for (const [spelling, why] of spellings(asked, search.comparison, percent)) {
    if (related.has(spelling) || !isPlainName(spelling, search.platform)) continue;
    if (exists(search, pathBelow(search, [...folderNames, spelling]))) related.set(spelling, why);
  }
  for (const existing of namesIn(search, pathBelow(search, folderNames))) {
    const why = relation(asked, existing, search.comparison, percent);
    if (why !== null && !related.has(existing)) related.set(existing, why);
  }
  return [...related];
}

/** Existing names beside a missing one. */
function besideMissing(search: Search, folderNames: readonly string[], asked: string, rest: readonly string[], percent: boolean, why?: NearMissWhy): void {
  for (const [existing, related] of relatedEntries(search, folderNames, asked, percent)) offer(search, folderNames, existing, rest, why ?? related);
}

/**
 * Twins of the names that do exist (`names[0]` to `names[depth - 1]`), from the deepest up: an
 * entry related to one of them, offered only where all of the input's later names exist below it.
 * Stops at the first level that offers any: the slip nearest the missing name.
 */
function besideExisting(search: Search, names: readonly string[], depth: number, percent: boolean, why?: NearMissWhy): void {
  let offered = false;
  for (let level = depth - 1; level >= 0 && !offered; level--) {
    const folderNames = names.slice(0, level);
    const rest = names.slice(level + 1);
    for (const [twin, related] of relatedEntries(search, folderNames, names[level]!, percent)) {
      if (search.found.length >= MAX_NEAR_MISSES) return;
      const reached = followed(search, [...folderNames, twin], rest);
      if (reached.length < names.length) continue;
      add(search.found, nearMiss(pathBelow(search, reached), why ?? related, search.platform));
      offered = true;
    }
  }
}

/** The names beside the first missing name of the target, else twins of the existing names before it. */
function searchTarget(search: Search, root: Extract<PreparedRoot, { ok: true }>, target: SplitPath, percent: boolean): void {
  let names = belowRoot(root, target);
  let why: NearMissWhy | undefined;
  if (names === null) {
    const respelled = respelledBelowRoot(root, target, percent);
    if (respelled === null) return;
    ({ names, why } = respelled);
  }
  const depth = descend(search, names);
  if (depth < 0) return;
  const folderNames = names.slice(0, depth);
  if (depth === names.length) {
    if (why) add(search.found, nearMiss(pathBelow(search, names), why, search.platform));
    return;
  }
  const asked = names[depth]!;
  const rest = names.slice(depth + 1);
  const before = search.found.length;
  const look = search.fs.lstat(pathBelow(search, [...folderNames, asked]));
  // A name that is there, or that cannot be looked up, is not what was mistyped (an earlier one may be).
  if (look.kind === 'missing') besideMissing(search, folderNames, asked, rest, percent, why);
  else if (why && look.kind !== 'error') offer(search, folderNames, asked, rest, why);
  if (search.found.length === before) besideExisting(search, names, depth, percent, why);
}

/** A URI, or a path that names its place from a root (not relative to the workspace). */
function isAbsoluteForm(parsed: Parsed): boolean {
  return parsed.form === 'uri' || (parsed.kind !== 'relative' && parsed.kind !== 'drive-relative');
}

/** `names` below the root's real path, offered when every one of them exists there. */
function offerWhole(search: Search, names: readonly string[], why: NearMissWhy): boolean {
  if (names.length === 0 || !names.every((name) => isPlainName(name, search.platform))) return false;
  const reached = followed(search, [], names);
  if (reached.length < names.length) return false;
  add(search.found, nearMiss(pathBelow(search, reached), why, search.platform));
  return true;
}

/**
 * A path written from the wrong place, offered where every one of its names exists below the
 * root: one that starts with the workspace folder's own name (`ws/src/a.ts` in `ws`), an absolute
 * path written as if the workspace were the filesystem's root (`/src/a.ts`), and, where only `/`
 * separates names, a path written with Windows' `\` (`src\a.ts`). Only names below the
 * root are looked up.
 */
function searchRebased(search: Search, root: Extract<PreparedRoot, { ok: true }>, target: SplitPath, absolute: boolean): void {
  const rootName = root.split.names.at(-1);
  const startsWithRootName = (names: readonly string[]) =>
    rootName !== undefined && names.length > 1 && comparisonKey(names[0]!, search.comparison) === comparisonKey(rootName, search.comparison);
  const below = belowRoot(root, target);
  if (below !== null) {
    if (startsWithRootName(below) && offerWhole(search, below.slice(1), 'root-name')) return;
    if (search.platform !== 'win32' && below.some((name) => name.includes('\\'))) {
      const split = below.flatMap((name) => name.split('\\')).filter((name) => name !== '' && name !== '.');
      // A `..` among them would climb: never offered.
      if (!split.includes('..')) offerWhole(search, split, 'separator');
    }
    return;
  }
  if (!absolute) return;
  if (offerWhole(search, target.names, 'root-relative')) return;
  if (startsWithRootName(target.names)) offerWhole(search, target.names.slice(1), 'root-name');
}

/** The path of `input` by the lexical stages (parse to normalise), or null if they refuse it. */
function lexicalPath(input: string, root: Extract<PreparedRoot, { ok: true }>): SplitPath | null {
  const ctx = root.requestCtx;
  const parsed = parse(input, ctx);
  if (!parsed.ok) return null;
  const checked = refusals(parsed.value, ctx);
  if (!checked.ok) return null;
  const decoded = decode(checked.value, ctx);
  if (!decoded.ok) return null;
  const normalised = normalise(decoded.value, ctx, root.split);
  return normalised.ok ? normalised.value.split : null;
}

function decodedOr(text: string): string {
  return percentDecode(text) ?? text;
}

/**
 * RFC 3986: in a URI a raw `?` or `#` ends the path, and the WHATWG parser drops trailing
 * spaces, so `file:///ws/a#b.txt` names `a`. Offers the entries of that folder whose name starts
 * with the cut name and the character that cut it, the name as written (`a#b.txt`) first.
 */
function searchCut(search: Search, root: Extract<PreparedRoot, { ok: true }>, input: string): void {
  let at = input.search(/[?#]/);
  if (at < 0) at = / +$/.exec(input)?.index ?? -1;
  if (at < 0) return;
  const before = input.slice(0, at);
  const lexical = lexicalPath(before, root);
  if (lexical === null) return;
  const endsInFolder = before.endsWith('/');
  if (!endsInFolder && lexical.names.length === 0) return;
  const folder = endsInFolder ? lexical : parentOf(lexical);
  const cutName = endsInFolder ? '' : lexical.names.at(-1)!;
  const folderNames = belowRoot(root, folder);
  if (folderNames === null || descend(search, folderNames) !== folderNames.length) return;

  const start = `${cutName}${input[at]}`;
  const [named = '', ...after] = input.slice(at + 1).split('/');
  const written = `${start}${decodedOr(named)}`;
  const rest: string[] = [];
  for (const name of after.map(decodedOr)) {
    if (name === '' || name === '.') continue;
    if (!isPlainName(name, search.platform)) break;
    rest.push(name);
  }
  if (isPlainName(written, search.platform) && exists(search, pathBelow(search, [...folderNames, written]))) {
    offer(search, folderNames, written, rest, 'percent-encoding');
  }
  for (const existing of namesIn(search, pathBelow(search, folderNames))) {
    if (existing.startsWith(start)) offer(search, folderNames, existing, [], 'percent-encoding');
  }
}
