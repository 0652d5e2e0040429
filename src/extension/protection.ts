import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { findOnPath, hostPlatform } from '../host/node.js';
import { protectionLayers, WINDOWS_SANDBOX_DETAIL, type ProtectionLayer } from '../shared/layers.js';

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
  const anchored = platform === 'linux' && fs.existsSync('/proc/self/fd');
  let sandbox: CheckedSandbox;
  if (checked !== undefined) sandbox = checked;
  else if (platform === 'linux') {
    sandbox = findOnPath('bwrap', env) !== undefined
      ? {
          active: true,
          detail:
            'bubblewrap: the server starts where it sees only its runtime, its own code and the granted workspaces, with its own namespaces, no capabilities, a seccomp filter and no network, when this machine lets it create namespaces (not checked yet)',
        }
      : { active: false, detail: 'bubblewrap (bwrap) is not installed: install it to give the server an operating-system sandbox' };
  } else if (platform === 'darwin') {
    sandbox = fs.existsSync('/usr/bin/sandbox-exec')
      ? { active: true, detail: 'sandbox-exec: the server may write only in read-write workspaces, and read only what it needs (not checked yet)' }
      : { active: false, detail: 'sandbox-exec is not available on this Mac' };
  } else {
    sandbox = { active: false, detail: WINDOWS_SANDBOX_DETAIL };
  }
  return protectionLayers({ platform, anchored, sandbox });
}

/**
 * Asks the bundled server, started with exactly the arguments the editor gives it, to start its
 * sandbox and check it from inside (`--check-sandbox`): the same check, and the same words, as the
 * server's own start-up. Undefined when it could not answer.
 */
export function checkServerSandbox(runtime: string, server: string, args: readonly string[]): Promise<CheckedSandbox | undefined> {
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
