import { setImmediate as nextTurn } from 'node:timers/promises';
import { CancelledError, SLICE_MS, type CancelSignal } from '../cancellation.js';

export { CancelledError, SLICE_MS };

/** A `notifications/progress` payload without its token (MCP, "Progress"). */
export interface ProgressReport {
  readonly progress: number;
  readonly total?: number;
  readonly message: string;
}

/** What one call's caller gave it besides its arguments: a way to be cancelled, and a progress token's sender. */
export interface CallContext {
  readonly signal: CancelSignal | undefined;
  /** Sends one progress notification; absent when the request carried no progress token. */
  readonly sendProgress?: ((report: ProgressReport) => void) | undefined;
}

/** Progress notifications of one call are at least this far apart, however fast its work goes. */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * A long call's view of its caller. `progress` reports are rate-limited to one per
 * PROGRESS_INTERVAL_MS (a `final` one always goes out, so the client sees where the work ended),
 * strictly increasing as MCP requires, and never sent once the call is cancelled.
 */
export class CallControl {
  private sent = -1;
  private sentAt = 0;
  private sliceStart = Date.now();

  constructor(private readonly call: CallContext | undefined) {}

  get signal(): CancelSignal | undefined {
    return this.call?.signal;
  }

  get cancelled(): boolean {
    return this.call?.signal?.aborted === true;
  }

  progress(progress: number, total: number | undefined, message: string, final = false): void {
    const send = this.call?.sendProgress;
    if (send === undefined || this.cancelled || progress <= this.sent) return;
    const now = Date.now();
    if (!final && this.sent >= 0 && now - this.sentAt < PROGRESS_INTERVAL_MS) return;
    this.sent = progress;
    this.sentAt = now;
    send(total === undefined ? { progress, message } : { progress, total, message });
  }

  /**
   * The last moment a change can stop, just before it is made (what follows runs without waiting
   * on anything): the event loop is let in twice, so a cancel already sent is read in between,
   * and a cancelled call throws CancelledError with nothing changed. After this point the change
   * is made, whatever arrives.
   */
  async commitPoint(): Promise<void> {
    if (this.call?.signal === undefined) return;
    await nextTurn();
    await nextTurn();
    if (this.cancelled) throw new CancelledError();
  }

  /** Lets the event loop in once SLICE_MS of work has run; throws CancelledError when the call was cancelled meanwhile. */
  async turn(): Promise<void> {
    if (Date.now() - this.sliceStart < SLICE_MS) return;
    await nextTurn();
    this.sliceStart = Date.now();
    if (this.cancelled) throw new CancelledError();
  }
}
