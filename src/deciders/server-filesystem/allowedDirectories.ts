// How the reference server prepares its allowed directories at start-up (dist/index.js): each
// command-line argument `~/`-expanded, made absolute against the server's working folder,
// normalised, and resolved to its real path; a directory reached through a link is kept by both
// its own path and its target's. Any that is not a directory now is dropped; none left, the
// server exits.
import { visible } from '../../core/index.js';
import { expandHome, nodePath, nodeRealpath } from '../shared/node.js';
import type { DeciderContext, DeciderStage } from '../types.js';
import { normalizePath } from './pathUtils.js';

export interface AllowedDirectories {
  /** What the server keeps, in its order. */
  readonly directories: readonly string[];
  readonly stage: DeciderStage;
  /** Each argument whose real path differs from its own path: the target it also allows. */
  readonly linked: readonly { readonly argument: string; readonly original: string; readonly resolved: string }[];
  /** Directories dropped at start-up, with why. */
  readonly dropped: readonly string[];
}

export function allowedDirectories(context: DeciderContext): AllowedDirectories {
  const { platform, fs } = context;
  const path = nodePath(platform);
  const linked: { argument: string; original: string; resolved: string }[] = [];
  const candidates = context.allowed.flatMap((argument) => {
    const absolute = path.resolve(context.cwd, expandHome(argument, context.home, platform));
    const original = normalizePath(absolute, platform);
    if (context.simulated) return [original];
    const real = nodeRealpath(fs, absolute, platform);
    if (!real.ok) return [original];
    const resolved = normalizePath(real.path, platform);
    if (resolved === original) return [resolved];
    linked.push({ argument, original, resolved });
    return [original, resolved];
  });
  const dropped: string[] = [];
  const directories = candidates.filter((dir) => {
    if (context.simulated) return true;
    // fs.stat: links followed, a directory wanted.
    const real = nodeRealpath(fs, dir, platform);
    const kind = real.ok ? fs.lstat(real.path).kind : 'missing';
    if (kind === 'directory') return true;
    dropped.push(kind === 'missing' || kind === 'error' ? `Cannot access directory ${dir}, skipping` : `${dir} is not a directory, skipping`);
    return false;
  });
  const notes = [
    ...(context.simulated ? ['simulated: taken as existing folders with no link on them, since nothing of another platform is looked up'] : []),
    ...linked.map(({ original, resolved }) => `${visible(original)} is a link: its target ${visible(resolved)} is allowed too, by either path`),
    ...dropped.map((line) => `Warning: ${visible(line)}`),
    ...(directories.length === 0 ? [candidates.length === 0 ? 'no directory given: the server waits for roots from the client' : 'Error: None of the specified directories are accessible (the server exits)'] : []),
  ];
  const stage: DeciderStage = {
    name: 'allowed directories',
    status: directories.length === 0 ? 'refuse' : notes.length > 0 ? 'note' : 'pass',
    input: context.allowed.join(' '),
    output: directories.length === 0 ? null : directories.join(', '),
    rule: "at start-up, each argument: ~/ expanded, path.resolve from the server's working folder, normalizePath, fs.realpath; both paths kept when they differ; fs.stat keeps directories only",
    note: [...notes, 'Boundary Inspector serves a workspace by its own path and its real path, but a link to it from elsewhere is not a second way in'].join('; '),
    source: { text: context.allowed.join(' '), flag: `mcp-server-filesystem ${context.allowed.join(' ')}` },
  };
  return { directories, stage, linked, dropped };
}
