// Gemini CLI 0.61.0's decision for read_file and write_file, headless (`gemini -p`), in its own
// order: the command line, the settings layers, folder trust, the approval mode, the workspace
// folders, the tool's path (decoded, links resolved), Config.validatePathAccess, read_file's
// ignore files, and the policy engine for write_file. Modelled on its bundled core and checked
// against the real program (test/deciders/recorded.json).
import type { ConfigFile, Decider, DeciderContext, DeciderStage, DeciderVerdict, Decision, Fix, RuleSource } from '../types.js';
import { toolFor } from '../tools.js';
import { ignoredForRead } from './ignore.js';
import { GeminiPathError, geminiHost, isPathWithinRoot, isSubpath, onDisk, percentDecoded, realpathOf, resolveToRealPath, simulatedDisk, withoutReferenceMark, type GeminiHost } from './paths.js';
import { approvalMode, geminiFlags, resolvePlanPath, SESSION_PLACEHOLDER, typedFlags, writePolicy, type ApprovalMode } from './policy.js';
import { mergedSettings, readSettingsFiles, settingAt, sourceOf, type SettingsFiles } from './settings.js';
import { lineOf, withoutTrailingCommas } from '../jsonSettings.js';
import { checkPathTrust, readTrustFile, type TrustOutcome } from './trust.js';
import { geminiStorage, nearestFolder, validatePathAccess, workspaceFolders, type IncludedFolder, type PathAccess, type WorkspaceFolders } from './workspace.js';

const PROGRAM = 'Gemini CLI';
const VERSION = '0.61.0';
const AS_OBSERVED = `as observed in Gemini CLI ${VERSION}`;

/** What one decision gathers on its way: its stages, the files read, and what was not seen run. */
class Gathered {
  readonly stages: DeciderStage[] = [];
  readonly configFiles: ConfigFile[] = [];
  readonly differences: string[] = [];
  /** Rules this decision rests on that the recording never saw (the verdict is then "documented"). */
  readonly unrecorded: string[] = [];

  stage(stage: DeciderStage): void {
    this.stages.push(stage);
  }

  file(path: string, role: string, found: boolean, used: boolean): void {
    const at = this.configFiles.findIndex((file) => file.path === path && file.role === role);
    if (at >= 0) this.configFiles[at] = { ...this.configFiles[at]!, used: this.configFiles[at]!.used || used };
    else this.configFiles.push({ path, role, found, used });
  }
}

interface Outcome {
  readonly decision: Decision;
  readonly rule: { readonly text: string; readonly source?: RuleSource };
  readonly path: string | null;
  readonly fixes: readonly Fix[];
}

const stop = (name: string, input: string, rule: string, note: string, source?: RuleSource): DeciderStage => ({
  name,
  status: 'refuse',
  input,
  output: null,
  rule,
  note,
  ...(source ? { source } : {}),
});

/** `~`, `~/` and `%userprofile%` made the home folder, then normalised (the CLI's resolvePath). */
function expandHome(host: GeminiHost, home: string, written: string): string {
  if (written === '') return '';
  let expanded = written;
  if (written.toLowerCase().startsWith('%userprofile%')) expanded = home + written.slice('%userprofile%'.length);
  else if (written === '~' || written.startsWith('~/')) expanded = home + written.slice(1);
  return host.path.normalize(expanded);
}

/** The settings layer a fix should change: the one that decided a setting, or the user's file. */
function layerToChange(files: SettingsFiles, at: readonly string[], trusted: boolean): { file: string; line: number } {
  const decided = sourceOf(files, at, trusted);
  if (decided && decided.layer.role !== 'system settings' && decided.layer.role !== 'system defaults') return { file: decided.source.file!, line: decided.source.line ?? 1 };
  const user = files.layers.find((layer) => layer.role === 'user settings')!;
  return { file: user.path, line: user.text === undefined ? 1 : lineOf(user.text, at.slice(0, -1)) };
}

/** The fix for a settings file Gemini CLI cannot parse: the same settings without trailing commas, when that is all that is wrong. */
function mendFix(file: string, text: string | undefined): Fix {
  const mended = text === undefined ? undefined : withoutTrailingCommas(text);
  return mended === undefined
    ? { text: `Make ${file} a valid JSON object: comments are allowed, trailing commas are not.`, file, line: 1 }
    : { text: `Remove the trailing commas from ${file}: Gemini CLI allows comments, not trailing commas.`, file, line: 1, lines: text!.split('\n').length, add: mended };
}

