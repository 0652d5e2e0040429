/**
 * What the server and the inspector both read from the grants: the other workspaces a path may
 * lie in, and the rule for rights.
 *
 * The rule for rights, shared by the server (which enforces it) and the inspector (which explains
 * it): after the trace lets a change in, the most specific grant decides, whichever workspace the
 * call named. A change makes, replaces or removes the path's entry in its folder, so the deepest
 * workspace holding that folder decides: a read-write workspace nested in a read-only one is
 * writable inside, but its own folder can be neither removed nor renamed; a read-only one nested
 * in a read-write one is not writable. A change that replaces the path also needs every workspace
 * at or below it writable.
 */
import { comparisonKey, inRootSpelling, isInside, rootToPath, splitAbsolute, type OtherWorkspace, type Platform, type PreparedRoot, type SplitPath } from '../core/index.js';

export interface RightsGrant {
  readonly uri: string;
  readonly rights: 'read' | 'read-write';
  readonly root: Extract<PreparedRoot, { ok: true }>;
}

function rootOf(grant: RightsGrant): SplitPath {
  return grant.root.real ?? grant.root.split;
}

/** The grant whose rights hold for a change to `path`: the deepest one holding its folder. */
function decidingGrant<G extends RightsGrant>(grants: readonly G[], target: SplitPath): G | undefined {
  const folder: SplitPath = { prefix: target.prefix, names: target.names.slice(0, -1) };
  let deepest: G | undefined;
  for (const grant of grants) {
    if (!isInside(rootOf(grant), folder, grant.root.comparison)) continue;
    if (deepest === undefined || rootOf(grant).names.length > rootOf(deepest).names.length) deepest = grant;
  }
  return deepest;
}

/** Why the grants' rights refuse `tool`'s change to the checked path `path`, or undefined when it may go ahead. */
export function readOnlyReason(grants: readonly RightsGrant[], platform: Platform, tool: string, path: string, replaces: boolean): string | undefined {
  const target = splitAbsolute(path, platform);
  if (target === null || target.names.length === 0) return undefined;
  const deciding = decidingGrant(grants, target);
  if (deciding?.rights === 'read') return `${path} lies inside ${deciding.uri}, which is granted read-only; ${tool} changes files.`;
  if (!replaces) return undefined;
  const below = grants.filter((grant) => grant.rights === 'read' && isInside(target, rootOf(grant), grant.root.comparison));
  if (below.length === 0) return undefined;
  const held = below.map((grant) => grant.uri).join(', ');
  return `${path} holds ${held}, granted read-only; ${tool} would change ${below.length === 1 ? 'it' : 'them'} with ${path}.`;
}

/** The grants other than `except`, each by its path as given and by its real path, so a trace's path meets either. */
export function workspacesBeside(grants: readonly RightsGrant[], except: string): OtherWorkspace[] {
  const beside: OtherWorkspace[] = [];
  for (const grant of grants) {
    if (grant.uri === except) continue;
    beside.push({ uri: grant.uri, path: grant.root.path });
    if (grant.root.realPath !== null && grant.root.realPath !== grant.root.path) beside.push({ uri: grant.uri, path: grant.root.realPath });
  }
  return beside;
}

/**
 * Exact equality of two workspace paths, name by name under the root's comparison: never a
 * prefix. Another spelling of the root's folder (macOS's /private, Windows' two names for a WSL
 * distribution, a mapped drive and its share) is the same workspace.
 */
export function sameWorkspace(root: Extract<PreparedRoot, { ok: true }>, path: string): boolean {
  const other = rootToPath(path, { platform: root.ctx.platform, policy: root.ctx.policy, ...(root.ctx.spellings ? { spellings: root.ctx.spellings } : {}) });
  if (!other.ok) return false;
  const a = root.split;
  const b = inRootSpelling(other.split, root.ctx, root.split, root.comparison);
  if (a.prefix.toUpperCase() !== b.prefix.toUpperCase() || a.names.length !== b.names.length) return false;
  return a.names.every((name, i) => comparisonKey(name, root.comparison) === comparisonKey(b.names[i]!, root.comparison));
}
