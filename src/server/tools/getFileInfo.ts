import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { describe, entryTypeOf, notThere } from '../fs/index.js';
import { defineTool, ok, pathField, refused } from './tool.js';
import { entryTypeSchema } from './entries.js';
import { isoTimeOfNs } from './isoTime.js';

export const getFileInfo = defineTool({
  name: 'get_file_info',
  title: 'Get file information',
  description:
    'Type, size, times and permissions of an entry; a link is described itself.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The path described (for a link, the link itself), relative to the workspace.'),
    type: entryTypeSchema,
    size: z.number().describe('The size in bytes (for a link, of the link; for a folder, of its entry, not its contents).'),
    created: z.string().optional().describe('When it was created (ISO 8601); absent when the filesystem does not record it.'),
    modified: z.string().describe('When its contents last changed (ISO 8601).'),
    accessed: z.string().describe('When it was last read (ISO 8601; many systems update this lazily).'),
    permissions: z.string().describe('The permission bits in octal, such as 644 or 755 (4755 with setuid).'),
    linkTarget: z.string().optional().describe('For a link, the target text it holds, exactly as stored.'),
  }),
  heavy: false,
  async run({ path }, scope) {
    // Not followed (OPERATIONS.get_file_info): a link is the subject here, and its target may lie outside.
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    if (checked.trace.kind === 'missing') throw notThere(checked.path);
    const { stats, linkTarget } = describe(checked.target);
    const type = entryTypeOf(stats);
    // A birth time of 0 is how Node reports a filesystem that does not keep one.
    const created = stats.birthtimeNs > 0n ? isoTimeOfNs(stats.birthtimeNs) : null;
    const permissions = (Number(stats.mode) & 0o7777).toString(8).padStart(3, '0');
    const size = Number(stats.size);
    const relative = scope.relative(checked.path);
    const info = {
      path: relative,
      type,
      size,
      ...(created !== null ? { created } : {}),
      modified: isoTimeOfNs(stats.mtimeNs),
      accessed: isoTimeOfNs(stats.atimeNs),
      permissions,
      ...(linkTarget !== undefined ? { linkTarget } : {}),
    };
    const lines = [
      `path: ${quotedIfHidden(relative)}`,
      `type: ${type}`,
      ...(linkTarget !== undefined ? [`linkTarget: ${quotedIfHidden(linkTarget)}`] : []),
      `size: ${size}`,
      `created: ${created ?? 'not recorded'}`,
      `modified: ${info.modified}`,
      `accessed: ${info.accessed}`,
      `permissions: ${permissions}`,
    ];
    return ok(info, lines.join('\n'));
  },
});
