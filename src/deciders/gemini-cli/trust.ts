// Folder trust (core utils/trust.js, cli config/trustedFolders.ts): the environment first, then
// the rules of trustedFolders.json, the longest rule whose folder holds the working folder
// deciding, each side by its real path.
import { isJsonObject, lineOf, readJsonSettings } from '../jsonSettings.js';
import type { RuleSource } from '../types.js';
import { exists, isSubpath, normalizePath, realpathOf, type GeminiHost } from './paths.js';

const TRUST_LEVELS = ['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST'] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];

export interface TrustFile {
  readonly path: string;
  readonly found: boolean;
  readonly text?: string;
  /** Why Gemini CLI cannot use it: it stops at start. */
  readonly error?: string;
  /** Its rules in file order, keys normalised as Gemini CLI keys them. */
  readonly rules: readonly { readonly key: string; readonly written: string; readonly level: TrustLevel }[];
}

export interface TrustOutcome {
  /** checkPathTrust's answer: undefined when no rule speaks of the folder. */
  readonly trusted: boolean | undefined;
  /** What decided: a variable, the setting turning trust off, or a rule of the file. */
  readonly source: RuleSource;
  readonly rule?: { readonly written: string; readonly level: TrustLevel };
}

/** ~/.gemini/trustedFolders.json, or GEMINI_CLI_TRUSTED_FOLDERS_PATH. */
export function readTrustFile(host: GeminiHost, runtimeDir: string, env: Readonly<Record<string, string | undefined>>): TrustFile {
  const path = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || host.path.join(runtimeDir, 'trustedFolders.json');
  const file = readJsonSettings(host.fs, path);
  const text = file.text === undefined ? {} : { text: file.text };
  if (!file.found) return { path, found: false, rules: [] };
  if (file.error !== undefined) return { path, found: true, ...text, error: file.error, rules: [] };
  if (!isJsonObject(file.value)) return { path, found: true, ...text, error: 'Trusted folders file is not a valid JSON object.', rules: [] };
  const rules: { key: string; written: string; level: TrustLevel }[] = [];
  for (const [written, level] of Object.entries(file.value)) {
    if (!(TRUST_LEVELS as readonly unknown[]).includes(level)) {
      return { path, found: true, ...text, error: `Invalid trust level "${String(level)}" for path "${written}". Possible values are: ${TRUST_LEVELS.join(', ')}.`, rules: [] };
    }
    const key = normalizePath(host, written);
    const same = rules.findIndex((rule) => rule.key === key);
    // One key per normalised path: the later level wins, the first place stays (an object's key).
    if (same >= 0) rules[same] = { key, written, level: level as TrustLevel };
    else rules.push({ key, written, level: level as TrustLevel });
  }
  return { path, found: true, ...text, rules };
}

/** checkPathTrust for the working folder. `skipTrust` is `--skip-trust`, which sets GEMINI_CLI_TRUST_WORKSPACE. */
export function checkPathTrust(
  host: GeminiHost,
  options: { readonly enabled: boolean; readonly enabledSource: RuleSource; readonly env: Readonly<Record<string, string | undefined>>; readonly file: TrustFile; readonly skipTrust: boolean },
): TrustOutcome {
  const { env, file } = options;
  if (env.GEMINI_RESTRICTED_MODE === 'true') return { trusted: false, source: { text: 'GEMINI_RESTRICTED_MODE=true' } };
  if (options.skipTrust) return { trusted: true, source: { text: '--skip-trust', flag: '--skip-trust' } };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return { trusted: false, source: { text: 'GEMINI_CLI_TRUST_WORKSPACE=false' } };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return { trusted: true, source: { text: 'GEMINI_CLI_TRUST_WORKSPACE=true' } };
  if (!options.enabled) return { trusted: true, source: options.enabledSource };
  const realOf = (location: string) => (exists(host, location) ? (realpathOf(host, location) ?? location) : location);
  const location = normalizePath(host, realOf(host.processCwd));
  let best: { written: string; key: string; level: TrustLevel } | undefined;
  for (const rule of file.rules) {
    const folder = rule.level === 'TRUST_PARENT' ? host.path.dirname(rule.key) : rule.key;
    if (!isSubpath(host, normalizePath(host, realOf(folder)), location)) continue;
    if (best === undefined || rule.key.length > best.key.length) best = rule;
  }
  if (best === undefined) return { trusted: undefined, source: { text: `no rule of ${file.path} holds the working folder`, file: file.path } };
  const source = { text: `"${best.written}": "${best.level}"`, file: file.path, ...(file.text !== undefined ? { line: lineOf(file.text, [best.written]) } : {}) };
  return { trusted: best.level !== 'DO_NOT_TRUST', source, rule: { written: best.written, level: best.level } };
}
