import { createHash } from 'node:crypto';
import type { RootChoice } from '../shared/messages.js';
import type { Settings } from './settings.js';

export interface Folder {
  readonly name: string;
  /** The folder's URI exactly as VS Code spells it (`file:///c%3A/...` on Windows). */
  readonly uri: string;
  readonly scheme: string;
  readonly fsPath: string;
}

export interface ServerLaunch {
  /** Arguments after the server script; empty when nothing is granted. */
  readonly args: readonly string[];
  readonly roots: readonly RootChoice[];
  /** Why something (or everything) is not granted, for the panel; null when every folder is. */
  readonly note: string | null;
  /** Changes whenever the arguments change, so the editor restarts the server. */
  readonly version: string;
}

function isReadOnly(folder: Folder, readOnlyFolders: readonly string[]): boolean {
  return readOnlyFolders.some((entry) => entry === folder.name || entry === folder.uri || entry === folder.fsPath);
}

/**
 * The server's launch arguments from the editor's state: each trusted `file:` workspace folder
 * as an explicit workspace URI, read-only where the settings say so. An untrusted workspace
 * grants nothing.
 */
export function serverLaunch(folders: readonly Folder[], trusted: boolean, settings: Settings, refusalLog: string | null): ServerLaunch {
  if (!trusted) {
    return {
      args: [],
      roots: folders.map((folder) => ({ label: folder.name, uri: folder.uri, rights: 'none' })),
      note: 'This workspace is not trusted, so no folder is granted to the agent. Trust the workspace (Workspaces: Manage Workspace Trust) to grant its folders.',
      version: 'untrusted',
    };
  }
  const args: string[] = [];
  const roots: RootChoice[] = [];
  const skipped: string[] = [];
  for (const folder of folders) {
    if (folder.scheme !== 'file') {
      skipped.push(folder.name);
      roots.push({ label: folder.name, uri: folder.uri, rights: 'none' });
      continue;
    }
    const readOnly = isReadOnly(folder, settings.readOnlyFolders);
    args.push(readOnly ? '--read-only-workspace' : '--workspace', folder.uri);
    roots.push({ label: folder.name, uri: folder.uri, rights: readOnly ? 'read' : 'read-write' });
  }
  const notes: string[] = [];
  if (folders.length === 0) notes.push('No folder is open, so nothing is granted to the agent.');
  if (skipped.length > 0) notes.push(`Not granted (not on this machine's filesystem): ${skipped.join(', ')}.`);
  if (args.length > 0) {
    const { policy } = settings;
    if (policy.localhost === 'allow') args.push('--allow-localhost');
    if (policy.unc === 'allow') args.push('--allow-unc');
    // Folding case is for the inspector to simulate: the server probes the filesystem, and
    // refuses to start when told to fold case where the filesystem does not.
    args.push('--case', policy.case === 'insensitive' ? 'auto' : policy.case, '--symlinks', policy.symlinks);
    if (policy.case === 'insensitive') notes.push('The case setting "insensitive" is simulated in the inspector only; the agent\'s server asks the filesystem (auto).');
    if (refusalLog !== null) args.push('--refusal-log', refusalLog, '--refusal-log-size', String(settings.refusalLogSize));
  }
  const version = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 12);
  return { args, roots, note: notes.length > 0 ? notes.join(' ') : null, version };
}
