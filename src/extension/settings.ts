import * as vscode from 'vscode';
import type { Policy } from '../core/index.js';

export const SECTION = 'boundaryInspector';

export interface Settings {
  readonly policy: Policy;
  /** Workspace folders granted read-only: by name, path or URI. */
  readonly readOnlyFolders: readonly string[];
  readonly refusalLogSize: number;
}

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    policy: {
      localhost: config.get<boolean>('allowLocalhost', false) ? 'allow' : 'refuse',
      unc: config.get<boolean>('allowUnc', false) ? 'allow' : 'refuse',
      case: config.get<Policy['case']>('casePolicy', 'auto'),
      symlinks: config.get<Policy['symlinks']>('symlinkPolicy', 'contain'),
    },
    readOnlyFolders: config.get<string[]>('readOnlyFolders', []),
    refusalLogSize: Math.max(1024, config.get<number>('refusalLogSize', 1024 * 1024)),
  };
}
