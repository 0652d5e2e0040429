// An in-memory NTFS volume for win32 traces on any machine: names compare without case, an
// entry may carry an 8.3 short name that opens it as its long name does (Win32 naming rules),
// intermediate links are followed as the OS follows them, and every lookup is recorded.
import type { FileSystemPort, FsLookup } from '../../src/core/index.js';

interface Entry {
  readonly name: string;
  readonly short: string | undefined;
  readonly kind: 'file' | 'directory' | 'symlink';
  readonly ino: bigint;
  readonly target?: string;
  readonly children: Entry[];
}

export interface FakeWin32Fs extends FileSystemPort {
  /** Every path the pipeline asked about, in order, with the method that asked. */
  readonly asked: string[];
  dir(path: string, short?: string): FakeWin32Fs;
  file(path: string, short?: string): FakeWin32Fs;
  link(path: string, target: string, short?: string): FakeWin32Fs;
}

const same = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

function namesOf(path: string): { drive: string; names: string[] } {
  const match = /^([A-Za-z]):\\(.*)$/.exec(path);
  if (!match) throw new Error(`the fake volume takes drive paths, got ${path}`);
  return { drive: match[1]!.toUpperCase(), names: match[2]!.split('\\').filter((name) => name !== '') };
}

/**
 * A fake Windows volume. `withLongNames: false` gives a port that cannot tell long names, as a
 * port written before the optional `longName` method existed.
 */
export function fakeWin32Fs(options: { readonly withLongNames?: boolean } = {}): FakeWin32Fs {
  let nextIno = 100n;
  const drives = new Map<string, Entry>();
  const asked: string[] = [];

  const rootOf = (drive: string): Entry => {
    let root = drives.get(drive);
    if (!root) {
      root = { name: `${drive}:`, short: undefined, kind: 'directory', ino: nextIno++, children: [] };
      drives.set(drive, root);
    }
    return root;
  };

  /** Walks a path as CreateFile does: long or short names, links followed except the last unless asked. */
  function walk(path: string, followLast: boolean, depth = 0): Entry | null {
    if (depth > 40) return null;
    const { drive, names } = namesOf(path);
    let current = rootOf(drive);
    const trail: string[] = [];
    for (let i = 0; i < names.length; i++) {
      if (current.kind !== 'directory') return null;
      const child = current.children.find((entry) => same(entry.name, names[i]!) || (entry.short !== undefined && same(entry.short, names[i]!)));
      if (!child) return null;
      const last = i === names.length - 1;
      if (child.kind === 'symlink' && (!last || followLast)) {
        const target = /^[A-Za-z]:\\/.test(child.target!) ? child.target! : `${drive}:\\${[...trail, child.target!].join('\\')}`;
        const resolved = walk(target, true, depth + 1);
        if (!resolved) return null;
        current = resolved;
        trail.splice(0, trail.length, ...namesOf(target).names);
      } else {
        current = child;
        trail.push(child.name);
      }
    }
    return current;
  }

  function add(path: string, entry: Omit<Entry, 'name' | 'ino' | 'children'>): void {
    const { drive, names } = namesOf(path);
    let parent = rootOf(drive);
    for (const name of names.slice(0, -1)) {
      let next = parent.children.find((child) => same(child.name, name));
      if (!next) {
        next = { name, short: undefined, kind: 'directory', ino: nextIno++, children: [] };
        parent.children.push(next);
      }
      parent = next;
    }
    parent.children.push({ ...entry, name: names.at(-1)!, ino: nextIno++, children: [] });
  }

  const fake: FakeWin32Fs = {
    asked,
    lstat(path: string): FsLookup {
      asked.push(`lstat ${path}`);
      const entry = walk(path, false);
      return entry ? { kind: entry.kind, dev: 1n, ino: entry.ino } : { kind: 'missing' };
    },
    readlink(path: string) {
      asked.push(`readlink ${path}`);
      const entry = walk(path, false);
      return entry?.kind === 'symlink' ? { ok: true as const, target: entry.target! } : { ok: false as const, errno: 'EINVAL' };
    },
    dir(path, short) {
      add(path, { short, kind: 'directory' });
      return fake;
    },
    file(path, short) {
      add(path, { short, kind: 'file' });
      return fake;
    },
    link(path, target, short) {
      add(path, { short, kind: 'symlink', target });
      return fake;
    },
  };
  if (options.withLongNames === false) return fake;
  return Object.assign(fake, {
    longName(path: string): string | null {
      asked.push(`longName ${path}`);
      return walk(path, false)?.name ?? null;
    },
  });
}
