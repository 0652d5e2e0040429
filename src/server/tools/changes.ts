import { readFile, type Base } from '../fs/index.js';
import { timeOfDay } from '../readMemory.js';
import { serverRefusal } from '../refusals/refusal.js';
import type { Checked, Scope } from './tool.js';

type Refusal = Extract<Checked, { ok: false }>;

/** A refusal the scope records, as its own checks' refusals are. */
function recorded(scope: Scope, checked: Extract<Checked, { ok: true }>, code: 'ERR_CHANGED_SINCE_READ' | 'ERR_FILE_CHANGED', reason: string): Refusal {
  const refusal = { ...serverRefusal(code, reason), path: checked.path };
  scope.record(refusal, checked.path);
  return { ok: false, refusal, input: checked.path };
}

/** The file changed on disk since this connection last read it (or wrote it): the change would replace what the agent never saw. */
export function changedSinceRead(scope: Scope, checked: Extract<Checked, { ok: true }>, now: Base): Refusal | undefined {
  const at = scope.state.reads.changedSince(checked.path, now.kind === 'present' ? now.stats : undefined);
  if (at === undefined) return undefined;
  const what = now.kind === 'present' ? 'changed on disk' : 'was deleted';
  return recorded(scope, checked, 'ERR_CHANGED_SINCE_READ', `${scope.relative(checked.path)} ${what} since you read it at ${timeOfDay(at)}; read it again. Nothing was changed.`);
}

/** Another program saved the file while the change was being made: its save was kept. */
export function fileChanged(scope: Scope, checked: Extract<Checked, { ok: true }>, why: string): Refusal {
  return recorded(scope, checked, 'ERR_FILE_CHANGED', `${scope.relative(checked.path)} changed while it was being written (${why}); that version was kept and nothing of this change. Read it again.`);
}

/** Reads a checked file and remembers what was read; a file found missing is forgotten, as the agent now knows it is not there. */
export function readRemembered(scope: Scope, checked: Extract<Checked, { ok: true }>, maxBytes: number): Buffer {
  try {
    const { bytes, stats } = readFile(checked.target, maxBytes);
    scope.state.reads.remember(checked.path, stats);
    return bytes;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') scope.state.reads.forget(checked.path);
    throw error;
  }
}
