// A JSON settings file as the agents read it (comments allowed, then JSON.parse), and the line of
// a setting in it, for a decision to name the line that mattered and a fix to open the file there.
// The ES module build: the package's main is a UMD wrapper whose inner requires no bundler follows.
import { findNodeAtLocation, parse, parseTree, stripComments, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { DeciderFileSystem } from './types.js';

export type JsonPath = readonly (string | number)[];

export interface JsonSettingsFile {
  readonly path: string;
  /** Whether a file is there (a link to nothing is not). */
  readonly found: boolean;
  readonly text?: string;
  /** What JSON.parse gave, comments removed; undefined when absent or when it did not parse. */
  readonly value?: unknown;
  /** Why it could not be read or parsed. */
  readonly error?: string;
}

/** Reads a settings file whose comments are removed before JSON.parse (strip-json-comments, as Gemini CLI and Claude Code do). */
export function readJsonSettings(fs: DeciderFileSystem, path: string): JsonSettingsFile {
  const look = fs.lstat(path);
  if (look.kind === 'missing') return { path, found: false };
  const text = fs.readText(path);
  if (text === undefined) {
    // A link to nothing is no file; anything else that cannot be read is an error the program meets too.
    return look.kind === 'symlink' ? { path, found: false } : { path, found: true, error: 'the file cannot be read' };
  }
  try {
    return { path, found: true, text, value: JSON.parse(stripComments(text, ' ')) };
  } catch (error) {
    return { path, found: true, text, error: (error as Error).message };
  }
}

/**
 * Reads a settings file as VS Code does: comments and trailing commas allowed, and what parses of
 * a broken file kept (`error` then says what did not).
 */
export function readJsoncSettings(fs: DeciderFileSystem, path: string): JsonSettingsFile {
  const look = fs.lstat(path);
  if (look.kind === 'missing') return { path, found: false };
  const text = fs.readText(path);
  if (text === undefined) return look.kind === 'symlink' ? { path, found: false } : { path, found: true, error: 'the file cannot be read' };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return { path, found: true, text, value, ...(errors.length > 0 ? { error: `it does not parse whole (${errors.length} error${errors.length === 1 ? '' : 's'}); what parses is used` } : {}) };
}

/** Whether a value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The 1-based line of the value at `at` in a settings file's text, or of the nearest enclosing
 * value there is (the file's first line when nothing of it is there).
 */
export function lineOf(text: string, at: JsonPath): number {
  const tree = parseTree(text);
  if (!tree) return 1;
  for (let depth = at.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(tree, [...at.slice(0, depth)]);
    // A property's value: its key's line is where a person reads it.
    const offset = node?.parent?.type === 'property' ? node.parent.offset : node?.offset;
    if (offset !== undefined) return text.slice(0, offset).split('\n').length;
  }
  return 1;
}

/**
 * A settings file's text that JSON.parse refuses only for its trailing commas, written out
 * without them (and without its comments); undefined when more is wrong with it.
 */
export function withoutTrailingCommas(text: string): string | undefined {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length === 0 && value !== undefined ? `${JSON.stringify(value, null, 2)}\n` : undefined;
}
