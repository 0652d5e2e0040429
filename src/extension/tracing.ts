/**
 * The inspector's traces: the core's trace for the chosen tool's operation, with the server's
 * secrets policy, the near misses on this machine, and what the server would refuse beyond the trace (a root it was not granted, a
 * change where a read-only grant decides). No `vscode` here: the grants arrive as the panel's root choices, so this is
 * tested without an editor.
 */
import {
  pathToUri,
  prepareRoot,
  rootToPath,
  secretChoiceFromSettings,
  splitAbsolute,
  traceAgainst,
  withNearMisses,
  type Platform,
  type Policy,
  type SecretSettings,
  type Spellings,
  type Trace,
} from '../core/index.js';
import { withSecretChoice } from '../host/claudeCodeDeny.js';
import { readSpellings } from '../host/spellings.js';
import { hostPlatform, nodeFileSystem } from '../host/node.js';
import type { RootChoice, ServerNote, TraceRequest } from '../shared/messages.js';
import { DEFAULT_TOOL, isToolName, OPERATIONS, type ToolName } from '../shared/operations.js';
import { readOnlyReason, sameWorkspace, workspacesBeside, type RightsGrant } from '../shared/grants.js';
import { NO_SIMULATED_SPELLINGS, type SimulatedRoots, type SimulatedSpellings } from '../shared/simulatedRoots.js';

export interface Traced {
  readonly trace: Trace;
  readonly serverNote: ServerNote | null;
}

/**
 * A request for another platform against one of the workspace folders: the folder as that
 * platform would hold it (its template), and an input that names a path in the folder as this
 * machine spells it (its URI or its path), moved there too, so that the workspace's own files
 * trace on any platform. Any other request is returned as it is.
 */
export function simulatedRequest(request: TraceRequest, roots: readonly RootChoice[], templates: SimulatedRoots, host: Platform = hostPlatform()): TraceRequest {
  if (request.platform === host) return request;
  const choice = roots.find((candidate) => candidate.uri === request.root);
  const converted = choice === undefined ? null : rootToPath(choice.uri, { platform: host });
  if (choice === undefined || converted === null || !converted.ok) return request;
  const simulatedPath = templates[request.platform].split('{name}').join(choice.label);
  if (splitAbsolute(simulatedPath, request.platform) === null) return request;
  const simulatedUri = pathToUri(simulatedPath, request.platform);
  const separatorOf = (platform: Platform) => (platform === 'win32' ? '\\' : '/');
  const hostPath = converted.path;
  let input = request.input;
  if (input === choice.uri || input.startsWith(`${choice.uri}/`)) input = simulatedUri + input.slice(choice.uri.length);
  else if (input === hostPath || input.startsWith(`${hostPath}${separatorOf(host)}`)) {
    input = simulatedPath + input.slice(hostPath.length).split(separatorOf(host)).join(separatorOf(request.platform));
  }
  return { ...request, root: simulatedUri, input, workspace: choice.uri };
}

/**
 * The spellings a trace for `platform` judges with: the simulated WSL distribution (Linux) or
 * mapped drives (Windows) when set, else this machine's own for its own platform, else none.
 */
export function spellingsFor(platform: Platform, simulated: SimulatedSpellings = NO_SIMULATED_SPELLINGS, host: Platform = hostPlatform()): Spellings {
  if (platform === 'linux' && simulated.wslDistribution !== '') return { wsl: { distro: simulated.wslDistribution } };
  if (platform === 'win32' && Object.keys(simulated.mappedDrives).length > 0) return { mappedDrives: simulated.mappedDrives };
  return platform === host ? readSpellings(host, process.env) : {};
}

/**
 * Traces a request from the panel. `roots` are the panel's root choices (their rights are the
 * server's grants); `serverPolicy` is the policy the server runs with, which decides how the
 * grants compare names; `secrets`, the settings of the server's secrets policy.
 */
