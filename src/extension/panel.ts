import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Policy, SecretSettings } from '../core/index.js';
import type { VsCodeContext } from '../deciders/types.js';
import { hostPlatform } from '../host/node.js';
import { assertNever, type AuditSummary, type ExtensionMessage, type PanelState, type RootChoice, type ServerStatus, type WebviewMessage } from '../shared/messages.js';
import { PATH_TOOL_NAMES, type ToolName } from '../shared/operations.js';
import { runChanges } from '../shared/runOnServer.js';
import type { ServerProvider } from './mcpProvider.js';
import type { ServerCalls } from './serverCalls.js';
import { LIST_SERVERS_COMMAND, VIEW_TYPE } from './ids.js';
import { hostProtection, type CheckedSandbox } from './protection.js';
import type { RefusalFeed } from './refusalFeed.js';
import type { SimulatedRoots, SimulatedSpellings } from '../shared/simulatedRoots.js';
import { deciderChoices, judgeRequest, namedFiles } from './deciding.js';
import { simulatedRequest } from './tracing.js';
import { openingPlacement, PanelPlacement, REPLAY_MS } from './panelPlacement.js';

/** What the panel needs from the rest of the extension. */
export interface PanelContext {
  readonly extensionUri: vscode.Uri;
  readonly logPath: string | null;
  /** The server's log, followed: one reading per change for every view that shows it. */
  refusals(): RefusalFeed;
  roots(): readonly RootChoice[];
  grantNote(): string | null;
  settings(): Policy;
  /** The settings of the server's secrets policy (boundaryInspector.secrets.*). */
  secrets(): SecretSettings | undefined;
  /** Where a workspace folder is put when another platform is simulated. */
  simulatedRoots(): SimulatedRoots;
  /** The WSL distribution and mapped drives the inspector simulates (boundaryInspector.simulatedSpellings). */
  simulatedSpellings?(): SimulatedSpellings;
  /** The last audit of each folder, and whether one is running. */
  audits(): { readonly audits: readonly AuditSummary[]; readonly running: boolean };
  runAudit(): void;
  /** The server's own check of its sandbox for the current grants, once it has answered. */
  checkedSandbox(): CheckedSandbox | undefined;
  /** The agent's server as the editor starts it, for "Run on the server". */
  readonly provider: ServerProvider;
  /** Whether the agent's server runs, looked for while `holdServer`'s handle is held. */
  server(): ServerStatus;
  holdServer(): vscode.Disposable;
  /** The processes of the panel's own server ("Run on the server"), which are not the agent's. */
  readonly ownServers: Set<number>;
  /**
   * VS Code's own agent's inputs, read through the editor's API (its workspace folders and
   * `chat.tools.edits.autoApprove`), for the vscode-agent decider; without it that decider is given none.
   */
  readonly vscodeAgent?: () => VsCodeContext;
}

/** dist/serverCalls.js, beside this bundle (esbuild.mjs): required at the first run, never at activation. */
function loadServerCalls(): typeof import('./serverCalls.js') {
  // A path computed at run time, so the bundler leaves it to Node.
  const bundle = path.join(__dirname, 'serverCalls.js');
  return require(bundle) as typeof import('./serverCalls.js');
}

/**
 * A file a fix or a rule names: opened at `line` with its `lines` selected, where the change
 * goes. A file not there yet opens as a new editor for that path holding `add`, unsaved: nothing
 * is written unless the person saves it.
 */
async function openNamedFile(file: string, line: number | undefined, lines: number | undefined, add: string | undefined): Promise<void> {
  const { existsSync } = require('node:fs') as typeof import('node:fs');
  if (!existsSync(file)) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file).with({ scheme: 'untitled' }));
    const editor = await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    if (add !== undefined && document.getText() === '') await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), `${add}\n`));
    return;
  }
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const first = Math.min(Math.max((line ?? 1) - 1, 0), Math.max(document.lineCount - 1, 0));
  const last = Math.min(first + Math.max((lines ?? 1) - 1, 0), document.lineCount - 1);
  const selection = line === undefined ? undefined : new vscode.Range(first, 0, last, document.lineAt(last).text.length);
  await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside, ...(selection ? { selection } : {}) });
}

