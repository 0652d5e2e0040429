/**
 * The channel between the sandboxed server and its launcher outside, an inherited socket. It
 * carries the refusal log's lines (refusalChannel.ts) and the server's questions. For each
 * change, whether each granted path still names the folder the sandbox holds (workspaceWatch.ts):
 * the line `?`, answered `W` and one letter per workspace; and the launcher's own word when that
 * changes between questions, `S` and the letters, which reads go by. And, before the server
 * touches another writer's temporary files, whether that writer lives (temporary.ts): the line
 * `L` and the writer's tag, answered `L` and `a` (alive), `d` (gone) or `u` (cannot tell), which
 * the launcher judges from outside the sandbox's PID namespace.
 */
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { tagOf, writerOfTag, type Writer } from '../fs/index.js';
import { ACK, RefusalChannel } from '../refusals/refusalChannel.js';
import type { WorkspaceWatch } from '../tools/tool.js';
import { changeOfLetter } from './workspaceWatch.js';

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

/** The server's end: its refusal lines out (`refusals`), its questions out, acknowledgements and answers in. */
export class LauncherChannel {
  private readonly socket: net.Socket;
  /** Where the refusal log's lines go, each acknowledged once the launcher has written it. */
  readonly refusals: RefusalChannel;
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
    this.refusals = new RefusalChannel(this.socket);
    // The channel never keeps the server alive: it ends when its input does.
    this.socket.unref();
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => this.read(chunk));
    this.socket.on('error', onError);
    this.socket.on('close', () => {
      this.refusals.acknowledged(Number.MAX_SAFE_INTEGER);
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

  /**
   * The launcher's word on the workspaces at these real paths, in grant order: asked afresh
   * before a change, and otherwise its last word (all there until it has said anything).
   */
  workspaceWatch(realPaths: readonly string[]): WorkspaceWatch {
    return {
      changeOf: async (index, fresh) => {
        const letters = fresh ? await this.askWorkspaces() : (this.latestWorkspaces ?? 'o'.repeat(realPaths.length));
        return changeOfLetter(letters?.[index], realPaths[index]!);
      },
    };
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
    if (acks > 0) this.refusals.acknowledged(acks);
  }
}

/** What the launcher answers the server inside: the workspaces as it sees them, and whether a writer lives. */
export interface LauncherAnswers {
  readonly workspaces?: { status(): string; watch(notice: (letters: string) => void): void };
  readonly writerAlive?: (writer: Writer) => boolean | undefined;
}

/**
 * The launcher's end of the questions: from now on it says the workspaces' letters unasked
 * whenever they change. Returns what answers a line from inside when it is a question (true),
 * at once, not in the log's turn: an answer's letter sets it apart from acknowledgements.
 */
export function launcherAnswers(channel: Duplex, { workspaces, writerAlive }: LauncherAnswers): (line: string) => boolean {
  workspaces?.watch((letters) => {
    if (!channel.destroyed) channel.write(`${WORKSPACES_NOTICE}${letters}\n`);
  });
  return (line) => {
    if (line === WORKSPACES_QUESTION) {
      if (!channel.destroyed) channel.write(`${WORKSPACES_ANSWER}${workspaces?.status() ?? ''}\n`);
      return true;
    }
    if (line.startsWith(WRITER_QUESTION)) {
      const writer = writerOfTag(line.slice(WRITER_QUESTION.length));
      const alive = writer === undefined ? undefined : writerAlive?.(writer);
      const answer = alive === true ? WRITER_ANSWERS.alive : alive === false ? WRITER_ANSWERS.gone : WRITER_ANSWERS.unknown;
      if (!channel.destroyed) channel.write(`${WRITER_QUESTION}${answer}\n`);
      return true;
    }
    return false;
  };
}
