// The two checks GitHub Copilot Chat (bundled with VS Code 1.139.1) makes before its file tools
// act: read_file's "is this file external" (isFileExternalAndNeedsConfirmation), and the edit
// tools' confirmation (createEditConfirmation), which also matches the sensitive-file globs.
import type { Platform } from '../../core/index.js';
import { nodePath, nodeRealpath } from '../shared/node.js';
import type { DeciderFileSystem, RuleSource, VsCodeContext } from '../types.js';
import { globMatches, relativeGlobMatches } from './glob.js';
import { folderOf, fsPathOf, isEqualOrParent, normalized, realPathOf, unsafePath } from './paths.js';

/** The edit tools' globs that no setting lifts, matched after `chat.tools.edits.autoApprove`. */
export const ALWAYS_ASK: readonly string[] = ['**/.mcp.json', '**/.npmrc', '**/.vscode/*.json', '**/.github/agents/**', '**/.claude/agents/**'];
const ALWAYS_ASK_SOURCE: RuleSource = { text: "GitHub Copilot Chat's own list, matched after the setting: its entries always ask" };

export interface Setup {
  readonly platform: Platform;
  readonly fs: DeciderFileSystem;
  readonly simulated: boolean;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly vscode: VsCodeContext;
}

const samePath = (a: string, b: string, platform: Platform) => (platform === 'linux' ? a === b : a.toLowerCase() === b.toLowerCase());

export type ReadOutcome =
  | { readonly kind: 'inside'; readonly folder: string; readonly real?: string }
  | { readonly kind: 'link out'; readonly folder: string; readonly real: string }
  | { readonly kind: 'read access'; readonly source: RuleSource }
  | { readonly kind: 'missing' }
  | { readonly kind: 'outside' };

/** read_file: a path in a workspace folder reads unless a link takes it out; outside it asks, unless an added read path holds it. */
export function readCheck(path: string, setup: Setup): ReadOutcome {
  const { platform, fs, vscode } = setup;
  const folders = vscode.workspaceFolders;
  const folder = folderOf(path, folders, platform);
  if (folder !== undefined) {
    if (setup.simulated) return { kind: 'inside', folder };
    const real = realPathOf(fs, path, platform, folder);
    if (samePath(real, path, platform)) return { kind: 'inside', folder };
    const realFolder = nodeRealpath(fs, folder, platform);
    const inside = isEqualOrParent(real, realFolder.ok ? fsPathOf(realFolder.path, platform) : folder, platform) || folderOf(real, folders, platform) !== undefined;
    return inside ? { kind: 'inside', folder, real } : { kind: 'link out', folder, real };
  }
  const granted = (vscode.readAccessPaths ?? []).find((entry) => isEqualOrParent(path, normalized(entry.path, platform), platform));
  if (granted) return { kind: 'read access', source: granted.source };
  if (!setup.simulated && !nodeRealpath(fs, path, platform).ok) return { kind: 'missing' };
  return { kind: 'outside' };
}

/** Why an edit asks, in the tools' own order of gravity: the highest of the path's and its real path's. */
export type EditReason = 'approved' | 'sensitive' | 'system' | 'outside';
const GRAVITY: Readonly<Record<EditReason, number>> = { approved: 0, sensitive: 2, system: 3, outside: 4 };

export interface GlobEntry {
  readonly glob: string;
  readonly approve: boolean;
  readonly source: RuleSource;
  /** Which list it came from: the setting (with its default), the tools' own, or a hook file location. */
  readonly list: 'setting' | 'always' | 'hook';
}

export interface EditJudged {
  readonly path: string;
  readonly reason: EditReason;
  readonly folder?: string;
  /** The globs that matched, in order; the last decided. */
  readonly matched: readonly GlobEntry[];
  /** The system folder or pattern that held the path. */
  readonly system?: string;
}

export type EditOutcome = { readonly kind: 'error'; readonly error: string; readonly path: string } | { readonly kind: 'judged'; readonly judged: readonly EditJudged[]; readonly worst: EditJudged };

/** The glob list the edit tools match, in their order: the setting merged with its default, their own, then the hook file locations. */
export function editGlobs(vscode: VsCodeContext): GlobEntry[] {
  const hooks: GlobEntry[] = [];
  for (const { location, source } of vscode.hookFiles ?? []) {
    if (location.startsWith('~/')) continue;
    const glob = location.startsWith('**/') || location.startsWith('/') ? location : `**/${location}`;
    hooks.push({ glob, approve: false, source, list: 'hook' });
    // A location whose last name has no dot is a folder: the JSON files in it too.
    if (!(glob.split('/').pop() ?? '').includes('.')) hooks.push({ glob: glob.endsWith('/') ? `${glob}*.json` : `${glob}/*.json`, approve: false, source, list: 'hook' });
  }
  return [
    ...vscode.autoApprove.map((entry) => ({ ...entry, list: 'setting' as const })),
    ...ALWAYS_ASK.map((glob) => ({ glob, approve: false, source: ALWAYS_ASK_SOURCE, list: 'always' as const })),
    ...hooks,
  ];
}

