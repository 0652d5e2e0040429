import type { ContentBlock } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { quotedIfHidden } from '../../core/index.js';
import { pathToUri } from '../../core/index.js';
import { readFile } from '../fs/index.js';
import { MAX_MEDIA_BYTES } from '../limits.js';
import { mimeTypeOf } from '../mime.js';
import { defineTool, ok, pathField, refused } from './tool.js';

export const readMediaFile = defineTool({
  name: 'read_media_file',
  title: 'Read an image, audio or other binary file',
  description:
    'Reads an image, audio or other binary file as base64, with its MIME type.',
  input: { path: pathField },
  output: z.object({
    path: z.string().describe('The file read, relative to the workspace; the content block has its URI.'),
    mimeType: z.string().describe('The MIME type, from the extension of the real path.'),
    size: z.number().describe('The size of the file in bytes; the bytes themselves are in the content block.'),
  }),
  heavy: true,
  async run({ path }, scope) {
    const checked = scope.check(path);
    if (!checked.ok) return refused(checked);
    const { bytes } = readFile(checked.target, MAX_MEDIA_BYTES);
    const data = bytes.toString('base64');
    // The real path's extension: a link named x.png to a .bin file is a .bin file.
    const mimeType = mimeTypeOf(checked.path);
    const uri = pathToUri(checked.path, scope.state.platform);
    const block: ContentBlock = mimeType.startsWith('image/')
      ? { type: 'image', data, mimeType }
      : mimeType.startsWith('audio/')
        ? { type: 'audio', data, mimeType }
        : { type: 'resource', resource: { uri, mimeType, blob: data } };
    return ok(
      { path: scope.relative(checked.path), mimeType, size: bytes.length },
      `${quotedIfHidden(scope.relative(checked.path))}: ${mimeType}, ${bytes.length} bytes.`,
      [block],
    );
  },
});
