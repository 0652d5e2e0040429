// A server written the way many are: the root and the request turned into paths by string surgery
// (`uri.replace("file://", "")`, or `new URL(u).pathname`), compared with `startsWith`, and
// decoded after the check, without refusals, on the way to `open()`. Each stage shows what the
// conversion produces and which escape it opens; the decision is what such a server does; the
// fixes are the correct conversion. For people debugging a server of their own.
import { rootToPath, visible } from '../../core/index.js';
import { nodePath, nodeRealpath } from '../shared/node.js';
import type { Access, Decider, DeciderContext, DeciderStage, DeciderVerdict, Fix } from '../types.js';
import { workspaceOf } from '../boundary-inspector/index.js';

const TOOLS = { read: ['read_text_file'], change: ['write_file'] } as const;

/** `uri.replace("file://", "")`: only the first occurrence, anywhere in the string. */
export function replaceScheme(uri: string): string {
  return uri.replace('file://', '');
}

/** `new URL(u).pathname`, or null when `new URL` throws (not a URI: a plain path). */
export function urlPathname(uri: string): string | null {
  try {
    return new URL(uri).pathname;
  } catch {
    return null;
  }
}

/** `decodeURIComponent` that never refuses: each well-formed UTF-8 escape decoded, anything else kept. */
export function decodeLeniently(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => (parseInt(hex, 16) < 0x80 ? String.fromCharCode(parseInt(hex, 16)) : escape));
    }
  });
}

/** The correct conversion, for the fixes: parsed as a URI, refusals first, decoded once, then compared by components. */
const CORRECT_CONVERSION = [
  'const url = new URL(uri); // throws on what is not a URI',
  'if (url.protocol !== "file:" || url.host !== "" || url.search !== "" || url.hash !== "") throw new Error("refused");',
  'const target = path.resolve(fileURLToPath(url)); // decodes once, drive letters and separators',
  'const rel = path.relative(root, target); // root converted the same way, once',
  'const inside = rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));',
].join('\n');

interface Seen {
  readonly stages: DeciderStage[];
  readonly differences: string[];
}

