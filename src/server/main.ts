import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hostPlatform, nodeFileSystem } from '../host/node.js';
import { buildGrants } from './grants.js';
import { parseServeArgs, serveHelp, ServeUsageError } from './options.js';
import { RefusalLog } from './refusalLog.js';
import { bubblewrapArgs, bubblewrapWorks, findOnPath, SANDBOX_ENV, sandboxInside, type SandboxState } from './sandbox.js';
import type { ServerState } from './tool.js';

const log = (message: string) => process.stderr.write(`boundary-inspector: ${message}\n`);

function isDirectory(target: string): boolean {
  try {
    return fs.statSync(target).isDirectory();
  } catch {
    return false;
  }
}

/** Re-runs this same command inside bubblewrap; the parent only waits and passes the exit status on. */
function relaunchInside(bwrap: string, writable: readonly string[]): void {
  const child = spawn(bwrap, [...bubblewrapArgs(writable), '--', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, [SANDBOX_ENV]: 'bubblewrap' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
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
  const writable = grants.filter((grant) => grant.rights === 'read-write').map((grant) => grant.realPath);
  if (refusalLog) {
    try {
      fs.mkdirSync(path.dirname(refusalLog), { recursive: true });
      writable.push(fs.realpathSync(path.dirname(refusalLog)));
    } catch (error) {
      log(`--refusal-log ${refusalLog}: its folder cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return 2;
    }
  }

  let sandbox: SandboxState = sandboxInside(process.env, writable) ?? { active: false, mechanism: null, detail: 'turned off (--sandbox off)' };
  if (!sandbox.active && options.sandbox === 'auto') {
    if (platform !== 'linux') {
      sandbox = { active: false, mechanism: null, detail: `no sandbox is used on ${platform}` };
    } else {
      const bwrap = findOnPath('bwrap', process.env);
      if (bwrap && bubblewrapWorks(bwrap)) {
        relaunchInside(bwrap, writable);
        return 'serving';
      }
      sandbox = {
        active: false,
        mechanism: null,
        detail: bwrap ? 'bubblewrap cannot create namespaces on this machine' : 'bubblewrap (bwrap) is not installed; install it to confine writes to the workspaces',
      };
    }
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
