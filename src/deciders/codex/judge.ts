// A change in workspace-write meets two checks. apply_patch is first checked by Codex itself, on
// the path as written against the roots as written; what passes is written inside the sandbox
// (bubblewrap on Linux), which binds the roots' real paths writable and the rest read-only. A
// shell command meets the sandbox alone.
import type { SplitPath } from '../../core/index.js';
import type { Landing } from './paths.js';
import { patchCheck, sandboxCheck, type Check, type WritableRoot } from './roots.js';

export type ChangeTool = 'apply_patch' | 'shell-write';

export interface Judged {
  readonly allowed: boolean;
  /** Codex's own check, for apply_patch. */
  readonly patch?: Check;
  /** The sandbox's, when the change got that far. */
  readonly sandbox?: Check;
  /** A shell's write into a folder that is not there fails before the sandbox is asked. */
  readonly noFolder?: boolean;
}

export function judgeChange(tool: ChangeTool, written: SplitPath, land: Landing, roots: readonly WritableRoot[]): Judged {
  if (tool === 'apply_patch') {
    const patch = patchCheck(written, roots);
    if (!patch.writable) return { allowed: false, patch };
    const sandbox = sandboxCheck(land.real, roots);
    return { allowed: sandbox.writable, patch, sandbox };
  }
  const sandbox = sandboxCheck(land.real, roots);
  // A protected folder is there in the sandbox, read-only and empty, even when it is not on disk.
  const folder = sandbox.protectedBy?.folder;
  const masked = folder !== undefined && folder.prefix === land.real.prefix && folder.names.join('/') === land.real.names.slice(0, -1).join('/');
  if (sandbox.writable || land.folderExists || masked) return { allowed: sandbox.writable, sandbox };
  return { allowed: true, sandbox, noFolder: true };
}
