import fs, { type BigIntStats } from 'node:fs';
import type { CheckedPath } from './anchor.js';
import { fsError } from './errors.js';
import { inFolder } from './anchor.js';

/**
 * Lines of a file, read without the rest of it: a window of a 1 GiB log costs the window and one
 * chunk, however far in it lies. A line ends at `\n` (a CR before it stays in the line); a final
 * newline ends the last line rather than starting another.
 */
export interface LineWindow {
  /** Lines skipped from the start; negative: the window is that many lines from the end. */
  readonly offset: number;
  /** Lines in the window at most; undefined: to the end. */
  readonly limit: number | undefined;
  /** Count the lines before the window, to number them (a negative offset then reads the file through). */
  readonly numbered: boolean;
}

export type WindowRead =
  | { readonly kind: 'window'; readonly bytes: Buffer; readonly firstLine: number; readonly stats: BigIntStats }
  /** The window starts past the last line: the file has `total` lines. */
  | { readonly kind: 'past-end'; readonly total: number; readonly stats: BigIntStats };

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** Reads the window of lines of a checked regular file, at most `maxBytes` of it (EFBIG past them). */
export function readLineWindow(target: CheckedPath, window: LineWindow, maxBytes: number): WindowRead {
  return inFolder(target, (folder, name) => {
    const { fd, stats } = folder.openFile(name);
    try {
      return windowOf(fd, Number(stats.size), window, maxBytes, target.path, stats);
    } finally {
      fs.closeSync(fd);
    }
  });
}

function windowOf(fd: number, size: number, window: LineWindow, maxBytes: number, display: string, stats: BigIntStats): WindowRead {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const read = (position: number, length: number) => fs.readSync(fd, chunk, 0, Math.min(length, CHUNK_BYTES), position);
  const endsWithNewline = size > 0 && read(size - 1, 1) === 1 && chunk[0] === NEWLINE;
  const total = (newlines: number) => newlines + (size > 0 && !endsWithNewline ? 1 : 0);

  /** Newlines in [from, to). */
  const countNewlines = (from: number, to: number) => {
    let count = 0;
    for (let position = from; position < to; ) {
      const got = read(position, to - position);
      if (got === 0) break;
      for (let at = chunk.indexOf(NEWLINE); at !== -1 && at < got; at = chunk.indexOf(NEWLINE, at + 1)) count += 1;
      position += got;
    }
    return count;
  };

  // Where the window starts, as a byte position and the number of lines before it.
  let start = 0;
  let before = 0;
  if (window.offset > 0) {
    let position = 0;
    let found = false;
    while (!found && position < size) {
      const got = read(position, size - position);
      if (got === 0) break;
      for (let at = chunk.indexOf(NEWLINE); at !== -1 && at < got; at = chunk.indexOf(NEWLINE, at + 1)) {
        before += 1;
        if (before === window.offset) {
          start = position + at + 1;
          found = true;
          break;
        }
      }
      position += got;
    }
    if (!found || start >= size) return { kind: 'past-end', total: found ? before : total(before), stats };
  } else if (window.offset < 0) {
    // Back from the end, past the newline that ends the last line, to the one before the first wanted line.
    let wanted = -window.offset;
    let position = endsWithNewline ? size - 1 : size;
    start = 0;
    while (position > 0 && start === 0) {
      const length = Math.min(CHUNK_BYTES, position);
      const got = read(position - length, length);
      for (let at = chunk.lastIndexOf(NEWLINE, got - 1); at !== -1; at = at > 0 ? chunk.lastIndexOf(NEWLINE, at - 1) : -1) {
        wanted -= 1;
        if (wanted === 0) {
          start = position - length + at + 1;
          break;
        }
      }
      position -= length;
    }
    if (window.numbered) before = countNewlines(0, start);
  }

  // The window: from its start to the newline ending its last line, or the end of the file.
  const parts: Buffer[] = [];
  let length = 0;
  let lines = 0;
  let position = start;
  while (position < size && (window.limit === undefined || lines < window.limit)) {
    const got = read(position, size - position);
    if (got === 0) break;
    let end = got;
    for (let at = chunk.indexOf(NEWLINE); at !== -1 && at < got; at = chunk.indexOf(NEWLINE, at + 1)) {
      lines += 1;
      if (window.limit !== undefined && lines === window.limit) {
        end = at + 1;
        break;
      }
    }
    length += end;
    if (length > maxBytes) throw fsError('EFBIG', `${display}: the lines asked for are more than the ${maxBytes} bytes one read gives; ask for fewer with limit`);
    parts.push(Buffer.from(chunk.subarray(0, end)));
    position += end;
  }
  let bytes = Buffer.concat(parts, length);
  // The newline that ends the window's last line is not part of it.
  if (bytes.at(-1) === NEWLINE) bytes = bytes.subarray(0, -1);
  return { kind: 'window', bytes, firstLine: before + 1, stats };
}
