/**
 * The refusal log across the sandbox wall. The server inside never sees the log's files: it sends
 * each line over an inherited socket to its launcher, which checks the line is a refusal record,
 * writes it with the same bounds (line size, rotation) and answers one byte per line once it is on
 * disk, so that a refusal's line is still written before its answer. The same channel carries the
 * server's question, for each change, of whether each granted path still names the folder the
 * sandbox holds (workspaceWatch.ts): the line `?`, answered `W` and one letter per workspace; and
 * the launcher's own word when that changes between questions, `S` and the letters, which reads
 * go by. And, before the server touches another writer's temporary files, whether that writer
 * lives (temporary.ts): the line `L` and the writer's tag, answered `L` and `a` (alive), `d`
 * (gone) or `u` (cannot tell), which the launcher judges from outside the sandbox's PID namespace.
 */
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { REFUSAL_CODES } from '../../core/codes.js';
import { tagOf, writerOfTag, type Writer } from '../fs/index.js';
import { MAX_LOG_LINE_BYTES, MAX_QUEUED_LINES, type LogSink, type RefusalLog, type RefusalRecord } from './refusalLog.js';

const ACK = '\n';
const WORKSPACES_QUESTION = '?';
const WORKSPACES_ANSWER = 'W';
const WORKSPACES_NOTICE = 'S';
const WRITER_QUESTION = 'L';
const WRITER_ANSWERS = { alive: 'a', gone: 'd', unknown: 'u' } as const;
/** How long the server waits for the launcher's answer to a question. */
const ANSWER_MS = 5_000;

/** Questions answered in the order asked, each settled at most once: by its answer, or undefined past ANSWER_MS or once the channel closes. */
class Questions {
  private readonly waiting: ((answer: string | undefined) => void)[] = [];

  ask(socket: net.Socket, line: string): Promise<string | undefined> {
    if (socket.destroyed) return Promise.resolve(undefined);
    return new Promise((answered) => {
      let settled = false;
      const settle = (answer: string | undefined) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        answered(answer);
      };
      // One that times out keeps its place in the queue, and its answer is dropped.
      this.waiting.push(settle);
      const timer = setTimeout(() => settle(undefined), ANSWER_MS);
      timer.unref();
      socket.write(`${line}\n`);
    });
  }

  answer(answer: string | undefined): void {
    this.waiting.shift()?.(answer);
  }

  close(): void {
    for (const settle of this.waiting.splice(0)) settle(undefined);
  }
}

/** The server's end: lines out, acknowledgements in. */
export class RefusalChannel implements LogSink {
  private readonly socket: net.Socket;
  private readonly waiting: { lines: number; done: () => void }[] = [];
  private readonly workspaces = new Questions();
  private readonly writers = new Questions();
  /** The answer or notice being read, when its letter has come and its newline not yet. */
  private answer: string | undefined;
  private answerKind = WORKSPACES_ANSWER;
  /** The launcher's last word on the workspaces, unasked; undefined until it has said anything. */
  latestWorkspaces: string | undefined;

  /** `onClose`: the launcher is gone (or its end of the channel is). */
  constructor(fd: number, onError: (error: Error) => void, onClose?: () => void) {
    this.socket = new net.Socket({ fd, readable: true, writable: true });
    // The channel never keeps the server alive: it ends when its input does.
    this.socket.unref();
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => this.read(chunk));
    this.socket.on('error', onError);
    this.socket.on('close', () => {
      this.acknowledged(Number.MAX_SAFE_INTEGER);
      this.workspaces.close();
      this.writers.close();
      onClose?.();
    });
  }

  /**
   * The launcher's letters for the workspaces, in grant order; undefined when it cannot answer,
   * or has not within ANSWER_MS (the call is then refused, never left hanging).
   */
  askWorkspaces(): Promise<string | undefined> {
    return this.workspaces.ask(this.socket, WORKSPACES_QUESTION);
  }

  /** Whether a writer lives, as the launcher sees it from outside; undefined when it cannot tell. */
  async askWriter(writer: Writer): Promise<boolean | undefined> {
    const answer = await this.writers.ask(this.socket, `${WRITER_QUESTION}${tagOf(writer)}`);
    return answer === WRITER_ANSWERS.alive ? true : answer === WRITER_ANSWERS.gone ? false : undefined;
  }

  private read(chunk: string): void {
    let acks = 0;
    for (const char of chunk) {
      if (this.answer !== undefined) {
        if (char !== '\n') this.answer += char;
        else {
          if (this.answerKind === WRITER_QUESTION) this.writers.answer(this.answer);
          else {
            if (this.answerKind === WORKSPACES_ANSWER) this.workspaces.answer(this.answer);
            this.latestWorkspaces = this.answer;
          }
          this.answer = undefined;
        }
      } else if (char === WORKSPACES_ANSWER || char === WORKSPACES_NOTICE || char === WRITER_QUESTION) {
        this.answer = '';
        this.answerKind = char;
      } else if (char === ACK) acks += 1;
    }
    if (acks > 0) this.acknowledged(acks);
  }

  write(text: string, lines: number): Promise<void> {
    if (this.socket.destroyed) return Promise.resolve();
    return new Promise((done) => {
      this.waiting.push({ lines, done });
      this.socket.write(text);
    });
  }

  private acknowledged(count: number): void {
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
    // A refusal by one of the codes, or a path that named nothing.
    ((v.event === undefined && Object.hasOwn(REFUSAL_CODES, v.code)) || (v.event === 'not-found' && v.code === 'ENOENT')) &&
    isString(v.stage) &&
    isString(v.reason) &&
    (v.trace === null || (typeof v.trace === 'object' && !Array.isArray(v.trace))) &&
    (v.truncated === undefined || v.truncated === true);
  return shaped ? { record: v as unknown as RefusalRecord } : undefined;
}

/** What the launcher answers the server inside: the workspaces as it sees them, and whether a writer lives. */
export interface LauncherAnswers {
  readonly workspaces?: { status(): string; watch(notice: (letters: string) => void): void };
  readonly writerAlive?: (writer: Writer) => boolean | undefined;
}

/**
 * The launcher's end: reads lines from the server inside and writes each through `log`, which
 * bounds them again; a line too long or not a refusal record is dropped and counted in a note.
 * Reading pauses while the log has many lines to write, so a flood waits in the socket. A
 * question is answered from `answers`.
 */
export function relayRefusals(channel: Duplex, log: RefusalLog, { workspaces, writerAlive }: LauncherAnswers = {}): void {
  let pending = '';
  let discarding = false;
  let rejected = 0;
  let unwritten = 0;
  let acknowledgements: Promise<void> = Promise.resolve();

  const take = (line: string) => {
    // Answered at once, not in the log's turn: the answer's W sets it apart from acknowledgements.
    if (line === WORKSPACES_QUESTION) {
      if (!channel.destroyed) channel.write(`${WORKSPACES_ANSWER}${workspaces?.status() ?? ''}\n`);
      return;
    }
    if (line.startsWith(WRITER_QUESTION)) {
      const writer = writerOfTag(line.slice(WRITER_QUESTION.length));
      const alive = writer === undefined ? undefined : writerAlive?.(writer);
      const answer = alive === true ? WRITER_ANSWERS.alive : alive === false ? WRITER_ANSWERS.gone : WRITER_ANSWERS.unknown;
      if (!channel.destroyed) channel.write(`${WRITER_QUESTION}${answer}\n`);
      return;
    }
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

  workspaces?.watch((letters) => {
    if (!channel.destroyed) channel.write(`${WORKSPACES_NOTICE}${letters}\n`);
  });
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
