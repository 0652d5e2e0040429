// Section 5: what the extension ships, from a production build (minified, no source maps): its
// sizes, and its activation in a real VS Code (activation.ts), measured on a copy so the normal
// build can be put back at once: nobody else is left with minified files in dist/, and a rebuild
// meanwhile changes nothing measured.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { formatActivation, runActivation, type ActivationReport, type ActivationSettings } from './activation.js';
import { makeTempDir, removeTempDir } from './fixtures.js';
import { repoRoot } from './servers.js';
import { formatBytes, renderTable, type Verdict } from './stats.js';
import { VIEW_BUDGET_BYTES } from '../../scripts/app-view.mjs';

const KiB = 1024;

const TARGETS = [
  { name: 'dist/extension.js', files: ['dist/extension.js'], goalBytes: 150 * KiB },
  { name: 'dist/server.js', files: ['dist/server.js'], goalBytes: 1024 * KiB },
  { name: 'dist/webview/* (codicons included)', files: ['dist/webview'], goalBytes: 200 * KiB },
  // Sent whole to each client that shows it; inlined in dist/server.js and dist/cli.js.
  { name: 'dist/app/view.html (the MCP Apps view)', files: ['dist/app/view.html'], goalBytes: VIEW_BUDGET_BYTES },
] as const;

export interface BundleRow {
  readonly name: string;
  readonly bytes: number | null;
  /** Each file counted, for the folder rows. */
  readonly parts: Readonly<Record<string, number>>;
  readonly goal: string;
  readonly verdict: Verdict;
}

export interface BundleReport {
  readonly status: 'ran' | 'failed';
  readonly reason?: string;
  readonly rows: readonly BundleRow[];
  /** Whether `npm run build` put the development build back. */
  readonly restored: boolean;
  /** Null when the production build failed. */
  readonly activation: ActivationReport | null;
}

function sizesOf(relative: string): Record<string, number> {
  const full = path.join(repoRoot, relative);
  if (!fs.existsSync(full)) return {};
  if (!fs.statSync(full).isDirectory()) return { [relative]: fs.statSync(full).size };
  const parts: Record<string, number> = {};
  for (const name of fs.readdirSync(full).sort()) {
    const file = path.join(full, name);
    if (fs.statSync(file).isFile()) parts[`${relative}/${name}`] = fs.statSync(file).size;
  }
  return parts;
}

function run(command: string, args: readonly string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

/** What VS Code loads of the extension: its manifest, dist/ and the icon the manifest names. */
function snapshotExtension(): string {
  const folder = makeTempDir('bi-perf-extension-');
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(folder, 'package.json'));
  fs.cpSync(path.join(repoRoot, 'dist'), path.join(folder, 'dist'), { recursive: true });
  fs.mkdirSync(path.join(folder, 'media'));
  fs.copyFileSync(path.join(repoRoot, 'media', 'icon.png'), path.join(folder, 'media', 'icon.png'));
  return folder;
}

export async function runBundle(options: { readonly activation: ActivationSettings; readonly progress: (line: string) => void }): Promise<BundleReport> {
  options.progress('bundle: node esbuild.mjs --production');
  const production = run(process.execPath, ['esbuild.mjs', '--production']);
  let rows: BundleRow[] = [];
  if (production.ok) {
    rows = TARGETS.map((target) => {
      const parts: Record<string, number> = {};
      for (const file of target.files) Object.assign(parts, sizesOf(file));
      const found = Object.keys(parts).length > 0;
      const bytes = found ? Object.values(parts).reduce((sum, size) => sum + size, 0) : null;
      return { name: target.name, bytes, parts, goal: `< ${formatBytes(target.goalBytes)}`, verdict: bytes !== null && bytes < target.goalBytes ? 'pass' : 'FAIL' };
    });
  }
  const snapshot = production.ok ? snapshotExtension() : null;
  options.progress('bundle: npm run build (the development build back)');
  const restore = run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build']);
  const activation = snapshot !== null ? await runActivation({ extensionPath: snapshot, settings: options.activation, progress: options.progress }) : null;
  if (snapshot !== null) removeTempDir(snapshot);
  const base = { rows, restored: restore.ok, activation };
  if (!production.ok) return { ...base, status: 'failed', reason: `the production build failed: ${production.output.slice(0, 500)}` };
  if (!restore.ok) return { ...base, status: 'ran', reason: `npm run build failed afterwards: ${restore.output.slice(0, 500)}` };
  return { ...base, status: 'ran' };
}

export function formatBundle(report: BundleReport): string {
  const lines: string[] = [];
  if (report.rows.length > 0) {
    const table: string[][] = [];
    for (const row of report.rows) {
      table.push([row.name, formatBytes(row.bytes), row.goal, row.verdict]);
      const parts = Object.entries(row.parts);
      if (parts.length > 1) for (const [file, size] of parts) table.push([`  ${file}`, formatBytes(size), '', '']);
    }
    lines.push(renderTable(['production bundle', 'size', 'goal', 'result'], table));
  }
  if (report.reason !== undefined) lines.push(report.reason);
  lines.push(`Development build restored with npm run build: ${report.restored ? 'yes' : 'NO'}.`);
  if (report.activation !== null) lines.push('', formatActivation(report.activation));
  return lines.join('\n');
}
