// validatePath (dist/lib.js), step by step: the whole of the reference server's decision for a
// path. Every tool calls it the same way, reads and changes alike. A refusal is the Error it
// throws, word for word; another error it meets (ENOTDIR, ELOOP, EACCES from the disk) is not a
// refusal of the path but a failure of the operation, as the recording counts it.
import { spelledOut, visible } from '../../core/index.js';
import { expandHome, nodePath, nodeReaddir, nodeRealpath } from '../shared/node.js';
import type { DeciderContext, DeciderStage } from '../types.js';
import { isPathWithinAllowedDirectories, normalizePath } from './pathUtils.js';

export interface Validated {
  readonly stages: readonly DeciderStage[];
  /** The server's Error message, for a refusal. */
  readonly refusal?: string;
  /** The path the tool then acts on, when validatePath returned one. */
  readonly path: string | null;
  /** An error validatePath met that is the disk's, not a refusal: the operation fails with it. */
  readonly failure?: string;
  /** The path made absolute (before normalizePath). */
  readonly absolute?: string;
  /** The allowed directory a relative path was taken from. */
  readonly relativeFrom?: string;
  /** Names of a missing path matched by their NFC form to another spelling on disk. */
  readonly unicodeMatches: readonly { readonly requested: string; readonly onDisk: string }[];
  /** The real path of an existing path (or of the last existing name of a missing one). */
  readonly real?: string;
  /** The last existing name's folder on disk, for a missing path. */
  readonly missingFrom?: string;
  /** For "Parent directory does not exist": the name that is a link to nothing. */
  readonly danglingLink?: string;
  /** For "Ambiguous Unicode path component": the entries that matched. */
  readonly ambiguous?: readonly string[];
}

/** Where each step differs from Boundary Inspector's own stage, said in the step's note. */
const UNLIKE_OURS: Readonly<Record<string, string>> = {
  expandHome: 'Boundary Inspector expands no ~: "~/x" is a name below the workspace',
  'Windows drive path': 'Boundary Inspector reads C:\\x on Linux as a relative name, and says so',
  resolveRelativePathAgainstAllowedDirectories: 'Boundary Inspector takes a relative path from its one workspace root',
  normalizePath: 'Boundary Inspector never drops quotes or spaces from a path',
  isPathWithinAllowedDirectories: 'Boundary Inspector compares path components, folding case where the filesystem does',
  'fs.realpath': "Boundary Inspector judges each link's text below the root before following it, and looks nothing up outside",
  resolveUnicodeEquivalentPath: 'Boundary Inspector never takes another Unicode spelling for a name; a missing tail is taken as written from the deepest existing folder, as here',
};

const errnoMessage = (code: string, syscall: string, path: string) => {
  const words: Record<string, string> = { ENOENT: 'no such file or directory', ENOTDIR: 'not a directory', ELOOP: 'too many symbolic links encountered', EACCES: 'permission denied', ENAMETOOLONG: 'name too long' };
  return `${code}: ${words[code] ?? code.toLowerCase()}, ${syscall} '${path}'`;
};

