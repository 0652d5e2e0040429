// read_file's ignore check (core services/fileDiscoveryService.js and its parsers): .geminiignore,
// the custom ignore files of context.fileFiltering, and in a git repository the .gitignore files
// (each from its own folder) and .git/info/exclude, all matched by the `ignore` package as
// Gemini CLI matches them; and a link that leaves the working folder counts as ignored.
import ignore, { type Ignore } from 'ignore';
import { nodePath } from '../shared/node.js';
import type { RuleSource } from '../types.js';
import { exists, isSubpath, resolveToRealPath, type GeminiHost } from './paths.js';

export interface IgnoreOptions {
  readonly respectGitIgnore: boolean;
  readonly respectGeminiIgnore: boolean;
  readonly customIgnoreFilePaths: readonly string[];
}

export interface IgnoreFileRead {
  readonly path: string;
  readonly found: boolean;
  readonly role: string;
}

export interface IgnoreVerdict {
  readonly ignored: boolean;
  /** The path (as it was checked) and what matched it. */
  readonly checked?: string;
  readonly source?: RuleSource;
  readonly files: readonly IgnoreFileRead[];
}

/** The lines of an ignore file that are patterns (IgnoreFileParser: trimmed, not blank, not a comment). */
function patternLines(text: string, trim: (line: string) => string): string[] {
  return text
    .split(/\r\n|\n|\r/)
    .map(trim)
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** GitIgnoreParser.processPatterns: a file's patterns made relative to the project root. */
function rebased(patterns: readonly string[], base: string): string[] {
  const { join } = nodePath('linux');
  return patterns
    .map((pattern) => {
      let p = pattern;
      const negative = p.startsWith('!');
      if (negative) p = p.slice(1);
      const anchored = p.startsWith('/');
      if (anchored) p = p.slice(1);
      if (p === '') return '';
      let out = p;
      if (base !== '' && base !== '.') {
        if (!anchored && !p.includes('/')) out = join('**', p);
        out = join(base, out);
        if (!out.startsWith('/')) out = `/${out}`;
      }
      if (anchored && !out.startsWith('/')) out = `/${out}`;
      return negative ? `!${out}` : out;
    })
    .filter((p) => p !== '');
}

/**
 * getNormalizedRelativePath: the path relative to the project root with `/`, a folder's with a
 * trailing `/`; null outside the root.
 */
function relativeToRoot(host: GeminiHost, root: string, filePath: string, isDirectory: boolean): string | null {
  const { path } = host;
  const absolute = path.resolve(root, filePath);
  const macos = (p: string) => (host.platform === 'darwin' && /^\/(var|tmp|etc)(\/|$)/.test(p) ? `/private${p}` : p);
  const rootWithSep = macos(root).endsWith(path.sep) ? macos(root) : macos(root) + path.sep;
  if (macos(absolute) !== macos(root) && !macos(absolute).startsWith(rootWithSep)) return null;
  let relative = path.relative(macos(root), macos(absolute)).replace(/\\/g, '/');
  if (isDirectory && relative !== '' && !relative.endsWith('/')) relative += '/';
  if (relative === '') return isDirectory ? '/' : '';
  if (relative.startsWith('/') && relative !== '/') relative = relative.slice(1);
  return relative;
}

/** Whether a folder or one above it holds `.git` (isGitRepository). */
function inGitRepository(host: GeminiHost, root: string): boolean {
  for (let dir = root; ; dir = host.path.dirname(dir)) {
    if (exists(host, host.path.join(dir, '.git'))) return true;
    if (host.path.dirname(dir) === dir) return false;
  }
}

/**
 * FileDiscoveryService.shouldIgnoreFile for read_file: the path as the model gave it, then as
 * resolved; either one ignored refuses the read.
 */
export function ignoredForRead(host: GeminiHost, options: IgnoreOptions, given: string, resolved: string): IgnoreVerdict {
  const { fs, path } = host;
  const root = path.resolve(host.processCwd, host.processCwd);
  const files: IgnoreFileRead[] = [];
  // Each file's text, to name the line that matched: a .gitignore's patterns count from its own folder.
  const texts: { readonly path: string; readonly text: string; readonly base: string | undefined }[] = [];
  const readPatterns = (file: string, role: string, trim: (line: string) => string) => {
    const text = fs.readText(file);
    files.push({ path: file, found: text !== undefined, role });
    if (text !== undefined) texts.push({ path: file, text, base: undefined });
    return text === undefined ? [] : patternLines(text, trim);
  };
  const geminiPatterns = readPatterns(path.join(root, '.geminiignore'), '.geminiignore', (line) => line.trim());
  // Files earlier in the list take precedence, so they are added last.
  const customPatterns = [...options.customIgnoreFilePaths].reverse().flatMap((name) => readPatterns(path.join(root, name), 'custom ignore file (context.fileFiltering.customIgnoreFilePaths)', (line) => line.trim()));
  const git = inGitRepository(host, root);

  const gitIgnored = (extra: readonly string[]) => {
    const processedExtra = ignore().add(rebased(extra, '.'));
    const gitignoreOf = new Map<string, Ignore>();
    const loadGitignore = (file: string, base: string): Ignore => {
      const text = fs.readText(file);
      if (!files.some((seen) => seen.path === file)) {
        files.push({ path: file, found: text !== undefined, role: base === '.' && file.endsWith('exclude') ? '.git/info/exclude' : '.gitignore' });
        if (text !== undefined) texts.push({ path: file, text, base });
      }
      return ignore().add(text === undefined ? [] : rebased(patternLines(text, (line) => line.trimStart()), base));
    };
    return (filePath: string, isDirectory: boolean): boolean => {
      const relative = relativeToRoot(host, root, filePath, isDirectory);
      if (relative === null || relative === '' || relative === '/') return false;
      try {
        const ig = ignore().add('.git').add(loadGitignore(path.join(root, '.git', 'info', 'exclude'), '.'));
        const parts = relative.split('/');
        const dirs = [root];
        for (let i = 0; i < parts.length - 1; i++) dirs.push(path.join(dirs[dirs.length - 1]!, parts[i]!));
        for (const dir of dirs) {
          if (path.relative(root, dir) !== '') {
            const dirRelative = relativeToRoot(host, root, dir, true);
            if (dirRelative && ignore().add(ig).add(processedExtra).ignores(dirRelative)) break;
          }
          if (!gitignoreOf.has(dir)) {
            const base = path.relative(root, dir).split(path.sep).join('/') || '.';
            gitignoreOf.set(dir, loadGitignore(path.join(dir, '.gitignore'), base));
          }
          ig.add(gitignoreOf.get(dir)!);
        }
        return ig.add(processedExtra).ignores(relative);
      } catch {
        return false;
      }
    };
  };
  const listIgnored = (patterns: readonly string[]) => {
    const ig = ignore().add([...patterns]);
    return (filePath: string, isDirectory: boolean): boolean => {
      if (patterns.length === 0) return false;
      const relative = relativeToRoot(host, root, filePath, isDirectory);
      return relative !== null && relative !== '' && relative !== '/' && ig.ignores(relative);
    };
  };

  const combined = git ? gitIgnored([...geminiPatterns, ...customPatterns]) : listIgnored([...geminiPatterns, ...customPatterns]);
  const filters = (filePath: string, isDirectory: boolean): string | undefined => {
    if (options.respectGitIgnore && options.respectGeminiIgnore) return combined(filePath, isDirectory) ? (git ? '.geminiignore, .gitignore and the custom ignore files' : '.geminiignore and the custom ignore files') : undefined;
    if (listIgnored(customPatterns)(filePath, isDirectory)) return 'a custom ignore file';
    if (options.respectGitIgnore && git && gitIgnored([])(filePath, isDirectory)) return '.gitignore';
    if (options.respectGeminiIgnore && listIgnored(geminiPatterns)(filePath, isDirectory)) return '.geminiignore';
    return undefined;
  };
  const shouldIgnore = (filePath: string): string | undefined => {
    const by = filters(filePath, false);
    if (by !== undefined) return by;
    const absolute = path.resolve(root, filePath);
    if (fs.lstat(absolute).kind !== 'symlink') return undefined;
    try {
      const real = resolveToRealPath(host, absolute);
      if (!isSubpath(host, resolveToRealPath(host, root), real)) return 'a link that leads out of the working folder';
      const targetIsDir = fs.lstat(real).kind === 'directory';
      return filters(real, targetIsDir);
    } catch {
      return undefined;
    }
  };
  /** The first pattern line that, alone, ignores the path. */
  const culprit = (checked: string): RuleSource | undefined => {
    const relative = relativeToRoot(host, root, checked, false);
    if (relative === null || relative === '') return undefined;
    for (const { path: file, text, base } of texts) {
      const lines = text.split(/\r\n|\n|\r/);
      for (let i = 0; i < lines.length; i++) {
        const pattern = lines[i]!.trim();
        if (pattern === '' || pattern.startsWith('#') || pattern.startsWith('!')) continue;
        if (ignore().add(base === undefined ? [pattern] : rebased([pattern], base)).ignores(relative)) return { text: `${pattern} (${files.find((seen) => seen.path === file)?.role ?? file})`, file, line: i + 1 };
      }
    }
    return undefined;
  };
  for (const checked of [given, resolved]) {
    const by = shouldIgnore(checked);
    if (by !== undefined) return { ignored: true, checked, source: culprit(checked) ?? { text: `ignored by ${by}` }, files };
  }
  return { ignored: false, files };
}
