import type { Platform } from '../core/types.js';

/**
 * Where a workspace folder would be on each platform, for the inspector to simulate one: a path
 * in which `{name}` stands for the folder's name (boundaryInspector.simulatedRoots).
 */
export type SimulatedRoots = Readonly<Record<Platform, string>>;

export const DEFAULT_SIMULATED_ROOTS: SimulatedRoots = { linux: '/home/dev/{name}', darwin: '/Users/dev/{name}', win32: 'C:\\Users\\dev\\{name}' };

/**
 * The neighbours the inspector simulates (boundaryInspector.simulatedSpellings): a WSL
 * distribution for a Linux trace, drives mapped to shares for a Windows one. Empty: none, and a
 * trace for this machine's own platform reads this machine's.
 */
export interface SimulatedSpellings {
  readonly wslDistribution: string;
  readonly mappedDrives: Readonly<Record<string, string>>;
}

export const NO_SIMULATED_SPELLINGS: SimulatedSpellings = { wslDistribution: '', mappedDrives: {} };
