// The changes that would let a refused or asked call through. Each is tried on the model before it
// is offered (the settings edited in memory, the decision taken again), so only a change that
// allows is offered, or a sentence saying none does; nothing is ever written. A change is an edit
// of the settings files (the rules that refused or asked removed where they are written, as little
// added as allows: folders, an allow rule, the mode), a trust record, an `--add-dir`, or the path
// a link leads to.
import type { Fix } from '../types.js';
import { nodePath } from '../shared/node.js';
import { deriveEffective, type Effective } from './config.js';
import { judge, type ClaudeTool, type Judgement } from './judge.js';
import { requestedPath, spell, type Spelled } from './paths.js';
import { RULE_TOOL, type Rule } from './rules.js';
import { permissionLine, ROLES, type Layer, type Mode, type Setup, type SettingsSource, type SettingsValue } from './settings.js';

/** One edit of one settings file. */
interface SettingsEdit {
  readonly source: SettingsSource;
  readonly remove: readonly Rule[];
  readonly allow: readonly string[];
  readonly directories: readonly string[];
  readonly mode?: Mode | null;
}

/** A path written as a rule's `//` absolute pattern, its glob characters escaped. */
function absoluteRule(tool: string, path: string, platform: Setup['platform']): string {
  const posix = platform === 'win32' ? `/${path[0]!.toLowerCase()}${path.slice(2).replaceAll('\\', '/')}` : path;
  return `${tool}(/${posix.replace(/[*?[\]\\()]/g, '\\$&')})`;
}

function editedValue(value: SettingsValue | undefined, edit: SettingsEdit): SettingsValue {
  const permissions: Record<string, unknown> = { ...(value?.permissions ?? {}) };
  for (const rule of edit.remove) {
    const list = Array.isArray(permissions[rule.behavior]) ? (permissions[rule.behavior] as unknown[]) : [];
    permissions[rule.behavior] = list.filter((entry) => entry !== rule.text);
  }
  const append = (key: string, entries: readonly string[]) => {
    if (entries.length === 0) return;
    const list = Array.isArray(permissions[key]) ? (permissions[key] as unknown[]) : [];
    permissions[key] = [...list, ...entries.filter((entry) => !list.includes(entry))];
  };
  append('allow', edit.allow);
  append('additionalDirectories', edit.directories);
  if (edit.mode === null) delete permissions.defaultMode;
  else if (edit.mode !== undefined) permissions.defaultMode = edit.mode;
  return { ...(value ?? {}), permissions };
}

function withEdit(setup: Setup, edit: SettingsEdit): Setup {
  const value = editedValue(edit.source.value, edit);
  const text = JSON.stringify(value, null, 2);
  const { layer, path, ruleRoot } = edit.source;
  const edited: SettingsSource = { layer, ...(path !== undefined ? { path } : {}), found: true, text, value, ruleRoot };
  return { ...setup, sources: setup.sources.map((source) => (source === edit.source ? edited : source)) };
}

/** One edit said as a sentence of the fix, and where in its file it goes. */
function describeEdit(edit: SettingsEdit): { sentence: string; line?: number; add?: string } {
  const { source } = edit;
  const parts: string[] = [];
  for (const rule of edit.remove) parts.push(`remove \`${rule.text}\` from \`permissions.${rule.behavior}\`${rule.line !== undefined ? ` (line ${rule.line})` : ''}`);
  for (const rule of edit.allow) parts.push(`add \`${rule}\` to \`permissions.allow\``);
  for (const folder of edit.directories) parts.push(`add \`${folder}\` to \`permissions.additionalDirectories\``);
  const modeLine = permissionLine(source, 'defaultMode');
  if (edit.mode === null) parts.push(`remove \`permissions.defaultMode\`${modeLine ? ` (line ${modeLine})` : ''}`);
  else if (edit.mode !== undefined) parts.push(`set \`permissions.defaultMode\` to \`${edit.mode}\``);
  const firstAdd = edit.allow[0] ?? edit.directories[0];
  const listKey = edit.allow.length > 0 ? 'allow' : edit.directories.length > 0 ? 'additionalDirectories' : 'defaultMode';
  const line = edit.remove.find((rule) => rule.line !== undefined)?.line ?? permissionLine(source, listKey, firstAdd);
  const add = firstAdd !== undefined ? JSON.stringify(firstAdd) : edit.mode ? `"defaultMode": "${edit.mode}"` : undefined;
  return {
    sentence: `In ${source.path ? `${ROLES[source.layer]} ${source.path}${source.found ? '' : ' (a new file)'}` : 'the --settings JSON'}: ${parts.join('; ')}.`,
    ...(line !== undefined ? { line } : {}),
    ...(add !== undefined ? { add } : {}),
  };
}

