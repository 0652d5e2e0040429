// Claude Code, headless (`claude -p`), against the Anthropic stand-in. Its settings files are
// written where it reads them; an "ask" arrives as a refusal naming the permission not granted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DeciderCase, ToolName } from '../cases.js';
import { baseEnv, inputOf, runProgram, whereWritten, writeSettings, type CaseFixture } from '../fixture.js';
import { executableOf } from '../programs.js';
import type { Observation } from '../recording.js';
import { anthropic } from '../standins/anthropic.js';
import type { ScriptedCall } from '../standins/service.js';
import { startStandIn } from '../standins/service.js';
import { withoutAnswer } from './noAnswer.js';

/** An edit needs a read of the file first: the edit is then the answer recorded. */
function scriptOf(tool: ToolName, input: string, fx: CaseFixture): ScriptedCall[] {
  if (tool === 'Read') return [{ name: 'Read', args: { file_path: input } }];
  if (tool === 'Write') return [{ name: 'Write', args: { file_path: input, content: fx.marker } }];
  if (tool === 'Edit') {
    let old = '';
    try {
      old = fs.readFileSync(input, 'utf8');
    } catch {
      // the edit will say
    }
    return [
      { name: 'Read', args: { file_path: input } },
      { name: 'Edit', args: { file_path: input, old_string: old, new_string: fx.marker } },
    ];
  }
  throw new Error(`Claude Code has no tool ${tool}`);
}

const ASK = /requested permissions to /;
// A tool denied whole is taken out of the session: the call finds no such tool.
const DENY = /denied by your permission settings|has been denied|deny rule|while in plan mode|^Refusing to (?:write|read)|No such tool available/i;
const NOT_DECIDED = /has not been read yet|must be read first/i;
const FAILED = /does not exist|no such file|EISDIR|is a directory/i;

export function classifyClaude(output: string, isError: boolean): Pick<Observation, 'decision' | 'failed'> {
  if (ASK.test(output)) return { decision: 'ask' };
  if (DENY.test(output)) return { decision: 'deny' };
  if (NOT_DECIDED.test(output)) return { decision: 'unobserved' };
  if (isError || FAILED.test(output)) return { decision: 'allow', failed: true };
  return { decision: 'allow' };
}

/**
 * Writes a case's settings files where Claude Code reads them (and the trust record), in the
 * case's folder; the `--settings` file, when there is one, is returned.
 */
export function writeClaudeSettings(c: DeciderCase, fx: CaseFixture): { settingsFile?: string } {
  const settings = c.claude ?? {};
  if (settings.user) writeSettings(path.join(fx.home, '.claude', 'settings.json'), settings.user, fx);
  if (settings.project) writeSettings(path.join(fx.cwd, '.claude', 'settings.json'), settings.project, fx);
  if (settings.local) writeSettings(path.join(fx.cwd, '.claude', 'settings.local.json'), settings.local, fx);
  if (settings.trusted) writeSettings(path.join(fx.home, '.claude.json'), { projects: { [fx.cwd]: { hasTrustDialogAccepted: true } } }, fx);
  if (!settings.flag) return {};
  const file = path.join(fx.base, 'flag-settings.json');
  writeSettings(file, settings.flag, fx);
  return { settingsFile: file };
}

export async function runClaudeCode(c: DeciderCase, tool: ToolName, fx: CaseFixture, timeoutMs: number): Promise<Observation> {
  const settings = c.claude ?? {};
  const { settingsFile } = writeClaudeSettings(c, fx);
  const args = ['-p', 'go', '--output-format', 'stream-json', '--verbose'];
  if (settingsFile) args.push('--settings', settingsFile);
  // The flag would override a defaultMode set in a settings file.
  const setsMode = [settings.user, settings.project, settings.local, settings.flag].some((layer) => layer !== undefined && 'defaultMode' in ((layer as { permissions?: object }).permissions ?? {}));
  if (!setsMode) args.push('--permission-mode', 'default');
  for (const dir of c.addDirs ?? []) args.push('--add-dir', fx.expand(dir));

  const input = inputOf(c, fx);
  const script = scriptOf(tool, input, fx);
  const standIn = await startStandIn(anthropic, script);
  try {
    const ran = await runProgram(executableOf('claude-code'), args, {
      cwd: fx.cwd,
      env: { ...baseEnv(fx), ANTHROPIC_BASE_URL: standIn.url, ANTHROPIC_API_KEY: 'sk-stub', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' },
      timeoutMs,
    });
    const answer = standIn.answers[script.length - 1];
    const result = ran.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { type?: string; permission_denials?: unknown[] })
      .find((event) => event.type === 'result');
    const detail = { exitCode: ran.code, ...(result?.permission_denials?.length ? { permissionDenials: result.permission_denials.length } : {}) };
    const written = tool === 'Read' ? {} : { written: whereWritten(c, fx) };
    if (answer === undefined) return { ...written, ...withoutAnswer(ran, standIn, fx, timeoutMs) };
    return { ...classifyClaude(answer.output, answer.isError), message: fx.unexpand(answer.output), ...written, detail };
  } finally {
    await standIn.close();
  }
}
