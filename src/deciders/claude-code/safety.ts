// Claude Code's own checks on a path, before any allow: the folders and files it asks about
// whatever the rules and the mode say ("a sensitive file"), and the path forms it asks about as
// suspicious on every platform (Windows short names, a name ending in a dot or a space, a device
// name, `...`, network paths). As Claude Code 2.1.332 writes them in its code; the recording saw
// `.claude/`, `.git/` and `.vscode/` ask in acceptEdits.
import type { Platform } from '../../core/index.js';
import { isWithin, type WorkingFolder } from './paths.js';

/** Folders whose contents it asks about, at any depth. */
export const SENSITIVE_FOLDERS: readonly string[] = ['.git', '.vscode', '.idea', '.claude', '.husky', '.cargo', '.devcontainer', '.yarn', '.mvn'];
/** Files it asks about by name. */
export const SENSITIVE_FILES: readonly string[] = [
  '.gitconfig', '.gitmodules', '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.zshenv', '.zlogin', '.zlogout', '.bash_login',
  '.bash_aliases', '.bash_logout', '.envrc', '.ripgreprc', '.mcp.json', '.claude.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnp.cjs',
  '.pnp.loader.mjs', '.pnp.js', '.pnp.data.json', '.pnpmfile.cjs', 'bunfig.toml', '.bunfig.toml', '.bazelrc', '.bazelversion', '.bazeliskrc',
  '.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', 'lefthook.yaml', '.lefthook.yaml', 'gradle-wrapper.properties',
  'maven-wrapper.properties', '.devcontainer.json', 'pyrightconfig.json',
];
/** Runs of folders it asks about. */
const SENSITIVE_RUNS: readonly (readonly string[])[] = [['.config', 'git']];
/** The sensitive names the recording saw ask; the others are read from its code. */
const RECORDED_SENSITIVE = new Set(['.git', '.vscode', '.claude', '.bashrc']);

/**
 * A name as the check compares it: lower-cased (with dotless ı and long ſ taken as i and s), an
 * NTFS stream suffix (`:x`) and trailing dots and spaces dropped, as Windows would open it.
 */
export function foldName(name: string): string {
  const lower = name.toLowerCase().replace(/\u0131/g, 'i').replace(/\u017f/g, 's');
  return lower.replace(/:.*$/, '').replace(/[. ]+$/, '') || lower;
}

function namesOf(path: string, platform: Platform): string[] {
  return path.split(platform === 'win32' ? /[\\/]/ : '/').filter((name) => name !== '');
}

/**
 * Why a change of `path` is sensitive, and whether the recording saw that kind ask; undefined
 * when it is not (`exempt` says why a sensitive name did not count).
 */
export function sensitiveReason(path: string, working: readonly WorkingFolder[], platform: Platform): { reason: string; recorded: boolean } | { exempt: string } | undefined {
  const names = namesOf(path, platform);
  const folded = names.map(foldName);
  // A worktree Claude Code made for an agent lies below the project's own `.claude/worktrees/`.
  const projectDepth = Math.max(0, ...working.flatMap((folder) => folder.spellings.filter((spelling) => isWithin(path, spelling, platform)).map((spelling) => namesOf(spelling, platform).length)));
  let exempt: string | undefined;
  for (let i = 0; i < folded.length; i++) {
    const name = folded[i]!;
    if (!SENSITIVE_FOLDERS.includes(name)) continue;
    if (name === '.claude' && folded[i + 1] === 'worktrees' && i >= projectDepth) {
      exempt = `${names.slice(0, i + 2).join('/')} holds agents' worktrees, which Claude Code does not count as its own folder`;
      continue;
    }
    return { reason: `it is in a \`${names[i]}\` folder`, recorded: RECORDED_SENSITIVE.has(name) && names[i] === name };
  }
  for (const run of SENSITIVE_RUNS) {
    for (let i = 0; i + run.length <= folded.length; i++) {
      if (run.every((name, k) => folded[i + k] === name)) return { reason: `it is in \`${run.join('/')}\``, recorded: false };
    }
  }
  const last = folded.at(-1);
  if (last !== undefined && SENSITIVE_FILES.includes(last)) return { reason: `its name \`${names.at(-1)}\` is one Claude Code keeps to itself`, recorded: RECORDED_SENSITIVE.has(last) && names.at(-1) === last };
  return exempt === undefined ? undefined : { exempt };
}

/**
 * Why a path's form is suspicious to Claude Code ("a suspicious Windows path pattern"), and
 * whether the recording saw that kind ask; undefined when it is not.
 */
export function suspiciousForm(path: string, platform: Platform): { reason: string; recorded: boolean } | undefined {
  const reason = suspiciousReason(path, platform);
  return reason === undefined ? undefined : { reason, recorded: reason === SHORT_NAME };
}

const SHORT_NAME = 'a `~` and a digit may name a Windows short (8.3) name';

function suspiciousReason(path: string, platform: Platform): string | undefined {
  if (/^[\\/]\?\?[\\/]/.test(path)) return 'it names the NT object namespace (`\\??\\`)';
  if (platform === 'win32' && path.indexOf(':', 2) !== -1) return 'a colon past the drive letter names an NTFS stream';
  if (/~\d/.test(path)) return SHORT_NAME;
  if (/^(?:\\\\[?.]\\|\/\/[?.]\/)/.test(path)) return 'it is a Windows device path (`\\\\?\\` or `\\\\.\\`)';
  for (const name of path.split(/[\\/]/)) {
    if (name === '' || name === '.' || name === '..') continue;
    if (/[.\s]+$/.test(name)) return `the name ${JSON.stringify(name)} ends in a dot or a space, which Windows drops`;
  }
  if (/\.(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])$/i.test(path)) return 'it ends in a Windows device name';
  if (/(^|[\\/])\.{3,}([\\/]|$)/.test(path)) return 'a name made of three or more dots';
  return undefined;
}

/** A path that reaches a network share (`\\server\share`, `//server/share`), other than WSL's own. */
export function isNetworkPath(path: string): boolean {
  if (!/^[\\/]{2}/.test(path)) return false;
  const wsl = /^[\\/]{2}wsl(?:\$|\.localhost)[\\/]([^\\/]*)/i.exec(path);
  return !(wsl !== null && !/^\.{0,2}[. ]*$/.test(wsl[1] ?? ''));
}
