import type { RequestId } from '@modelcontextprotocol/server';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A value a response can carry as its id (JSON-RPC 2.0, section 4: a string or an integer). */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Reads a line too long to keep, as it streams past, for the one thing needed to answer it: the
 * top-level "id" (and whether a "method" is there, which makes an id-less message a notification).
 * Constant memory whatever the length; long strings are skipped with indexOf.
 */
export class IdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Backslashes ending the part of a string already skipped: a quote after an odd run is escaped. */
  private backslashes = 0;
  private expectKey = false;
  private key: number[] | undefined;
  private lastKey: string | undefined;
  private value: number[] | undefined;
  id: RequestId | undefined;
  sawMethod = false;

  feed(bytes: Uint8Array): void {
    let i = 0;
    while (i < bytes.length) {
      if (this.inString && this.key === undefined && this.value === undefined) {
        i = this.skipString(bytes, i);
        continue;
      }
      const byte = bytes[i]!;
      i += 1;
      if (this.inString) {
        const into = this.key ?? this.value!;
        if (into.length < 64) into.push(byte);
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.endString();
        continue;
      }
      switch (byte) {
        case QUOTE:
          this.inString = true;
          if (this.depth === 1 && this.expectKey) this.key = [QUOTE];
          else if (this.value !== undefined) this.value.push(byte);
          break;
        case 0x7b: // {
        case 0x5b: // [
          this.depth += 1;
          if (this.value !== undefined) this.value = undefined; // an object or array is no id
          this.expectKey = this.depth === 1 && byte === 0x7b;
          break;
        case 0x7d: // }
        case 0x5d: // ]
          if (this.depth === 1) this.endValue();
          this.depth -= 1;
          break;
        case 0x3a: // :
          if (this.depth === 1) {
            if (this.lastKey === 'id') this.value = [];
            if (this.lastKey === 'method') this.sawMethod = true;
            this.lastKey = undefined;
            this.expectKey = false;
          }
          break;
        case 0x2c: // ,
          if (this.depth === 1) {
            this.endValue();
            this.expectKey = true;
          }
          break;
        default:
          if (this.value !== undefined && this.depth === 1 && byte > 0x20 && this.value.length < 64) this.value.push(byte);
      }
    }
  }

  private skipString(bytes: Uint8Array, from: number): number {
    let at = from;
    for (;;) {
      const quote = bytes.indexOf(QUOTE, at);
      if (quote === -1) {
        let run = 0;
        while (run < bytes.length - from && bytes[bytes.length - 1 - run] === BACKSLASH) run += 1;
        this.backslashes = run === bytes.length - from ? this.backslashes + run : run;
        return bytes.length;
      }
      let run = 0;
      while (quote - 1 - run >= from && bytes[quote - 1 - run] === BACKSLASH) run += 1;
      if (quote - run === from) run += this.backslashes;
      this.backslashes = 0;
      if (run % 2 === 0) {
        this.inString = false;
        return quote + 1;
      }
      at = quote + 1;
    }
  }

  private endString(): void {
    this.inString = false;
    if (this.key !== undefined) {
      try {
        this.lastKey = JSON.parse(Buffer.from(this.key).toString('utf8')) as string;
      } catch {
        this.lastKey = undefined;
      }
      this.key = undefined;
    }
  }

  private endValue(): void {
    if (this.value === undefined) return;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(this.value).toString('utf8'));
      if (isRequestId(parsed)) this.id = parsed;
    } catch {
      // not an id a response could carry
    }
    this.value = undefined;
  }
}
