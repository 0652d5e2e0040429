/**
 * What one client can make the server hold or do. Each limit is documented in the README
 * (The MCP server, Limits); a request past one is answered with an error that names it, never by
 * exiting or by growing without bound.
 */

const MiB = 1024 * 1024;

/** One JSON-RPC message in, as one line of stdin. A longer line is skipped and answered with an error. */
export const MAX_MESSAGE_BYTES = 16 * MiB;

/**
 * A file read_text_file and edit_file read, and the largest result edit_file writes. It equals the
 * message limit, which is what bounds write_file's content: whatever can be written can be read
 * back (in parts) and edited.
 */
export const MAX_FILE_BYTES = MAX_MESSAGE_BYTES;

/**
 * Content one answer carries, counted as JSON-encoded bytes. Stock clients drop the connection on
 * a line over 10 MB (the v1 SDK's read buffer), so every answer stays well under it.
 */
export const MAX_ANSWER_BYTES = 8 * MiB;

/**
 * What a listing, tree, search or several files' read puts before the model by default, in
 * JSON-encoded bytes of its text (or of its structured result, which is as long). About 10,000
 * tokens of prose, and no more than 16,000 of paths (2.5 bytes a token): under the 25,000-token cut
 * a widely used command-line agent applies by default, and near the 10,000 at which it warns.
 * Past it, those tools answer with a cursor that goes on where the answer stopped.
 */
export const ANSWER_BUDGET_BYTES = 40_000;

/** A backstop on any message out: an answer past it is replaced by an error naming it. */
export const MAX_SENT_BYTES = 9 * MiB;

/** read_media_file's file size: its base64 takes four bytes for three, and must fit one answer. */
export const MAX_MEDIA_BYTES = 6 * MiB;

/** Calls that may hold megabytes (walks, searches, file contents, diffs) running at once; the rest wait their turn. */
export const MAX_HEAVY_CALLS = 2;
/** Other tool calls running at once: each holds a trace and an answer until it is written. */
export const MAX_LIGHT_CALLS = 32;
/**
 * Long calls (audit_workspace, a walk of up to MAX_AUDIT_ENTRIES entries) running at once; the
 * rest wait their turn, in order. A long call's memory is bounded by the audit itself (the
 * findings it keeps, one folder's names), and it lets the event loop in every few milliseconds,
 * so it takes no heavy slot: no other call waits for a walk.
 */
export const MAX_LONG_CALLS = 2;

/**
 * Bytes written to stdout that the client has not read yet. Past it, no heavy call starts and
 * stdin is not read, so a client that stops reading cannot make answers pile up.
 */
export const MAX_OUTPUT_BACKLOG = 4 * MiB;

/** Requests read but not yet answered; past either bound a new request is answered "busy" at once. */
export const MAX_PENDING_REQUESTS = 4096;
export const MAX_PENDING_BYTES = 64 * MiB;

/** Entries one walk (directory_tree, search_files, a resources/list page) examines, excluded ones included. */
export const MAX_WALK_ENTRIES = 10_000;

/** Entries audit_workspace examines when the call names no limit, and the most a call may ask for. */
export const DEFAULT_AUDIT_ENTRIES = 10_000;
export const MAX_AUDIT_ENTRIES = 100_000;

/** Levels below the starting folder a walk lists; a folder at the last level is reported, not entered. */
export const MAX_WALK_DEPTH = 100;

/** Folder descriptors one walk keeps open; an ancestor closed to stay under it is reopened from the root. */
export const MAX_OPEN_FOLDERS = 16;

/** Files a connection's read memory keeps (readMemory.ts): a few hundred bytes each. */
export const MAX_REMEMBERED_READS = 4096;

/** Folder readings a connection keeps for the next page of a listing (listingMemory.ts), and their entries at most: about 100 bytes each. */
export const MAX_REMEMBERED_LISTINGS = 2;
export const MAX_REMEMBERED_LISTING_ENTRIES = 200_000;

/** Entries list_directory and list_directory_with_sizes return (the first by name). */
export const MAX_LIST_ENTRIES = 10_000;

