import * as vscode from 'vscode';
import type { ExtensionMessage, PanelState, RefusalEntry, ServerStatus } from '../shared/messages.js';
import type { WorkspaceAuditor } from './audit.js';
import { AUDIT_COMMAND, SHOW_FINDING_COMMAND, VIEW_TYPE } from './ids.js';
import { grantNoteText, ServerProvider, PROVIDER_ID, refusalLogPath } from './mcpProvider.js';
import type { PanelContext } from './panel.js';
import { checkServerSandbox, hostProtection, type CheckedSandbox } from './protection.js';
import { RefusalFeed } from './refusalFeed.js';
import { RefusalStatus } from './refusalStatus.js';
import { isServerOf, listProcesses, serverStatus, ServerWatch, type ServerCommand } from './serverProcess.js';
import { registerSidebar } from './sidebar.js';
import { readSettings } from './settings.js';

type PanelModule = typeof import('./panel.js');

/** How long a server the editor starts is looked for, so that a view shown meanwhile has its state. */
const STARTING_WATCH_MS = 10_000;

/** What the extension offers other extensions (and its tests). */
export interface BoundaryInspectorApi {
  /** The JSON-lines file the server appends each refusal to. */
  readonly refusalLogPath: string;
}

/**
 * Registers the server provider, the commands and the panel's serializer, and nothing more: no
 * filesystem is read until someone asks, and the panel and the audit (with the path pipeline
 * they use) load when first wanted, since the editor activates this at startup for the server.
 */
