import * as vscode from 'vscode';
import { visible } from '../core/index.js';
import { NOT_GUARDED } from '../shared/layers.js';
import type { ProtectionLayer, RefusalEntry, RootChoice, ServerStatus } from '../shared/messages.js';
import { LIST_SERVERS_COMMAND } from './ids.js';
import type { RefusalFeed } from './refusalFeed.js';

/** Refusals the sidebar lists; the inspector lists more. */
const LISTED_REFUSALS = 30;

/** What the sidebar shows, from the rest of the extension. */
export interface SidebarSource {
  readonly feed: RefusalFeed;
  roots(): readonly RootChoice[];
  grantNote(): string | null;
  layers(): readonly ProtectionLayer[];
  /** Whether the agent's server runs, looked for while `holdServer`'s handle is held. */
  server(): ServerStatus;
  holdServer(): vscode.Disposable;
}

type Node =
  | { readonly kind: 'heading'; readonly label: string; readonly children: readonly Node[] }
  | { readonly kind: 'server'; readonly server: ServerStatus }
  | { readonly kind: 'unguarded'; readonly text: string }
  | { readonly kind: 'root'; readonly root: RootChoice }
  | { readonly kind: 'note'; readonly text: string }
  | { readonly kind: 'layer'; readonly layer: ProtectionLayer }
  | { readonly kind: 'refusal'; readonly entry: RefusalEntry }
  | { readonly kind: 'empty'; readonly text: string };

function rightsLabel(rights: RootChoice['rights']): string {
  switch (rights) {
    case 'read-write':
      return vscode.l10n.t('read-write');
    case 'read':
      return vscode.l10n.t('read-only');
    default:
      return vscode.l10n.t('not granted');
  }
}

/** The agent's server: what it is granted and what protects the boundary on this host. */
class ServerTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly source: SidebarSource) {}

  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: Node): Node[] {
    if (node?.kind === 'heading') return [...node.children];
    if (node !== undefined) return [];
    const note = this.source.grantNote();
    const roots: Node[] = this.source.roots().map((root) => ({ kind: 'root', root }));
    return [
      { kind: 'server', server: this.source.server() },
      { kind: 'heading', label: vscode.l10n.t('Granted to the agent'), children: note === null ? roots : [{ kind: 'note', text: note }, ...roots] },
      { kind: 'heading', label: vscode.l10n.t('Protection on this host'), children: this.source.layers().map((layer) => ({ kind: 'layer', layer })) },
      // Said beside the layers, so that "active" is never read as "the agent is confined".
      { kind: 'heading', label: vscode.l10n.t('Not guarded by these layers'), children: NOT_GUARDED.map((text) => ({ kind: 'unguarded', text })) },
    ];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'heading': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.contextValue = 'heading';
        return item;
      }
      case 'root': {
        const item = new vscode.TreeItem(node.root.label);
        item.description = rightsLabel(node.root.rights);
        item.tooltip = `${node.root.uri}\n${rightsLabel(node.root.rights)}`;
        item.iconPath = new vscode.ThemeIcon(node.root.rights === 'none' ? 'circle-slash' : node.root.rights === 'read' ? 'lock' : 'folder');
        item.command = { title: vscode.l10n.t('Open Inspector'), command: 'boundaryInspector.inspectPath', arguments: ['.', node.root.uri] };
        return item;
      }
      case 'server':
        return serverItem(node.server);
      case 'unguarded': {
        const item = new vscode.TreeItem(node.text);
        item.tooltip = vscode.l10n.t("These go around the server, so none of its layers applies to them: {0}.", node.text);
        item.iconPath = new vscode.ThemeIcon('circle-slash');
        return item;
      }
      case 'layer': {
        const item = new vscode.TreeItem(node.layer.name);
        // A layer guards the server's calls: with no server running, none is guarded yet.
        const idle = this.source.server().kind === 'stopped' || this.source.server().kind === 'none';
        item.description = !node.layer.active ? vscode.l10n.t('not active') : idle ? vscode.l10n.t('ready') : vscode.l10n.t('active');
        item.tooltip = idle && node.layer.active ? vscode.l10n.t('{0}\n\nReady: active once the server runs.', node.layer.detail) : node.layer.detail;
        item.iconPath = new vscode.ThemeIcon(!node.layer.active ? 'warning' : idle ? 'circle-large-outline' : 'pass');
        item.command = { title: vscode.l10n.t('Show the Grants and Protection'), command: 'boundaryInspector.showProtection' };
        return item;
      }
      case 'note':
      case 'empty': {
        const item = new vscode.TreeItem(node.text);
        item.tooltip = node.text;
        item.iconPath = new vscode.ThemeIcon('info');
        return item;
      }
      case 'refusal':
        return refusalItem(node.entry);
    }
  }
}

