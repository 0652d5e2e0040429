import * as fs from 'node:fs';
import * as path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  codePoints,
  comparisonKey,
  DEFAULT_WSL_MOUNT_ROOT,
  hiddenCharacters,
  isBidiControl,
  isInside,
  joinSplit,
  lookalikeParts,
  quoted,
  spelledOut,
  splitAbsolute,
  visible,
  type Comparison,
  type Platform,
  type Spellings,
  type SplitPath,
} from '../core/index.js';
import { contextFor } from '../core/root.js';
import { decideComparison } from '../core/stages/casePolicy.js';
import { normalisationForm } from '../core/paths.js';
import { chainRules, MAX_LINK_HOPS, resolveReal } from '../core/stages/realpath.js';
import { reservedDeviceOf } from '../core/win32Names.js';
import { hostPlatform, nodeFileSystem } from '../host/node.js';
import { readSpellings } from '../host/spellings.js';

/** What an audit reports. The order is the text report's: what breaks first, the informational last. */
export const FINDING_KINDS = [
  'link-escapes',
  'link-dangling',
  'link-loop',
  'unreadable',
  'not-portable',
  'wsl-one-side',
  'hidden-characters',
  'case-twins',
  'unicode-twins',
  'hard-link',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export interface Finding {
  readonly kind: FindingKind;
  /** The entry's absolute path. */
  readonly path: string;
  /** A sentence a person can act on. */
  readonly detail: string;
  /** Where the link's chain lands: for `link-escapes` and `link-dangling` only (a loop lands nowhere). */
  readonly target?: string;
}

export interface AuditReport {
  /** The root's real path, as given. */
  readonly rootPath: string;
  /** Entries examined (the root itself is not counted). */
  readonly scanned: number;
  /** True when `maxEntries` stopped the walk before every entry was examined. */
  readonly truncated: boolean;
  /** The findings kept (MAX_KEPT_FINDINGS, MAX_KEPT_FINDING_BYTES), sorted by path, then kind. */
  readonly findings: readonly Finding[];
  /** Findings met but not kept, by kind; a kind with none is absent. */
  readonly notKept: Readonly<Partial<Record<FindingKind, number>>>;
}

export interface AuditProgress {
  readonly scanned: number;
  /** The folder being examined. */
  readonly folder: string;
}

export interface AuditOptions {
  readonly maxEntries?: number;
  /** Called between slices of work (about every 20 ms of walking). */
  readonly onProgress?: (progress: AuditProgress) => void;
  /** Checked between entries; an abort rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** This machine's neighbours (inside WSL: `wsl-one-side` findings); read from the host when absent. */
  readonly spellings?: Spellings;
}

export const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * Findings an audit keeps, and the bytes of their text (findingBytes): what it holds however many
 * entries break a rule (a tree anyone can commit may hold 100,000 names of 3.8 KB paths). Past
 * either, a finding takes the place of the last kept one of a less serious kind (FINDING_KINDS'
 * order), or is counted as not kept.
 */
export const MAX_KEPT_FINDINGS = 10_000;
export const MAX_KEPT_FINDING_BYTES = 4 * 1024 * 1024;
/** The bounds in words: "10,000 findings and 4 MiB of their text". */
export const KEPT_BOUNDS = `${MAX_KEPT_FINDINGS.toLocaleString('en-US')} findings and ${MAX_KEPT_FINDING_BYTES / (1024 * 1024)} MiB of their text`;

/** What a finding's text costs: its path, detail and target, in UTF-8 bytes. */
export function findingBytes(finding: Finding): number {
  return Buffer.byteLength(finding.path) + Buffer.byteLength(finding.detail) + (finding.target === undefined ? 0 : Buffer.byteLength(finding.target));
}

/**
 * What was not kept, as a sentence: "98,885 findings were not kept (not-portable 98,885): an audit
 * keeps at most 10,000 findings and 4 MiB of their text, the most serious kinds first."
 * Undefined when every finding was kept.
 */
export function notKeptSentence(report: Pick<AuditReport, 'notKept'>): string | undefined {
  const total = notKeptCount(report);
  if (total === 0) return undefined;
  const count = (n: number) => n.toLocaleString('en-US');
  const byKind = FINDING_KINDS.flatMap((kind) => (report.notKept[kind] ? [`${kind} ${count(report.notKept[kind])}`] : []));
  return (
    `${count(total)} ${total === 1 ? 'finding was' : 'findings were'} not kept (${byKind.join(', ')}): ` +
    `an audit keeps at most ${KEPT_BOUNDS}, the most serious kinds first.`
  );
}

/** Every finding met: those kept and those not. */
export function foundCount(report: Pick<AuditReport, 'findings' | 'notKept'>): number {
  return report.findings.length + notKeptCount(report);
}

export function notKeptCount(report: Pick<AuditReport, 'notKept'>): number {
  return Object.values(report.notKept).reduce((sum, count) => sum + count, 0);
}

/** The walk runs synchronously for this long before it lets the event loop (and an abort) in. */
const SLICE_MS = 20;

/** Windows forbids these in names ("Naming Files, Paths, and Namespaces"); `\` is its separator. */
const WINDOWS_FORBIDDEN = /[<>:"|?*\\]/g;
/** U+0001 to U+001F: forbidden in Windows names (NUL cannot occur in a POSIX name). */
const CONTROL = /[\u0001-\u001f]/g;

/** Case and Unicode form both folded: names that macOS holds as one, whichever way they differ. */
const FOLD_ALL: Comparison = { foldCase: true, foldUnicode: true, basis: 'audit: names another platform would take as one' };

interface Folder {
  readonly path: string;
  readonly dev: bigint;
  readonly ino: bigint;
}

/** A folder still to list: its parent's path and its name, so a wide folder's children share one path. */
interface Pending {
  readonly parent: string;
  /** Absent for the root, whose path is `parent`. */
  readonly name?: string;
  readonly dev: bigint;
  readonly ino: bigint;
}

/** A file with more than one name. */
interface HardLinked {
  readonly nlink: bigint;
  /** Its names met, kept or not. */
  met: number;
}

/**
 * Walks the workspace at `rootPath` (an absolute real path) depth first in name order, never
 * following a link, and reports what will trip an agent or another platform. Iterative: memory
 * is the findings kept (MAX_KEPT_FINDINGS, MAX_KEPT_FINDING_BYTES), a stack of folders still to
 * list, and one folder's names at a time (at most the entries left to examine). It lets the event
 * loop in every SLICE_MS, listing a huge folder included. Link chains are judged as the server
 * judges them (the realpath stage's `contain` rule): a chain is cut where its text first leads
 * outside, so nothing outside is looked up.
 *
 * Known limit: a folder swapped for a link between its check and its listing may be listed
 * through the link for that instant; the audit reports, it does not guard (the server's anchored
 * I/O does).
 */
export async function auditWorkspace(rootPath: string, options: AuditOptions = {}): Promise<AuditReport> {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer; got ${maxEntries}`);
  const platform = hostPlatform();
  const root = splitAbsolute(rootPath, platform);
  if (!root) throw new TypeError(`auditWorkspace needs an absolute, normalised path; got ${JSON.stringify(rootPath)}`);
  const rootStats = fs.lstatSync(rootPath, { bigint: true });
  if (!rootStats.isDirectory()) throw new TypeError(`${rootPath} is not a folder (a link to one must be resolved first)`);
  const comparison = decideComparison(root, contextFor({ platform, fs: nodeFileSystem }, 'root'));
  const wsl = wslSides(options.spellings ?? readSpellings(platform, process.env));

  const findings = new KeptFindings();
  const hardLinks = new Map<string, HardLinked>();
  // A hard-link finding's file; its detail is written once the walk has met all the names it will.
  const fileOf = new WeakMap<Finding, HardLinked>();
  const stack: Pending[] = [{ parent: rootPath, dev: rootStats.dev, ino: rootStats.ino }];
  const slices = new Slices(options);
  let scanned = 0;
  let truncated = false;

  walk: while (stack.length > 0) {
    const pending = stack.pop()!;
    const folder: Folder = { path: pending.name === undefined ? pending.parent : path.join(pending.parent, pending.name), dev: pending.dev, ino: pending.ino };
    const listing = await listFolder(folder, maxEntries - scanned + 1, slices, () => ({ scanned, folder: folder.path }));
    if (listing === 'changed') continue;
    if ('errno' in listing) {
      findings.push({
        kind: 'unreadable',
        path: folder.path,
        detail: `This folder could not be listed (${listing.errno}), so nothing below it was examined. ${remedy(listing.errno, 'its')}`,
      });
      continue;
    }
    const byFolded = new Map<string, string[]>();
    const folders: Pending[] = [];
    for (const raw of listing.names) {
      if (scanned >= maxEntries) {
        truncated = true;
        reportTwins(folder.path, byFolded, findings);
        break walk;
      }
      if (slices.due) await slices.pause({ scanned, folder: folder.path });
      options.signal?.throwIfAborted();
      scanned++;
      const name = utf8Name(raw);
      if (name === null) {
        // Its path cannot be spelt as text, so nothing below or behind it is looked up.
        const bytes = Buffer.from(raw, 'latin1');
        findings.push({
          kind: 'not-portable',
          path: path.join(folder.path, bytes.toString('utf8')),
          detail: `This name is not valid UTF-8 (bytes ${bytes.toString('hex').replace(/(..)(?!$)/g, '$1 ')}): macOS and Windows cannot hold it, and tools that read names as text see another name. Nothing below or behind it was examined; rename it.`,
        });
        continue;
      }
      const entryPath = path.join(folder.path, name);
      const folded = comparisonKey(name, FOLD_ALL);
      const group = byFolded.get(folded);
      if (group) group.push(name);
      else byFolded.set(folded, [name]);
      const rules = portabilityRules(name);
      if (rules.length > 0) {
        const drive = wsl?.driveOf(entryPath);
        findings.push(
          drive === undefined
            ? { kind: 'not-portable', path: entryPath, detail: `Not portable: ${rules.join('; ')}. Rename it.` }
            : {
                kind: 'wsl-one-side',
                path: entryPath,
                detail:
                  `This name is on Windows' drive ${drive}, which WSL shares: ${rules.join('; ')}. WSL keeps such a name by storing those characters as others, ` +
                  'so Windows programs see another name, or cannot open it. Rename it.',
              },
        );
      }
      const hidden = hiddenDetail(name);
      if (hidden !== undefined) findings.push({ kind: 'hidden-characters', path: entryPath, detail: hidden });

      let stats: fs.BigIntStats;
      try {
        stats = fs.lstatSync(entryPath, { bigint: true });
      } catch (error) {
        const errno = errnoOf(error);
        // Removed since the listing: nothing is there to report.
        if (errno !== 'ENOENT') {
          findings.push({
            kind: 'unreadable',
            path: entryPath,
            detail: `This entry could not be examined (${errno}). ${remedy(errno, "its folder's")}`,
          });
        }
        continue;
      }
      if (stats.isSymbolicLink()) {
        const judged = judgeLink(entryPath, root, comparison, platform);
        if (judged) findings.push(judged);
        const oneSide = wsl?.linkAcross(entryPath);
        if (oneSide) findings.push(oneSide);
      } else if (stats.isDirectory()) {
        folders.push({ parent: folder.path, name, dev: stats.dev, ino: stats.ino });
      } else if (stats.isFile() && stats.nlink > 1n) {
        const key = `${stats.dev}:${stats.ino}`;
        const file = hardLinks.get(key) ?? { nlink: stats.nlink, met: 0 };
        file.met++;
        hardLinks.set(key, file);
        const finding: Finding = { kind: 'hard-link', path: entryPath, detail: '' };
        fileOf.set(finding, file);
        findings.push(finding);
      }
    }
    reportTwins(folder.path, byFolded, findings);
    // Reversed, so the stack gives them back in name order.
    for (let i = folders.length - 1; i >= 0; i--) stack.push(folders[i]!);
  }

  // Each file's details name the first few of its names that were kept.
  const shownNames = new Map<HardLinked, string[]>();
  for (const finding of findings.ofKind('hard-link')) {
    const file = fileOf.get(finding)!;
    const names = shownNames.get(file) ?? [];
    if (names.length <= SHOWN_NAMES) names.push(finding.path);
    shownNames.set(file, names);
  }
  findings.complete('hard-link', (finding) => {
    const file = fileOf.get(finding)!;
    return { ...finding, detail: hardLinkDetail(finding.path, file.nlink, shownNames.get(file)!, file.met, truncated) };
  });
  const sorted = findings.all().sort((a, b) => compare(a.path, b.path) || compare(a.kind, b.kind));
  return { rootPath, scanned, truncated, findings: sorted, notKept: findings.notKept };
}

