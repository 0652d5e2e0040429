import type { ContentBlock } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { readFile } from '../fs/index.js';
import { formatBytes, MAX_ANSWER_BYTES, MAX_MEDIA_BYTES } from '../limits.js';
import { mimeTypeOf } from '../mime.js';
import { defineTool, ok, pathField, refused } from '../tool.js';

export const readMediaFile = defineTool({
  name: 'read_media_file',
  title: 'Read an image, audio or other binary file',
  description:
    'Reads a file inside the workspace as base64 with its MIME type (from the file extension; application/octet-stream when unknown). ' +
    'Images come back as an image block, audio as an audio block, anything else as an embedded resource; the data is in that block only, ' +
    'and the structured result describes it (path, uri, mimeType, size). ' +
    `Files over ${formatBytes(MAX_MEDIA_BYTES)} are not read (their base64 would pass the ${formatBytes(MAX_ANSWER_BYTES)} one answer carries). The file is opened through the checked folders, never following a link swapped in since the check. ` +
    'A refused path comes back with its refusal code, stage and reason.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The real path that was read.'),
    uri: z.string().describe('The file: URI of that path.'),
    mimeType: z.string().describe('The MIME type, from the extension of the real path.'),
    size: z.number().describe('The size of the file in bytes; the bytes themselves are in the content block.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'read',
  async run({ path }, scope) {
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const { bytes } = readFile(checked.target, MAX_MEDIA_BYTES);
    const data = bytes.toString('base64');
    // The real path's extension: a link named x.png to a .bin file is a .bin file.
    const mimeType = mimeTypeOf(checked.path);
    const uri = scope.uriOf(checked.path);
    const block: ContentBlock = mimeType.startsWith('image/')
      ? { type: 'image', data, mimeType }
      : mimeType.startsWith('audio/')
        ? { type: 'audio', data, mimeType }
        : { type: 'resource', resource: { uri, mimeType, blob: data } };
    return ok(
      { path: checked.path, uri, mimeType, size: bytes.length },
      `${scope.relative(checked.path)}: ${mimeType}, ${bytes.length} bytes.`,
      [block],
    );
  },
});
