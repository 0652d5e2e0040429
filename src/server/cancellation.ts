// How a call's cancellation reaches work at every layer: the walk in fs/, a tool, the gates.

/** What work needs of a cancellation: an AbortSignal, or a flag the direct path sets. */
export interface CancelSignal {
  readonly aborted: boolean;
}

/** Work runs synchronously for this long before it lets the event loop in (a cancellation, other calls). */
export const SLICE_MS = 20;

/** The call was cancelled by its client: it stops, and its answer is never sent. */
export class CancelledError extends Error {
  constructor() {
    super('The request was cancelled.');
  }
}
