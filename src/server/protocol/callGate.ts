import type { CancelSignal } from '../cancellation.js';
import { MAX_HEAVY_CALLS, MAX_LIGHT_CALLS, MAX_LONG_CALLS } from '../limits.js';

export type { CancelSignal };

/** The call was cancelled while it waited for its turn: it never ran. */
export class CancelledWhileWaiting extends Error {
  constructor() {
    super('The request was cancelled before it ran.');
  }
}

/**
 * Lets a few calls run at once and queues the rest, first come first served. A call also
 * waits while the output is congested (answers the client has not read yet), so what is held in
 * memory is a few answers being built plus a bounded backlog, however many calls were sent.
 * Turns are handed on from a fresh macrotask, after the finished call's answer has been written.
 */
export class CallGate {
  private running = 0;
  private readonly waiting: { start: () => void; signal: CancelSignal | undefined }[] = [];
  private congested: () => boolean = () => false;
  private scheduled = false;

  constructor(private readonly slots: number) {}

  /** Tells the gate how to see the output backlog; call `wake()` when it drains. */
  watchOutput(congested: () => boolean): void {
    this.congested = congested;
  }

  async run<T>(work: () => Promise<T>, signal?: CancelSignal): Promise<T> {
    if (this.waiting.length === 0 && this.hasRoom()) {
      // A free slot and no one ahead: the turn is taken at once.
      if (signal?.aborted) throw new CancelledWhileWaiting();
      this.running += 1;
    } else {
      await new Promise<void>((resolve, reject) => {
        const start = () => (signal?.aborted ? reject(new CancelledWhileWaiting()) : resolve());
        this.waiting.push({ start, signal });
        this.pump();
      });
    }
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.wake();
    }
  }

  /** Starts waiting calls on the next macrotask, if slots are free and the output is not congested. */
  wake(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** A slot is free and the output is not congested. */
  private hasRoom(): boolean {
    return this.running < this.slots && !this.congested();
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      // A cancelled call leaves the queue without taking a slot.
      if (next.signal?.aborted) {
        this.waiting.shift();
        next.start();
        continue;
      }
      if (!this.hasRoom()) return;
      this.waiting.shift();
      this.running += 1;
      next.start();
    }
  }
}

/** One gate of each for the process: a connection's calls share them. */
export const heavyCalls = new CallGate(MAX_HEAVY_CALLS);
export const lightCalls = new CallGate(MAX_LIGHT_CALLS);
export const longCalls = new CallGate(MAX_LONG_CALLS);