export function activate(context: vscode.ExtensionContext): BoundaryInspectorApi {
  let panelModule: PanelModule | undefined;
  const loadPanel = async (): Promise<PanelModule> => (panelModule ??= await import('./panel.js'));
  const showPanel = async (first?: ExtensionMessage) => {
    (await loadPanel()).InspectorPanel.createOrShow(panelContext, first);
  };

  let auditor: WorkspaceAuditor | undefined;
  const loadAuditor = async (): Promise<WorkspaceAuditor> => {
    const { WorkspaceAuditor } = await import('./audit.js');
    if (auditor === undefined) {
      auditor = new WorkspaceAuditor(() => void showPanel(), (kind) => findingDocs(context, kind));
      context.subscriptions.push(auditor, auditor.onDidChange(() => panelModule?.InspectorPanel.visible?.showAudits()));
    }
    return auditor;
  };

  let refreshSidebar = () => {};
  const provider = new ServerProvider(
    context.extensionUri,
    refusalLogPath(context),
    () => {
      panelModule?.InspectorPanel.visible?.refresh();
      refreshSidebar();
      serverWatch.check();
    },
    // The editor starts the server: looked for while it starts, whoever shows it.
    () => {
      const started = serverWatch.hold();
      setTimeout(() => started.dispose(), STARTING_WATCH_MS);
    },
  );
  context.subscriptions.push(provider, vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, provider));

  // The server checks its sandbox for the arguments it is given, once per set; the panel shows the answer when it comes.
  let checked: { readonly version: string; sandbox?: CheckedSandbox } | undefined;
  const checkedSandbox = (): CheckedSandbox | undefined => {
    const launch = provider.launch();
    if (launch.args.length === 0) return undefined;
    if (checked?.version !== launch.version) {
      const asked: { readonly version: string; sandbox?: CheckedSandbox } = { version: launch.version };
      checked = asked;
      void checkServerSandbox(process.execPath, provider.serverScript, launch.args).then((sandbox) => {
        if (sandbox === undefined || checked !== asked) return;
        asked.sandbox = sandbox;
        panelModule?.InspectorPanel.visible?.refresh();
        refreshSidebar();
      });
    }
    return checked.sandbox;
  };

  // Whether the agent's server runs: its process looked for while a view shows it (the editor's API does not say).
  const ownServers = new Set<number>();
  const serverWatch = new ServerWatch(
    async (): Promise<ServerStatus> => {
      const command: ServerCommand = { script: provider.serverScript, args: provider.launch().args, refusalLog: provider.refusalLog };
      // With nothing granted no server is offered: nothing to look for.
      const processes = command.args.length === 0 ? [] : await listProcesses((args) => isServerOf(command, args));
      return serverStatus(processes, command, ownServers);
    },
    (status) => {
      panelModule?.InspectorPanel.visible?.showServer(status);
      refreshSidebar();
    },
  );
  context.subscriptions.push({ dispose: () => serverWatch.stop() });
  const serverShown = { server: () => serverWatch.status, holdServer: () => new vscode.Disposable(serverWatch.hold().dispose) };

  // One watcher of the log for the panel, the sidebar and the status bar, made when first wanted.
  let feed: RefusalFeed | undefined;
  const refusals = (): RefusalFeed => {
    if (feed === undefined) {
      feed = new RefusalFeed(provider.refusalLog);
      context.subscriptions.push(feed);
    }
    return feed;
  };

  const panelContext: PanelContext = {
    extensionUri: context.extensionUri,
    logPath: provider.refusalLog,
    refusals,
    roots: () => provider.launch().roots,
    grantNote: () => grantNoteText(provider.launch().notes),
    settings: () => readSettings().policy,
    secrets: () => readSettings().secrets,
    simulatedRoots: () => readSettings().simulatedRoots,
    simulatedSpellings: () => readSettings().simulatedSpellings,
    audits: () => ({ audits: auditor?.audits ?? [], running: auditor?.isRunning ?? false }),
    // The panel shows the results itself: no notification to point at them.
    runAudit: () => void loadAuditor().then((loaded) => loaded.run(undefined, { quiet: true })),
    checkedSandbox,
    provider,
    ...serverShown,
    ownServers,
    // Loaded at a trace's first "Decided by": it takes the deciders' settings merge, which activation does not load.
    vscodeAgent: () => (require('./vscodeAgent.js') as typeof import('./vscodeAgent.js')).vscodeAgentContext(),
  };
  const rootOf = (uri: vscode.Uri) => vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() ?? null;
  const showRefusal = (entry: RefusalEntry) => showPanel({ type: 'loadRefusal', entry });

  // Just after activation, which waits for neither: the views, and the count (it reads the log).
  const views = setTimeout(() => {
    const sidebar = registerSidebar({
      feed: refusals(),
      roots: () => provider.launch().roots,
      grantNote: () => grantNoteText(provider.launch().notes),
      layers: () => hostProtection(checkedSandbox()),
      ...serverShown,
    });
    refreshSidebar = sidebar.refresh;
    context.subscriptions.push(sidebar.disposable, new RefusalStatus(refusals(), showRefusal));
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(views) });

  context.subscriptions.push(
    vscode.commands.registerCommand('boundaryInspector.openInspector', () => showPanel()),
    // An input given with the command (the walkthrough's link, the sidebar's folders) is traced as
    // it is, against the root given with it if any; otherwise ask.
    vscode.commands.registerCommand('boundaryInspector.inspectPath', async (given?: unknown, root?: unknown) => {
      const input =
        typeof given === 'string'
          ? given
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Inspect Path'),
              prompt: vscode.l10n.t('A URI or path to trace against the workspace'),
              placeHolder: vscode.l10n.t('file:///path/to/file, src/index.ts, C:\\path, \\\\host\\share'),
              ignoreFocusOut: true,
            });
      if (input === undefined) return;
      await showPanel({ type: 'inspect', input, root: typeof root === 'string' ? root : null });
    }),
    vscode.commands.registerCommand('boundaryInspector.inspectResource', async (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!target) {
        void vscode.commands.executeCommand('boundaryInspector.inspectPath');
        return;
      }
      // The URI exactly as VS Code spells it, file:///c%3A/... included.
      await showPanel({ type: 'inspect', input: target.toString(), root: rootOf(target) });
    }),
    vscode.commands.registerCommand('boundaryInspector.showRefusals', () => showPanel({ type: 'showSection', section: 'refusals' })),
    vscode.commands.registerCommand('boundaryInspector.showRefusal', (entry?: RefusalEntry) => (entry ? showRefusal(entry) : showPanel({ type: 'showSection', section: 'refusals' }))),
    vscode.commands.registerCommand('boundaryInspector.showProtection', () => showPanel({ type: 'showSection', section: 'protection' })),
    vscode.commands.registerCommand(AUDIT_COMMAND, async (target?: vscode.Uri) => (await loadAuditor()).run(target instanceof vscode.Uri ? target : undefined)),
    // A finding of the Problems panel (its code's link, its quick fix, a folder or link chosen there), traced as the panel's list traces it.
    vscode.commands.registerCommand(SHOW_FINDING_COMMAND, async (id?: unknown) => {
      const finding = typeof id === 'string' ? auditor?.finding(id) : undefined;
      if (finding === undefined) {
        void vscode.window.showInformationMessage(vscode.l10n.t('That finding is from an earlier audit: run Audit Workspace Boundaries again.'));
        return;
      }
      await showPanel({ type: 'loadFinding', root: finding.root, path: finding.path });
    }),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        (await loadPanel()).InspectorPanel.revive(panel, panelContext, (state as PanelState | undefined) ?? null);
      },
    }),
  );
  return { refusalLogPath: provider.refusalLog };
}

/** docs/findings.md on the project's site, at the kind's heading. */
function findingDocs(context: vscode.ExtensionContext, kind: string): vscode.Uri {
  const repository = (context.extension.packageJSON as { repository?: { url?: string } }).repository?.url ?? '';
  const base = repository.replace(/^git\+/, '').replace(/\.git$/, '');
  return vscode.Uri.parse(`${base}/blob/main/docs/findings.md#${kind}`);
}

export function deactivate(): void {}
