/**
 * The refusal log across the sandbox wall. The server inside never sees the log's files: it sends
 * each line over an inherited socket to its launcher, which checks the line is a refusal record,
 * writes it with the same bounds (line size, rotation) and answers one byte per line once it is on
 * disk, so that a refusal's line is still written before its answer. The same socket carries the
 * server's questions to its launcher (launch/launcherChannel.ts).
 */
import type { Duplex, Writable } from 'node:stream';
import { REFUSAL_CODES } from '../../core/codes.js';
import { MAX_LOG_LINE_BYTES, MAX_QUEUED_LINES, type LogSink, type RefusalLog, type RefusalRecord } from './refusalLog.js';

/** The launcher's word that a line is on disk. */
export const ACK = '\n';

/** The server's end: lines out, and the acknowledgements the launcher's channel reads for them. */
export class RefusalChannel implements LogSink {
  private readonly waiting: { lines: number; done: () => void }[] = [];

  constructor(private readonly socket: Writable) {}

  write(text: string, lines: number): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    return new Promise((done) => {
      this.waiting.push({ lines, done });
      this.socket.write(text);
    });
  }

  /** `count` more lines are on disk; all of them once the channel has closed. */
  acknowledged(count: number): void {
    let left = count;
    while (left > 0 && this.waiting.length > 0) {
      const first = this.waiting[0]!;
      const taken = Math.min(left, first.lines);
      first.lines -= taken;
      left -= taken;
      if (first.lines === 0) {
        this.waiting.shift();
        first.done();
      }
    }
  }
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** A line from inside as a refusal record, or a note, or undefined: the launcher takes nothing else. */
export function parseChannelLine(line: string): { record: RefusalRecord } | { note: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).length === 2 && isString(v.time) && isString(v.note)) return { note: v.note };
  const shaped =
    isString(v.tool) &&
    isString(v.time) &&
    (v.workspaceUri === null || isString(v.workspaceUri)) &&
    isString(v.input) &&
    isString(v.code) &&
    // A refusal by one of the codes, a path that named nothing, or a secret asked about.
    ((v.event === undefined && Object.hasOwn(REFUSAL_CODES, v.code)) || (v.event === 'not-found' && v.code === 'ENOENT') || (v.event === 'asked' && v.code === 'ERR_SECRET')) &&
    isString(v.stage) &&
    isString(v.reason) &&
    (v.trace === null || (typeof v.trace === 'object' && !Array.isArray(v.trace))) &&
    (v.truncated === undefined || v.truncated === true);
  return shaped ? { record: v as unknown as RefusalRecord } : undefined;
}

/**
 * The launcher's end: reads lines from the server inside and writes each through `log`, which
 * bounds them again; a line too long or not a refusal record is dropped and counted in a note.
 * Reading pauses while the log has many lines to write, so a flood waits in the socket. A line
 * `answered` takes is one of the server's questions (launcherAnswers), not a line of the log.
 */
export function relayRefusals(channel: Duplex, log: RefusalLog, answered: (line: string) => boolean = () => false): void {
  let pending = '';
  let discarding = false;
  let rejected = 0;
  let unwritten = 0;
  let acknowledgements: Promise<void> = Promise.resolve();

  const take = (line: string) => {
    if (answered(line)) return;
    const parsed = parseChannelLine(line);
    if (parsed === undefined) rejected += 1;
    const written = parsed === undefined ? Promise.resolve() : 'note' in parsed ? log.note(parsed.note) : log.append(parsed.record);
    unwritten += 1;
    if (unwritten >= MAX_QUEUED_LINES) channel.pause();
    acknowledgements = acknowledgements
      .then(() => written)
      .then(() => {
        unwritten -= 1;
        if (unwritten < MAX_QUEUED_LINES / 2) channel.resume();
        if (!channel.destroyed) channel.write(ACK);
      });
  };

  channel.setEncoding('utf8');
  channel.on('data', (chunk: string) => {
    let text = chunk;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n')) {
      const line = pending + text.slice(0, end);
      text = text.slice(end + 1);
      pending = '';
      if (discarding) {
        discarding = false;
        rejected += 1;
        // Still one line from inside: acknowledged like the rest, in its turn.
        acknowledgements = acknowledgements.then(() => void (channel.destroyed || channel.write(ACK)));
      } else take(line);
    }
    if (!discarding) pending += text;
    if (pending.length > MAX_LOG_LINE_BYTES) {
      pending = '';
      discarding = true;
    }
    if (rejected > 0) {
      void log.note(`${rejected} lines from the sandboxed server were not refusal records and were not logged`);
      rejected = 0;
    }
  });
  channel.on('error', () => undefined);
}
