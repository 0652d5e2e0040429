import * as z from 'zod';
import { STAGES } from '../../core/index.js';
import { protectionLayers } from '../../shared/layers.js';
import { anchorOf } from '../fs/index.js';
import type { ServerState } from './tool.js';

/** The one tool without a workspace: it tells the agent which workspaces it may name. */
export const listWorkspaces = {
  name: 'list_workspaces',
  title: 'List the granted workspaces',
  description:
    'The workspaces you may use, their rights and protections. Pass one of its URIs (or that folder\'s path) as workspaceUri to every other tool, ' +
    'never a folder inside it; a path is relative to that workspace, absolute, or a file: URI inside it.',
  output: z.object({
    workspaces: z
      .array(
        z.object({
          uri: z.string().describe('The workspace URI to pass as workspaceUri.'),
          path: z.string().describe('The workspace folder as this server spells it.'),
          realPath: z.string().describe('The folder with every link resolved.'),
          rights: z.enum(['read', 'read-write']).describe('read: reading tools only; read-write: every tool.'),
        }),
      )
      .describe('Every granted workspace.'),
    layers: z
      .object({
        authorization: z.string().describe('How a call is matched to a grant.'),
        containment: z.string().describe('How a path is judged inside a workspace.'),
        anchoredIo: z
          .object({
            active: z.boolean().describe('Whether file operations go through descriptors of the checked folders, so a swap on disk cannot redirect them.'),
            detail: z.string().describe('What it guarantees, or why it is not available on this host.'),
          })
          .describe('The anchored I/O layer.'),
        sandbox: z
          .object({
            active: z.boolean().describe('Whether the operating system confines this server.'),
            mechanism: z.string().optional().describe('The sandbox in use; absent when there is none.'),
            detail: z.string().describe('What it confines, or why there is none.'),
          })
          .describe('The operating-system layer.'),
      })
      .describe('The protection layers and their state on this host.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run(state: ServerState): Listing {
    let listing = listings.get(state);
    if (listing === undefined) {
      listing = describeWorkspaces(state);
      listings.set(state, listing);
    }
    return listing;
  },
};

interface Listing {
  readonly structured: Record<string, unknown>;
  readonly text: string;
}

/** The grants, the sandbox and the anchors are fixed once the server starts: the listing is made once. */
const listings = new WeakMap<ServerState, Listing>();

function describeWorkspaces(state: ServerState): Listing {
  const anchored = state.grants.every((grant) => anchorOf(grant, state.platform).mode === 'descriptor');
  const layers = protectionLayers({ platform: state.platform, anchored, sandbox: state.sandbox });
  const anchoredLayer = layers.find((layer) => layer.name === 'anchored I/O')!;
  const structured = {
    workspaces: state.grants.map((grant) => ({ uri: grant.uri, path: grant.path, realPath: grant.realPath, rights: grant.rights })),
    layers: {
      authorization: 'active: workspaceUri must name a granted workspace folder itself (its URI or path, compared after normalisation), never a folder inside or beside it',
      containment: `active: every path is traced (${STAGES.join(', ')}); symlinks: ${state.grants[0]?.root.ctx.policy.symlinks ?? 'contain'}`,
      anchoredIo: { active: anchoredLayer.active, detail: anchoredLayer.detail },
      sandbox: { active: state.sandbox.active, ...(state.sandbox.mechanism !== null ? { mechanism: state.sandbox.mechanism } : {}), detail: state.sandbox.detail },
    },
  };
  const lines = state.grants.map((grant) => `${grant.uri} (${grant.rights})`);
  const layerLines = layers.map((layer) => `- ${layer.name}: ${layer.active ? 'active' : 'not active'}: ${layer.detail}`);
  const text = `Granted workspaces:\n${lines.join('\n')}\nProtection layers on this host:\n${layerLines.join('\n')}`;
  return { structured, text };
}
