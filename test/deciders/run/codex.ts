// Codex, headless (`codex exec`), against the Responses stand-in. config.toml holds the case's
// lines, the stand-in as the model provider and `approval_policy = "never"` (no one to ask), so
// what would ask is refused; the disk shows whether a change landed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DeciderCase, ToolName } from '../cases.js';
import { baseEnv, inputOf, runProgram, whereWritten, type CaseFixture } from '../fixture.js';
import { executableOf } from '../programs.js';
import type { Observation } from '../recording.js';
import { FREEFORM_INPUT, openai } from '../standins/openai.js';
import type { ScriptedCall } from '../standins/service.js';
import { startStandIn } from '../standins/service.js';
import { withoutAnswer } from './noAnswer.js';

/** A model name Codex knows: it offers apply_patch only to those. */
const MODEL = 'gpt-5.5';

const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

function callOf(tool: ToolName, input: string, fx: CaseFixture): ScriptedCall {
  if (tool === 'apply_patch') return { name: 'apply_patch', args: { [FREEFORM_INPUT]: `*** Begin Patch\n*** Add File: ${input}\n+${fx.marker.trimEnd()}\n*** End Patch\n` } };
  if (tool === 'shell-write') return { name: 'exec_command', args: { cmd: `printf '%s' ${quote(fx.marker)} > ${quote(input)}` } };
  if (tool === 'shell-read') return { name: 'exec_command', args: { cmd: `cat ${quote(input)}` } };
  throw new Error(`Codex has no tool ${tool}`);
}

/** The answer without what changes from run to run (a chunk's id, times, token counts). */
const stable = (output: string): string => output.replace(/^(?:Chunk ID|Wall time|Original token count):.*\n/gm, '');

const SANDBOX_REFUSED = /Read-only file system|Permission denied|Operation not permitted/;

export function classifyCodex(tool: ToolName, output: string): Pick<Observation, 'decision' | 'failed'> {
  if (tool === 'apply_patch') {
    if (/^patch rejected/m.test(output)) return { decision: 'deny' };
    if (/Success\. Updated the following files/.test(output)) return { decision: 'allow' };
    // The patch passed Codex's own check, and its sandboxed write (or the folders it makes first) was refused.
    if (/Failed to write file|Failed to create parent directories/.test(output)) return { decision: 'deny' };
    return SANDBOX_REFUSED.test(output) ? { decision: 'deny' } : { decision: 'allow', failed: true };
  }
  const exit = /Process exited with code (\d+)/.exec(output);
  if (exit?.[1] === '0') return { decision: 'allow' };
  if (SANDBOX_REFUSED.test(output)) return { decision: 'deny' };
  if (/rejected/.test(output)) return { decision: 'deny' };
  return exit ? { decision: 'allow', failed: true } : { decision: 'unobserved' };
}

function configOf(c: DeciderCase, fx: CaseFixture, url: string): string {
  const lines = fx.expand(c.codex?.config ?? '');
  const head = [`model_provider = "stub"`, `model = "${MODEL}"`];
  if (!/^approval_policy\s*=/m.test(lines)) head.push('approval_policy = "never"');
  // Top-level keys first: a table opened by the case's lines would take them in.
  return `${head.join('\n')}\n${lines}\n\n[model_providers.stub]\nname = "stub"\nbase_url = "${url}/v1"\nwire_api = "responses"\nenv_key = "STUB_KEY"\n`;
}

/** What a case gives Codex besides its files: the environment it adds and its command-line options. */
export interface CodexRun {
  readonly codexHome: string;
  readonly env: Readonly<Record<string, string>>;
  readonly addDirs: readonly string[];
  readonly flags: Readonly<Record<string, string>>;
}

/**
 * Writes the case's configuration where Codex reads it ($CODEX_HOME/config.toml with the stand-in
 * at `url`, profile files, the project's .codex/config.toml), as a run and a model of it both see it.
 */
export function layCodexSettings(c: DeciderCase, fx: CaseFixture, url: string): CodexRun {
  const codexHome = path.join(fx.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(path.join(codexHome, 'config.toml'), configOf(c, fx, url));
  for (const [name, lines] of Object.entries(c.codex?.profiles ?? {})) fs.writeFileSync(path.join(codexHome, `${name}.config.toml`), `${fx.expand(lines)}\n`);
  if (c.codex?.project !== undefined) {
    fs.mkdirSync(path.join(fx.cwd, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(fx.cwd, '.codex', 'config.toml'), `${fx.expand(c.codex.project)}\n`);
  }
  const flags: Record<string, string> = {};
  if (c.codex?.profile !== undefined) flags.profile = c.codex.profile;
  if (c.codex?.sandbox !== undefined) flags.sandbox = c.codex.sandbox;
  const env: Record<string, string> = { CODEX_HOME: codexHome };
  if (c.codex?.tmpdir !== undefined) env.TMPDIR = path.join(fx.base, c.codex.tmpdir);
  return { codexHome, env, addDirs: (c.addDirs ?? []).map(fx.expand), flags };
}

export async function runCodex(c: DeciderCase, tool: ToolName, fx: CaseFixture, timeoutMs: number): Promise<Observation> {
  const input = inputOf(c, fx);
  const script = [callOf(tool, input, fx)];
  const standIn = await startStandIn(openai, script);
  try {
    const run = layCodexSettings(c, fx, standIn.url);
    const args = ['exec', '--json', '--skip-git-repo-check'];
    for (const dir of run.addDirs) args.push('--add-dir', dir);
    for (const [name, value] of Object.entries(run.flags)) args.push(`--${name}`, value);
    args.push('go');
    const env: Record<string, string> = { ...baseEnv(fx), ...run.env, STUB_KEY: 'stub' };
    const ran = await runProgram(executableOf('codex'), args, { cwd: fx.cwd, env, timeoutMs });
    const answer = standIn.answers[0];
    const written = tool === 'shell-read' ? {} : { written: whereWritten(c, fx) };
    const detail = { exitCode: ran.code, ...(standIn.offered && !standIn.offered.includes(script[0]!.name) ? { notOffered: script[0]!.name } : {}) };
    if (answer === undefined) return { ...written, ...withoutAnswer(ran, standIn, fx, timeoutMs) };
    return { ...classifyCodex(tool, answer.output), message: fx.unexpand(stable(answer.output)), ...written, detail };
  } finally {
    await standIn.close();
  }
}
