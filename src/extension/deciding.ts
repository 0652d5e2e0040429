/**
 * "Decided by": the inspector's input judged as another program decides it, and as every program
 * does, side by side. The extension runs the deciders, never the webview, with this machine's
 * configuration as `trace --as` and `compare` read it: the real disk, the home folder, the root's
 * folder as the working folder (and as the reference server's allowed directory); a simulated
 * platform reads nothing of this disk. No `vscode` here, so this is tested without an editor.
 */
import * as fs from 'node:fs';
import { rootToPath, type Platform, type Policy, type SecretSettings } from '../core/index.js';
import { DECIDERS, NO_DISK, ownTool, registeredDeciders, ruleOf, type Decider, type DeciderContext, type DeciderVerdict, type VsCodeContext } from '../deciders/index.js';
import { hostPlatform, nodeDeciderFileSystem } from '../host/node.js';
import type { ComparedRow, DeciderChoice, RootChoice, ServerNote, ShownVerdict, Trace, TraceRequest } from '../shared/messages.js';
import { DEFAULT_TOOL, isToolName, type ToolName } from '../shared/operations.js';
import type { SimulatedSpellings } from '../shared/simulatedRoots.js';
import { traceRequest } from './tracing.js';

/** What the deciders read besides the disk: this machine's, as the extension finds it. */
export interface DeciderSetup {
  /** Where user settings are read, and what `~` means. */
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** VS Code's workspace folders and `chat.tools.edits.autoApprove`, for vscode-agent: read through the editor's API by the caller. */
  readonly vscode?: () => VsCodeContext;
  /** The WSL distribution and mapped drives the inspector simulates. */
  readonly spellings?: SimulatedSpellings;
  /** The settings of this server's secrets policy, for its trace and its row. */
  readonly secrets?: SecretSettings;
}

/** "Decided by"'s choices: every program modelled, this server first. */
export function deciderChoices(): DeciderChoice[] {
  return registeredDeciders().map(({ name, program, version, tools }) => ({ name, program, version, tools }));
}

/** The context of a request: the root's folder is where the agents start and what the reference server is given. */
export function deciderContextFor(request: TraceRequest, setup: DeciderSetup, host: Platform = hostPlatform()): DeciderContext {
  const simulated = request.platform !== host;
  const converted = rootToPath(request.root, { platform: request.platform, policy: request.policy });
  const cwd = converted.ok ? converted.path : request.root;
  return {
    platform: request.platform,
    fs: simulated ? NO_DISK : nodeDeciderFileSystem,
    ...(simulated ? { simulated } : {}),
    home: setup.home,
    cwd,
    addDirs: [],
    allowed: [cwd],
    root: request.root,
    policy: request.policy,
    env: setup.env,
    // Another platform's decision reads nothing of this window: vscode-agent takes its defaults there.
    ...(setup.vscode !== undefined && !simulated ? { vscode: setup.vscode() } : {}),
  };
}

/** This server's row: its trace, and what its grants refuse besides (the panel's banner says the same). */
function serverRow(trace: Trace, serverNote: ServerNote | null, tool: ToolName, root: string): ComparedRow {
  const rule = serverNote === null ? ruleOf(trace, root) : { text: `${serverNote.code}: ${serverNote.reason}` };
  return { decider: 'boundary-inspector', tool, decision: trace.verdict === 'inside' && serverNote === null ? 'allow' : 'deny', rule };
}

/** Every file a verdict names: where its rules came from, its fixes' files, the configuration files it looked for. */
export function namedFiles(verdict: DeciderVerdict): string[] {
  const files = [
    verdict.rule.source?.file,
    ...verdict.stages.map((stage) => stage.source?.file),
    ...verdict.fixes.map((fix) => fix.file),
    ...verdict.configFiles.map((file) => file.path),
  ];
  return [...new Set(files.filter((file): file is string => file !== undefined))];
}

export type Judged =
  | { readonly kind: 'trace'; readonly trace: Trace; readonly serverNote: ServerNote | null; readonly compared: readonly ComparedRow[] }
  | { readonly kind: 'decided'; readonly verdict: ShownVerdict | { readonly error: string }; readonly compared: readonly ComparedRow[] };

/**
 * A request judged by the program it names (this server when it names none), and by every
 * program side by side, each as its own tool for the same access. `roots` and `serverPolicy`
 * are what this server's row needs to say what its grants refuse.
 */
export function judgeRequest(request: TraceRequest, roots: readonly RootChoice[], serverPolicy: Policy, setup: DeciderSetup, host: Platform = hostPlatform()): Judged {
  const server = DECIDERS['boundary-inspector']!;
  const toolOf = (decider: Decider) => ownTool(decider, request.tool) ?? decider.tools.read[0]!;
  const serverTool = toolOf(server);
  const { trace, serverNote } = traceRequest({ ...request, tool: isToolName(serverTool) ? serverTool : DEFAULT_TOOL }, roots, serverPolicy, host, setup.spellings, setup.secrets);
  const context = deciderContextFor(request, setup, host);
  const verdicts = new Map<string, DeciderVerdict>();
  const compared = registeredDeciders().map((decider): ComparedRow => {
    const tool = toolOf(decider);
    if (decider === server) return serverRow(trace, serverNote, tool as ToolName, request.root);
    try {
      const verdict = decider.decide(request.input, tool, context);
      verdicts.set(decider.name, verdict);
      return { decider: decider.name, tool: verdict.tool, decision: verdict.decision, rule: verdict.rule };
    } catch (error) {
      // One model failing leaves the others' answers standing.
      return { decider: decider.name, tool, error: (error as Error).message };
    }
  });
  const chosen = request.decider === undefined || request.decider === 'boundary-inspector' ? undefined : request.decider;
  if (chosen === undefined) return { kind: 'trace', trace, serverNote, compared };
  const verdict = verdicts.get(chosen);
  if (verdict === undefined) {
    const failed = compared.find((row) => row.decider === chosen);
    return { kind: 'decided', verdict: { error: failed !== undefined && 'error' in failed ? failed.error : `${chosen} is not modelled here` }, compared };
  }
  const simulated = context.simulated === true;
  const present = simulated ? [] : namedFiles(verdict).filter((file) => fs.existsSync(file));
  return { kind: 'decided', verdict: { ...verdict, present, cwd: context.cwd, simulated }, compared };
}
