import fs from 'node:fs';
import type { WorkspaceChange } from '../fs/index.js';

/**
 * The host's view of the workspaces, for a server in a sandbox. Inside, each workspace is a bind
 * mount made at start: a folder moved away, deleted or unmounted on the host still looks granted
 * from inside, and a change there would be made out of sight. The launcher, outside, holds each
 * workspace folder open (so a plain unmount is refused as busy, as without a sandbox) and answers,
 * for each change the server is about to make, whether the granted path still names it: one
 * letter per workspace. Reads go by what it says unasked, within WATCH_INTERVAL_MS of a change:
 * asking costs a round trip between two processes, a good part of a light call.
 */
export const WATCH_INTERVAL_MS = 20;

const LETTERS = { ok: 'o', gone: 'g', moved: 'm', deleted: 'd', unmounted: 'u' } as const;

/** The launcher's side: the workspace folders as they were when the sandbox was made. */
export class HeldWorkspaces {
  private readonly held: { readonly path: string; readonly fd: number | undefined }[];

  constructor(paths: readonly string[]) {
    this.held = paths.map((path) => {
      try {
        return { path, fd: fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0)) };
      } catch {
        return { path, fd: undefined };
      }
    });
  }

  /** One letter per workspace, in grant order. */
  status(): string {
    return this.held.map(({ path, fd }) => letterOf(path, fd)).join('');
  }

  /** Calls `notice` with the letters whenever they change, looking every WATCH_INTERVAL_MS. */
  watch(notice: (letters: string) => void): void {
    let said = this.status();
    setInterval(() => {
      const now = this.status();
      if (now !== said) notice((said = now));
    }, WATCH_INTERVAL_MS).unref();
  }
}

function letterOf(path: string, fd: number | undefined): string {
  if (fd === undefined) return LETTERS.gone;
  const held = fs.fstatSync(fd);
  const now = fs.lstatSync(path, { throwIfNoEntry: false });
  if (now === undefined) return LETTERS.gone;
  if (now.dev === held.dev && now.ino === held.ino) return LETTERS.ok;
  if (now.dev !== held.dev) return LETTERS.unmounted;
  return held.nlink === 0 ? LETTERS.deleted : LETTERS.moved;
}

const RESTART = "the server's sandbox still holds the folder it was started with: restart the server to serve the folder now at that path";

/** The server's side: what a letter says happened to the workspace at `path`. */
export function changeOfLetter(letter: string | undefined, path: string): WorkspaceChange | undefined {
  switch (letter) {
    case LETTERS.ok:
      return undefined;
    case LETTERS.gone:
      return { kind: 'gone', detail: `nothing is at ${path} now: the folder was moved away or deleted` };
    case LETTERS.moved:
      return { kind: 'replaced', detail: `the folder at ${path} was moved away and another is at that path now; ${RESTART}` };
    case LETTERS.deleted:
      return { kind: 'replaced', detail: `the folder at ${path} was deleted and another made at that path; ${RESTART}` };
    case LETTERS.unmounted:
      return { kind: 'unmounted', detail: `${path} is on another filesystem now: the workspace's filesystem was unmounted, or another was mounted over it; ${RESTART}` };
    default:
      return { kind: 'gone', detail: `the launcher outside the sandbox did not say whether ${path} is still there` };
  }
}
