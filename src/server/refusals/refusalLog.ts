import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { visible, type RefusalCode, type Trace } from '../../core/index.js';

/** One line of the refusal log, opening with the tool that was refused. The extension's panel reads these. */
export interface RefusalRecord {
  readonly tool: string;
  /**
   * Absent for a refusal. `not-found`: the path was inside and allowed, but nothing was there
   * (ENOENT), which is how a case, Unicode or encoding slip usually shows. `asked`: a path the
   * secrets policy holds, about which the person was asked (ERR_SECRET); should they refuse, the
   * refusal follows as its own line.
   */
  readonly event?: 'not-found' | 'asked';
  readonly time: string;
  readonly workspaceUri: string | null;
  readonly input: string;
  readonly code: RefusalCode | 'ENOENT';
  readonly stage: string;
  readonly reason: string;
  /** Carries `nearMisses` when the path was refused or outside and nearly named an existing entry. */
  readonly trace: Trace | null;
  /** Present when strings of the record were cut (a huge refused input) or its trace was left out. */
  readonly truncated?: true;
}

export const DEFAULT_REFUSAL_LOG_BYTES = 1024 * 1024;

/** Each string of a line (the input, and every copy of it in the trace) is cut past this. */
export const MAX_LOG_FIELD_CHARS = 2048;
/** A line's bytes: at most this, and at most half the rotation size, so a line always fits a rotated log. */
export const MAX_LOG_LINE_BYTES = 64 * 1024;
/** Lines waiting to be written; past either bound a refusal is counted instead, and the count written as a note. */
export const MAX_QUEUED_LINES = 1000;
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
/** How long an answer waits for its refusal's line to be written. */
export const MAX_LOG_WAIT_MS = 1000;

const MARKER = (left: number) => `…[${left} more characters not logged]`;

function cutStrings(value: unknown, max: number, cut: { any: boolean }): unknown {
  if (typeof value === 'string') {
    if (value.length <= max) return value;
    cut.any = true;
    return `${value.slice(0, max)}${MARKER(value.length - max)}`;
  }
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, max, cut));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cutStrings(inner, max, cut)]));
  }
  return value;
}

/**
 * One JSON line of at most `maxBytes`: strings are cut first; if that is not enough the trace is
 * left out, then the remaining strings are cut harder. The full trace of a huge input is worth
 * less than a log that stays readable.
 */
export function boundedLine(given: RefusalRecord, maxBytes: number): string {
  // Keys in a fixed order, the tool first, whatever order the record was built in.
  const { tool, event, time, workspaceUri, input, code, stage, reason, trace } = given;
  const record: RefusalRecord = { tool, ...(event !== undefined ? { event } : {}), time, workspaceUri, input, code, stage, reason, trace };
  for (const [max, keepTrace] of [[MAX_LOG_FIELD_CHARS, true], [MAX_LOG_FIELD_CHARS, false], [256, false], [32, false]] as const) {
    const cut = { any: false };
    const bounded = cutStrings(keepTrace ? record : { ...record, trace: null }, max, cut) as RefusalRecord;
    // Hidden characters as JSON escapes too: read back the same, and the line cannot drive a terminal or an editor.
    const line = visible(JSON.stringify(cut.any || !keepTrace ? { ...bounded, truncated: true } : bounded));
    if (Buffer.byteLength(line) + 1 <= maxBytes) return `${line}\n`;
  }
  return `${JSON.stringify({ tool, ...(event !== undefined ? { event } : {}), time, workspaceUri: null, input: '', code, stage, reason: '', trace: null, truncated: true })}\n`;
}

/** Where the log's lines go: a file on disk, or the channel to the launcher that writes one. */
export interface LogSink {
  /** Writes `text`, which holds `lines` whole lines; resolves once they are written (or reported lost). */
  write(text: string, lines: number): Promise<void>;
}

interface Queued {
  readonly line: string;
  readonly done: () => void;
}

/**
 * An append-only JSON-lines log, bounded by rotating to `<file>.1` when the next lines would pass
 * the limit. Lines are bounded in size, and the queue of lines waiting to be written is bounded:
 * past it, refusals are counted and the count is written as a note line when there is room again.
 * Lines are written in batches by one writer; `record` resolves once its line is on disk (or
 * dropped), and `settled` once every line recorded so far is. A failure to write is reported to
 * `onError` and never fails the call that was refused.
 */
export class RefusalLog {
  private queue: Queued[] = [];
  private queuedBytes = 0;
  private dropped = 0;
  private writing: Promise<void> | undefined;
  private last: Promise<void> = Promise.resolve();
  /** Lines queued or being written: none means there is nothing to wait for. */
  private unwritten = 0;
  private readonly lineBytes: number;

  private readonly sink: LogSink | undefined;

  /** `file` is where the lines land; `sink` writes them, by default to that file, rotating past `maxBytes`. */
  constructor(
    readonly file: string | undefined,
    private readonly maxBytes: number,
    private readonly onError: (error: Error) => void,
    sink?: LogSink,
  ) {
    this.lineBytes = Math.min(MAX_LOG_LINE_BYTES, Math.floor(maxBytes / 2));
    this.sink = sink ?? (file === undefined ? undefined : new LogFile(file, maxBytes, onError));
  }

