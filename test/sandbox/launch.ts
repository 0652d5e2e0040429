// The probe's launcher, bundled into the probe's folder and run as the user under test: it builds
// the server's sandbox for the given grants with the server's own functions and starts the probe
// inside it the way the server relaunches itself (startInSandbox).
import fs from 'node:fs';
import { nodeFileSystem } from '../../src/host/node.js';
import { buildGrants, type GrantSpec } from '../../src/server/grants.js';
import { startInSandbox, type SandboxConfig } from '../../src/server/launch/sandbox.js';

export interface LaunchSpec {
  readonly grants: readonly GrantSpec[];
  readonly refusalLog?: string;
  readonly command: string;
  readonly args: readonly string[];
}

const isDirectory = (target: string) => fs.statSync(target, { throwIfNoEntry: false })?.isDirectory() === true;

async function main(): Promise<void> {
  const given = process.argv[2];
  if (given === undefined) return;
  const spec = JSON.parse(given) as LaunchSpec;
  const { grants, errors } = buildGrants(spec.grants, { platform: 'linux', policy: {}, fs: nodeFileSystem, isDirectory });
  if (errors.length > 0) throw new Error(errors.join('\n'));
  const config: SandboxConfig = {
    platform: 'linux',
    workspaces: grants.map((grant) => ({ path: grant.path, realPath: grant.realPath, rights: grant.rights })),
    refusalLog: spec.refusalLog,
    runtime: process.execPath,
    script: fs.realpathSync(__filename),
  };
  const started = await startInSandbox(config, spec.command, spec.args, process.env);
  if (!('child' in started)) {
    process.stdout.write(`${JSON.stringify({ unavailable: started.detail })}\n`);
    process.exitCode = 3;
    return;
  }
  started.child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

void main();
