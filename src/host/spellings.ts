// What this machine knows of its neighbours, for the core's `Spellings`: whether this Linux is a
// WSL distribution (and where it mounts Windows' drives), and on Windows which drives map
// network shares. Read once at start-up; never written.
import * as fs from 'node:fs';
import { DEFAULT_WSL_MOUNT_ROOT, type Platform, type Spellings } from '../core/index.js';

/** WSL registers this binfmt entry to run Windows programs; its presence, with WSL_DISTRO_NAME, says "inside WSL". */
export const WSL_INTEROP_ENTRY = '/proc/sys/fs/binfmt_misc/WSLInterop';
const WSL_CONF = '/etc/wsl.conf';

/** The machine's reading, with the files it consults passed in (tests point them elsewhere). */
export interface HostFiles {
  readonly exists: (path: string) => boolean;
  readonly readText: (path: string) => string | undefined;
  /** Windows: the real path of a drive's root (`\\host\share\` for a mapped network drive). */
  readonly realpathNative?: (path: string) => string | undefined;
}

const nodeHostFiles: HostFiles = {
  exists: (path) => fs.existsSync(path),
  readText: (path) => {
    try {
      return fs.readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  realpathNative: (path) => {
    try {
      return fs.realpathSync.native(path);
    } catch {
      return undefined;
    }
  },
};

/** `[automount] root` of /etc/wsl.conf, where WSL mounts Windows' drives; the default when unset. */
export function wslMountRoot(conf: string | undefined): string {
  let section = '';
  for (const line of (conf ?? '').split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) section = header[1]!.trim().toLowerCase();
    const root = /^\s*root\s*=\s*("?)(.+?)\1\s*(?:[#;].*)?$/.exec(line);
    if (section === 'automount' && root) return root[2]!.endsWith('/') ? root[2]! : `${root[2]}/`;
  }
  return DEFAULT_WSL_MOUNT_ROOT;
}

/**
 * This machine's spellings. Inside WSL: `WSL_DISTRO_NAME` names the distribution, and WSL's
 * interop (its binfmt entry, or the socket `WSL_INTEROP` names) shows it really is WSL. On
 * Windows: each drive whose root is really a share (`realpath` gives `\\host\share\`).
 */
export function readSpellings(platform: Platform, env: Readonly<Record<string, string | undefined>>, files: HostFiles = nodeHostFiles): Spellings {
  if (platform === 'linux') {
    const distro = env['WSL_DISTRO_NAME'];
    const interop = files.exists(WSL_INTEROP_ENTRY) || (env['WSL_INTEROP'] !== undefined && env['WSL_INTEROP'] !== '' && files.exists(env['WSL_INTEROP']));
    if (distro && interop) return { wsl: { distro, mountRoot: wslMountRoot(files.readText(WSL_CONF)) } };
    return {};
  }
  if (platform === 'win32' && files.realpathNative) {
    const mappedDrives: Record<string, string> = {};
    for (let code = 'A'.charCodeAt(0); code <= 'Z'.charCodeAt(0); code += 1) {
      const drive = `${String.fromCharCode(code)}:`;
      if (!files.exists(`${drive}\\`)) continue;
      const real = files.realpathNative(`${drive}\\`);
      const share = real === undefined ? null : /^\\\\(?:\?\\UNC\\)?([^\\?.][^\\]*)\\([^\\]+)/.exec(real);
      if (share) mappedDrives[drive] = `\\\\${share[1]}\\${share[2]}`;
    }
    return Object.keys(mappedDrives).length > 0 ? { mappedDrives } : {};
  }
  return {};
}