  /** Records one refusal, or a question asked (its `event`), stamped now. */
  record(tool: string, workspaceUri: string | null, input: string, refusal: Pick<RefusalRecord, 'code' | 'stage' | 'reason' | 'trace'> & { readonly event?: 'asked' | undefined }): Promise<void> {
    return this.append({
      tool,
      ...(refusal.event !== undefined ? { event: refusal.event } : {}),
      time: new Date().toISOString(),
      workspaceUri,
      input,
      code: refusal.code,
      stage: refusal.stage,
      reason: refusal.reason,
      trace: refusal.trace,
    });
  }

  /** Records a path that was allowed but held nothing, with the entries it nearly named in its trace. */
  recordNotFound(tool: string, workspaceUri: string, input: string, reason: string, trace: Trace): Promise<void> {
    // realpath is the stage that looks at the disk, and found nothing there.
    return this.append({ tool, event: 'not-found', time: new Date().toISOString(), workspaceUri, input, code: 'ENOENT', stage: 'realpath', reason, trace });
  }

  append(record: RefusalRecord): Promise<void> {
    if (this.sink === undefined) return Promise.resolve();
    let line: string;
    try {
      line = boundedLine(record, this.lineBytes);
    } catch (error) {
      this.onError(error as Error);
      return Promise.resolve();
    }
    return this.enqueue(line);
  }

  /** A line that is no refusal: a note of what the log could not hold, cut to a field's length. */
  note(text: string): Promise<void> {
    if (this.sink === undefined) return Promise.resolve();
    const cut = { any: false };
    return this.enqueue(`${visible(JSON.stringify({ time: new Date().toISOString(), note: cutStrings(text, MAX_LOG_FIELD_CHARS, cut) }))}\n`);
  }

  private enqueue(line: string): Promise<void> {
    if (this.queue.length >= MAX_QUEUED_LINES || this.queuedBytes + line.length > MAX_QUEUED_BYTES) {
      this.dropped += 1;
      return Promise.resolve();
    }
    this.unwritten += 1;
    this.last = new Promise<void>((done) => {
      this.queue.push({
        line,
        done: () => {
          this.unwritten -= 1;
          done();
        },
      });
      this.queuedBytes += line.length;
      this.writing ??= this.drain();
    });
    return this.last;
  }

  /**
   * Resolves once every line recorded before this call has been written, dropped or failed (lines
   * are written in order), or after `waitMs`: a log on a stalled disk delays answers, never holds them.
   */
  settled(waitMs = MAX_LOG_WAIT_MS): Promise<void> {
    if (this.unwritten === 0) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    return Promise.race([this.last, late]).finally(() => clearTimeout(timer));
  }

  private async drain(): Promise<void> {
    const sink = this.sink!;
    try {
      while (this.queue.length > 0 || this.dropped > 0) {
        const batch = this.queue;
        this.queue = [];
        this.queuedBytes = 0;
        const lines = batch.map((entry) => entry.line);
        if (this.dropped > 0) {
          lines.unshift(`${JSON.stringify({ time: new Date().toISOString(), note: `${this.dropped} refusals not logged: they came faster than the log could be written` })}\n`);
          this.dropped = 0;
        }
        // In parts of at most the rotation size, so rotation keeps the log near its limit.
        let part = '';
        let partBytes = 0;
        let partLines = 0;
        for (const line of lines) {
          const bytes = Buffer.byteLength(line);
          if (part !== '' && partBytes + bytes > this.maxBytes) {
            await sink.write(part, partLines);
            part = '';
            partBytes = 0;
            partLines = 0;
          }
          part += line;
          partBytes += bytes;
          partLines += 1;
        }
        if (part !== '') await sink.write(part, partLines);
        for (const entry of batch) entry.done();
      }
    } finally {
      this.writing = undefined;
    }
  }
}

/** The log on disk: appended to, and rotated to `<file>.1` when the next lines would pass `maxBytes`. */
export class LogFile implements LogSink {
  constructor(
    readonly file: string,
    private readonly maxBytes: number,
    private readonly onError: (error: Error) => void,
  ) {}

  async write(text: string): Promise<void> {
    const file = this.file;
    try {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const size = await fsp.stat(file).then((stats) => stats.size, () => 0);
      // A failed rotation is reported, and the newest lines are still written.
      if (size > 0 && size + Buffer.byteLength(text) > this.maxBytes) await this.rotate(file).catch((error: Error) => this.onError(error));
      await fsp.appendFile(file, text, { mode: 0o600 });
    } catch (error) {
      this.onError(error as Error);
    }
  }

  /**
   * Moves the log to `<file>.1`. Where the files cannot be renamed (a log the user may append to in
   * a folder they may not change, a file that is a mount point: EACCES, EBUSY, EXDEV, EROFS), their
   * bytes are copied over `<file>.1` and the log is emptied instead. Should the copy fail, the log
   * is still emptied (and the failure reported): it must stay bounded.
   */
  private async rotate(file: string): Promise<void> {
    try {
      await fsp.rename(file, `${file}.1`);
      return;
    } catch {
      // copied below
    }
    try {
      await fsp.writeFile(`${file}.1`, await fsp.readFile(file), { mode: 0o600 });
    } catch (error) {
      this.onError(error as Error);
    }
    await fsp.truncate(file, 0);
  }
}