/** The folders an edit always asks for, whatever the globs: home dotfiles, and the system's settings folders. */
function systemHolder(path: string, folder: string, setup: Setup): string | undefined {
  const { platform, home, env } = setup;
  const dotfiles = [`${home}/.*`, `${home}/.*/**`].find((pattern) => globMatches(pattern, path));
  if (dotfiles !== undefined) return dotfiles;
  const folders = platform === 'win32' ? [env.APPDATA, env.LOCALAPPDATA] : platform === 'darwin' ? [nodePath(platform).join(home, 'Library')] : [];
  return folders.find((system): system is string => system !== undefined && system !== '' && isEqualOrParent(path, fsPathOf(system, platform), platform) && !isEqualOrParent(folder, fsPathOf(system, platform), platform));
}

function judgeOne(path: string, globs: readonly GlobEntry[], setup: Setup): EditJudged {
  const { platform } = setup;
  const folder = folderOf(path, setup.vscode.workspaceFolders, platform);
  if (folder === undefined) return { path, reason: 'outside', matched: [] };
  const system = systemHolder(path, folder, setup);
  if (system !== undefined) return { path, reason: 'system', folder, matched: [], system };
  const ignoreCase = platform !== 'linux';
  const subject = ignoreCase ? path.toLowerCase() : path;
  const matched = globs.filter((entry) => relativeGlobMatches(folder, ignoreCase ? entry.glob.toLowerCase() : entry.glob, subject, platform));
  const approved = matched.at(-1)?.approve ?? true;
  return { path, reason: approved ? 'approved' : 'sensitive', folder, matched };
}

/** The edit tools' confirmation for one file: its path and, where it differs, its real path, each judged; the gravest decides. */
export function editCheck(path: string, setup: Setup): EditOutcome {
  const unsafe = unsafePath(path, setup.platform);
  if (unsafe !== undefined) return { kind: 'error', error: unsafe, path };
  const paths = [path];
  if (!setup.simulated) {
    const real = realPathOf(setup.fs, path, setup.platform);
    const realUnsafe = unsafePath(real, setup.platform);
    if (realUnsafe !== undefined) return { kind: 'error', error: realUnsafe, path: real };
    if (!samePath(real, path, setup.platform)) paths.push(real);
  }
  const globs = editGlobs(setup.vscode);
  const judged = paths.map((each) => judgeOne(each, globs, setup));
  const worst = judged.reduce((a, b) => (GRAVITY[b.reason] > GRAVITY[a.reason] ? b : a));
  return { kind: 'judged', judged, worst };
}

export type Approval = { readonly asks: false; readonly source: RuleSource; readonly why: string } | { readonly asks: true; readonly source?: RuleSource; readonly why: string };

/** The tool's identity as the workbench names it: its id, and the names `chat.tools.eligibleForAutoApproval` may use. */
export interface ToolIdentity {
  readonly id: string;
  readonly eligibilityKeys: readonly string[];
}

/**
 * The workbench's answer to a tool that asks (shouldAutoConfirm): a chat in the Bypass Approvals
 * or Autopilot level answers yes; a tool made ineligible always asks; then global auto approve.
 */
export function autoApproval(tool: ToolIdentity, vscode: VsCodeContext): Approval {
  const level = vscode.permissionsDefault;
  if (level !== undefined && (level.value === 'autoApprove' || level.value === 'autopilot')) {
    return { asks: false, source: level.source, why: `chat.permissions.default is "${level.value}": a new chat starts at a level that approves every tool's question` };
  }
  const eligible = tool.eligibilityKeys.map((key) => vscode.eligibleForAutoApproval?.find((entry) => entry.tool === key)).find((entry) => entry !== undefined);
  if (eligible !== undefined && !eligible.eligible) return { asks: true, source: eligible.source, why: `chat.tools.eligibleForAutoApproval sets ${eligible.tool} to false: it always asks` };
  const global = vscode.globalAutoApprove;
  if (global !== undefined && (global.value === true || (typeof global.value === 'object' && global.value[tool.id] === true))) {
    return { asks: false, source: global.source, why: 'chat.tools.global.autoApprove approves the question (once its warning has been accepted on this machine)' };
  }
  return { asks: true, why: 'nothing approves the question: the person is asked' };
}
