import * as path from 'node:path';
import * as vscode from 'vscode';
import { assertNever } from '../shared/messages.js';
import { serverLaunch, type Folder, type GrantNote, type ServerLaunch } from './grants.js';
import { readSettings, SECTION } from './settings.js';

export const PROVIDER_ID = 'boundaryInspector.server';
// Not translated: the editor names the agent's tools after it (mcp_<label>_<tool>).
export const SERVER_LABEL = 'Boundary Inspector';

export function currentFolders(): Folder[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => ({
    name: folder.name,
    uri: folder.uri.toString(),
    scheme: folder.uri.scheme,
    fsPath: folder.uri.fsPath,
  }));
}

/**
 * Provides the bundled server to the editor's agent: one stdio definition whose arguments name
 * each trusted workspace folder explicitly. The editor's own Node (`process.execPath` with
 * ELECTRON_RUN_AS_NODE) runs it, so desktop and remote hosts both work.
 */
export class ServerProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly extensionUri: vscode.Uri,
    readonly refusalLog: string,
    private readonly onLaunchChanged: () => void,
    /** The editor is starting the server (it resolves a definition only then). */
    private readonly onStarting: () => void,
  ) {
    const fire = () => {
      this.changed.fire();
      this.onLaunchChanged();
    };
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(fire),
      vscode.workspace.onDidGrantWorkspaceTrust(fire),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SECTION)) fire();
      }),
    );
  }

  /** The bundled server the editor starts, and the inspector asks to check its sandbox. */
  get serverScript(): string {
    return vscode.Uri.joinPath(this.extensionUri, 'dist', 'server.js').fsPath;
  }

  launch(): ServerLaunch {
    return serverLaunch(currentFolders(), vscode.workspace.isTrusted, readSettings(), this.refusalLog);
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const launch = this.launch();
    if (launch.args.length === 0) return [];
    return [
      new vscode.McpStdioServerDefinition(SERVER_LABEL, process.execPath, [this.serverScript, ...launch.args], { ELECTRON_RUN_AS_NODE: '1' }, launch.version),
    ];
  }

  resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): vscode.McpStdioServerDefinition {
    this.onStarting();
    return server;
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** The panel's note on what is not granted, in the display language; null when every folder is granted. */
export function grantNoteText(notes: readonly GrantNote[]): string | null {
  if (notes.length === 0) return null;
  return notes
    .map((note) => {
      switch (note.kind) {
        case 'untrusted':
          return vscode.l10n.t('This workspace is not trusted, so no folder is granted to the agent. Trust the workspace (Workspaces: Manage Workspace Trust) to grant its folders.');
        case 'no-folder':
          return vscode.l10n.t('No folder is open, so nothing is granted to the agent.');
        case 'not-local':
          return vscode.l10n.t("Not granted (not on this machine's filesystem): {0}.", note.folders.join(', '));
        case 'case-simulated':
          return vscode.l10n.t('The case setting "insensitive" is simulated in the inspector only; the agent\'s server asks the filesystem (auto).');
        default:
          return assertNever(note);
      }
    })
    .join(' ');
}

/** In the workspace's storage (the global one with no folder open), so the history outlives a reload. */
export function refusalLogPath(context: vscode.ExtensionContext): string {
  return path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'refusals.jsonl');
}