function decide(this: Decider, input: string, toolName: string, ctx: DeciderContext): DeciderVerdict {
  const tool = toolFor(this, toolName);
  if (!tool) throw new Error(`Gemini CLI has no tool ${toolName}: its tools are ${[...this.tools.read, ...this.tools.change].join(', ')}`);
  const g = new Gathered();
  const env = ctx.env;
  const home = env.GEMINI_CLI_HOME || ctx.home;
  const flagIncludes = [...ctx.addDirs.flatMap((dir) => dir.split(',').map((part) => part.trim()).filter(Boolean)), ...geminiFlags(ctx.flags).includeDirectories];
  const simulated = ctx.simulated === true;
  const host = geminiHost(ctx.platform, simulated ? simulatedDisk(ctx.platform, [ctx.cwd, home, ...flagIncludes]) : ctx.fs, ctx.cwd);
  const { path } = host;
  if (simulated) g.unrecorded.push(`simulated: nothing of this machine is read; the working folder, the folders added and the home folder are taken as existing folders, the working folder as trusted, and no settings file as there`);
  if (ctx.platform !== 'linux') g.unrecorded.push(`recorded on Linux only: ${ctx.platform}'s path rules are read from Gemini CLI's code`);
  if (env.GEMINI_CLI_HOME) g.unrecorded.push('GEMINI_CLI_HOME (another home for its own files)');
  if (env.SANDBOX === 'sandbox-exec') g.unrecorded.push("macOS's sandbox-exec (its files under ~/.cache/.gemini)");
  const finish = (outcome: Outcome): DeciderVerdict => ({
    decider: 'gemini-cli',
    program: `${PROGRAM} ${VERSION}`,
    version: VERSION,
    basis: g.unrecorded.length === 0 ? 'recorded' : 'documented',
    tool: tool.tool,
    access: tool.access,
    input,
    decision: outcome.decision,
    rule: outcome.rule,
    path: outcome.path,
    stages: g.unrecorded.length === 0 ? g.stages : [...g.stages, { name: 'basis', status: 'note', input, output: null, rule: 'what this decision rests on', note: `not recorded, as documented for version ${VERSION}: ${[...new Set(g.unrecorded)].join('; ')}` }],
    fixes: outcome.decision === 'allow' ? [] : outcome.fixes,
    differences: g.differences,
    configFiles: g.configFiles,
  });

  // 1. The command line.
  const flags = geminiFlags(ctx.flags);
  if (flags.error !== undefined) {
    g.stage(stop('command line', typedFlags(ctx.flags), 'yargs checks the flags before anything runs', flags.error));
    return finish({ decision: 'deny', rule: { text: `Gemini CLI refuses to start: ${flags.error}` }, path: null, fixes: [{ text: 'Pass one approval mode, as --approval-mode <default|auto_edit|yolo|plan>.', flag: '--approval-mode auto_edit' }] });
  }
  g.stage({ name: 'command line', status: 'pass', input: typedFlags(ctx.flags), output: null, rule: 'the flags that bear on a path: --approval-mode, --yolo, --skip-trust, --include-directories (repeatable, comma-separated)', note: flags.skipTrust ? '--skip-trust trusts the working folder for this run' : '' });

  if (ctx.fs.lstat(onDisk(ctx.platform, host.processCwd)).kind !== 'directory' && !simulated) {
    g.stage(stop('working folder', ctx.cwd, 'Gemini CLI runs in an existing folder', 'there is no folder there: nothing can be started in it'));
    return finish({ decision: 'deny', rule: { text: `The working folder ${ctx.cwd} is not a folder: Gemini CLI cannot be started there` }, path: null, fixes: [{ text: `Create the folder ${host.processCwd}.`, path: host.processCwd }] });
  }

  // 2. The settings layers, and the trust their merge needs.
  const files = readSettingsFiles(host, home, env);
  const storage = geminiStorage(host, home, env);
  const trustFile = readTrustFile(host, storage.runtimeDir, env);
  const enabledOf = (settings: Record<string, unknown>) => Boolean(settingAt(settings, ['security', 'folderTrust', 'enabled']) ?? true);
  const trustWithout = mergedSettings(files, false);
  const enabledSource = (trusted: boolean): RuleSource => sourceOf(files, ['security', 'folderTrust', 'enabled'], trusted)?.source ?? { text: 'security.folderTrust.enabled (default true)' };
  const trustCheck = (settings: Record<string, unknown>, trusted: boolean, skipTrust: boolean): TrustOutcome | { readonly error: string } => {
    if (simulated) return { trusted: true, source: { text: 'simulated: the working folder is taken as trusted' } };
    const enabled = enabledOf(settings);
    const overridden = env.GEMINI_RESTRICTED_MODE === 'true' || skipTrust || env.GEMINI_CLI_TRUST_WORKSPACE === 'false' || env.GEMINI_CLI_TRUST_WORKSPACE === 'true';
    if (enabled && !overridden && trustFile.error !== undefined) return { error: `Error in ${trustFile.path}: ${trustFile.error}` };
    return checkPathTrust(host, { enabled, enabledSource: enabledSource(trusted), env, file: trustFile, skipTrust });
  };
  const settingsTrust = trustCheck(trustWithout, false, false);
  const settingsTrusted = !('error' in settingsTrust) && settingsTrust.trusted === true;
  const merged = mergedSettings(files, settingsTrusted);
  for (const layer of files.layers) {
    const applied = layer.found && layer.skipped === undefined && layer.error === undefined && (layer.role !== 'workspace settings' || settingsTrusted);
    g.file(layer.path, layer.role, layer.found, applied && Object.keys(layer.value).length > 0);
    if (layer.skipped?.includes('not owned by root')) g.unrecorded.push('a system settings file not owned by root is skipped (the recording ran as root)');
  }
  // Every file is read, the untrusted workspace's too: one that does not parse stops Gemini CLI.
  const broken = files.layers.find((layer) => layer.error !== undefined);
  const layerNotes = files.layers.map((layer) => {
    if (!layer.found) return `${layer.role} ${layer.path}: absent, its defaults apply`;
    if (layer.skipped !== undefined) return `${layer.role} ${layer.path}: ${layer.skipped}`;
    if (layer.error !== undefined) return `${layer.role} ${layer.path}: ${layer.error}`;
    if (layer.role === 'workspace settings' && !settingsTrusted) return `${layer.role} ${layer.path}: ignored, the folder is not trusted`;
    return `${layer.role} ${layer.path}: read`;
  });
  if (broken) {
    g.stage(stop('loadSettings', broken.path, 'system defaults, user, workspace, system: each read as JSON with comments', layerNotes.join('; ')));
    return finish({ decision: 'deny', rule: { text: `Gemini CLI refuses to start: Error in ${broken.path}: ${broken.error}`, source: { text: broken.error!, file: broken.path } }, path: null, fixes: [mendFix(broken.path, broken.text)] });
  }
  if ('error' in settingsTrust) {
    // Settings are read with the folder's trust, so a broken trust file stops Gemini CLI here, whatever the flags.
    g.stage(stop('loadSettings', trustFile.path, 'the folder\'s trust decides whether the workspace settings apply', settingsTrust.error, { text: settingsTrust.error, file: trustFile.path }));
    return finish({ decision: 'deny', rule: { text: `Gemini CLI refuses to start: ${settingsTrust.error}`, source: { text: settingsTrust.error, file: trustFile.path } }, path: null, fixes: [mendFix(trustFile.path, trustFile.text)] });
  }
  g.stage({
    name: 'loadSettings',
    status: files.layers.some((layer) => layer.skipped !== undefined) ? 'note' : 'pass',
    input: files.layers.map((layer) => layer.path).join(', '),
    output: null,
    rule: 'merged in order: defaults, system defaults, user, workspace (a trusted folder only), system; objects key by key, context.includeDirectories concatenated, anything else the later layer wins; $VAR expanded',
    note: layerNotes.join('; '),
  });

  // 3. Folder trust: headless, an untrusted folder stops Gemini CLI at start.
  const runTrust = trustCheck(merged, settingsTrusted, flags.skipTrust);
  g.file(trustFile.path, 'trusted folders', trustFile.found, 'source' in runTrust && runTrust.source.file === trustFile.path);
  const trustFixes = (): Fix[] => {
    if (env.GEMINI_RESTRICTED_MODE === 'true') return [{ text: 'Unset GEMINI_RESTRICTED_MODE: while it is true no folder is trusted, whatever the rules or flags.' }];
    const doNotTrust = 'rule' in runTrust && runTrust.rule?.level === 'DO_NOT_TRUST' ? runTrust.source.line : undefined;
    return [
      { text: `Trust the working folder in ${trustFile.path}.`, file: trustFile.path, line: doNotTrust ?? 1, add: JSON.stringify({ [host.processCwd]: 'TRUST_FOLDER' }) },
      { text: 'Trust the working folder for this run.', flag: '--skip-trust' },
    ];
  };
  if ('error' in runTrust) {
    g.stage(stop('isWorkspaceTrusted', host.processCwd, 'the rules of trustedFolders.json', runTrust.error, { text: runTrust.error, file: trustFile.path }));
    return finish({ decision: 'deny', rule: { text: `Gemini CLI refuses to start: ${runTrust.error}`, source: { text: runTrust.error, file: trustFile.path } }, path: null, fixes: [mendFix(trustFile.path, trustFile.text)] });
  }
  const trustEnabled = enabledOf(merged);
  const trustRule = 'GEMINI_RESTRICTED_MODE, --skip-trust and GEMINI_CLI_TRUST_WORKSPACE first; trust off (security.folderTrust.enabled: false) trusts every folder; otherwise the longest rule of trustedFolders.json whose folder (a TRUST_PARENT rule: its parent) holds the working folder, both by real path';
  if (trustEnabled && runTrust.trusted !== true) {
    const why = runTrust.trusted === false ? `${runTrust.source.text} distrusts it` : 'no rule trusts it';
    g.stage(stop('isWorkspaceTrusted', host.processCwd, trustRule, `${why}: a headless run stops before the model is asked ("Gemini CLI is not running in a trusted directory"), ${AS_OBSERVED}; interactive, it would ask`, runTrust.source));
    return finish({ decision: 'deny', rule: { text: `Gemini CLI refuses to start: the working folder is not trusted (${why})`, source: runTrust.source }, path: null, fixes: trustFixes() });
  }
  g.stage({ name: 'isWorkspaceTrusted', status: 'pass', input: host.processCwd, output: 'trusted', rule: trustRule, note: `${runTrust.source.text}${settingsTrusted ? '' : '; the workspace settings were read as untrusted'}`, source: runTrust.source });

  // 4. The approval mode.
  const modeSetting = sourceOf(files, ['general', 'defaultApprovalMode'], settingsTrusted);
  const yoloDisabledSource = sourceOf(files, ['security', 'disableYoloMode'], settingsTrusted)?.source;
  const mode = approvalMode(
    flags,
    { value: settingAt(merged, ['general', 'defaultApprovalMode']), ...(modeSetting ? { source: modeSetting.source } : {}) },
    { planEnabled: settingAt(merged, ['general', 'plan', 'enabled']) !== false, yoloDisabled: settingAt(merged, ['security', 'disableYoloMode']) === true, ...(yoloDisabledSource ? { yoloDisabledSource } : {}), trusted: runTrust.trusted === true },
  );
  const modeRule = '--approval-mode, else --yolo, else general.defaultApprovalMode (never yolo from a setting), else default; plan off falls back to default; an untrusted folder runs in default';
  if (mode.error !== undefined) {
    g.stage(stop('approval mode', mode.source.text, modeRule, mode.error, mode.source));
    const fix: Fix = mode.source.file ? { text: 'Set general.defaultApprovalMode to default, auto_edit or plan.', file: mode.source.file, line: mode.source.line ?? 1, add: JSON.stringify({ general: { defaultApprovalMode: 'auto_edit' } }) } : { text: 'Pass an approval mode this installation allows.', flag: '--approval-mode auto_edit' };
    return finish({ decision: 'deny', rule: { text: `Gemini CLI refuses to start: ${mode.error}`, source: mode.source }, path: null, fixes: [fix] });
  }
  g.stage({ name: 'approval mode', status: mode.note === '' ? 'pass' : 'note', input: mode.source.text, output: mode.mode, rule: modeRule, note: mode.note, source: mode.source });

  // 5. The workspace folders.
  // The merge concatenates the lists in layer order (system defaults, user, workspace, system), each entry with its line.
  const included: IncludedFolder[] = files.layers
    .filter((layer) => layer.role !== 'workspace settings' || settingsTrusted)
    .flatMap((layer) => {
      const value = settingAt(layer.value, ['context', 'includeDirectories']);
      const entries: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
      return entries.map((entry, index) => {
        const at = ['context', 'includeDirectories', ...(Array.isArray(value) ? [index] : [])];
        const source: RuleSource = { text: `context.includeDirectories: ${JSON.stringify(entry)}`, file: layer.path, ...(layer.text !== undefined ? { line: lineOf(layer.text, at) } : {}) };
        return { written: expandHome(host, home, String(entry)), source };
      });
    });
  for (const dir of flagIncludes) included.push({ written: expandHome(host, home, dir), source: { text: `--include-directories ${dir}`, flag: `--include-directories ${dir}` } });
  const ide = env.GEMINI_CLI_IDE_WORKSPACE_PATH;
  if (ide) {
    for (const folder of ide.split(path.delimiter)) {
      if (folder.trim() === '') continue;
      try {
        if (resolveToRealPath(host, folder.trim()) !== resolveToRealPath(host, host.processCwd)) included.push({ written: folder, source: { text: `GEMINI_CLI_IDE_WORKSPACE_PATH: ${folder}` } });
      } catch {
        // An editor folder that cannot be resolved is skipped.
      }
    }
  }
  const folders: WorkspaceFolders = workspaceFolders(host, included);
  const workspaceRule = 'the working folder, then each included folder (settings in layer order, --include-directories, the editor\'s folders), each by its real path; one that is not a folder stops Gemini CLI at start';
  if (folders.failure) {
    const { folder, message } = folders.failure;
    g.stage(stop('WorkspaceContext', folder.written, workspaceRule, `${message}: Gemini CLI stops at start, ${AS_OBSERVED}, though the setting's description says a missing folder is skipped with a warning`, folder.source));
    const absolute = path.resolve(host.processCwd, folder.written);
    const fixes: Fix[] = folder.source.file ? [{ text: `Remove ${folder.written} from context.includeDirectories.`, file: folder.source.file, line: folder.source.line ?? 1, lines: 1, add: '' }] : [{ text: `Drop ${folder.source.flag ?? folder.source.text} from the command line.` }];
    if (message.startsWith('Directory does not exist')) fixes.push({ text: `Create the folder ${absolute}.`, path: absolute });
    else fixes.push({ text: `Include the folder that holds it, ${path.dirname(absolute)}, instead.`, flag: `--include-directories ${path.dirname(absolute)}` });
    return finish({ decision: 'deny', rule: { text: `Gemini CLI refuses to start: ${message}`, source: folder.source }, path: null, fixes });
  }
  g.stage({
    name: 'WorkspaceContext',
    status: 'pass',
    input: [host.processCwd, ...included.map((folder) => folder.written)].join(', '),
    output: folders.directories.join(', '),
    rule: workspaceRule,
    note: `the project temp directory ${storage.projectTempDir} is allowed too (${storage.identifierNote}), as is the global memory file`,
  });
  g.file(storage.registryPath, 'project registry (projects.json)', storage.registryFound, false);
  const memoryFileName = (() => {
    const value = settingAt(merged, ['context', 'fileName']);
    const first = Array.isArray(value) ? value.find((name) => typeof name === 'string' && name.trim() !== '') : value;
    return typeof first === 'string' && first.trim() !== '' ? path.normalize(first.trim()) : 'GEMINI.md';
  })();

  // 6. The tool is offered, or not: headless, the default mode does not offer write_file.
  const modeFixes = (wanted: ApprovalMode): Fix[] => {
    const target = layerToChange(files, ['general', 'defaultApprovalMode'], settingsTrusted);
    const fixes: Fix[] = [{ text: `Run in ${wanted} mode.`, flag: `--approval-mode ${wanted}` }];
    if (wanted !== 'yolo' && !(modeSetting?.layer.role ?? '').startsWith('system')) {
      fixes.push({ text: `Set general.defaultApprovalMode to "${wanted}".`, file: target.file, line: target.line, add: JSON.stringify({ general: { defaultApprovalMode: wanted } }) });
    }
    return fixes;
  };
  const access = tool.access === 'read' ? 'read' : 'write';

  // 7. The tool's path.
  const planMode = access === 'write' && mode.mode === 'plan';
  const plansDir = (() => {
    const custom = settingAt(merged, ['general', 'plan', 'directory']);
    // A custom folder must lie in the project, or the default one is used.
    if (typeof custom === 'string' && custom !== '') {
      const resolvedCustom = path.resolve(host.processCwd, custom);
      if (isSubpath(host, resolveToRealPath(host, host.processCwd), resolveToRealPath(host, resolvedCustom))) return resolvedCustom;
    }
    return path.join(storage.projectTempDir, SESSION_PLACEHOLDER, 'plans');
  })();
  let resolved: string;
  let sanitized = input;
  const pathRule = planMode
    ? 'plan mode: an absolute path inside the plans folder, or the path taken from the working folder, or from the plans folder, must land in the plans folder'
    : "a leading @ dropped when no such name exists; made absolute against the working folder; percent-decoded; links resolved (a missing tail kept)";
  try {
    if (planMode) {
      const plan = resolvePlanPath(host, input, plansDir);
      if ('error' in plan) {
        g.stage(stop('resolveAndValidatePlanPath', input, pathRule, `${plan.error} (the plans folder is new each session)`));
        return finish({ decision: 'deny', rule: { text: plan.error }, path: null, fixes: [{ text: 'Write plans by a bare Markdown name in plan mode, or change files in auto_edit mode.', flag: '--approval-mode auto_edit' }, { text: 'Name a Markdown file by itself: plan mode puts it in the plans folder.', path: `${path.basename(input).replace(/\.[^.]*$/, '').replace(/[^\w-]/g, '-') || 'plan'}.md` }] });
      }
      resolved = plan.path;
    } else {
      sanitized = withoutReferenceMark(host, input, host.processCwd);
      resolved = resolveToRealPath(host, path.resolve(host.processCwd, sanitized));
    }
  } catch (error) {
    if (!(error instanceof GeminiPathError)) throw error;
    g.stage(stop('resolveToRealPath', input, pathRule, error.message));
    return finish({ decision: 'deny', rule: { text: `Failed to resolve path: ${error.message}` }, path: null, fixes: [{ text: 'Break the loop of links on the way, or name the file by a path that has none.' }] });
  }
  const decodedOnce = percentDecoded(path.resolve(host.processCwd, sanitized));
  const pathNotes: string[] = [];
  if (sanitized !== input) pathNotes.push(`the leading @ is dropped: ${sanitized}`);
  if (decodedOnce !== path.resolve(host.processCwd, sanitized)) {
    pathNotes.push(`percent-decoded: ${decodedOnce}; the workspace check decodes it once more`);
    g.differences.push('Gemini CLI percent-decodes a plain path before it checks it, and again inside its workspace check; Boundary Inspector takes "%" in a path literally.');
  }
  if (sanitized !== input) g.differences.push('Gemini CLI drops a leading "@" from a path when no such name exists; Boundary Inspector takes the name as written.');
  if (!planMode && !path.isAbsolute(input) && /^~(\/|$)/.test(input)) pathNotes.push('"~" is not the home folder here: it is a name under the working folder');
  if (planMode) pathNotes.push(`the plans folder: ${plansDir}`);
  g.stage({ name: planMode ? 'resolveAndValidatePlanPath' : 'resolveToRealPath', status: pathNotes.length > 0 ? 'note' : 'pass', input, output: resolved, rule: pathRule, note: pathNotes.join('; ') });

  // 6 (told here, decided before any path is looked at): write_file in the default mode.
  const notOffered = access === 'write' && mode.mode === 'default';

  // 8. Config.validatePathAccess.
  const checked: PathAccess = validatePathAccess(host, folders, storage, memoryFileName, resolved, access);
  const accessRule = access === 'read'
    ? 'inside a workspace folder (the first that holds it, no .git, .env, node_modules or gha-creds-*.json below it), else the project temp directory or the global memory file'
    : 'inside a workspace folder (the first that holds it, no .git, .env, node_modules or gha-creds-*.json below it), the project temp directory or the global memory file; never the memory inbox';
  const includeFixes = (target: string): Fix[] => {
    const folder = nearestFolder(host, path.dirname(target));
    const user = files.layers.find((layer) => layer.role === 'user settings')!;
    return [
      { text: `Add ${folder} to the workspace for this run.`, flag: `--include-directories ${folder}` },
      { text: `Add ${folder} to context.includeDirectories in the user settings.`, file: user.path, line: user.text === undefined ? 1 : lineOf(user.text, ['context', 'includeDirectories']), add: JSON.stringify({ context: { includeDirectories: [folder] } }) },
    ];
  };
  const renamedFix = (within: { folder?: string; resolved?: string; blocked?: string }): Fix => {
    const names = path.relative(within.folder!, within.resolved!).split(/[/\\]/);
    const at = names.indexOf(within.blocked!);
    names[at] = `copy-of-${within.blocked}`;
    const other = path.join(within.folder!, ...names);
    return { text: `Gemini CLI never lets ${tool.tool} reach a path with "${within.blocked}" in it below a workspace folder, whatever its settings: use a copy under another name.`, path: other };
  };
  let pathFixes: Fix[] = [];
  if (!checked.allowed) {
    const within = checked.within;
    if (checked.why === 'not in workspace' && within?.blocked !== undefined) {
      pathFixes = [renamedFix(within)];
      g.differences.push(`Gemini CLI refuses "${within.blocked}" inside the workspace, as "not in workspace"; Boundary Inspector has no names it refuses.`);
    } else if (checked.why === 'not in workspace') {
      pathFixes = includeFixes(within?.resolved ?? resolved);
      // macOS: the disk ignores case, the check does not; the folder as Gemini CLI holds it works.
      const target = within?.resolved ?? resolved;
      const sameButCase = ctx.platform === 'darwin' ? folders.directories.find((dir) => target.toLowerCase() === dir.toLowerCase() || target.toLowerCase().startsWith(`${dir.toLowerCase()}/`)) : undefined;
      if (sameButCase !== undefined) {
        pathFixes.unshift({ text: `Spell the folder as the workspace holds it: ${sameButCase}.`, path: sameButCase + target.slice(sameButCase.length) });
        g.differences.push('On macOS Gemini CLI compares a path with its workspace folders letter for letter, though the disk ignores case, so the same folder typed in another case is outside; Boundary Inspector compares as the disk does.');
      }
      // read_file refuses a link that leads out of the working folder as ignored, wherever it leads: name the target.
      if (access === 'read' && ctx.fs.lstat(onDisk(ctx.platform, path.resolve(host.processCwd, sanitized))).kind === 'symlink') pathFixes.push({ text: 'Name the file by its own path: read_file takes a link that leads out of the working folder for an ignored file.', path: resolved });
    } else if (checked.why === 'invalid') {
      pathFixes = [{ text: 'Name the file without quotes, "..." or control characters.', path: input.replace(/\.\.\.+/g, '.').replace(/"/g, '') }];
    } else {
      pathFixes = [{ text: "Gemini CLI keeps its memory inbox to its own memory agent: write elsewhere in the project's temporary folder.", path: path.join(storage.projectTempDir, path.basename(resolved)) }];
    }
  }
  const checkNote = (() => {
    if (checked.allowed) {
      if (checked.by === 'workspace') return `inside ${checked.within.folder}`;
      return checked.by === 'project temp dir' ? `inside Gemini CLI's own project temp directory ${storage.projectTempDir}` : `the global memory file ${path.join(storage.globalDir, memoryFileName)}`;
    }
    const within = checked.within;
    if (within?.blocked !== undefined) return `"${within.blocked}" below ${within.folder}: refused as "not in workspace", ${AS_OBSERVED}`;
    return checked.message;
  })();
  if (notOffered) {
    g.stage({ name: 'validatePathAccess', status: 'skip', input: resolved, output: null, rule: accessRule, note: `not reached headless (the tool is not offered); would ${checked.allowed ? 'allow' : 'refuse'}: ${checkNote}` });
    g.stage({ name: 'tool registry', status: 'ask', input: tool.tool, output: null, rule: 'write.toml: write_file asks in the default mode; a headless run cannot ask, so it does not offer the tool', note: `the model's call comes back 'Tool "write_file" not found': an ask, ${AS_OBSERVED}` });
    const fixes = modeFixes('auto_edit');
    return finish({ decision: 'ask', rule: { text: 'write_file asks for confirmation in the default approval mode', source: mode.source }, path: resolved, fixes: checked.allowed ? fixes : [...fixes, ...pathFixes] });
  }
  if (!checked.allowed) {
    g.stage(stop('validatePathAccess', resolved, accessRule, checkNote));
    return finish({ decision: 'deny', rule: { text: checked.message, ...(checked.within?.folder && folders.sources.get(checked.within.folder) ? { source: folders.sources.get(checked.within.folder)! } : {}) }, path: resolved, fixes: pathFixes });
  }
  g.stage({ name: 'validatePathAccess', status: checked.by === 'workspace' ? 'pass' : 'note', input: resolved, output: resolved, rule: accessRule, note: checkNote, ...(checked.by === 'workspace' && checked.within.folder ? { source: folders.sources.get(checked.within.folder)! } : {}) });
  const asWritten = path.resolve(host.processCwd, sanitized);
  if (checked.by === 'workspace' && !folders.directories.some((folder) => isPathWithinRoot(host, asWritten, folder))) {
    g.differences.push('Gemini CLI judges a path by where its links lead, so a path outside the workspace that leads in through a link is allowed; Boundary Inspector refuses a path whose names lie outside.');
  }
  if (checked.by === 'project temp dir') g.differences.push("Gemini CLI lets its tools into its own temporary folder under ~/.gemini/tmp; Boundary Inspector knows only the workspace.");

  // 9. read_file: the ignore files.
  if (access === 'read') {
    const filtering = (key: string) => settingAt(merged, ['context', 'fileFiltering', key]);
    const custom = filtering('customIgnoreFilePaths');
    const ignored = ignoredForRead(host, { respectGitIgnore: filtering('respectGitIgnore') !== false, respectGeminiIgnore: filtering('respectGeminiIgnore') !== false, customIgnoreFilePaths: Array.isArray(custom) ? custom.map(String) : [] }, sanitized, resolved);
    for (const file of ignored.files) g.file(file.path, file.role, file.found, ignored.ignored);
    const ignoreRule = 'FileDiscoveryService.shouldIgnoreFile on the path as given and as resolved: .geminiignore, custom ignore files, and in a git repository .gitignore and .git/info/exclude; a link that leads out of the working folder counts as ignored';
    if (ignored.ignored) {
      g.stage(stop('ignore patterns', ignored.checked!, ignoreRule, `${ignored.source!.text}, ${AS_OBSERVED}`, ignored.source));
      const target = layerToChange(files, ['context', 'fileFiltering', 'respectGeminiIgnore'], settingsTrusted);
      return finish({
        decision: 'deny',
        rule: { text: `File path '${resolved}' is ignored by configured ignore patterns.`, ...(ignored.source ? { source: ignored.source } : {}) },
        path: resolved,
        fixes: ignored.source?.file === undefined
          ? [{ text: 'Read the file by its own path: read_file takes a link that leads out of the working folder for an ignored file.', path: resolved }]
          : [
              { text: `Remove the pattern ${ignored.source.text} from ${ignored.source.file}.`, file: ignored.source.file, line: ignored.source.line ?? 1, lines: 1, add: '' },
              { text: 'Let read_file read what .geminiignore and .gitignore list.', file: target.file, line: target.line, add: JSON.stringify({ context: { fileFiltering: { respectGeminiIgnore: false, respectGitIgnore: false } } }) },
            ],
      });
    }
    g.stage({ name: 'ignore patterns', status: 'pass', input: sanitized, output: resolved, rule: ignoreRule, note: '' });
    const missing = realpathOf(host, resolved) === undefined;
    const folderSource = checked.by === 'workspace' && checked.within.folder !== undefined ? folders.sources.get(checked.within.folder) : undefined;
    return finish({ decision: 'allow', rule: { text: `read_file reads ${resolved}${missing ? ' (which does not exist: the read then fails)' : ''}`, ...(folderSource?.file || folderSource?.flag ? { source: folderSource } : {}) }, path: resolved, fixes: [] });
  }

  // 10. write_file: the policy engine.
  const policy = writePolicy(host, mode.mode, input, folders.directories);
  const policyRule = `the policy engine in ${mode.mode} mode, headless: the highest-priority rule of the default policies, then build-file protection, then (auto_edit) the allowed-path safety checker`;
  if (policy.decision === 'allow') {
    const isFolder = ctx.fs.lstat(onDisk(ctx.platform, resolved)).kind === 'directory';
    g.stage({ name: 'policy engine', status: 'pass', input, output: resolved, rule: policyRule, note: `${policy.rule}${isFolder ? '; the path is a folder: the write then fails' : ''}` });
    return finish({ decision: 'allow', rule: { text: policy.rule, source: mode.source }, path: resolved, fixes: [] });
  }
  const fixes: Fix[] = policy.rule.startsWith('build file')
    ? [{ text: 'Confirm the change in an interactive session: headless, Gemini CLI refuses to change a build file in every mode.' }]
    : policy.decision === 'ask' || policy.rule.includes('outside of the allowed') ? modeFixes('yolo') : modeFixes('auto_edit');
  g.stage({ name: 'policy engine', status: policy.decision === 'ask' ? 'ask' : 'refuse', input, output: null, rule: policyRule, note: [policy.rule, policy.note, policy.decision === 'ask' ? `an ask, ${AS_OBSERVED}` : `"Tool execution denied by policy.", ${AS_OBSERVED}`].filter(Boolean).join('; ') });
  if (policy.note.includes('"..')) g.differences.push('In auto_edit, Gemini CLI takes a name that begins with ".." for a way out of the workspace; Boundary Inspector compares whole names.');
  return finish({ decision: policy.decision, rule: { text: policy.rule, source: mode.source }, path: resolved, fixes });
}

export const geminiCli: Decider = {
  name: 'gemini-cli',
  program: PROGRAM,
  version: VERSION,
  tools: { read: ['read_file'], change: ['write_file'] },
  decide,
};
