// What Claude Code takes from its settings files for a decision: the rules in force (the
// project's grants dropped while the folder is untrusted, every layer's but the managed one's
// dropped under `allowManagedPermissionRulesOnly`), the working folders, and the mode.
import { expandHome, nodePath } from '../shared/node.js';
import { workingFolder, type WorkingFolder } from './paths.js';
import { compileRule, parseRule, RULE_TOOL, type Access, type PathRule, type Rule } from './rules.js';
import { BEHAVIORS, LAYERS, MODES, permissionLine, ROLES, stringsOf, trustOf, type Behavior, type Layer, type Mode, type Setup, type SettingsSource, type Trust } from './settings.js';

export interface ModeChoice {
  readonly mode: Mode;
  /** The file and line that set it (or set a value ignored); absent for the default. */
  readonly source?: SettingsSource;
  /** The value as that file writes it. */
  readonly written?: string;
  readonly line?: number;
  readonly note: string;
  /** Claude Code stops before doing anything (bypassPermissions run as root). */
  readonly refusedToStart?: string;
  /** Why this choice of mode rests on Claude Code's documentation or code, not on the recording. */
  readonly documented?: string;
}

export interface Effective {
  readonly setup: Setup;
  readonly trust: Trust;
  /** Rules in force, every layer's. */
  readonly rules: readonly Rule[];
  /** Rules written but not in force, and why. */
  readonly dropped: readonly { readonly rule: Rule; readonly why: string }[];
  readonly pathRules: Readonly<Record<Access, Readonly<Record<Behavior, readonly PathRule[]>>>>;
  /** The working folder first, then the added ones in force. */
  readonly working: readonly WorkingFolder[];
  readonly droppedFolders: readonly { readonly entry: string; readonly source: SettingsSource; readonly why: string }[];
  readonly mode: ModeChoice;
  /** Settings that were there but could not be used. */
  readonly problems: readonly string[];
}

/**
 * Whether Claude Code runs as root: the decider cannot ask for the user id, so it takes root, as
 * the recording ran, unless the environment names another user. (Claude Code lets root through
 * when IS_SANDBOX is set; the recording's environment did not set it, and neither does a
 * person's shell usually.)
 */
export function runsAsRoot(env: Setup['env']): boolean {
  const user = env.USER ?? env.LOGNAME;
  return user === undefined || user === 'root';
}

function chooseMode(setup: Setup, used: readonly SettingsSource[]): ModeChoice {
  const choice = chooseModeFrom(setup, used);
  const written = choice.source?.value?.permissions?.defaultMode;
  return typeof written === 'string' ? { ...choice, written } : choice;
}

function chooseModeFrom(setup: Setup, used: readonly SettingsSource[]): ModeChoice {
  const setting = (source: SettingsSource) => source.value?.permissions?.defaultMode;
  const byLayer = (layer: Layer) => used.filter((source) => source.layer === layer && setting(source) !== undefined).at(-1);
  const chosen = LAYERS.map(byLayer).find((source) => source !== undefined);
  if (!chosen) return { mode: 'default', note: 'no settings file sets permissions.defaultMode: the default mode' };
  const written = setting(chosen);
  const line = permissionLine(chosen, 'defaultMode');
  const where = `${ROLES[chosen.layer]}${chosen.path ? ` (${chosen.path}${line ? ` line ${line}` : ''})` : ''}`;
  const value = written === 'manual' ? 'default' : written;
  if (typeof value !== 'string' || !(MODES as readonly string[]).includes(value)) {
    return { mode: 'default', note: `${where} sets defaultMode to ${JSON.stringify(written)}, which is not a mode: the default mode`, documented: 'a defaultMode that is no mode is ignored, as Claude Code\'s code does' };
  }
  const mode = value as Mode;
  if (mode === 'bypassPermissions' || mode === 'auto') {
    // Only managed, user and --settings files may grant these: a repository's files are its author's.
    const granted = used.some((source) => (source.layer === 'managed' || source.layer === 'user' || source.layer === 'flag') && setting(source) === mode);
    if (!granted) {
      return {
        mode: 'default',
        source: chosen,
        ...(line ? { line } : {}),
        note: `${where} sets defaultMode ${mode}, which only managed, user and --settings files may grant: ignored, the default mode`,
        ...(mode === 'auto' ? { documented: 'auto mode from a repository\'s settings is ignored, as Claude Code\'s code does' } : {}),
      };
    }
    if (mode === 'bypassPermissions') {
      const disabled = LAYERS.map((layer) => used.filter((source) => source.layer === layer && source.value?.permissions?.disableBypassPermissionsMode !== undefined).at(-1)).find(Boolean);
      if (disabled?.value?.permissions?.disableBypassPermissionsMode === 'disable') {
        return { mode: 'default', source: chosen, ...(line ? { line } : {}), note: `${where} sets defaultMode bypassPermissions, but ${ROLES[disabled.layer]} sets disableBypassPermissionsMode: the default mode`, documented: 'disableBypassPermissionsMode is documented' };
      }
      if (runsAsRoot(setup.env)) {
        return {
          mode,
          source: chosen,
          ...(line ? { line } : {}),
          note: `${where} sets defaultMode bypassPermissions`,
          refusedToStart: '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons',
        };
      }
      // Run headless, the mode holds only once its warning has been accepted in an interactive session.
      if (setup.global.value?.bypassPermissionsModeAccepted !== true) {
        return {
          mode: 'default',
          source: chosen,
          ...(line ? { line } : {}),
          note: `${where} sets defaultMode bypassPermissions, not yet accepted in ${setup.global.path} (bypassPermissionsModeAccepted): the default mode`,
          documented: 'bypassPermissions as a user other than root is read from Claude Code\'s code: the recording ran as root',
        };
      }
    }
  }
  return { mode, source: chosen, ...(line ? { line } : {}), note: `${where} sets defaultMode ${mode}` };
}

