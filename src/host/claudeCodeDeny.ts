// Claude Code's own deny rules, applied to this server's tools: the `permissions.deny` Read(...)
// and Edit(...) rules of a workspace's .claude/settings.json and .claude/settings.local.json, read
// once at start-up and matched by the Claude Code decider's rule model (anchors, gitignore
// patterns, a rule's folder reached through a link), so a rule means here what it means there.
import * as os from 'node:os';
import * as path from 'node:path';
import { secretPolicy, withSecrets, type Platform, type PreparedRoot, type SecretChoice, type SecretDenyRules } from '../core/index.js';
import { compileRule, matchingRules, parseRule, type Access, type PathRule, type Rule } from '../deciders/claude-code/rules.js';
import { readSource, stringsOf, permissionLine, type Layer } from '../deciders/claude-code/settings.js';
import { nodeDeciderFileSystem } from './node.js';

const FILES: readonly (readonly [Layer, string])[] = [
  ['local', path.join('.claude', 'settings.local.json')],
  ['project', path.join('.claude', 'settings.json')],
];

/** The workspace's deny rules as a matcher on real paths, or undefined when it has none. */
export function claudeCodeDenyRules(workspace: string, platform: Platform, home: string = os.homedir()): SecretDenyRules | undefined {
  const rules: Record<Access, PathRule[]> = { read: [], edit: [] };
  for (const [layer, file] of FILES) {
    const source = readSource(nodeDeciderFileSystem, layer, path.join(workspace, file), workspace);
    for (const text of stringsOf(source.value?.permissions?.deny)) {
      const parsed = parseRule(text);
      if (parsed?.content === undefined || (parsed.tool !== 'Read' && parsed.tool !== 'Edit')) continue;
      const line = permissionLine(source, 'deny', text);
      const rule: Rule = { text, ...parsed, behavior: 'deny', source, ...(line !== undefined ? { line } : {}) };
      const compiled = compileRule(rule, home, platform, nodeDeciderFileSystem);
      if (compiled) rules[parsed.tool === 'Read' ? 'read' : 'edit'].push(compiled);
    }
  }
  if (rules.read.length === 0 && rules.edit.length === 0) return undefined;
  return (real, access) => {
    const [match] = matchingRules(rules[access === 'read' ? 'read' : 'edit'], real, [workspace], platform);
    if (match === undefined) return undefined;
    const where = path.relative(workspace, match.rule.source.path ?? workspace);
    return { pattern: match.rule.text, source: `${where}${match.rule.line !== undefined ? ` line ${match.rule.line}` : ''}` };
  };
}

/** `root` with the secrets policy `choice` asks for; Claude Code's deny rules are read from its folder when that is on this machine. */
export function withSecretChoice(root: PreparedRoot, choice: SecretChoice, platform: Platform, host: Platform): PreparedRoot {
  if (!root.ok) return root;
  const deny = choice.claudeCodeDeny && platform === host ? claudeCodeDenyRules(root.realPath ?? root.path, platform) : undefined;
  return withSecrets(root, secretPolicy({ ...choice, deny }));
}
