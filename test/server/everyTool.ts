// One call of every tool, a success and a refusal for each that takes a path, with the tree they
// run against: the table the output-schema and direct-path suites both go through.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeTree } from './helpers.js';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export type Expect = 'ok' | 'refused';

/** One call per row; every tool has a success and a refusal. */
export const ROWS: readonly (readonly [tool: string, args: Record<string, unknown>, expect: Expect])[] = [
  ['list_workspaces', {}, 'ok'],
  // explain_path explains an outside path rather than refusing it; a refused workspace is a refusal.
  ['explain_path', { path: 'docs/readme.md' }, 'ok'],
  ['explain_path', { path: '../outside.txt' }, 'ok'],
  ['read_text_file', { path: 'docs/readme.md' }, 'ok'],
  ['read_text_file', { path: '../outside.txt' }, 'refused'],
  ['read_media_file', { path: 'media/pixel.png' }, 'ok'],
  ['read_media_file', { path: '../outside.txt' }, 'refused'],
  ['read_multiple_files', { paths: ['docs/readme.md', '../outside.txt'] }, 'ok'],
  ['write_file', { path: 'out/new.txt', content: 'new' }, 'ok'],
  ['write_file', { path: '../outside.txt', content: 'x' }, 'refused'],
  ['edit_file', { path: 'edit/e.txt', edits: [{ oldText: 'alpha', newText: 'ALPHA' }] }, 'ok'],
  ['edit_file', { path: 'edit/e.txt', edits: [{ oldText: 'beta', newText: 'BETA' }], dryRun: true }, 'ok'],
  ['edit_file', { path: '../outside.txt', edits: [{ oldText: 'o', newText: 'x' }] }, 'refused'],
  ['create_directory', { path: 'made/deep' }, 'ok'],
  ['create_directory', { path: '../made' }, 'refused'],
  ['list_directory', { path: 'docs' }, 'ok'],
  ['list_directory', { path: '..' }, 'refused'],
  ['list_directory_with_sizes', { path: 'docs', sortBy: 'size' }, 'ok'],
  ['list_directory_with_sizes', { path: '..' }, 'refused'],
  ['directory_tree', { path: '.', excludePatterns: ['media'] }, 'ok'],
  ['directory_tree', { path: '..' }, 'refused'],
  ['move_file', { source: 'mv/a.txt', destination: 'mv/b.txt' }, 'ok'],
  ['move_file', { source: 'mv/b.txt', destination: '../b.txt' }, 'refused'],
  ['search_files', { path: '.', pattern: '**/*.md' }, 'ok'],
  ['search_files', { path: '..', pattern: '*' }, 'refused'],
  ['search_file_contents', { path: '.', pattern: 'line \\d', regex: true, context: 1 }, 'ok'],
  ['search_file_contents', { path: '..', pattern: 'outside' }, 'refused'],
  ['get_file_info', { path: 'docs/readme.md' }, 'ok'],
  ['get_file_info', { path: 'docs/link' }, 'ok'],
  ['get_file_info', { path: '../outside.txt' }, 'refused'],
  ['delete_path', { path: 'del/x.txt' }, 'ok'],
  ['delete_path', { path: '../outside.txt' }, 'refused'],
  // audit_workspace takes no path: its refusal is a workspace that was not granted.
  ['audit_workspace', { maxEntries: 100 }, 'ok'],
  ['audit_workspace', { workspaceUri: 'file:///not/granted' }, 'refused'],
  // The view's comparison explains, as explain_path does; its refusal is a workspace that was not granted.
  ['compare_deciders', { path: 'docs/readme.md', tool: 'write_file' }, 'ok'],
  ['compare_deciders', { workspaceUri: 'file:///not/granted', path: 'docs/readme.md' }, 'refused'],
];

/** Writes the tree the rows run against under `base`; returns the workspace folder. */
export function writeEveryToolTree(base: string): string {
  const ws = path.join(base, 'ws');
  writeTree(base, {
    'outside.txt': 'outside',
    'ws/docs/readme.md': 'line 1\nline 2\n',
    'ws/media/pixel.png': PNG,
    'ws/out/.keep': '',
    'ws/edit/e.txt': 'alpha\nbeta\n',
    'ws/mv/a.txt': 'moving',
    'ws/del/x.txt': 'bye',
  });
  fs.symlinkSync('readme.md', path.join(ws, 'docs', 'link'));
  return ws;
}