/** A glob pattern's length, the number of exclude patterns, and the patterns all of them expand to ({a,b} is two). */
export const MAX_PATTERN_LENGTH = 1024;
export const MAX_EXCLUDE_PATTERNS = 64;
export const MAX_BRACE_EXPANSION = 256;

/**
 * search_file_contents: the largest file searched (larger ones are skipped and counted; RE2's
 * WebAssembly heap is 16 MiB, and a file is searched whole before line by line), the matches
 * given of one file by default and at most, the context lines around a match at most, and the
 * characters of a line shown (the rest is cut, around the match).
 */
export const MAX_SEARCH_FILE_BYTES = 1 * MiB;
/** Bytes of files one search_file_contents call reads; its cursor goes on from there. */
export const MAX_SEARCH_READ_BYTES = 64 * MiB;
export const DEFAULT_MATCHES_PER_FILE = 50;
export const MAX_MATCHES_PER_FILE = 1000;
export const MAX_CONTEXT_LINES = 20;
export const MAX_MATCH_LINE_CHARS = 400;

/** resources/list pages: resources per page, entries examined per page, and time per page. */
export const RESOURCES_PER_PAGE = 500;
export const RESOURCE_PAGE_ENTRIES = MAX_WALK_ENTRIES;
export const RESOURCE_PAGE_MILLISECONDS = 250;

/** edit_file: edits per call, and characters searched in total (each edit searches the whole text once). */
export const MAX_EDITS = 1000;
export const MAX_EDIT_WORK = 256 * MiB;

/**
 * The diff edit_file shows: the characters of the changed part it compares (after the common
 * beginning and end are set aside), the changed lines it searches for, its time, and its size.
 */
export const MAX_DIFF_INPUT_CHARS = 1 * MiB;
export const MAX_DIFF_CHANGES = 1000;
export const MAX_DIFF_MILLISECONDS = 250;
export const MAX_DIFF_BYTES = 1 * MiB;

/** Strings in an error or refusal answer (an echoed input, a reason naming it). */
export const MAX_ERROR_FIELD_CHARS = 4096;

/**
 * The bytes `text` takes once JSON-encoded, without the quotes: what it costs in an answer. UTF-8
 * bytes, plus the escapes JSON.stringify writes (\n is two bytes, other controls and lone
 * surrogates six). Counted in one pass, without encoding.
 */
export function jsonLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit < 0x80) {
      if (unit === 0x22 || unit === 0x5c) bytes += 1;
    } else if (unit < 0x20) {
      bytes += unit === 0x0a || unit === 0x0d || unit === 0x09 || unit === 0x08 || unit === 0x0c ? 1 : 5;
    } else if (unit < 0x800) {
      bytes += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        // A pair: four bytes for its two units.
        bytes += 2;
        i += 1;
      } else bytes += 5; // a lone surrogate is written \udxxx
    } else bytes += 2;
  }
  return bytes;
}

/** Cuts a string to `max` characters with a marker saying how much was left out. */
export function truncated(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}…[${text.length - max} more characters not shown]`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** An answer's remaining room, in JSON-encoded bytes. */
export class AnswerBudget {
  private used = 0;

  constructor(readonly limit: number = MAX_ANSWER_BYTES) {}

  get spent(): number {
    return this.used;
  }

  get left(): number {
    return this.limit - this.used;
  }

  /** Takes `bytes` if they fit, and says whether they did. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }
}

/**
 * An error or refusal answer with every string cut to MAX_ERROR_FIELD_CHARS: such an answer echoes
 * the input, and a refused 9 MB path must not come back as a 9 MB answer (several times over).
 */
export function boundedFailure<T>(answer: T): T {
  if ((answer as { isError?: unknown }).isError !== true) return answer;
  const cut = (value: unknown): unknown => {
    if (typeof value === 'string') return truncated(value, MAX_ERROR_FIELD_CHARS);
    if (Array.isArray(value)) return value.map(cut);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cut(inner)]));
    return value;
  };
  return cut(answer) as T;
}
