import fs from 'node:fs';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { hostPlatform, nodeFileSystem, realPathOr } from '../../host/node.js';
import { DEFAULT_WSL_MOUNT_ROOT, isInside, splitAbsolute, visible, type Platform } from '../../core/index.js';
import { readSpellings } from '../../host/spellings.js';
import { buildGrants, type Grant } from '../grants.js';
import { claudeCodeDenyRules } from '../../host/claudeCodeDeny.js';
import { LauncherChannel, launcherAnswers } from './launcherChannel.js';
import { parseServeArgs, serveHelp, ServeUsageError, type ServeOptions } from './options.js';
import { relayRefusals } from '../refusals/refusalChannel.js';
import { RefusalLog } from '../refusals/refusalLog.js';
import type { SandboxState } from '../../host/protection.js';
import { WINDOWS_SANDBOX_DETAIL } from '../../shared/layers.js';
import { sandboxInside, STARTED_INSIDE, startInSandbox, type SandboxConfig, type SandboxStarted } from './sandbox.js';
import { sandboxMarker } from './sandboxEnvironment.js';
import { HeldWorkspaces } from './workspaceWatch.js';
import { useWriters, writerAliveHere } from '../fs/index.js';

/** One line on stderr; a path it echoes may hold what would drive a terminal, so it is escaped. */
const log = (message: string) => process.stderr.write(`boundary-inspector: ${visible(message)}\n`);

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

/**
 * The launcher's part once the server runs inside: it stays outside, passes signals on, writes the
 * refusal log the server inside feeds it, answers its questions about the workspaces, and exits with the server's status once the last line
 * is written.
 */
