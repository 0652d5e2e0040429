import * as path from 'node:path';
import { FINDING_KINDS, foundCount, notKeptSentence, type AuditReport, type Finding, type FindingKind } from '../audit/audit.js';
import { lookalikeNote, visible, type StageResult, type StageStatus, type Trace } from '../core/index.js';
import { decidingStage, sourceText as sourceOf, type Decision, type DeciderVerdict, type RuleSource } from '../deciders/index.js';

const COLORS: Record<StageStatus | 'ask' | 'bold' | 'dim', [number, number]> = {
  pass: [32, 39],
  note: [33, 39],
  refuse: [31, 39],
  ask: [33, 39],
  skip: [2, 22],
  bold: [1, 22],
  dim: [2, 22],
};

/** Colours text by style, or leaves it plain. */
function painter(color: boolean): (style: keyof typeof COLORS, text: string) => string {
  return (style, text) => (color ? `\u001b[${COLORS[style][0]}m${text}\u001b[${COLORS[style][1]}m` : text);
}

/**
 * Text from the disk or the input as a report prints it: a report must not drive the terminal, so
 * controls, bidi and other invisible characters are escaped, and a very long name is cut to its
 * ends (--json has it whole).
 */
function shown(text: string): string {
  return visible(text, { shorten: true });
}

/**
 * Renders a trace as a table, one row per stage, the deciding row marked with ">"; headed by the
 * operation judged, when given. Every text of the trace goes through `shown`.
 */