/**
 * The findings kept, within MAX_KEPT_FINDINGS and MAX_KEPT_FINDING_BYTES. Past either, a finding
 * takes the place of the last kept one of the least serious kind below its own, or is not kept;
 * what is not kept is counted by kind.
 */
class KeptFindings {
  /** One list per kind, in FINDING_KINDS' order (the most serious first), each in the order met. */
  private readonly lists: Finding[][] = FINDING_KINDS.map(() => []);
  private readonly bytesOfKind: number[] = FINDING_KINDS.map(() => 0);
  private count = 0;
  private bytes = 0;
  readonly notKept: Partial<Record<FindingKind, number>> = {};

  push(finding: Finding): void {
    const rank = FINDING_KINDS.indexOf(finding.kind);
    const size = findingBytes(finding);
    let countBelow = 0;
    let bytesBelow = 0;
    for (let below = rank + 1; below < FINDING_KINDS.length; below++) {
      countBelow += this.lists[below]!.length;
      bytesBelow += this.bytesOfKind[below]!;
    }
    // It fits in the room left together with what less serious kinds hold, or it is not kept.
    if ((this.count >= MAX_KEPT_FINDINGS && countBelow === 0) || this.bytes - bytesBelow + size > MAX_KEPT_FINDING_BYTES) {
      this.countNotKept(finding.kind);
      return;
    }
    this.lists[rank]!.push(finding);
    this.count++;
    this.bytes += size;
    this.bytesOfKind[rank]! += size;
    this.fit();
  }

