// Codex CLI 0.171.0 as `codex exec` decides: its configuration layers, the sandbox mode, then for a
// change its own check of a patch and its sandbox's. Modelled on the recording of the real
// program (test/deciders/recorded.json) and on its source (openai/codex: the config loader,
// derive_permission_profile, assess_patch_safety, the writable roots and their read-only folders).
import { isInside, platformComparison, type Platform } from '../../core/index.js';
import { toolFor } from '../tools.js';
import type { Decider, DeciderContext, DeciderStage, DeciderVerdict, Fix, RuleSource } from '../types.js';
import { readOnlyFixes, workspaceFixes, type ChangeRequest } from './fixes.js';
import { judgeChange, type ChangeTool, type Judged } from './judge.js';
import { configFiles, loadConfiguration, roleOf, settingOf, showValue, type Configuration } from './layers.js';
import { sandboxModeOf } from './mode.js';
import { absolutize, BYTEWISE, landing, show } from './paths.js';
import { patchCheck, PROTECTED_NAMES, writableRootsOf, type Check, type Roots, type WritableRoot } from './roots.js';

const PROGRAM = 'Codex CLI';
const VERSION = '0.171.0';
const AS_OBSERVED = `as observed in ${VERSION}`;
const AS_DOCUMENTED = `as its source reads for ${VERSION}, not observed here`;

const PATCH_OUTSIDE = 'patch rejected: writing outside of the project; rejected by user approval settings';
const PATCH_READ_ONLY = 'patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings';

const SANDBOXES: Readonly<Record<Platform, string>> = { linux: 'sandbox (bubblewrap)', darwin: 'sandbox (Seatbelt)', win32: 'sandbox (restricted token)' };

export const codex: Decider = {
  name: 'codex',
  program: PROGRAM,
  version: VERSION,
  tools: { read: ['shell-read'], change: ['apply_patch', 'shell-write'] },
  decide,
};

interface Draft {
  readonly stages: DeciderStage[];
  readonly differences: string[];
  /** Why this verdict rests on Codex's source rather than on the recording. */
  readonly documented: string[];
  readonly used: Set<string>;
}

