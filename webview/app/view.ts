/**
 * The MCP Apps view of explain_path and audit_workspace: the host frames it in the conversation
 * and sends it the tool's input and result; it draws them with the inspector panel's renderer
 * (../render.ts, ../trace.css). Choosing a near miss or a finding asks the server, through the
 * host, for that path's trace. Under a trace, every program side by side: the view asks the server
 * for compare_deciders, a tool only views call, and shows each program's decision where the
 * server could make it, and what the program reads that the server cannot see where it could not.
 *
 * What the panel has and the view leaves out: the form (platform, policy and root are the server's
 * own here), history, "Run on the server" (the view shows the server's answer already), the
 * refusal feed and the protection layers (they are the editor's, not the conversation's).
 */
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { TRACE_FACTS_META_KEY, type TraceFacts } from '../../src/shared/appView.js';
import type { AuditFinding, AuditSummary, ComparedRow, DeciderName, DeciderVerdict, Trace } from '../../src/shared/messages.js';
import { DEFAULT_TOOL } from '../../src/shared/operations.js';
import { REFUSAL_META_KEY } from '../../src/shared/runOnServer.js';
import {
  appendShown,
  clearStages,
  el,
  keepRealTextOnCopy,
  renderAudits,
  renderBytes,
  renderComparison,
  renderDecision,
  renderDeciderStages,
  renderNearMisses,
  renderTrace,
  suggestionOf,
  testCaseRow,
  type NearMiss,
  type TraceParts,
  type VerdictActions,
} from '../render.js';
import { ViewBridge, type ToolResult } from './bridge.js';

declare const PACKAGE_VERSION: string;

/** explain_path's structured result (its output schema). */
interface Explanation {
  readonly tool: string;
  readonly acts: string;
  readonly verdict: Trace['verdict'];
  readonly code?: string;
  readonly stage: string;
  readonly reason: string;
  readonly path?: string;
  readonly stages: ReadonlyArray<Omit<Trace['stages'][number], 'output'> & { readonly output?: string }>;
  readonly nearMisses: Trace['nearMisses'];
}

/** audit_workspace's structured result. */
interface Audit {
  readonly root: string;
  readonly rootPath: string;
  readonly scanned: number;
  readonly truncated: boolean;
  readonly findings: readonly AuditFinding[];
  readonly notKept: Readonly<Record<string, number>>;
  readonly omitted: number;
}

/** One row of compare_deciders' structured result: a decision with its verdict's fields, or what could not be seen. */
interface ComparisonRow extends Partial<Omit<DeciderVerdict, 'decider' | 'path' | 'stages'>> {
  readonly decider: DeciderName;
  readonly program: string;
  readonly version: string;
  readonly tool: string;
  readonly path?: string;
  readonly stages?: ReadonlyArray<Omit<DeciderVerdict['stages'][number], 'output'> & { readonly output?: string }>;
  readonly unseen?: readonly string[];
  readonly error?: string;
}

function isComparison(value: unknown): value is { readonly rows: readonly ComparisonRow[] } {
  return Array.isArray((value as { rows?: unknown } | undefined)?.rows);
}

function isExplanation(value: unknown): value is Explanation {
  const candidate = value as Partial<Explanation> | undefined;
  return typeof candidate?.verdict === 'string' && Array.isArray(candidate.stages) && Array.isArray(candidate.nearMisses);
}

