import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostPlatform, nodeFileSystem, realPathOr } from '../host/node.js';
import { isInside, splitAbsolute, type Platform } from '../core/index.js';
import { buildGrants, type Grant } from './grants.js';
import { parseServeArgs, serveHelp, ServeUsageError } from './options.js';
import { RefusalLog } from './refusalLog.js';
import {
  findOnPath,
  probeSandbox,
  SANDBOX_ENV,
  SANDBOX_EXEC,
  sandboxInside,
  sandboxLaunch,
  sandboxMechanism,
  WINDOWS_SANDBOX_DETAIL,
  type SandboxConfig,
  type SandboxMechanism,
  type SandboxState,
} from './sandbox.js';
import type { ServerState } from './tool.js';

const log = (message: string) => process.stderr.write(`boundary-inspector: ${message}\n`);

function isDirectory(target: string): boolean {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

/** The real path of a folder that may not exist yet: its deepest existing ancestor resolved, the rest as written. */
function realFolderOf(folder: string): string {
  const missing: string[] = [];
  let existing = folder;
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  return path.join(realPathOr(existing), ...missing);
}

/**
 * Where appending to `file` writes: through its folder's real path, and through a link at the file
 * itself, dangling or not (appending through a dangling link creates its target).
 */
function whereWritesLand(file: string): string {
  let place = path.join(realFolderOf(path.dirname(file)), path.basename(file));
  for (let hop = 0; hop < 40; hop += 1) {
    let target: string;
    try {
      target = fs.readlinkSync(place);
    } catch {
      return place;
    }
    const next = path.resolve(path.dirname(place), target);
    place = path.join(realFolderOf(path.dirname(next)), path.basename(next));
  }
  return place;
}

/**
 * The grant whose workspace holds the refusal log or its rotated file, as given or where writes to
 * them land, compared as the workspace compares names.
 */
function grantHoldingLog(log: string, grants: readonly Grant[], platform: Platform): Grant | undefined {
  const places = [log, `${log}.1`].flatMap((file) => [file, whereWritesLand(file)]);
  for (const place of places) {
    const split = splitAbsolute(place, platform);
    if (split === null) continue;
    const holder = grants.find((grant) =>
      [grant.root.real, grant.root.split].some((root) => root !== undefined && root !== null && isInside(root, split, grant.root.comparison)),
    );
    if (holder !== undefined) return holder;
  }
  return undefined;
}

/** Re-runs this same command inside the sandbox; the parent only waits and passes the exit status on. */
function relaunchInside(launch: { command: string; args: string[] }, mechanism: SandboxMechanism): void {
  // The whole environment goes through: VS Code's binary runs as node only under ELECTRON_RUN_AS_NODE.
  const child = spawn(launch.command, launch.args, { stdio: 'inherit', env: { ...process.env, [SANDBOX_ENV]: mechanism } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    log(`could not start inside ${mechanism}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** Relaunches inside this platform's sandbox when it works here; otherwise says why there is none. */
function sandboxOrWhyNot(config: SandboxConfig, script: string): 'relaunched' | SandboxState {
  const mechanism = sandboxMechanism(config.platform);
  if (mechanism === undefined) return { active: false, mechanism: null, detail: WINDOWS_SANDBOX_DETAIL };
  if (mechanism === 'bubblewrap') {
    const bwrap = findOnPath('bwrap', process.env);
    if (bwrap === undefined) return { active: false, mechanism: null, detail: 'bubblewrap (bwrap) is not installed; install it to confine what the server can see and write' };
    config = { ...config, bwrap };
  }
  if (mechanism === 'sandbox-exec' && !fs.existsSync(SANDBOX_EXEC)) return { active: false, mechanism: null, detail: `${SANDBOX_EXEC} is missing` };
  const why = probeSandbox(config, process.env);
  if (why !== undefined) {
    const what = mechanism === 'bubblewrap' ? 'bubblewrap could not start the server\'s sandbox here' : 'sandbox-exec could not start the runtime under the server\'s profile';
    return { active: false, mechanism: null, detail: `${what} (${why})` };
  }
  relaunchInside(sandboxLaunch(config, config.runtime, [...process.execArgv, script, ...process.argv.slice(2)]), mechanism);
  return 'relaunched';
}

/**
 * Starts the MCP server over stdio, or returns an exit status when it cannot start: a refused or
 * missing workspace, or no workspace at all, is a start-up error, never a silently wider root.
 */
export function runServer(args: readonly string[]): number | 'serving' {
  let options;
  try {
    options = parseServeArgs(args);
  } catch (error) {
    if (!(error instanceof ServeUsageError)) throw error;
    log(`${error.message}\nSee: boundary-inspector serve --help`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(serveHelp);
    return 0;
  }
  const platform = hostPlatform();
  const { grants, errors, warnings } = buildGrants(options.grants, { platform, policy: options.policy, fs: nodeFileSystem, isDirectory });
  for (const warning of warnings) log(warning);
  if (errors.length > 0) {
    for (const error of errors) log(error);
    return 2;
  }
  const refusalLog = options.refusalLog === undefined ? undefined : path.resolve(options.refusalLog);
  if (refusalLog) {
    // Checked before its folder is made: a refused log leaves nothing behind in the workspace.
    const holder = grantHoldingLog(refusalLog, grants, platform);
    if (holder !== undefined) {
      log(
        `--refusal-log ${refusalLog} lies (or writes) inside the granted workspace ${holder.uri}: the agent could delete it, put a link in its place ` +
          'to have refusals appended to a file elsewhere, or write lines of its own. Put the log outside every workspace.',
      );
      return 2;
    }
    try {
      fs.mkdirSync(path.dirname(refusalLog), { recursive: true });
    } catch (error) {
      log(`--refusal-log ${refusalLog}: its folder cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return 2;
    }
  }

  // By its real path: the sandbox shows the bundle's real folder, not a link to it.
  const script = realPathOr(process.argv[1] ?? '');
  const sandboxConfig: SandboxConfig = {
    platform,
    workspaces: grants.map((grant) => ({ path: grant.path, realPath: grant.realPath, rights: grant.rights })),
    refusalLog,
    runtime: process.execPath,
    script,
  };
  let sandbox: SandboxState = sandboxInside(process.env, sandboxConfig) ?? {
    active: false,
    mechanism: null,
    detail: platform === 'win32' ? WINDOWS_SANDBOX_DETAIL : 'turned off (--sandbox off)',
  };
  if (!sandbox.active && options.sandbox === 'auto') {
    const outcome = sandboxOrWhyNot(sandboxConfig, script);
    if (outcome === 'relaunched') return 'serving';
    sandbox = outcome;
  }

  const state: ServerState = {
    grants,
    platform,
    sandbox,
    log: new RefusalLog(refusalLog, options.refusalLogBytes, (error) => log(`could not write the refusal log: ${error.message}`)),
    logger: log,
  };
  // Loaded only here: a process that relaunches itself inside the sandbox never loads the SDK.
  import('./serve.js').then(
    ({ serve }) => serve(state),
    (error: Error) => {
      log(`could not start: ${error.message}`);
      process.exitCode = 1;
    },
  );
  log(`serving ${grants.map((grant) => `${grant.uri} (${grant.rights})`).join(', ')}; sandbox: ${sandbox.active ? sandbox.detail : `none, ${sandbox.detail}`}`);
  return 'serving';
}
