// Other spellings of one folder, and paths written for another system. What the core knows here
// is the systems' own layout: macOS links /tmp, /var and /etc into /private and names iCloud Drive
// twice; Windows reaches a WSL distribution as \\wsl$\<name> and \\wsl.localhost\<name>, and a
// mapped drive as its share; WSL mounts Windows' drives under /mnt. What only the machine knows
// (which distribution this is, which drive maps which share) comes in as `Spellings`.
import { splitAbsolute, type SplitPath } from './paths.js';
import type { FileSystemPort, Platform } from './types.js';
import { quoted, visible } from './visible.js';

/** What the host says about its neighbours: read from the system by the host, or given to simulate one. */
export interface Spellings {
  /**
   * This Linux is a WSL distribution: its name (`WSL_DISTRO_NAME`), and the folder Windows'
   * drives are mounted under (`[automount] root` of /etc/wsl.conf; `/mnt/` when absent).
   */
  readonly wsl?: { readonly distro: string; readonly mountRoot?: string };
  /** Windows: network drives by letter (`Z:`), each with the share it maps (`\\host\share`). */
  readonly mappedDrives?: Readonly<Record<string, string>>;
}

export const DEFAULT_WSL_MOUNT_ROOT = '/mnt/';

/** The hosts under which Windows serves this machine's WSL distributions: local, not the network. */
const WSL_HOSTS = ['wsl$', 'wsl.localhost'];

/**
 * The top-level folders of a Linux or macOS system (the FHS, and macOS's own). A rooted path
 * with `/` under one of these, given to Windows, is another system's path; `/Users` is left
 * out: Windows has `C:\Users`.
 */
const POSIX_TOP = new Set([
  'bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'media', 'mnt', 'opt', 'proc', 'root', 'run', 'sbin', 'snap', 'srv', 'sys', 'tmp', 'usr', 'var',
  'Applications', 'Library', 'System', 'Volumes', 'private', 'cores',
]);

export function isWslHost(server: string): boolean {
  return WSL_HOSTS.includes(server.toLowerCase());
}

function mountRootOf(spellings: Spellings | undefined): string {
  const root = spellings?.wsl?.mountRoot ?? DEFAULT_WSL_MOUNT_ROOT;
  return root.endsWith('/') ? root : `${root}/`;
}

