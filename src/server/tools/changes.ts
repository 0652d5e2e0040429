import { quotedIfHidden } from '../../core/index.js';
import { readFile, readLineWindow, type Base, type LineWindow } from '../fs/index.js';

/** A file's stat as the file layer reads it. */
type FileStats = ReturnType<typeof readFile>['stats'];
import { timeOfDay } from '../readMemory.js';
import { serverRefusal, type ServerCode } from '../refusals/refusal.js';
import { decodeText } from '../text.js';
import { OPERATIONS } from '../../shared/operations.js';
import type { Checked, Scope } from './tool.js';

type Refusal = Extract<Checked, { ok: false }>;

/** A refusal the scope records, as its own checks' refusals are, naming the input as it was sent. */
function recorded(scope: Scope, checked: Extract<Checked, { ok: true }>, code: ServerCode, reason: string): Refusal {
  const refusal = { ...serverRefusal(code, reason), path: checked.path };
  scope.record(refusal, checked.trace.input);
  return { ok: false, refusal, input: checked.trace.input };
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

/** The file is not text (text.ts): a text tool neither shows nor changes it. */
export function notText(scope: Scope, checked: Extract<Checked, { ok: true }>, why: string): Refusal {
  const what = OPERATIONS[scope.tool].changes
    ? `${scope.tool} changes only text, and nothing was changed; read_media_file reads it, as base64`
    : 'Read it with read_media_file, as base64';
  return recorded(scope, checked, 'ERR_NOT_TEXT', `${quotedIfHidden(scope.relative(checked.path))} is not text: ${why}. ${what}.`);
}

/**
 * Reads a checked file (or part of it) as text and remembers what was read. A file found missing
 * is forgotten, as the agent now knows it is not there; bytes that are not text are refused, and
 * not remembered, as the agent saw none of them.
 */
function readRemembered(scope: Scope, checked: Extract<Checked, { ok: true }>, read: () => { bytes: Buffer; stats: FileStats }): { ok: true; text: string } | Refusal {
  let got;
  try {
    got = read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') scope.state.reads.forget(checked.path);
    throw error;
  }
  const decoded = decodeText(got.bytes);
  if ('notText' in decoded) return notText(scope, checked, decoded.notText);
  scope.state.reads.remember(checked.path, got.stats);
  return { ok: true, text: decoded.text };
}

export function readText(scope: Scope, checked: Extract<Checked, { ok: true }>, maxBytes: number): { ok: true; text: string } | Refusal {
  return readRemembered(scope, checked, () => readFile(checked.target, maxBytes));
}

/** A window of a checked file's lines: its own bytes must be text. */
export function readWindow(
  scope: Scope,
  checked: Extract<Checked, { ok: true }>,
  window: LineWindow,
  maxBytes: number,
): { ok: true; text: string; firstLine: number } | { ok: true; pastEnd: number } | Refusal {
  let firstLine = 1;
  let pastEnd: number | undefined;
  const read = readRemembered(scope, checked, () => {
    const got = readLineWindow(checked.target, window, maxBytes);
    if (got.kind === 'past-end') {
      pastEnd = got.total;
      return { bytes: Buffer.alloc(0), stats: got.stats };
    }
    firstLine = got.firstLine;
    return got;
  });
  if (!read.ok) return read;
  return pastEnd !== undefined ? { ok: true, pastEnd } : { ok: true, text: read.text, firstLine };
}
