// Every decider, by name, and how a tool name (the program's own, or one of this server's) becomes
// the program's own tool. A decider's module adds itself to DECIDERS below.
import { boundaryInspector } from './boundary-inspector/index.js';
export { ruleOf } from './boundary-inspector/index.js';
import { claudeCode } from './claude-code/index.js';
import { codex } from './codex/index.js';
import { geminiCli } from './gemini-cli/index.js';
import { naive } from './naive/index.js';
import { serverFilesystem } from './server-filesystem/index.js';
import { vscodeAgent } from './vscode-agent/index.js';
import { accessIn, toolFor } from './tools.js';
import { DECIDER_NAMES, type Access, type Decider, type DeciderFileSystem, type DeciderName } from './types.js';

export * from './types.js';
export { decidingStage, sourceText } from './reading.js';
export { toolFor };
export { contextFromLayers, isApplicationSetting, DEFAULT_AUTO_APPROVE, VSCODE_SETTINGS, type SettingsLayer } from './vscode-agent/settings.js';

export const DECIDERS: Partial<Record<DeciderName, Decider>> = {
  'boundary-inspector': boundaryInspector,
  'server-filesystem': serverFilesystem,
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'vscode-agent': vscodeAgent,
  naive,
};

/** The registered deciders, in the order people meet them. */
export function registeredDeciders(): Decider[] {
  return DECIDER_NAMES.flatMap((name) => {
    const decider = DECIDERS[name];
    return decider ? [decider] : [];
  });
}

/** The registered decider of that name, or undefined. */
export function deciderNamed(name: string): Decider | undefined {
  return (DECIDER_NAMES as readonly string[]).includes(name) ? DECIDERS[name as DeciderName] : undefined;
}

/** Whether a tool name, any program's or this server's, reads or changes; undefined for none. */
export function accessOf(tool: string): Access | undefined {
  return accessIn(registeredDeciders(), tool);
}

/**
 * The decider's own tool for a tool name: its own, one of this server's, or another program's
 * taken by what it does (Claude Code's `Edit` is a change to Codex too); undefined for a name no
 * program knows.
 */
export function ownTool(decider: Decider, tool: string): string | undefined {
  const own = toolFor(decider, tool);
  if (own) return own.tool;
  const access = accessOf(tool);
  return access === undefined ? undefined : decider.tools[access][0]!;
}

/** A disk with nothing on it, for a simulated platform: no lookup of this machine answers for another's. */
export const NO_DISK: DeciderFileSystem = {
  lstat: () => ({ kind: 'missing' }),
  readlink: () => ({ ok: false, errno: 'ENOENT' }),
  readText: () => undefined,
};
