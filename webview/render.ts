/**
 * Rendering: a trace into the verdict banner, the stage table and the byte view; the refusal log
 * into its list. Every piece of text goes in as text nodes (`appendShown`), never as markup:
 * inputs, paths and reasons are attacker-chosen strings, and a control, bidi or invisible
 * character in them is drawn as a marked escape.
 */
import { SECRET_DECISION_WORDS } from '../src/core/types.js';
import { codePoints, lookalikeNote, shownParts, visible } from '../src/core/visible.js';
import { decidingStage, sourceText } from '../src/deciders/reading.js';
import type { AuditFinding, AuditSummary, ComparedRow, Decision, DeciderChoice, DeciderName, DeciderVerdict, Fix, RefusalEntry, RootChoice, RuleSource, ServerNote, ToolAnswer, Trace } from '../src/shared/messages.js';
import { stageChange, type Segment } from './diff.js';
import { ambiguousNames, utf8Hex } from './unicode.js';

type StageResult = Trace['stages'][number];
export type NearMiss = Trace['nearMisses'][number];
type StageStatus = StageResult['status'];

const STATUS_ICON: Readonly<Record<StageStatus | 'ask', string>> = {
  pass: 'codicon-pass',
  note: 'codicon-info',
  refuse: 'codicon-error',
  skip: 'codicon-circle-slash',
  ask: 'codicon-question',
};

const VERDICT_ICON: Readonly<Record<Trace['verdict'], string>> = {
  inside: 'codicon-pass',
  outside: 'codicon-error',
  refused: 'codicon-warning',
};

/**
 * Appends text that may come from the disk or the input, as every view shows it: each hidden
 * character (a control, a bidi control, a zero-width one) as its escape in a marked span, and,
 * unless `whole`, a name longer than a line's worth cut to its ends, the element's tooltip then
 * holding the whole (escaped). Each span keeps the real text, which copying takes
 * (`keepRealTextOnCopy`). `lines` keeps line breaks and tabs, for a file's text.
 */
export function appendShown(target: HTMLElement, text: string, options: { readonly whole?: boolean; readonly lines?: boolean } = {}): void {
  const pieces = options.lines ? text.split(/(\r?\n|\t)/) : [text];
  let cut = false;
  pieces.forEach((piece, index) => {
    if (index % 2 === 1) {
      target.append(piece);
      return;
    }
    for (const part of shownParts(piece, { shorten: !options.whole })) {
      if (part.kind === 'text') {
        target.append(part.real);
        continue;
      }
      const span = el('span', part.kind === 'hidden' ? 'shown-hidden' : 'shown-cut');
      span.append(part.shown);
      span.dataset['real'] = part.real;
      span.title = part.kind === 'hidden'
        ? `${codePoints(part.real)}: a character that does not show, or that would reorder the text around it, drawn as its escape`
        : `${Array.from(part.real).length.toLocaleString()} characters left out here; the whole is in the tooltip and in what you copy`;
      target.append(span);
      cut ||= part.kind === 'cut';
    }
  });
  if (cut && target.title === '') target.title = visible(text);
}

/**
 * Copying a selection that holds marked escapes or cut names takes the real text, as it was
 * given: the selection is copied through a detached clone with each span's text put back.
 */
export function keepRealTextOnCopy(doc: Document): void {
  doc.addEventListener('copy', (event) => {
    const selection = doc.getSelection();
    if (selection === null || selection.rangeCount === 0 || event.clipboardData === null) return;
    const holder = doc.createElement('div');
    for (let i = 0; i < selection.rangeCount; i++) holder.append(selection.getRangeAt(i).cloneContents());
    const marked = holder.querySelectorAll<HTMLElement>('[data-real]');
    if (marked.length === 0) return;
    for (const span of marked) span.replaceWith(span.dataset['real'] ?? '');
    // Laid out off screen for a moment, so that rows and cells keep their line breaks and tabs.
    holder.style.cssText = 'position:fixed;left:-99999px;top:0;white-space:pre-wrap';
    doc.body.append(holder);
    event.clipboardData.setData('text/plain', holder.innerText);
    holder.remove();
    event.preventDefault();
  });
}