export const naive: Decider = {
  name: 'naive',
  program: 'a server converting URIs by string surgery',
  version: 'the conversions of "Converting a root URI to a path"',
  tools: TOOLS,
  decide(input: string, toolName: string, context: DeciderContext): DeciderVerdict {
    const access: Access = (TOOLS.change as readonly string[]).includes(toolName) ? 'change' : 'read';
    const path = nodePath(context.platform);
    const rootUri = workspaceOf(context);
    const seen: Seen = { stages: [], differences: [] };
    const stage = (name: string, status: DeciderStage['status'], stageInput: string, output: string | null, rule: string, escapes: readonly string[]) => {
      seen.stages.push({ name, status, input: stageInput, output, rule, note: escapes.join('; ') });
      seen.differences.push(...escapes.filter((line) => line.startsWith('escape') || line.startsWith('refuses')).map((line) => `${line.charAt(0).toUpperCase()}${line.slice(1)}.`));
    };

    // What string surgery makes of a URI, and what it opens to.
    const surgeryNotes = (uri: string, converted: string): string[] => {
      const notes: string[] = [];
      if (!uri.startsWith('file://')) return notes;
      if (!converted.startsWith('/')) {
        notes.push(`escape: the host is kept as the first name, so ${visible(converted)} is relative and lands under the working folder ${visible(context.cwd)}, not on the host`);
      }
      if (/%[0-9A-Fa-f]{2}/.test(converted)) notes.push('still percent-encoded: compared encoded, decoded later');
      if (/^\/[A-Za-z]:/.test(converted)) notes.push(`${visible(converted)} keeps the slash before the drive letter: not a Windows path (path.resolve on Windows makes it ${visible(nodePath('win32').resolve('C:\\', converted))})`);
      if (/[?#]/.test(converted)) notes.push('a query or fragment is kept as part of the name');
      return notes;
    };

    const rootPath = replaceScheme(rootUri);
    stage('root: replace("file://", "")', rootPath === rootUri ? 'pass' : 'note', rootUri, rootPath, 'the root URI made a path by removing the first "file://"', surgeryNotes(rootUri, rootPath));
    const requestPath = replaceScheme(input);
    stage('request: replace("file://", "")', requestPath === input ? 'pass' : 'note', input, requestPath, 'the request made a path the same way', surgeryNotes(input, requestPath));

    const pathname = urlPathname(input);
    if (pathname === null || !input.startsWith('file:')) {
      stage('new URL(u).pathname', 'skip', input, pathname, 'the other common conversion: the URL parser\'s path, still percent-encoded', ['not a URI: new URL throws or gives no file path']);
    } else {
      const url = new URL(input);
      const notes: string[] = [];
      if (url.host !== '') notes.push(`escape: the host ${visible(url.host)} is dropped, so a file on another machine (\\\\${visible(url.host)}${visible(pathname.replace(/\//g, '\\'))}) is read as the local ${visible(pathname)}`);
      if (/%2e/i.test(input) && !/%2e/i.test(pathname)) notes.push('the URL parser resolves %2e%2e as `..` itself: this spelling is climbed before the check');
      if (url.search !== '' || url.hash !== '') notes.push(`${visible(url.search + url.hash)} is cut off as a query or fragment: a name holding "#" or "?" is looked for without the rest`);
      if (/%[0-9A-Fa-f]{2}/.test(pathname)) notes.push('still percent-encoded: a folder named with a space is looked for as %20');
      if (/^\/[A-Za-z]:/.test(pathname)) notes.push(`${visible(pathname)} keeps the slash before the drive letter: not a Windows path`);
      stage('new URL(u).pathname', 'note', input, pathname, "the other common conversion: the URL parser's path, still percent-encoded; shown beside, not used below", notes);
    }

    // The check, on the strings as converted, before any decoding.
    const allowed = requestPath.startsWith(rootPath);
    const checkNotes: string[] = [];
    const correctRoot = rootToPath(rootUri, { platform: context.platform });
    const correctRootPath = correctRoot.ok ? correctRoot.path : null;
    const nfc = (text: string) => text.normalize('NFC');
    if (allowed && requestPath.length > rootPath.length && !['/', '\\'].includes(requestPath.charAt(rootPath.length)) && !rootPath.endsWith('/')) {
      checkNotes.push(`escape: sibling prefix: ${visible(requestPath)} only starts with the root's text; its folder is another one`);
    }
    if (!allowed) {
      // Why a path may be refused although it is inside: each spelling difference, first one wins.
      const decodedBoth = (fold: (text: string) => string) => fold(decodeLeniently(requestPath)).startsWith(fold(decodeLeniently(rootPath)));
      if (decodedBoth((text) => text)) {
        checkNotes.push('refuses a path inside: one side is percent-encoded and the other is not, so a folder literally named with the escape (my%20project) would match instead');
      } else if (decodedBoth(nfc)) {
        checkNotes.push('refuses a path inside: the root and the request spell a name in different Unicode forms (NFC, NFD), and startsWith compares code units');
      } else if (decodedBoth((text) => nfc(text).toLowerCase())) {
        checkNotes.push(
          context.platform === 'linux'
            ? 'refused, rightly on Linux: the names differ in case, and a server that lower-cased both sides would let this other folder in'
            : 'refuses a path inside: the names differ only in case, which this platform ignores',
        );
      }
    }
    stage('startsWith(root)', allowed ? 'pass' : 'refuse', requestPath, allowed ? requestPath : null, `request.startsWith(${JSON.stringify(rootPath)}): a string prefix, before decoding`, checkNotes);

    // After the check: decoded once, without refusals, and opened from the working folder.
    const decoded = decodeLeniently(requestPath);
    const decodeNotes = decoded === requestPath ? [] : /(^|[\\/])\.\.([\\/]|$)/.test(decoded) && !/(^|[\\/])\.\.([\\/]|$)/.test(requestPath) ? ['escape: encoded dot-dot: `..` appears only now, after the check passed'] : [];
    stage('decodeURIComponent', decoded === requestPath ? 'pass' : 'note', requestPath, decoded, 'decoded after the check, on the way to open(); nothing malformed is refused', decodeNotes);

    const opened = path.resolve(context.cwd, decoded);
    const insideCorrectRoot = (target: string) => {
      if (correctRootPath === null) return false;
      const rel = path.relative(context.cwd, correctRootPath, target);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    };
    const correctlyInside = insideCorrectRoot(opened);
    const openNotes: string[] = [];
    if (allowed && correctlyInside && !context.simulated) {
      // The filesystem follows links the strings never showed: where the path, or its folder, really is.
      const real = nodeRealpath(context.fs, opened, context.platform);
      const folder = real.ok ? real : nodeRealpath(context.fs, path.dirname(opened), context.platform);
      const rootReal = correctRootPath === null ? null : nodeRealpath(context.fs, correctRootPath, context.platform);
      if (folder.ok && rootReal?.ok) {
        const rel = path.relative(context.cwd, rootReal.path, folder.path);
        if (rel.startsWith('..') || path.isAbsolute(rel)) openNotes.push(`escape: a link: the filesystem follows it to ${visible(folder.path)}, outside the root, and no string check sees it`);
      }
    }
    if (allowed && !correctlyInside) openNotes.push(`escape: the server opens ${visible(opened)}, outside the root ${correctRootPath === null ? `(the root itself is refused by a correct conversion: ${correctRoot.ok ? '' : correctRoot.code})` : visible(correctRootPath)}`);
    stage('open()', allowed ? (openNotes.length === 0 ? 'pass' : 'note') : 'skip', decoded, allowed ? opened : null, "the decoded path resolved by the filesystem: `..` climbed, a relative path taken from the server's working folder", openNotes);

    const twice = decodeLeniently(decoded);
    if (twice !== decoded) {
      const openedTwice = path.resolve(context.cwd, twice);
      const outside = !insideCorrectRoot(openedTwice);
      const passes = decoded.startsWith(rootPath);
      stage('decoded again', 'note', decoded, twice, 'what a second decode downstream makes of it (a helper taking a URI or a path, a framework decoding route parameters)', [
        passes && outside ? `escape: double decoding: a check after the first decode passes ${visible(decoded)}, and the second decode opens ${visible(openedTwice)}` : `a second decode opens ${visible(openedTwice)}`,
      ]);
    }

    const fixes: Fix[] = allowed ? [] : [{ text: "Convert the root and the request once, with the platform's parser, and compare path components, not string prefixes.", add: CORRECT_CONVERSION }];
    const differences = [...new Set(seen.differences)];
    if (allowed && openNotes.length > 0) differences.push('Boundary Inspector converts with one parser, refuses hosts, queries and encoded separators, decodes once before comparing, and compares path components.');
    return {
      decider: 'naive',
      program: this.program,
      version: this.version,
      basis: 'documented',
      tool: (TOOLS[access] as readonly string[]).includes(toolName) ? toolName : TOOLS[access][0],
      access,
      input,
      decision: allowed ? 'allow' : 'deny',
      rule: { text: `${JSON.stringify(requestPath)}.startsWith(${JSON.stringify(rootPath)}) is ${allowed}`, source: { text: `the root ${rootUri}` } },
      path: allowed ? opened : null,
      stages: seen.stages,
      fixes,
      differences,
      configFiles: [],
    };
  },
};
