// Claude Code 2.1.332's permission decision for its Read, Write and Edit tools, in its own order.
// A read: deny rules, its own checks on the path's form, ask rules, a grant from an Edit allow
// or acceptEdits, the working folders, Read allow rules, then the mode. A change: deny rules (a
// Read deny too), ask rules, its checks on sensitive files, plan mode, the working folders and
// acceptEdits, Edit allow rules, a link at the last name, then the mode. Every spelling of the
// path (the path asked and where its links lead) is judged: a rule matching any spelling denies
// or asks, an allow must match them all, and the working folders must hold them all.
import type { Decision, DeciderStage, RuleSource } from '../types.js';
import type { Effective } from './config.js';
import { folderHolding, isWithin, type Spelled, type WorkingFolder } from './paths.js';
import { anchorOf, matchingRules, RULE_TOOL, type Access, type PathRule, type Rule, type RuleMatch } from './rules.js';
import { isNetworkPath, sensitiveReason, suspiciousForm } from './safety.js';
import { ROLES, type Behavior } from './settings.js';

export type ClaudeTool = 'Read' | 'Write' | 'Edit';

/** How an ask came about: a rule, a check no setting lifts, or nothing allowing the path. */
export type AskKind = 'rule' | 'safety' | 'plain';

export interface Judgement {
  readonly decision: Decision;
  readonly rule: { readonly text: string; readonly source?: RuleSource };
  readonly askKind?: AskKind;
  /** Why no setting, flag or other spelling of the path would lift this ask (a sensitive file, a suspicious form). */
  readonly unliftable?: string;
  readonly stages: readonly DeciderStage[];
  /** Why this decision rests on Claude Code's documentation or code, not on the recording. */
  readonly documented: readonly string[];
  readonly denyMatches: readonly RuleMatch[];
  readonly askMatches: readonly RuleMatch[];
  /** Spellings no working folder holds. */
  readonly outside: readonly string[];
  readonly differences: readonly string[];
}

export function sourceOfRule(rule: Rule): RuleSource {
  return { text: rule.text, ...(rule.source.path ? { file: rule.source.path } : { flag: '--settings' }), ...(rule.line !== undefined ? { line: rule.line } : {}) };
}

function whereRule(rule: Rule): string {
  const file = rule.source.path ? `${rule.source.path}${rule.line !== undefined ? ` line ${rule.line}` : ''}` : 'the --settings JSON';
  return `\`${rule.text}\` in ${ROLES[rule.source.layer]} (${file})`;
}

/** Where the mode in force was set, as a rule's source; undefined for the default. */
function sourceOfMode(mode: Effective['mode']): RuleSource | undefined {
  return mode.source?.path ? { text: `defaultMode: ${mode.written ?? mode.mode}`, file: mode.source.path, ...(mode.line !== undefined ? { line: mode.line } : {}) } : undefined;
}

function sourceOfFolder(folder: WorkingFolder): RuleSource {
  return { text: folder.path, ...(folder.file ? { file: folder.file } : {}), ...(folder.line !== undefined ? { line: folder.line } : {}), ...(folder.flag ? { flag: folder.flag } : {}) };
}

/** The roots an unanchored rule is matched below: the working folder for allow; every working folder's spellings for deny and ask. */
function relativeRoots(effective: Effective, behavior: Behavior): string[] {
  if (behavior === 'allow') return [effective.setup.cwd];
  return [...new Set(effective.working.flatMap((folder) => folder.spellings))];
}

function matchesOf(effective: Effective, access: Access, behavior: Behavior, spellings: readonly string[]): RuleMatch[] {
  const rules: readonly PathRule[] = effective.pathRules[access][behavior];
  if (rules.length === 0) return [];
  const roots = relativeRoots(effective, behavior);
  const found: RuleMatch[] = [];
  for (const spelling of spellings) for (const match of matchingRules(rules, spelling, roots, effective.setup.platform)) if (!found.some((other) => other.rule === match.rule)) found.push(match);
  return found;
}

/** The allow rule for each spelling, or undefined when one spelling has none. */
function allowFor(effective: Effective, access: Access, spellings: readonly string[]): RuleMatch | undefined {
  let first: RuleMatch | undefined;
  for (const spelling of spellings) {
    const [match] = matchesOf(effective, access, 'allow', [spelling]);
    if (!match) return undefined;
    first ??= match;
  }
  return first;
}