/** The agent's server: running or not, and with which grants; choosing it shows the editor's list of servers. */
function serverItem(server: ServerStatus): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Server'));
  switch (server.kind) {
    case 'running':
      item.description = server.current
        ? server.sandbox === null
          ? vscode.l10n.t('running (process {0})', server.pid)
          : vscode.l10n.t('running in {0} (process {1})', server.sandbox, server.pid)
        : vscode.l10n.t('running with earlier grants or settings: restart it (process {0})', server.pid);
      item.iconPath = new vscode.ThemeIcon(server.current ? 'vm-running' : 'warning');
      break;
    case 'stopped':
      item.description = vscode.l10n.t("not running: the editor starts it at the agent's first call");
      item.iconPath = new vscode.ThemeIcon('vm-outline');
      break;
    case 'none':
      item.description = vscode.l10n.t('not offered: nothing is granted');
      item.iconPath = new vscode.ThemeIcon('vm-outline');
      break;
    case 'unknown':
      item.description = vscode.l10n.t('not known here: MCP: List Servers shows it');
      item.iconPath = new vscode.ThemeIcon('question');
      break;
  }
  item.tooltip = vscode.l10n.t('The agent\'s server: {0}. MCP: List Servers starts, stops and restarts it.', String(item.description));
  item.command = { title: vscode.l10n.t('MCP: List Servers'), command: LIST_SERVERS_COMMAND };
  return item;
}

/** The last name of a path or URI (what a narrow row has room for), or the whole input when it has none. */
function lastName(input: string): string {
  const trimmed = input.replace(/[/\\]+$/, '');
  const name = trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
  return name === '' ? input : name;
}

/**
 * A refusal in a row as narrow as the side bar: what was refused and where first (its code and
 * the path's last name), the tool and the whole input after them, everything in the tooltip.
 */
function refusalItem(entry: RefusalEntry): vscode.TreeItem {
  const notFound = entry.event === 'not-found';
  const what = notFound ? vscode.l10n.t('not found') : entry.code;
  const item = new vscode.TreeItem(`${what} ${entry.input === '' ? vscode.l10n.t('(empty input)') : visible(lastName(entry.input), { shorten: true })}`);
  item.description = `${entry.tool} · ${visible(entry.input, { shorten: true })}`;
  const time = new Date(entry.time);
  const when = Number.isNaN(time.getTime()) ? entry.time : time.toLocaleString();
  item.tooltip = new vscode.MarkdownString().appendText(`${entry.tool} ${what}${notFound ? '' : ` at ${entry.stage}`} · ${when}\n${visible(entry.input)}\n${visible(entry.reason)}`);
  item.iconPath = new vscode.ThemeIcon(notFound ? 'question' : 'error');
  item.command = { title: vscode.l10n.t('Trace in the Inspector'), command: 'boundaryInspector.showRefusal', arguments: [entry] };
  return item;
}

/** The newest refusals and not-found paths from the server's log, followed while the view is shown. */
class RefusalsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private listening: vscode.Disposable | undefined;
  private entries: readonly RefusalEntry[] = [];

  constructor(private readonly feed: RefusalFeed) {}

  /** Redrawn only while someone looks. */
  setVisible(visible: boolean): void {
    if (visible && this.listening === undefined) {
      this.listening = this.feed.onDidChange((entries) => this.show(entries));
      this.show(this.feed.entries);
    } else if (!visible && this.listening !== undefined) {
      this.listening.dispose();
      this.listening = undefined;
    }
  }

  private show(entries: readonly RefusalEntry[]): void {
    this.entries = entries.slice(0, LISTED_REFUSALS);
    this.changed.fire();
  }

  getChildren(node?: Node): Node[] {
    if (node !== undefined) return [];
    if (this.entries.length === 0) return [{ kind: 'empty', text: vscode.l10n.t('No refusals yet: a refused call of the agent, or one that names a path with nothing there, appears here.') }];
    return this.entries.map((entry) => ({ kind: 'refusal', entry }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'refusal') return refusalItem(node.entry);
    const item = new vscode.TreeItem(node.kind === 'empty' || node.kind === 'note' ? node.text : '');
    item.iconPath = new vscode.ThemeIcon('info');
    return item;
  }

  dispose(): void {
    this.listening?.dispose();
    this.changed.dispose();
  }
}

export const SERVER_VIEW = 'boundaryInspector.server';
export const REFUSALS_VIEW = 'boundaryInspector.refusals';

/** The sidebar's two views; nothing is read until one is shown. */
export function registerSidebar(source: SidebarSource): { readonly refresh: () => void; readonly disposable: vscode.Disposable } {
  const server = new ServerTree(source);
  const refusals = new RefusalsTree(source.feed);
  const serverView = vscode.window.createTreeView(SERVER_VIEW, { treeDataProvider: server, showCollapseAll: false });
  const refusalsView = vscode.window.createTreeView(REFUSALS_VIEW, { treeDataProvider: refusals });
  const watching = refusalsView.onDidChangeVisibility(({ visible }) => refusals.setVisible(visible));
  refusals.setVisible(refusalsView.visible);
  // The server's process is looked for while its view is shown.
  let held: vscode.Disposable | undefined;
  const holdWhileShown = (visible: boolean) => {
    if (visible) held ??= source.holdServer();
    else {
      held?.dispose();
      held = undefined;
    }
  };
  const shown = serverView.onDidChangeVisibility(({ visible }) => holdWhileShown(visible));
  holdWhileShown(serverView.visible);
  return {
    refresh: () => server.refresh(),
    disposable: vscode.Disposable.from(serverView, refusalsView, watching, refusals, shown, { dispose: () => holdWhileShown(false) }),
  };
}
