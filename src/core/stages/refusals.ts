import { passed, refused, visible, type StageContext, type StageOutcome } from '../stage.js';
import type { RefusalCode } from '../types.js';
import type { Parsed } from './parse.js';

/** Win32 naming rules: these names open a device in any directory, with or without an extension. */
const RESERVED_DEVICE_NAME = /^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])(\..*)?$/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

function lenientDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function reservedDeviceName(segments: readonly string[]): string | undefined {
  return segments.find((segment) => RESERVED_DEVICE_NAME.test(segment.replace(/[ .]+$/, '')));
}

interface Finding {
  readonly code: RefusalCode;
  readonly reason: string;
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
    const { url, rawAuthority } = parsed;
    if (url.protocol !== 'file:') {
      findings.push({
        code: 'ERR_SCHEME',
        reason:
          `Only file: URIs name files on this machine, and this one is ${url.protocol}. ` +
          `Give a file: URI or a path` +
          (/^[A-Za-z][A-Za-z0-9+.-]+:[^/]/.test(raw) ? ` (for a relative name containing ":", write ./${raw})` : '') +
          '.',
      });
    }
    // Hosts, shares and devices are questions about file URIs; another scheme is refused as such.
    const isFile = url.protocol === 'file:';
    const authority = isFile ? (rawAuthority ?? '') : '';
    const isLocalhost = authority.toLowerCase() === 'localhost';
    const isUncHost = win32 && authority !== '' && !isLocalhost;
    if (authority !== '' && !isUncHost) {
      if (isLocalhost && policy.localhost === 'allow') {
        notes.push('host "localhost" allowed by policy (RFC 8089: the local machine)');
      } else {
        findings.push({
          code: 'ERR_HOST',
          reason: isLocalhost
            ? 'The URI names the host "localhost". RFC 8089 allows it, but this server refuses it so every file has one spelling: use file:///path (three slashes), or set the localhost policy to allow.'
            : `The URI names the host ${visible(authority)}: a file URI with a host is not a local file. Use file:///path (three slashes, empty host).`,
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
    const uncByPath =
      isFile && win32 && /^\/\/[^/]/.test(url.pathname) && !/^\/\/[?.](\/|$)/.test(url.pathname.split('/').map(lenientDecode).join('/'));
    if (isUncHost || uncByPath) {
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
      const segments = url.pathname.split('/').map(lenientDecode);
      const device = /^\/\/[?.](\/|$)/.test(segments.join('/'));
      const reserved = reservedDeviceName(segments);
      if (device || reserved !== undefined) {
        findings.push({
          code: 'ERR_DEVICE_PATH',
          reason: device
            ? 'The URI names a Windows device path (\\\\?\\ or \\\\.\\), which bypasses Win32 path rules. Use a drive path.'
            : `${visible(reserved!)} is a reserved Windows device name that opens a device in any folder; rename the file.`,
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
  } else {
    if (parsed.kind === 'unc') {
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
      const reserved = reservedDeviceName(raw.split(/[\\/]/));
      if (reserved !== undefined) {
        findings.push({
          code: 'ERR_DEVICE_PATH',
          reason: `${visible(reserved)} is a reserved Windows device name that opens a device in any folder; rename the file.`,
        });
      }
    }
    if (raw.includes('\u0000')) {
      findings.push({ code: 'ERR_NUL', reason: 'The path contains a NUL character, which no file name may hold.' });
    }
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