/** An element with an optional class and text (as `appendShown` shows it); children are appended after the text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string, ...children: Node[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) appendShown(element, text);
  element.append(...children);
  return element;
}

/** A codicon, hidden from screen readers: the text beside it says the same thing. */
export function icon(name: string): HTMLSpanElement {
  const span = el('span', `codicon ${name}`);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

function visuallyHidden(text: string): HTMLSpanElement {
  return el('span', 'visually-hidden', text);
}

/** Inside, but the path names nothing: allowed, and nothing is there yet. */
function nothingThere(trace: Trace): boolean {
  return trace.verdict === 'inside' && trace.kind === 'missing';
}

/**
 * The banner's heading line: "INSIDE", "INSIDE — nothing there yet", "OUTSIDE — ERR_OUTSIDE at
 * containment", or for a path the secrets policy holds "ASKS FIRST — ERR_SECRET at secrets".
 */
export function verdictHeadline(trace: Trace): string {
  if (trace.verdict === 'inside') return nothingThere(trace) ? 'INSIDE — nothing there yet' : 'INSIDE';
  const where = trace.stage === 'root' ? 'the root' : trace.stage;
  const verdict = trace.secret !== null ? SECRET_DECISION_WORDS[trace.secret.decision] : trace.verdict;
  return `${verdict.toUpperCase()} — ${trace.code ?? 'no code'} at ${where}`;
}

/** The banner with nothing traced: a hint in its place. */
export function renderHint(banner: HTMLElement, text: string): void {
  banner.className = 'verdict verdict-hint';
  banner.replaceChildren(el('p', 'verdict-reason', text));
}

export function clearVerdict(banner: HTMLElement): void {
  banner.className = 'verdict';
  banner.replaceChildren();
}

function fact(list: HTMLDListElement, term: string, value: string, monospace = false): void {
  list.append(el('dt', undefined, term), el('dd', monospace ? 'path' : undefined, value));
}

/** The operation a trace explains, and what the server would refuse besides the trace. */
export interface VerdictContext {
  readonly tool: string;
  /** What the tool does with the path (src/shared/operations.ts); null for a tool the table does not know. */
  readonly acts: string | null;
  readonly serverNote: ServerNote | null;
}

export function renderVerdict(banner: HTMLElement, trace: Trace, context: VerdictContext): void {
  const missing = nothingThere(trace);
  // `verdict-inside` stays: a missing file is inside; `verdict-missing` draws it apart from a file that is there.
  banner.className = `verdict verdict-${trace.verdict}${missing ? ' verdict-missing' : ''}`;
  const headline = el('p', 'verdict-headline', undefined, icon(missing ? 'codicon-circle-large-outline' : VERDICT_ICON[trace.verdict]), el('strong', undefined, verdictHeadline(trace)));
  const parts: Node[] = [headline];
  parts.push(el('p', 'verdict-operation', `As seen by ${context.tool}${context.acts === null ? '' : `: ${context.acts}`}`));
  if (trace.stage === 'root') {
    parts.push(el('p', 'verdict-root', 'The root itself was refused, so the input was not traced; the table shows how the root was converted.'));
  }
  parts.push(el('p', 'verdict-reason', trace.reason));
  if (context.serverNote !== null) {
    // The trace lets the path in; the grant's rights do not.
    parts.push(el('p', 'verdict-server', undefined,
      icon('codicon-lock'),
      el('span', undefined, `The server would still refuse ${context.tool} here with `),
      el('span', 'code code-refused', context.serverNote.code),
      el('span', undefined, `: ${context.serverNote.reason}`),
    ));
  }
  const facts = el('dl', 'verdict-facts');
  if (trace.path !== null) fact(facts, 'Resolved path', trace.path, true);
  if (trace.kind !== null) fact(facts, 'What is there', trace.kind === 'missing' ? 'nothing yet (missing)' : trace.kind);
  fact(facts, 'Root', trace.rootPath ?? trace.root, true);
  for (const hop of trace.links) fact(facts, 'Link', `${hop.link} → ${hop.target}`, true);
  fact(facts, 'Platform', trace.simulated ? `${trace.platform} (simulated: the filesystem is not consulted)` : `${trace.platform} (this machine's filesystem)`);
  parts.push(facts);
  banner.replaceChildren(...parts);
}

function statusCell(status: StageStatus | 'ask'): HTMLTableCellElement {
  return el('td', 'status', undefined, icon(STATUS_ICON[status]), el('span', 'status-word', status));
}

/** Appends `text` to `target`, with a line break allowed after each separator (names stay whole where they fit). */
function appendBreakable(target: HTMLElement, text: string): void {
  for (const part of text.split(/(?<=[/\\])/)) {
    if (target.hasChildNodes() && /[/\\]$/.test(target.lastChild?.textContent ?? '')) target.append(document.createElement('wbr'));
    appendShown(target, part);
  }
}

/**
 * A path, its changed segments wrapped in `tag`: `del` in an input for what the stage removed,
 * `ins` in an output for what it added. The stylesheet gives each a hidden spoken label.
 */
function pathCell(value: string | null, segments: readonly Segment[] | null, tag: 'del' | 'ins'): HTMLTableCellElement {
  if (value === null) {
    const dash = el('span', 'none', '—');
    dash.setAttribute('aria-hidden', 'true');
    return el('td', 'path', undefined, dash, visuallyHidden('none'));
  }
  const cell = el('td', 'path');
  let breakable = false;
  for (const segment of segments ?? [{ text: value, changed: false }]) {
    const target = segment.changed ? el(tag) : cell;
    for (const part of segment.text.split(/(?<=[/\\])/)) {
      // A line may break after each separator, so names stay whole where they fit.
      if (breakable) (target.hasChildNodes() ? target : cell).append(document.createElement('wbr'));
      appendShown(target, part);
      breakable = /[/\\]$/.test(part);
    }
    if (target !== cell) cell.append(target);
  }
  // A name cut short: the whole path on hover.
  if (cell.querySelector('.shown-cut') !== null) cell.title = visible(value);
  return cell;
}

/**
 * A text drawn once already: an output that is its input ("unchanged"), or the input of a quiet
 * row that the row above shows ("as above"). The cell says so (the stylesheet's words,
 * spoken too) and keeps the text for hover and copying.
 */
function drawnAlreadyCell(value: string, said: 'unchanged' | 'as-above'): HTMLTableCellElement {
  const text = el('span', 'unchanged-text', value);
  text.setAttribute('aria-hidden', 'true');
  const cell = el('td', `path unchanged ${said}`, undefined, el('span', 'unchanged-label'), text);
  cell.title = visible(value);
  return cell;
}

/** The case stage's output: the key names are compared by, not a new spelling of the path. */
function comparisonKeyCell(key: string): HTMLTableCellElement {
  const text = el('span', 'key-text');
  appendBreakable(text, key);
  return el('td', 'path comparison-key', undefined, el('span', 'key-label'), text);
}

/**
 * What a row's output is: the input rewritten, the key the case stage compares by (the path
 * itself goes on as it was), or containment's verdict word.
 */
type OutputKind = 'rewrite' | 'key' | 'verdict';

function outputKind(stage: StageResult): OutputKind {
  if (stage.stage === 'containment') return 'verdict';
  return stage.stage === 'case' ? 'key' : 'rewrite';
}

/**
 * A stage as its row shows it. The refusals stage judges the text as sent, which the core gives
 * as its input, but what it passes on is parse's result, untouched: its row continues from
 * parse's output, so that the rows read as a chain, and its note says what it judged.
 */
function asShown(stage: StageResult, previous: StageResult | undefined): StageResult {
  if (stage.stage !== 'refusals' || previous?.stage !== 'parse' || previous.output === null || previous.output === stage.input) return stage;
  const judged = "judged on the text as sent (the parse row's input); parse's result goes on unchanged";
  return { ...stage, input: previous.output, output: stage.output === null ? null : previous.output, note: stage.note === '' ? judged : `${stage.note}; ${judged}` };
}

function stagesCaption(title: string, hideUnchanged: boolean): string {
  return `${title}. `
    + 'In each row, what the stage removed from its input and what it added to its output are marked; an output that is its input reads "unchanged", '
    + 'and an input the row above shows, in a row that changed nothing, reads "as above"; '
    + 'the case stage shows the key names are compared by.'
    + (hideUnchanged ? ' Stages that changed nothing are hidden.' : '');
}

/** "Hide unchanged stages": the quiet rows hidden (the stylesheet's rule), and the caption says so. */
export function hideQuietStages(table: HTMLTableElement, hide: boolean): void {
  table.classList.toggle('hide-quiet', hide);
  if (table.caption && table.tBodies[0]?.rows.length) table.caption.textContent = stagesCaption(table.dataset['title'] ?? 'Stages of the decision', hide);
}

/** A row of the stage table, this server's or another program's. */
interface StageRow {
  /** The stage's name, as its row is headed and marked (`data-stage`). */
  readonly name: string;
  readonly status: StageStatus | 'ask';
  readonly input: string;
  readonly output: string | null;
  readonly rule: string;
  readonly note: string;
  readonly kind: OutputKind;
  readonly deciding: boolean;
  /** Drawn after the note: where the rule the stage applied came from. */
  readonly from?: Node;
}

/**
 * One row per stage, with what each stage removed from its input and added to its output
 * marked. A row that passed without changing anything, or was skipped, is drawn quietly unless it
 * decided, so the rows that matter stand out (a note is worth reading even when nothing changed).
 */
function drawStages(table: HTMLTableElement, stages: readonly StageRow[], title: string, hideUnchanged: boolean): void {
  const body = table.tBodies[0] ?? table.createTBody();
  // The texts the row above shows: a quiet row whose input is one of them says "as above".
  let above: readonly (string | null)[] = [];
  const rows = stages.map((stage) => {
    const { kind, deciding } = stage;
    const same = kind !== 'verdict' && stage.output === stage.input;
    const quiet = !deciding && (stage.status === 'skip' || (stage.status === 'pass' && same));
    const change = kind === 'rewrite' && stage.output !== null && !same ? stageChange(stage.input, stage.output) : null;
    const name = el('th', 'stage', stage.name);
    name.scope = 'row';
    const output = stage.output !== null && same ? drawnAlreadyCell(stage.output, 'unchanged')
      : stage.output !== null && kind === 'key' ? comparisonKeyCell(stage.output)
        : pathCell(stage.output, change?.output ?? null, 'ins');
    const note = el('td', 'note', stage.note);
    if (stage.from !== undefined) note.append(...(stage.note === '' ? [] : [document.createTextNode(' ')]), stage.from);
    const row = el('tr', undefined, undefined,
      name,
      statusCell(stage.status),
      quiet && above.includes(stage.input) ? drawnAlreadyCell(stage.input, 'as-above') : pathCell(stage.input, change?.input ?? null, 'del'),
      output,
      el('td', 'rule', stage.rule),
      note,
    );
    if (deciding) row.classList.add('deciding');
    if (quiet) row.classList.add('quiet');
    row.dataset['stage'] = stage.name;
    row.dataset['status'] = stage.status;
    if (deciding) row.setAttribute('aria-current', 'true');
    above = kind === 'rewrite' ? [stage.input, stage.output] : [stage.input];
    return row;
  });
  body.replaceChildren(...rows);
  table.dataset['title'] = title;
  hideQuietStages(table, hideUnchanged);
  table.hidden = false;
}

/**
 * This server's stages. When the root itself was refused the request's stages never ran: the
 * root's conversion is shown instead, its last stage the deciding one.
 */
export function renderStages(table: HTMLTableElement, trace: Trace, hideUnchanged = false): void {
  const rootRefused = trace.stage === 'root';
  const stages = rootRefused ? trace.rootStages : trace.stages;
  const rows = stages.map((original, index): StageRow => {
    const stage = asShown(original, stages[index - 1]);
    return {
      ...stage,
      name: rootRefused ? `root: ${stage.stage}` : stage.stage,
      kind: outputKind(stage),
      deciding: rootRefused ? index === stages.length - 1 : stage.stage === trace.stage,
    };
  });
  drawStages(table, rows, rootRefused ? "Stages of the root's conversion (the root was refused)" : 'Stages of the decision', hideUnchanged);
}

export function clearStages(table: HTMLTableElement): void {
  table.tBodies[0]?.replaceChildren();
  table.hidden = true;
}

/** The names, in the input, the resolved path or the root, whose NFC and NFD bytes differ. */
export function renderBytes(section: HTMLElement, trace: Trace | null): void {
  const found = trace === null ? [] : ambiguousNames([
    { source: 'input', path: trace.input },
    { source: 'path', path: trace.path },
    { source: 'root', path: trace.rootPath },
  ]);
  if (found.length === 0) {
    section.replaceChildren();
    section.hidden = true;
    return;
  }
  const table = el('table', 'bytes-table');
  table.append(el('caption', 'visually-hidden', 'Names with two Unicode spellings, and the UTF-8 bytes of each'));
  const head = el('tr');
  for (const title of ['Name', 'Form', 'Seen in', 'NFC bytes', 'NFD bytes']) {
    const th = el('th', undefined, title);
    th.scope = 'col';
    head.append(th);
  }
  table.createTHead().append(head);
  const body = table.createTBody();
  for (const name of found) {
    const nameCell = el('th', 'path', name.name);
    nameCell.scope = 'row';
    body.append(el('tr', undefined, undefined,
      nameCell,
      el('td', `unicode-form unicode-form-${name.form.toLowerCase()}`, name.form),
      el('td', undefined, name.sources.join(', ')),
      el('td', 'hex', utf8Hex(name.nfc)),
      el('td', 'hex', utf8Hex(name.nfd)),
    ));
  }
  section.replaceChildren(
    el('h2', undefined, 'Unicode spellings'),
    el('p', 'bytes-explain', 'These names look the same in NFC and NFD but are different bytes. Linux compares bytes, so the two spellings are two different names; macOS treats them as one.'),
    table,
  );
  section.hidden = false;
}

/** A near miss's reason, in words. */
function nearMissWhy(miss: NearMiss, roots: readonly RootChoice[]): string {
  switch (miss.why) {
    case 'case':
      return 'the same name in another case, which this filesystem keeps apart';
    case 'unicode':
      return 'the same name in another Unicode form (NFC or NFD), which this filesystem keeps apart';
    case 'percent-encoding':
      return 'percent-encoding: an escape taken literally, or a "#", "?" or space that cut the URI short';
    case 'trailing-dot-space':
      return 'the same name with trailing dots or spaces added or dropped';
    case 'root-name':
      return "without the workspace folder's own name, which the path repeated";
    case 'root-relative':
      return 'below the workspace: the path was written as if the workspace were the filesystem\'s root';
    case 'separator':
      return 'with "\\" as a separator: on this platform only "/" separates names, and "\\" is part of one';
    case 'workspace': {
      const workspace = roots.find((choice) => choice.uri === miss.workspace);
      return `in another granted workspace, ${workspace?.label ?? miss.workspace ?? 'not in the list'}: traced against it`;
    }
    default:
      return miss.why;
  }
}

/**
 * How to type a near miss: relative to the root when the input was relative and the entry lies in
 * the root (as the person typed it), its URI otherwise.
 */
export function suggestionOf(trace: Trace | null, miss: NearMiss): string {
  if (trace === null || trace.rootPath === null || miss.workspace !== undefined) return miss.uri;
  const typedRelative = !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(trace.input) && !/^[/\\]/.test(trace.input);
  const separator = trace.platform === 'win32' ? '\\' : '/';
  const base = trace.rootPath.endsWith(separator) ? trace.rootPath : trace.rootPath + separator;
  if (!typedRelative || !miss.path.startsWith(base)) return miss.uri;
  return miss.path.slice(base.length).split(separator).join('/');
}

/** "Did you mean…": each near miss a button that traces it. Hidden when there are none. */
export function renderNearMisses(section: HTMLElement, list: HTMLUListElement, misses: readonly NearMiss[], roots: readonly RootChoice[], pick: (miss: NearMiss) => void, trace: Trace | null = null): void {
  list.replaceChildren(...misses.map((miss) => {
    const suggestion = suggestionOf(trace, miss);
    // A name in another Unicode form looks the same as the input's: its code points say how it differs.
    const differs = trace === null || trace.path === null ? undefined : lookalikeNote(trace.path, miss.path);
    const button = el('button', 'near-miss', undefined,
      icon('codicon-arrow-right'),
      el('span', 'near-miss-uri', suggestion),
      document.createTextNode(' '),
      el('span', 'near-miss-why', nearMissWhy(miss, roots)),
      ...(differs === undefined ? [] : [document.createTextNode(' '), el('span', 'near-miss-differs', differs)]),
    );
    button.type = 'button';
    button.title = `Trace ${visible(suggestion)}`;
    button.dataset['why'] = miss.why;
    button.addEventListener('click', () => pick(miss));
    return el('li', undefined, undefined, button);
  }));
  section.hidden = misses.length === 0;
}

// ------------------------------------------------------------------------------ other programs

const DECISION_ICON: Readonly<Record<Decision, string>> = { allow: 'codicon-pass', ask: 'codicon-question', deny: 'codicon-error' };
/** A decision drawn in the colours of the trace's verdicts: allow as inside, deny as outside, ask as a warning. */
const DECISION_CLASS: Readonly<Record<Decision, string>> = { allow: 'verdict-inside', ask: 'verdict-refused', deny: 'verdict-outside' };

/** What a shown verdict offers: opening a file it names (the panel), copying a fix's text. */
export interface VerdictActions {
  /** The files that can be opened; none in a view that cannot open files. */
  readonly present: readonly string[];
  /** Opens `file` at `line`; a file not there yet opens unsaved, holding `add`. Absent where nothing opens files (the MCP Apps view). */
  readonly open?: (file: string, line?: number, lines?: number, add?: string) => void;
  /** Copies a fix's text, saying so in `status`; absent where nothing copies it (the text stays selectable). */
  readonly copy?: (text: string, status: HTMLElement) => void;
}

/** A rule's source: its file and line as a button that opens it there, where it can be opened; else as text. */
function sourceNode(source: RuleSource | undefined, actions: VerdictActions): HTMLElement {
  const text = sourceText(source);
  const file = source?.file;
  if (file === undefined || actions.open === undefined || !actions.present.includes(file)) return el('span', 'source', text);
  const button = el('button', 'link-button source', text);
  button.type = 'button';
  button.title = `Open ${visible(file)}${source?.line !== undefined ? ` at line ${source.line}` : ''}`;
  button.addEventListener('click', () => actions.open?.(file, source?.line));
  return button;
}

/** A decider's stages as the stage table draws them, in its own order and words. */
export function renderDeciderStages(table: HTMLTableElement, verdict: DeciderVerdict, actions: VerdictActions, hideUnchanged = false): void {
  const deciding = decidingStage(verdict.stages);
  // A stage's output is a rewrite of its input when both are paths; otherwise (settings read, a mode chosen) what it found.
  const pathLike = (text: string | null) => text !== null && /[/\\]/.test(text) && !/[;,] /.test(text);
  const rows = verdict.stages.map(({ source, ...stage }, index): StageRow => ({
    ...stage,
    kind: pathLike(stage.input) && pathLike(stage.output) ? 'rewrite' : 'verdict',
    deciding: index === deciding,
    ...(source !== undefined ? { from: el('span', 'stage-source', 'from ', sourceNode(source, actions)) } : {}),
  }));
  drawStages(table, rows, `Stages of ${verdict.program}'s decision`, hideUnchanged);
}

/** The banner of another program's decision: what it decided, the rule and where it came from, the tool it was judged as. */
export function renderDecision(banner: HTMLElement, verdict: DeciderVerdict & { readonly cwd?: string; readonly simulated?: boolean }, actions: VerdictActions): void {
  banner.className = `verdict ${DECISION_CLASS[verdict.decision]}`;
  banner.dataset['decision'] = verdict.decision;
  const headline = el('p', 'verdict-headline', undefined, icon(DECISION_ICON[verdict.decision]), el('strong', undefined, `${verdict.decision.toUpperCase()} — ${verdict.program} ${verdict.version}`));
  const operation = el('p', 'verdict-operation', `As seen by ${verdict.tool}: ${verdict.access === 'change' ? 'changes' : 'reads'} the path`);
  const rule = el('p', 'verdict-reason', undefined, el('span', 'verdict-rule', verdict.rule.text), document.createTextNode(' ('), sourceNode(verdict.rule.source, actions), document.createTextNode(')'));
  const facts = el('dl', 'verdict-facts');
  if (verdict.path !== null) fact(facts, 'Resolved path', verdict.path, true);
  if (verdict.cwd !== undefined) fact(facts, 'Working folder', verdict.cwd, true);
  fact(facts, 'Checked', verdict.basis === 'recorded' ? `against ${verdict.program} ${verdict.version} running` : `as documented for ${verdict.program} ${verdict.version}, not observed`);
  if (verdict.simulated !== undefined) fact(facts, 'Platform', verdict.simulated ? 'simulated: no configuration file of this machine was read' : "this machine's configuration files");
  banner.replaceChildren(headline, operation, rule, facts);
}

function fixItem(fix: Fix, actions: VerdictActions): HTMLLIElement {
  const item = el('li', 'fix', undefined, el('p', 'fix-text', fix.text));
  const file = fix.file;
  if (file !== undefined && actions.open !== undefined) {
    const there = actions.present.includes(file);
    const open = el('button', 'secondary', undefined, icon(there ? 'codicon-go-to-file' : 'codicon-new-file'), document.createTextNode(there ? ` Open ${visible(file)}${fix.line !== undefined ? `:${fix.line}` : ''}` : ` Create ${visible(file)}…`));
    open.type = 'button';
    open.className = 'secondary fix-open';
    open.title = there
      ? 'Opens the file at the line where the change goes: nothing is changed until you change it'
      : 'Opens a new editor for this file holding the text below: nothing is written until you save it';
    open.addEventListener('click', () => actions.open?.(file, fix.line, fix.lines, fix.add));
    item.append(open);
  } else if (file !== undefined) {
    item.append(el('p', 'fix-where', `in ${file}${fix.line !== undefined ? `, line ${fix.line}` : ''}`));
  }
  for (const [text, label] of [[fix.add, 'Copy the text'], [fix.flag, 'Copy the flag'], [fix.path, 'Copy the path']] as const) {
    if (text === undefined) continue;
    const block = el('pre', 'fix-add');
    appendShown(block, text, { whole: true, lines: true });
    item.append(block);
    const copy = actions.copy;
    if (copy === undefined) continue;
    const status = el('span', 'fix-copied');
    status.setAttribute('role', 'status');
    const button = el('button', 'secondary fix-copy', undefined, icon('codicon-copy'), document.createTextNode(` ${label}`));
    button.type = 'button';
    button.addEventListener('click', () => copy(text, status));
    item.append(el('div', 'actions', undefined, button, status));
  }
  return item;
}

/** Below another program's banner: what would allow the input, where the program differs from this server, the files it read. */
export function renderDecided(section: HTMLElement, verdict: DeciderVerdict | null, actions: VerdictActions): void {
  if (verdict === null) {
    section.replaceChildren();
    section.hidden = true;
    return;
  }
  const parts: Node[] = [];
  if (verdict.fixes.length > 0) {
    parts.push(el('h2', undefined, 'To allow it'), el('ol', 'fixes', undefined, ...verdict.fixes.map((fix) => fixItem(fix, actions))));
  }
  if (verdict.differences.length > 0) {
    parts.push(el('h2', undefined, `Where ${verdict.program} differs from Boundary Inspector`), el('ul', 'differences', undefined, ...verdict.differences.map((text) => el('li', undefined, text))));
  }
  if (verdict.configFiles.length > 0) {
    parts.push(
      el('h2', undefined, `Configuration ${verdict.program} reads`),
      el('ul', 'config-files', undefined, ...verdict.configFiles.map((file) => {
        const item = el('li', file.found ? (file.used ? 'config-used' : 'config-read') : 'config-missing', undefined,
          sourceNode({ text: file.path, file: file.path }, actions),
          el('span', 'config-role', ` ${file.role}: ${file.found ? (file.used ? 'read, and it decided or shaped this' : 'read, nothing in it bore on this') : 'not there, so its defaults apply'}`));
        item.dataset['found'] = String(file.found);
        return item;
      })),
    );
  }
  section.replaceChildren(...parts);
  section.hidden = parts.length === 0;
}

/**
 * One input, every program: a row each with its decision, the rule that decided and its source.
 * Choosing a row shows that program's stages; the row shown is marked.
 */
export function renderComparison(section: HTMLElement, table: HTMLTableElement, rows: readonly ComparedRow[], deciders: readonly DeciderChoice[], current: DeciderName, pick: (row: ComparedRow) => void, actions: VerdictActions): void {
  const body = table.tBodies[0] ?? table.createTBody();
  body.replaceChildren(...rows.map((row) => {
    const program = deciders.find((decider) => decider.name === row.decider)?.program ?? row.decider;
    const choose = el('button', 'link-button compare-pick', program);
    choose.type = 'button';
    choose.title = `${program}'s stages`;
    choose.addEventListener('click', () => pick(row));
    const name = el('th', 'compare-program', undefined, choose);
    name.scope = 'row';
    const cells: HTMLTableCellElement[] = 'error' in row
      ? [el('td', 'compare-decision compare-error', 'error'), el('td', 'compare-rule', row.error), el('td', 'compare-source', '')]
      : 'unseen' in row
        ? [el('td', 'compare-decision compare-unseen', 'not decided here'), el('td', 'compare-rule', `It reads ${row.unseen.join(', ')}, which cannot be seen here.`), el('td', 'compare-source', '')]
        : [
          el('td', `compare-decision decision-${row.decision}`, undefined, icon(DECISION_ICON[row.decision]), el('span', undefined, row.decision)),
          el('td', 'compare-rule', row.rule.text),
          el('td', 'compare-source', undefined, sourceNode(row.rule.source, actions)),
        ];
    const tr = el('tr', undefined, undefined, name, el('td', 'compare-tool', row.tool), ...cells);
    tr.dataset['decider'] = row.decider;
    tr.dataset['decision'] = 'error' in row ? 'error' : 'unseen' in row ? 'unseen' : row.decision;
    if (row.decider === current) tr.setAttribute('aria-current', 'true');
    return tr;
  }));
  section.hidden = rows.length === 0;
}

/** Where a trace is drawn: the panel's page and the MCP Apps view each hold these. */
export interface TraceParts {
  readonly verdict: HTMLElement;
  readonly near: HTMLElement;
  readonly nearList: HTMLUListElement;
  readonly stages: HTMLTableElement;
  readonly bytes: HTMLElement;
}

export interface TraceChoices {
  readonly roots: readonly RootChoice[];
  readonly pick: (miss: NearMiss) => void;
  readonly hideUnchanged: boolean;
}

/** A trace, whole: its verdict, what it nearly named, its stages and its ambiguous names. */
export function renderTrace(parts: TraceParts, trace: Trace, context: VerdictContext, choices: TraceChoices): void {
  renderVerdict(parts.verdict, trace, context);
  renderNearMisses(parts.near, parts.nearList, nearMissesOf(trace), choices.roots, choices.pick, trace);
  renderStages(parts.stages, trace, choices.hideUnchanged);
  renderBytes(parts.bytes, trace);
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/** The last audit of each folder: its findings as buttons that trace the entry. */
export function renderAudits(container: HTMLElement, audits: readonly AuditSummary[], pick: (audit: AuditSummary, finding: AuditFinding, button: HTMLButtonElement) => void): void {
  if (audits.length === 0) {
    container.replaceChildren(el('p', 'audit-empty', 'No audit yet. An audit walks each workspace folder without following links and lists links that escape, dangle or loop, case and Unicode twins, names other platforms cannot hold, names with hidden characters, hard links and what cannot be read.'));
    return;
  }
  container.replaceChildren(...audits.map((audit) => {
    const time = el('time', 'audit-time', fullTime(audit.time));
    time.dateTime = audit.time;
    const found = audit.error !== null ? 'did not finish' : audit.total === 0 ? 'nothing found' : plural(audit.total, 'finding');
    const scanned = audit.error !== null ? '' : `, ${plural(audit.scanned, 'entry', 'entries')} examined${audit.truncated ? ' (stopped at the limit: boundaryInspector.auditMaxEntries)' : ''}`;
    const parts: Node[] = [el('h3', 'audit-head', undefined, el('span', 'audit-folder', audit.label), document.createTextNode(`: ${found}${scanned} · `), time)];
    if (audit.error !== null) parts.push(el('p', 'audit-error', audit.error));
    // Grouped by kind, in the order the audit found them: one heading and one list per kind.
    const kinds = [...new Set(audit.findings.map((finding) => finding.kind))];
    for (const kind of kinds) {
      const ofKind = audit.findings.filter((finding) => finding.kind === kind);
      const list = el('ol', 'audit-findings');
      list.append(...ofKind.map((finding) => {
        const button = el('button', 'finding', undefined,
          el('span', 'finding-path', finding.path),
          document.createTextNode(' '),
          el('span', 'finding-detail', finding.detail),
        );
        button.type = 'button';
        button.title = `Trace ${visible(finding.path)}`;
        button.dataset['kind'] = finding.kind;
        button.addEventListener('click', () => pick(audit, finding, button));
        return el('li', undefined, undefined, button);
      }));
      const group = el('section', 'audit-kind', undefined, el('h4', 'audit-kind-head', undefined, el('span', `finding-kind finding-${kind}`, kind), document.createTextNode(` (${ofKind.length.toLocaleString()})`)), list);
      group.dataset['kind'] = kind;
      parts.push(group);
    }
    if (audit.total > audit.findings.length) parts.push(el('p', 'audit-more', `and ${plural(audit.total - audit.findings.length, 'more finding')} in the Problems panel`));
    if (audit.notKept > 0) parts.push(el('p', 'audit-not-kept', `${plural(audit.notKept, 'more finding')} found but not kept: the audit keeps the most serious first, up to its bounds.`));
    const section = el('section', 'audit-folder-result', undefined, ...parts);
    section.dataset['root'] = audit.root;
    return section;
  }));
}

/** Local date and time to the second: refusals come seconds apart, and a log spans days. */
function fullTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

function codeClass(entry: RefusalEntry): string {
  if (entry.event === 'not-found') return 'code code-missing';
  return entry.code === 'ERR_OUTSIDE' || entry.code === 'ERR_SYMLINK_ESCAPE' ? 'code code-outside' : 'code code-refused';
}

/** The refusal log, newest first (the order it arrives in); each entry a button that loads it. */
export function renderRefusals(list: HTMLOListElement, entries: readonly RefusalEntry[], pick: (entry: RefusalEntry, button: HTMLButtonElement) => void, whenNone?: string): void {
  // The list is replaced whenever the log changes: keep the keyboard on the entry it was on.
  const active = document.activeElement;
  const focusedKey = active instanceof HTMLButtonElement && list.contains(active) ? active.dataset['key'] : undefined;
  if (entries.length === 0) {
    list.replaceChildren(el('li', 'refusals-empty', whenNone ?? 'No refusals yet. A call of the agent that the server refuses, or that names a path with nothing there, appears here. To see one now, trace a path above and run it on the server.'));
    return;
  }
  list.replaceChildren(...entries.map((entry) => {
    const time = el('time', 'refusal-time', fullTime(entry.time));
    time.dateTime = entry.time;
    // The tool first: what was refused is the question a person scanning the list asks.
    // A path allowed but naming nothing reads differently from a refusal: it is marked as such.
    const head = entry.event === 'not-found'
      ? el('span', 'refusal-head', undefined,
        el('span', 'refusal-tool', entry.tool),
        document.createTextNode(' '),
        el('span', 'refusal-event', 'not found'),
        document.createTextNode(' '),
        el('span', codeClass(entry), entry.code),
        document.createTextNode(' '),
        time,
      )
      : el('span', 'refusal-head', undefined,
        el('span', 'refusal-tool', entry.tool),
        document.createTextNode(' '),
        el('span', codeClass(entry), entry.code),
        document.createTextNode(' at '),
        el('span', 'refusal-stage', entry.stage),
        document.createTextNode(' '),
        time,
      );
    const button = el('button', 'refusal', undefined,
      head,
      document.createTextNode(' '),
      el('span', 'refusal-input', entry.input === '' ? '(empty input)' : entry.input),
      document.createTextNode(' '),
      el('span', 'refusal-reason', entry.reason),
    );
    // A not-found event's reason already names its near misses, as the server answered.
    const misses = entry.event === 'not-found' ? [] : nearMissesOf(entry.trace);
    if (misses.length > 0) {
      const more = misses.length > 1 ? ` and ${plural(misses.length - 1, 'more')}` : '';
      button.append(document.createTextNode(' '), el('span', 'refusal-near', `Did you mean ${suggestionOf(entry.trace, misses[0]!)}${more}?`));
    }
    button.type = 'button';
    button.dataset['key'] = refusalKey(entry);
    button.dataset['event'] = entry.event ?? 'refusal';
    button.addEventListener('click', () => pick(entry, button));
    return el('li', undefined, undefined, button);
  }));
  if (focusedKey !== undefined) {
    const again = Array.from(list.querySelectorAll('button')).find((button) => button.dataset['key'] === focusedKey);
    again?.focus({ preventScroll: true });
  }
}

/** A logged trace's near misses: lines written before the server looked for them have none. */
export function nearMissesOf(trace: Trace | null): readonly NearMiss[] {
  const misses = (trace as { readonly nearMisses?: unknown } | null)?.nearMisses;
  return Array.isArray(misses) ? (misses as NearMiss[]) : [];
}

export function refusalKey(entry: RefusalEntry): string {
  return JSON.stringify([entry.time, entry.tool, entry.workspaceUri, entry.input, entry.code]);
}

/**
 * One row for a trace table (test/core/assertTrace.ts `TraceRow`), on one line. Hidden
 * characters are JSON escapes, which read back as the real text: pasted into a test file, the row
 * cannot reorder the code around it.
 */
export function testCaseRow(trace: Trace): string {
  return visible(JSON.stringify({
    name: `${trace.verdict}${trace.code === null ? '' : ` ${trace.code}`}: ${trace.input}`,
    input: trace.input,
    root: trace.root,
    platform: trace.platform,
    policy: trace.policy,
    verdict: trace.verdict,
    // Absent rather than null, so the row type-checks as a TraceRow when pasted into a test.
    code: trace.code ?? undefined,
    stage: trace.stage,
    path: trace.path ?? undefined,
  }));
}

/** The real server's answer to "Run on the server"; null while it is on its way. */
export function renderAnswer(section: HTMLElement, tool: string, answer: ToolAnswer | null): void {
  const heading = el('h2', undefined, `The server's answer to ${tool}`);
  section.hidden = false;
  if (answer === null) {
    section.dataset['kind'] = 'pending';
    section.replaceChildren(heading, el('p', 'answer-status', 'Asking the server…'));
    return;
  }
  section.dataset['kind'] = answer.kind;
  if (answer.kind === 'not-run' || answer.kind === 'failed') {
    section.replaceChildren(heading, el('p', 'answer-status', `${answer.kind === 'failed' ? 'The server did not answer: ' : ''}${answer.reason}`));
    return;
  }
  const status = answer.kind === 'refused'
    ? el('p', 'answer-status', undefined, icon('codicon-error'), el('span', undefined, 'Refused: '), el('span', 'code code-refused', answer.code ?? ''), document.createTextNode(answer.stage ? ` at ${answer.stage}. It is in the refusal list below.` : ''))
    : answer.kind === 'error'
      ? el('p', 'answer-status', undefined, icon('codicon-warning'), el('span', undefined, 'The call failed (the path was allowed).'))
      : el('p', 'answer-status', undefined, icon('codicon-pass'), el('span', undefined, 'Answered.'));
  // A file's text: its line breaks and tabs kept, nothing cut (the answer is bounded already).
  const text = el('pre', 'answer-text');
  appendShown(text, answer.text, { whole: true, lines: true });
  text.tabIndex = 0;
  const parts: Node[] = [heading, status, text];
  if (answer.omittedChars > 0) parts.push(el('p', 'answer-more', `and ${plural(answer.omittedChars, 'more character')} not shown`));
  section.replaceChildren(...parts);
}
