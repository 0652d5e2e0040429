import { passed, refused, type StageContext, type StageOutcome } from '../stage.js';
import { isReservedDeviceName } from '../win32Names.js';
import { quoted, visible } from '../visible.js';

export type PathKind = 'absolute' | 'relative' | 'drive' | 'drive-relative' | 'rooted' | 'unc' | 'device';

/** The input classified. A URI keeps its raw text beside the parsed form: the parser hides things. */
export type Parsed =
  | {
      readonly form: 'uri';
      readonly raw: string;
      readonly url: URL;
      /** `url.pathname`, read once: each read of a URL's part costs a call into the parser. */
      readonly pathname: string;
      /** The authority exactly as sent (`localhost` survives here though `new URL` empties it); null when there is none. */
      readonly rawAuthority: string | null;
    }
  | { readonly form: 'path'; readonly raw: string; readonly kind: PathKind };

/**
 * RFC 3986 section 3.1 scheme syntax, with at least two characters: a single letter followed by
 * a colon is a Windows drive (`C:`), never a scheme.
 */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}([^/\\?#]*)/;

export function classifyPath(raw: string, platform: StageContext['platform']): PathKind {
  if (platform !== 'win32') return raw.startsWith('/') ? 'absolute' : 'relative';
  // Win32 file naming rules: device namespace, UNC, drive absolute, drive relative, rooted.
  if (/^[\\/]{2}[?.](?:[\\/]|$)/.test(raw) || /^\\\?\?\\/.test(raw)) return 'device';
  if (/^[\\/]{2}[^\\/]/.test(raw)) return 'unc';
  if (/^[A-Za-z]:[\\/]/.test(raw)) return 'drive';
  if (/^[A-Za-z]:/.test(raw)) return 'drive-relative';
  if (/^[\\/]/.test(raw)) return 'rooted';
  return 'relative';
}

/** Notes each rewrite the WHATWG URL parser made that the rest of the trace would not otherwise show. */
function parserRewrites(raw: string, url: URL, rawAuthority: string | null): string[] {
  const notes: string[] = [];
  if (rawAuthority !== null && rawAuthority !== '' && url.host === '') {
    notes.push(`the parser emptied the host ${quoted(rawAuthority)} (WHATWG URL: "localhost" is the empty host)`);
  }
  if (raw.includes('?') && url.search === '') notes.push('the parser dropped an empty query "?"');
  if (raw.includes('#') && url.hash === '') notes.push('the parser dropped an empty fragment "#"');
  if (raw.includes('\\')) notes.push('the parser read "\\" as "/" (WHATWG URL, special schemes)');
  if (/[\t\n\r]/.test(raw)) notes.push('the parser removed tab or newline characters (WHATWG URL)');
  if (raw !== raw.trim()) notes.push('the parser removed leading or trailing spaces');
  if (/^[^:]*:[/\\]*[A-Za-z]\|/.test(raw)) notes.push('the parser turned the drive "X|" into "X:" (WHATWG URL)');
  const rawPath = raw.replace(/^[^:]*:/, '').replace(/[?#].*$/s, '');
  const dotSegment = /(^|[/\\])(\.|%2e){1,2}(?=[/\\]|$)/i;
  if (dotSegment.test(rawPath)) {
    notes.push('the parser resolved dot segments (".", "..", or encoded as "%2e") before any check (WHATWG URL)');
  }
  if (url.href !== raw && notes.length === 0) notes.push(`the parser rewrote the URI as ${visible(url.href)}`);
  return notes;
}

/** Stage 1: classify the input by the platform's rules; parse URIs with the WHATWG parser. */
export function parse(raw: string, ctx: StageContext): StageOutcome<Parsed> {
  const rule = 'a scheme of two or more characters makes a URI; anything else is a path';
  if (raw === '') {
    return refused('parse', { input: raw, rule }, 'ERR_PARSE', 'The input is empty: give a file: URI or a path.');
  }
  // A URI with spaces or controls around it: WHATWG URL drops them, a path keeps them (a file may
  // be named " a"), so the two readings differ. Neither is taken.
  const trimmed = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  if (trimmed !== raw && SCHEME.test(trimmed)) {
    return refused(
      'parse',
      { input: raw, rule },
      'ERR_PARSE',
      `${quoted(raw)} is a URI with spaces or control characters before or after it: a URI parser drops them and reads ${quoted(trimmed)}, a path keeps them as part of a name. Send it without them.`,
    );
  }
  // The same before an absolute path: kept, they would make it a folder named " " in the workspace.
  const leading = /^[\u0000-\u0020]+/.exec(raw)?.[0];
  if (leading !== undefined && /^(?:[\\/~]|[A-Za-z]:)/.test(raw.slice(leading.length))) {
    return refused(
      'parse',
      { input: raw, rule },
      'ERR_PARSE',
      `${quoted(raw)} has spaces or control characters before an absolute path: taken as they are, they would make it a relative name under a folder ${quoted(leading)} in the workspace. Send it without them.`,
    );
  }
  // Win32 naming rules: `nul:` and `com1:x` name the device before the colon, not a URI scheme.
  const scheme = SCHEME.exec(raw);
  const deviceName = scheme !== null && ctx.platform === 'win32' && isReservedDeviceName(scheme[0].slice(0, -1));
  if (scheme && !deviceName) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return refused(
        'parse',
        { input: raw, rule },
        'ERR_PARSE',
        `${quoted(raw)} looks like a URI but the URL parser rejects it; a file URI looks like file:///path/to/file.`,
      );
    }
    const authority = AUTHORITY.exec(raw);
    const rawAuthority = authority ? authority[1]! : null;
    const notes = parserRewrites(raw, url, rawAuthority);
    return passed('parse', { input: raw, output: url.href, rule: 'a URI, parsed by the WHATWG URL parser (new URL)', notes }, {
      form: 'uri',
      raw,
      url,
      pathname: url.pathname,
      rawAuthority,
    });
  }
  const kind = classifyPath(raw, ctx.platform);
  const notes: string[] = [];
  if (ctx.platform !== 'win32' && /^[A-Za-z]:[\\/]?|^\\\\/.test(raw)) {
    notes.push(`on ${ctx.platform} this is not a Windows path but a relative name; choose --platform win32 to read it as Windows would`);
  }
  if (raw !== raw.trim()) notes.push('leading or trailing spaces are part of the name');
  if (deviceName) notes.push('a reserved device name before ":" is the Windows device, not a URI scheme');
  return passed('parse', { input: raw, output: raw, rule: `${kind} path, by ${ctx.platform} rules`, notes }, {
    form: 'path',
    raw,
    kind,
  });
}
