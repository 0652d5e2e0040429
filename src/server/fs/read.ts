import fs, { type BigIntStats } from 'node:fs';
import { inFolder, type CheckedPath } from './anchor.js';
import { fsError } from './errors.js';
import type { Folder } from './folder.js';

/** Reads an open file that fstat saw at `size` bytes, at most `maxBytes`; `display` names it in an error. */
export function readOpen(fd: number, size: bigint, maxBytes: number, display: string): Buffer {
  // The size goes with the error: a caller with a budget tells "not now" from "never".
  if (size > BigInt(maxBytes)) throw Object.assign(fsError('EFBIG', `${display} is ${size} bytes, more than the ${maxBytes} this tool reads`), { size: Number(size) });
  // The file may grow after fstat: read at most one byte past the limit to notice.
  const chunks: Buffer[] = [];
  let total = 0;
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(Number(size), 1), maxBytes) + 1);
  for (;;) {
    const read = fs.readSync(fd, buffer, 0, buffer.length, null);
    if (read === 0) break;
    chunks.push(buffer.subarray(0, read));
    total += read;
    if (total > maxBytes) throw fsError('EFBIG', `${display} is more than the ${maxBytes} bytes this tool reads`);
    buffer = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** Opens the regular file `name` in `folder` and reads it, at most `maxBytes`, with its stats. */
export function readIn(folder: Folder, name: string, maxBytes: number, display: string): { bytes: Buffer; stats: BigIntStats } {
  const { fd, stats } = folder.openFile(name);
  try {
    return { bytes: readOpen(fd, stats.size, maxBytes, display), stats };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a checked regular file, at most `maxBytes`. A FIFO, socket or device is never opened. */
export function readFile(target: CheckedPath, maxBytes: number): { bytes: Buffer; stats: BigIntStats } {
  return inFolder(target, (folder, name) => readIn(folder, name, maxBytes, target.path));
}