function decide(input: string, tool: string, ctx: DeciderContext): DeciderVerdict {
  const mapped = toolFor(codex, tool);
  if (!mapped) throw new Error(`Codex has no tool ${JSON.stringify(tool)}: it has ${[...codex.tools.read, ...codex.tools.change].join(', ')} (or one of this server's tools)`);
  const platform = ctx.platform;
  const draft: Draft = { stages: [], differences: [], documented: [], used: new Set() };
  const config = loadConfiguration(ctx);
  const verdict = (decision: DeciderVerdict['decision'], rule: { text: string; source?: RuleSource }, path: string | null, fixes: readonly Fix[]): DeciderVerdict => {
    if (rule.source?.file !== undefined) draft.used.add(rule.source.file);
    if (platform !== 'linux') draft.documented.push(`Codex on ${platform === 'darwin' ? 'macOS' : 'Windows'} was not run here`);
    return {
      decider: 'codex',
      program: PROGRAM,
      version: VERSION,
      basis: draft.documented.length > 0 ? 'documented' : 'recorded',
      tool: mapped.tool,
      access: mapped.access,
      input,
      decision,
      rule,
      path,
      stages: draft.stages,
      fixes: decision === 'allow' ? [] : fixes,
      differences: draft.differences,
      configFiles: configFiles(config, draft.used),
    };
  };

  draft.stages.push(layersStage(config, ctx, draft));
  if (config.refusal) return verdict('deny', { text: config.refusal.reason, source: config.refusal.source }, null, config.refusal.fixes);

  const mode = sandboxModeOf(config, ctx);
  if (mode.setting) draft.used.add(mode.setting.layer.file);
  draft.stages.push({ name: 'sandbox_mode', status: 'pass', input: ctx.flags?.sandbox !== undefined ? `--sandbox ${ctx.flags.sandbox}` : 'the merged layers', output: mode.mode, rule: '--sandbox, else sandbox_mode from the merged layers, else workspace-write for a working folder (or its repository) with a trust decision in [projects], else read-only.', note: mode.note, source: mode.source });
  draft.stages.push(approvalStage(config));

  // Codex works in its working folder's real path (the kernel's), and takes a relative path from there.
  const written = absolutize(input, config.cwd, platform);
  const land = landing(ctx.fs, written, platform);
  const givenCwd = absolutize(ctx.cwd, config.cwd, platform);
  if (show(givenCwd, platform) !== show(config.cwd, platform)) draft.differences.push(`Codex works in the real path of its working folder, ${show(config.cwd, platform)}, not ${show(givenCwd, platform)}: a patch to a path written through the link is outside the project for it.`);

  if (mapped.access === 'read') {
    draft.stages.push({ name: SANDBOXES[platform], status: 'pass', input: show(written, platform), output: show(land.real, platform), rule: 'Reads are never refused: read-only and workspace-write both let the whole disk be read.', note: `Reads outside the working folder, through links and in the home folder all succeed (${AS_OBSERVED}).` });
    if (!isInside(config.cwd, land.real, BYTEWISE)) draft.differences.push('Codex never refuses a read, inside the working folder or not; Boundary Inspector refuses a read outside the workspace.');
    return verdict('allow', { text: 'reads are never refused', source: mode.source }, show(land.real, platform), []);
  }

  const change = mapped.tool as ChangeTool;
  const roots = writableRootsOf(config, ctx);
  const refused: ChangeRequest = { config, ctx, mode, tool: change, written, land, roots };
  if (mode.mode === 'danger-full-access') {
    draft.stages.push({ name: SANDBOXES[platform], status: 'pass', input: show(written, platform), output: show(land.real, platform), rule: 'danger-full-access runs without a sandbox: Codex writes anywhere.', note: '', source: mode.source });
    return verdict('allow', { text: 'sandbox_mode danger-full-access', source: mode.source }, show(land.real, platform), []);
  }
  if (mode.mode === 'read-only') return readOnly(refused, draft, verdict);
  return workspaceWrite(refused, draft, verdict);
}

type Finish = (decision: DeciderVerdict['decision'], rule: { text: string; source?: RuleSource }, path: string | null, fixes: readonly Fix[]) => DeciderVerdict;

function readOnly(r: ChangeRequest, draft: Draft, verdict: Finish): DeciderVerdict {
  const platform = r.ctx.platform;
  const path = show(r.land.real, platform);
  const rule = { text: `sandbox_mode read-only${r.mode.by === 'default' ? ' (the default)' : ''}`, source: r.mode.source };
  if (r.tool === 'apply_patch') {
    draft.stages.push({ name: 'assess_patch_safety', status: 'refuse', input: show(r.written, platform), output: null, rule: 'In read-only, Codex refuses every patch itself.', note: `${PATCH_READ_ONLY} (${AS_OBSERVED}).`, source: r.mode.source });
    return verdict('deny', rule, path, readOnlyFixes(r));
  }
  if (!r.land.folderExists) {
    draft.stages.push(noFolderStage(r, 'The whole disk is read-only.'));
    return verdict('allow', { text: 'the command runs; its folder is not there', source: r.mode.source }, path, []);
  }
  draft.stages.push({ name: SANDBOXES[platform], status: 'refuse', input: show(r.written, platform), output: path, rule: 'In read-only the sandbox binds the whole disk read-only.', note: `The write fails with "Read-only file system" (${AS_OBSERVED}).`, source: r.mode.source });
  return verdict('deny', rule, path, readOnlyFixes(r));
}

