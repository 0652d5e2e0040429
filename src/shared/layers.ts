/**
 * The protection layers, named the same way by the server (list_workspaces), the inspector and
 * the README. Pure: the caller says what this host has.
 */
import { STAGES, type Platform } from '../core/types.js';

export type LayerName = 'authorization' | 'containment' | 'anchored I/O' | 'sandbox';

export interface ProtectionLayer {
  readonly name: LayerName;
  readonly active: boolean;
  readonly detail: string;
}

export interface HostProtection {
  readonly platform: Platform;
  /** Whether file operations go through descriptors of the checked folders. */
  readonly anchored: boolean;
  readonly sandbox: { readonly active: boolean; readonly detail: string };
}

/** Said by the server and by the inspector alike, so the two never disagree. */
export const WINDOWS_SANDBOX_DETAIL =
  'Windows has no operating-system sandbox layer for this server: only authorization and containment protect the boundary, and their re-checks before each action narrow races with changes on disk but cannot close them';

export function anchoredDetail(platform: Platform, anchored: boolean): string {
  if (anchored) {
    return 'every file operation goes through descriptors of the checked folders, opened from the workspace root down without following links: a folder swapped for a link after the check cannot redirect it; a change commits only over the file it was computed from, so a save made meanwhile is kept; a workspace moved or unmounted under the server is refused';
  }
  const where = platform === 'linux' ? 'without /proc' : `on ${platform}`;
  return `not available ${where} (Node has no openat here): every folder on the way from the workspace root is proven the one walked to again immediately before a change, and after a file is opened or a folder listed, which narrows a race with changes on disk but cannot close it`;
}

/**
 * What goes around the server, so that no layer applies to it: said wherever the layers are
 * listed, since "sandbox: active" reads as "the agent is confined" to someone who has not been told.
 */
export const NOT_GUARDED = ["the agent's built-in file edits", 'commands the agent runs in a terminal', "other MCP servers' tools"] as const;

/** The layers' reach, in one sentence. */
export const PROTECTION_SCOPE = `These layers guard only the calls the agent makes to this server's tools. They do not guard ${NOT_GUARDED.slice(0, -1).join(', ')} or ${NOT_GUARDED.at(-1)!}.`;

export function protectionLayers(host: HostProtection): ProtectionLayer[] {
  return [
    {
      name: 'authorization',
      active: true,
      detail: 'every call names its workspace, which must be a granted folder itself (never a folder inside or beside one); read-only grants refuse changes',
    },
    {
      name: 'containment',
      active: true,
      detail: `every path is traced (${STAGES.join(', ')}) before anything is read or changed`,
    },
    { name: 'anchored I/O', active: host.anchored, detail: anchoredDetail(host.platform, host.anchored) },
    { name: 'sandbox', active: host.sandbox.active, detail: host.sandbox.detail },
  ];
}