/** The allow rules in force for an access, each as the matcher takes it and below which folder: what a person needs to see why none matched. */
function triedAllows(effective: Effective, access: Access): string {
  const tried = effective.pathRules[access].allow.map(({ rule, compiled, anchored }) => `\`${rule.text}\` as \`${compiled.pattern}\` below ${anchored.root ?? effective.setup.cwd}`);
  return tried.length === 0 ? `no ${RULE_TOOL[access]} allow rule in force` : `tried: ${tried.join(', ')}`;
}

function toolRule(effective: Effective, tool: ClaudeTool, behavior: Behavior): Rule | undefined {
  return effective.rules.find((rule) => rule.behavior === behavior && rule.content === undefined && rule.tool === tool);
}

/** How a rule's match reads: the rule, where it is written, and what it matched below which root. */
function describeMatch(match: RuleMatch, effective: Effective): string {
  const { platform } = effective.setup;
  const below = match.root === '/' || match.root === '\\' ? match.path : `${match.path} below ${match.root}`;
  const anchor = match.rule.content !== undefined && !/^(\/|~\/|\/\/)/.test(match.rule.content) ? ' (a pattern without `//`, `~/` or `/` is matched below each working folder)' : '';
  const folded = caseFolded(match, platform) ? '; letter case ignored' : '';
  return `${whereRule(match.rule)} matches ${below}${anchor}${folded}`;
}

function relativeTo(match: RuleMatch, platform: Effective['setup']['platform']): string {
  const path = match.path.slice(match.root.length).replace(/^[\\/]+/, '');
  return platform === 'win32' ? path.replaceAll('\\', '/') : path;
}