function workspaceWrite(r: ChangeRequest, draft: Draft, verdict: Finish): DeciderVerdict {
  const platform = r.ctx.platform;
  draft.stages.push(rootsStage(r.roots, r.ctx, draft));
  const judged = judgeChange(r.tool, r.written, r.land, r.roots.roots);
  const path = show(r.land.real, platform);
  if (r.land.throughLink || show(r.land.real, platform) !== show(r.written, platform)) {
    draft.differences.push(
      r.tool === 'apply_patch'
        ? "Codex's own check of a patch compares the path as written, links not followed, while its sandbox judges where the links lead: the two can disagree, and Boundary Inspector judges where the links lead."
        : 'The sandbox judges where the links lead, as Boundary Inspector does, but against the real paths of the writable roots, whatever links name them.',
    );
  }
  if (judged.patch) draft.stages.push(patchStage(r, judged.patch));
  if (judged.patch && !judged.patch.writable) {
    if (platform !== 'linux' && patchCheck(r.written, r.roots.roots, platformComparison(platform)).writable) {
      draft.differences.push(`Codex's own check compares names as written, letter case included, though ${platform === 'win32' ? 'Windows' : 'macOS'} opens the same folder in any case: Boundary Inspector compares as the disk does.`);
    }
    return verdict('deny', refusedRule(r, judged.patch, 'patch'), path, workspaceFixes(r));
  }
  if (judged.noFolder) {
    draft.stages.push(noFolderStage(r, 'Nothing in the sandbox refused it.'));
    return verdict('allow', { text: 'the command runs; its folder is not there', source: r.mode.source }, path, []);
  }
  draft.stages.push(sandboxStage(r, judged));
  const check = judged.sandbox!;
  if (check.writable) {
    const root = check.root!;
    if (root.kind === 'slash-tmp' || root.kind === 'tmpdir') draft.differences.push('Codex in workspace-write also makes /tmp and $TMPDIR writable; Boundary Inspector lets a tool change only the workspace.');
    if (root.source.file !== undefined) draft.used.add(root.source.file);
    // The working folder is writable because the mode is workspace-write: the mode's source decided.
    if (root.kind === 'cwd') return verdict('allow', { text: `inside the working folder ${show(root.real!, platform)}, writable in workspace-write`, source: r.mode.source }, path, []);
    return verdict('allow', { text: `inside the writable root ${show(root.real!, platform)}`, source: root.source }, path, []);
  }
  return verdict('deny', refusedRule(r, check, 'sandbox'), path, workspaceFixes(r));
}

/** The rule named for a refusal in workspace-write: the protected folder, the exclusion of /tmp, or the roots. */
function refusedRule(r: ChangeRequest, check: Check, by: 'patch' | 'sandbox'): { text: string; source?: RuleSource } {
  const platform = r.ctx.platform;
  if (check.protectedBy) {
    const folder = show(check.protectedBy.folder, platform);
    return { text: `${folder} is read-only: Codex protects ${PROTECTED_NAMES.join(', ')} at the top of each writable root`, source: check.protectedBy.root.source };
  }
  const exclusion = r.roots.exclusions.find((candidate) => candidate.root && judgeChange(r.tool, r.written, r.land, [...r.roots.roots, candidate.root]).allowed);
  if (exclusion) return { text: `outside the writable roots: ${exclusion.setting.source.text}`, source: exclusion.setting.source };
  const source = r.roots.setting?.source ?? r.mode.source;
  if (by === 'sandbox' && show(r.land.real, platform) !== show(r.written, platform)) return { text: `where the path leads, ${show(r.land.real, platform)}, is outside the writable roots' real paths`, source };
  return { text: 'outside the writable roots', source };
}

