import * as vscode from 'vscode';
import { visible } from '../core/index.js';
import type { ProtectionLayer, RefusalEntry, RootChoice } from '../shared/messages.js';
import type { RefusalFeed } from './refusalFeed.js';

/** Refusals the sidebar lists; the inspector lists more. */
const LISTED_REFUSALS = 30;

/** What the sidebar shows, from the rest of the extension. */
export interface SidebarSource {
  readonly feed: RefusalFeed;
  roots(): readonly RootChoice[];
  grantNote(): string | null;
  layers(): readonly ProtectionLayer[];
}

type Node =
  | { readonly kind: 'heading'; readonly label: string; readonly children: readonly Node[] }
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
      { kind: 'heading', label: vscode.l10n.t('Granted to the agent'), children: note === null ? roots : [{ kind: 'note', text: note }, ...roots] },
      { kind: 'heading', label: vscode.l10n.t('Protection on this host'), children: this.source.layers().map((layer) => ({ kind: 'layer', layer })) },
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
      case 'layer': {
        const item = new vscode.TreeItem(node.layer.name);
        item.description = node.layer.active ? vscode.l10n.t('active') : vscode.l10n.t('not active');
        item.tooltip = node.layer.detail;
        item.iconPath = new vscode.ThemeIcon(node.layer.active ? 'pass' : 'warning');
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

function refusalItem(entry: RefusalEntry): vscode.TreeItem {
  const notFound = entry.event === 'not-found';
  const item = new vscode.TreeItem(`${entry.tool} ${notFound ? vscode.l10n.t('not found') : entry.code}`);
  item.description = visible(entry.input, { shorten: true });
  const time = new Date(entry.time);
  item.tooltip = new vscode.MarkdownString().appendText(`${Number.isNaN(time.getTime()) ? entry.time : time.toLocaleString()}\n${visible(entry.reason)}`);
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
  return {
    refresh: () => server.refresh(),
    disposable: vscode.Disposable.from(serverView, refusalsView, watching, refusals),
  };
}
