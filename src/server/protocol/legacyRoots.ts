/**
 * LEGACY ADAPTER: choosing a workspace from the client's MCP Roots.
 *
 * Roots are never authority. When a tool is called without workspaceUri on a 2026-07-28
 * connection, this adapter may ask for the client's roots inside an MRTR `input_required` result
 * (SEP-2322) and uses the answer only to pick among workspaces already granted: exactly one
 * match is used, none or several is a refusal listing the grants. It never sends a live
 * `roots/list` request, and on a 2025-11-25 connection it is never reached: there the schema
 * makes workspaceUri required.
 */
import { CLIENT_CAPABILITIES_META_KEY, inputRequired, inputResponse, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { Grant } from '../grants.js';
import { sameWorkspace } from '../grants.js';
import { serverRefusal, type ServerRefusal } from '../refusals/refusal.js';

export type LegacyChoice =
  | { readonly kind: 'grant'; readonly grant: Grant }
  | { readonly kind: 'ask'; readonly result: InputRequiredResult }
  | { readonly kind: 'refused'; readonly refusal: ServerRefusal };

function listing(grants: readonly Grant[]): string {
  return grants.map((grant) => grant.uri).join(', ');
}

export function chooseFromRoots(ctx: ServerContext, grants: readonly Grant[]): LegacyChoice {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
  if (answer.kind !== 'roots') {
    const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as { roots?: unknown } | undefined;
    if (answer.kind === 'missing' && capabilities?.roots !== undefined) {
      return { kind: 'ask', result: inputRequired({ inputRequests: { roots: inputRequired.listRoots() } }) };
    }
    return {
      kind: 'refused',
      refusal: serverRefusal('ERR_NOT_GRANTED', `No workspaceUri was given and the client offers no roots to choose by. Granted: ${listing(grants)}.`),
    };
  }
  const matches = grants.filter((grant) => answer.roots.some((root) => sameWorkspace(grant.root, root.uri)));
  if (matches.length === 1) return { kind: 'grant', grant: matches[0]! };
  const why = matches.length === 0 ? 'none of the client\'s roots is a granted workspace' : `${matches.length} granted workspaces match the client's roots`;
  return {
    kind: 'refused',
    refusal: serverRefusal('ERR_NOT_GRANTED', `No workspaceUri was given and ${why}. Granted: ${listing(grants)}.`),
  };
}
