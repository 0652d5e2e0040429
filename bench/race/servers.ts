// Two servers on one folder: two editor windows, or an editor and another agent, each with a
// server of its own (sandboxed, each in a PID namespace of its own) over the same workspace. Round
// after round, each reads a file last saved an hour ago, and both write it at the same moment: a
// new file each round, as a server looks for what a killed writer left of a file at its first
// write of it.
// Counted from the answers and from what is on disk after each round:
// - lost: a round that ended with the file missing, or holding neither write while a write was
//   answered done;
// - false answers: a write answered done whose content is not what the file holds, while the
//   other was refused (nothing replaced it); a write answered "does not exist" (ENOENT) for a
//   file that existed throughout;
// - leftovers: the servers' temporary files once both have stopped.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerText, builtServer, startServer, type Configuration, type OursConfiguration, type RunningServer } from '../perf/servers.js';

export interface ServersRaceOptions {
  readonly configuration: OursConfiguration;
  readonly seconds: number;
  readonly bundle?: string;
}

export interface ServersRaceRow {
  readonly configuration: Configuration;
  readonly rounds: number;
  /** Rounds in which both writes were answered done, one, or none. */
  readonly bothDone: number;
  readonly oneDone: number;
  readonly noneDone: number;
  readonly lost: number;
  readonly falseAnswers: number;
  /** The refusals and errors, by their first words. */
  readonly refusals: Readonly<Record<string, number>>;
  readonly leftovers: readonly string[];
}

const HOUR = 3600;

function refusalKind(text: string): string {
  return (/^(Refused \([A-Z_]+|Error(?: \([A-Z]+\))?)/.exec(text)?.[1] ?? text.split(/[.:\n]/)[0]!).slice(0, 80);
}

export async function runServersRace(options: ServersRaceOptions): Promise<ServersRaceRow> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bi-servers-'));
  const workspace = path.join(root, 'ws');
  fs.mkdirSync(workspace);
  const bundle = options.bundle ?? builtServer;
  const servers: RunningServer[] = [];
  const counts = { rounds: 0, bothDone: 0, oneDone: 0, noneDone: 0, lost: 0, falseAnswers: 0 };
  const refusals: Record<string, number> = {};
  try {
    servers.push(...(await Promise.all([0, 1].map(() => startServer(options.configuration, workspace, { bundle })))));
    const deadline = Date.now() + options.seconds * 1000;
    while (Date.now() < deadline) {
      counts.rounds += 1;
      const name = `f${counts.rounds}.txt`;
      const file = path.join(workspace, name);
      const scope = { workspaceUri: pathToFileURL(workspace).href, path: name };
      fs.writeFileSync(file, `round ${counts.rounds}`);
      // Saved an hour ago: a file taken aside keeps that time.
      const then = Date.now() / 1000 - HOUR;
      fs.utimesSync(file, then, then);
      // Each reads first, as agents do, so neither is refused as changed since its last read.
      await Promise.all(servers.map((server) => server.call('read_text_file', scope)));
      const contents = servers.map((_, i) => `round ${counts.rounds}, server ${i}`);
      const answers = await Promise.all(servers.map((server, i) => server.call('write_file', { ...scope, content: contents[i] })));
      const done = answers.map((answer) => answer.isError !== true);
      const doneCount = done.filter(Boolean).length;
      if (doneCount === 2) counts.bothDone += 1;
      else if (doneCount === 1) counts.oneDone += 1;
      else counts.noneDone += 1;
      answers.forEach((answer, i) => {
        if (done[i]) return;
        const text = answerText(answer);
        const kind = refusalKind(text);
        refusals[kind] = (refusals[kind] ?? 0) + 1;
        if (/ENOENT|does not exist/.test(text)) counts.falseAnswers += 1;
      });
      const now = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      const doneContents = contents.filter((_, i) => done[i]);
      if (now === undefined || (doneCount > 0 && !doneContents.includes(now))) counts.lost += 1;
      if (doneCount === 1 && now !== undefined && now !== doneContents[0]) counts.falseAnswers += 1;
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
  try {
    const leftovers = fs.readdirSync(workspace).filter((name) => name.startsWith('.bi.'));
    return { configuration: options.configuration, ...counts, refusals, leftovers };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function formatServersTable(rows: readonly (ServersRaceRow | { readonly configuration: Configuration; readonly unavailable: string })[]): string {
  const header = ['configuration', 'rounds', 'both done', 'one done', 'none done', 'lost', 'false answers', 'leftovers', 'refusals'];
  const lines = rows.map((row) =>
    'unavailable' in row
      ? [row.configuration, '-', '-', '-', '-', '-', '-', '-', `unavailable: ${row.unavailable}`]
      : [
          ...[row.configuration, row.rounds, row.bothDone, row.oneDone, row.noneDone, row.lost, row.falseAnswers, row.leftovers.length].map(String),
          Object.entries(row.refusals)
            .map(([kind, n]) => `${kind}: ${n}`)
            .join(', '),
        ],
  );
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (line: readonly string[]) => line.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}
