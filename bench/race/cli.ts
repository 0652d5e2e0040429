// npm run race [-- options]: the race harness from the command line. See --help.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { abortRaces, CONFIGURATIONS, failingRows, formatTable, isOurs, runRace, type Configuration } from './harness.js';
import { PLAN_NAMES } from './plans.js';
import { formatSaveTable, runSaveRaces } from './saves.js';
import { formatServersTable, runServersRace } from './servers.js';

const RACES = ['swap', 'saves', 'servers'] as const;

const DEFAULT_RESULTS = path.join(__dirname, 'results.json');

function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((item) => `${' '.repeat(indent)}${item}`).join('\n');
}

const help = `Usage: npm run race -- [--races swap,saves,servers] [--seconds N] [--tools a,b] [--configurations a,b] [--server file] [--results file] [--no-fail]

Races every tool of the MCP server against a folder swapped, hundreds of thousands of times a
second, with a link to a folder outside the workspace (renameat2 RENAME_EXCHANGE, from
bench/race/swap.c built with cc). For each tool and configuration: a fresh fixture, 8 calls in
flight for N seconds, then counts of everything read, listed, created, changed, deleted or moved
outside, and of temporary files left behind. Prints a table; writes JSON to the results file.

Then the lost-save race (bench/race/save.c): an editor saves src.txt every 0.45 ms, by rename
or in place, while the agent edits it (reading it first) or moves it to fresh names; counts the
saves lost and the server's leftovers, for each configuration.

Then two servers on one folder: two of our servers (each sandboxed in a PID namespace of its own,
or both without the sandbox) read one file last saved an hour ago and write it at the same
moment, round after round for N seconds; counts the rounds that lost the file or both writes, the
answers that were not true, and the leftovers.

Options:
  --races a,b              which races (default all): swap, saves, servers
  --seconds N              seconds per tool and configuration (default 20)
  --tools a,b              only these (repeatable); default all:
${wrap(PLAN_NAMES.join(', '), 29, 96)}
  --configurations a,b     only these (repeatable): ${CONFIGURATIONS.join(', ')} (default all)
                             ours-off      our server with --sandbox off
                             ours-sandbox  our server with --sandbox auto (unavailable without bubblewrap)
                             reference     @modelcontextprotocol/server-filesystem, reported only
  --server file            our server's bundle to race (default dist/server.js)
  --results file           where to write the JSON (default ${path.relative(process.cwd(), DEFAULT_RESULTS)})
  --no-fail                exit 0 even when our server leaks
  -h, --help               show this help

Exit status: 1 when any count for our server is above zero or a run of ours failed; 2 for a
usage error or a harness error; 0 otherwise, also when the race is skipped (no C compiler, not
Linux).
Total time is about tools x configurations x seconds.
`;

