// The real programs the deciders are checked against, at the exact versions recorded. The agents
// are test tools, installed on demand into an ignored cache of the repository
// (`npm run record-deciders` does it), never dependencies of the package; the reference server is
// a dev dependency.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');
/** Where the agents are installed, one npm prefix each. */
export const AGENTS_CACHE = path.join(REPO_ROOT, '.agents-cache');

export const PROGRAMS = ['server-filesystem', 'claude-code', 'codex', 'gemini-cli'] as const;
export type Program = (typeof PROGRAMS)[number];

export interface Pin {
  readonly npmPackage: string;
  readonly version: string;
  /** The command inside the package's `node_modules/.bin`, or for the server its entry file. */
  readonly bin: string;
  /** Installed as a dev dependency rather than into the cache. */
  readonly devDependency?: true;
}

export const PINS: Readonly<Record<Program, Pin>> = {
  'server-filesystem': { npmPackage: '@modelcontextprotocol/server-filesystem', version: '2026.8.31', bin: 'dist/index.js', devDependency: true },
  'claude-code': { npmPackage: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { npmPackage: '@openai/codex', version: '0.171.0', bin: 'codex' },
  'gemini-cli': { npmPackage: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
};

function prefixOf(program: Program): string {
  return PINS[program].devDependency ? REPO_ROOT : path.join(AGENTS_CACHE, program);
}

/** The version installed where the program is looked for, or undefined. */
export function installedVersion(program: Program): string | undefined {
  const manifest = path.join(prefixOf(program), 'node_modules', PINS[program].npmPackage, 'package.json');
  try {
    return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Why the program cannot be run as pinned, or undefined when it can. */
export function notInstalled(program: Program): string | undefined {
  const found = installedVersion(program);
  if (found === PINS[program].version) return undefined;
  const where = path.relative(REPO_ROOT, prefixOf(program)) || '.';
  return found === undefined
    ? `${PINS[program].npmPackage} is not installed in ${where} (npm run record-deciders installs it)`
    : `${PINS[program].npmPackage} ${found} is installed in ${where}, not the pinned ${PINS[program].version}`;
}

/** The file to execute: the agent's command, or the server's entry. */
export function executableOf(program: Program): string {
  const pin = PINS[program];
  return pin.devDependency
    ? path.join(prefixOf(program), 'node_modules', pin.npmPackage, pin.bin)
    : path.join(prefixOf(program), 'node_modules', '.bin', pin.bin);
}

/** Installs an agent at its pinned version into its cache prefix (a package.json of its own there). */
export function installAgent(program: Program, log: (line: string) => void): void {
  const pin = PINS[program];
  if (pin.devDependency) throw new Error(`${pin.npmPackage} is a dev dependency: run npm ci`);
  const prefix = prefixOf(program);
  fs.mkdirSync(prefix, { recursive: true });
  fs.writeFileSync(path.join(prefix, 'package.json'), `${JSON.stringify({ private: true, description: `${program}, a test tool` }, null, 2)}\n`);
  log(`installing ${pin.npmPackage}@${pin.version} into ${path.relative(REPO_ROOT, prefix)}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--save-exact', `${pin.npmPackage}@${pin.version}`], { cwd: prefix, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm install ${pin.npmPackage}@${pin.version} failed:\n${result.stderr}`);
  const found = installedVersion(program);
  if (found !== pin.version) throw new Error(`npm installed ${pin.npmPackage} ${found ?? '(nothing)'}, not ${pin.version}`);
}
