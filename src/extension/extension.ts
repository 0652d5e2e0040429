import * as vscode from 'vscode';
import type { ExtensionMessage, PanelState } from '../shared/messages.js';
import type { WorkspaceAuditor } from './audit.js';
import { AUDIT_COMMAND, VIEW_TYPE } from './ids.js';
import { grantNoteText, ServerProvider, PROVIDER_ID, refusalLogPath } from './mcpProvider.js';
import type { PanelContext } from './panel.js';
import { checkServerSandbox, type CheckedSandbox } from './protection.js';
import { readSettings } from './settings.js';

type PanelModule = typeof import('./panel.js');

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
      auditor = new WorkspaceAuditor(() => void showPanel());
      context.subscriptions.push(auditor, auditor.onDidChange(() => panelModule?.InspectorPanel.visible?.showAudits()));
    }
    return auditor;
  };

  const provider = new ServerProvider(context.extensionUri, refusalLogPath(context), () => panelModule?.InspectorPanel.visible?.refresh());
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
      });
    }
    return checked.sandbox;
  };

  const panelContext: PanelContext = {
    extensionUri: context.extensionUri,
    logPath: provider.refusalLog,
    roots: () => provider.launch().roots,
    grantNote: () => grantNoteText(provider.launch().notes),
    settings: () => readSettings().policy,
    audits: () => ({ audits: auditor?.audits ?? [], running: auditor?.isRunning ?? false }),
    // The panel shows the results itself: no notification to point at them.
    runAudit: () => void loadAuditor().then((loaded) => loaded.run(undefined, { quiet: true })),
    checkedSandbox,
  };
  const rootOf = (uri: vscode.Uri) => vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() ?? null;

  context.subscriptions.push(
    vscode.commands.registerCommand('boundaryInspector.openInspector', () => showPanel()),
    // An input given with the command (the walkthrough's link) is traced as it is; otherwise ask.
    vscode.commands.registerCommand('boundaryInspector.inspectPath', async (given?: unknown) => {
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
      await showPanel({ type: 'inspect', input, root: null });
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
    vscode.commands.registerCommand('boundaryInspector.showRefusals', () => showPanel({ type: 'showRefusals' })),
    vscode.commands.registerCommand(AUDIT_COMMAND, async (target?: vscode.Uri) => (await loadAuditor()).run(target instanceof vscode.Uri ? target : undefined)),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        (await loadPanel()).InspectorPanel.revive(panel, panelContext, (state as PanelState | undefined) ?? null);
      },
    }),
  );
  return { refusalLogPath: provider.refusalLog };
}

export function deactivate(): void {}
