import { isInside } from '../containment.js';
import { joinNames, joinSplit, splitAbsolute, type SplitPath } from '../paths.js';
import { passed, refused, skipped, type StageContext, type StageOutcome } from '../stage.js';
import type { EntryKind, FileSystemPort, LinkHop, LinklessLookup, Platform, RefusalCode } from '../types.js';
import { classifyPath } from './parse.js';
import { quoted, visible } from '../visible.js';
import type { Compared, Comparison } from './casePolicy.js';

/** Linux's MAXSYMLINKS: more hops than this in one resolution is taken as a loop. */
export const MAX_LINK_HOPS = 40;

export interface Resolved {
  readonly real: SplitPath;
  /** What is at the real path; `missing` when it does not exist yet (the rest was added lexically). */
  readonly kind: EntryKind;
  readonly links: readonly LinkHop[];
  /** The deepest existing ancestor when the target does not exist. */
  readonly existingAncestor?: string;
}

export interface ResolveFailure {
  readonly code: RefusalCode;
  readonly reason: string;
  readonly links: readonly LinkHop[];
  /** Where a chain landed, when it landed somewhere. */
  readonly landed?: SplitPath;
}

interface Pending {
  readonly name: string;
  /** The hop whose target this name came from; null for the request's own names. */
  readonly fromLink: number | null;
}

export interface ResolveOptions {
  /** Follow a link at the last name (false: the link itself is the subject, as for delete and rename). */
  readonly followFinal: boolean;
  /** Called for each link about to be followed; returning a failure stops resolution. */
  readonly judgeLink?: (link: string, split: SplitPath) => Omit<ResolveFailure, 'links'> | undefined;
  /**
   * Called with a link's text once read, and where the chain would land by names alone (the
   * link's target, then the names still to resolve); returning a failure stops resolution
   * before anything there is looked up.
   */
  readonly judgeTarget?: (hop: LinkHop, link: SplitPath, landing: SplitPath) => Omit<ResolveFailure, 'links'> | undefined;
  /** Decides whether a dangling chain lands inside (dangling) or outside (escape). */
  readonly landsInside?: (landed: SplitPath) => boolean;
  /**
   * A folder already resolved to its real path (the workspace root, at start-up). When `start`
   * begins with exactly its names, the walk begins there instead of looking each of them up again.
   */
  readonly resolved?: SplitPath;
}

function beginsWith(path: SplitPath, folder: SplitPath): boolean {
  if (path.prefix !== folder.prefix || path.names.length < folder.names.length) return false;
  for (let i = 0; i < folder.names.length; i++) if (path.names[i] !== folder.names[i]) return false;
  return true;
}

