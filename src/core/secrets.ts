// The secrets policy: per workspace, gitignore patterns (relative to the workspace) whose files
// the agent may not read or change without the person's consent. Matched by the `ignore` package
// (git's own rules, `!` included), with letter case ignored on every platform: a secret is one
// whatever its case, and asking once too often costs a click where missing one costs the secret.
import ignore, { type Ignore } from 'ignore';
import { SECRET_DECISION_WORDS, type SecretMatch } from './types.js';
import { quoted } from './visible.js';

export type { SecretMatch };

/** What a tool does to a path, as the policy sees it. */
export type SecretAccess = 'read' | 'change';

export interface SecretRule {
  readonly pattern: string;
  /** `change`: only changes are held (the `.git` internals); `any`: reads and changes. */
  readonly holds: 'any' | 'change';
  /** Where the pattern came from, in words: `default`, a setting, a flag, a settings file and line. */
  readonly source: string;
}

/** The patterns every workspace has unless the defaults are turned off. */
export const DEFAULT_SECRET_RULES: readonly SecretRule[] = Object.freeze(
  [
    ...['.env*', '*.pem', '*.key', 'id_rsa*', '.npmrc', '.netrc', '**/.aws/credentials', '.ssh/'].map((pattern) => ({ pattern, holds: 'any' as const, source: 'default' })),
    // Below `.git` (and a `.git` file, which points git elsewhere), a change runs code or rewrites
    // history: hooks and config (core.hooksPath, core.fsmonitor, filters, aliases) run on the next
    // git command, info/attributes names filters, and refs, objects and the index are the history.
    // Reading it shows what `git log` does, so only changes are held.
    { pattern: '.git', holds: 'change' as const, source: 'default' },
  ],
);

/** The setting and the flag that add patterns and turn the defaults off: named in reasons. */
export const SECRET_SETTINGS = Object.freeze({
  patterns: 'boundaryInspector.secrets.patterns',
  defaults: 'boundaryInspector.secrets.defaults',
  claudeCodeDeny: 'boundaryInspector.secrets.claudeCodeDeny',
  patternFlag: '--secret',
  noDefaultsFlag: '--no-default-secrets',
  claudeCodeDenyFlag: '--claude-code-deny',
});

/** A host's own rules (Claude Code's deny rules), matched on the real path by their own model. */
export type SecretDenyRules = (path: string, access: SecretAccess) => Omit<SecretMatch, 'path' | 'decision'> | undefined;

export interface SecretPolicy {
  readonly rules: readonly SecretRule[];
  readonly deny?: SecretDenyRules | undefined;
  /** Compiled once: the rules for reading, and all of them for changing. */
  readonly matchers: Readonly<Record<SecretAccess, Ignore>>;
}

export interface SecretOptions {
  /** The defaults (DEFAULT_SECRET_RULES); true unless turned off. */
  readonly defaults?: boolean;
  /** More patterns, after the defaults: a later `!pattern` lets go of a match made before it. */
  readonly patterns?: readonly { readonly pattern: string; readonly source: string }[];
  readonly deny?: SecretDenyRules | undefined;
}

export function secretPolicy(options: SecretOptions = {}): SecretPolicy {
  const rules = [...(options.defaults === false ? [] : DEFAULT_SECRET_RULES), ...(options.patterns ?? []).map(({ pattern, source }) => ({ pattern, holds: 'any' as const, source }))];
  const matcher = (held: readonly SecretRule[]) => ignore({ ignorecase: true }).add(held.map((rule) => rule.pattern));
  return {
    rules,
    ...(options.deny !== undefined ? { deny: options.deny } : {}),
    matchers: { read: matcher(rules.filter((rule) => rule.holds === 'any')), change: matcher(rules) },
  };
}

/** A pattern as given is refused when `ignore` cannot take it (it would throw at the first path). */
export function secretPatternError(pattern: string): string | undefined {
  if (pattern.trim() === '' || pattern.startsWith('#')) return `a secret pattern is empty or a comment: ${quoted(pattern)}`;
  try {
    ignore().add(pattern).ignores('x');
    return undefined;
  } catch (error) {
    return `the secret pattern ${quoted(pattern)} is not a gitignore pattern: ${(error as Error).message}`;
  }
}

/**
 * The pattern that holds `relative` (names below the workspace, a folder's with a trailing `/`)
 * for `access`, or undefined. The last rule to match decides, as in git; `real` is the absolute
 * real path, for the host's deny rules, which come first: no consent lifts them.
 */