function list(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        seconds: { type: 'string' },
        races: { type: 'string', multiple: true },
        tools: { type: 'string', multiple: true },
        configurations: { type: 'string', multiple: true },
        server: { type: 'string' },
        results: { type: 'string' },
        'no-fail': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`race: ${(error as Error).message}\nSee: npm run race -- --help\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  const seconds = values.seconds === undefined ? 20 : Number(values.seconds);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    process.stderr.write(`race: --seconds must be a positive number; got ${JSON.stringify(values.seconds)}\n`);
    return 2;
  }
  const tools = list(values.tools);
  const unknownTools = tools.filter((tool) => !PLAN_NAMES.includes(tool));
  const configurations = list(values.configurations);
  const unknownConfigurations = configurations.filter((name) => !(CONFIGURATIONS as readonly string[]).includes(name));
  if (unknownTools.length > 0 || unknownConfigurations.length > 0) {
    const problems = [
      ...unknownTools.map((tool) => `unknown tool ${JSON.stringify(tool)} (known: ${PLAN_NAMES.join(', ')})`),
      ...unknownConfigurations.map((name) => `unknown configuration ${JSON.stringify(name)} (known: ${CONFIGURATIONS.join(', ')})`),
    ];
    process.stderr.write(`race: ${problems.join('; ')}\n`);
    return 2;
  }
  const resultsFile = path.resolve(values.results ?? DEFAULT_RESULTS);
  const races = list(values.races);
  const unknownRaces = races.filter((name) => !(RACES as readonly string[]).includes(name));
  if (unknownRaces.length > 0) {
    process.stderr.write(`race: unknown race ${unknownRaces.map((name) => JSON.stringify(name)).join(', ')} (known: ${RACES.join(', ')})\n`);
    return 2;
  }
  const wanted = (race: (typeof RACES)[number]) => races.length === 0 || races.includes(race);

  // Ctrl-C: kill the servers and the swap helper, remove the fixtures, then go.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nrace: ${signal}: cleaning up\n`);
      abortRaces();
      process.exit(130);
    });
  }
  process.on('exit', abortRaces);

  let savesLost = false;
  if (wanted('saves')) {
    const rows = await runSaveRaces({
      seconds,
      configurations: configurations.length > 0 ? (configurations as Configuration[]) : CONFIGURATIONS,
      ...(values.server !== undefined ? { bundle: values.server } : {}),
      progress: (line) => process.stderr.write(`race: ${line}\n`),
    });
    process.stdout.write(`Lost saves:\n${formatSaveTable(rows)}\n\n`);
    savesLost = rows.some((row) => isOurs(row.configuration) && 'lost' in row && (row.lost > 0 || row.leftovers.length > 0));
    if (savesLost) process.stdout.write('Our server lost a save or left files behind (see above).\n');
  }
  if (wanted('servers')) {
    const rows: Parameters<typeof formatServersTable>[0][number][] = [];
    for (const configuration of ['ours-off', 'ours-sandbox'] as const) {
      if (configurations.length > 0 && !configurations.includes(configuration)) continue;
      process.stderr.write(`race: servers: two servers on one folder, ${configuration}, ${seconds} s\n`);
      try {
        rows.push(await runServersRace({ configuration, seconds, ...(values.server !== undefined ? { bundle: values.server } : {}) }));
      } catch (error) {
        rows.push({ configuration, unavailable: (error as Error).message });
      }
    }
    process.stdout.write(`Two servers on one folder:\n${formatServersTable(rows)}\n\n`);
    if (rows.some((row) => 'lost' in row && (row.lost > 0 || row.falseAnswers > 0 || row.leftovers.length > 0))) {
      process.stdout.write('Our servers lost a write, answered falsely or left files behind (see above).\n');
      savesLost = true;
    }
  }
  if (!wanted('swap')) return savesLost && !values['no-fail'] ? 1 : 0;
  const report = await runRace({
    seconds,
    ...(values.server !== undefined ? { server: values.server } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(configurations.length > 0 ? { configurations: configurations as Configuration[] } : {}),
    progress: (line) => process.stderr.write(`race: ${line}\n`),
  });
  if (!report.swapHelper.ok) {
    process.stdout.write(`race: skipped: ${report.swapHelper.reason}\n`);
    return 0;
  }
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...report }, null, 2)}\n`);
  process.stdout.write(`${formatTable(report)}\n\nResults: ${resultsFile}\n`);

  const failing = failingRows(report);
  const oursRan = report.rows.filter((row) => isOurs(row.configuration) && row.status === 'ran').length;
  if (failing.length === 0 && oursRan === 0) {
    process.stdout.write('Our server was not raced in any of these runs (see above).\n');
    return 0;
  }
  if (failing.length === 0 && savesLost) return values['no-fail'] ? 0 : 1;
  if (failing.length === 0) {
    process.stdout.write('Our server: nothing outside the workspace was read, listed, described, created, changed, moved or deleted.\n');
    return 0;
  }
  process.stdout.write(`Our server broke the boundary (or could not be raced) in ${failing.length} run(s): ${failing.map((row) => `${row.tool} / ${row.configuration}`).join(', ')}\n`);
  return values['no-fail'] ? 0 : 1;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error: Error) => {
    process.stderr.write(`race: ${error.stack ?? error.message}\n`);
    process.exitCode = 2;
  },
);