  ofKind(kind: FindingKind): readonly Finding[] {
    return this.lists[FINDING_KINDS.indexOf(kind)]!;
  }

  /** Replaces each kept finding of `kind` with `complete(finding)`, in the order met, still within the bounds. */
  complete(kind: FindingKind, complete: (finding: Finding) => Finding): void {
    const rank = FINDING_KINDS.indexOf(kind);
    const list = this.lists[rank]!;
    // fit() takes from the end of the least serious list, so the index stays right.
    for (let i = 0; i < list.length; i++) {
      const done = complete(list[i]!);
      const grown = findingBytes(done) - findingBytes(list[i]!);
      list[i] = done;
      this.bytes += grown;
      this.bytesOfKind[rank]! += grown;
      this.fit();
    }
  }

  all(): Finding[] {
    return this.lists.flat();
  }

  /** Drops the last kept findings of the least serious kinds until both bounds hold. */
  private fit(): void {
    while (this.count > MAX_KEPT_FINDINGS || this.bytes > MAX_KEPT_FINDING_BYTES) {
      const rank = this.lists.findLastIndex((list) => list.length > 0);
      const dropped = this.lists[rank]!.pop()!;
      const size = findingBytes(dropped);
      this.count--;
      this.bytes -= size;
      this.bytesOfKind[rank]! -= size;
      this.countNotKept(dropped.kind);
    }
  }

