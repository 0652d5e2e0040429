/**
 * `npm run package`: the extension as boundary-inspector.vsix.
 *
 * package.json's `files` describes the npm package (the CLI alone), and vsce refuses a `files`
 * list beside a .vscodeignore. So vsce packages a copy of the tree whose manifest has no `files`:
 * .vscodeignore alone decides what the .vsix holds, and vscode:prepublish builds in the copy.
 *
 * Usage: npm run package [-- <out.vsix>]
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..');
// Not copied: dependencies (linked instead), history, caches, build output and earlier packages.
const SKIP = new Set(['node_modules', '.git', '.vscode-test', 'out', 'dist']);

const out = path.resolve(REPO, process.argv[2] ?? 'boundary-inspector.vsix');
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-vsix-'));
try {
  for (const entry of fs.readdirSync(REPO)) {
    if (SKIP.has(entry) || /\.(vsix|tgz)$/.test(entry)) continue;
    fs.cpSync(path.join(REPO, entry), path.join(stage, entry), { recursive: true, verbatimSymlinks: true });
  }
  // The build resolves esbuild and the bundled packages through it; vsce never walks node_modules.
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(stage, 'node_modules'), 'junction');
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  delete manifest.files;
  fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const vsce = require.resolve('@vscode/vsce/vsce', { paths: [REPO] });
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: stage, stdio: 'inherit' });
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
