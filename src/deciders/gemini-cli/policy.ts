// The approval mode and the policy engine's say on write_file, headless, with Gemini CLI's
// default policies (bundle/policies/write.toml, yolo.toml, plan.toml, read-only.toml): the mode
// from the flags and general.defaultApprovalMode, the rule that matches in that mode, the build
// files a headless run refuses to change, and auto_edit's "allowed-path" safety checker.
import type { Decision, RuleSource } from '../types.js';
import { GeminiPathError, isSubpath, resolveToRealPath, trimTrailingSpacesAndDots, blockedSegment, type GeminiHost } from './paths.js';

/** Gemini CLI's approval modes, by the names its flag and setting take. */
const APPROVAL_MODES = ['default', 'auto_edit', 'yolo', 'plan'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The flags of Gemini CLI's command line this model reads. */
export interface GeminiFlags {
  readonly approvalMode?: string;
  readonly yolo: boolean;
  readonly skipTrust: boolean;
  readonly includeDirectories: readonly string[];
  /** What yargs refuses before anything runs. */
  readonly error?: string;
}

/**
 * The flags that bear on a decision, from the context's (names without dashes, `true` for a flag
 * without a value), checked as yargs checks them.
 */
export function geminiFlags(given: Readonly<Record<string, string>> = {}): GeminiFlags {
  const approvalMode = given['approval-mode'];
  const on = (name: string) => given[name] !== undefined && given[name] !== 'false';
  const yolo = on('yolo') || on('y');
  const includeDirectories = (given['include-directories'] ?? '').split(',').map((dir) => dir.trim()).filter(Boolean);
  const error =
    approvalMode !== undefined && !(APPROVAL_MODES as readonly string[]).includes(approvalMode)
      ? `Invalid values: Argument: approval-mode, Given: "${approvalMode}", Choices: ${APPROVAL_MODES.map((mode) => `"${mode}"`).join(', ')}`
      : yolo && approvalMode !== undefined
        ? 'Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode=yolo instead.'
        : undefined;
  return { ...(approvalMode !== undefined ? { approvalMode } : {}), yolo, skipTrust: on('skip-trust'), includeDirectories, ...(error !== undefined ? { error } : {}) };
}

/** The flags as they would be typed. */
export function typedFlags(given: Readonly<Record<string, string>> = {}): string {
  return Object.entries(given)
    .map(([name, value]) => (value === 'true' ? `--${name}` : `--${name} ${value}`))
    .join(' ');
}

export interface ModeOutcome {
  readonly mode: ApprovalMode;
  readonly source: RuleSource;
  /** Why the mode asked for is not the one in force. */
  readonly note: string;
  /** A mode Gemini CLI refuses at start. */
  readonly error?: string;
}

/** loadCliConfig's approval mode: the flag, then the setting (never yolo from a setting), then checks against the settings and trust. */
export function approvalMode(
  flags: GeminiFlags,
  setting: { readonly value: unknown; readonly source?: RuleSource },
  checks: { readonly planEnabled: boolean; readonly yoloDisabled: boolean; readonly yoloDisabledSource?: RuleSource; readonly trusted: boolean },
): ModeOutcome {
  let raw: unknown;
  let source: RuleSource;
  const notes: string[] = [];
  if (flags.approvalMode !== undefined && flags.approvalMode !== '') {
    raw = flags.approvalMode;
    source = { text: `--approval-mode ${flags.approvalMode}`, flag: `--approval-mode ${flags.approvalMode}` };
  } else if (flags.yolo) {
    raw = 'yolo';
    source = { text: '--yolo', flag: '--yolo' };
  } else if (setting.value !== 'yolo' && setting.source) {
    raw = setting.value;
    source = setting.source;
  } else {
    if (setting.value === 'yolo') notes.push(`general.defaultApprovalMode "yolo" is ignored: only --yolo or --approval-mode=yolo turn yolo on (${setting.source?.file ?? 'settings'})`);
    raw = 'default';
    source = { text: 'the default approval mode' };
  }
  if (typeof raw !== 'string' || !(APPROVAL_MODES as readonly string[]).includes(raw)) {
    return { mode: 'default', source, note: '', error: `Invalid approval mode: ${String(raw)}. Valid values are: yolo, auto_edit, plan, default` };
  }
  let mode = raw as ApprovalMode;
  if (mode === 'plan' && !checks.planEnabled) {
    notes.push('plan mode is turned off (general.plan.enabled: false): the default mode applies');
    mode = 'default';
  }
  if (mode === 'yolo' && checks.yoloDisabled) {
    return { mode, source, note: notes.join('; '), error: `YOLO mode is disabled by the "disableYolo" setting${checks.yoloDisabledSource?.file ? ` (${checks.yoloDisabledSource.file})` : ''}.` };
  }
  if (!checks.trusted && mode !== 'default') {
    notes.push(`${mode} is overridden to "default" because the folder is not trusted`);
    mode = 'default';
  }
  return { mode, source, note: notes.join('; ') };
}

/** What the policy engine says of one call, and the rule that said it. */
export interface PolicyOutcome {
  readonly decision: Decision;
  readonly rule: string;
  readonly note: string;
}

const EXACT_BUILD_FILES = new Set([
  'BUILD', 'BUILD.bazel', 'WORKSPACE', 'WORKSPACE.bazel', 'MODULE.bazel', '.bazelrc', '.blazerc',
  'Makefile', 'makefile', 'GNUmakefile', 'CMakeLists.txt',
  'package.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lockb',
  'setup.py', 'setup.cfg', 'pyproject.toml', 'go.mod', 'go.sum', 'Cargo.toml', 'Cargo.lock',
  'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts',
  'Dockerfile', 'Containerfile',
]);
const BUILD_EXTENSIONS = new Set(['.bzl', '.bazel', '.bzlmod', '.mk', '.cmake']);

/** isBuildFile: the name the path resolves to is a build or dependency file. */
function isBuildFile(host: GeminiHost, filePath: string): boolean {
  let clean = filePath.replace(/\0/g, '');
  if (host.platform === 'win32') clean = trimTrailingSpacesAndDots(clean);
  const normalized = clean.replace(/\\/g, '/');
  let resolved: string;
  try {
    resolved = resolveToRealPath(host, normalized);
  } catch {
    resolved = host.path.resolve(host.processCwd, normalized);
  }
  const name = host.path.basename(resolved);
  return EXACT_BUILD_FILES.has(name) || name.startsWith('Dockerfile.') || name.startsWith('Containerfile.') || BUILD_EXTENSIONS.has(host.path.extname(name).toLowerCase());
}

/**
 * The "allowed-path" safety checker auto_edit runs on write_file: the path as the model gave it
 * against the working folder and the workspace folders. A folder holds a path when their relative
 * path is empty or does not begin with `..`, so a name such as `..notes` reads as a way out.
 */
function allowedPathChecker(host: GeminiHost, filePath: string, workspaces: readonly string[]): PolicyOutcome | undefined {
  const { path } = host;
  const safely = (p: string) => {
    try {
      return resolveToRealPath(host, path.resolve(host.processCwd, p));
    } catch {
      return null;
    }
  };
  const target = safely(filePath);
  if (target === null) return { decision: 'deny', rule: `allowed-path checker: cannot resolve path "${filePath}"`, note: '' };
  const dirs = [host.processCwd, ...workspaces].map(safely).filter((dir): dir is string => dir !== null);
  const holds = (dir: string) => {
    const relative = path.relative(dir, target);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  };
  let blocked: string | undefined;
  let vscode = false;
  for (const dir of dirs.filter(holds)) {
    const relative = path.relative(dir, target);
    blocked ??= blockedSegment(relative);
    vscode ||= relative.split(/[/\\]/).some((name) => {
      const clean = trimTrailingSpacesAndDots(name.split(':')[0]!).toLowerCase();
      return clean === '.vscode' || /^(vscode|vs[0-9a-f]{4})~\d+$/.test(clean);
    });
  }
  if (blocked !== undefined) return { decision: 'deny', rule: `allowed-path checker: access to sensitive path "${filePath}" is blocked`, note: '' };
  if (vscode) return { decision: 'ask', rule: 'allowed-path checker: modifying .vscode configuration files requires explicit user confirmation', note: 'a headless run cannot confirm: the call fails ("requires user confirmation, which is not supported in non-interactive mode")' };
  if (!dirs.some(holds)) {
    return {
      decision: 'deny',
      rule: `allowed-path checker: path "${filePath}" is outside of the allowed workspace directories`,
      note: path.relative(host.processCwd, target).startsWith('..') && isSubpath(host, host.processCwd, target)
        ? `its name begins with "..", which the checker takes for a way out (path.relative starts with ".."), though the folder holds it`
        : 'the checker sees only the working folder and the workspace folders, not the project temp directory',
    };
  }
  return undefined;
}

/** plan.toml's write_file allowances: Markdown files in the plans folder, by the path as written. */
const PLAN_FILE_PATTERNS = [
  /\x00"file_path":"[^"]+[\\/]+\.gemini[\\/]+tmp[\\/]+[\w-]+[\\/]+[\w-]+[\\/]+plans[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"[^"]+[\\/]+\.gemini[\\/]+tmp[\\/]+[\w-]+[\\/]+plans[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"\.gemini[\\/]+tmp[\\/]+[\w-]+[\\/]+[\w-]+[\\/]+plans[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"\.gemini[\\/]+tmp[\\/]+[\w-]+[\\/]+plans[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"\.[\\/]+\.gemini[\\/]+tmp[\\/]+[\w-]+[\\/]+[\w-]+[\\/]+plans[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"\.[\\/]+\.gemini[\\/]+tmp[\\/]+[\w-]+[\\/]+plans[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"[\w-]+\.md"\x00/,
  /\x00"file_path":"\.[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"plans[\\/]+[\w-]+\.md"\x00/,
  /\x00"file_path":"\.[\\/]+plans[\\/]+[\w-]+\.md"\x00/,
];

/** The policy engine on a write_file call that passed its own checks, headless, in each mode. */
export function writePolicy(host: GeminiHost, mode: ApprovalMode, filePath: string, workspaces: readonly string[]): PolicyOutcome {
  let outcome: PolicyOutcome;
  if (mode === 'plan') {
    // The arguments as the engine matches them: each top-level pair between NULs, keys sorted.
    const args = `\x00"content":""\x00\x00"file_path":${JSON.stringify(filePath)}\x00`;
    if (!PLAN_FILE_PATTERNS.some((pattern) => pattern.test(args))) {
      return { decision: 'deny', rule: 'plan.toml: in plan mode write_file may only save .md plans in the plans directory ("You are in Plan Mode and cannot modify source code")', note: '' };
    }
    outcome = { decision: 'allow', rule: 'plan.toml: write_file allowed for a .md file in the plans directory', note: '' };
  } else if (mode === 'yolo') {
    outcome = { decision: 'allow', rule: 'yolo.toml: every tool allowed in yolo mode', note: '' };
  } else if (mode === 'auto_edit') {
    outcome = { decision: 'allow', rule: 'write.toml: write_file allowed in auto_edit', note: '' };
  } else {
    return { decision: 'ask', rule: 'write.toml: write_file asks in the default mode; headless, the tool is not offered at all', note: '' };
  }
  if (isBuildFile(host, filePath.trim())) {
    return { decision: 'deny', rule: 'build file protection: modifying build configuration files requires explicit user confirmation', note: 'headless, what would ask is refused' };
  }
  if (mode === 'auto_edit') return allowedPathChecker(host, filePath, workspaces) ?? outcome;
  return outcome;
}

/** Storage.getPlansDir's stand-in: the session's folder is new each run, so it is named, not known. */
export const SESSION_PLACEHOLDER = '<session-id>';

/** resolveAndValidatePlanPath: in plan mode write_file's path is taken inside the plans folder or refused. */
export function resolvePlanPath(host: GeminiHost, filePath: string, plansDir: string): { readonly path: string } | { readonly error: string } {
  const { path } = host;
  const trimmed = filePath.replace(/\0/g, '').trim();
  if (trimmed === '') return { error: 'Plan file path must be non-empty.' };
  try {
    const realPlans = resolveToRealPath(host, plansDir);
    if (path.isAbsolute(trimmed) && isSubpath(host, realPlans, resolveToRealPath(host, trimmed))) return { path: resolveToRealPath(host, trimmed) };
    const fromRoot = path.resolve(host.processCwd, trimmed);
    if (isSubpath(host, realPlans, resolveToRealPath(host, fromRoot))) return { path: resolveToRealPath(host, fromRoot) };
    const inPlans = path.resolve(plansDir, trimmed);
    if (isSubpath(host, realPlans, resolveToRealPath(host, inPlans))) return { path: resolveToRealPath(host, inPlans) };
  } catch (error) {
    if (!(error instanceof GeminiPathError)) throw error;
    return { error: error.message };
  }
  return { error: `Access denied: plan path (${trimmed}) must be within the designated plans directory (${plansDir}).` };
}
