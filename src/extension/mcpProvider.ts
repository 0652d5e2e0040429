import * as path from 'node:path';
import * as vscode from 'vscode';
import { serverLaunch, type Folder, type ServerLaunch } from './grants.js';
import { readSettings, SECTION } from './settings.js';

export const PROVIDER_ID = 'boundaryInspector.server';
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

  launch(): ServerLaunch {
    return serverLaunch(currentFolders(), vscode.workspace.isTrusted, readSettings(), this.refusalLog);
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const launch = this.launch();
    if (launch.args.length === 0) return [];
    const server = vscode.Uri.joinPath(this.extensionUri, 'dist', 'server.js').fsPath;
    return [
      new vscode.McpStdioServerDefinition(SERVER_LABEL, process.execPath, [server, ...launch.args], { ELECTRON_RUN_AS_NODE: '1' }, launch.version),
    ];
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** In the workspace's storage (the global one with no folder open), so the history outlives a reload. */
export function refusalLogPath(context: vscode.ExtensionContext): string {
  return path.join((context.storageUri ?? context.globalStorageUri).fsPath, 'refusals.jsonl');
}
