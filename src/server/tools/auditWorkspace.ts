import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { auditWorkspace as runAudit, FINDING_KINDS, foundCount, KEPT_BOUNDS, notKeptSentence, type AuditReport, type Finding } from '../../audit/audit.js';
import { AnswerBudget, DEFAULT_AUDIT_ENTRIES, jsonLength, MAX_AUDIT_ENTRIES } from '../limits.js';
import { AUDIT_VIEW } from './appViews.js';
import { defineTool, ok, type Scope } from './tool.js';

/** Paths the text shows for each kind of finding; the structured list holds every one that fits. */
const SHOWN_PER_KIND = 10;

const findingSchema = z.object({
  kind: z
    .enum(FINDING_KINDS)
    .describe(
      'link-escapes (a link leading outside: every path through it is refused), link-dangling, link-loop, unreadable (a folder or entry that could not be examined), ' +
        'not-portable (a name Windows or macOS cannot hold), wsl-one-side (inside WSL, a name or link only Linux or only Windows can use), hidden-characters (a name holding bidi controls or invisible characters, which reads as another on screen), case-twins and unicode-twins (names another platform takes as one), hard-link (a file with other names).',
    ),
  path: z.string().describe('The entry\'s absolute path.'),
  detail: z.string().describe('What is wrong, and what to do about it.'),
  target: z.string().optional().describe('Where the link\'s chain lands: link-escapes and link-dangling only.'),
});

/** What a finding costs in the structured answer. */
function answerBytes(finding: Finding): number {
  return jsonLength(finding.path) + jsonLength(finding.detail) + (finding.target === undefined ? 0 : jsonLength(finding.target)) + 64;
}

/** The text: counts by kind, a few paths of each, relative to the workspace. */
function summary(scope: Scope, root: string, report: AuditReport, budget: AnswerBudget): string[] {
  const lines = [`Audit of ${root}: ${report.scanned} entries examined${report.truncated ? ' (stopped at maxEntries: the rest was not examined)' : ''}, ${foundCount(report)} findings.`];
  for (const kind of FINDING_KINDS) {
    const ofKind = report.findings.filter((finding) => finding.kind === kind);
    const notKept = report.notKept[kind] ?? 0;
    if (ofKind.length + notKept === 0) continue;
    lines.push(`${kind} (${ofKind.length + notKept}${notKept > 0 ? `, ${notKept} not kept` : ''}):`);
    for (const finding of ofKind.slice(0, SHOWN_PER_KIND)) {
      const line = `  ${quotedIfHidden(scope.relative(finding.path))}${finding.target !== undefined ? ` -> ${quotedIfHidden(finding.target)}` : ''}`;
      if (!budget.take(jsonLength(line) + 2)) break;
      lines.push(line);
    }
    if (ofKind.length > SHOWN_PER_KIND) lines.push(`  … and ${ofKind.length - SHOWN_PER_KIND} more`);
  }
  const notKept = notKeptSentence(report);
  if (notKept !== undefined) lines.push(`${notKept} Fix the ones listed, then audit again.`);
  return lines;
}

export const auditWorkspace = defineTool({
  name: 'audit_workspace',
  title: 'Audit the workspace',
  description:
    'Finds what trips agents: links leading outside, dangling links, names Windows or macOS cannot hold, case or Unicode twins, hard links.',
  input: {
    maxEntries: z
      .number()
      .int()
      .min(1)
      .max(MAX_AUDIT_ENTRIES)
      .optional()
      .describe(`Default ${DEFAULT_AUDIT_ENTRIES}.`),
  },
  output: z.object({
    root: z.string().describe('The workspace URI audited.'),
    rootPath: z.string().describe('The workspace\'s real path, as walked.'),
    scanned: z.number().int().describe('Entries examined (the workspace folder itself is not counted).'),
    truncated: z.boolean().describe('True when maxEntries stopped the walk before every entry was examined.'),
    findings: z.array(findingSchema).describe('What was found, sorted by path, then kind.'),
    notKept: z
      .partialRecord(z.enum(FINDING_KINDS), z.number().int())
      .describe(`Findings not kept, by kind: an audit keeps at most ${KEPT_BOUNDS}, the most serious kinds first.`),
    omitted: z.number().int().describe('Findings kept but left out of findings because the answer would have been too large (0 when none were).'),
  }),
  view: AUDIT_VIEW,
  heavy: true,
  long: true,
  async run({ maxEntries }, scope) {
    const call = scope.call;
    // The audit takes an AbortSignal; the direct path's cancellation is a flag, seen at each progress turn.
    const abort = new AbortController();
    const report = await runAudit(scope.grant.realPath, {
      maxEntries: maxEntries ?? DEFAULT_AUDIT_ENTRIES,
      signal: abort.signal,
      onProgress: ({ scanned }) => {
        if (call.cancelled) abort.abort();
        call.progress(scanned, undefined, `${scanned} entries examined`);
      },
    });
    call.progress(report.scanned, report.scanned, `${report.scanned} entries examined, ${foundCount(report)} findings`, true);
    const root = scope.grant.uri;
    const budget = new AnswerBudget();
    const lines = summary(scope, root, report, budget);
    const findings: Finding[] = [];
    for (const finding of report.findings) {
      if (!budget.take(answerBytes(finding))) break;
      findings.push(finding);
    }
    const omitted = report.findings.length - findings.length;
    if (omitted > 0) lines.push(`(${omitted} findings are not listed in the structured result: the answer would have been too large; fix the ones listed, or audit again)`);
    return ok({ root, rootPath: report.rootPath, scanned: report.scanned, truncated: report.truncated, findings, notKept: report.notKept, omitted }, lines.join('\n'));
  },
});