  private countNotKept(kind: FindingKind): void {
    this.notKept[kind] = (this.notKept[kind] ?? 0) + 1;
  }
}

/** Lets the event loop (and an abort) in after every SLICE_MS of synchronous work, with a progress report. */
class Slices {
  private started = Date.now();

  constructor(private readonly options: AuditOptions) {}

  get due(): boolean {
    return Date.now() - this.started >= SLICE_MS;
  }

  async pause(progress: AuditProgress): Promise<void> {
    await nextTurn();
    this.options.onProgress?.(progress);
    this.options.signal?.throwIfAborted();
    this.started = Date.now();
  }
}

/**
 * Up to `cap` names of a folder, in byte order, each as a latin1 string (one character per byte:
 * a name that is not UTF-8 is seen as it is, and sorts as its bytes do). Fewer than all only when
 * the walk will stop in this folder anyway, so a huge folder never sits in memory whole.
 */
async function listFolder(folder: Folder, cap: number, slices: Slices, progress: () => AuditProgress): Promise<{ names: string[] } | { errno: string } | 'changed'> {
  let dir: fs.Dir;
  try {
    dir = fs.opendirSync(folder.path, { encoding: 'latin1' });
  } catch (error) {
    const errno = errnoOf(error);
    return errno === 'ENOENT' || errno === 'ENOTDIR' ? 'changed' : { errno };
  }
  const names: string[] = [];
  try {
    try {
      // opendir follows a link: a folder swapped for one since its check is not listed.
      const now = fs.lstatSync(folder.path, { bigint: true });
      if (!now.isDirectory() || now.dev !== folder.dev || now.ino !== folder.ino) return 'changed';
    } catch (error) {
      return { errno: errnoOf(error) };
    }
    while (names.length < cap) {
      if (slices.due) await slices.pause(progress());
      let entry: fs.Dirent | null;
      try {
        entry = dir.readSync();
      } catch (error) {
        return { errno: errnoOf(error) };
      }
      if (entry === null) break;
      names.push(entry.name);
    }
  } finally {
    dir.closeSync();
  }
  return { names: names.sort() };
}

