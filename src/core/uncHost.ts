import { percentDecode } from './percent.js';

/**
 * Whether a `file:` URI's authority, exactly as sent, names a UNC server on Windows: any but the
 * empty one and `localhost` (RFC 8089 section 2: the local machine). An encoded `%6Cocalhost` is
 * not `localhost` as sent, so it names a server called localhost.
 */
export function namesUncServer(rawAuthority: string | null): rawAuthority is string {
  return rawAuthority !== null && rawAuthority !== '' && rawAuthority.toLowerCase() !== 'localhost';
}

/**
 * The UNC server of `file://host/share` as the client wrote it, percent-decoded once (RFC 3986
 * section 2.1), or null when its escapes are not UTF-8. Never the WHATWG parser's host, which
 * is lower-cased, mapped by UTS 46 (fullwidth letters to ASCII, soft hyphens dropped) and
 * spelt in punycode (`sh%C3%A4res` becomes `xn--shres-hra`): Node's fileURLToPath and
 * vscode-uri give `\\shäres\team`, and the same share written as a path is `\\shäres\team`, so
 * one share has one spelling. A client that writes punycode itself is taken at its word: NetBIOS
 * does not read punycode, so `xn--shres-hra` is compared as another name (a loud refusal, never
 * a silent match). What no host may hold (separators, `%`, spaces, controls, `:`, `@`: WHATWG's
 * forbidden host code points) the parser has refused already.
 */
export function uncServer(rawAuthority: string): string | null {
  return percentDecode(rawAuthority);
}

/** `\\.\` and `\\?\` are the Win32 device namespaces, not servers. */
export function isDeviceNamespace(server: string): boolean {
  return server === '.' || server === '?';
}