/** Where Claude Code's rules part from Boundary Inspector's, for the rules that decided. */
function differencesOf(matches: readonly RuleMatch[], effective: Effective): string[] {
  const out: string[] = [];
  const { platform } = effective.setup;
  for (const match of matches) {
    const relative = relativeTo(match, platform);
    if (platform === 'linux' && caseFolded(match, platform)) {
      out.push(`Claude Code matched \`${match.rule.text}\` to ${match.path} ignoring letter case, on a disk where letter case makes different files.`);
    }
    const pattern = match.rule.content ?? '';
    const oneName = !/^(\/|~\/)/.test(pattern) && !pattern.replace(/^\.\//, '').replace(/\/\*\*$/, '').includes('/');
    if (oneName && relative.includes('/') && !/[*]/.test(pattern.replace(/\/\*\*$/, ''))) {
      out.push(`Claude Code's \`${match.rule.text}\` names one file or folder, yet it matched ${relative} below ${match.root}: a pattern of one name matches at any depth, as in .gitignore.`);
    }
  }
  return out;
}

/** Whether the rule matched only because letter case was ignored: its pattern, case counting, matches neither the path nor a folder above it. */
function caseFolded(match: RuleMatch, platform: Effective['setup']['platform']): boolean {
  const exact = new RegExp(match.compiled.regex.source);
  const names = relativeTo(match, platform).split('/');
  for (let i = 1; i <= names.length; i++) if (exact.test(names.slice(0, i).join('/') + (i < names.length ? '/' : ''))) return false;
  return true;
}

/** The rule forms the recording exercised: behavior, tool, anchor. */
const RECORDED_FORMS = new Set(['deny Read ./', 'deny Read ', 'deny Read /', 'deny Read //', 'deny Read ~/', 'deny Edit ./', 'ask Read ./', 'ask Read //', 'allow Read //', 'allow Read ./', 'allow Read ~/', 'allow Edit //', 'allow Edit ./', 'allow Edit ']);

/** Why a rule's match rests on Claude Code's code rather than the recording; undefined when the recording saw its like. */
function unrecordedMatch(match: RuleMatch, effective: Effective): string | undefined {
  const { rule } = match;
  const anchored = rule.content === undefined ? undefined : anchorOf(rule.content, rule.source, effective.setup.home, effective.setup.platform);
  if (anchored === undefined) return unrecordedRule(rule);
  if (!RECORDED_FORMS.has(`${rule.behavior} ${rule.tool} ${anchored.anchor}`)) return `a ${rule.behavior} rule of ${rule.tool} anchored ${anchored.anchor || 'by nothing'} is read from Claude Code's code`;
  if (anchored.root === null && match.root !== effective.setup.cwd && rule.behavior === 'ask') return 'an ask rule matched below an added working folder is read from Claude Code\'s code';
  return undefined;
}

/** A rule on the whole tool: the recording saw `Read` allowed so and `Write` denied so. */
function unrecordedRule(rule: Rule): string | undefined {
  return rule.behavior === 'deny' || (rule.tool === 'Read' && rule.behavior === 'allow') ? undefined : `an ${rule.behavior} rule on the whole ${rule.tool} tool is read from Claude Code's code`;
}

/** An allow that decided: a form the recording never saw rests on the code. */
function notedAllow(p: Pipeline, match: RuleMatch, effective: Effective): void {
  const unrecorded = unrecordedMatch(match, effective);
  if (unrecorded) p.documented.push(unrecorded);
}

/**
 * Allow rules that were tried: when none allowed, a form the recording never saw may be why, or
 * an unanchored allow not reaching below an added folder.
 */
function notedAllowRules(p: Pipeline, effective: Effective, access: Access, allowed: RuleMatch | undefined, spellings: readonly string[]): void {
  if (allowed) return;
  const { cwd, platform } = effective.setup;
  const belowAdded = spellings.some((spelling) => !isWithin(spelling, cwd, platform) && folderHolding(spelling, effective.working, platform));
  for (const pathRule of effective.pathRules[access].allow) {
    const unrecorded = unrecordedMatch({ rule: pathRule.rule, path: '', root: pathRule.anchored.root ?? cwd, compiled: pathRule.compiled, twin: false }, effective);
    if (unrecorded) p.documented.push(unrecorded);
    if (pathRule.anchored.root === null && belowAdded) p.documented.push('an allow rule without an anchor is matched below the working folder only, not below an added one, as Claude Code\'s code does');
  }
}

class Pipeline {
  readonly stages: DeciderStage[] = [];
  readonly documented: string[] = [];
  readonly differences: string[] = [];
  add(name: string, status: DeciderStage['status'], input: string, output: string | null, rule: string, note: string, source?: RuleSource): void {
    this.stages.push({ name, status, input, output, rule, note, ...(source ? { source } : {}) });
  }
}

interface Pending {
  readonly decision: Decision;
  readonly rule: { readonly text: string; readonly source?: RuleSource };
  readonly askKind?: AskKind;
}

const DENIED_BY_RULE = 'File is in a directory that is denied by your permission settings.';

export function judge(effective: Effective, tool: ClaudeTool, input: string, spelled: Spelled): Judgement {
  const p = new Pipeline();
  const { setup, mode } = effective;
  const access: Access = tool === 'Read' ? 'read' : 'edit';
  const { requested, spellings } = spelled;
  const spelledList = spellings.join(', ');
  const outside = spellings.filter((spelling) => !folderHolding(spelling, effective.working, setup.platform));
  // macOS disks ignore letter case and Unicode form, and Boundary Inspector with them; Claude Code's working folders do not.
  const folded = (path: string) => path.normalize('NFC').toLowerCase();
  const foldedFolders: WorkingFolder[] = effective.working.map((folder) => ({ ...folder, spellings: folder.spellings.map(folded) }));
  const onlyByCase = setup.platform === 'darwin' ? outside.find((spelling) => folderHolding(folded(spelling), foldedFolders, setup.platform)) : undefined;
  if (onlyByCase) p.differences.push(`Claude Code compares ${onlyByCase} with its working folders letter for letter and form for form, where the disk, and Boundary Inspector, take it as inside.`);
  const finish = (pending: Pending, extra: Partial<Judgement> = {}): Judgement => ({
    ...pending,
    stages: p.stages,
    documented: p.documented,
    denyMatches: [],
    askMatches: [],
    outside,
    differences: p.differences,
    ...extra,
  });
  if (setup.platform !== 'linux') p.documented.push(`Claude Code was recorded on Linux only; its ${setup.platform === 'win32' ? 'Windows' : 'macOS'} behaviour is read from its code`);
  if (setup.env.CLAUDE_CONFIG_DIR) p.documented.push('CLAUDE_CONFIG_DIR moves the user settings and ~/.claude.json, as documented; the recording did not set it');
  if (effective.setup.sources.some((source) => source.layer === 'managed' && source.found)) p.documented.push('a managed settings file is in force: its place above the other layers is documented, not recorded');

  // Settings layers.
  const found = setup.sources.filter((source) => source.found);
  const settingsNote = [
    found.length === 0 ? 'no settings file found: no rules, the default mode' : `read: ${found.map((source) => `${ROLES[source.layer]} ${source.path ?? '(inline JSON)'}`).join('; ')}`,
    `trust: ${effective.trust.how}`,
    ...effective.dropped.map(({ rule, why }) => `${whereRule(rule)} is not in force: ${why}`),
    ...effective.droppedFolders.map(({ entry, source, why }) => `additionalDirectories ${entry} in ${ROLES[source.layer]} is not in force: ${why}`),
    ...effective.problems,
  ].join('; ');
  p.add(
    'settings',
    'note',
    setup.cwd,
    `mode ${mode.mode}; ${effective.rules.length} rule(s) in force; working folders: ${effective.working.map((folder) => folder.path).join(', ')}`,
    'managed settings, then --settings, local (.claude/settings.local.json), project (.claude/settings.json) and user (~/.claude/settings.json): rule lists of every layer are kept, a single value (defaultMode) comes from the highest layer that sets it; the project file\'s allow rules and additionalDirectories count only in a trusted folder',
    `${mode.note}; ${settingsNote}`,
    sourceOfMode(mode),
  );
  if (mode.refusedToStart) {
    const source = sourceOfMode(mode);
    const rule = { text: 'defaultMode bypassPermissions, run as root', ...(source ? { source } : {}) };
    p.add('start', 'refuse', `mode ${mode.mode}`, null, 'bypassPermissions skips every prompt, and Claude Code refuses it to root', `Claude Code exits before doing anything: "${mode.refusedToStart}" (as observed running as root in 2.1.332; as another user it would skip prompts)`);
    return finish({ decision: 'deny', rule });
  }
  if (mode.documented) p.documented.push(mode.documented);
  if (setup.sources.some((source) => source.found && source.error)) p.documented.push('a settings file that is not valid JSON is skipped, as documented');
  if (effective.trust.key !== setup.cwd && setup.sources.some((source) => source.layer === 'project' && source.found)) p.documented.push('the trust record of the git repository\'s top folder counts for the folders below it, as Claude Code\'s code does');
  if (mode.mode === 'bypassPermissions') p.documented.push('bypassPermissions could only be recorded as root, where Claude Code refuses it; as another user it skips prompts, as documented');
  if (mode.mode === 'auto') p.documented.push('auto mode asks a model whether to let a call through: what would ask here may be allowed or refused at run time');

  p.add(
    'path',
    'pass',
    input,
    requested,
    '`~` expanded, made absolute against the working folder and `..` taken by name; then every link on the way followed, and each path it leads to judged as well',
    spellings.length > 1 ? `spellings judged: ${spelledList}` : 'no link on the way: one spelling',
  );

  // Deny rules: a rule on the whole tool, a path rule on any spelling; a change is denied by a Read deny too.
  const toolDeny = toolRule(effective, tool, 'deny');
  const otherTools = effective.rules.filter((rule) => rule.content === undefined && rule.behavior !== 'allow' && rule.tool !== tool && ['Read', 'Write', 'Edit'].includes(rule.tool));
  if (otherTools.length > 0) p.documented.push(`a rule on the whole ${otherTools[0]!.tool} tool not reaching ${tool} is read from Claude Code's code`);
  const denyMatches = [...(access === 'edit' ? matchesOf(effective, 'edit', 'deny', spellings) : []), ...matchesOf(effective, 'read', 'deny', spellings)];
  const denyRule = toolDeny ?? denyMatches[0]?.rule;
  const toolAsk = toolRule(effective, tool, 'ask');
  const askMatches = matchesOf(effective, access, 'ask', spellings);
  if (denyRule) {
    const unrecorded = toolDeny ? unrecordedRule(toolDeny) : unrecordedMatch(denyMatches[0]!, effective);
    if (unrecorded) p.documented.push(unrecorded);
    const note = toolDeny ? `${whereRule(toolDeny)} denies the whole ${tool} tool` : denyMatches.map((match) => describeMatch(match, effective)).join('; ');
    const message = toolDeny ? `Permission to use ${tool} has been denied.` : access === 'edit' && denyMatches[0]!.rule.tool === 'Read' ? 'File is covered by a Read deny rule in your permission settings and cannot be edited.' : DENIED_BY_RULE;
    p.differences.push(...differencesOf(denyMatches.slice(0, 1), effective));
    p.add('deny rules', 'refuse', spelledList, null, `deny rules of ${access === 'edit' ? 'Edit and Read' : 'Read'} on every spelling, and a deny on the whole tool; deny wins over ask and allow, whatever the layer`, `${note}. Claude Code answers: "${message}"`, sourceOfRule(denyRule));
    return finish({ decision: 'deny', rule: { text: denyRule.text, source: sourceOfRule(denyRule) } }, { denyMatches, askMatches });
  }
  p.add('deny rules', 'pass', spelledList, spelledList, `deny rules of ${access === 'edit' ? 'Edit and Read' : 'Read'} on every spelling, and a deny on the whole tool`, effective.pathRules.read.deny.length + effective.pathRules.edit.deny.length === 0 ? 'no deny rule in force' : 'no deny rule matches');

  if (spelled.unresolved) {
    p.documented.push('a path whose links cannot be followed is refused, as Claude Code\'s code does; not recorded');
    p.add('path', 'refuse', requested, null, 'where the path leads on disk must be known', `Refusing to ${access === 'edit' ? 'write' : 'read'} ${requested}: where it leads on disk could not be determined (${spelled.unresolved})`);
    return finish({ decision: 'deny', rule: { text: 'where the path leads could not be determined' } }, { denyMatches, askMatches });
  }

  // Ask rules.
  const askRule = toolAsk ?? askMatches[0]?.rule;

  // Claude Code's own checks on the path's form; for a change, on sensitive files too.
  const safety = safetyOf(effective, access, spellings);
  for (const reason of safety.documented) p.documented.push(reason);
  const verb = access === 'edit' ? 'write to' : 'read from';

  if (askRule && (access === 'edit' || !safety.reason || mode.mode === 'bypassPermissions')) {
    const unrecorded = toolAsk ? unrecordedRule(toolAsk) : unrecordedMatch(askMatches[0]!, effective);
    if (unrecorded) p.documented.push(unrecorded);
    p.differences.push(...differencesOf(askMatches.slice(0, 1), effective));
    p.add('ask rules', 'ask', spelledList, null, 'ask rules on every spelling, and an ask on the whole tool: an ask rule beats any allow, in every layer and every mode', toolAsk ? `${whereRule(toolAsk)} asks for the whole ${tool} tool` : askMatches.map((match) => describeMatch(match, effective)).join('; '), sourceOfRule(askRule));
    return modeDecides(p, effective, tool, { decision: 'ask', rule: { text: askRule.text, source: sourceOfRule(askRule) }, askKind: 'rule' }, finish, { denyMatches, askMatches });
  }
  if (safety.reason) {
    const message = safety.sensitive ? `Claude requested permissions to edit ${requested} which is a sensitive file.` : `Claude requested permissions to ${verb} ${requested}, ${safety.reason}`;
    p.add('safety checks', 'ask', spelledList, null, SAFETY_RULE[access], `${safety.reason}: no rule or mode lifts this ask. Claude Code answers: "${message}"`);
    return modeDecides(p, effective, tool, { decision: 'ask', rule: { text: safety.rule }, askKind: 'safety' }, finish, { denyMatches, askMatches, unliftable: safety.reason });
  }
  p.add('ask rules', 'pass', spelledList, spelledList, 'ask rules on every spelling, and an ask on the whole tool', effective.pathRules[access].ask.length === 0 ? 'no ask rule in force' : 'no ask rule matches');
  p.add('safety checks', 'pass', spelledList, spelledList, SAFETY_RULE[access], access === 'edit' ? 'nothing sensitive or suspicious' : 'no network path, no suspicious form');

  return access === 'read' ? readRest(p, effective, tool, spelled, outside, finish, { denyMatches, askMatches }) : changeRest(p, effective, tool, spelled, outside, finish, { denyMatches, askMatches });
}

const SAFETY_RULE: Readonly<Record<Access, string>> = {
  read: 'a network path, or a form Windows reads otherwise (a short name, a trailing dot or space, a device name, `...`), asks on every platform',
  edit: 'a network path or a suspicious form asks, and so does a sensitive file (`.git/`, `.claude/`, `.vscode/`, `.idea/` and other folders, shell profiles and tool configurations), even in acceptEdits',
};

function safetyOf(effective: Effective, access: Access, spellings: readonly string[]): { reason?: string; rule: string; sensitive: boolean; documented: string[] } {
  const { platform } = effective.setup;
  for (const spelling of spellings) {
    if (isNetworkPath(spelling)) return { reason: `which appears to be a UNC path that could access network resources`, rule: 'a network path', sensitive: false, documented: ['network paths ask, as Claude Code\'s code says; not recorded'] };
    const suspicious = suspiciousForm(spelling, platform);
    if (suspicious) {
      const documented = suspicious.recorded ? [] : ['this suspicious path form is read from Claude Code\'s code; the recording saw a `~` and a digit ask'];
      return { reason: `which contains a suspicious Windows path pattern that requires manual approval (${suspicious.reason})`, rule: 'a suspicious path form', sensitive: false, documented };
    }
  }
  const documented: string[] = [];
  if (access === 'edit') {
    for (const spelling of spellings) {
      const sensitive = sensitiveReason(spelling, effective.working, platform);
      if (sensitive && 'exempt' in sensitive) documented.push(`${sensitive.exempt}, as its code says`);
      else if (sensitive) return { reason: `${spelling} is a sensitive file: ${sensitive.reason}`, rule: 'a sensitive file', sensitive: true, documented: sensitive.recorded ? [] : ['this sensitive name is read from Claude Code\'s code; the recording saw .claude/, .git/, .vscode/ and .bashrc ask'] };
    }
  }
  return { rule: '', sensitive: false, documented };
}

type Finish = (pending: Pending, extra?: Partial<Judgement>) => Judgement;
type Matches = Pick<Judgement, 'denyMatches' | 'askMatches' | 'unliftable'>;

/** An ask because the working folders do not hold a spelling, said as Claude Code says it. */
function outsideNote(effective: Effective, spelled: Spelled, outside: readonly string[], verb: string): { note: string; carriedOut: boolean } {
  const { platform } = effective.setup;
  const carriedOut = spelled.landing !== spelled.requested && folderHolding(spelled.requested, effective.working, platform) !== undefined && outside.length > 0;
  const folders = effective.working.map((folder) => folder.path).join(', ');
  const base = `Claude requested permissions to ${verb} ${spelled.requested}, but you haven't granted it yet.`;
  return {
    carriedOut,
    note: carriedOut
      ? `${base} ${spelled.requested} resolves through a symlink to ${spelled.landing}, which is outside the allowed working directories. No allow rule lifts this: every spelling must be held by a working folder (${folders}) or allowed`
      : `${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the working folders (${folders}): "${base}"`,
  };
}

function readRest(p: Pipeline, effective: Effective, tool: ClaudeTool, spelled: Spelled, outside: readonly string[], finish: Finish, matches: Matches): Judgement {
  const { spellings } = spelled;
  const list = spellings.join(', ');
  // An Edit allow, or acceptEdits in a working folder, lets the file be read as well.
  const editDenied = matchesOf(effective, 'edit', 'deny', spellings).length > 0 || matchesOf(effective, 'edit', 'ask', spellings).length > 0;
  const sensitive = spellings.some((spelling) => {
    const found = sensitiveReason(spelling, effective.working, effective.setup.platform);
    return found !== undefined && !('exempt' in found);
  });
  const editAllow = editDenied || sensitive ? undefined : allowFor(effective, 'edit', spellings);
  if (editAllow) {
    notedAllow(p, editAllow, effective);
    p.add('edit grants', 'pass', list, spelled.requested, 'what Claude Code would let the Edit tool change it lets the Read tool read', `${describeMatch(editAllow, effective)}: an Edit allow grants reading too`, sourceOfRule(editAllow.rule));
    return finish({ decision: 'allow', rule: { text: editAllow.rule.text, source: sourceOfRule(editAllow.rule) } }, matches);
  }
  p.add('edit grants', 'note', list, list, 'what Claude Code would let the Edit tool change it lets the Read tool read', 'no Edit allow rule matches every spelling');

  if (outside.length === 0) {
    const folder = folderHolding(spelled.requested, effective.working, effective.setup.platform)!;
    p.add('working directories', 'pass', list, spelled.requested, 'a read inside a working folder (the working folder, additionalDirectories, --add-dir) is allowed: every spelling must be inside, letter case counting', `held by ${folder.path} (${folder.origin})`, sourceOfFolder(folder));
    return finish({ decision: 'allow', rule: { text: `inside ${folder.origin} ${folder.path}`, source: sourceOfFolder(folder) } }, matches);
  }
  const { note: outsideText, carriedOut } = outsideNote(effective, spelled, outside, 'read from');
  p.add('working directories', 'note', list, null, 'a read inside a working folder is allowed: every spelling must be inside, letter case counting', outsideText);

  const allow = allowFor(effective, 'read', spellings);
  notedAllowRules(p, effective, 'read', allow, spellings);
  if (allow) {
    notedAllow(p, allow, effective);
    p.differences.push(...differencesOf([allow], effective));
    p.add('allow rules', 'pass', list, spelled.requested, 'a Read allow rule must match every spelling', describeMatch(allow, effective), sourceOfRule(allow.rule));
    return finish({ decision: 'allow', rule: { text: allow.rule.text, source: sourceOfRule(allow.rule) } }, matches);
  }
  p.add('allow rules', 'ask', list, null, 'a Read allow rule must match every spelling', effective.pathRules.read.allow.length === 0 ? triedAllows(effective, 'read') : `no Read allow rule matches ${spellings.length > 1 ? 'every spelling' : spelled.requested}; ${triedAllows(effective, 'read')}`);
  if (carriedOut) p.differences.push(`Claude Code judges ${spelled.requested} by its own path and by where its link leads: an allow rule on either alone does not let it through.`);
  const linkIn = spelled.landing !== spelled.requested && !carriedOut && outside.includes(spelled.requested) && folderHolding(spelled.landing, effective.working, effective.setup.platform);
  if (linkIn) p.differences.push(`Claude Code asks for ${spelled.requested} although its link leads into the working folder: the path asked must be inside as well.`);
  return modeDecides(p, effective, tool, { decision: 'ask', rule: { text: carriedOut ? 'a link that leads outside the working folders' : 'outside the working folders' }, askKind: 'plain' }, finish, matches);
}

function changeRest(p: Pipeline, effective: Effective, tool: ClaudeTool, spelled: Spelled, outside: readonly string[], finish: Finish, matches: Matches): Judgement {
  const { spellings, requested } = spelled;
  const list = spellings.join(', ');
  const { mode } = effective;
  const platform = effective.setup.platform;
  const modeSource = sourceOfMode(mode);
  let pending: Pending;
  if (mode.mode === 'plan') {
    p.add('plan mode', 'refuse', list, null, 'plan mode changes nothing', `Claude Code answers: "Cannot write to ${requested} while in plan mode." (recorded as refused: the run cannot leave plan mode)`, modeSource);
    return finish({ decision: 'deny', rule: { text: 'plan mode', ...(modeSource ? { source: modeSource } : {}) } }, matches);
  }
  const inside = outside.length === 0;
  const folder = folderHolding(requested, effective.working, platform);
  if (inside && mode.mode === 'acceptEdits') {
    p.add('working directories', 'pass', list, requested, 'in acceptEdits, a change inside a working folder is allowed: every spelling must be inside, letter case counting', `held by ${folder!.path} (${folder!.origin}); ${mode.note}`, modeSource);
    pending = { decision: 'allow', rule: { text: 'acceptEdits inside the working folders', ...(modeSource ? { source: modeSource } : {}) } };
  } else {
    const outsideText = inside ? `inside ${folder!.path}, but mode ${mode.mode} asks for every change without an allow rule` : outsideNote(effective, spelled, outside, 'write to').note;
    p.add('working directories', 'note', list, null, 'in acceptEdits, a change inside a working folder is allowed; otherwise an Edit allow rule must match every spelling', outsideText);
    const wholeTool = inside ? toolRule(effective, tool, 'allow') : undefined;
    const allow = wholeTool ? undefined : allowFor(effective, 'edit', spellings);
    notedAllowRules(p, effective, 'edit', allow, spellings);
    if (allow) notedAllow(p, allow, effective);
    if (wholeTool || allow) {
      const rule = wholeTool ?? allow!.rule;
      if (wholeTool) p.documented.push('a rule on the whole Write or Edit tool is read from Claude Code\'s code; not recorded');
      else p.differences.push(...differencesOf([allow!], effective));
      p.add('allow rules', 'pass', list, requested, 'an Edit allow rule must match every spelling (a rule on the whole tool counts inside the working folders)', wholeTool ? `${whereRule(wholeTool)} allows the whole ${tool} tool` : describeMatch(allow!, effective), sourceOfRule(rule));
      pending = { decision: 'allow', rule: { text: rule.text, source: sourceOfRule(rule) } };
    } else {
      const { carriedOut } = outsideNote(effective, spelled, outside, 'write to');
      p.add('allow rules', 'ask', list, null, 'an Edit allow rule must match every spelling', effective.pathRules.edit.allow.length === 0 ? `${triedAllows(effective, 'edit')} (a Write(...) rule is not one: Claude Code reads path rules of Edit only)` : `no Edit allow rule matches ${spellings.length > 1 ? 'every spelling' : requested}; ${triedAllows(effective, 'edit')}`);
      pending = { decision: 'ask', rule: { text: inside ? `mode ${mode.mode}: a change asks` : carriedOut ? 'a link that leads outside the working folders' : 'outside the working folders' }, askKind: carriedOut ? 'safety' : 'plain' };
    }
  }
  if (spelled.leafIsLink) {
    p.add('link at the last name', 'refuse', requested, null, 'Write and Edit do not write through a link at the last name', `Refusing to write ${requested}: it is a symbolic link. Write to the link's target path instead: ${spelled.landing}.`);
    return finish({ decision: 'deny', rule: { text: 'the last name is a symbolic link' } }, matches);
  }
  if (pending.decision === 'allow') return finish(pending, matches);
  return modeDecides(p, effective, tool, pending, finish, matches);
}

/** The mode's last word on an ask: bypassPermissions and a rule on the whole tool lift a plain ask; dontAsk refuses what is left. */
function modeDecides(p: Pipeline, effective: Effective, tool: ClaudeTool, pending: Pending, finish: Finish, matches: Matches): Judgement {
  const { mode } = effective;
  const modeSource = sourceOfMode(mode);
  const rule = 'bypassPermissions lets through an ask that no ask rule or safety check made; so does an allow rule on the whole tool; dontAsk refuses every ask that is left';
  if (pending.askKind === 'plain' && mode.mode === 'bypassPermissions') {
    p.add('permission mode', 'pass', 'ask', 'allow', rule, mode.note, modeSource);
    return finish({ decision: 'allow', rule: { text: 'bypassPermissions', ...(modeSource ? { source: modeSource } : {}) } }, matches);
  }
  const wholeTool = pending.askKind === 'plain' ? toolRule(effective, tool, 'allow') : undefined;
  if (wholeTool) {
    if (tool !== 'Read') p.documented.push('a rule on the whole Write or Edit tool is read from Claude Code\'s code; not recorded');
    p.add('permission mode', 'pass', 'ask', 'allow', rule, `${whereRule(wholeTool)} allows the whole ${tool} tool`, sourceOfRule(wholeTool));
    return finish({ decision: 'allow', rule: { text: wholeTool.text, source: sourceOfRule(wholeTool) } }, matches);
  }
  if (mode.mode === 'dontAsk') {
    p.add('permission mode', 'refuse', 'ask', 'deny', rule, `${mode.note}: "Permission to use ${tool} has been denied because Claude Code is running in don't ask mode."`, modeSource);
    return finish({ decision: 'deny', rule: { text: 'dontAsk', ...(modeSource ? { source: modeSource } : {}) } }, matches);
  }
  p.add('permission mode', 'ask', 'ask', 'ask', rule, `${mode.note}: Claude Code asks (run headless, nobody can answer, and the call is refused)`, modeSource);
  return finish(pending, matches);
}

