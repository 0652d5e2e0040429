import { passed, refused, type StageContext, type StageOutcome } from '../stage.js';
import { foreignPath, foreignReason, localShare, translateForeign, type ForeignPath } from '../spellings.js';
import type { RefusalCode } from '../types.js';
import { isDeviceNamespace, namesUncServer, uncServer } from '../uncHost.js';
import { ambiguousTrailing, holdsStream, isReservedDeviceName, uriNames, win32Names } from '../win32Names.js';
import type { Parsed } from './parse.js';
import { quoted } from '../visible.js';

const CONTROL = /[\u0000-\u001f\u007f]/;
/**
 * `file:////./x` as sent: the device namespace `\\.\` after an empty authority. The WHATWG
 * parser drops the "." (a dot segment, `%2e` too), so only the raw text shows it.
 */
const DEVICE_AFTER_FOUR_SLASHES = /^[^:]*:\/\/\/\/(?:\.|%2e)(?:\/|$)/i;

function lenientDecode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

interface Finding {
  readonly code: RefusalCode;
  readonly reason: string;
}

/** Win32 naming rules: the device opens whatever follows its name (an extension, dots, spaces, a ":"). */
function reservedReason(name: string): string {
  return `${quoted(name)} is a reserved Windows device name (an extension, trailing dots or spaces, or a ":" after it do not change that): it opens a device in any folder. Rename the file.`;
}

/** NTFS streams: `name:stream`, and `dir::$INDEX_ALLOCATION` for the folder `dir` itself. */
function streamReason(name: string, where: string): string {
  return (
    `In ${where}, the name ${quoted(name)} holds a ":", which NTFS reads as a stream ("name:stream"; "ro::$INDEX_ALLOCATION\\x" writes into "ro"). ` +
    'Only the drive\'s own colon (C:) may appear in a Windows path; rename the file.'
  );
}

/** Win32 trims trailing dots and spaces differently in a folder name and in the last name. */
function trailingReason(name: string, where: string): string {
  return (
    `In ${where}, the name ${quoted(name)} ends in a dot or a space, which Windows drops from the last name of a path but keeps (or drops only in part) in a folder name, ` +
    'so the same text can name two different entries. Write the name without its trailing dots and spaces.'
  );
}

/**
 * A scheme other than file. A name with a ":" in it (`hello.txt:secret`) parses as a URI too:
 * the reason says first what the person most likely meant, an NTFS stream on Windows or a
 * relative name elsewhere.
 */
function schemeReason(raw: string, protocol: string, win32: boolean): string {
  if (!/^[A-Za-z][A-Za-z0-9+.-]+:[^/]/.test(raw)) {
    return `Only file: URIs name files on this machine, and this one is ${protocol}. Give a file: URI or a path.`;
  }
  if (win32) {
    return (
      `${quoted(raw)} names an NTFS stream of ${quoted(raw.slice(0, raw.indexOf(':')))} (on Windows a ":" after a name opens a stream of that file), ` +
      `and read as a URI it has the scheme ${quoted(protocol.slice(0, -1))}: neither is served. Only the drive's own colon (C:) may appear in a Windows path; rename the file, or give a file: URI.`
    );
  }
  return (
    `${quoted(raw)} is read as a URI with the scheme ${quoted(protocol.slice(0, -1))} (it starts with letters and a ":"), and only file: URIs name files on this machine. ` +
    `For a relative name holding ":", write ${quoted(`./${raw}`)}.`
  );
}

/**
 * The input as another system's path, and its spelling here when there is one: a path as sent,
 * or a file URI's path decoded (`file://C:/x` excepted: its drive stands where the host goes).
 */
export function foreignInput(parsed: Parsed, ctx: StageContext): { readonly foreign: ForeignPath; readonly translated: string | undefined } | undefined {
  if (parsed.form === 'uri' && (parsed.url.protocol !== 'file:' || /^[A-Za-z][:|]$/.test(parsed.rawAuthority ?? ''))) return undefined;
  const foreign = foreignPath(parsed.form === 'uri' ? lenientDecode(parsed.pathname) : parsed.raw, ctx.platform, parsed.form === 'uri');
  return foreign === undefined ? undefined : { foreign, translated: translateForeign(foreign, ctx.platform, ctx.spellings, ctx.root) };
}

/**
 * Stage 2: refuse what the parser accepted but this server will not serve, judged on the text the
 * client sent. Checks run in the order of the code table; the first that applies wins.
 */
