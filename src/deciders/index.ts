// Every decider, by name, and how a tool name (the program's own, or one of this server's) becomes
// the program's own tool. A decider's module adds itself to DECIDERS below.
import { boundaryInspector } from './boundary-inspector/index.js';
import { claudeCode } from './claude-code/index.js';
import { codex } from './codex/index.js';
import { geminiCli } from './gemini-cli/index.js';
import { naive } from './naive/index.js';
import { serverFilesystem } from './server-filesystem/index.js';
import type { Decider, DeciderName } from './types.js';

export * from './types.js';
export { toolFor } from './tools.js';

export const DECIDERS: Partial<Record<DeciderName, Decider>> = {
  'boundary-inspector': boundaryInspector,
  'server-filesystem': serverFilesystem,
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  naive,
};