/** The name as text, or null when its bytes (as latin1) are not UTF-8, so the text would name another file. */
function utf8Name(raw: string): string | null {
  if (/^[\x00-\x7f]*$/.test(raw)) return raw;
  const bytes = Buffer.from(raw, 'latin1');
  const name = bytes.toString('utf8');
  return Buffer.from(name).equals(bytes) ? name : null;
}

/** Which of the Win32 naming rules (and macOS's) a name breaks, each as a clause. */
export function portabilityRules(name: string): string[] {
  const rules: string[] = [];
  const device = reservedDeviceOf(name);
  if (device !== undefined) {
    rules.push(`${device} is a reserved device name on Windows, so there this name opens the device, not a file`);
  }
  if (/[. ]$/.test(name)) {
    rules.push(`it ends in ${name.endsWith('.') ? 'a dot' : 'a space'}, which Windows drops, so there it names another entry`);
  }
  const forbidden = [...new Set(name.match(WINDOWS_FORBIDDEN))];
  if (forbidden.length > 0) {
    const colon = forbidden.includes(':') ? ' (":" names an NTFS stream, and macOS Finder shows it as "/")' : '';
    rules.push(`it holds ${forbidden.map((char) => JSON.stringify(char)).join(' ')}, which Windows forbids in names${colon}`);
  }
  const controls = [...new Set(name.match(CONTROL))];
  if (controls.length > 0) {
    const codes = controls.map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    rules.push(`it holds the control character${controls.length > 1 ? 's' : ''} ${codes.join(' ')}, which Windows forbids in names`);
  }
  return rules;
}

/**
 * A name holding characters that do not show, or that reorder the text around them (bidi
 * controls: Trojan Source, CVE-2021-42574): on screen it reads as another name. The controls
 * Windows forbids are `not-portable`'s already.
 */
function hiddenDetail(name: string): string | undefined {
  const hidden = hiddenCharacters(name).filter((char) => char.match(CONTROL) === null);
  if (hidden.length === 0) return undefined;
  const reorders = hidden.some(isBidiControl) ? ', or reorder the text shown around them (bidi controls)' : '';
  return (
    `This name holds ${codePoints(hidden.join(''))}, which do not show on screen${reorders}: it reads as another name (Trojan Source, CVE-2021-42574). ` +
    `With them escaped it is ${quoted(name)}. Rename it.`
  );
}

/**
 * Inside WSL, two systems use one tree: Linux, and Windows through `\\\\wsl$` or on its own
 * drives (mounted under `/mnt/<drive>`). What only one side can use: a name Windows cannot hold on
 * a drive it shares, and a link whose absolute target only one side can follow.
 */
