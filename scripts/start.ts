/**
 * `npm start`: the extension in a real VS Code, in your browser, without internet.
 *
 * Builds, installs what is missing after saying what it is (Node 24 and code-server into
 * .vscode-test/ from the npm registry, about 810 MB; Chromium and libkrb5-dev with apt-get, which
 * waits while another apt holds its lock), creates the demo workspace (.vscode-test/demo: notes/
 * with its traps beside notes-evil/ and outside/), starts code-server's VS Code server with the
 * extension loaded on it, and prints the URL to open. Runs until Ctrl-C, which stops the
 * server's whole process group.
 *
 * Usage: npm start [-- --port <n>] [-- --workspace <folder>]
 *   --port <n>         listen on this port (default 0: the server picks one, printed)
 *   --workspace <dir>  open this folder instead of the demo's notes/
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createDemoWorkspace } from './demo-workspace';
import { CACHE, ensureEnvironment, missingPieces, REPO, startVsCode } from './vscode-env';

const HELP = `usage: npm start [-- --port <n>] [-- --workspace <folder>]

  --port <n>         listen on this port (default 0: the server picks one, printed)
  --workspace <dir>  open this folder instead of the demo's notes/
`;

function usage(message: string): never {
  console.error(`npm start: ${message}\n${HELP}`);
  process.exit(2);
}

function parseOptions(argv: readonly string[]): { port: number; workspace: string | null } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: { port: { type: 'string' }, workspace: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port ${values.port} is not a port number`);
  return { port, workspace: values.workspace === undefined ? null : path.resolve(values.workspace) };
}

async function main(): Promise<void> {
  const { port, workspace } = parseOptions(process.argv.slice(2));
  const log = (line: string) => console.log(`[start] ${line}`);

  log('building (node esbuild.mjs)');
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const missing = missingPieces();
  if (missing.length > 0) {
    log(`first run: installing what is missing, once (a few minutes; Ctrl-C stops):`);
    for (const piece of missing) log(`  ${piece}`);
  }
  await ensureEnvironment(log);
  let folder = workspace;
  if (folder === null) {
    const demo = createDemoWorkspace(path.join(CACHE, 'demo'));
    folder = demo.notes;
    log(`demo workspace: ${path.relative(REPO, demo.notes)} (beside ${path.relative(REPO, path.dirname(demo.evilSecret))} and ${path.relative(REPO, demo.outside)})`);
  }

  const vscode = await startVsCode({
    workspace: folder,
    extensionDevelopmentPath: REPO,
    port,
    runName: `start-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    log,
  });
  console.log('');
  console.log('  VS Code with Boundary Inspector is running. Open this URL in a browser on this machine:');
  console.log('');
  console.log(`  ${vscode.url}`);
  console.log('');
  console.log(`  Then run "Boundary Inspector: Open Inspector" from the Command Palette (F1).`);
  console.log(`  Server log: ${path.relative(REPO, vscode.serverLog)}. Press Ctrl-C to stop.`);
  console.log('');

  // Ctrl-C (or SIGTERM/SIGHUP) is handled by vscode-env: it stops the process group, then exits.
  const code = await vscode.exited;
  if (code === null) return; // killed: the signal handler is stopping the group and exits
  log(`the VS Code server exited by itself (exit ${code}); see ${path.relative(REPO, vscode.serverLog)}`);
  await vscode.stop();
  process.exit(code === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