/** Edits of one or more files as one fix: opened at the first file's change. */
function fixOf(edits: readonly SettingsEdit[]): Fix {
  const described = edits.map(describeEdit);
  const first = edits.findIndex((edit) => edit.remove.length > 0 || edit.mode === null);
  const at = first === -1 ? 0 : first;
  const { path } = edits[at]!.source;
  return {
    text: described.map((edit) => edit.sentence).join(' '),
    ...(path ? { file: path } : {}),
    ...(described[at]!.line !== undefined ? { line: described[at]!.line } : {}),
    ...(described[at]!.add !== undefined ? { add: described[at]!.add } : {}),
  };
}

interface Attempt {
  readonly setup: Setup;
  readonly input?: string;
}

/** The folder that would hold a path: the path itself when it is a folder, else the folder it is in. */
function folderFor(path: string, setup: Setup): string {
  return setup.fs.lstat(path).kind === 'directory' ? path : nodePath(setup.platform).dirname(path);
}

const EDITABLE: readonly Layer[] = ['local', 'user', 'project', 'flag'];
/** Alternatives offered in settings files: enough to choose from, few enough to read. */
const MAX_SETTINGS_FIXES = 3;

/** The changes, each tried on the model, that would turn this decision into allow. */
export function fixesFor(effective: Effective, tool: ClaudeTool, input: string, spelled: Spelled, judgement: Judgement): Fix[] {
  const { setup } = effective;
  const decide = ({ setup: tried, input: triedInput }: Attempt): Judgement => {
    const tryEffective = deriveEffective(tried);
    const tryInput = triedInput ?? input;
    const trySpelled = triedInput === undefined ? spelled : spell(requestedPath(tryInput, tried.cwd, tried.home, tried.platform), tried.fs, tried.platform);
    return judge(tryEffective, tool, tryInput, trySpelled);
  };
  const allows = (attempt: Attempt) => decide(attempt).decision === 'allow';
  const fixes: Fix[] = [];

  if (judgement.unliftable !== undefined) {
    const verb = tool === 'Read' ? 'read' : 'change';
    return [{ text: `No setting lets Claude Code ${verb} ${spelled.requested} without asking (${judgement.unliftable}): approve the prompt in an interactive session, or ${verb === 'read' ? 'read' : 'make the change'} yourself.` }];
  }

  // Another path: where a link leads, asked for directly.
  if (spelled.landing !== spelled.requested && allows({ setup, input: spelled.landing })) {
    fixes.push({ text: `Ask for ${spelled.landing}, where ${spelled.requested} leads, instead.`, path: spelled.landing });
  }

  // The rules that refuse or ask removed from their files, then as little added as allows, in as few files as can be.
  const matched = [...judgement.denyMatches, ...judgement.askMatches].map((match) => match.rule);
  const toolRules = effective.rules.filter((rule) => rule.content === undefined && rule.tool === tool && rule.behavior !== 'allow');
  const removals = new Map<SettingsSource, Rule[]>();
  for (const rule of [...matched, ...toolRules]) if (rule.source.layer !== 'managed') removals.set(rule.source, [...(removals.get(rule.source) ?? []), rule]);
  const modeSource = effective.mode.refusedToStart !== undefined ? effective.mode.source : undefined;
  if (modeSource && !removals.has(modeSource)) removals.set(modeSource, []);
  const grantTool = RULE_TOOL[tool === 'Read' ? 'read' : 'edit'];
  const allowRules = spelled.spellings.map((spelling) => absoluteRule(grantTool, spelling, setup.platform));
  const folders = [...new Set(judgement.outside.map((path) => folderFor(path, setup)))];
  const change = tool !== 'Read';
  const grants: { allow?: readonly string[]; directories?: readonly string[]; mode?: Mode }[] = [
    ...(folders.length > 0 ? [{ directories: folders }] : []),
    ...(change ? [{ mode: 'acceptEdits' as const }] : []),
    { allow: allowRules },
    ...(change && folders.length > 0 ? [{ directories: folders, mode: 'acceptEdits' as const }] : []),
  ];
  const editable = setup.sources.filter((source) => EDITABLE.includes(source.layer) && source.path !== undefined && !(source.found && source.error));
  const targets: (SettingsSource | undefined)[] = [...(removals.size > 0 ? [undefined] : []), ...new Set([...removals.keys(), ...EDITABLE.flatMap((layer) => editable.filter((source) => source.layer === layer))])];
  const found = new Set<string>();
  for (const target of targets) {
    for (const grant of target === undefined ? [{}] : grants) {
      const edits: SettingsEdit[] = [...removals].map(([source, rules]) => ({
        source,
        remove: rules,
        allow: source === target ? (grant.allow ?? []) : [],
        directories: source === target ? (grant.directories ?? []) : [],
        ...(source === target && grant.mode !== undefined ? { mode: grant.mode } : source === modeSource ? { mode: null } : {}),
      }));
      if (target !== undefined && !removals.has(target)) edits.push({ source: target, remove: [], allow: grant.allow ?? [], directories: grant.directories ?? [], ...(grant.mode !== undefined ? { mode: grant.mode } : {}) });
      if (!allows({ setup: edits.reduce(withEdit, setup) })) continue;
      const fix = fixOf(edits);
      if (!found.has(fix.text)) fixes.push(fix);
      found.add(fix.text);
      break;
    }
    // Removing the rules is enough: anything more would only add to it.
    if (target === undefined && found.size > 0) break;
    if (found.size >= MAX_SETTINGS_FIXES) break;
  }

  // The project's own grants, once the folder is trusted.
  if (!effective.trust.trusted && (effective.dropped.some(({ rule }) => rule.source.layer === 'project') || effective.droppedFolders.length > 0)) {
    const projects = { ...(setup.global.value?.projects ?? {}), [effective.trust.key]: { hasTrustDialogAccepted: true } };
    if (allows({ setup: { ...setup, global: { ...setup.global, found: true, value: { ...(setup.global.value ?? {}), projects } } } })) {
      fixes.push({
        text: `In ${setup.global.path}: set \`projects[${JSON.stringify(effective.trust.key)}].hasTrustDialogAccepted\` to \`true\`, as accepting Claude Code's trust dialog in ${effective.trust.key} does (the project's allow rules and additionalDirectories count only then).`,
        file: setup.global.path,
        add: '"hasTrustDialogAccepted": true',
      });
    }
  }

  // A folder added for this session.
  if (folders.length === 1 && allows({ setup: { ...setup, addDirs: [...setup.addDirs, { given: folders[0]!, path: folders[0]! }] } })) {
    fixes.push({ text: `Start Claude Code with \`--add-dir ${folders[0]}\`.`, flag: `--add-dir ${folders[0]}` });
  }

  if (fixes.length === 0) {
    const managed = matched.find((rule) => rule.source.layer === 'managed');
    fixes.push(
      managed
        ? { text: `${managed.text} is in managed settings, which only whoever manages this machine can change: ask them to remove it.`, ...(managed.source.path ? { file: managed.source.path } : {}), ...(managed.line !== undefined ? { line: managed.line } : {}) }
        : { text: `No change of one settings file, flag or path lets this through in the model: ${judgement.rule.text}.` },
    );
  }
  return fixes;
}
