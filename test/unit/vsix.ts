// What `npm run package` puts in the .vsix, decided from .vscodeignore as vsce decides it: a file
// is left out when an ignore pattern matches it and no negated (`!`) pattern does, with
// minimatch's `dot` option (vsce's collectFiles).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { minimatch } from 'minimatch';

const repoRoot = path.resolve(__dirname, '../..');
const patterns = fs
  .readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const ignore = patterns.filter((pattern) => !pattern.startsWith('!'));
const negate = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));

/** Whether the file at this repository-relative path (forward slashes) goes into the .vsix. */
export function shipped(file: string): boolean {
  const matches = (pattern: string) => minimatch(file, pattern, { dot: true });
  return !ignore.some(matches) || negate.some(matches);
}