function isAudit(value: unknown): value is Audit {
  const candidate = value as Partial<Audit> | undefined;
  return typeof candidate?.root === 'string' && Array.isArray(candidate.findings);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The panel's trace, from explain_path's result: its structured result, and the facts its `_meta`
 * carries for views. A host that drops the `_meta` still gets the verdict and the stages, with the
 * input and the workspace taken from the call's arguments.
 */
function traceOf(explanation: Explanation, meta: Record<string, unknown> | undefined, args: Record<string, unknown>): Trace {
  const facts = meta?.[TRACE_FACTS_META_KEY] as TraceFacts | undefined;
  const code = (explanation.code ?? null) as Trace['code'];
  return {
    input: facts?.input ?? text(args['path']) ?? '',
    root: facts?.root ?? text(args['workspaceUri']) ?? '',
    rootPath: facts?.rootPath ?? null,
    platform: facts?.platform ?? 'linux',
    simulated: false,
    policy: facts?.policy ?? ({} as Trace['policy']),
    rootStages: [],
    stages: explanation.stages.map((stage) => ({ ...stage, output: stage.output ?? null })),
    verdict: explanation.verdict,
    stage: explanation.stage as Trace['stage'],
    code,
    reason: explanation.reason,
    path: explanation.path ?? null,
    links: facts?.links ?? [],
    kind: facts?.kind ?? null,
    nearMisses: explanation.nearMisses,
    secret: facts?.secret ?? null,
  };
}

// ------------------------------------------------------------------------------ the page

function section(className: string, label: string): HTMLElement {
  const part = el('section', className);
  part.setAttribute('aria-label', label);
  return part;
}

const page = el('main', 'view');
const status = el('p', 'view-status', 'Waiting for the tool’s result…');
status.setAttribute('role', 'status');
const auditPart = section('audit', 'Audit findings');
auditPart.hidden = true;
const verdict = section('verdict', 'Verdict');
verdict.setAttribute('aria-live', 'polite');
const compareTable = el('table', 'compare-table');
compareTable.append(el('caption', 'visually-hidden', 'The same path decided by each program: choose one to see its stages'));
const compareHead = el('tr');
for (const title of ['Program', 'Tool', 'Decision', 'Deciding rule', 'Source']) {
  const th = el('th', undefined, title);
  th.scope = 'col';
  compareHead.append(th);
}
compareTable.createTHead().append(compareHead);
compareTable.createTBody();
const compareNote = el('p', 'compare-note', 'Each as if started in this workspace. Where this server cannot see what a program reads, its row says so.');
const comparePart = el('section', 'compare', undefined, el('h2', undefined, 'Every program, side by side'), compareNote, compareTable);
comparePart.hidden = true;

const nearList = el('ul');
nearList.id = 'bi-near-list';
const nearTitle = el('h2', undefined, 'Did you mean…');
nearTitle.id = 'bi-near-title';
const near = el('section', 'near', undefined, nearTitle, nearList);
near.setAttribute('aria-labelledby', nearTitle.id);
near.hidden = true;
const stages = el('table', 'stages');
stages.append(el('caption', 'visually-hidden', 'Stages of the decision'));
const headings = el('tr');
for (const title of ['Stage', 'Status', 'Input', 'Output', 'Rule', 'Note']) {
  const th = el('th', undefined, title);
  th.scope = 'col';
  headings.append(th);
}
stages.createTHead().append(headings);
stages.createTBody();
stages.hidden = true;
const bytes = el('section', 'bytes');
bytes.hidden = true;
const copy = el('button', 'secondary', 'Copy as test case');
copy.type = 'button';
copy.disabled = true;
const copyStatus = el('span', 'copy-status');
copyStatus.setAttribute('role', 'status');
/** Shown when the clipboard is refused: the row, selected, for the person to copy. */
const copyText = el('textarea', 'copy-text');
copyText.readOnly = true;
copyText.rows = 3;
copyText.setAttribute('aria-label', 'The test case row');
copyText.hidden = true;
const actions = el('div', 'actions', undefined, copy, copyStatus);
const tracePart = el('div', 'trace', undefined, verdict, comparePart, near, stages, bytes, actions, copyText);
tracePart.hidden = true;
page.append(status, auditPart, tracePart);
document.body.append(page);

const parts: TraceParts = { verdict, near, nearList, stages, bytes };
keepRealTextOnCopy(document);

// ------------------------------------------------------------------------------ state

/** The arguments of the call whose result is drawn (a near miss's trace replaces them). */
let args: Record<string, unknown> = {};
let shown: Trace | null = null;
let shownTool: string = DEFAULT_TOOL;
/** What that tool does with the path, as explain_path said. */
let shownActs: string | null = null;

/** A message, often with the server's words or a path in it: drawn as every text from the disk is. */
function showStatus(message: string): void {
  status.replaceChildren();
  appendShown(status, message);
  status.hidden = message === '';
}

function drawTrace(trace: Trace, tool: string, acts: string | null): void {
  shown = trace;
  shownTool = tool;
  shownActs = acts;
  delete verdict.dataset['decision'];
  renderTrace(parts, trace, { tool, acts, serverNote: null }, { roots: [], pick: pickNearMiss, hideUnchanged: false });
  verdict.dataset['verdict'] = trace.verdict;
  verdict.dataset['stage'] = trace.stage;
  if (trace.code !== null) verdict.dataset['code'] = trace.code;
  else delete verdict.dataset['code'];
  // A view that cannot reach the server offers the suggestions as text only.
  if (!bridge.canCallTools()) for (const button of nearList.querySelectorAll('button')) button.disabled = true;
  copy.disabled = false;
  copyStatus.textContent = '';
  copyText.hidden = true;
  tracePart.hidden = false;
}

// ------------------------------------------------------------------------------ every program

/** The comparison of the trace shown, and the program whose decision is drawn. */
let compared: readonly ComparisonRow[] = [];
let current: DeciderName = 'boundary-inspector';
/** The newest comparison asked for: an answer to an older one is dropped. */
let comparing = 0;

/** The view opens no file: the panel in the editor does. */
const verdictActions: VerdictActions = { present: [] };

function drawComparison(): void {
  const rows = compared.map((row): ComparedRow => (row.decision !== undefined && row.rule !== undefined ? { decider: row.decider, tool: row.tool, decision: row.decision, rule: row.rule } : row.error !== undefined ? { decider: row.decider, tool: row.tool, error: row.error } : { decider: row.decider, tool: row.tool, unseen: row.unseen ?? [] }));
  const programs = compared.map((row) => ({ name: row.decider, program: row.program, version: row.version, tools: { read: [], change: [] } }));
  renderComparison(comparePart, compareTable, rows, programs, current, (row) => pickProgram(row.decider), verdictActions);
}

/** A program's row chosen: its decision and stages, this server's trace again, or what the server could not see. */
function pickProgram(decider: DeciderName): void {
  const row = compared.find((candidate) => candidate.decider === decider);
  if (row === undefined) return;
  current = decider;
  drawComparison();
  if (decider === 'boundary-inspector' && shown !== null) {
    drawTrace(shown, shownTool, shownActs);
    return;
  }
  renderNearMisses(near, nearList, [], [], pickNearMiss);
  renderBytes(bytes, null);
  copy.disabled = true;
  verdict.dataset['decision'] = row.decision ?? 'unseen';
  if (row.decision === undefined || row.rule === undefined || row.stages === undefined) {
    verdict.className = 'verdict verdict-hint';
    verdict.replaceChildren(el('p', 'verdict-headline', `${row.program} ${row.version}: not decided here`));
    verdict.append(el('p', 'verdict-reason', row.error ?? `It reads ${(row.unseen ?? []).join(', ')}, which this server does not see: it sees only the granted workspaces. The inspector in VS Code, or \`boundary-inspector compare\`, decides it from your configuration.`));
    clearStages(stages);
    return;
  }
  const decision: DeciderVerdict = {
    decider,
    program: row.program,
    version: row.version,
    basis: row.basis ?? 'documented',
    tool: row.tool,
    access: row.access ?? 'read',
    input: shown?.input ?? '',
    decision: row.decision,
    rule: row.rule,
    path: row.path ?? null,
    stages: row.stages.map((stage) => ({ ...stage, output: stage.output ?? null })),
    fixes: row.fixes ?? [],
    differences: row.differences ?? [],
    configFiles: row.configFiles ?? [],
  };
  renderDecision(verdict, decision, verdictActions);
  if (row.unseen !== undefined) verdict.append(el('p', 'verdict-unseen', `Its explanation looked up, unseen here: ${row.unseen.join(', ')}.`));
  renderDeciderStages(stages, decision, verdictActions);
}

/** Asks the server how each program decides the path shown; the host must pass the view's calls on. */
async function compareAll(callArgs: Record<string, unknown>, tool: string): Promise<void> {
  const id = ++comparing;
  compared = [];
  current = 'boundary-inspector';
  comparePart.hidden = true;
  compareTable.tBodies[0]?.replaceChildren();
  if (!bridge.canCallTools()) return;
  try {
    const result = await bridge.callTool('compare_deciders', { workspaceUri: callArgs['workspaceUri'] ?? shown?.root, path: callArgs['path'] ?? shown?.input, ...(tool !== DEFAULT_TOOL ? { tool } : {}) });
    if (id !== comparing || result.isError === true || !isComparison(result.structuredContent)) return;
    compared = result.structuredContent.rows;
    drawComparison();
  } catch {
    // A host that does not pass this call on: the trace stands alone.
  }
}

/** A refused call (a workspace not granted, a bad argument): its reason, as the server gave it. */
function drawRefusal(result: ToolResult): void {
  const refusal = result._meta?.[REFUSAL_META_KEY] as { code?: string; stage?: string; reason?: string } | undefined;
  const message = result.content?.find((block) => block.type === 'text')?.text ?? 'The call failed.';
  showStatus(refusal?.code !== undefined ? `Refused (${refusal.code} at ${refusal.stage ?? 'server'}): ${refusal.reason ?? message}` : message);
}

function draw(result: ToolResult, callArgs: Record<string, unknown>): void {
  if (result.isError === true) {
    drawRefusal(result);
    return;
  }
  const structured = result.structuredContent;
  if (isExplanation(structured)) {
    showStatus('');
    drawTrace(traceOf(structured, result._meta, callArgs), structured.tool, structured.acts);
    void compareAll(callArgs, structured.tool);
  } else if (isAudit(structured)) {
    showStatus('');
    drawAudit(structured);
  } else {
    showStatus(result.content?.find((block) => block.type === 'text')?.text ?? 'This result has nothing this view draws.');
  }
}

function drawAudit(audit: Audit): void {
  const label = decodeURIComponent(audit.root.replace(/\/+$/, '').split('/').pop() ?? audit.root);
  const summary: AuditSummary = {
    root: audit.root,
    label,
    time: new Date().toISOString(),
    scanned: audit.scanned,
    truncated: audit.truncated,
    total: audit.findings.length + audit.omitted,
    notKept: Object.values(audit.notKept).reduce((sum, count) => sum + count, 0),
    findings: audit.findings,
    error: null,
  };
  renderAudits(auditPart, [summary], pickFinding);
  // The panel's words for findings past the list name its Problems panel; here they are the answer's.
  const more = auditPart.querySelector('.audit-more');
  if (more !== null) more.textContent = `and ${audit.omitted.toLocaleString()} more, left out of this answer`;
  if (!bridge.canCallTools()) for (const button of auditPart.querySelectorAll('button')) button.disabled = true;
  auditPart.hidden = false;
}

/** Asks the server, through the host, how it judges a path; the answer replaces the trace shown. */
async function explain(callArgs: Record<string, unknown>): Promise<void> {
  showStatus(`Tracing ${text(callArgs['path']) ?? ''}…`);
  try {
    const result = await bridge.callTool('explain_path', callArgs);
    args = callArgs;
    draw(result, callArgs);
    verdict.tabIndex = -1;
    verdict.focus({ preventScroll: true });
    verdict.scrollIntoView({ block: 'nearest' });
  } catch (error) {
    showStatus(`The host did not pass the call on: ${(error as Error).message}`);
  }
}

function pickNearMiss(miss: NearMiss): void {
  const workspaceUri = miss.workspace ?? text(args['workspaceUri']) ?? shown?.root;
  void explain({ workspaceUri, path: suggestionOf(shown, miss), ...(shownTool !== DEFAULT_TOOL ? { tool: shownTool } : {}) });
}

function pickFinding(audit: AuditSummary, finding: AuditFinding, button: HTMLButtonElement): void {
  for (const other of auditPart.querySelectorAll('.finding[aria-current]')) other.removeAttribute('aria-current');
  button.setAttribute('aria-current', 'true');
  // A link's finding is about the link itself: judged as get_file_info judges it, not followed.
  const tool = finding.kind.startsWith('link-') ? 'get_file_info' : DEFAULT_TOOL;
  void explain({ workspaceUri: audit.root, path: finding.path, ...(tool !== DEFAULT_TOOL ? { tool } : {}) });
}

copy.addEventListener('click', async () => {
  if (shown === null) return;
  const row = testCaseRow(shown);
  try {
    await navigator.clipboard.writeText(row);
    copyStatus.textContent = 'Copied';
  } catch {
    // The host's sandbox may refuse the clipboard: the row is put where it can be copied by hand.
    copyText.value = row;
    copyText.hidden = false;
    copyText.select();
    copyStatus.textContent = 'Press Ctrl+C (⌘C) to copy';
  }
});

// ------------------------------------------------------------------------------ the host

/** The host's theme: its variables on the root, its kind on the body (as VS Code marks a webview's). */
function applyHostContext(context: McpUiHostContext): void {
  const variables = context.styles?.variables;
  if (variables !== undefined) {
    for (const [name, value] of Object.entries(variables)) if (typeof value === 'string') document.documentElement.style.setProperty(name, value);
  }
  if (context.theme !== undefined) {
    document.body.classList.toggle('vscode-light', context.theme === 'light');
    document.body.classList.toggle('vscode-dark', context.theme === 'dark');
    document.documentElement.style.colorScheme = context.theme;
  }
}

const bridge = new ViewBridge({
  toolInput(given) {
    args = given;
    if (shown === null && auditPart.hidden) showStatus(typeof given['path'] === 'string' ? `Tracing ${given['path']}…` : 'Auditing…');
  },
  toolResult(result) {
    draw(result, args);
  },
  toolCancelled(reason) {
    showStatus(`The call was cancelled${reason !== undefined ? `: ${reason}` : ''}.`);
  },
  hostContext: applyHostContext,
});

// The host sizes the frame to the page: told at each change of the content's size (the body's,
// which unlike the document's is not held at least as tall as the frame).
new ResizeObserver(() => {
  const { width, height } = document.body.getBoundingClientRect();
  bridge.sizeChanged(Math.ceil(width), Math.ceil(height));
}).observe(document.body);

void bridge.connect({ name: 'boundary-inspector-view', version: typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : '0.0.0-dev' }).catch((error: Error) => showStatus(`The host did not answer ui/initialize: ${error.message}`));