/** The settings in force for one session. */
export function deriveEffective(setup: Setup): Effective {
  const trust = trustOf(setup);
  const problems: string[] = [];
  const used = setup.sources.filter((source) => {
    if (source.found && source.error) problems.push(`${source.path ?? '--settings'} is not used: ${source.error}`);
    return source.found && source.value !== undefined;
  });
  const managedOnly = used.find((source) => source.layer === 'managed' && source.value?.allowManagedPermissionRulesOnly === true);
  const rules: Rule[] = [];
  const dropped: { rule: Rule; why: string }[] = [];
  for (const source of used) {
    for (const behavior of BEHAVIORS) {
      for (const text of stringsOf(source.value?.permissions?.[behavior])) {
        const parsed = parseRule(text);
        if (!parsed) {
          problems.push(`${source.path ?? '--settings'}: ${JSON.stringify(text)} is not a rule`);
          continue;
        }
        const line = permissionLine(source, behavior, text);
        const rule: Rule = { text, ...parsed, behavior, source, ...(line !== undefined ? { line } : {}) };
        if (managedOnly && source.layer !== 'managed') dropped.push({ rule, why: `managed settings set allowManagedPermissionRulesOnly (${managedOnly.path})` });
        else if (!trust.trusted && source.layer === 'project' && behavior === 'allow') dropped.push({ rule, why: `the project's allow rules count only once the folder is trusted: ${trust.how}` });
        else rules.push(rule);
      }
    }
  }
  const path = nodePath(setup.platform);
  const working: WorkingFolder[] = [workingFolder(setup.cwd, setup.fs, setup.platform, { origin: 'the working folder' })];
  const droppedFolders: { entry: string; source: SettingsSource; why: string }[] = [];
  for (const source of used) {
    for (const entry of stringsOf(source.value?.permissions?.additionalDirectories)) {
      if (!trust.trusted && source.layer === 'project') {
        droppedFolders.push({ entry, source, why: `the project's additionalDirectories count only once the folder is trusted: ${trust.how}` });
        continue;
      }
      const line = permissionLine(source, 'additionalDirectories', entry);
      const folder = path.resolve(setup.cwd, expandHome(entry, setup.home, setup.platform));
      working.push(workingFolder(folder, setup.fs, setup.platform, { origin: `additionalDirectories in ${ROLES[source.layer]}`, ...(source.path ? { file: source.path } : {}), ...(line !== undefined ? { line } : {}) }));
    }
  }
  for (const { given, path: folder } of setup.addDirs) working.push(workingFolder(folder, setup.fs, setup.platform, { origin: '--add-dir', flag: `--add-dir ${given}` }));

  const pathRules = { read: { allow: [], ask: [], deny: [] }, edit: { allow: [], ask: [], deny: [] } } as Record<Access, Record<Behavior, PathRule[]>>;
  for (const rule of rules) {
    for (const access of ['read', 'edit'] as const) {
      if (rule.tool !== RULE_TOOL[access] || rule.content === undefined) continue;
      const compiled = compileRule(rule, setup.home, setup.platform, setup.fs);
      if (compiled) pathRules[access][rule.behavior].push(compiled);
      else dropped.push({ rule, why: 'the pattern is one the gitignore matcher skips (blank, a comment, or a trailing backslash)' });
    }
  }
  return { setup, trust, rules, dropped, pathRules, working, droppedFolders, mode: chooseMode(setup, used), problems };
}
