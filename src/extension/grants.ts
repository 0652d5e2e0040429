import type { RootChoice } from '../shared/messages.js';
import type { Settings } from './settings.js';

export interface Folder {
  readonly name: string;
  /** The folder's URI exactly as VS Code spells it (`file:///c%3A/...` on Windows). */
  readonly uri: string;
  readonly scheme: string;
  readonly fsPath: string;
}

/** Why something (or everything) is not granted: data here, worded where `vscode.l10n` is at hand (mcpProvider.ts). */
export type GrantNote =
  | { readonly kind: 'untrusted' }
  | { readonly kind: 'no-folder' }
  | { readonly kind: 'not-local'; readonly folders: readonly string[] }
  | { readonly kind: 'case-simulated' };

export interface ServerLaunch {
  /** Arguments after the server script; empty when nothing is granted. */
  readonly args: readonly string[];
  readonly roots: readonly RootChoice[];
  /** For the panel; empty when every folder is granted. */
  readonly notes: readonly GrantNote[];
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
      notes: [{ kind: 'untrusted' }],
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
  const notes: GrantNote[] = [];
  if (folders.length === 0) notes.push({ kind: 'no-folder' });
  if (skipped.length > 0) notes.push({ kind: 'not-local', folders: skipped });
  if (args.length > 0) {
    const { policy } = settings;
    if (policy.localhost === 'allow') args.push('--allow-localhost');
    if (policy.unc === 'allow') args.push('--allow-unc');
    // Folding case is for the inspector to simulate: the server probes the filesystem, and
    // refuses to start when told to fold case where the filesystem does not.
    args.push('--case', policy.case === 'insensitive' ? 'auto' : policy.case, '--symlinks', policy.symlinks);
    if (policy.case === 'insensitive') notes.push({ kind: 'case-simulated' });
    const secrets = settings.secrets;
    if (secrets !== undefined) {
      // The patterns are the setting's: the server's reasons name it, not the flag.
      if (secrets.patterns.length > 0) args.push('--secrets-from-settings', ...secrets.patterns.flatMap((pattern) => ['--secret', pattern]));
      if (!secrets.defaults) args.push('--no-default-secrets');
      if (secrets.claudeCodeDeny) args.push('--claude-code-deny');
    }
    if (refusalLog !== null) args.push('--refusal-log', refusalLog, '--refusal-log-size', String(settings.refusalLogSize));
  }
  // node:crypto is required here, not at activation: loading it costs milliseconds of the editor's start.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const version = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 12);
  return { args, roots, notes, version };
}
