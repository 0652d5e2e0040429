import * as vscode from 'vscode';
import type { Platform, Policy } from '../core/types.js';
import type { SecretSettings } from '../core/secrets.js';
import { DEFAULT_SIMULATED_ROOTS, NO_SIMULATED_SPELLINGS, type SimulatedRoots, type SimulatedSpellings } from '../shared/simulatedRoots.js';

export const SECTION = 'boundaryInspector';

export interface Settings {
  readonly policy: Policy;
  /** Workspace folders granted read-only: by name, path or URI. */
  readonly readOnlyFolders: readonly string[];
  readonly refusalLogSize: number;
  /** Where the inspector puts a workspace folder when it simulates another platform. */
  readonly simulatedRoots: SimulatedRoots;
  /** A WSL distribution and mapped drives the inspector simulates. */
  readonly simulatedSpellings: SimulatedSpellings;
  /** The server's secrets policy: the defaults on or off, patterns added, Claude Code's deny rules. */
  readonly secrets?: SecretSettings;
}

function simulatedRoots(given: unknown): SimulatedRoots {
  const roots = { ...DEFAULT_SIMULATED_ROOTS };
  if (typeof given !== 'object' || given === null) return roots;
  for (const platform of Object.keys(roots) as Platform[]) {
    const template = (given as Record<string, unknown>)[platform];
    if (typeof template === 'string' && template.trim() !== '') roots[platform] = template;
  }
  return roots;
}

function simulatedSpellings(given: unknown): SimulatedSpellings {
  if (typeof given !== 'object' || given === null) return NO_SIMULATED_SPELLINGS;
  const { wslDistribution, mappedDrives } = given as Record<string, unknown>;
  const drives: Record<string, string> = {};
  if (typeof mappedDrives === 'object' && mappedDrives !== null) {
    for (const [drive, share] of Object.entries(mappedDrives)) if (typeof share === 'string' && /^[A-Za-z]:?$/.test(drive)) drives[drive] = share;
  }
  return { wslDistribution: typeof wslDistribution === 'string' ? wslDistribution.trim() : '', mappedDrives: drives };
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
    simulatedRoots: simulatedRoots(config.get('simulatedRoots')),
    simulatedSpellings: simulatedSpellings(config.get('simulatedSpellings')),
    secrets: {
      defaults: config.get<boolean>('secrets.defaults', true),
      patterns: config.get<string[]>('secrets.patterns', []).filter((pattern) => typeof pattern === 'string' && pattern.trim() !== ''),
      claudeCodeDeny: config.get<boolean>('secrets.claudeCodeDeny', false),
    },
  };
}