async function openLog(logPath: string): Promise<void> {
  try {
    await vscode.window.showTextDocument(vscode.Uri.file(logPath), { preview: true, viewColumn: vscode.ViewColumn.Beside });
  } catch {
    void vscode.window.showInformationMessage(vscode.l10n.t('The refusal log {0} does not exist yet: the server writes it at its first refusal.', logPath));
  }
}

/** The input a command puts in the panel's field, if it puts one. */
function inputOf(message: ExtensionMessage): string | undefined {
  switch (message.type) {
    case 'inspect':
      return message.input;
    case 'loadRefusal':
      return message.entry.input;
    case 'loadFinding':
      return message.path;
    default:
      return undefined;
  }
}

/** For text and attribute values alike: a translated string may hold any of these. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The single inspector panel: created on demand, restored by the serializer after a reload. */
export class InspectorPanel {
  private static current: InspectorPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private readonly pending: ExtensionMessage[] = [];
  private following: vscode.Disposable | undefined;
  private calls: ServerCalls | undefined;
  /** Its moves between editor groups. */
  private readonly placement: PanelPlacement;
  /** The commands handed to the page in the last REPLAY_MS, and when: a page loaded again meanwhile gets them too. */
  private handed: { readonly message: ExtensionMessage; readonly at: number }[] = [];
  /** Held while the page is shown: the agent's server is looked for meanwhile. */
  private watching: vscode.Disposable | undefined;
  /** The files the verdict last shown names: the only ones the page may ask to open. */
  private openable = new Set<string>();