function relayInside({ child, channel, mechanism }: SandboxStarted, refusalLog: RefusalLog, workspaces: HeldWorkspaces): void {
  if (channel instanceof Duplex) relayRefusals(channel, refusalLog, launcherAnswers(channel, { workspaces, writerAlive: writerAliveHere }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    log(`could not start inside ${mechanism}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    void refusalLog.settled().then(() => process.exit(code ?? (signal ? 1 : 0)));
  });
}

/** The start-up line's account of the sandbox: what it hides, what is missing from it, or why there is none. */
function sandboxLine(sandbox: SandboxState): string {
  if (sandbox.active) return `sandbox: ${sandbox.detail}`;
  return sandbox.mechanism === null ? `sandbox: none, ${sandbox.detail}` : sandbox.detail;
}

/**
 * Whether the start-up line is written. Clients read every line a stdio server writes to stderr
 * as an error (Claude Code logs it as [ERROR], VS Code as a warning), so a normal start writes
 * nothing there: what is served and how it is protected is list_workspaces' answer. A sandbox
 * asked for that is missing or incomplete is said all the same, as is anything that fails later.
 * A person at a terminal is told what is served, unless `--quiet`.
 */
function startupLineWanted(options: Pick<ServeOptions, 'sandbox' | 'quiet'>, platform: Platform, sandbox: SandboxState, terminal: boolean): boolean {
  // Off by choice, or on Windows, which has none: list_workspaces says so, and nothing went wrong.
  const weakened = options.sandbox === 'auto' && platform !== 'win32' && !sandbox.active;
  return weakened || (terminal && !options.quiet);
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
    log(error.message);
    process.stderr.write('See: boundary-inspector serve --help\n');
    return 2;
  }
  if (options.help) {
    process.stdout.write(serveHelp);
    return 0;
  }
  const platform = hostPlatform();
  const marker = sandboxMarker(process.env);
  const spellings = marker?.spellings ?? readSpellings(platform, process.env);
  const { grants, errors, warnings } = buildGrants(options.grants, { platform, policy: options.policy, fs: nodeFileSystem, spellings, isDirectory, secrets: options.secrets, denyRules: (workspace) => claudeCodeDenyRules(workspace, platform) });
  if (spellings.wsl) log(`inside WSL (${spellings.wsl.distro}): a Windows path is refused with its ${spellings.wsl.mountRoot ?? DEFAULT_WSL_MOUNT_ROOT} spelling`);
  for (const warning of warnings) log(warning);
  if (errors.length > 0) {
    for (const error of errors) log(error);
    return 2;
  }
  const refusalLog = options.refusalLog === undefined ? undefined : path.resolve(options.refusalLog);
  // Inside the sandbox the log is not visible: the launcher outside checked it and writes it.
  if (refusalLog && marker === undefined) {
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
    spellings,
    script,
  };
  // First, inside: the launcher waits for this byte to know the sandbox was set up and the server runs.
  if (marker?.channel !== undefined) {
    try {
      fs.writeSync(marker.channel, STARTED_INSIDE);
    } catch {
      // a launcher that does not listen
    }
  }
  const onLogError = (error: Error) => log(`could not write the refusal log: ${error.message}`);
  const fileLog = () => new RefusalLog(refusalLog, options.refusalLogBytes, onLogError);

  /** Serves in this process, which is the sandboxed one, or one without a sandbox (`sandbox` says why). */
  const serveHere = (sandbox: SandboxState) => {
    if (options.checkSandbox) {
      process.stdout.write(`${JSON.stringify(sandbox)}\n`);
      return;
    }
    // Inside, the log is the launcher's to write: lines go over the channel it handed in, which
    // also tells whether each granted path still names the folder the sandbox holds.
    // Without its launcher the server stops: its temporary files bear the launcher's name, so others
    // would take it for gone (bubblewrap stops it anyway; sandbox-exec does not).
    const channel =
      marker?.channel === undefined
        ? undefined
        : new LauncherChannel(marker.channel, onLogError, () => {
            log('the launcher outside the sandbox is gone: stopping');
            process.exit(1);
          });
    // Its own pid means nothing outside its PID namespace: its temporary files bear the launcher's, which answers for others.
    if (channel !== undefined && marker?.writer !== undefined) useWriters({ self: marker.writer, alive: (writer) => channel.askWriter(writer) });
    const refusals =
      channel === undefined || marker?.refusalLog === undefined
        ? fileLog()
        : new RefusalLog(marker.refusalLog, options.refusalLogBytes, onLogError, channel.refusals);
    const workspaces = channel?.workspaceWatch(grants.map((grant) => grant.realPath));
    // Loaded only here: a process that relaunches itself inside the sandbox never loads the SDK, the
    // tools or the file layer, so it starts the sandbox sooner.
    Promise.all([import('../protocol/serveStdio.js'), import('../protocol/session.js')]).then(
      ([{ serve }, { createSession }]) => {
        const session = createSession({ grants, platform, sandbox }, { refusals, logger: log, ...(workspaces !== undefined ? { workspaces } : {}) });
        serve(session, { directCalls: options.directCalls });
      },
      (error: Error) => {
        log(`could not start: ${error.message}`);
        process.exitCode = 1;
      },
    );
    if (startupLineWanted(options, platform, sandbox, process.stderr.isTTY === true)) log(`serving ${grants.map((grant) => `${grant.uri} (${grant.rights})`).join(', ')}; ${sandboxLine(sandbox)}`);
  };

  const inside = sandboxInside(process.env, sandboxConfig);
  if (inside !== undefined) serveHere(inside);
  else if (options.sandbox === 'off') serveHere({ active: false, mechanism: null, detail: platform === 'win32' ? WINDOWS_SANDBOX_DETAIL : 'turned off (--sandbox off)' });
  else {
    // Held from before the sandbox is made, so they are the folders it binds.
    const held = new HeldWorkspaces(grants.map((grant) => grant.realPath));
    // Nothing reads stdin until this settles: where the sandbox does not start, this process serves.
    void startInSandbox(sandboxConfig, process.execPath, [...process.execArgv, script, ...process.argv.slice(2)], process.env).then((started) =>
      'child' in started ? relayInside(started, fileLog(), held) : serveHere(started),
    );
  }
  return 'serving';
}