function layersStage(config: Configuration, ctx: DeciderContext, draft: Draft): DeciderStage {
  const notes: string[] = [];
  for (const layer of config.layers) {
    if (layer.text === undefined) notes.push(`${layer.file} is absent.`);
    else if (layer.disabled !== undefined) notes.push(layer.disabled);
  }
  for (const file of config.unmodelled) if (file.found) {
    notes.push(`${file.path} is there: its constraints are not modelled (${AS_DOCUMENTED}).`);
    draft.documented.push(`${file.path} is there`);
  }
  for (const layer of config.layers) {
    if (layer.text === undefined || layer.disabled !== undefined) continue;
    if (layer.kind === 'system' || layer.kind === 'managed') draft.documented.push(`${layer.file} applies`);
  }
  const permissions = settingOf(config, ['default_permissions']);
  if (permissions) {
    notes.push(`${permissions.source.text} in ${permissions.layer.file}: Codex then builds its sandbox from that [permissions] profile, which this model does not read; the decision below follows sandbox_mode.`);
    draft.documented.push('a [permissions] profile is chosen');
  }
  if (settingOf(config, ['project_root_markers'])) draft.documented.push('project_root_markers is set');
  if (config.refusal?.source.file !== undefined) draft.used.add(config.refusal.source.file);
  const applied = config.layers.filter((layer) => layer.text !== undefined && layer.disabled === undefined).map((layer) => `${roleOf(layer)} ${layer.file}`);
  const absentNote = config.layers.every((layer) => layer.text === undefined) ? ' No configuration file is there: Codex runs on its defaults.' : '';
  return {
    name: 'config layers',
    status: config.refusal ? 'refuse' : 'pass',
    input: `CODEX_HOME ${config.codexHome}${ctx.flags?.profile !== undefined ? `, --profile ${ctx.flags.profile}` : ''}`,
    output: config.refusal ? null : applied.length > 0 ? applied.join('; ') : 'defaults only',
    rule: `Codex merges ${ctx.platform === 'win32' ? 'the system config.toml' : '/etc/codex/config.toml'}, $CODEX_HOME/config.toml, the file --profile <name> chooses ($CODEX_HOME/<name>.config.toml), the .codex/config.toml of each folder from the project root (the nearest folder at or above the working folder holding .git, or a project_root_markers name) down to the working folder when that project is trusted, and managed_config.toml, each over the one before.`,
    note: [config.refusal?.reason, ...notes].filter(Boolean).join(' ') + absentNote,
    ...(config.refusal ? { source: config.refusal.source } : {}),
  };
}

function approvalStage(config: Configuration): DeciderStage {
  const setting = settingOf(config, ['approval_policy']);
  return {
    name: 'approval_policy',
    status: 'note',
    input: setting ? `${setting.source.text} (${setting.layer.file})` : 'not set',
    output: 'never',
    rule: 'codex exec asks nobody: it runs with approval_policy = "never" whatever the configuration says, so what would ask is refused.',
    note: `As observed in ${VERSION}, with approval_policy = "on-request" too. An interactive session with approval_policy = "on-request" would ask before a patch outside the writable roots instead (assess_patch_safety returns AskUser); that cannot be observed headless, so the decision here is codex exec's.`,
    ...(setting ? { source: setting.source } : {}),
  };
}

function describeRoot(root: WritableRoot, platform: Platform): string {
  const written = show(root.written, platform);
  const real = root.real ? show(root.real, platform) : null;
  return `${written}${real === null ? ' (not there: the sandbox binds nothing)' : real !== written ? ` (really ${real})` : ''} from ${root.source.text}${root.source.file !== undefined ? ` in ${root.source.file}` : ''}`;
}

