// config.toml as Codex reads it (a TOML document, parsed by smol-toml), and where in its text a
// setting is written: the trace names the line that decided, and a fix the line to change.
import { parse, TomlError } from 'smol-toml';

export type TomlTable = { readonly [key: string]: unknown };

export type Parsed = { readonly ok: true; readonly table: TomlTable } | { readonly ok: false; readonly reason: string; readonly line?: number };

export function parseToml(text: string): Parsed {
  try {
    return { ok: true, table: parse(text) as TomlTable };
  } catch (error) {
    if (error instanceof TomlError) return { ok: false, reason: error.message.split('\n')[0]!, line: error.line };
    return { ok: false, reason: String(error) };
  }
}

/** A table: the parser makes them without a prototype, the merge as plain objects; a date is neither. */
export function isTable(value: unknown): value is TomlTable {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === null || prototype === Object.prototype;
}

/** The value at `path` (table names, then the key), or undefined. */
export function valueAt(table: TomlTable, path: readonly string[]): unknown {
  let at: unknown = table;
  for (const key of path) {
    if (!isTable(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** Merges `over` into a copy of `base` as Codex merges its layers: tables key by key, anything else replaced whole. */
export function mergeTables(base: TomlTable, over: TomlTable): TomlTable {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = merged[key];
    merged[key] = isTable(under) && isTable(value) ? mergeTables(under, value) : value;
  }
  return merged;
}

/** A TOML basic string: JSON's escapes are TOML's. */
export function tomlString(text: string): string {
  return JSON.stringify(text);
}

const KEY_PART = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`;
const KEY_PATH = String.raw`${KEY_PART}(?:\s*\.\s*${KEY_PART})*`;
const HEADER = new RegExp(String.raw`^\s*\[\s*(${KEY_PATH})\s*\]\s*(?:#.*)?$`);
const ARRAY_HEADER = new RegExp(String.raw`^\s*\[\[\s*(${KEY_PATH})\s*\]\]\s*(?:#.*)?$`);
const KEY_LINE = new RegExp(String.raw`^\s*(${KEY_PATH})\s*=(.*)$`);

function keyParts(path: string): string[] {
  return [...path.matchAll(new RegExp(KEY_PART, 'g'))].map(([part]) => (part.startsWith('"') ? (JSON.parse(part) as string) : part.startsWith("'") ? part.slice(1, -1) : part));
}

/** How far brackets and braces opened in a value stay open at its end, strings and comments aside. */
function openDepth(value: string, depth: number): number {
  let quote: string | null = null;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (quote !== null) {
      if (char === '\\' && quote === '"') i++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '#') break;
    if (char === '"' || char === "'") quote = char;
    else if (char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') depth--;
  }
  return depth;
}

export interface Entry {
  /** The table the line belongs to, then its key's dotted parts. */
  readonly path: readonly string[];
  /** 1-based, the line where the key or the header is written. */
  readonly line: number;
  /** For a table header, the last line of the table; for a key, the last line of its value. */
  readonly end: number;
  readonly header: boolean;
}

/**
 * Every table header and key of a document with the lines it spans. A value spread over several
 * lines (an array, an inline table) counts as one; multi-line strings are not looked into.
 */
export function entries(text: string): Entry[] {
  const lines = text.split(/\r?\n/);
  const found: Entry[] = [];
  let table: string[] = [];
  let header: { path: string[]; line: number; index: number } | undefined;
  let lastContent = 0;
  const closeHeader = () => {
    if (header) found[header.index] = { path: header.path, line: header.line, end: Math.max(header.line, lastContent), header: true };
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const arrayHeader = ARRAY_HEADER.exec(text);
    const tableHeader = arrayHeader ? null : HEADER.exec(text);
    if (arrayHeader || tableHeader) {
      closeHeader();
      table = keyParts((arrayHeader ?? tableHeader)![1]!);
      header = { path: table, line: i + 1, index: found.length };
      found.push({ path: table, line: i + 1, end: i + 1, header: true });
      lastContent = i + 1;
      continue;
    }
    const key = KEY_LINE.exec(text);
    if (!key) {
      if (text.trim() !== '' && !text.trim().startsWith('#')) lastContent = i + 1;
      continue;
    }
    let end = i;
    let depth = openDepth(key[2]!, 0);
    while (depth > 0 && end + 1 < lines.length) depth = openDepth(lines[++end]!, depth);
    found.push({ path: [...table, ...keyParts(key[1]!)], line: i + 1, end: end + 1, header: false });
    lastContent = end + 1;
    i = end;
  }
  closeHeader();
  return found;
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * The line that sets `path`: its key, or the key of an inline table holding it, or for a table
 * its header. Undefined when the text does not write it.
 */
export function lineOf(text: string, path: readonly string[]): number | undefined {
  for (const entry of entries(text)) {
    if (samePath(entry.path, path)) return entry.line;
    if (!entry.header && entry.path.length < path.length && samePath(entry.path, path.slice(0, entry.path.length))) return entry.line;
  }
  return undefined;
}

/** The lines a `[table]` spans, from its header to its last key. */
export function tableSpan(text: string, path: readonly string[]): { readonly line: number; readonly lines: number } | undefined {
  const entry = entries(text).find((candidate) => candidate.header && samePath(candidate.path, path));
  return entry ? { line: entry.line, lines: entry.end - entry.line + 1 } : undefined;
}
