import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuditReport, Finding } from '../audit/audit.js';
import { rootToPath, visible } from '../core/index.js';
import { hostPlatform, realPathOr } from '../host/node.js';
import type { AuditSummary } from '../shared/messages.js';
import { SHOW_FINDING_COMMAND } from './ids.js';
import { SECTION } from './settings.js';

export const DIAGNOSTIC_SOURCE = 'Boundary Inspector';
/** Findings the panel lists per folder; the Problems panel holds them all. */
export const LISTED_FINDINGS = 500;

/** An entry with findings, as its diagnostics' code links and quick fixes name it. */
interface FindingEntry {
  readonly id: string;
  /** The audited folder's URI, as the root picker offers it. */
  readonly root: string;
  readonly path: string;
  readonly kinds: readonly string[];
}

/** Informational: a hard link is often on purpose (package stores); the rest break something. */
function severityOf(finding: Finding): vscode.DiagnosticSeverity {
  return finding.kind === 'hard-link' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning;
}

/** The audit walks the real path; diagnostics and the panel use the folder's own spelling, so they meet its documents. */
function asShown(entry: string, rootReal: string, rootShown: string): string {
  if (entry === rootReal) return rootShown;
  const base = rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep;
  return entry.startsWith(base) ? path.join(rootShown, entry.slice(base.length)) : entry;
}

/**
 * A finding's message in Problems: its detail (which names the code points where twins differ),
 * escaped as every view shows text from the disk.
 */
export function diagnosticMessage(finding: Pick<Finding, 'detail'>): string {
  return visible(finding.detail, { shorten: true });
}

