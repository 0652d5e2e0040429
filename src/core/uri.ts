import { pathToFileURL } from 'node:url';
import { splitAbsolute } from './paths.js';
import type { Platform } from './types.js';

/**
 * The reverse conversion: an absolute path to the `file:` URI this product publishes. Built with
 * `pathToFileURL`, which percent-encodes `#`, `?`, `%` and the rest, never by concatenation:
 * `"file://" + "report#2 draft.pdf"` would make everything after `#` a fragment.
 */
export function pathToUri(path: string, platform: Platform): string {
  if (splitAbsolute(path, platform) === null) {
    throw new TypeError(`pathToUri takes an absolute ${platform} path, got ${JSON.stringify(path)}`);
  }
  return pathToFileURL(path, { windows: platform === 'win32' }).href;
}