export function traceRequest(
  request: TraceRequest,
  roots: readonly RootChoice[],
  serverPolicy: Policy,
  host: Platform = hostPlatform(),
  simulated?: SimulatedSpellings,
  secrets?: SecretSettings,
): Traced {
  const tool: ToolName = isToolName(request.tool) ? request.tool : DEFAULT_TOOL;
  const onHost = request.platform === host;
  const spellings = spellingsFor(request.platform, simulated, host);
  const prepared = prepareRoot(request.root, { platform: request.platform, policy: request.policy, spellings, ...(onHost ? { fs: nodeFileSystem } : {}) });
  // The server's secrets policy, from the settings the extension hands it.
  const root = secrets === undefined ? prepared : withSecretChoice(prepared, secretChoiceFromSettings(secrets), request.platform, host);
  const { followFinal, changes } = OPERATIONS[tool];
  const traced = traceAgainst(root, request.input, { followFinal, access: changes ? 'change' : 'read' });
  // Prepared only when needed: for a path outside (another workspace may hold it) or a change.
  let grants: RightsGrant[] | undefined;
  const granted = () => (grants ??= prepareGrants(roots, serverPolicy, host));
  const trace = onHost
    ? withNearMisses(traced, root, {
        fs: nodeFileSystem,
        otherWorkspaces: traced.verdict === 'outside' ? workspacesBeside(granted(), request.root) : [],
      })
    : traced;
  const workspace = request.workspace ?? trace.root;
  // The server answers for a granted workspace only: any other root is ERR_NOT_GRANTED first.
  const refusedRoot = trace.simulated ? notGrantedFolder(workspace, roots) : root.ok ? notGrantedPath(workspace, root.path, roots, granted) : null;
  return { trace, serverNote: refusedRoot ?? serverNote(trace, workspace, tool, roots, granted, host) };
}

function prepareGrants(roots: readonly RootChoice[], policy: Policy, host: Platform): RightsGrant[] {
  // The server never folds case where the filesystem does not: "insensitive" is the inspector's simulation.
  const serverPolicy: Policy = { ...policy, case: policy.case === 'insensitive' ? 'auto' : policy.case };
  const grants: RightsGrant[] = [];
  for (const choice of roots) {
    if (choice.rights === 'none') continue;
    const root = prepareRoot(choice.uri, { platform: host, policy: serverPolicy, fs: nodeFileSystem });
    if (root.ok) grants.push({ uri: choice.uri, rights: choice.rights, root });
  }
  return grants;
}

/** On this machine: a root the server would not find among its grants, compared as it compares them (by path, name by name). */
function notGrantedPath(workspace: string, rootPath: string, roots: readonly RootChoice[], granted: () => readonly RightsGrant[]): ServerNote | null {
  return granted().some((grant) => sameWorkspace(grant.root, rootPath)) ? null : notGrantedNote(workspace, roots);
}

/** Simulated for another platform: only a workspace folder of this window, not granted, can be told so. */
function notGrantedFolder(workspace: string, roots: readonly RootChoice[]): ServerNote | null {
  return roots.find((choice) => choice.uri === workspace)?.rights === 'none' ? notGrantedNote(workspace, roots) : null;
}

function notGrantedNote(workspace: string, roots: readonly RootChoice[]): ServerNote {
  const granted = roots.filter((choice) => choice.rights !== 'none').map((choice) => choice.uri);
  return {
    code: 'ERR_NOT_GRANTED',
    reason: `${workspace} is not a granted workspace (a folder inside a granted one is not a grant either), so the agent's server answers every call naming it with ERR_NOT_GRANTED before it looks at the path. `
      + (granted.length === 0 ? 'Nothing is granted now.' : `Granted: ${granted.join(', ')}.`),
  };
}

/** The server's rule for rights (src/shared/grants.ts), worded as the server words it. */
function serverNote(trace: Trace, workspace: string, tool: ToolName, roots: readonly RootChoice[], granted: () => readonly RightsGrant[], host: Platform): ServerNote | null {
  const operation = OPERATIONS[tool];
  if (!operation.changes || trace.verdict !== 'inside' || trace.path === null) return null;
  if (trace.simulated) {
    // Another platform's paths do not compare with this machine's grants: the named one decides.
    const named = roots.find((choice) => choice.uri === workspace);
    return named?.rights === 'read' ? readOnly(`${named.uri} is granted read-only; ${tool} changes files.`) : null;
  }
  const reason = readOnlyReason(granted(), host, tool, trace.path, operation.replaces);
  return reason === undefined ? null : readOnly(reason);
}

function readOnly(reason: string): ServerNote {
  return { code: 'ERR_READ_ONLY', reason };
}