/** A folder or a link: an editor cannot show it, so the Explorer does. */
function isFolderOrLink(entry: string): boolean {
  const stats = fs.lstatSync(entry, { throwIfNoEntry: false });
  return stats !== undefined && (stats.isDirectory() || stats.isSymbolicLink());
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * "Audit Workspace Boundaries": walks workspace folders with src/audit/audit.ts and puts the
 * findings in the Problems panel and the inspector. Nothing is created and the audit module is
 * not loaded until the first run.
 */
export class WorkspaceAuditor implements vscode.Disposable {
  private collection: vscode.DiagnosticCollection | undefined;
  /** The URIs each folder's last audit put diagnostics on, so a re-run clears exactly those. */
  private readonly published = new Map<string, vscode.Uri[]>();
  private readonly summaries = new Map<string, AuditSummary>();
  private running = false;
  private readonly changed = new vscode.EventEmitter<void>();
  /** An audit started or finished. */
  readonly onDidChange = this.changed.event;

  /** Entries with findings that are folders or links: chosen in Problems, they are traced instead of opened. */
  private readonly traced = new Set<string>();
  /** Each entry with findings, by the id its diagnostics' code links carry: what SHOW_FINDING_COMMAND traces. */
  private readonly entries = new Map<string, FindingEntry>();
  private readonly idOfUri = new Map<string, string>();
  private nextId = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly openInspector: () => void,
    /** The page that explains a kind of finding (docs/findings.md), offered as a quick fix. */
    docsOf: (kind: string) => vscode.Uri,
  ) {
    this.disposables.push(
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FindingActions((uri) => this.entryOf(uri), docsOf), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
      // Problems opens an editor on any entry; for a folder or a link that editor only says it
      // cannot show it (or shows what an escaping link leads to): its trace is shown instead.
      vscode.window.tabGroups.onDidChangeTabs(({ opened }) => {
        for (const tab of opened) {
          if (!(tab.input instanceof vscode.TabInputText) || !this.traced.has(tab.input.uri.toString())) continue;
          const id = this.idOfUri.get(tab.input.uri.toString());
          void vscode.window.tabGroups.close(tab).then(() => vscode.commands.executeCommand(SHOW_FINDING_COMMAND, id));
        }
      }),
    );
  }

  /** The entry whose diagnostics carry `id`, and the folder audited; undefined once a new audit replaced them. */
  finding(id: string): FindingEntry | undefined {
    return this.entries.get(id);
  }

  private entryOf(uri: vscode.Uri): FindingEntry | undefined {
    const id = this.idOfUri.get(uri.toString());
    return id === undefined ? undefined : this.entries.get(id);
  }

  get audits(): readonly AuditSummary[] {
    return [...this.summaries.values()];
  }

  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Audits the workspace folder holding `target`, or the folders the user picks (every `file:`
   * folder is offered, all chosen). Auditing only reads, so it runs in an untrusted workspace
   * too. Resolves to the summaries written, or undefined when nothing ran.
   */
  async run(target?: vscode.Uri, options: { readonly quiet?: boolean } = {}): Promise<AuditSummary[] | undefined> {
    if (this.running) {
      void vscode.window.showInformationMessage(vscode.l10n.t('An audit of the workspace boundaries is already running.'));
      return undefined;
    }
    const folders = await this.chooseFolders(target);
    if (folders === undefined || folders.length === 0) return undefined;
    const { auditWorkspace } = await import('../audit/audit.js');
    const maxEntries = this.maxEntries();
    this.running = true;
    this.changed.fire();
    const written: AuditSummary[] = [];
    let cancelled = false;
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Auditing workspace boundaries'), cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          const cancel = token.onCancellationRequested(() => controller.abort());
          try {
            for (const folder of folders) {
              if (controller.signal.aborted) break;
              progress.report({ message: vscode.l10n.t('{0}: starting', folder.name) });
              const summary = await this.auditFolder(folder, (rootPath) =>
                auditWorkspace(rootPath, {
                  ...(maxEntries !== undefined ? { maxEntries } : {}),
                  signal: controller.signal,
                  onProgress: ({ scanned }) => progress.report({ message: vscode.l10n.t('{0}: entries scanned: {1}', folder.name, scanned.toLocaleString()) }),
                }),
                controller.signal,
              );
              if (summary !== undefined) written.push(summary);
            }
            if (controller.signal.aborted) cancelled = true;
          } finally {
            cancel.dispose();
          }
        },
      );
    } finally {
      this.running = false;
      this.changed.fire();
    }
    if (!options.quiet) this.announce(written, cancelled);
    return written;
  }

  private maxEntries(): number | undefined {
    const value = vscode.workspace.getConfiguration(SECTION).get<number>('auditMaxEntries');
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  }

  private async chooseFolders(target: vscode.Uri | undefined): Promise<vscode.WorkspaceFolder[] | undefined> {
    if (target !== undefined) {
      const folder = vscode.workspace.getWorkspaceFolder(target);
      if (folder === undefined) void vscode.window.showWarningMessage(vscode.l10n.t('{0} is in no workspace folder, so there is no boundary to audit.', target.fsPath));
      return folder ? [folder] : undefined;
    }
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    if (folders.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t("Open a folder on this machine's filesystem to audit its boundaries."));
      return undefined;
    }
    if (folders.length === 1) return folders;
    const picked = await vscode.window.showQuickPick(
      folders.map((folder) => ({ label: folder.name, description: folder.uri.fsPath, picked: true, folder })),
      { title: vscode.l10n.t('Audit Workspace Boundaries'), placeHolder: vscode.l10n.t('The workspace folders to audit'), canPickMany: true },
    );
    return picked?.map((item) => item.folder);
  }

  /** One folder: its diagnostics replaced and its summary kept; undefined when cancelled (the last results stay). */
  private async auditFolder(folder: vscode.WorkspaceFolder, audit: (rootPath: string) => Promise<AuditReport>, signal: AbortSignal): Promise<AuditSummary | undefined> {
    const key = folder.uri.toString();
    const time = new Date().toISOString();
    const shown = folder.uri.fsPath;
    let summary: AuditSummary;
    try {
      // Converted as the server converts a granted root, then walked from its real path (as the CLI does).
      const converted = rootToPath(key, { platform: hostPlatform() });
      if (!converted.ok) throw new Error(`${converted.code}: ${converted.reason}`);
      const rootReal = realPathOr(converted.path);
      const report = await audit(rootReal);
      // Loaded by the run already.
      const { notKeptCount } = await import('../audit/audit.js');
      const findings = report.findings.map((finding) => ({ ...finding, path: asShown(finding.path, rootReal, shown) }));
      this.publish(key, findings);
      summary = {
        root: key,
        label: folder.name,
        time,
        scanned: report.scanned,
        truncated: report.truncated,
        total: findings.length,
        notKept: notKeptCount(report),
        findings: findings.slice(0, LISTED_FINDINGS).map(({ kind, path: entry, detail }) => ({ kind, path: entry, detail })),
        error: null,
      };
    } catch (error) {
      if (signal.aborted) return undefined;
      this.publish(key, []);
      summary = { root: key, label: folder.name, time, scanned: 0, truncated: false, total: 0, notKept: 0, findings: [], error: vscode.l10n.t('The audit could not run: {0}', errorText(error)) };
    }
    this.summaries.set(key, summary);
    return summary;
  }

  /**
   * Replaces a folder's diagnostics: one per finding, on the finding's entry (a folder's path too),
   * at line 0. Each code links to the entry's trace in the inspector, by an id: a command link's
   * arguments are percent-decoded by the editor before they are read, which would change a path
   * or a folder's URI that holds a `%`.
   */
  private publish(folderKey: string, findings: readonly Finding[]): void {
    this.collection ??= vscode.languages.createDiagnosticCollection('boundaryInspector');
    for (const uri of this.published.get(folderKey) ?? []) {
      this.collection.delete(uri);
      this.traced.delete(uri.toString());
      const id = this.idOfUri.get(uri.toString());
      if (id !== undefined) this.entries.delete(id);
      this.idOfUri.delete(uri.toString());
    }
    const byPath = new Map<string, Finding[]>();
    for (const finding of findings) {
      const list = byPath.get(finding.path);
      if (list) list.push(finding);
      else byPath.set(finding.path, [finding]);
    }
    const uris: vscode.Uri[] = [];
    for (const [entry, found] of byPath) {
      const uri = vscode.Uri.file(entry);
      const id = `f${++this.nextId}`;
      this.entries.set(id, { id, root: folderKey, path: entry, kinds: [...new Set(found.map((finding) => finding.kind))] });
      this.idOfUri.set(uri.toString(), id);
      const trace = vscode.Uri.from({ scheme: 'command', path: SHOW_FINDING_COMMAND, query: JSON.stringify([id]) });
      this.collection.set(uri, found.map((finding) => {
        const diagnostic = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), diagnosticMessage(finding), severityOf(finding));
        diagnostic.source = DIAGNOSTIC_SOURCE;
        diagnostic.code = { value: finding.kind, target: trace };
        return diagnostic;
      }));
      uris.push(uri);
      if (isFolderOrLink(entry)) this.traced.add(uri.toString());
    }
    this.published.set(folderKey, uris);
  }

  private announce(written: readonly AuditSummary[], cancelled: boolean): void {
    if (written.length === 0) {
      if (cancelled) void vscode.window.showInformationMessage(vscode.l10n.t('Audit cancelled: the last results stay in the Problems panel.'));
      return;
    }
    const parts = written.map((given) => {
      // A folder's name and an error's path come from the disk: escaped, as every view shows them.
      const summary = { ...given, label: visible(given.label), error: given.error === null ? null : visible(given.error, { shorten: true }) };
      if (summary.error !== null) return vscode.l10n.t('{0}: {1}', summary.label, summary.error);
      const scanned = summary.scanned.toLocaleString();
      // Whole sentences, one per case, so a translation never has to assemble English fragments.
      if (summary.truncated) {
        if (summary.total === 0) return vscode.l10n.t('{0}: nothing found (stopped at the limit; entries examined: {1})', summary.label, scanned);
        if (summary.total === 1) return vscode.l10n.t('{0}: 1 finding (stopped at the limit; entries examined: {1})', summary.label, scanned);
        return vscode.l10n.t('{0}: {1} findings (stopped at the limit; entries examined: {2})', summary.label, summary.total, scanned);
      }
      if (summary.total === 0) return vscode.l10n.t('{0}: nothing found (entries examined: {1})', summary.label, scanned);
      if (summary.total === 1) return vscode.l10n.t('{0}: 1 finding (entries examined: {1})', summary.label, scanned);
      return vscode.l10n.t('{0}: {1} findings (entries examined: {2})', summary.label, summary.total, scanned);
    });
    const said = cancelled
      ? vscode.l10n.t('Boundary audit (cancelled before the end): {0}.', parts.join('; '))
      : vscode.l10n.t('Boundary audit: {0}.', parts.join('; '));
    const notKept = written.reduce((sum, summary) => sum + summary.notKept, 0);
    const text =
      notKept === 0 ? said : `${said} ${vscode.l10n.t('{0} more were found but not kept: the audit keeps the most serious first, up to its bounds.', notKept.toLocaleString())}`;
    const showProblems = vscode.l10n.t('Show Problems');
    const openInspector = vscode.l10n.t('Open Inspector');
    const anything = written.some((summary) => summary.total + summary.notKept > 0);
    const actions = anything ? [showProblems, openInspector] : [];
    void vscode.window.showInformationMessage(text, ...actions).then((action) => {
      if (action === showProblems) void vscode.commands.executeCommand('workbench.actions.view.problems');
      else if (action === openInspector) this.openInspector();
    });
  }

  dispose(): void {
    this.collection?.dispose();
    this.changed.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** Quick fixes on a finding: trace its entry in the inspector (as its code's link does), show it in the Explorer, read about its kind. */
class FindingActions implements vscode.CodeActionProvider {
  constructor(
    private readonly entryOf: (uri: vscode.Uri) => FindingEntry | undefined,
    private readonly docsOf: (kind: string) => vscode.Uri,
  ) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((diagnostic) => diagnostic.source === DIAGNOSTIC_SOURCE);
    const entry = this.entryOf(document.uri);
    if (ours.length === 0 || entry === undefined) return [];
    const trace = new vscode.CodeAction(vscode.l10n.t('Trace in Boundary Inspector'), vscode.CodeActionKind.QuickFix);
    trace.command = { title: trace.title, command: SHOW_FINDING_COMMAND, arguments: [entry.id] };
    trace.diagnostics = ours;
    trace.isPreferred = true;
    const reveal = new vscode.CodeAction(vscode.l10n.t('Reveal in Explorer'), vscode.CodeActionKind.QuickFix);
    reveal.command = { title: reveal.title, command: 'revealInExplorer', arguments: [document.uri] };
    const docs = entry.kinds.map((kind) => {
      const read = new vscode.CodeAction(vscode.l10n.t('Read about "{0}"', kind), vscode.CodeActionKind.QuickFix);
      read.command = { title: read.title, command: 'vscode.open', arguments: [this.docsOf(kind)] };
      return read;
    });
    return [trace, reveal, ...docs];
  }
}
