import { hostPlatform } from '../host/node.js';
import { descriptorPathsWork, sandboxProspect, sandboxSummary } from '../host/protection.js';
import { protectionLayers, type ProtectionLayer } from '../shared/layers.js';

/** What the server found when it checked its sandbox from inside, in its own words. */
export interface CheckedSandbox {
  readonly active: boolean;
  readonly detail: string;
}

/**
 * The layers the bundled server gets on this machine. Until the server has checked its sandbox
 * (`checked`), this is what the editor can tell without starting it; the server's own check, and
 * list_workspaces, report what it actually got.
 */
export function hostProtection(checked?: CheckedSandbox, env: NodeJS.ProcessEnv = process.env): ProtectionLayer[] {
  const platform = hostPlatform();
  let sandbox = checked;
  if (sandbox === undefined) {
    // The server's own test of what this host offers, and its words, before it has started.
    const prospect = sandboxProspect(platform, env);
    sandbox = prospect.available ? { active: true, detail: `${sandboxSummary(prospect.mechanism)} (not checked yet)` } : { active: false, detail: prospect.detail };
  }
  return protectionLayers({ platform, anchored: descriptorPathsWork(platform), sandbox });
}

/**
 * Asks the bundled server, started with exactly the arguments the editor gives it, to start its
 * sandbox and check it from inside (`--check-sandbox`): the same check, and the same words, as the
 * server's own start-up. Undefined when it could not answer.
 */
export function checkServerSandbox(runtime: string, server: string, args: readonly string[]): Promise<CheckedSandbox | undefined> {
  // node:child_process is required here, not at activation: loading it costs milliseconds of the editor's start.
  const { execFile } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    execFile(runtime, [server, ...args, '--check-sandbox'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: 20_000 }, (_error, stdout) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      try {
        const found = JSON.parse(last) as Partial<CheckedSandbox>;
        resolve(typeof found.active === 'boolean' && typeof found.detail === 'string' ? { active: found.active, detail: found.detail } : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}
