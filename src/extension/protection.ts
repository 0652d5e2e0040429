import fs from 'node:fs';
import { findOnPath, hostPlatform } from '../host/node.js';
import { protectionLayers, WINDOWS_SANDBOX_DETAIL, type ProtectionLayer } from '../shared/layers.js';

/**
 * The layers the bundled server gets on this machine, as far as the editor can tell without
 * starting it; the server's own list_workspaces reports what it actually got.
 */
export function hostProtection(env: NodeJS.ProcessEnv = process.env): ProtectionLayer[] {
  const platform = hostPlatform();
  const anchored = platform === 'linux' && fs.existsSync('/proc/self/fd');
  let sandbox: { active: boolean; detail: string };
  if (platform === 'linux') {
    sandbox = findOnPath('bwrap', env) !== undefined
      ? {
          active: true,
          detail:
            'bubblewrap: the server starts where it sees only its runtime, its own code, the granted workspaces (read-only ones read-only) and its refusal log, with no network, when this machine lets it create namespaces',
        }
      : { active: false, detail: 'bubblewrap (bwrap) is not installed: install it to give the server an operating-system sandbox' };
  } else if (platform === 'darwin') {
    sandbox = fs.existsSync('/usr/bin/sandbox-exec')
      ? { active: true, detail: 'sandbox-exec: the server may write only in read-write workspaces and its refusal log, and read only what it needs' }
      : { active: false, detail: 'sandbox-exec is not available on this Mac' };
  } else {
    sandbox = { active: false, detail: WINDOWS_SANDBOX_DETAIL };
  }
  return protectionLayers({ platform, anchored, sandbox });
}
