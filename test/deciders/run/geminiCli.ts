// Gemini CLI, headless (`gemini -p`), against the Gemini API stand-in. Settings go where it reads
// them (the user's, the workspace's, the system's through GEMINI_CLI_SYSTEM_SETTINGS_PATH) and the
// working folder is trusted unless the case says otherwise. In the default approval mode a
// headless run does not offer the tools that would ask: the call comes back "not found"; a call a
// policy would confirm fails, since nobody can confirm it headless.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DeciderCase, ToolName } from '../cases.js';
import { baseEnv, inputOf, runProgram, whereWritten, writeSettings, type CaseFixture } from '../fixture.js';
import { executableOf } from '../programs.js';
import type { Observation } from '../recording.js';
import { gemini } from '../standins/gemini.js';
import type { ScriptedCall } from '../standins/service.js';
import { startStandIn } from '../standins/service.js';
import { withoutAnswer } from './noAnswer.js';

const MODEL = 'gemini-2.5-flash';
/** The stand-in takes any key; this selects the key as the way to sign in. */
const AUTH = { security: { auth: { selectedType: 'gemini-api-key' } } };

function callOf(tool: ToolName, input: string, fx: CaseFixture): ScriptedCall {
  if (tool === 'read_file') return { name: 'read_file', args: { file_path: input } };
  if (tool === 'write_file') return { name: 'write_file', args: { file_path: input, content: fx.marker } };
  throw new Error(`Gemini CLI has no tool ${tool}`);
}

export function classifyGemini(output: string, isError: boolean): Pick<Observation, 'decision' | 'failed'> {
  // The path refused by Gemini CLI's own checks, before the tool touches the disk.
  if (/Path not in workspace|ignored by configured ignore patterns|^(Invalid path|Failed to resolve path): /.test(output)) return { decision: 'deny' };
  if (/Tool "[^"]+" not found|requires user confirmation/.test(output)) return { decision: 'ask' };
  if (/denied|not allowed|policy/i.test(output) && isError) return { decision: 'deny' };
  if (isError) return { decision: 'allow', failed: true };
  return { decision: 'allow' };
}

/** Settings objects merged key by key (the stand-in's auth into the case's user settings). */
function merge(a: object, b: object): object {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    out[key] = mine && typeof mine === 'object' && value && typeof value === 'object' && !Array.isArray(value) ? merge(mine, value) : value;
  }
  return out;
}

/** How Gemini CLI is started for a case: its settings files written, its environment and flags. */
export interface GeminiLaunch {
  readonly env: Record<string, string>;
  readonly args: readonly string[];
}

/** Writes the case's settings files where Gemini CLI reads them and gives the environment and flags to start it with. */
export function prepareGeminiCli(c: DeciderCase, tool: ToolName, fx: CaseFixture): GeminiLaunch {
  const settings = c.gemini ?? {};
  writeSettings(path.join(fx.home, '.gemini', 'settings.json'), merge(AUTH, settings.user ?? {}), fx);
  writeSettings(path.join(fx.home, '.gemini', 'trustedFolders.json'), settings.trusted ?? { [fx.cwd]: 'TRUST_FOLDER' }, fx);
  if (settings.workspace) writeSettings(path.join(fx.cwd, '.gemini', 'settings.json'), settings.workspace, fx);
  const env: Record<string, string> = { ...baseEnv(fx), GEMINI_API_KEY: 'stub', GEMINI_CLI_NO_RELAUNCH: 'true' };
  for (const [name, value] of Object.entries(settings.env ?? {})) env[name] = fx.expand(value);
  if (settings.system) {
    const file = path.join(fx.base, settings.systemInOpenFolder ? 'open' : 'etc', 'settings.json');
    writeSettings(file, settings.system, fx);
    if (settings.systemInOpenFolder) fs.chmodSync(path.dirname(file), 0o777);
    env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = file;
  } else env.GEMINI_CLI_SYSTEM_SETTINGS_PATH = path.join(fx.base, 'no-system-settings.json');
  if (settings.systemDefaults) writeSettings(path.join(path.dirname(env.GEMINI_CLI_SYSTEM_SETTINGS_PATH), 'system-defaults.json'), settings.systemDefaults, fx);
  // The case's own files last: they may replace the ones written above.
  for (const [file, text] of Object.entries(settings.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(fx.base, file)), { recursive: true });
    fs.writeFileSync(path.join(fx.base, file), fx.expand(text));
  }

  const args = ['-p', 'go', '-m', MODEL, '--output-format', 'json'];
  const approvalMode = settings.approvalMode === undefined ? (tool === 'write_file' ? 'auto_edit' : null) : settings.approvalMode;
  if (approvalMode !== null) args.push('--approval-mode', approvalMode);
  for (const dir of c.addDirs ?? []) args.push('--include-directories', fx.expand(dir));
  args.push(...(settings.args ?? []).map(fx.expand));
  return { env, args };
}

export async function runGeminiCli(c: DeciderCase, tool: ToolName, fx: CaseFixture, timeoutMs: number): Promise<Observation> {
  const { env, args } = prepareGeminiCli(c, tool, fx);
  const input = inputOf(c, fx);
  const script = [callOf(tool, input, fx)];
  const standIn = await startStandIn(gemini, script);
  try {
    const ran = await runProgram(executableOf('gemini-cli'), args, { cwd: fx.cwd, env: { ...env, GOOGLE_GEMINI_BASE_URL: standIn.url }, timeoutMs });
    const answer = standIn.answers[0];
    const written = tool === 'read_file' ? {} : { written: whereWritten(c, fx) };
    const detail = { exitCode: ran.code };
    if (answer === undefined) return { ...written, ...withoutAnswer(ran, standIn, fx, timeoutMs) };
    return { ...classifyGemini(answer.output, answer.isError), message: fx.unexpand(answer.output), ...written, detail };
  } finally {
    await standIn.close();
  }
}
