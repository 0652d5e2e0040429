// One case's folder on disk, and running a program in it: a fresh {base} holding BASE_TREE and the
// case's tree, placeholders, the marker a change writes, and where the marker landed afterwards.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { plant } from '../server/table.js';
import type { DeciderCase } from './cases.js';
import { BASE_TREE } from './cases.js';
import type { Program } from './programs.js';

/**
 * Where the cases' folders are made by default: outside /tmp, since Codex's workspace-write leaves
 * /tmp writable (a tree there would be writable whole) and will not make its sandbox helper under
 * it; outside any git repository, whose ignore files Gemini CLI applies; and under no folder
 * others can write to, where Gemini CLI skips a system settings file.
 */
export const DEFAULT_SCRATCH = path.join(os.homedir(), '.cache', 'boundary-inspector-deciders');

export interface CaseFixture {
  readonly base: string;
  readonly home: string;
  readonly cwd: string;
  /** Replaces {base}, {home} and {case}. */
  expand(text: string): string;
  /**
   * Puts the placeholders back into text the program wrote (its messages), with {uuid} for a
   * session's id, and without terminal colours.
   */
  unexpand(text: string): string;
  /** The text a change writes, to find where it landed. */
  readonly marker: string;
}

export function makeCaseFixture(scratch: string, c: DeciderCase, program: Program): CaseFixture {
  fs.mkdirSync(scratch, { recursive: true });
  const base = fs.realpathSync(fs.mkdtempSync(path.join(scratch, `${program}-`)));
  const home = path.join(base, 'home');
  const expand = (text: string): string => text.replaceAll('{base}', base).replaceAll('{home}', home).replaceAll('{case}', `bi-decider-${c.name}`);
  plant(base, { ...BASE_TREE, ...(c.tree ?? {}) }, expand);
  fs.mkdirSync(home, { recursive: true });
  return {
    base,
    home,
    cwd: path.join(base, c.cwd ?? 'ws'),
    expand,
    unexpand: (text) =>
      text
        .replaceAll(home, '{home}')
        .replaceAll(base, '{base}')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{uuid}')
        .replace(/\u001b\[[0-9;]*m/g, ''),
    marker: `written by ${program} for ${c.name}\n`,
  };
}

/** Writes a settings file (JSON, placeholders replaced), making its folder. */
export function writeSettings(file: string, value: object, fx: CaseFixture): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, fx.expand(JSON.stringify(value, null, 2)));
}

/** The input as the program is given it. */
export function inputOf(c: DeciderCase, fx: CaseFixture): string {
  return fx.expand(c.input);
}

/**
 * Where the marker landed: paths relative to {base} (absolute outside it), found by walking
 * {base}, and the input itself when it names a place outside {base} (a path under /tmp), which is
 * then removed.
 */
export function whereWritten(c: DeciderCase, fx: CaseFixture): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && fs.statSync(full).size === Buffer.byteLength(fx.marker) && fs.readFileSync(full, 'utf8') === fx.marker) found.push(path.relative(fx.base, full));
    }
  };
  walk(fx.base);
  const input = inputOf(c, fx);
  if (path.isAbsolute(input) && !input.startsWith(`${fx.base}/`)) {
    try {
      if (fs.readFileSync(input, 'utf8') === fx.marker) found.push(input);
      fs.rmSync(input, { force: true });
    } catch {
      // nothing there
    }
  }
  return found.sort();
}

export function removeFixture(fx: CaseFixture): void {
  fs.rmSync(fx.base, { recursive: true, force: true });
}

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Runs a program to its end in its own process group, which is ended whole if it outlives
 * `timeoutMs` (an agent leaves helpers behind otherwise). Only the given environment is passed.
 */
export function runProgram(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** The environment every run starts from: a PATH and nothing of this machine's agents' settings. */
export function baseEnv(fx: CaseFixture): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: fx.home, LANG: 'C.UTF-8', TERM: 'dumb' };
}
