// Claude Code's permission rules: `Tool(content)` in a settings list, a path rule when the tool is
// Read (for every reading tool) or Edit (for every changing one), a rule for the whole tool when it
// has no content. A path rule's content is anchored as Claude Code 2.1.332 anchors it: `//abs` at
// the filesystem's root, `~/x` at the home folder, `/x` at the folder of the settings file's
// project (the user's `/x` at `~/.claude`), `./x` and `x` at each working folder; then it is a
// gitignore pattern below that root (gitignore.ts).
import type { Platform } from '../../core/index.js';
import { nodePath, nodeRealpath } from '../shared/node.js';
import type { DeciderFileSystem } from '../types.js';
import { compilePattern, matchPatterns, skippedPattern, type CompiledPattern } from './gitignore.js';
import type { Behavior, SettingsSource } from './settings.js';

export type Access = 'read' | 'edit';

/** The tool whose rules name paths for an access: Read's for reading, Edit's for changing. */
export const RULE_TOOL: Readonly<Record<Access, string>> = { read: 'Read', edit: 'Edit' };

export interface Rule {
  /** As written in its list. */
  readonly text: string;
  readonly tool: string;
  /** The part in parentheses; absent for a rule on the whole tool. */
  readonly content?: string;
  readonly behavior: Behavior;
  readonly source: SettingsSource;
  readonly line?: number;
}

/** `Tool` or `Tool(content)`, with `\(` and `\)` taken as parentheses; undefined when it is neither. */
export function parseRule(text: string): { tool: string; content?: string } | undefined {
  const trimmed = text.trim();
  const open = trimmed.indexOf('(');
  if (open === -1) return /^[A-Za-z0-9_:*-]+$/.test(trimmed) ? { tool: trimmed } : undefined;
  if (!trimmed.endsWith(')') || open === 0) return undefined;
  const content = trimmed.slice(open + 1, -1).replace(/\\([()])/g, '$1');
  const tool = trimmed.slice(0, open);
  return content === '' ? { tool } : { tool, content };
}

/** A rule's content split into the root it is anchored at (null: each working folder) and its pattern. */
export interface Anchored {
  readonly root: string | null;
  readonly pattern: string;
  /** The anchor as people write it: `//`, `~/`, `/`, `./` or none. */
  readonly anchor: '//' | '~/' | '/' | './' | '';
}

export function anchorOf(content: string, source: SettingsSource, home: string, platform: Platform): Anchored {
  let text = content;
  if (platform === 'win32' && (text.startsWith('~\\') || (text.startsWith('\\') && text[1] !== '!' && text[1] !== '#'))) text = text.replaceAll('\\', '/');
  if (text.startsWith('//')) {
    const rest = text.slice(1);
    const drive = platform === 'win32' ? /^\/([a-z])(\/|$)/i.exec(rest) : null;
    if (drive) return { root: `${drive[1]!.toUpperCase()}:\\`, pattern: rest.slice(2) || '/', anchor: '//' };
    return { root: platform === 'win32' ? '\\' : '/', pattern: rest, anchor: '//' };
  }
  if (platform === 'win32' && /^[A-Za-z]:[/\\]/.test(text)) {
    return { root: `${text[0]!.toUpperCase()}:\\`, pattern: `/${text.slice(3).replaceAll('\\', '/')}`, anchor: '//' };
  }
  if (text.startsWith('~/')) return { root: home.normalize('NFC'), pattern: text.slice(1), anchor: '~/' };
  if (text.startsWith('/')) return { root: source.ruleRoot, pattern: text, anchor: '/' };
  if (text.startsWith('./')) return { root: null, pattern: text.slice(2), anchor: './' };
  return { root: null, pattern: text, anchor: '' };
}

/**
 * The pattern as Claude Code hands it to the gitignore matcher: `x/**` becomes the folder `x`
 * (gitignore then takes everything below it), and an allow rule's one-name `x/**` is anchored
 * as `/x`, where a deny or ask rule's stays a name matched at any depth.
 */
