// Trees the sections work on. The round-trip workspace is small enough to build fresh each run;
// the scale trees (up to a million empty files) are built once into an ignored cache folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIGURATIONS } from './servers.js';

const liveTempDirs = new Set<string>();

export function makeTempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  liveTempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  liveTempDirs.delete(dir);
}

/** For an interrupted run: whatever a section did not get to remove. */
export function removeAllTempDirs(): void {
  for (const dir of liveTempDirs) fs.rmSync(dir, { recursive: true, force: true });
  liveTempDirs.clear();
}

// ------------------------------------------------------------------------------------------------
// The round-trip workspace (section 1)
// ------------------------------------------------------------------------------------------------

/** Five folders down: the depth the file rows read from. */
export const DEEP_FOLDER = 'a/b/c/d/e';
export const FILE_4K = `${DEEP_FOLDER}/file-4k.txt`;
export const FILE_1M = `${DEEP_FOLDER}/file-1m.txt`;
export const WIDE_FOLDER = 'wide';
export const WIDE_ENTRIES = 1000;
export const TREE_FOLDER = 'tree';
/** Under our server's 10,000-entry walk limit, folders included, so both servers walk all of it. */
export const TREE_FILES = 9000;
export const WRITES_FOLDER = 'writes';
/** The line the edit row flips back and forth, in a 4 KiB file of each server's own. */
export const EDITED_LINE = ['state: first', 'state: second'] as const;

export function editFileName(server: string): string {
  return `${server}-edit.txt`;
}

export interface RoundTripWorkspace {
  readonly root: string;
  /** Entries below TREE_FOLDER, folders included (what a walk visits). */
  readonly treeEntries: number;
  /** Files in TREE_FOLDER ending in .md: what `**\/*.md` must find. */
  readonly treeMarkdownFiles: number;
}

function textOfSize(bytes: number): string {
  const line = 'The quick brown fox jumps over the lazy dog; 0123456789 abcdefghij.\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/** Leaf folders of 100 files, ten leaves per branch: the shape of a source tree, not one huge folder. */
export function writeFanOutTree(root: string, files: number, onFile?: (count: number) => void): { entries: number; markdown: number } {
  const perLeaf = 100;
  const leaves = Math.ceil(files / perLeaf);
  let written = 0;
  let markdown = 0;
  const folders = new Set<string>();
  for (let leaf = 0; leaf < leaves; leaf += 1) {
    // Base-10 digits of the leaf number name the folders, most significant first.
    const digits = String(leaf).padStart(Math.max(1, String(leaves - 1).length), '0').split('');
    const folder = path.join(root, ...digits.map((digit, level) => `d${level}-${digit}`));
    fs.mkdirSync(folder, { recursive: true });
    let relative = '';
    for (const digit of digits.map((value, level) => `d${level}-${value}`)) {
      relative = relative === '' ? digit : `${relative}/${digit}`;
      folders.add(relative);
    }
    for (let index = 0; index < perLeaf && written < files; index += 1) {
      const isMarkdown = index % 10 === 0;
      fs.closeSync(fs.openSync(path.join(folder, `file-${index}.${isMarkdown ? 'md' : 'txt'}`), 'w'));
      written += 1;
      if (isMarkdown) markdown += 1;
      if (onFile && written % Math.max(5000, Math.floor(files / 10)) === 0) onFile(written);
    }
  }
  return { entries: written + folders.size, markdown };
}

export function createRoundTripWorkspace(): RoundTripWorkspace {
  const root = makeTempDir('bi-perf-ws-');
  fs.mkdirSync(path.join(root, DEEP_FOLDER), { recursive: true });
  fs.writeFileSync(path.join(root, FILE_4K), textOfSize(4096));
  fs.writeFileSync(path.join(root, FILE_1M), textOfSize(1024 * 1024));
  fs.mkdirSync(path.join(root, WIDE_FOLDER));
  for (let index = 0; index < WIDE_ENTRIES; index += 1) {
    const name = path.join(root, WIDE_FOLDER, `entry-${String(index).padStart(4, '0')}`);
    // One in ten a folder, so entry types have to be told apart.
    if (index % 10 === 0) fs.mkdirSync(name);
    else fs.writeFileSync(name, '');
  }
  fs.mkdirSync(path.join(root, WRITES_FOLDER));
  for (const server of CONFIGURATIONS) fs.writeFileSync(path.join(root, WRITES_FOLDER, editFileName(server)), `${EDITED_LINE[0]}\n${'y'.repeat(4080)}\n`);
  const tree = writeFanOutTree(path.join(root, TREE_FOLDER), TREE_FILES);
  return { root, treeEntries: tree.entries, treeMarkdownFiles: tree.markdown };
}

// ------------------------------------------------------------------------------------------------
// The scale trees (section 3), cached
// ------------------------------------------------------------------------------------------------

export const cacheFolder = path.join(__dirname, '.cache');

export interface ScaleTree {
  readonly files: number;
  readonly root: string;
  readonly entries: number;
  readonly generatedSeconds: number | null;
}

function scaleTreeRoot(files: number): string {
  return path.join(cacheFolder, `tree-${files}`);
}

/** Written last, so a generation cut short is redone rather than measured. */
function completionMarker(files: number): string {
  return path.join(cacheFolder, `tree-${files}.complete.json`);
}

export function cachedScaleTree(files: number): ScaleTree | undefined {
  try {
    const marker = JSON.parse(fs.readFileSync(completionMarker(files), 'utf8')) as { entries: number };
    return { files, root: scaleTreeRoot(files), entries: marker.entries, generatedSeconds: null };
  } catch {
    return undefined;
  }
}

export function generateScaleTree(files: number, progress: (line: string) => void): ScaleTree {
  const root = scaleTreeRoot(files);
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(completionMarker(files), { force: true });
  fs.mkdirSync(root, { recursive: true });
  const started = Date.now();
  const report = (count: number) => {
    const seconds = (Date.now() - started) / 1000;
    progress(`generating ${files.toLocaleString('en-US')} files: ${count.toLocaleString('en-US')} (${seconds.toFixed(0)} s)`);
  };
  const { entries } = writeFanOutTree(root, files, files >= 50_000 ? report : undefined);
  const generatedSeconds = (Date.now() - started) / 1000;
  fs.writeFileSync(completionMarker(files), JSON.stringify({ files, entries, generatedSeconds }));
  return { files, root, entries, generatedSeconds };
}

/** Inodes and bytes a tree of `files` needs: every file an inode, every folder an inode and a block. */
export function scaleTreeNeeds(files: number): { inodes: number; bytes: number } {
  const leaves = Math.ceil(files / 100);
  let folders = 0;
  for (let level = leaves; level >= 1; level = Math.ceil(level / 10)) {
    folders += level;
    if (level === 1) break;
  }
  return { inodes: files + folders, bytes: folders * 4096 };
}

export interface DiskRoom {
  readonly freeInodes: number;
  readonly freeBytes: number;
}

export function diskRoom(folder: string): DiskRoom {
  fs.mkdirSync(folder, { recursive: true });
  const stats = fs.statfsSync(folder);
  return { freeInodes: stats.ffree, freeBytes: stats.bavail * stats.bsize };
}

/** Files per second this disk creates, from a short sample in the cache folder. */
export function measureCreationRate(): number {
  const sample = path.join(cacheFolder, 'rate-sample');
  fs.rmSync(sample, { recursive: true, force: true });
  const started = process.hrtime.bigint();
  writeFanOutTree(sample, 5000);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  fs.rmSync(sample, { recursive: true, force: true });
  return 5000 / seconds;
}
