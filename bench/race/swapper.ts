// The swap helper: swap.c, compiled with the system compiler on first use and whenever the source
// is newer than the binary, then run beside each race to exchange two names as fast as it can.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findOnPath } from '../../src/host/node.js';

/** Ignored by git; the binaries are cached here between runs. */
export const buildDirectory = path.join(__dirname, 'build');

export type SwapHelper = { readonly ok: true; readonly binary: string } | { readonly ok: false; readonly reason: string };

function isFresh(binary: string, source: string): boolean {
  try {
    return fs.statSync(binary).mtimeMs >= fs.statSync(source).mtimeMs;
  } catch {
    return false;
  }
}

/** Compiles bench/race/<name>.c on first use and whenever the source is newer than the binary. */
export function compileHelper(name: string): SwapHelper {
  const source = path.join(__dirname, `${name}.c`);
  const binary = path.join(buildDirectory, name);
  const cc = findOnPath('cc', process.env);
  if (cc === undefined) {
    return { ok: false, reason: `no C compiler: \`cc\` is not on PATH, so the ${name} helper (bench/race/${name}.c) cannot be built (apt-get install gcc)` };
  }
  if (isFresh(binary, source)) return { ok: true, binary };
  fs.mkdirSync(buildDirectory, { recursive: true });
  // Built under a name of its own and renamed: two runs compiling at once never see half a binary.
  const partial = `${binary}.${process.pid}.partial`;
  const compiled = spawnSync(cc, ['-O2', '-Wall', '-o', partial, source], { encoding: 'utf8' });
  if (compiled.status !== 0) {
    fs.rmSync(partial, { force: true });
    return { ok: false, reason: `${cc} could not compile ${source}: ${(compiled.stderr || compiled.error?.message || '').trim()}` };
  }
  fs.renameSync(partial, binary);
  return { ok: true, binary };
}

/** The compiled helper, or why there is none (the caller reports the race as skipped). */
export function prepareSwapHelper(): SwapHelper {
  if (process.platform !== 'linux') {
    return { ok: false, reason: `the swap helper needs Linux (renameat2 with RENAME_EXCHANGE); this is ${process.platform}` };
  }
  return compileHelper('swap');
}

export interface RunningSwapper {
  readonly pid: number | undefined;
  /** Stops the helper (it puts both names back as they were) and returns how many exchanges it made. */
  stop(): Promise<{ readonly swaps: number; readonly error?: string }>;
  /** For an interrupted run: no waiting, no count. */
  kill(): void;
}

/**
 * Starts exchanging `a` and `b`. `maxSeconds` is a backstop only: the helper also stops when its
 * parent dies, and normally when stop() is called.
 */
export function startSwapper(helper: string, a: string, b: string, maxSeconds: number): RunningSwapper {
  const child = spawn(helper, [a, b, String(maxSeconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let spawnError: Error | undefined;
  child.on('error', (error) => (spawnError = error));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      const code = await exited;
      clearTimeout(timer);
      const swaps = Number.parseInt(stdout.trim(), 10);
      const error = spawnError?.message ?? (code !== 0 ? stderr.trim() || `the swap helper exited with status ${code}` : undefined);
      return { swaps: Number.isFinite(swaps) ? swaps : 0, ...(error !== undefined ? { error } : {}) };
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
