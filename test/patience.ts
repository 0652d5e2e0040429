// How long a test waits. A test never asserts how long something took (speed goals are measured
// by the benchmarks, docs/benchmarks.md); it waits for an event (an answer, an exit, a line in a
// file) and gives up only when the event is not coming. Each limit is written for a quiet
// machine, far above the slowest case seen there, and stretched by the machine's load when the
// wait begins: on two cores shared with other builds every step of a test is slower by about as
// much as processes outnumber cores.
import * as os from 'node:os';

/** Past this the machine is too busy for a longer limit to help; a wait that long is stuck. */
const MAX_STRETCH = 8;

/** How many times slower than a quiet machine this one runs now: runnable processes per core over the last minute, at least 1. */
function slowdown(): number {
  return Math.min(MAX_STRETCH, Math.max(1, os.loadavg()[0]! / os.availableParallelism()));
}

/** A limit of `quietMs` on a quiet machine, stretched by the load now. */
export function patience(quietMs: number): number {
  return Math.round(quietMs * slowdown());
}

/** Resolves once the input already waiting (a server's answer, a child's exit) has been read. */
function afterWaitingInput(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Calls `expire` once the stretched limit has passed and the input already waiting has been read:
 * a test process kept busy past the limit (a large fixture made synchronously, another test's
 * work) first reads an answer that came in time. `expire` is given the limit it waited. Returns
 * what cancels it.
 */
export function expireAfter(quietMs: number, expire: (limitMs: number) => void): () => void {
  let cancelled = false;
  const limit = patience(quietMs);
  const timer = setTimeout(() => {
    void afterWaitingInput().then(() => {
      if (!cancelled) expire(limit);
    });
  }, limit);
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

/** Polls until `check` stops throwing (a log line appended, a process gone), then returns its value. */
export async function eventually<T>(check: () => T, what: string, quietMs = 10_000): Promise<T> {
  const limit = patience(quietMs);
  const deadline = Date.now() + limit;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${limit} ms: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
      await afterWaitingInput();
    }
  }
}