export function matchSecret(policy: SecretPolicy, relative: string, access: SecretAccess, real?: string): SecretMatch | undefined {
  if (real !== undefined && policy.deny !== undefined) {
    const denied = policy.deny(real, access);
    if (denied !== undefined) return { decision: 'deny', pattern: denied.pattern, source: denied.source, path: relative };
  }
  if (relative === '' || relative === '/') return undefined;
  const { rule } = policy.matchers[access].test(relative);
  if (rule === undefined || rule.negative) return undefined;
  // The last rule written so: the one the matcher applied.
  const matched = policy.rules.findLast((candidate) => candidate.pattern === rule.pattern);
  return { decision: 'ask', pattern: rule.pattern, source: matched?.source ?? 'default', path: relative };
}

/** What would let the path through without asking, in words, for a reason. */
export function secretAllowance(match: SecretMatch): string {
  if (match.decision === 'deny') {
    return `remove the rule from ${match.source}, or turn off ${SECRET_SETTINGS.claudeCodeDeny} (leave out ${SECRET_SETTINGS.claudeCodeDenyFlag})`;
  }
  const exception = quoted(`!${match.path.replace(/\/$/, '')}`);
  const own = match.source === 'default' ? `turn the defaults off (${SECRET_SETTINGS.defaults}: false, ${SECRET_SETTINGS.noDefaultsFlag})` : `remove it from ${match.source}`;
  return `add ${exception} to ${SECRET_SETTINGS.patterns} (${SECRET_SETTINGS.patternFlag} ${exception}), or ${own}`;
}

/** The reason a matched path gives: what holds it and what would let it through. */
export function secretReason(match: SecretMatch, access: SecretAccess): string {
  const shown = quoted(match.path.replace(/\/$/, ''));
  const what = access === 'read' ? 'reading' : 'changing';
  const decided = SECRET_DECISION_WORDS[match.decision].replace(/^./, (first) => first.toUpperCase());
  if (match.decision === 'deny') {
    return `${decided}: ${what} ${shown} is denied by ${quoted(match.pattern)} (${match.source}). To allow it, ${secretAllowance(match)}.`;
  }
  return (
    `${decided}: ${what} ${shown} needs the person's consent, by the secret pattern ${quoted(match.pattern)} (${match.source}); ` +
    `a client that can ask (MCP elicitation) asks them. To allow it without asking, ${secretAllowance(match)}.`
  );
}

/** The secrets flags `serve` and `trace` take, as given. */
export interface SecretFlags {
  readonly secret?: readonly string[] | undefined;
  readonly 'no-default-secrets'?: boolean | undefined;
  readonly 'claude-code-deny'?: boolean | undefined;
  /** Set by the extension: the patterns given are its setting's, and reasons name the setting. */
  readonly 'secrets-from-settings'?: boolean | undefined;
}

/** Their `parseArgs` options, one definition for every command line. */
export const SECRET_FLAG_OPTIONS = {
  secret: { type: 'string', multiple: true },
  'no-default-secrets': { type: 'boolean' },
  'claude-code-deny': { type: 'boolean' },
  'secrets-from-settings': { type: 'boolean' },
} as const;

export interface SecretChoice {
  readonly defaults: boolean;
  readonly patterns: readonly { readonly pattern: string; readonly source: string }[];
  /** Apply Claude Code's deny rules from each workspace's `.claude` settings files. */
  readonly claudeCodeDeny: boolean;
}

/** What the flags ask for, or what is wrong with a pattern. */
export function secretChoiceFromFlags(flags: SecretFlags): { readonly secrets: SecretChoice } | { readonly error: string } {
  const source = flags['secrets-from-settings'] ? `setting ${SECRET_SETTINGS.patterns}` : `flag ${SECRET_SETTINGS.patternFlag}`;
  const patterns = [];
  for (const pattern of flags.secret ?? []) {
    const error = secretPatternError(pattern);
    if (error !== undefined) return { error: `${SECRET_SETTINGS.patternFlag}: ${error}` };
    patterns.push({ pattern, source });
  }
  return { secrets: { defaults: flags['no-default-secrets'] !== true, patterns, claudeCodeDeny: flags['claude-code-deny'] === true } };
}

/** The extension's `boundaryInspector.secrets.*` settings, as read. */
export interface SecretSettings {
  readonly defaults: boolean;
  readonly patterns: readonly string[];
  readonly claudeCodeDeny: boolean;
}

/**
 * What the settings ask for, read as the server reads the flags the extension hands it (so its
 * reasons name the setting). A pattern the server would refuse is left out: the server says so
 * as it starts.
 */
export function secretChoiceFromSettings(settings: SecretSettings): SecretChoice {
  const chosen = secretChoiceFromFlags({
    secret: settings.patterns.filter((pattern) => secretPatternError(pattern) === undefined),
    'no-default-secrets': !settings.defaults,
    'claude-code-deny': settings.claudeCodeDeny,
    'secrets-from-settings': true,
  });
  return 'secrets' in chosen ? chosen.secrets : { defaults: settings.defaults, patterns: [], claudeCodeDeny: settings.claudeCodeDeny };
}
