/** A "%" not followed by two hex digits (RFC 3986 section 2.1). */
export const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

/** RFC 3986 section 2.1: each %XX is one octet; the octets must form UTF-8 (RFC 3629). */
export function percentDecode(text: string): string | null {
  if (MALFORMED_ESCAPE.test(text)) return null;
  if (!text.includes('%')) return text;
  // A parsed URL's path is ASCII (the parser escapes the rest), so one byte per character.
  const bytes = /^[\x00-\x7f]*$/.test(text) ? new Uint8Array(text.length) : null;
  // Otherwise escape the non-ASCII bytes first, and decode that.
  if (!bytes) return percentDecode(Array.from(utf8Encoder.encode(text), (byte) => (byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`)).join(''));
  let length = 0;
  for (let i = 0; i < text.length; ) {
    if (text.charCodeAt(i) === 0x25) {
      bytes[length++] = parseInt(text.slice(i + 1, i + 3), 16);
      i += 3;
    } else bytes[length++] = text.charCodeAt(i++);
  }
  try {
    return utf8.decode(bytes.subarray(0, length));
  } catch {
    return null;
  }
}
