import nodePath from 'node:path';
import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { errnoOf, readIn, STOP, STOP_BEFORE, walkInTurns, type Folder, type WalkEntry } from '../fs/index.js';
import {
  ANSWER_BUDGET_BYTES,
  AnswerBudget,
  DEFAULT_MATCHES_PER_FILE,
  formatBytes,
  jsonLength,
  MAX_BRACE_EXPANSION,
  MAX_CONTEXT_LINES,
  MAX_MATCH_LINE_CHARS,
  MAX_MATCHES_PER_FILE,
  MAX_SEARCH_FILE_BYTES,
  MAX_SEARCH_READ_BYTES,
  MAX_WALK_DEPTH,
  MAX_WALK_ENTRIES,
} from '../limits.js';
import { compileLinePattern, type LinePattern } from '../linePattern.js';
import { decodeText } from '../text.js';
import { cursorField, defineTool, ok, pathField, refused } from './tool.js';
import { walkCursor, walkWithinOf, type Within } from './cursor.js';
import { checkPatternLength, excluder, type GlobBudget } from './directoryTree.js';
import { requireDirectory } from './entries.js';
import { heldInWalk } from './secretConsent.js';

interface Line {
  line: number;
  text: string;
}

interface FileMatches {
  path: string;
  matches: Line[];
  context?: Line[];
  /** The file has more matches than maxPerFile. */
  more?: true;
}

/** What was not searched, and why: each a count. */
interface Skipped {
  notText: number;
  tooLarge: number;
  links: number;
  unreadable: number;
  /** Held by the secrets policy: files not read, and folders not entered. */
  held: number;
  heldFolders: number;
}

const globsField = z.array(z.string());

/** A line as shown: at most MAX_MATCH_LINE_CHARS, cut around the match; a CRLF file's CR is not shown. */
function shown(line: string, at: number): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.length <= MAX_MATCH_LINE_CHARS) return text;
  const start = Math.max(0, Math.min(at - 100, text.length - MAX_MATCH_LINE_CHARS));
  const end = start + MAX_MATCH_LINE_CHARS;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** A file's lines as grep numbers them: a final newline ends the last line rather than starting another. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The matching lines of one file (the first `limit` after the `skip` already given), with up to
 * `context` lines around each, each line once.
 */
function matchesIn(text: string, pattern: LinePattern, context: number, skip: number, limit: number): { matches: Line[]; context: Line[]; more: boolean } {
  const matches: Line[] = [];
  const around: Line[] = [];
  if (!pattern.anywhere(text)) return { matches, context: around, more: false };
  const lines = linesOf(text);
  let seen = 0;
  let more = false;
  const hits: number[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const at = pattern.inLine(lines[index]!);
    if (at < 0) continue;
    seen += 1;
    if (seen <= skip) continue;
    if (matches.length === limit) {
      more = true;
      break;
    }
    hits.push(index);
    matches.push({ line: index + 1, text: shown(lines[index]!, at) });
  }
  if (context > 0) {
    const isHit = new Set(hits);
    let next = 0;
    for (const hit of hits) {
      for (let index = Math.max(next, hit - context); index <= Math.min(lines.length - 1, hit + context); index += 1) {
        if (!isHit.has(index)) around.push({ line: index + 1, text: shown(lines[index]!, 0) });
        next = index + 1;
      }
    }
  }
  return { matches, context: around, more };
}

/** The bytes a line costs in the structured result, which is longer than its line of text. */
function lineCost(line: Line): number {
  return jsonLength(line.text) + 24;
}

/** grep's layout, grouped by file: `12:` a matching line, `13-` a line of context, `--` between groups. */
function fileText(file: FileMatches): string[] {
  const lines = [...file.matches.map((line) => ({ ...line, mark: ':' })), ...(file.context ?? []).map((line) => ({ ...line, mark: '-' }))].sort((a, b) => a.line - b.line);
  const out = [quotedIfHidden(file.path)];
  let previous: number | undefined;
  for (const line of lines) {
    if (previous !== undefined && line.line > previous + 1) out.push('--');
    out.push(`${line.line}${line.mark}${line.text}`);
    previous = line.line;
  }
  if (file.more) out.push('(more matches in this file: raise maxPerFile)');
  return out;
}

