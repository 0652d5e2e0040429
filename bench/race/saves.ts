// The lost-save race: an editor saves a file every ~0.45 ms (bench/race/save.c, by rename or in
// place) while the agent edits it or moves it away, one call after another. Counted from what the
// editor sees before each save and from what is on disk at the end:
// - lost: a save that vanished without a later save of the editor's replacing it. For edit_file,
//   a file made from an older save than the last one; for move_file, a last save found neither at
//   the source nor at any destination.
// The agent reads the file before each edit, as agents do.
// - leftovers: temporary files of the server, and destinations left by a move that was refused.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerText, builtServer, startServer, type Configuration as ServerConfiguration } from '../perf/servers.js';
import { compileHelper } from './swapper.js';

/** The servers a save race runs: the floor has no tools that write. */
type Configuration = Exclude<ServerConfiguration, 'floor'>;

export const SAVE_TOOLS = ['edit_file', 'move_file'] as const;
export type SaveTool = (typeof SAVE_TOOLS)[number];
export const SAVE_MODES = ['rename', 'inplace'] as const;
export type SaveMode = (typeof SAVE_MODES)[number];

export interface SaveRaceOptions {
  readonly tool: SaveTool;
  readonly mode: SaveMode;
  readonly configuration: Configuration;
  readonly seconds: number;
  /** Between two saves of the editor; 450 µs by default. */
  readonly intervalMicros?: number;
  readonly bundle?: string;
}

export interface SaveRaceRow {
  readonly tool: SaveTool;
  readonly mode: SaveMode;
  readonly configuration: Configuration;
  /** The editor's saves. */
  readonly saves: number;
  /** Calls that reported a change made. */
  readonly applied: number;
  /** Calls that refused or failed, by their first words. */
  readonly refusals: Readonly<Record<string, number>>;
  readonly lost: number;
  readonly leftovers: readonly string[];
}

const FIRST_CONTENT = 'id=0000000000\nstate=editor\nThe editor\'s text, saved again.\n';
const EDIT = { oldText: 'state=editor', newText: 'state=agent' };

function idOf(file: string): number | undefined {
  try {
    const match = /^id=(\d+)/.exec(fs.readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The server's temporaries anywhere below `folder`. */
function temporariesBelow(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.name.startsWith('.bi.')) found.push(path.join(entry.parentPath, entry.name));
  }
  return found;
}

function refusalKind(text: string): string {
  return (/^(Refused \([A-Z_]+|Error(?: \([A-Z]+\))?)/.exec(text)?.[1] ?? text.split(/[.:\n]/)[0]!).slice(0, 80);
}

export async function runSaveRace(options: SaveRaceOptions): Promise<SaveRaceRow> {
  const helper = compileHelper('save');
  if (!helper.ok) throw new Error(helper.reason);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-saves-'));
  const workspace = path.join(root, 'ws');
  const source = path.join(workspace, 'src.txt');
  const moved = path.join(workspace, 'moved');
  fs.mkdirSync(moved, { recursive: true });
  fs.writeFileSync(source, FIRST_CONTENT);
  const server = await startServer(options.configuration, workspace, { bundle: options.bundle ?? builtServer });
  const scope = options.configuration === 'reference' ? {} : { workspaceUri: pathToFileURL(workspace).href };
  const editor = spawn(helper.binary, [source, options.mode, String(options.seconds + 30), String(options.intervalMicros ?? 450)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let report = '';
  let editorError = '';
  editor.stdout.on('data', (chunk: Buffer) => (report += chunk.toString()));
  editor.stderr.on('data', (chunk: Buffer) => (editorError += chunk.toString()));
  const editorDone = new Promise<void>((resolve) => editor.on('close', () => resolve()));
  let applied = 0;
  const refusals: Record<string, number> = {};
  try {
    const deadline = Date.now() + options.seconds * 1000;
    for (let call = 0; Date.now() < deadline; call += 1) {
      // An agent reads the file before it edits it, as it does again after any refusal.
      if (options.tool === 'edit_file') await server.call('read_text_file', { ...scope, path: source });
      const answer =
        options.tool === 'edit_file'
          ? await server.call('edit_file', { ...scope, path: source, edits: [EDIT] })
          : await server.call('move_file', { ...scope, source, destination: path.join(moved, `${call}.txt`) });
      if (answer.isError !== true) applied += 1;
      else {
        const kind = refusalKind(answerText(answer));
        refusals[kind] = (refusals[kind] ?? 0) + 1;
      }
    }
  } finally {
    editor.kill('SIGTERM');
    await editorDone;
    await server.close();
  }
  try {
    if (editorError !== '') throw new Error(`the editor failed: ${editorError.trim()}`);
    const saves = Number(/^saves (\d+)$/m.exec(report)?.[1] ?? 0);
    const observations = report
      .split('\n')
      .map((line) => /^(\d+) (-?\d+)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ last: Number(match![1]), seen: Number(match![2]) }));
    let lost = 0;
    const leftovers = temporariesBelow(workspace);
    if (options.tool === 'edit_file') {
      lost = observations.filter(({ last, seen }) => seen >= 0 && seen < last).length;
    } else {
      const kept = new Set<number>();
      for (const name of fs.readdirSync(moved)) {
        const id = idOf(path.join(moved, name));
        if (id !== undefined) kept.add(id);
      }
      const atSource = idOf(source);
      if (atSource !== undefined) kept.add(atSource);
      lost = observations.filter(({ last }) => !kept.has(last)).length;
      const destinations = fs.readdirSync(moved).length;
      if (destinations > applied) leftovers.push(`${destinations - applied} destinations more than moves reported done`);
    }
    return { tool: options.tool, mode: options.mode, configuration: options.configuration, saves, applied, refusals, lost, leftovers };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** Every tool and save mode, for each configuration asked; a configuration that cannot run here is reported, not raced. */
export async function runSaveRaces(options: {
  readonly seconds: number;
  readonly configurations: readonly Configuration[];
  readonly bundle?: string;
  readonly progress?: (line: string) => void;
}): Promise<(SaveRaceRow | { readonly tool: SaveTool; readonly mode: SaveMode; readonly configuration: Configuration; readonly unavailable: string })[]> {
  const rows: (SaveRaceRow | { tool: SaveTool; mode: SaveMode; configuration: Configuration; unavailable: string })[] = [];
  for (const tool of SAVE_TOOLS) {
    for (const mode of SAVE_MODES) {
      for (const configuration of options.configurations) {
        options.progress?.(`saves: ${tool}, editor saving by ${mode}, ${configuration}, ${options.seconds} s`);
        try {
          rows.push(await runSaveRace({ tool, mode, configuration, seconds: options.seconds, ...(options.bundle ? { bundle: options.bundle } : {}) }));
        } catch (error) {
          rows.push({ tool, mode, configuration, unavailable: (error as Error).message });
        }
      }
    }
  }
  return rows;
}

export function formatSaveTable(rows: Awaited<ReturnType<typeof runSaveRaces>>): string {
  const header = ['tool', 'editor saves by', 'configuration', 'saves', 'changes done', 'saves lost', 'leftovers'];
  const lines = rows.map((row) =>
    'unavailable' in row
      ? [row.tool, row.mode, row.configuration, '-', '-', '-', `unavailable: ${row.unavailable}`]
      : [row.tool, row.mode, row.configuration, String(row.saves), String(row.applied), String(row.lost), String(row.leftovers.length)],
  );
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (line: readonly string[]) => line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}