export function validatePath(requestedPath: string, allowed: readonly string[], context: DeciderContext): Validated {
  const { platform, fs, cwd } = context;
  const path = nodePath(platform);
  const within = (p: string, dirs: readonly string[] = allowed) => isPathWithinAllowedDirectories(p, dirs, platform, cwd);
  const inList = allowed.join(', ');
  const stages: DeciderStage[] = [];
  const unicodeMatches: { requested: string; onDisk: string }[] = [];
  const stage = (name: string, status: DeciderStage['status'], input: string, output: string | null, rule: string, note = ''): void => {
    const ours = UNLIKE_OURS[name];
    stages.push({ name, status, input, output, rule, note: [note, ours].filter(Boolean).join('; ') });
  };
  const refuse = (message: string, extra: Partial<Validated> = {}): Validated => ({ stages, refusal: message, path: null, unicodeMatches, ...extra });

  const expandedPath = expandHome(requestedPath, context.home, platform);
  stage('expandHome', expandedPath === requestedPath ? 'pass' : 'note', requestedPath, expandedPath, '~ and ~/... become the home folder (os.homedir()); nothing else is expanded or decoded', expandedPath === requestedPath ? '' : `~ is ${visible(context.home)}`);

  if (platform !== 'win32') {
    const drive = /^(?:[A-Za-z]:)(?:[\\/]|$)/.test(expandedPath);
    stage('Windows drive path', drive ? 'refuse' : 'pass', expandedPath, drive ? null : expandedPath, 'on a POSIX host, a path starting with a drive letter (C:\\, C:/) is refused rather than read as a relative name');
    if (drive) return refuse(`Access denied - Windows-style path received on a POSIX host: ${requestedPath}`);
  }

  let absolute: string;
  let relativeFrom: string | undefined;
  if (path.isAbsolute(expandedPath)) {
    absolute = path.resolve(cwd, expandedPath);
    stage('path.resolve', absolute === expandedPath ? 'pass' : 'note', expandedPath, absolute, 'an absolute path: path.resolve removes . and .. by name, before any link is looked at');
  } else {
    // resolveRelativePathAgainstAllowedDirectories: the first allowed directory under which the
    // result lies, or else the first one.
    const from = allowed.length === 0 ? undefined : allowed.find((dir) => within(normalizePath(path.resolve(cwd, dir, expandedPath), platform)));
    relativeFrom = from ?? allowed[0];
    absolute = relativeFrom === undefined ? path.resolve(cwd, expandedPath) : path.resolve(cwd, relativeFrom, expandedPath);
    const note =
      relativeFrom === undefined
        ? "no allowed directory: taken from the server's working folder"
        : from === undefined
          ? `under no allowed directory from any of them: taken from the first, ${visible(relativeFrom)}`
          : `taken from ${visible(relativeFrom)}, the first allowed directory under which it lands${allowed.length > 1 ? ', whichever holds the file' : ''}`;
    stage('resolveRelativePathAgainstAllowedDirectories', 'note', expandedPath, absolute, 'a relative path: tried against each allowed directory in turn (path.resolve), the first under which it lies wins', note);
  }

  const normalizedRequested = normalizePath(absolute, platform);
  const trimmed = absolute.trim().replace(/^["']|["']$/g, '') !== absolute;
  stage(
    'normalizePath',
    normalizedRequested === absolute ? 'pass' : 'note',
    absolute,
    normalizedRequested,
    'surrounding spaces and quotes dropped; repeated and trailing separators removed; a Windows drive letter upper-cased',
    trimmed ? 'spaces or quotes removed here for the check only: the tool opens the path with them' : '',
  );
  if (!within(normalizedRequested)) {
    stage('isPathWithinAllowedDirectories', 'refuse', normalizedRequested, null, 'inside when equal to an allowed directory or starting with it and a separator: strings compared by prefix, with letter case', `allowed: ${visible(inList)}`);
    return refuse(`Access denied - path outside allowed directories: ${absolute} not in ${inList}`, { absolute, ...(relativeFrom ? { relativeFrom } : {}) });
  }
  stage('isPathWithinAllowedDirectories', 'pass', normalizedRequested, normalizedRequested, 'inside when equal to an allowed directory or starting with it and a separator: strings compared by prefix, with letter case');

  const base = { absolute, ...(relativeFrom ? { relativeFrom } : {}) };
  if (context.simulated) {
    stage('fs.realpath', 'skip', absolute, absolute, 'the real path (every link followed) must be inside an allowed directory too', 'simulated: the filesystem of another platform is not consulted');
    return { stages, path: absolute, unicodeMatches, ...base };
  }
  const real = nodeRealpath(fs, absolute, platform);
  if (real.ok) {
    const normalizedReal = normalizePath(real.path, platform);
    if (!within(normalizedReal)) {
      stage('fs.realpath', 'refuse', absolute, real.path, 'the real path (every link followed) must be inside an allowed directory too', `allowed: ${visible(inList)}`);
      return refuse(`Access denied - symlink target outside allowed directories: ${real.path} not in ${inList}`, { ...base, real: real.path });
    }
    stage('fs.realpath', 'pass', absolute, real.path, 'the real path (every link followed) must be inside an allowed directory too');
    stages.push({ name: 'resolveUnicodeEquivalentPath', status: 'skip', input: absolute, output: null, rule: 'only for a path that does not exist', note: '' });
    return { stages, path: real.path, unicodeMatches, ...base, real: real.path };
  }
  if (real.error !== 'ENOENT') {
    stage('fs.realpath', 'note', absolute, null, 'the real path (every link followed) must be inside an allowed directory too', `${real.error}: not a refusal, the error is the tool's answer`);
    return { stages, path: null, unicodeMatches, failure: errnoMessage(real.error, 'realpath', absolute), ...base };
  }
  stage('fs.realpath', 'note', absolute, null, 'the real path (every link followed) must be inside an allowed directory too', 'ENOENT: nothing there yet, so its names are matched one by one');

  // resolveUnicodeEquivalentPath: from the longest allowed directory holding the path, each name
  // matched exactly, or else by its NFC form, against the folder's entries, links followed and
  // checked as it goes; the first missing name ends the walk with the rest appended.
  const unicodeRule = 'from the allowed directory holding the path, each name matched to an entry of its folder exactly, else by NFC form (two matches refused); each match realpath-ed and checked; the first name with no match ends the walk, the rest appended';
  const parentMissing = (extra: Partial<Validated> = {}): Validated => {
    const message = `Parent directory does not exist: ${path.dirname(absolute)}`;
    stage('resolveUnicodeEquivalentPath', 'refuse', absolute, null, unicodeRule, extra.danglingLink ? `${visible(extra.danglingLink)} is a link to nothing (ENOENT), reported as a missing parent` : 'ENOENT');
    return refuse(message, { ...base, ...extra });
  };
  const holder = [...allowed].sort((left, right) => right.length - left.length).find((dir) => within(normalizePath(absolute, platform), [dir]));
  if (holder === undefined) {
    stage('resolveUnicodeEquivalentPath', 'pass', absolute, absolute, unicodeRule, 'in no single allowed directory: taken as it is');
    return { stages, path: absolute, unicodeMatches, ...base };
  }
  const start = nodeRealpath(fs, holder, platform);
  if (!start.ok) return parentMissing();
  let currentPath = start.path;
  const parts = path.relative(cwd, holder, absolute).split(path.sep).filter(Boolean);
  for (let index = 0; index < parts.length; index++) {
    const requested = parts[index]!;
    const listed = nodeReaddir(fs, currentPath);
    if (!listed.ok) {
      if (listed.error === 'ENOENT') return parentMissing();
      stage('resolveUnicodeEquivalentPath', 'note', absolute, null, unicodeRule, `${listed.error} listing ${visible(currentPath)}: not a refusal, the error is the tool's answer`);
      return { stages, path: null, unicodeMatches, failure: errnoMessage(listed.error, 'scandir', currentPath), ...base };
    }
    const exact = listed.names.find((entry) => entry === requested);
    const matches = exact !== undefined ? [exact] : listed.names.filter((entry) => entry.normalize('NFC') === requested.normalize('NFC'));
    if (matches.length > 1) {
      stage('resolveUnicodeEquivalentPath', 'refuse', absolute, null, unicodeRule, `${spelledOut(requested)} matches ${matches.map(spelledOut).join(' and ')} in ${visible(currentPath)}`);
      return refuse(`Ambiguous Unicode path component: ${requested}`, { ...base, ambiguous: matches.map((m) => path.join(currentPath, m)), missingFrom: currentPath });
    }
    if (matches.length === 0) {
      const result = path.join(currentPath, ...parts.slice(index));
          const matched = unicodeMatches.map(({ requested: r, onDisk }) => `${spelledOut(r)} matched ${spelledOut(onDisk)} on disk by NFC form`);
      stage('resolveUnicodeEquivalentPath', 'pass', absolute, result, unicodeRule, [`${visible(requested)} is not in ${visible(currentPath)}: the rest is appended`, ...matched].join('; '));
      return { stages, path: result, unicodeMatches, ...base, missingFrom: currentPath };
    }
    const match = matches[0]!;
    if (match !== requested) unicodeMatches.push({ requested, onDisk: match });
    const entry = path.join(currentPath, match);
    const followed = nodeRealpath(fs, entry, platform);
    if (!followed.ok) {
      if (followed.error === 'ENOENT') return parentMissing({ danglingLink: entry });
      stage('resolveUnicodeEquivalentPath', 'note', absolute, null, unicodeRule, `${followed.error} at ${visible(entry)}: not a refusal, the error is the tool's answer`);
      return { stages, path: null, unicodeMatches, failure: errnoMessage(followed.error, 'realpath', entry), ...base };
    }
    currentPath = followed.path;
    if (!within(normalizePath(currentPath, platform))) {
      stage('resolveUnicodeEquivalentPath', 'refuse', absolute, currentPath, unicodeRule, `${visible(entry)} leads to ${visible(currentPath)}`);
      return refuse(`Access denied - symlink target outside allowed directories: ${currentPath} not in ${inList}`, { ...base, real: currentPath });
    }
  }
  const matched = unicodeMatches.map(({ requested: r, onDisk }) => `${spelledOut(r)} matched ${spelledOut(onDisk)} on disk by NFC form`);
  stage('resolveUnicodeEquivalentPath', 'pass', absolute, currentPath, unicodeRule, matched.join('; '));
  return { stages, path: currentPath, unicodeMatches, ...base, real: currentPath };
}