function splitLinkTarget(target: string, platform: Platform): { absolute: SplitPath | null; names: string[] } {
  const names = target.split(platform === 'win32' ? /[\\/]/ : '/');
  if (platform !== 'win32') {
    return target.startsWith('/') ? { absolute: { prefix: '/', names: [] }, names } : { absolute: null, names };
  }
  const kind = classifyPath(target, platform);
  if (kind === 'drive') return { absolute: { prefix: `${target[0]!.toUpperCase()}:\\`, names: [] }, names: names.slice(1) };
  if (kind === 'unc') {
    const split = splitAbsolute(target.replace(/\//g, '\\'), platform);
    if (split) return { absolute: { prefix: split.prefix, names: [] }, names: [...split.names] };
  }
  return { absolute: null, names };
}

/** What most filesystems hold in one name, in bytes (NAME_MAX on Linux and macOS, 255 UTF-16 units on NTFS). */
const USUAL_NAME_MAX = 255;

/**
 * A lookup the filesystem refused. ENAMETOOLONG is a name (or the whole path) too long, never a
 * question of rights; EACCES and EPERM are rights; any other errno is said as it is.
 */
function lookupFailure(errno: string, what: string, whose: string, names: readonly string[]): Omit<ResolveFailure, 'links'> {
  if (errno === 'ENAMETOOLONG') {
    const bytes = (name: string) => new TextEncoder().encode(name).length;
    const longest = names.reduce((a, b) => (bytes(b) > bytes(a) ? b : a), '');
    const reason =
      bytes(longest) > USUAL_NAME_MAX
        ? `A name in the path is too long for the filesystem: ${visible(quoted(longest), { shorten: true })} is ${bytes(longest).toLocaleString('en-US')} bytes, ` +
          `and most filesystems hold at most ${USUAL_NAME_MAX} in one name (ENAMETOOLONG). Shorten the name.`
        : `The path is too long for the filesystem (ENAMETOOLONG), though no name in it is longer than ${USUAL_NAME_MAX} bytes. Shorten the names along it.`;
    return { code: 'ERR_NAME_TOO_LONG', reason };
  }
  const rights = errno === 'EACCES' || errno === 'EPERM' ? `; check ${whose} permissions` : '';
  return { code: 'ERR_PERMISSION', reason: `The filesystem would not let ${what} (${errno})${rights}.` };
}

/**
 * Resolves symbolic links name by name, recording every hop. For a path that does not exist yet
 * the deepest existing ancestor is resolved and the rest appended lexically. Only the port is
 * consulted, and only to look names up.
 */
export function resolveReal(
  fs: FileSystemPort,
  start: SplitPath,
  platform: Platform,
  options: ResolveOptions,
): { ok: true; value: Resolved } | ({ ok: false } & ResolveFailure) {
  let prefix = start.prefix;
  const known = options.resolved !== undefined && beginsWith(start, options.resolved) ? options.resolved.names.length : 0;
  let names: string[] = start.names.slice(0, known);
  const queue: Pending[] = start.names.slice(known).map((name) => ({ name, fromLink: null }));
  const links: LinkHop[] = [];
  let kind: EntryKind = 'directory';
  let existingAncestor: string | undefined;

  while (queue.length > 0) {
    const item = queue.shift()!;
    if (item.name === '' || item.name === '.') continue;
    if (item.name === '..') {
      names.pop();
      continue;
    }
    if (kind === 'missing') {
      names.push(item.name);
      continue;
    }
    const candidateNames = [...names, item.name];
    const candidate = joinNames(prefix, candidateNames, platform);
    const look = fs.lstat(candidate);
    if (look.kind === 'missing') {
      if (item.fromLink !== null) {
        const landed = lexicalLanding(prefix, candidateNames, queue);
        const hop = links[item.fromLink]!;
        const escapes = options.landsInside ? !options.landsInside(landed) : false;
        return {
          ok: false,
          code: escapes ? 'ERR_SYMLINK_ESCAPE' : 'ERR_SYMLINK_DANGLING',
          reason: escapes
            ? `The link ${visible(hop.link)} points to ${quoted(hop.target)}, which does not exist and lies outside the workspace.`
            : `The link ${visible(hop.link)} points to ${quoted(hop.target)}, which does not exist. Fix or remove the link.`,
          links,
          landed,
        };
      }
      existingAncestor = joinNames(prefix, names, platform);
      kind = 'missing';
      names = candidateNames;
      continue;
    }
    if (look.kind === 'error') return { ok: false, ...lookupFailure(look.errno, `${visible(candidate)} be looked up`, "its folder's", candidateNames), links };
    if (look.kind === 'symlink' && (queue.length > 0 || options.followFinal)) {
      const judged = options.judgeLink?.(candidate, { prefix, names: candidateNames });
      if (judged) return { ok: false, ...judged, links };
      if (links.length >= MAX_LINK_HOPS) {
        return {
          ok: false,
          code: 'ERR_SYMLINK_LOOP',
          reason: `Resolving ${visible(joinSplit(start, platform))} followed more than ${MAX_LINK_HOPS} links (a loop: ${links
            .slice(0, 3)
            .map(linkNote)
            .join(', ')}, ...). Break the loop.`,
          links,
        };
      }
      const read = fs.readlink(candidate);
      if (!read.ok) return { ok: false, ...lookupFailure(read.errno, `the link ${visible(candidate)} be read`, 'its', candidateNames), links };
      const hop = { link: candidate, target: read.target };
      links.push(hop);
      const target = splitLinkTarget(read.target, platform);
      const followed = target.names.map((name) => ({ name, fromLink: links.length - 1 }));
      if (options.judgeTarget) {
        const landing = lexicalLanding(target.absolute ? target.absolute.prefix : prefix, target.absolute ? [] : names, [...followed, ...queue]);
        const judged = options.judgeTarget(hop, { prefix, names: candidateNames }, landing);
        if (judged) return { ok: false, ...judged, links };
      }
      if (target.absolute) {
        prefix = target.absolute.prefix;
        names = [];
      }
      queue.unshift(...followed);
      continue;
    }
    names = candidateNames;
    kind = look.kind;
  }
  return { ok: true, value: { real: { prefix, names }, kind, links, ...(existingAncestor !== undefined ? { existingAncestor } : {}) } };
}

/**
 * The same answer as `resolveReal` for a path with no link on it, from one `lstat` and one
 * `realpath` instead of a lookup per name; undefined whenever a link, an error or a changed
 * spelling means the name-by-name walk must tell. A path that does not exist yet is looked up
 * from its end until an existing folder, which must then be its own real path.
 */
export function resolveWithoutLinks(fs: FileSystemPort, split: SplitPath, platform: Platform, followFinal: boolean): Resolved | undefined {
  if (!fs.realpath) return undefined;
  const path = joinSplit(split, platform);
  const look = fs.lstat(path);
  if (look.kind === 'error') return undefined;
  if (look.kind === 'symlink' && followFinal) return undefined;
  if (look.kind !== 'missing') {
    const folder = look.kind === 'symlink' ? joinNames(split.prefix, split.names.slice(0, -1), platform) : path;
    return fs.realpath(folder) === folder ? { real: split, kind: look.kind, links: NO_LINKS } : undefined;
  }
  for (let depth = split.names.length - 1; depth >= 0; depth--) {
    const ancestor = joinNames(split.prefix, split.names.slice(0, depth), platform);
    const above = fs.lstat(ancestor);
    if (above.kind === 'missing') continue;
    if (above.kind !== 'directory' && above.kind !== 'file' && above.kind !== 'other') return undefined;
    return fs.realpath(ancestor) === ancestor ? { real: split, kind: 'missing', links: NO_LINKS, existingAncestor: ancestor } : undefined;
  }
  return undefined;
}

const NO_LINKS: readonly LinkHop[] = Object.freeze([]);

/** What a linkless lookup found (resolveWithoutLinks' answer, from one look); undefined where the names must be resolved. */
function resolvedByLookup(lookup: LinklessLookup, split: SplitPath, platform: Platform, followFinal: boolean): Resolved | undefined {
  const kind = lookup(joinSplit(split, platform));
  if (kind === undefined || (kind === 'symlink' && followFinal)) return undefined;
  if (kind !== 'missing') return { real: split, kind, links: NO_LINKS };
  return { real: split, kind, links: NO_LINKS, existingAncestor: joinNames(split.prefix, split.names.slice(0, -1), platform) };
}

function lexicalLanding(prefix: string, names: readonly string[], rest: readonly Pending[]): SplitPath {
  const landed = [...names];
  for (const { name } of rest) {
    if (name === '' || name === '.') continue;
    if (name === '..') landed.pop();
    else landed.push(name);
  }
  return { prefix, names: landed };
}

export interface RootReal {
  readonly lexical: SplitPath;
  readonly real: SplitPath;
}

export interface Realised extends Compared {
  readonly real: SplitPath | null;
  readonly kind: EntryKind | null;
  readonly links: readonly LinkHop[];
}

/**
 * How a chain of links is judged against a workspace whose real path is `root`. A chain that
 * leaves the workspace is refused at the first link below the root whose text leads outside,
 * before anything outside is looked up: whether its target exists, or where it leads on, is never
 * learnt or told (so a chain that leaves and comes back in is an escape too). A dangling chain
 * escapes when it would land outside. The realpath stage and the workspace audit judge alike.
 */
export function chainRules(root: SplitPath, comparison: Comparison) {
  const belowRoot = (split: SplitPath) => isInside(root, split, comparison) && split.names.length > root.names.length;
  return {
    belowRoot,
    judgeTarget: (hop: LinkHop, link: SplitPath, landing: SplitPath): Omit<ResolveFailure, 'links'> | undefined =>
      belowRoot(link) && !isInside(root, landing, comparison)
        ? {
            code: 'ERR_SYMLINK_ESCAPE',
            reason: `The link ${visible(hop.link)} points to ${quoted(hop.target)}, which leads outside the workspace. Use a path whose links stay inside the workspace.`,
          }
        : undefined,
    landsInside: (landed: SplitPath) => isInside(root, landed, comparison),
  };
}

/** A hop as a note says it: the link's target quoted, as its text is the link's own. */
function linkNote(hop: LinkHop): string {
  return `${visible(hop.link)} -> ${quoted(hop.target)}`;
}

function realNotes({ links, kind, existingAncestor }: Resolved, followFinal: boolean): string[] {
  const notes = links.map(linkNote);
  if (existingAncestor !== undefined) notes.push(`does not exist yet: resolved up to ${visible(existingAncestor)}, the rest taken lexically`);
  if (!followFinal && kind === 'symlink') notes.push('the last name is a link and is not followed: the link itself is the subject');
  return notes;
}

function realised(compared: Compared, real: SplitPath | null, kind: EntryKind | null, links: readonly LinkHop[]): Realised {
  return { path: compared.path, split: compared.split, comparison: compared.comparison, real, kind, links };
}

/**
 * Stage 6: resolve links for the target. Links above the root are followed without judgement
 * (macOS `/tmp`); below it, `contain` follows a chain only if it lands inside the root's real
 * path, `refuse` refuses any link.
 */
export function realpath(
  compared: Compared,
  ctx: StageContext,
  root: RootReal | undefined,
  followFinal: boolean,
  lookup?: LinklessLookup,
): StageOutcome<Realised> {
  const input = compared.path;
  const policyRule =
    ctx.policy.symlinks === 'contain'
      ? 'resolve links; follow a link below the root only if its chain lands inside (symlinks: contain)'
      : 'resolve links; refuse any link below the root (symlinks: refuse)';
  if (!ctx.fs || !root) {
    return skipped(
      'realpath',
      { input, output: input, rule: policyRule, notes: ['simulated: the filesystem of another platform is not consulted'] },
      realised(compared, null, null, []),
    );
  }
  const { comparison } = compared;
  // Nothing outside is looked up: by its names alone the path is outside, and containment says so.
  const lexicallyInside = isInside(root.lexical, compared.split, comparison) || isInside(root.real, compared.split, comparison);
  if (!lexicallyInside) {
    return skipped(
      'realpath',
      { input, output: input, rule: policyRule, notes: ['not looked up: by its names alone the path lies outside the workspace, and nothing outside it is looked up'] },
      realised(compared, null, null, []),
    );
  }
  const quick = (lookup && resolvedByLookup(lookup, compared.split, ctx.platform, followFinal)) ?? resolveWithoutLinks(ctx.fs, compared.split, ctx.platform, followFinal);
  if (quick) return passed('realpath', { input, output: input, rule: policyRule, notes: realNotes(quick, followFinal) }, realised(compared, quick.real, quick.kind, quick.links));
  const chain = chainRules(root.real, comparison);
  const belowRoot = chain.belowRoot;
  const resolution = resolveReal(ctx.fs, compared.split, ctx.platform, {
    followFinal,
    resolved: root.real,
    judgeLink: (link, split) =>
      ctx.policy.symlinks === 'refuse' && belowRoot(split)
        ? {
            code: 'ERR_SYMLINK_REFUSED',
            reason: `${visible(link)} is a symbolic link below the root, and the symlink policy is refuse. Use the link's target directly, or set the symlink policy to contain.`,
          }
        : undefined,
    judgeTarget: chain.judgeTarget,
    landsInside: chain.landsInside,
  });
  if (!resolution.ok) {
    const landed = resolution.landed ? joinSplit(resolution.landed, ctx.platform) : undefined;
    const notes = resolution.links.map(linkNote);
    return refused('realpath', { input, rule: policyRule, notes }, resolution.code, resolution.reason, {
      links: resolution.links,
      ...(landed !== undefined ? { landed } : {}),
    });
  }
  const { real, kind, links } = resolution.value;
  const output = joinSplit(real, ctx.platform);
  const notes = realNotes(resolution.value, followFinal);

  if (links.length > 0 && !isInside(root.real, real, comparison)) {
    const first = links.find((hop) => {
      const split = splitAbsolute(hop.link, ctx.platform);
      return split !== null && belowRoot(split);
    });
    return refused(
      'realpath',
      { input, rule: policyRule, notes },
      'ERR_SYMLINK_ESCAPE',
      `${first ? `The link ${visible(first.link)}` : 'A link'} leads outside the workspace ${visible(joinSplit(root.real, ctx.platform))}. Use a path whose links stay inside the workspace.`,
      { links },
    );
  }
  return passed('realpath', { input, output, rule: policyRule, notes }, realised(compared, real, kind, links));
}