export function refusals(parsed: Parsed, ctx: StageContext): StageOutcome<Parsed> {
  const { platform, policy } = ctx;
  const raw = parsed.raw;
  const notes: string[] = [];
  const findings: Finding[] = [];
  const win32 = platform === 'win32';

  if (parsed.form === 'uri') {
    const { url, rawAuthority, pathname } = parsed;
    const protocol = url.protocol;
    if (protocol !== 'file:') {
      findings.push({ code: 'ERR_SCHEME', reason: schemeReason(raw, protocol, win32) });
    }
    // Hosts, shares and devices are questions about file URIs; another scheme is refused as such.
    const isFile = protocol === 'file:';
    const authority = isFile ? (rawAuthority ?? '') : '';
    // `file://C:/x`: a drive letter where the host goes. WHATWG reads it as the drive; RFC 8089
    // and other readers as a server named "C:".
    const driveAsHost = /^[A-Za-z][:|]$/.test(authority);
    const foreign = foreignInput(parsed, ctx);
    if (foreign !== undefined) {
      findings.push({ code: 'ERR_FOREIGN_PATH', reason: foreignReason(raw, foreign.foreign, platform, ctx.spellings, foreign.translated, true) });
    }
    const isLocalhost = authority.toLowerCase() === 'localhost';
    const isUncHost = win32 && namesUncServer(authority) && !driveAsHost;
    // Judged as Windows will see it: the host as written, decoded once, and the decoded names.
    const server = isUncHost ? (uncServer(authority) ?? authority) : null;
    // Decoded names matter only to Windows' rules for file URIs.
    const segments = isFile && win32 ? pathname.split('/').map(lenientDecode) : [];
    const decodedPath = segments.join('/');
    const names = isFile && win32 ? uriNames(server, segments) : [];
    if (driveAsHost) {
      const drive = authority[0]!.toUpperCase();
      findings.push({
        code: 'ERR_HOST',
        reason:
          `The URI puts the drive ${drive}: where a host goes (two slashes before it): the WHATWG parser reads it as the drive, RFC 8089 and other readers as a server named ${quoted(authority)}. ` +
          `Write file:///${drive}:/... (three slashes).`,
      });
    } else if (authority !== '' && !isUncHost) {
      if (isLocalhost && policy.localhost === 'allow') {
        notes.push('host "localhost" allowed by policy (RFC 8089: the local machine)');
      } else {
        findings.push({
          code: 'ERR_HOST',
          reason: isLocalhost
            ? 'The URI names the host "localhost". RFC 8089 allows it, but this server refuses it so every file has one spelling: use file:///path (three slashes), or set the localhost policy to allow.'
            : `The URI names the host ${quoted(authority)}: a file URI with a host is not a local file. Use file:///path (three slashes, empty host).`,
        });
      }
    }
    if (raw.includes('?') || raw.includes('#')) {
      findings.push({
        code: 'ERR_QUERY_OR_FRAGMENT',
        reason:
          'The URI carries a "?" or "#", which starts a query or fragment rather than naming a file (RFC 3986). ' +
          'A file whose name contains them must be percent-encoded: "?" as %3F, "#" as %23.',
      });
    }
    // `file:////server/share` and `file://///server/share` (as Python's url2pathname reads it).
    const uncByPath = isFile && win32 && /^\/{2,3}[^/]/.test(pathname) && !/^\/{2,3}[?.](\/|$)/.test(decodedPath);
    const share = isUncHost ? [server!, segments[1] ?? ''] : uncByPath ? decodedPath.replace(/^\/+/, '').split('/') : [];
    const local = isUncHost || uncByPath ? localShare(share[0]!, share[1] ?? '', ctx.spellings) : undefined;
    if (local !== undefined) notes.push(local);
    else if (isUncHost || uncByPath) {
      if (policy.unc === 'allow') notes.push('UNC share allowed by policy');
      else
        findings.push({
          code: 'ERR_UNC',
          reason:
            'The URI names a network share (UNC), which reaches another machine rather than this one. ' +
            'Use a local drive path such as file:///C:/path, or set the UNC policy to allow.',
        });
    }
    if (isFile && win32) {
      // `\\?\` and `\\.\` by the path (`file:////%3F/x`), by the host (`file://./x`), or as sent (`file:////./x`).
      const device =
        /^\/\/[?.](\/|$)/.test(decodedPath) || (server !== null && isDeviceNamespace(server)) || DEVICE_AFTER_FOUR_SLASHES.test(raw);
      const reserved = names.find(isReservedDeviceName);
      if (device || reserved !== undefined) {
        findings.push({
          code: 'ERR_DEVICE_PATH',
          reason: device
            ? 'The URI names a Windows device path (\\\\?\\ or \\\\.\\), which bypasses Win32 path rules. Use a drive path.'
            : reservedReason(reserved!),
        });
      }
    }
    if (raw.includes('\u0000') || /%00/.test(raw)) {
      findings.push({ code: 'ERR_NUL', reason: 'The URI contains a NUL character (raw or %00), which no file name may hold.' });
    }
    const encodedSeparator = win32 ? /%2f|%5c/i : /%2f/i;
    if (encodedSeparator.test(raw)) {
      findings.push({
        code: 'ERR_ENCODED_SEPARATOR',
        reason:
          `The URI contains an encoded separator (${win32 ? '%2F or %5C' : '%2F'}) that would become a separator only after decoding, ` +
          'after the checks. Write separators as "/".',
      });
    }
    if (raw.includes('\\') || CONTROL.test(raw)) {
      findings.push({
        code: 'ERR_ILLEGAL_CHARACTER',
        reason: raw.includes('\\')
          ? 'The URI contains a raw "\\", which RFC 3986 does not allow; the parser would silently read it as "/". Use "/" or encode it as %5C.'
          : 'The URI contains a raw control character, which RFC 3986 does not allow. Percent-encode it.',
      });
    }
    const stream = names.find(holdsStream);
    if (stream !== undefined && !raw.includes('\\') && !CONTROL.test(raw)) {
      findings.push({ code: 'ERR_ILLEGAL_CHARACTER', reason: streamReason(stream, 'the decoded URI') });
    }
    const trailing = win32 ? ambiguousTrailing(names, pathname.endsWith('/')) : undefined;
    if (trailing !== undefined) findings.push({ code: 'ERR_ILLEGAL_CHARACTER', reason: trailingReason(trailing, 'the decoded URI') });
  } else {
    const pathNames = win32 ? win32Names(raw) : [];
    const foreign = foreignInput(parsed, ctx);
    if (foreign !== undefined) {
      findings.push({ code: 'ERR_FOREIGN_PATH', reason: foreignReason(raw, foreign.foreign, platform, ctx.spellings, foreign.translated, false) });
    }
    const share = parsed.kind === 'unc' ? raw.replace(/^[\\/]+/, '').split(/[\\/]/) : [];
    const local = parsed.kind === 'unc' ? localShare(share[0]!, share[1] ?? '', ctx.spellings) : undefined;
    if (local !== undefined) notes.push(local);
    else if (parsed.kind === 'unc') {
      if (policy.unc === 'allow') notes.push('UNC share allowed by policy');
      else
        findings.push({
          code: 'ERR_UNC',
          reason:
            'The path names a network share (UNC, \\\\host\\share), which reaches another machine. Use a local drive path, or set the UNC policy to allow.',
        });
    }
    if (parsed.kind === 'device') {
      findings.push({
        code: 'ERR_DEVICE_PATH',
        reason: 'The path is a Windows device path (\\\\?\\, \\\\.\\ or \\??\\), which bypasses Win32 path rules. Use a drive path such as C:\\path.',
      });
    } else if (win32) {
      const reserved = pathNames.find(isReservedDeviceName);
      if (reserved !== undefined) findings.push({ code: 'ERR_DEVICE_PATH', reason: reservedReason(reserved) });
    }
    if (raw.includes('\u0000')) {
      findings.push({ code: 'ERR_NUL', reason: 'The path contains a NUL character, which no file name may hold.' });
    }
    const stream = win32 && parsed.kind !== 'device' ? pathNames.find(holdsStream) : undefined;
    if (stream !== undefined) findings.push({ code: 'ERR_ILLEGAL_CHARACTER', reason: streamReason(stream, 'the path') });
    const trailing = win32 && parsed.kind !== 'device' ? ambiguousTrailing(pathNames, /[\\/]$/.test(raw)) : undefined;
    if (trailing !== undefined) findings.push({ code: 'ERR_ILLEGAL_CHARACTER', reason: trailingReason(trailing, 'the path') });
    if (raw.includes('%')) notes.push('"%" in a path is a literal character: paths are never percent-decoded');
  }

  const rule = 'refuse what this server will not serve, judged on the text as sent; the first code of the table wins';
  const first = findings[0];
  if (first) {
    const others = findings.slice(1).map((finding) => finding.code);
    const also = others.length > 0 ? [`also: ${others.join(', ')}`] : [];
    return refused('refusals', { input: raw, rule, notes: [...notes, ...also] }, first.code, first.reason);
  }
  return passed('refusals', { input: raw, output: raw, rule, notes }, parsed);
}