function skippedText(skipped: Skipped): string[] {
  const parts = [
    skipped.notText > 0 ? `${skipped.notText} not text` : '',
    skipped.tooLarge > 0 ? `${skipped.tooLarge} over ${formatBytes(MAX_SEARCH_FILE_BYTES)}` : '',
    skipped.links > 0 ? `${skipped.links} links (never followed)` : '',
    skipped.unreadable > 0 ? `${skipped.unreadable} unreadable` : '',
  ].filter((part) => part !== '');
  const lines = parts.length === 0 ? [] : [`(not searched: ${parts.join(', ')})`];
  const held = [counted(skipped.held, 'file'), counted(skipped.heldFolders, 'folder')].filter((part) => part !== '');
  if (held.length > 0) lines.push(`(${held.join(' and ')} held by the secrets policy not searched: read a file by its path to ask the person)`);
  return lines;
}

function counted(count: number, noun: string): string {
  return count === 0 ? '' : `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function inRange(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (value < min || value > max) throw Object.assign(new Error(`${name} must be from ${min} to ${max}.`), { code: 'EINVAL' });
  return value;
}

export const searchFileContents = defineTool({
  name: 'search_file_contents',
  title: 'Search inside files',
  description:
    'Lines with pattern in text files below a folder; regex: RE2; globs pick files, !glob skips.',
  input: {
    path: pathField,
    pattern: z.string(),
    regex: z.boolean().optional(),
    ignoreCase: z.boolean().optional(),
    globs: globsField.optional(),
    context: z.number().int().optional(),
    maxPerFile: z.number().int().optional(),
    cursor: cursorField,
  },
  output: z.object({
    path: z.string().describe('The folder searched, relative to the workspace.'),
    files: z
      .array(
        z.object({
          path: z.string().describe('Relative to the workspace.'),
          matches: z.array(z.object({ line: z.number().int(), text: z.string() })).describe('Matching lines, numbered from 1; a long line is cut around the match, marked with …'),
          context: z.array(z.object({ line: z.number().int(), text: z.string() })).optional().describe('Lines around the matches that do not match themselves.'),
          more: z.literal(true).optional().describe('The file has more matching lines than maxPerFile.'),
        }),
      )
      .describe('Files with matches, in walk order.'),
    searched: z.number().int().describe('Files searched by this answer.'),
    skipped: z
      .object({ notText: z.number().int(), tooLarge: z.number().int(), links: z.number().int(), unreadable: z.number().int(), held: z.number().int(), heldFolders: z.number().int() })
      .describe(
        `Files this answer did not search: not text (NUL bytes or not UTF-8), over ${formatBytes(MAX_SEARCH_FILE_BYTES)}, links (never followed), unreadable, ` +
          'held by the secrets policy (read one by its path to ask the person); and held folders, not entered.',
      ),
    truncated: z.boolean().describe('True when there may be more matches: see nextCursor, or folders too deep to enter.'),
    nextCursor: z.string().optional().describe('Pass it as cursor, with the same arguments, for the matches after these.'),
  }),
  heavy: true,
  async run({ path: input, pattern, regex, ignoreCase, globs: given, context: contextLines, maxPerFile, cursor }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    checkPatternLength(pattern);
    const context = inRange('context', contextLines, 0, 0, MAX_CONTEXT_LINES);
    const limit = inRange('maxPerFile', maxPerFile, DEFAULT_MATCHES_PER_FILE, 1, MAX_MATCHES_PER_FILE);
    const resume = walkWithinOf(cursor);
    const globs: GlobBudget = { left: MAX_BRACE_EXPANSION };
    // As ripgrep's --glob: a file is searched when it matches a glob (or none is given) and no !glob.
    // One matcher for each list, "any of them", as exclude patterns are matched.
    const include = (given ?? []).filter((glob) => !glob.startsWith('!'));
    const included = include.length === 0 ? () => true : excluder(include, globs);
    const excluded = excluder((given ?? []).filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1)), globs);
    const lines = compileLinePattern(pattern, { regex: regex === true, caseSensitive: ignoreCase !== true });

    const files: FileMatches[] = [];
    const skipped: Skipped = { notText: 0, tooLarge: 0, links: 0, unreadable: 0, held: 0, heldFolders: 0 };
    const budget = new AnswerBudget(ANSWER_BUDGET_BYTES);
    let within: Within | undefined = resume?.within;
    let stoppedWithin: Within | undefined;
    let searched = 0;
    let bytesRead = 0;
    let tooDeep = false;

    /** Searches one file; a verdict for the walk when the answer is full. */
    const searchFile = (entry: WalkEntry, folder: Folder): typeof STOP | typeof STOP_BEFORE | undefined => {
      let bytes: Buffer;
      try {
        bytes = readIn(folder, entry.name, MAX_SEARCH_FILE_BYTES, entry.relative).bytes;
      } catch (error) {
        const code = errnoOf(error);
        if (code === 'EFBIG') skipped.tooLarge += 1;
        // Gone since its folder was listed: nothing to search.
        else if (code !== 'ENOENT') skipped.unreadable += 1;
        return undefined;
      }
      bytesRead += bytes.length;
      const decoded = decodeText(bytes);
      if ('notText' in decoded) {
        skipped.notText += 1;
        return undefined;
      }
      searched += 1;
      const given = within !== undefined && within.name === entry.name ? within.given : 0;
      within = undefined;
      const found = matchesIn(decoded.text, lines, context, given, limit - given);
      if (found.matches.length > 0) {
        const path = scope.relative(nodePath.join(checked.path, ...entry.names));
        const file: FileMatches = { path, matches: [] };
        // An answer holds at least one match, without its context if that is too long: it always gets somewhere.
        const first = files.length === 0;
        if (!budget.take(jsonLength(path) + 40) && !first) return STOP_BEFORE;
        const shownContext: Line[] = [];
        for (const match of found.matches) {
          const around = found.context.filter((line) => Math.abs(line.line - match.line) <= context && !shownContext.includes(line));
          const fits = budget.take(lineCost(match) + around.reduce((sum, line) => sum + lineCost(line), 0));
          if (!fits && !(first && file.matches.length === 0)) break;
          file.matches.push(match);
          if (fits) shownContext.push(...around);
        }
        if (shownContext.length > 0) file.context = shownContext.sort((a, b) => a.line - b.line);
        const taken = file.matches.length;
        if (taken < found.matches.length) {
          // The answer is full inside this file: the next one goes on in it.
          if (taken > 0) files.push(file);
          if (given + taken > 0) stoppedWithin = { name: entry.name, given: given + taken };
          return STOP_BEFORE;
        }
        if (found.more) file.more = true;
        files.push(file);
      }
      return bytesRead >= MAX_SEARCH_READ_BYTES ? STOP : undefined;
    };

    const call = scope.call;
    const result = await walkInTurns<true>({
      signal: call.signal,
      onProgress: (examined) => call.progress(examined, undefined, `${examined} entries examined, ${searched} files searched`),
      anchor: scope.anchor,
      start: checked.target.names,
      context: true,
      maxEntries: MAX_WALK_ENTRIES,
      // Each file may be a megabyte to search: the clock is read at every entry, so a cancel is heard between files.
      clockEvery: 1,
      ...(resume !== undefined ? { resume: resume.walk } : {}),
      exclude: (entry) => excluded(entry.relative),
      visit(entry, below, _parent, folder) {
        if (below.kind === 'too-deep') tooDeep = true;
        // A secret's lines never reach the answer: a held file is not read, a held folder not entered.
        if ((entry.type === 'file' || entry.type === 'directory') && heldInWalk(scope.grant, scope.state.platform, [...checked.target.names, ...entry.names], entry.type === 'directory') !== undefined) {
          if (entry.type === 'directory') skipped.heldFolders += 1;
          else if (included(entry.relative)) skipped.held += 1;
          return undefined;
        }
        if (entry.type === 'symlink' && included(entry.relative)) skipped.links += 1;
        if (entry.type === 'file' && included(entry.relative)) {
          const verdict = searchFile(entry, folder());
          if (verdict !== undefined) return verdict;
        }
        // Links are never descended: their targets were not checked.
        return below.kind === 'folder' ? true : undefined;
      },
    });
    call.progress(result.examined, result.examined, `${result.examined} entries examined, ${searched} files searched`, true);
    const nextCursor = result.position !== undefined ? walkCursor(result.position, stoppedWithin) : undefined;
    const text = files.flatMap(fileText);
    if (files.length === 0 && nextCursor === undefined) text.push(`No match for ${quotedIfHidden(pattern)} under ${quotedIfHidden(scope.relative(checked.path))}.`);
    text.push(...skippedText(skipped));
    if (nextCursor !== undefined) text.push(`(more may follow: call again with cursor ${nextCursor})`);
    if (tooDeep) text.push(`(folders ${MAX_WALK_DEPTH} levels down were not searched: search from deeper down)`);
    return ok(
      {
        path: scope.relative(checked.path),
        files,
        searched,
        skipped,
        truncated: nextCursor !== undefined || tooDeep,
        ...(nextCursor !== undefined ? { nextCursor } : {}),
      },
      text.join('\n'),
    );
  },
});