export function matcherPattern(pattern: string, allow: boolean): string {
  if (!pattern.endsWith('/**')) return pattern;
  const folder = pattern.slice(0, -3);
  if (!/[^/]/.test(folder)) return '/**';
  return folder.includes('/') || !allow || /^[!#]/.test(folder) ? folder : `/${folder}`;
}

const GLOB = /(?:^|[^\\])(?:\\\\)*[*?[]/;

/** A compiled path rule, and the roots it is tried below. */
export interface PathRule {
  readonly rule: Rule;
  readonly anchored: Anchored;
  readonly compiled: CompiledPattern;
  /**
   * For a deny or ask rule whose literal folder is reached through a link: the same pattern on
   * that folder's real path, anchored at the filesystem's root.
   */
  readonly twin?: CompiledPattern;
}

/** Compiles a path rule, or undefined when Claude Code drops it (an allow pattern the matcher would skip). */
export function compileRule(rule: Rule, home: string, platform: Platform, fs: DeciderFileSystem): PathRule | undefined {
  if (rule.content === undefined) return undefined;
  const anchored = anchorOf(rule.content, rule.source, home, platform);
  const allow = rule.behavior === 'allow';
  let pattern = anchored.pattern.replace(/\/{2,}/g, '/');
  if (skippedPattern(matcherPattern(pattern, allow))) {
    // A deny or ask the matcher would skip matches the path it spells, or all below its root.
    if (allow) return undefined;
    pattern = pattern.trim() === '' ? '**' : pattern.replace(/^#/, '\\#').replace(/\\$/, '\\\\');
  }
  const compiled = compilePattern(matcherPattern(pattern, allow));
  if (!compiled) return undefined;
  const twin = !allow && anchored.root !== null ? twinOf(anchored.root, pattern, platform, fs) : undefined;
  return { rule, anchored: { ...anchored, pattern }, compiled, ...(twin ? { twin } : {}) };
}

function twinOf(root: string, pattern: string, platform: Platform, fs: DeciderFileSystem): CompiledPattern | undefined {
  if (platform === 'win32' || !pattern.startsWith('/')) return undefined;
  const names = pattern.slice(1).split('/');
  let literal = 0;
  while (literal < names.length && names[literal] !== '' && !GLOB.test(names[literal]!)) literal++;
  if (literal === 0) return undefined;
  const folder = nodePath(platform).join(root, ...names.slice(0, literal).map((name) => name.replace(/\\(.)/g, '$1')));
  const resolved = nodeRealpath(fs, folder, platform);
  if (!resolved.ok || resolved.path === folder) return undefined;
  const real = resolved.path;
  const rest = names.slice(literal).join('/');
  const twin = `${real.replace(/[*?[\]\\]/g, '\\$&')}${rest ? `/${rest}` : ''}`.replace(/\/{2,}/g, '/');
  return compilePattern(matcherPattern(twin, false)) ?? undefined;
}

/** `path` below `root` with `/` between names, or undefined when it is not below it. */
function below(root: string, path: string, platform: Platform): string | undefined {
  const relative = nodePath(platform).relative(root, root, path);
  if (relative === '' || relative === '..' || relative.startsWith('../') || relative.startsWith('..\\') || nodePath(platform).isAbsolute(relative)) return undefined;
  return platform === 'win32' ? relative.replaceAll('\\', '/') : relative;
}

/** A rule that matched, the path it matched, and the root it was matched below. */
export interface RuleMatch {
  readonly rule: Rule;
  readonly path: string;
  readonly root: string;
  /** The compiled pattern that matched: the rule's own, or its twin on a real path. */
  readonly compiled: CompiledPattern;
  readonly twin: boolean;
}

/**
 * Every rule of `rules` (one behavior, one access) that matches `path`, tried below each root:
 * the rule's own, or for an unanchored rule each of `relativeRoots`. Rules are grouped as Claude
 * Code groups them, by root and (for deny and ask) by settings file, so a `!` pattern only lets
 * go of a match in its own group.
 */
export function matchingRules(rules: readonly PathRule[], path: string, relativeRoots: readonly string[], platform: Platform): RuleMatch[] {
  const groups = new Map<string, { root: string; members: { compiled: CompiledPattern; rule: Rule; twin: boolean }[] }>();
  const add = (root: string, compiled: CompiledPattern, rule: Rule, twin = false) => {
    const key = `${root}\0${rule.behavior === 'allow' ? '' : (rule.source.path ?? rule.source.layer)}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { root, members: [] }));
    group.members.push({ compiled, rule, twin });
  };
  for (const pathRule of rules) {
    for (const root of pathRule.anchored.root !== null ? [pathRule.anchored.root] : relativeRoots) add(root, pathRule.compiled, pathRule.rule);
    if (pathRule.twin) add(platform === 'win32' ? '\\' : '/', pathRule.twin, pathRule.rule, true);
  }
  const found: RuleMatch[] = [];
  for (const { root, members } of groups.values()) {
    const relative = below(root, path, platform);
    if (relative === undefined) continue;
    const matched = matchPatterns(members.map((member) => member.compiled), relative);
    const member = matched && members.find((candidate) => candidate.compiled === matched);
    if (member && !found.some((other) => other.rule === member.rule)) found.push({ rule: member.rule, path, root, compiled: member.compiled, twin: member.twin });
  }
  return found;
}
