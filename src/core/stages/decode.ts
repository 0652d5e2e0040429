import { toNfc } from '../paths.js';
import { MALFORMED_ESCAPE, percentDecode } from '../percent.js';
import { passed, refused, skipped, type StageContext, type StageOutcome } from '../stage.js';
import { namesUncServer, uncServer } from '../uncHost.js';
import { classifyPath, type Parsed, type PathKind } from './parse.js';
import { quoted } from '../visible.js';

/** A path in the platform's own spelling, decoded exactly once. Nothing after this stage decodes. */
export interface Decoded {
  readonly path: string;
  readonly kind: PathKind;
}

function normalisationNote(path: string): string[] {
  if (path === toNfc(path)) return [];
  return ['a name is not in Unicode NFC form (it may be NFD, as macOS writes names); see the case stage for whether that matters'];
}

/** Stage 3: percent-decode a URI's path exactly once; take a path literally. */
export function decode(parsed: Parsed, ctx: StageContext): StageOutcome<Decoded> {
  if (parsed.form === 'path') {
    return skipped(
      'decode',
      {
        input: parsed.raw,
        output: parsed.raw,
        rule: 'a path is taken literally, never percent-decoded (a file may be named %2e%2e)',
        notes: normalisationNote(parsed.raw),
      },
      { path: parsed.raw, kind: parsed.kind },
    );
  }
  const rule = 'percent-decode the URI path once (RFC 3986 section 2.1) as UTF-8; RFC 8089 for drive letters and hosts';
  const input = parsed.pathname;
  const decoded = percentDecode(input);
  if (decoded === null) {
    return refused(
      'decode',
      { input, rule },
      'ERR_BAD_ENCODING',
      MALFORMED_ESCAPE.test(input)
        ? 'The URI has a malformed percent escape ("%" not followed by two hex digits). Encode a literal "%" as %25.'
        : 'The URI\'s percent escapes do not decode to valid UTF-8. Encode names as UTF-8 before percent-encoding.',
    );
  }
  const notes = normalisationNote(decoded);
  if (decoded.includes('%')) {
    notes.push('a "%" remains after the single decode: it is a literal character, never decoded again (double encoding looks like this)');
  }
  let path = decoded;
  if (ctx.platform === 'win32') {
    const backslashed = decoded.replace(/\//g, '\\');
    if (namesUncServer(parsed.rawAuthority)) {
      const server = uncServer(parsed.rawAuthority);
      if (server === null) {
        return refused('decode', { input: parsed.rawAuthority, rule }, 'ERR_BAD_ENCODING', 'The URI\'s host has percent escapes that do not decode to valid UTF-8. Encode names as UTF-8 before percent-encoding.');
      }
      path = `\\\\${server}${backslashed}`;
      if (server !== parsed.url.hostname) {
        notes.push(`the UNC host is taken as the client wrote it, decoded once: ${quoted(server)}, not the parser's ${quoted(parsed.url.hostname)}`);
      }
    } else if (/^\/[A-Za-z]:/.test(decoded)) path = backslashed.slice(1);
    else if (/^\/{3}[^/]/.test(decoded)) {
      // Five slashes (`file://///server/share`): the share, as Python's url2pathname reads it.
      path = backslashed.slice(1);
      notes.push('five slashes: the path after the empty host is the UNC path \\\\server\\share');
    } else path = backslashed;
  }
  const kind = classifyPath(path, ctx.platform);
  if (ctx.platform === 'win32' && kind === 'rooted') {
    notes.push('the URI has no drive letter: on Windows the path is rooted on the root\'s drive');
  }
  return passed('decode', { input, output: path, rule, notes }, { path, kind });
}