/** The drive a mapped share is reached by, when `\\server\share` is one (`Z:`). */
export function mappedDriveOf(server: string, share: string, spellings: Spellings | undefined): string | undefined {
  const wanted = `\\\\${server}\\${share}`.toLowerCase();
  for (const [drive, target] of Object.entries(spellings?.mappedDrives ?? {})) {
    if (target.replace(/[\\/]+$/, '').replace(/\//g, '\\').toLowerCase() === wanted) return drive.toUpperCase();
  }
  return undefined;
}

/**
 * Whether Windows' `\\server\share` is this machine's own: a WSL distribution, or the share
 * behind a mapped drive (the grant already reaches it by the drive). Then the UNC policy, which
 * keeps the server off other machines, does not refuse it; why, for the trace.
 */
export function localShare(server: string, share: string, spellings: Spellings | undefined): string | undefined {
  if (isWslHost(server)) return `\\\\${server}\\ is where Windows serves this machine's WSL distributions, not a network share`;
  const drive = mappedDriveOf(server, share, spellings);
  return drive === undefined ? undefined : `\\\\${server}\\${share} is the share mapped as drive ${drive}`;
}

/** A path written for another system than the one judging it. */
export interface ForeignPath {
  /** `windows`: a drive or UNC path; `wsl`: a Windows spelling of a WSL distribution's path; `posix`: a Linux or macOS path. */
  readonly system: 'windows' | 'wsl' | 'posix';
  /** The path in its own system's spelling (decoded, for a URI). */
  readonly path: string;
  /** What it is, for a person: `a Windows path (drive C:)`. */
  readonly what: string;
}

/**
 * The path as its own system writes it, when `text` (a path as sent, or a file URI's decoded
 * path, `fromUri`) is another system's. On Linux and macOS: a drive path (`C:\x`, `C:/x`, `C:`),
 * a UNC path (`\\server\share`), and in a file URI a drive (`file:///C:/x`) or a share written
 * with four or five slashes (`file:////server/share`, as Python's url2pathname reads it). On
 * Windows: a rooted path with `/` under a Linux or macOS top-level folder (`/home/me`, `/mnt/c`).
 */
export function foreignPath(text: string, platform: Platform, fromUri: boolean): ForeignPath | undefined {
  if (platform !== 'win32') {
    const drivePath = fromUri ? /^\/([A-Za-z]):(\/.*)?$/s.exec(text) : /^([A-Za-z]):([\\/].*)?$/s.exec(text);
    if (drivePath) {
      const path = `${drivePath[1]!.toUpperCase()}:${(drivePath[2] ?? '\\').replace(/\//g, '\\')}`;
      return { system: 'windows', path, what: `a Windows path (drive ${drivePath[1]!.toUpperCase()}:)` };
    }
    const unc = fromUri ? /^\/{2,3}([^/]+)(\/.*)?$/s.exec(text) : /^\\\\([^\\/]+)([\\/].*)?$/s.exec(text);
    if (unc) {
      const path = `\\\\${unc[1]}${(unc[2] ?? '').replace(/\//g, '\\')}`;
      if (isWslHost(unc[1]!)) return { system: 'wsl', path, what: `Windows' path into a WSL distribution (\\\\${unc[1]}\\)` };
      if (unc[1] === '?' || unc[1] === '.') return { system: 'windows', path, what: 'a Windows device path (\\\\?\\ or \\\\.\\)' };
      return { system: 'windows', path, what: 'a Windows network path (UNC)' };
    }
    return undefined;
  }
  const rooted = /^\/([^/]+)(?:\/|$)/.exec(text);
  if (rooted && POSIX_TOP.has(rooted[1]!)) return { system: 'posix', path: text, what: `a Linux or macOS path (under /${rooted[1]})` };
  return undefined;
}

/**
 * The foreign path as this system spells it, when there is one: inside WSL, `C:\x` is
 * `/mnt/c/x` and `\\wsl$\<this distribution>\x` is `/x`; on Windows, WSL's `/mnt/c/x` is `C:\x`
 * and, under a root in a WSL distribution, `/home/me` is that distribution's `/home/me`.
 */
export function translateForeign(foreign: ForeignPath, platform: Platform, spellings: Spellings | undefined, root: SplitPath | undefined): string | undefined {
  const mountRoot = mountRootOf(spellings);
  if (platform === 'win32') {
    if (foreign.system !== 'posix') return undefined;
    if (foreign.path.startsWith(mountRoot)) {
      const drive = /^([A-Za-z])(?:\/|$)(.*)$/s.exec(foreign.path.slice(mountRoot.length));
      if (drive) return `${drive[1]!.toUpperCase()}:\\${drive[2]!.replace(/\//g, '\\')}`;
    }
    const wsl = root === undefined ? null : /^\\\\([^\\]+)\\([^\\]+)\\$/.exec(root.prefix);
    if (wsl && isWslHost(wsl[1]!)) return `\\\\${wsl[1]}\\${wsl[2]}${foreign.path.replace(/\//g, '\\')}`;
    return undefined;
  }
  const wsl = spellings?.wsl;
  if (wsl === undefined) return undefined;
  if (foreign.system === 'windows') {
    const drive = /^([A-Z]):\\?(.*)$/s.exec(foreign.path);
    return drive ? `${mountRoot}${drive[1]!.toLowerCase()}${drive[2] ? `/${drive[2].replace(/\\/g, '/')}` : ''}` : undefined;
  }
  if (foreign.system === 'wsl') {
    const share = /^\\\\[^\\]+\\([^\\]+)(\\.*)?$/s.exec(foreign.path);
    if (share && share[1]!.toLowerCase() === wsl.distro.toLowerCase()) return share[2] ? share[2].replace(/\\/g, '/') : '/';
  }
  return undefined;
}

/**
 * Why a foreign path is refused, with the spelling that works when there is one. `fromUri`: the
 * input was a file URI, whose path this system would read from its filesystem's top.
 */
export function foreignReason(input: string, foreign: ForeignPath, platform: Platform, spellings: Spellings | undefined, translated: string | undefined, fromUri: boolean): string {
  const here = platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'macOS' : spellings?.wsl ? `Linux (the WSL distribution ${quoted(spellings.wsl.distro)})` : 'Linux';
  // A share in a file URI (four or five slashes) would be a plain absolute path here once its slashes collapse.
  const collapsed = `/${foreign.path.replace(/^\\+/, '').replace(/\\/g, '/')}`;
  const literally =
    platform === 'win32'
      ? `it would name ${visible(foreign.path.replace(/\//g, '\\'))} on the root's drive`
      : fromUri
        ? foreign.path.startsWith('\\\\')
          ? `it would name ${visible(collapsed)} once its slashes collapse`
          : `it would name a folder ${quoted(`/${foreign.path.slice(0, 2)}`)} at the top of the filesystem`
        : 'it would be one name in the workspace folder';
  const head = `${quoted(input)} is ${foreign.what}, and this server runs on ${here}, where ${literally}.`;
  if (translated !== undefined) return `${head} Here the same path is ${visible(translated)}: send that.`;
  if (platform === 'win32') {
    return `${head} Send the Windows path of the file (${visible('C:\\...')}, or ${visible('\\\\wsl.localhost\\<distribution>\\...')} for a file in WSL).`;
  }
  if (foreign.system === 'wsl') {
    return spellings?.wsl
      ? `${head} It names a file of another WSL distribution than this one; send a path of this system.`
      : `${head} Send the path of the file inside the distribution (${visible('/home/...')}).`;
  }
  const share = foreign.path.startsWith('\\\\') && !/^\\\\[?.](?:\\|$)/.test(foreign.path);
  if (share && fromUri) {
    return `${head} Send the path where the share is mounted on this system; if ${visible(collapsed)} is meant, send ${visible(`file://${collapsed}`)} (three slashes).`;
  }
  return share
    ? `${head} Send the path where the share is mounted on this system.`
    : `${head} Send this system's path of the file (where that drive is mounted, if it is).`;
}

/** One folder's spellings, each member a prefix that names it, and why they are one folder. */
export interface AliasFamily {
  readonly members: readonly SplitPath[];
  readonly why: string;
}

const DARWIN_PRIVATE = ['tmp', 'var', 'etc'];
const ICLOUD = ['Library', 'Mobile Documents', 'com~apple~CloudDocs'];
const ICLOUD_SHOWN = 'iCloud Drive';

/** Whether a link at `/name` leads to `/private/name`: macOS's own layout (assumed when simulated). */
function linksIntoPrivate(fs: FileSystemPort | undefined, name: string): boolean {
  if (fs === undefined) return true;
  const link = fs.readlink(`/${name}`);
  return link.ok && (link.target === `private/${name}` || link.target === `/private/${name}`);
}

/**
 * The families of spellings that bear on a root: each a list of prefixes naming one folder. The
 * root's own spelling is the one kept; the others are converted to it.
 */
export function aliasFamilies(root: SplitPath, platform: Platform, spellings: Spellings | undefined, fs: FileSystemPort | undefined): AliasFamily[] {
  const families: AliasFamily[] = [];
  const assumed = fs === undefined ? " (simulated: macOS's usual layout assumed)" : '';
  if (platform === 'darwin') {
    for (const name of DARWIN_PRIVATE) {
      if (linksIntoPrivate(fs, name)) {
        families.push({ members: [{ prefix: '/', names: [name] }, { prefix: '/', names: ['private', name] }], why: `macOS links /${name} to /private/${name}${assumed}` });
      }
    }
    // Finder's "iCloud Drive" under a home folder is ~/Library/Mobile Documents/com~apple~CloudDocs
    // (unless a folder of that name is really there).
    const [users, user] = root.names;
    if (users === 'Users' && user !== undefined) {
      const shown = { prefix: '/', names: ['Users', user, ICLOUD_SHOWN] };
      const kept = fs === undefined || fs.lstat(`/Users/${user}/${ICLOUD_SHOWN}`).kind === 'missing';
      if (kept) families.push({ members: [{ prefix: '/', names: ['Users', user, ...ICLOUD] }, shown], why: `Finder names ~/${ICLOUD.join('/')} "${ICLOUD_SHOWN}"${assumed}` });
    }
  }
  if (platform === 'win32') {
    const unc = /^\\\\([^\\]+)\\([^\\]+)\\$/.exec(root.prefix);
    if (unc && isWslHost(unc[1]!)) {
      families.push({ members: WSL_HOSTS.map((host) => ({ prefix: `\\\\${host}\\${unc[2]}\\`, names: [] })), why: 'Windows serves each WSL distribution under both names' });
    }
    for (const [drive, share] of Object.entries(spellings?.mappedDrives ?? {})) {
      const shareSplit = splitAbsolute(`${share.replace(/\//g, '\\').replace(/\\+$/, '')}\\`, 'win32');
      const letter = /^([A-Za-z]):?$/.exec(drive);
      if (shareSplit && letter) {
        families.push({ members: [{ prefix: `${letter[1]!.toUpperCase()}:\\`, names: [] }, shareSplit], why: `drive ${letter[1]!.toUpperCase()}: maps the share ${share}${fs === undefined ? ' (as given)' : ''}` });
      }
    }
  }
  return families;
}

/** What a family member is, for the trace's note. */
export function describeSpelling(member: SplitPath, platform: Platform): string {
  const text = member.prefix + member.names.join(platform === 'win32' ? '\\' : '/');
  return visible(text);
}