  static createOrShow(context: PanelContext, first?: ExtensionMessage): InspectorPanel {
    let inspector = InspectorPanel.current;
    if (inspector === undefined) {
      const where = openingPlacement();
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, vscode.l10n.t('Boundary Inspector'), where.column, InspectorPanel.options(context));
      inspector = InspectorPanel.current = new InspectorPanel(panel, context, null, where.besideOf);
    } else if (inspector.panel.visible) {
      if (inspector.placement.reveal()) inspector.post({ type: 'measure' });
    } else {
      // Hidden behind another tab: shown where a new one would open.
      inspector.placement.show();
    }
    if (first) inspector.post(first);
    return inspector;
  }

  static revive(panel: vscode.WebviewPanel, context: PanelContext, state: PanelState | null): InspectorPanel {
    panel.webview.options = InspectorPanel.options(context);
    InspectorPanel.current?.dispose();
    InspectorPanel.current = new InspectorPanel(panel, context, state);
    return InspectorPanel.current;
  }

  static get visible(): InspectorPanel | undefined {
    return InspectorPanel.current;
  }

  /** Scripts on, and nothing loadable but the built webview assets. */
  private static options(context: PanelContext): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview')],
    };
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly context: PanelContext,
    private restored: PanelState | null,
    besideOf?: vscode.ViewColumn,
  ) {
    this.placement = new PanelPlacement(panel, besideOf);
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
    panel.webview.html = this.html();
    this._register(panel.onDidDispose(() => this.dispose()));
    // A hidden webview is torn down (its context is not retained) and loads again when shown:
    // whatever is posted meanwhile waits for the new page's `ready`.
    this._register(panel.onDidChangeViewState(() => {
      if (panel.visible) return;
      this.ready = false;
      this.watching?.dispose();
      this.watching = undefined;
    }));
    this._register(panel.webview.onDidReceiveMessage((message: WebviewMessage) => this.receive(message)));
  }

  private _register<T extends vscode.Disposable>(disposable: T): T {
    this.disposables.push(disposable);
    return disposable;
  }

  /** Messages wait for the webview's `ready`, so none is lost while its script loads or while it is hidden. */
  post(message: ExtensionMessage): void {
    if (!this.ready || !this.panel.visible) {
      this.ready = false;
      this.pending.push(message);
      return;
    }
    this.hand(message);
  }

  private hand(message: ExtensionMessage): void {
    if (message.type === 'inspect' || message.type === 'loadRefusal' || message.type === 'loadFinding' || message.type === 'showSection') {
      const now = Date.now();
      this.handed = [...this.handed.filter(({ at }) => at >= now - REPLAY_MS), { message, at: now }];
    }
    void this.panel.webview.postMessage(message);
  }

  /**
   * A picture of the extension's state (the settings, the refusals, the audits): sent to a live
   * page only, as the page's next `ready` is answered with the current picture anyway.
   */
  private postState(message: ExtensionMessage): void {
    if (this.ready && this.panel.visible) void this.panel.webview.postMessage(message);
  }

  /** An audit started or finished. */
  showAudits(): void {
    this.postState(this.auditsMessage());
  }

  private auditsMessage(): ExtensionMessage {
    return { type: 'audits', ...this.context.audits() };
  }

  /** The agent's server started or stopped. */
  showServer(server: ServerStatus): void {
    this.postState({ type: 'server', server });
  }

  /** The settings, trust or folders changed: hand the webview the new picture. */
  refresh(): void {
    this.postState(this.initMessage(null));
  }

  private initMessage(state: PanelState | null): ExtensionMessage {
    return {
      type: 'init',
      roots: this.context.roots(),
      hostPlatform: hostPlatform(),
      settings: this.context.settings(),
      grantNote: this.context.grantNote(),
      logPath: this.context.logPath,
      layers: hostProtection(this.context.checkedSandbox()),
      server: this.context.server(),
      simulatedRoots: this.context.simulatedRoots(),
      deciders: deciderChoices(),
      state,
    };
  }

  private receive(message: WebviewMessage): void {
    switch (message.type) {
      case 'ready': {
        // A hidden panel reloads when shown again and says ready again: restore the serialized
        // state only the first time, but send the refusals every time.
        this.ready = true;
        this.watching ??= this.context.holdServer();
        void this.panel.webview.postMessage(this.initMessage(this.restored));
        this.restored = null;
        this.startFeed();
        if (this.following) void this.panel.webview.postMessage({ type: 'refusals', entries: this.context.refusals().entries } satisfies ExtensionMessage);
        void this.panel.webview.postMessage(this.auditsMessage());
        // A page loaded again soon after a command (moved, or hidden for a moment by an editor opened
        // over it, as Problems opens one on a folder before it is traced) has only the saved state:
        // the command is handed again, so its trace is in view, marked, the keyboard on it.
        // Each keeps the time it was first handed: a page loaded again and again replays it only within REPLAY_MS of that.
        const now = Date.now();
        this.handed = this.handed.filter(({ at }) => at >= now - REPLAY_MS);
        for (const { message } of this.handed) void this.panel.webview.postMessage(message);
        for (const queued of this.pending.splice(0)) this.hand(queued);
        return;
      }
      case 'trace': {
        // Something else traced since a command: a page loaded again keeps it, not the command's input.
        this.handed = this.handed.filter(({ message: handed }) => [undefined, message.request.input].includes(inputOf(handed)));
        // The same core as the server, for the chosen tool's operation: on this machine, or simulated for another platform.
        const roots = this.context.roots();
        // Another platform's trace of a workspace folder: the folder where that platform would hold it.
        const request = simulatedRequest(message.request, roots, this.context.simulatedRoots());
        // Every program's decision too, read from this machine's configuration (the home folder, the root's folder as the working folder).
        const { homedir } = require('node:os') as typeof import('node:os');
        const secrets = this.context.secrets();
        const judged = judgeRequest(request, roots, this.context.settings(), {
          home: homedir(),
          env: process.env,
          ...(this.context.simulatedSpellings !== undefined ? { spellings: this.context.simulatedSpellings() } : {}),
          ...(secrets !== undefined ? { secrets } : {}),
          ...(this.context.vscodeAgent !== undefined ? { vscode: this.context.vscodeAgent } : {}),
        });
        if (judged.kind === 'trace') {
          this.openable = new Set();
          this.post({ type: 'traceResult', id: message.id, trace: judged.trace, serverNote: judged.serverNote, compared: judged.compared });
        } else {
          this.openable = new Set('present' in judged.verdict ? namedFiles(judged.verdict) : []);
          this.post({ type: 'decidedResult', id: message.id, verdict: judged.verdict, compared: judged.compared });
        }
        return;
      }
      case 'openFile':
        // Only a file the verdict on the page names: the page asks, the extension decides.
        if (this.openable.has(message.file)) {
          openNamedFile(message.file, message.line, message.lines, message.add).catch((error: Error) =>
            void vscode.window.showWarningMessage(vscode.l10n.t('Could not open {0}: {1}', message.file, error.message)),
          );
        }
        return;
      case 'drawn':
        this.placement.drawn(message.clipped, message.windowWidth);
        return;
      case 'runAudit':
        this.context.runAudit();
        return;
      case 'openLog':
        if (this.context.logPath !== null) void openLog(this.context.logPath);
        return;
      case 'listServers':
        void vscode.commands.executeCommand(LIST_SERVERS_COMMAND);
        return;
      case 'runTool':
        void this.runTool(message.id, message.tool, message.input, message.root);
        return;
      case 'copy': {
        const what = message.what;
        void vscode.env.clipboard.writeText(message.text).then(
          () => this.post({ type: 'copied', ok: true, what }),
          () => this.post({ type: 'copied', ok: false, what }),
        );
        return;
      }
      default:
        assertNever(message);
    }
  }

  private async runTool(id: number, tool: ToolName, input: string, root: string): Promise<void> {
    if (runChanges(tool)) {
      const run = vscode.l10n.t('Run');
      const chosen = await vscode.window.showWarningMessage(
        vscode.l10n.t('Run {0} on {1}? It changes the disk, as the agent\'s call would.', tool, input),
        { modal: true },
        run,
      );
      if (chosen !== run) {
        this.post({ type: 'toolAnswer', id, tool, answer: { kind: 'not-run', reason: vscode.l10n.t('Not run: a change is made only once you confirm it.') } });
        return;
      }
    }
    this.calls ??= this._register(new (loadServerCalls().ServerCalls)(this.context.provider, this.context.ownServers));
    const answer = await this.calls.call(tool, root, input);
    this.post({ type: 'toolAnswer', id, tool, answer });
  }

  private startFeed(): void {
    if (this.following || this.context.logPath === null) return;
    this.following = this._register(this.context.refusals().onDidChange((entries) => this.postState({ type: 'refusals', entries })));
  }

  private html(): string {
    const webview = this.panel.webview;
    const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview', name)).toString();
    // node:crypto is required here, not at activation: loading it costs milliseconds of the editor's start.
    const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
    const nonce = randomBytes(16).toString('base64');
    const csp = [
      "default-src 'none'",
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    const option = (value: string) => `<option value="${escapeHtml(value)}">${escapeHtml(value)}</option>`;
    // The page's own labels go through l10n; what the script (webview/) writes stays English.
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(asset('main.css'))}">
<title>${escapeHtml(vscode.l10n.t('Boundary Inspector'))}</title>
</head>
<body>
<main>
  <p id="bi-grant-note" class="grant-note" role="note" hidden></p>
  <form id="bi-form" class="form" autocomplete="off">
    <label for="bi-input">${escapeHtml(vscode.l10n.t('URI or path'))}</label>
    <input id="bi-input" type="text" spellcheck="false" placeholder="${escapeHtml(vscode.l10n.t('file:///path/to/file, a relative path, C:\\path or \\\\host\\share'))}">
    <label for="bi-root">${escapeHtml(vscode.l10n.t('Root'))}</label>
    <div class="root">
      <select id="bi-root"></select>
      <input id="bi-root-custom" type="text" spellcheck="false" placeholder="${escapeHtml(vscode.l10n.t('any root URI or path'))}" aria-label="${escapeHtml(vscode.l10n.t('Custom root'))}" hidden>
    </div>
    <label for="bi-decider">${escapeHtml(vscode.l10n.t('Decided by'))}</label>
    <select id="bi-decider" title="${escapeHtml(vscode.l10n.t('The program whose decision is traced, from its rules and this machine\'s configuration'))}"><option value="boundary-inspector">${escapeHtml(vscode.l10n.t('Boundary Inspector'))}</option></select>
    <label for="bi-tool">${escapeHtml(vscode.l10n.t('As seen by'))}</label>
    <select id="bi-tool">${PATH_TOOL_NAMES.map((name) => option(name)).join('')}</select>
    <label for="bi-platform">${escapeHtml(vscode.l10n.t('Platform'))}</label>
    <select id="bi-platform">${option('linux')}${option('darwin')}${option('win32')}</select>
    <label for="bi-case">${escapeHtml(vscode.l10n.t('Case'))}</label>
    <select id="bi-case">${option('auto')}${option('sensitive')}${option('insensitive')}</select>
    <label for="bi-symlinks">${escapeHtml(vscode.l10n.t('Symlinks'))}</label>
    <select id="bi-symlinks">${option('contain')}${option('refuse')}</select>
    <span></span>
    <div class="checks">
      <label><input id="bi-localhost" type="checkbox"> ${escapeHtml(vscode.l10n.t('Allow localhost'))}</label>
      <label><input id="bi-unc" type="checkbox"> ${escapeHtml(vscode.l10n.t('Allow UNC'))}</label>
    </div>
  </form>
  <div class="trace-bar">
    <div class="history" role="group" aria-label="${escapeHtml(vscode.l10n.t('Trace history'))}">
      <button id="bi-back" type="button" class="history-button" aria-keyshortcuts="Alt+ArrowLeft" title="${escapeHtml(vscode.l10n.t('The previous input traced (Alt+Left)'))}" disabled><span class="codicon codicon-arrow-left" aria-hidden="true"></span> ${escapeHtml(vscode.l10n.t('Back'))}</button>
      <button id="bi-forward" type="button" class="history-button" aria-keyshortcuts="Alt+ArrowRight" title="${escapeHtml(vscode.l10n.t('The next input traced (Alt+Right)'))}" disabled>${escapeHtml(vscode.l10n.t('Forward'))} <span class="codicon codicon-arrow-right" aria-hidden="true"></span></button>
    </div>
    <label class="hide-unchanged"><input id="bi-hide-unchanged" type="checkbox" aria-controls="bi-stages"> ${escapeHtml(vscode.l10n.t('Hide unchanged stages'))}</label>
  </div>
  <section id="bi-verdict" class="verdict" role="status" aria-live="polite"></section>
  <section id="bi-compare" class="compare" aria-labelledby="bi-compare-title" hidden>
    <h2 id="bi-compare-title">${escapeHtml(vscode.l10n.t('Every program, side by side'))}</h2>
    <table id="bi-compare-table" class="compare-table">
      <caption class="visually-hidden">${escapeHtml(vscode.l10n.t('The same input decided by each program: choose one to see its stages'))}</caption>
      <thead><tr><th scope="col">${escapeHtml(vscode.l10n.t('Program'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Tool'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Decision'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Deciding rule'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Source'))}</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
  <section id="bi-decided" class="decided" hidden></section>
  <section id="bi-near" class="near" aria-labelledby="bi-near-title" hidden>
    <h2 id="bi-near-title">${escapeHtml(vscode.l10n.t('Did you mean…'))}</h2>
    <ul id="bi-near-list"></ul>
  </section>
  <table id="bi-stages" class="stages">
    <caption class="visually-hidden">${escapeHtml(vscode.l10n.t('Stages of the decision'))}</caption>
    <thead><tr><th scope="col">${escapeHtml(vscode.l10n.t('Stage'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Status'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Input'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Output'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Rule'))}</th><th scope="col">${escapeHtml(vscode.l10n.t('Note'))}</th></tr></thead>
    <tbody></tbody>
  </table>
  <section id="bi-bytes" class="bytes" hidden></section>
  <div class="actions"><button id="bi-run" type="button" aria-describedby="bi-run-why"><span class="codicon codicon-play" aria-hidden="true"></span> ${escapeHtml(vscode.l10n.t('Run on the server'))}</button><button id="bi-copy" type="button" class="secondary" title="${escapeHtml(vscode.l10n.t("The trace as one line of JSON: a row for the project's trace tables"))}"><span class="codicon codicon-copy" aria-hidden="true"></span> ${escapeHtml(vscode.l10n.t('Copy as test case'))}</button><span id="bi-copy-status" role="status"></span></div>
  <p id="bi-run-why" class="run-why" hidden></p>
  <section id="bi-answer" class="answer" aria-live="polite" hidden></section>
  <section class="refusals" aria-labelledby="bi-refusals-title">
    <h2 id="bi-refusals-title">${escapeHtml(vscode.l10n.t('Recent refusals'))}</h2>
    <p class="log-path"><span id="bi-log-label"></span><button id="bi-log-path" type="button" class="link-button log-file" title="${escapeHtml(vscode.l10n.t('Open the log in an editor'))}"></button> <button id="bi-open-log" type="button" class="link-button"><span class="codicon codicon-go-to-file" aria-hidden="true"></span> ${escapeHtml(vscode.l10n.t('Open log file'))}</button></p>
    <div class="feed-filters" role="group" aria-label="${escapeHtml(vscode.l10n.t('Filter the refusals'))}">
      <input id="bi-feed-search" type="search" spellcheck="false" placeholder="${escapeHtml(vscode.l10n.t('Search inputs and reasons'))}" aria-label="${escapeHtml(vscode.l10n.t('Search the refusals'))}">
      <select id="bi-feed-code" aria-label="${escapeHtml(vscode.l10n.t('Code'))}"></select>
      <select id="bi-feed-tool" aria-label="${escapeHtml(vscode.l10n.t('Tool'))}"></select>
      <select id="bi-feed-workspace" aria-label="${escapeHtml(vscode.l10n.t('Workspace'))}"></select>
      <button id="bi-feed-clear" type="button" class="secondary">${escapeHtml(vscode.l10n.t('Clear'))}</button>
      <span id="bi-feed-count" role="status"></span>
    </div>
    <ol id="bi-refusals"></ol>
  </section>
  <section class="audit" aria-labelledby="bi-audit-title">
    <h2 id="bi-audit-title">${escapeHtml(vscode.l10n.t('Workspace audit'))}</h2>
    <div class="actions audit-actions"><button id="bi-audit-run" type="button"><span class="codicon codicon-checklist" aria-hidden="true"></span> ${escapeHtml(vscode.l10n.t('Audit workspace boundaries'))}</button><span id="bi-audit-status" role="status"></span></div>
    <div id="bi-audits"></div>
  </section>
  <section class="grants" aria-labelledby="bi-grants-title">
    <h2 id="bi-grants-title">${escapeHtml(vscode.l10n.t('Granted to the agent'))}</h2>
    <p class="server-status"><span id="bi-server" role="status"></span> <button id="bi-list-servers" type="button" class="link-button"><span class="codicon codicon-server" aria-hidden="true"></span> ${escapeHtml(vscode.l10n.t('MCP: List Servers'))}</button></p>
    <ul id="bi-grants" class="layer-list"></ul>
  </section>
  <section class="layers" aria-labelledby="bi-layers-title">
    <h2 id="bi-layers-title">${escapeHtml(vscode.l10n.t('Protection on this host'))}</h2>
    <p id="bi-scope" class="scope-note"></p>
    <ul id="bi-layers" class="layer-list"></ul>
  </section>
</main>
<script nonce="${nonce}" src="${escapeHtml(asset('main.js'))}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (InspectorPanel.current === this) InspectorPanel.current = undefined;
    this.placement.dispose();
    this.watching?.dispose();
    this.panel.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
