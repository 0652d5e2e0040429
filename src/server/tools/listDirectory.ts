import { quotedIfHidden } from '../../core/index.js';
import { compareNames, entryTypeOf, openFolder, type EntryType } from '../fs/index.js';
import { ANSWER_BUDGET_BYTES, AnswerBudget, jsonLength, MAX_LIST_ENTRIES } from '../limits.js';
import { cursorField, defineTool, ok, pathField, refused } from './tool.js';
import { afterCursor, afterOf } from './cursor.js';
import { requireDirectory } from './entries.js';
import { heldInWalk, heldMark } from './secretConsent.js';

/** The kinds of entry, each under its heading in the text, in this order. */
const GROUPS: readonly (readonly [EntryType, 'directories' | 'files' | 'links' | 'other', string])[] = [
  ['directory', 'directories', 'Folders'],
  ['file', 'files', 'Files'],
  ['symlink', 'links', 'Links (not followed)'],
  ['other', 'other', 'Other (sockets, FIFOs, devices)'],
];

type Kind = 'directories' | 'files' | 'links' | 'other';
/** Each kind's lines: a name, quoted when it holds a line break, a control, a bidi or another hidden character, and its secrets mark. */
type Listing = Record<Kind, string[]>;

/**
 * Each kind under its heading. A heading counts the folder, not the page: where this page holds
 * only some of a kind, it says how many of how many ("Files (2352 of 5000):"), so the page's
 * count is never read as the folder's.
 */
function textLines(listing: Listing, totals: Readonly<Record<Kind, number>>): string[] {
  const lines: string[] = [];
  for (const [, key, heading] of GROUPS) {
    const names = listing[key];
    if (names.length === 0) continue;
    lines.push(`${heading} (${names.length === totals[key] ? names.length : `${names.length} of ${totals[key]}`}):`);
    lines.push(...names);
  }
  return lines.length === 0 ? ['The folder is empty.'] : lines;
}

const KEY_OF: Readonly<Record<EntryType, Kind>> = { directory: 'directories', file: 'files', symlink: 'links', other: 'other' };

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List a folder',
  description:
    'Lists the entries of one folder (not its subfolders), by kind.',
  input: { path: pathField, cursor: cursorField },
  // A listing is content, as a file's text is: sent once, as text. Names as JSON strings in a
  // structured result cost an SDK client more to take in than the call itself costs the server.
  output: null,
  heavy: true,
  async run({ path: input, cursor }, scope) {
    const checked = scope.check(input);
    if (!checked.ok) return refused(checked);
    requireDirectory(checked);
    const after = afterOf(cursor);
    const folder = openFolder(checked.target);
    const listing: Listing = { directories: [], files: [], links: [], other: [] };
    // The whole folder is in memory already (sorted, for the cursor): counting it costs a pass.
    const totals: Record<Kind, number> = { directories: 0, files: 0, links: 0, other: 0 };
    let before = 0;
    let count = 0;
    const budget = new AnswerBudget(ANSWER_BUDGET_BYTES);
    let last: string | undefined;
    let truncated = false;
    try {
      for (const entry of scope.state.listings.entriesOf(folder)) {
        const type = entryTypeOf(entry);
        const kind = KEY_OF[type];
        totals[kind] += 1;
        if (after !== undefined && compareNames(entry.name, after) <= 0) before += 1;
        else if (truncated || count >= MAX_LIST_ENTRIES) truncated = true;
        else {
          const line = `${quotedIfHidden(entry.name)}${heldMark(heldInWalk(scope.grant, scope.state.platform, [...checked.target.names, entry.name], type === 'directory')?.decision)}`;
          // A line of the text, as long as a string of a list would be.
          if (!budget.take(jsonLength(line) + 3)) truncated = true;
          else {
            listing[kind].push(line);
            last = entry.name;
            count += 1;
          }
        }
      }
    } finally {
      folder.close();
    }
    const nextCursor = truncated && last !== undefined ? afterCursor(last) : undefined;
    const lines = textLines(listing, totals);
    const total = totals.directories + totals.files + totals.links + totals.other;
    const range = `entries ${before + 1} to ${before + count} of ${total} by name`;
    if (nextCursor !== undefined) lines.push(`(${range}: call again with cursor ${nextCursor} for the rest)`);
    else if (before > 0) lines.push(`(${range}: the last of them)`);
    return ok({}, lines.join('\n'));
  },
});
