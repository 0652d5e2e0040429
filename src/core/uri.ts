import { pathToFileURL } from 'node:url';
import { splitAbsolute } from './paths.js';
import type { Platform } from './types.js';

/**
 * The reverse conversion: an absolute path to the `file:` URI this product publishes. Built with
 * `pathToFileURL`, which percent-encodes `#`, `?`, `%` and the rest, never by concatenation:
 * `"file://" + "report#2 draft.pdf"` would make everything after `#` a fragment.
 *
 * A UNC server is published as written, percent-encoded (RFC 3986 section 2.1), not as the
 * WHATWG parser spells it (lower case, punycode: `\\shäres\team` would become
 * `file://xn--shres-hra/team`), so the URI converts back to the same path (uncHost.ts).
 */
export function pathToUri(path: string, platform: Platform): string {
  const split = splitAbsolute(path, platform);
  if (split === null) {
    throw new TypeError(`pathToUri takes an absolute ${platform} path, got ${JSON.stringify(path)}`);
  }
  const url = pathToFileURL(path, { windows: platform === 'win32' });
  const unc = platform === 'win32' ? /^\\\\([^\\]+)\\/.exec(split.prefix) : null;
  return unc ? `file://${encodeURIComponent(unc[1]!)}${url.pathname}` : url.href;
}
