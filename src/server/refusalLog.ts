import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { RefusalCode, Trace } from '../core/index.js';

/** One line of the refusal log. The extension's panel reads these. */
export interface RefusalRecord {
  readonly time: string;
  readonly tool: string;
  readonly workspaceUri: string | null;
  readonly input: string;
  readonly code: RefusalCode;
  readonly stage: string;
  readonly reason: string;
  readonly trace: Trace | null;
}

export const DEFAULT_REFUSAL_LOG_BYTES = 1024 * 1024;

/**
 * An append-only JSON-lines log, bounded by rotating to `<file>.1` when the next line would pass
 * the limit. Appends are serialised; a failure to write is reported to `onError` and never fails
 * the call that was refused.
 */
export class RefusalLog {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string | undefined,
    private readonly maxBytes: number,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Records one refusal, stamped now. */
  record(tool: string, workspaceUri: string | null, input: string, refusal: Pick<RefusalRecord, 'code' | 'stage' | 'reason' | 'trace'>): Promise<void> {
    return this.append({
      time: new Date().toISOString(),
      tool,
      workspaceUri,
      input,
      code: refusal.code,
      stage: refusal.stage,
      reason: refusal.reason,
      trace: refusal.trace,
    });
  }

  append(record: RefusalRecord): Promise<void> {
    if (this.file === undefined) return Promise.resolve();
    const file = this.file;
    const line = `${JSON.stringify(record)}\n`;
    this.queue = this.queue.then(async () => {
      try {
        await fsp.mkdir(path.dirname(file), { recursive: true });
        const size = await fsp.stat(file).then((stats) => stats.size, () => 0);
        // A failed rotation is reported, and the newest line is still written.
        if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) await this.rotate(file).catch((error: Error) => this.onError(error));
        await fsp.appendFile(file, line, { mode: 0o600 });
      } catch (error) {
        this.onError(error as Error);
      }
    });
    return this.queue;
  }

  /**
   * Moves the log to `<file>.1`. Inside the sandbox both are bind-mounted files, which cannot be
   * renamed (EBUSY, EXDEV, or EROFS in the read-only folder around them): their bytes are copied
   * over `<file>.1` and the log is emptied instead. Should the copy fail, the log is still
   * emptied (and the failure reported): it must stay bounded.
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