export function renderTrace(result: Trace, options: { readonly color: boolean; readonly operation?: { readonly tool: string; readonly acts: string } }): string {
  const paint = painter(options.color);
  const lines: string[] = [];
  const where = result.simulated ? `${result.platform}, simulated` : `${result.platform}, this machine's filesystem`;
  lines.push(`${paint('bold', 'trace')} ${shown(result.input)}`);
  lines.push(`${paint('bold', 'root')}  ${shown(result.root)}${result.rootPath ? ` = ${shown(result.rootPath)}` : ''} (${where})`);
  if (options.operation) lines.push(`${paint('bold', 'as')}    ${options.operation.tool}: ${options.operation.acts}`);
  lines.push('');

  const rows: readonly StageResult[] = result.stage === 'root' ? result.rootStages : result.stages;
  const stageWidth = Math.max(5, ...rows.map((stage) => stage.stage.length));
  lines.push(`  ${'STAGE'.padEnd(stageWidth)}  ${'STATUS'.padEnd(6)}  INPUT -> OUTPUT`);
  const indent = ' '.repeat(stageWidth + 12);
  rows.forEach((stage, index) => {
    const deciding = result.stage === 'root' ? index === rows.length - 1 : stage.stage === result.stage;
    const marker = deciding ? paint('bold', '>') : ' ';
    const flow = stage.output === null || stage.output === stage.input ? shown(stage.input) : `${shown(stage.input)} -> ${shown(stage.output)}`;
    lines.push(`${marker} ${stage.stage.padEnd(stageWidth)}  ${paint(stage.status, stage.status.padEnd(6))}  ${flow}`);
    lines.push(`${indent}${paint('dim', `rule: ${shown(stage.rule)}`)}`);
    if (stage.note !== '') lines.push(`${indent}note: ${shown(stage.note)}`);
  });
  lines.push('');
  const verdictStyle = result.verdict === 'inside' ? 'pass' : 'refuse';
  const decided = result.code ? ` (${result.code} at ${result.stage})` : ` (at ${result.stage})`;
  lines.push(`${paint('bold', 'verdict')} ${paint(verdictStyle, result.verdict.toUpperCase())}${decided}`);
  lines.push(`${paint('bold', 'reason')}  ${shown(result.reason)}`);
  if (result.path !== null) lines.push(`${paint('bold', 'path')}    ${shown(result.path)}`);
  if (result.nearMisses.length > 0) {
    lines.push('', paint('bold', 'Did you mean:'));
    const whyWidth = Math.max(...result.nearMisses.map((miss) => miss.why.length));
    for (const miss of result.nearMisses) {
      const where = miss.workspace !== undefined ? ` (in workspace ${shown(miss.workspace)})` : '';
      // A name in another Unicode form looks the same: its code points say how it differs.
      const differs = result.path === null ? undefined : lookalikeNote(result.path, miss.path);
      lines.push(`  ${miss.why.padEnd(whyWidth)}  ${shown(miss.uri)}${where}${differs === undefined ? '' : `  (${differs})`}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const DECISION_STYLES: Record<Decision, StageStatus | 'ask'> = { allow: 'pass', ask: 'ask', deny: 'refuse' };

/** Where a rule came from (deciders/reading.ts), as a report prints it. */
function sourceText(source: RuleSource | undefined): string {
  return shown(sourceOf(source));
}

/**
 * Renders a decider's verdict as `renderTrace` renders a trace: the program, one row per stage
 * of its own, the decision with the rule that decided and where it came from, the fixes, where it
 * differs from this server, and the configuration files it read. Every text goes through `shown`.
 */
export function renderVerdict(verdict: DeciderVerdict, options: { readonly color: boolean }): string {
  const paint = painter(options.color);
  const lines: string[] = [];
  lines.push(`${paint('bold', 'trace')} ${shown(verdict.input)}`);
  lines.push(`${paint('bold', 'by')}    ${verdict.decider}: ${shown(verdict.program)} ${shown(verdict.version)} (${verdict.basis === 'recorded' ? 'checked against the program running' : 'as documented, not observed'})`);
  lines.push(`${paint('bold', 'as')}    ${shown(verdict.tool)} (${verdict.access === 'change' ? 'changes' : 'reads'} the path)`);
  lines.push('');
  const width = Math.max(5, ...verdict.stages.map((stage) => shown(stage.name).length));
  lines.push(`  ${'STAGE'.padEnd(width)}  ${'STATUS'.padEnd(6)}  INPUT -> OUTPUT`);
  const indent = ' '.repeat(width + 12);
  const deciding = decidingStage(verdict.stages);
  verdict.stages.forEach((stage, index) => {
    const flow = stage.output === null || stage.output === stage.input ? shown(stage.input) : `${shown(stage.input)} -> ${shown(stage.output)}`;
    lines.push(`${index === deciding ? paint('bold', '>') : ' '} ${shown(stage.name).padEnd(width)}  ${paint(stage.status, stage.status.padEnd(6))}  ${flow}`);
    lines.push(`${indent}${paint('dim', `rule: ${shown(stage.rule)}`)}`);
    if (stage.note !== '') lines.push(`${indent}note: ${shown(stage.note)}`);
    if (stage.source !== undefined) lines.push(`${indent}from: ${sourceText(stage.source)}`);
  });
  lines.push('');
  lines.push(`${paint('bold', 'decision')} ${paint(DECISION_STYLES[verdict.decision], verdict.decision.toUpperCase())}`);
  lines.push(`${paint('bold', 'rule')}     ${shown(verdict.rule.text)} (${sourceText(verdict.rule.source)})`);
  if (verdict.path !== null) lines.push(`${paint('bold', 'path')}     ${shown(verdict.path)}`);
  if (verdict.fixes.length > 0) {
    lines.push('', paint('bold', 'To allow it:'));
    for (const fix of verdict.fixes) {
      lines.push(`  - ${shown(fix.text)}`);
      if (fix.file !== undefined) lines.push(`      in ${shown(fix.file)}${fix.line !== undefined ? `:${fix.line}` : ''}`);
      if (fix.add !== undefined) for (const line of fix.add.split('\n')) lines.push(`      ${shown(line)}`);
      if (fix.flag !== undefined) lines.push(`      flag: ${shown(fix.flag)}`);
      if (fix.path !== undefined) lines.push(`      path: ${shown(fix.path)}`);
    }
  }
  if (verdict.differences.length > 0) {
    lines.push('', paint('bold', 'Where it differs from Boundary Inspector:'));
    for (const difference of verdict.differences) lines.push(`  - ${shown(difference)}`);
  }
  if (verdict.configFiles.length > 0) {
    lines.push('', paint('bold', 'Configuration files:'));
    for (const file of verdict.configFiles) {
      lines.push(`  ${shown(file.path)}  ${shown(file.role)}, ${file.found ? (file.used ? 'read, used' : 'read, not used') : 'not found: defaults apply'}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** One line per decider: its name, its decision and the rule that decided, with where it came from. */
export function renderComparison(input: string, rows: readonly ({ readonly decider: string; readonly verdict: DeciderVerdict } | { readonly decider: string; readonly error: string })[], options: { readonly color: boolean }): string {
  const paint = painter(options.color);
  const width = Math.max(...rows.map((row) => row.decider.length));
  const lines = [`${paint('bold', 'compare')} ${shown(input)}`, ''];
  for (const row of rows) {
    if ('error' in row) {
      lines.push(`${row.decider.padEnd(width)}  ${'ERROR'.padEnd(5)}  ${shown(row.error)}`);
      continue;
    }
    const { verdict } = row;
    const decision = paint(DECISION_STYLES[verdict.decision], verdict.decision.toUpperCase().padEnd(5));
    lines.push(`${row.decider.padEnd(width)}  ${decision}  ${shown(verdict.tool)}: ${shown(verdict.rule.text)} (${sourceText(verdict.rule.source)})`);
  }
  return `${lines.join('\n')}\n`;
}

const KIND_HEADINGS: Record<FindingKind, string> = {
  'link-escapes': 'links whose chain leads outside the workspace (the server refuses every path through them)',
  'link-dangling': 'links whose chain ends at nothing',
  'link-loop': 'links whose chain loops',
  unreadable: 'what could not be listed or examined',
  'not-portable': 'names Windows or macOS cannot hold, or would read as another name',
  'wsl-one-side': 'inside WSL, what only Linux or only Windows can use: a name Windows cannot hold on a drive WSL shares, a link only one side can follow',
  'hidden-characters': 'names holding characters that do not show, or that reorder the text around them (bidi controls): on screen they read as other names',
  'case-twins': 'names in one folder that differ only by case',
  'unicode-twins': 'NFC and NFD spellings of one name in one folder',
  'hard-link': 'files with more than one name (hard links): reading one reads the others',
};

/** Findings shown per kind; --json has them all. */
const SHOWN_PER_KIND = 20;

/**
 * Renders an audit as a report grouped by kind, with counts. Hard links below a `node_modules`
 * folder are summarised per such folder: package stores link files on purpose, by the thousand.
 */
export function renderAudit(root: string, report: AuditReport, options: { readonly color: boolean }): string {
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const count = (n: number) => n.toLocaleString('en-US');
  const relative = (entry: string) => path.relative(report.rootPath, entry) || '.';
  const lines: string[] = [];
  lines.push(`${bold('audit')} ${shown(root)}${root === report.rootPath ? '' : ` = ${shown(report.rootPath)}`}`);
  lines.push(`${bold('scanned')} ${count(report.scanned)} entries, links not followed`);
  if (report.truncated) lines.push(`${bold('stopped')} at --max-entries ${count(report.scanned)}: the rest was not examined`);

  for (const kind of FINDING_KINDS) {
    const found = report.findings.filter((finding) => finding.kind === kind);
    const notKept = report.notKept[kind] ?? 0;
    if (found.length + notKept === 0) continue;
    lines.push('', `${bold(kind)} (${count(found.length + notKept)}${notKept > 0 ? `, ${count(notKept)} not kept` : ''}): ${KIND_HEADINGS[kind]}`);
    const stores = new Map<string, number>();
    const listed: Finding[] = [];
    for (const finding of found) {
      const store = kind === 'hard-link' ? storeOf(relative(finding.path)) : undefined;
      if (store === undefined) listed.push(finding);
      else stores.set(store, (stores.get(store) ?? 0) + 1);
    }
    for (const [store, files] of stores) {
      lines.push(`  ${shown(store)}/ ${count(files)} file${files === 1 ? '' : 's'}: a package store such as pnpm's links its files on purpose`);
    }
    for (const finding of listed.slice(0, SHOWN_PER_KIND)) {
      const entry = relative(finding.path);
      // A trailing or leading space would be invisible unquoted.
      const name = /^\s|\s$/.test(entry) ? JSON.stringify(entry) : entry;
      lines.push(`  ${shown(name)}${finding.target !== undefined ? ` -> ${shown(finding.target)}` : ''}`);
      lines.push(`      ${shown(finding.detail)}`);
    }
    if (listed.length > SHOWN_PER_KIND) lines.push(`  ... and ${count(listed.length - SHOWN_PER_KIND)} more (--json lists every finding kept)`);
  }

  lines.push('');
  const total = foundCount(report);
  if (total === 0) {
    lines.push(report.truncated ? 'Nothing found in the entries examined.' : 'Nothing found.');
  } else {
    const byKind = FINDING_KINDS.map((kind) => [kind, report.findings.filter((finding) => finding.kind === kind).length + (report.notKept[kind] ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${count(n)} ${kind}`);
    lines.push(`${count(total)} finding${total === 1 ? '' : 's'}: ${byKind.join(', ')}`);
    const notKept = notKeptSentence(report);
    if (notKept !== undefined) lines.push(notKept);
  }
  return `${lines.join('\n')}\n`;
}

/** The outermost `node_modules` folder holding a relative path, if any. */
function storeOf(relativePath: string): string | undefined {
  const names = relativePath.split(path.sep);
  const at = names.indexOf('node_modules');
  return at >= 0 && at < names.length - 1 ? names.slice(0, at + 1).join(path.sep) : undefined;
}