function rootsStage(roots: Roots, ctx: DeciderContext, draft: Draft): DeciderStage {
  const platform = ctx.platform;
  const notes: string[] = [];
  for (const { entry, base } of roots.relative) {
    notes.push(`The relative entry ${showValue(entry)} is taken from ${base}, the folder of the file that holds it (${AS_OBSERVED}).`);
    draft.differences.push(`The relative writable_roots entry ${showValue(entry)} is taken from ${base}, the folder of the file that holds it, not from the working folder.`);
  }
  for (const exclusion of roots.exclusions) notes.push(`${exclusion.setting.source.text} in ${exclusion.setting.layer.file} keeps ${exclusion.kind === 'slash-tmp' ? '/tmp' : '$TMPDIR'} out.`);
  if (roots.setting) draft.used.add(roots.setting.layer.file);
  if (roots.roots.some((root) => root.gitdir)) draft.documented.push('a .git file points to its repository elsewhere');
  if (!roots.exclusions.some((exclusion) => exclusion.kind === 'slash-tmp') && platform !== 'win32') notes.push(`/tmp is writable in workspace-write unless exclude_slash_tmp = true (${AS_OBSERVED}).`);
  return {
    name: 'writable roots',
    status: 'note',
    input: 'workspace-write',
    output: roots.roots.map((root) => describeRoot(root, platform)).join('; '),
    rule: `The working folder, each writable_roots entry (relative ones from the folder of the file that holds them, ~ as the home folder), each --add-dir (from the working folder), /tmp and $TMPDIR; in each, ${PROTECTED_NAMES.join(', ')} at its top stay read-only, there or not (${AS_OBSERVED}), and only at its top.`,
    note: notes.join(' '),
    ...(roots.setting ? { source: roots.setting.source } : {}),
  };
}

function patchStage(r: ChangeRequest, check: Check): DeciderStage {
  const platform = r.ctx.platform;
  const written = show(r.written, platform);
  const why = check.writable ? `Inside ${describeRoot(check.root!, platform)}.` : check.protectedBy ? `${show(check.protectedBy.folder, platform)} is read-only at the top of ${show(check.protectedBy.root.written, platform)}.` : 'Under none of the writable roots.';
  return {
    name: 'assess_patch_safety',
    status: check.writable ? 'pass' : 'refuse',
    input: written,
    output: check.writable ? written : null,
    rule: 'Codex checks a patch itself first: the path as written, made absolute from the working folder and cleaned of . and .. by name (links not followed), must lie under a writable root as written, outside its protected folders.',
    note: check.writable ? `${why} What passes is written inside the sandbox.` : `${why} ${PATCH_OUTSIDE} (${AS_OBSERVED}).`,
    ...(check.root ? { source: check.root.source } : check.protectedBy ? { source: check.protectedBy.root.source } : {}),
  };
}

function sandboxStage(r: ChangeRequest, judged: Judged): DeciderStage {
  const platform = r.ctx.platform;
  const check = judged.sandbox!;
  const real = show(r.land.real, platform);
  const failure =
    r.tool === 'apply_patch'
      ? r.land.folderExists
        ? `Failed to write file ${show(r.written, platform)}`
        : `Failed to create parent directories for ${show(r.written, platform)}`
      : 'Read-only file system';
  const why = check.writable
    ? `Inside ${describeRoot(check.root!, platform)}.`
    : check.protectedBy
      ? `${show(check.protectedBy.folder, platform)} is read-only in the sandbox, even when it is not on disk.`
      : `${real} is under none of the roots' real paths.`;
  return {
    name: SANDBOXES[platform],
    status: check.writable ? 'pass' : 'refuse',
    input: show(r.written, platform),
    output: real,
    rule: "The sandbox binds each writable root's real path writable and everything else read-only; a write lands where its links lead.",
    note: check.writable ? why : `${why} The write fails: "${failure}" (${AS_OBSERVED}).`,
    ...(check.root ? { source: check.root.source } : check.protectedBy ? { source: check.protectedBy.root.source } : {}),
  };
}

function noFolderStage(r: ChangeRequest, context: string): DeciderStage {
  const platform = r.ctx.platform;
  return {
    name: SANDBOXES[platform],
    status: 'pass',
    input: show(r.written, platform),
    output: show(r.land.real, platform),
    rule: 'A shell command runs inside the sandbox, which refuses a write with "Read-only file system" when the file\'s folder is there.',
    note: `The folder that would hold ${show(r.land.real, platform)} is not there: the command fails with "No such file or directory" before any read-only check. ${context} (${AS_OBSERVED}: nothing was refused, the command failed.)`,
  };
}