function wslSides(spellings: Spellings): { driveOf(path: string): string | undefined; linkAcross(link: string): Finding | undefined } | undefined {
  if (spellings.wsl === undefined) return undefined;
  const mountRoot = spellings.wsl.mountRoot ?? DEFAULT_WSL_MOUNT_ROOT;
  const prefix = mountRoot.endsWith('/') ? mountRoot : `${mountRoot}/`;
  const driveOf = (entry: string): string | undefined => {
    if (!entry.startsWith(prefix)) return undefined;
    const letter = /^([a-z])(?:\/|$)/.exec(entry.slice(prefix.length));
    return letter ? `${letter[1]!.toUpperCase()}: (${prefix}${letter[1]})` : undefined;
  };
  return {
    driveOf,
    linkAcross: (link) => {
      let target: string;
      try {
        target = fs.readlinkSync(link);
      } catch {
        return undefined;
      }
      if (!target.startsWith('/')) return undefined;
      const linkOn = driveOf(link);
      const targetOn = driveOf(target);
      if (linkOn === undefined && targetOn !== undefined) {
        return {
          kind: 'wsl-one-side',
          path: link,
          detail: `This link points to ${quoted(target)}, Windows' drive ${targetOn} as WSL mounts it: Windows programs reaching this folder through \\\\wsl$ cannot follow it. Point it at a relative path, or copy the file in.`,
        };
      }
      if (linkOn !== undefined && targetOn === undefined) {
        return {
          kind: 'wsl-one-side',
          path: link,
          detail: `This link is on Windows' drive ${linkOn} and points to the Linux path ${quoted(target)}, which Windows programs cannot follow. Point it at a relative path, or copy the file in.`,
        };
      }
      return undefined;
    },
  };
}

/** Judges a link's chain by the server's rule, resolving it hop by hop; undefined when it lands inside. */
function judgeLink(linkPath: string, root: SplitPath, comparison: Comparison, platform: Platform): Finding | undefined {
  const split = splitAbsolute(linkPath, platform);
  if (!split) return undefined;
  const chain = chainRules(root, comparison);
  const resolution = resolveReal(nodeFileSystem, split, platform, {
    followFinal: true,
    // The server's rule; the finding also says where the cut chain was headed.
    judgeTarget: (hop, link, landing) => {
      const cut = chain.judgeTarget(hop, link, landing);
      return cut && { ...cut, landed: landing };
    },
    landsInside: chain.landsInside,
  });
  const hops = resolution.ok ? resolution.value.links : resolution.links;
  const leaving = hops[hops.length - 1];
  const via = leaving && leaving.link !== linkPath ? ` through ${visible(leaving.link)} -> ${quoted(leaving.target)}` : '';
  if (resolution.ok) {
    if (hops.length === 0 || isInside(root, resolution.value.real, comparison)) return undefined;
    const target = joinSplit(resolution.value.real, platform);
    return { kind: 'link-escapes', path: linkPath, target, detail: escapeDetail(target, via) };
  }
  const landed = resolution.landed ? joinSplit(resolution.landed, platform) : undefined;
  switch (resolution.code) {
    case 'ERR_SYMLINK_ESCAPE':
      return { kind: 'link-escapes', path: linkPath, ...(landed !== undefined ? { target: landed } : {}), detail: escapeDetail(landed ?? 'outside', via) };
    case 'ERR_SYMLINK_DANGLING':
      return {
        kind: 'link-dangling',
        path: linkPath,
        ...(landed !== undefined ? { target: landed } : {}),
        detail: `This link points to ${landed === undefined ? 'nothing' : visible(landed)}${via}, which does not exist. Fix the link or remove it.`,
      };
    case 'ERR_SYMLINK_LOOP': {
      const shown = hops.slice(0, 3).map((hop) => `${visible(hop.link)} -> ${quoted(hop.target)}`);
      return {
        kind: 'link-loop',
        path: linkPath,
        detail: `This link's chain loops (more than ${MAX_LINK_HOPS} links: ${shown.join(', ')}, ...). Break the loop.`,
      };
    }
    default:
      return { kind: 'unreadable', path: linkPath, detail: `This link's chain could not be resolved: ${resolution.reason}` };
  }
}

function escapeDetail(target: string, via: string): string {
  return `This link leads outside the workspace to ${visible(target)}${via}; the server refuses every path through it, and what lies beyond is not looked up. Point it inside the workspace, or remove it.`;
}

/** Names a detail shows; a folder may hold thousands of spellings of one name, so details stay short and the work linear. */
const SHOWN_NAMES = 3;

