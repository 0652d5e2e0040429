import * as vscode from 'vscode';
import type { PanelState } from '../shared/messages.js';
import { ServerProvider, PROVIDER_ID, refusalLogPath } from './mcpProvider.js';
import { InspectorPanel, VIEW_TYPE, type PanelContext } from './panel.js';
import { readSettings } from './settings.js';

/** What the extension offers other extensions (and its tests). */
export interface BoundaryInspectorApi {
  /** The JSON-lines file the server appends each refusal to. */
  readonly refusalLogPath: string;
}

/**
 * Registers the server provider, the commands and the panel's serializer, and nothing more: no
 * filesystem is read until someone asks.
 */
export function activate(context: vscode.ExtensionContext): BoundaryInspectorApi {
  const provider = new ServerProvider(context.extensionUri, refusalLogPath(context), () => InspectorPanel.visible?.refresh());
  context.subscriptions.push(provider, vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, provider));

  const panelContext: PanelContext = {
    extensionUri: context.extensionUri,
    logPath: provider.refusalLog,
    roots: () => provider.launch().roots,
    grantNote: () => provider.launch().note,
    settings: () => readSettings().policy,
  };
  const rootOf = (uri: vscode.Uri) => vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() ?? null;

  context.subscriptions.push(
    vscode.commands.registerCommand('boundaryInspector.openInspector', () => {
      InspectorPanel.createOrShow(panelContext);
    }),
    vscode.commands.registerCommand('boundaryInspector.inspectPath', async () => {
      const input = await vscode.window.showInputBox({
        title: 'Inspect Path',
        prompt: 'A URI or path to trace against the workspace',
        placeHolder: 'file:///path/to/file, src/index.ts, C:\\path, \\\\host\\share',
        ignoreFocusOut: true,
      });
      if (input === undefined) return;
      InspectorPanel.createOrShow(panelContext, { type: 'inspect', input, root: null });
    }),
    vscode.commands.registerCommand('boundaryInspector.inspectResource', (uri?: vscode.Uri) => {
      const target = uri ?? vscode.window.activeTextEditor?.document.uri;
      if (!target) {
        void vscode.commands.executeCommand('boundaryInspector.inspectPath');
        return;
      }
      // The URI exactly as VS Code spells it, file:///c%3A/... included.
      InspectorPanel.createOrShow(panelContext, { type: 'inspect', input: target.toString(), root: rootOf(target) });
    }),
    vscode.commands.registerCommand('boundaryInspector.showRefusals', () => {
      InspectorPanel.createOrShow(panelContext, { type: 'showRefusals' });
    }),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        InspectorPanel.revive(panel, panelContext, (state as PanelState | undefined) ?? null);
      },
    }),
  );
  return { refusalLogPath: provider.refusalLog };
}

export function deactivate(): void {}
