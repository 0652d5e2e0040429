import { createTwoFilesPatch } from 'diff';
import * as z from 'zod';
import { ChangedError, readFile, writeFile } from '../anchored.js';
import { defineTool, ok, pathField, refused } from '../tool.js';
import { MAX_TEXT_BYTES } from './readTextFile.js';

/** Every place `needle` starts, overlapping ones included: "aa" in "aaa" is ambiguous, so it counts twice. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/**
 * Applies the edits in order, each to the text the previous ones left. Each oldText must occur
 * exactly once: replacing the first of several would be a guess. Replaced by slicing, not
 * String.replace, so `$&` and the like in newText stay literal.
 */
export function applyEdits(original: string, edits: readonly { readonly oldText: string; readonly newText: string }[], name: string): string {
  let text = original;
  edits.forEach(({ oldText, newText }, index) => {
    const which = `edit ${index + 1} of ${edits.length}`;
    const earlier = index > 0 ? ' (after the earlier edits were applied)' : '';
    const found = occurrences(text, oldText);
    if (found.length === 0) {
      const crlf = text.includes('\r\n') && /(^|[^\r])\n/.test(oldText)
        ? ' The file has CRLF line endings and oldText has bare LF: copy the line endings as they are.'
        : '';
      throw new Error(
        `${which}: oldText was not found in ${name}${earlier}. It must match exactly, whitespace, indentation and line endings included; ` +
          `read the file again and copy the text from it.${crlf}`,
      );
    }
    if (found.length > 1) {
      throw new Error(
        `${which}: oldText was found ${found.length} times in ${name}${earlier}; it must occur exactly once. ` +
          'Include more of the surrounding lines so it is unique, or make one edit per occurrence.',
      );
    }
    const at = found[0]!;
    text = text.slice(0, at) + newText + text.slice(at + oldText.length);
  });
  return text;
}

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit a text file',
  description:
    'Replaces text in a UTF-8 file inside the workspace. The edits are applied in order, each to the result of the previous ones; ' +
    'each oldText must occur exactly once, or nothing is changed and the error says whether it was missing or found several times. ' +
    'Returns a unified diff; with dryRun the diff is returned and the file is left alone. ' +
    'The new text is written to a temporary file beside the target and renamed into place, and the write is abandoned if the file changed since it was read. ' +
    'Needs a read-write grant. A refused path comes back with its refusal code, stage and reason.',
  input: {
    path: pathField,
    edits: z
      .array(
        z.object({
          oldText: z.string().min(1).describe('The exact text to replace, whitespace and line endings included; it must occur exactly once.'),
          newText: z.string().describe('The text to put in its place (empty to delete it).'),
        }),
      )
      .min(1)
      .describe('The replacements, applied in order.'),
    dryRun: z.boolean().optional().describe('Return the diff without changing the file.'),
  },
  output: z.object({
    path: z.string().describe('The real path of the file.'),
    uri: z.string().describe('The file: URI of that path.'),
    diff: z.string().describe('The change as a unified diff (empty hunks when the edits change nothing).'),
    applied: z.boolean().describe('True when the file was written; false for a dry run or when the edits change nothing.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  access: 'write',
  async run({ path, edits, dryRun }, scope) {
    // Followed: a link to a file inside the workspace edits that file; checked.path is the real file.
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const { bytes, stats } = readFile(scope.anchor, checked.path, MAX_TEXT_BYTES);
    const original = bytes.toString('utf8');
    const name = scope.relative(checked.path);
    const updated = applyEdits(original, edits, name);
    const diff = createTwoFilesPatch(name, name, original, updated, 'original', 'modified');
    const uri = scope.uriOf(checked.path);
    if (dryRun || updated === original) {
      return ok({ path: checked.path, uri, diff, applied: false }, `${dryRun ? 'Dry run, nothing written' : 'The edits change nothing; nothing written'}.\n${diff}`);
    }
    const { refusal } = writeFile(scope.anchor, checked.path, updated, (now) => {
      const again = scope.recheck(checked, { followFinal: false });
      if (again) return again;
      // Another writer since the read: renaming now would silently drop their change.
      if (!now || now.ino !== stats.ino || now.dev !== stats.dev || now.size !== stats.size || now.mtimeNs !== stats.mtimeNs) {
        throw new ChangedError(checked.path, 'it was modified after it was read');
      }
      return undefined;
    });
    if (refusal) return refused(refusal);
    return ok({ path: checked.path, uri, diff, applied: true }, `Edited ${name}.\n${diff}`);
  },
});