/** One finding per name of each group of names another platform would take as one. */
function reportTwins(folder: string, byFolded: ReadonlyMap<string, readonly string[]>, findings: KeptFindings): void {
  for (const group of byFolded.values()) {
    if (group.length < 2) continue;
    const byForm = new Map<string, string[]>();
    for (const name of group) {
      const nfc = name.normalize('NFC');
      const spellings = byForm.get(nfc);
      if (spellings) spellings.push(name);
      else byForm.set(nfc, [name]);
    }
    // A few names of distinct NFC forms, enough to show SHOWN_NAMES others for any name.
    const distinct = [...byForm.values()].slice(0, SHOWN_NAMES + 1).map((spellings) => spellings[0]!);
    for (const name of group) {
      const spellings = byForm.get(name.normalize('NFC'))!;
      const caseCount = group.length - spellings.length;
      if (caseCount > 0) {
        const shown = distinct.filter((other) => other.normalize('NFC') !== name.normalize('NFC')).slice(0, SHOWN_NAMES);
        findings.push({
          kind: 'case-twins',
          path: path.join(folder, name),
          detail: `${quoted(name)} differs only by case from ${listed(shown.map(quoted), caseCount)} in this folder${apart(name, shown)}: Windows and macOS hold only one of them, so a checkout there loses or mixes the others. Rename all but one.`,
        });
      }
      if (spellings.length > 1) {
        const shown = spellings.slice(0, SHOWN_NAMES + 1).filter((other) => other !== name).slice(0, SHOWN_NAMES);
        findings.push({
          kind: 'unicode-twins',
          path: path.join(folder, name),
          detail: `${quoted(name)} (${formOf(name)}) is spelt ${listed(shown.map((other) => `${quoted(other)} (${formOf(other)})`), spellings.length - 1)} in another Unicode form in this folder${apart(name, shown)}: macOS holds only one of them, and a tool that normalises names opens the other. Keep one spelling.`,
        });
      }
    }
  }
}

/** "a, b, c and 4 more" */
function listed(shown: readonly string[], total: number): string {
  return total > shown.length ? `${shown.join(', ')} and ${total - shown.length} more` : shown.join(', ');
}

function formOf(name: string): string {
  return normalisationForm(name) ?? 'neither NFC nor NFD';
}

/**
 * Where a name and the first of its twins differ, when the two look alike on screen:
 * ` ("é" (U+00E9) in this name, "é" (U+0065 U+0301) in the other)`; empty when they differ visibly.
 */
function apart(name: string, twins: readonly string[]): string {
  const parts = twins[0] === undefined ? undefined : lookalikeParts(name, twins[0]);
  return parts ? ` (${spelledOut(parts[0])} in this name, ${spelledOut(parts[1])} in the ${twins.length === 1 ? 'other' : 'first'})` : '';
}

/** `namesKept`: the first few of its names kept (SHOWN_NAMES + 1 at most), of the `metCount` met inside. */
function hardLinkDetail(entryPath: string, nlink: bigint, namesKept: readonly string[], metCount: number, truncated: boolean): string {
  const others = namesKept.filter((name) => name !== entryPath).slice(0, SHOWN_NAMES);
  const otherCount = metCount - 1;
  const metHere =
    others.length > 0
      ? ` ${otherCount === 1 ? 'Its other name here' : 'Its other names here'}: ${listed(others.map((other) => visible(other)), otherCount)}.`
      : otherCount > 0
        ? ` It has ${otherCount} other ${otherCount === 1 ? 'name' : 'names'} here, not kept in this report.`
        : '';
  const elsewhere = Number(nlink) - metCount;
  if (elsewhere <= 0) {
    return `This file has ${nlink} names (hard links), all in this workspace: changing it changes them all.${metHere}`;
  }
  const where = truncated ? 'outside this workspace or in the part the walk did not reach' : 'outside this workspace (or in a folder that could not be listed)';
  return `This file has ${nlink} names (hard links); ${elsewhere} of them ${elsewhere === 1 ? 'lies' : 'lie'} ${where}, so reading or changing it here reads or changes that file too.${metHere} Package stores such as pnpm's link files on purpose; elsewhere, copy the file if it should stand alone.`;
}

function remedy(errno: string, whose: string): string {
  if (errno === 'ENAMETOOLONG') return 'Its path is longer than the system allows (PATH_MAX): shorten the names above it.';
  return `Check ${whose} permissions.`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function errnoOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
}
