// A disk in memory for a decider on another platform: POSIX paths, or Windows drive paths with
// either slash; names compared without case where the platform's disk does so (macOS, Windows)
// and kept as typed, as Node's realpath walk keeps them; links followed as the OS follows them;
// each entry with an owner and mode bits.
import type { FsLookup, Platform } from '../../src/core/index.js';
import type { DeciderFileSystem } from '../../src/deciders/index.js';

export type FakeEntry =
  | string
  | { readonly link: string }
  | { readonly folder: true }
  | { readonly text?: string; readonly uid: number; readonly mode: number; readonly folder?: true };

interface Stored {
  readonly kind: 'file' | 'directory' | 'symlink';
  readonly text?: string;
  readonly target?: string;
  readonly uid: number;
  readonly mode: number;
}

export function fakeDisk(platform: Platform, entries: Readonly<Record<string, FakeEntry>>): DeciderFileSystem {
  const sep = platform === 'win32' ? '\\' : '/';
  const fold = (name: string) => (platform === 'linux' ? name : name.toLowerCase());
  const split = (path: string): { root: string; names: string[] } => {
    const native = platform === 'win32' ? path.replace(/\//g, '\\') : path;
    const root = platform === 'win32' ? native.slice(0, 3) : '/';
    return { root, names: native.slice(root.length).split(sep).filter((name) => name !== '' && name !== '.') };
  };
  const key = (root: string, names: readonly string[]) => fold(root + names.join(sep));
  const stored = new Map<string, Stored>();
  let ino = 1n;
  const put = (path: string, entry: Stored) => {
    const { root, names } = split(path);
    for (let depth = 1; depth < names.length; depth++) {
      const parent = key(root, names.slice(0, depth));
      if (!stored.has(parent)) stored.set(parent, { kind: 'directory', uid: 0, mode: 0o40755 });
    }
    stored.set(key(root, names), entry);
  };
  for (const [path, entry] of Object.entries(entries)) {
    if (typeof entry === 'string') put(path, { kind: 'file', text: entry, uid: 0, mode: 0o100644 });
    else if ('link' in entry) put(path, { kind: 'symlink', target: entry.link, uid: 0, mode: 0o120777 });
    else if ('uid' in entry) put(path, { kind: entry.folder ? 'directory' : 'file', ...(entry.text !== undefined ? { text: entry.text } : {}), uid: entry.uid, mode: entry.mode });
    else put(path, { kind: 'directory', uid: 0, mode: 0o40755 });
  }

  /** Walks a path as the OS does: every link on the way followed, the last one only when asked. */
  function walk(path: string, followLast: boolean, hops = 0): { entry: Stored | undefined; real: string } | undefined {
    if (hops > 40) return undefined;
    const { root, names } = split(path);
    let current: string[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (name === '..') {
        current.pop();
        continue;
      }
      const entry = stored.get(key(root, [...current, name]));
      const last = i === names.length - 1;
      if (!entry) return last ? { entry: undefined, real: root + [...current, name].join(sep) } : undefined;
      if (entry.kind === 'symlink' && (!last || followLast)) {
        const target = entry.target!;
        const absolute = platform === 'win32' ? /^[A-Za-z]:[\\/]/.test(target) : target.startsWith('/');
        const landed = walk(absolute ? target : root + [...current, target].join(sep), true, hops + 1);
        if (!landed?.entry) return last ? landed : undefined;
        current = split(landed.real).names;
        if (last) return landed;
        continue;
      }
      if (!last && entry.kind !== 'directory') return undefined;
      current.push(name);
      if (last) return { entry, real: root + current.join(sep) };
    }
    return { entry: stored.get(key(root, current)) ?? { kind: 'directory', uid: 0, mode: 0o40755 }, real: root + current.join(sep) };
  }

  return {
    lstat(path): FsLookup {
      const found = walk(path, false)?.entry;
      return found ? { kind: found.kind, dev: 1n, ino: ino++ } : { kind: 'missing' };
    },
    readlink(path) {
      const found = walk(path, false)?.entry;
      return found?.kind === 'symlink' ? { ok: true, target: found.target! } : { ok: false, errno: found ? 'EINVAL' : 'ENOENT' };
    },
    readText(path) {
      const found = walk(path, true)?.entry;
      return found?.kind === 'file' ? found.text : undefined;
    },
    ownership(path, options) {
      const found = walk(path, options?.noFollow !== true)?.entry;
      return found ? { uid: found.uid, mode: found.mode } : undefined;
    },
  };
}
