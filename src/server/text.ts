import { isUtf8 } from 'node:buffer';

/** A file's bytes as text, or why they are not text. */
export type Decoded = { readonly text: string } | { readonly notText: string };

/**
 * The server's one definition of text (docs/server.md, "What is text"): bytes that are valid
 * UTF-8 and hold no NUL. A NUL never appears in UTF-8 prose or code and marks a binary format or
 * UTF-16; bytes that are not UTF-8 would each become U+FFFD, so the text would not be the file.
 * Decided on all of the bytes given, never on a sample.
 */
export function decodeText(bytes: Buffer): Decoded {
  if (bytes.includes(0)) return { notText: 'it holds NUL bytes, as binary files and UTF-16 text do' };
  if (!isUtf8(bytes)) return { notText: 'it holds bytes that are not UTF-8' };
  // A byte order mark stays in the text, so that what is written back is the file as it was.
  return { text: bytes.toString('utf8') };
}
