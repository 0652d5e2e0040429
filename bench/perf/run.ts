// The performance runner: every comparison is a ratio measured in this run, rounds alternating
// between ours and the baseline, medians and p99s. Tables go to stdout, progress to stderr, and
// everything measured to bench/results.json.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FULL_ACTIVATION, QUICK_ACTIVATION } from './activation.js';
import { formatBundle, runBundle, type BundleReport } from './bundle.js';
import { formatBytesReport, runBytes, type BytesReport } from './bytes.js';
import { makeTempDir, removeAllTempDirs } from './fixtures.js';
import { describeMachine, formatMachine } from './machine.js';
import { FULL_PIPELINE, formatPipeline, QUICK_PIPELINE, runPipeline, type PipelineReport } from './pipeline.js';
import { formatRoundTrips, FULL_ROUND_TRIPS, QUICK_ROUND_TRIPS, runRoundTrips, type RoundTripReport } from './roundTrips.js';
import { formatScale, FULL_SCALE, QUICK_SCALE, runScale, type ScaleReport } from './scale.js';
import { builtServer, DEFAULT_RESULTS_FILE, pinningWorks, referenceServer, sandbox, snapshotBundle } from './servers.js';
import { formatStartup, FULL_STARTUP, QUICK_STARTUP, runStartup, type StartupReport } from './startup.js';
import { formatSyscalls, FULL_SYSCALLS, QUICK_SYSCALLS, runSyscalls, type SyscallReport } from './syscalls.js';

const SECTIONS = ['round-trips', 'syscalls', 'pipeline', 'scale', 'startup', 'bundle', 'bytes'] as const;
type Section = (typeof SECTIONS)[number];

const help = `Usage: tsx bench/perf/run.ts [options]

Measures our server and path pipeline against the reference server
(@modelcontextprotocol/server-filesystem) and the realpath floor, in one run, rounds alternating.
Run npm run build first: the servers under test are dist/server.js (copied at the start, so a
rebuild meanwhile changes nothing) and the reference in node_modules.

Sections (all by default, in this order):
  round-trips  tool calls through one stdio client per server, ours (sandbox off and on) against
               the reference: calls/s, median and p99 latency, ratio ours/reference; on the
               light rows also against the no-check floor (a newline JSON-RPC server with no
               SDK and no checks, bench/perf/floorServer.mjs)
  syscalls     system calls per tool call (strace on the serving process, after a warm-up),
               ours with the sandbox off and the reference: read_text_file, get_file_info,
               write_file
  pipeline     prepareRoot + traceAgainst on 10,000 mixed inputs against fs.realpathSync.native
               and the reference's validatePath; simulated win32 and darwin traces
  scale        directory_tree and search_files over 10k, 100k and 1M files (cached in
               bench/perf/.cache/), time per call and the server's peak RSS
  startup      spawn to the handshake's answer and the first tools/list, as is and busy
  bundle       production bundle sizes (node esbuild.mjs --production, then npm run build), and
               the production build's activation time in a real VS Code (code-server's, as the
               extension tests run it), VS Code's own measure, median of 3 starts (about a
               minute; the last extension test's measure where that harness is not installed)
  bytes        what reaches the model, ours against the reference on one tree: the tool
               definitions, and the text and structured result of search_files, list_directory,
               directory_tree and get_file_info

Options:
  --quick             a smoke run of about a minute: fewer rounds, no 1M tree
  --only <section>    run only these sections (repeatable, or comma-separated)
  --pin               the round trips with this client on the first CPU and every server on the
                      second (taskset; two CPUs or more), so that none takes CPU from the other;
                      the goals are judged on the unpinned run
  --large             generate the 1,000,000-file tree even if that takes more than 3 minutes
                      here (the full run includes it whenever it is cached or quick to make)
  --results <file>    where to write the JSON (default bench/results.json); with --only, the
                      sections not run are kept from the file as they were
  -h, --help          show this help

The 1M tree takes about a million inodes: remove bench/perf/.cache/ to get them back.
Exit status: 0 when the run completed (goals missed included), 1 on a harness error, 2 on a usage error.
`;

interface Results {
  date: string;
  quick: boolean;
  machine: ReturnType<typeof describeMachine>;
  server: string;
  sandbox: { available: boolean; reason: string };
  seconds: Partial<Record<Section, number>>;
  /** When each section was last measured: --only keeps the other sections of the file as they were. */
  measured: Partial<Record<Section, string>>;
  roundTrips?: RoundTripReport;
  pipeline?: PipelineReport;
  scale?: ScaleReport;
  startup?: StartupReport;
  bundle?: BundleReport;
  bytes?: BytesReport;
  syscalls?: SyscallReport;
}

const SECTION_KEYS: Readonly<Record<Section, 'roundTrips' | 'syscalls' | 'pipeline' | 'scale' | 'startup' | 'bundle' | 'bytes'>> = {
  'round-trips': 'roundTrips',
  syscalls: 'syscalls',
  pipeline: 'pipeline',
  scale: 'scale',
  startup: 'startup',
  bundle: 'bundle',
  bytes: 'bytes',
};

/** A partial run replaces its own sections and keeps the rest of the last file, so the profiler still finds the round trips. */
function mergedWithPrevious(resultsFile: string, results: Results, sections: readonly Section[]): Results {
  let previous: Partial<Results>;
  try {
    previous = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Partial<Results>;
  } catch {
    return results;
  }
  const merged: Results = { ...results, seconds: { ...previous.seconds, ...results.seconds }, measured: { ...previous.measured, ...results.measured } };
  for (const section of SECTIONS) {
    const key = SECTION_KEYS[section];
    if (!sections.includes(section) && previous[key] !== undefined) Object.assign(merged, { [key]: previous[key] });
  }
  return merged;
}

function list(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
}

function progress(line: string): void {
  process.stderr.write(`perf: ${line}\n`);
}

function heading(title: string): string {
  return `\n== ${title} ${'='.repeat(Math.max(0, 96 - title.length))}\n`;
}

/** Every FAIL in the results, one line each: the summary at the end. */
function failedGoals(results: Results): string[] {
  const failed: string[] = [];
  for (const row of results.roundTrips?.rows ?? []) {
    for (const server of row.servers) if (server.verdict === 'FAIL') failed.push(`round trips: ${row.label}, ${server.configuration}: ${server.ratio?.toPrecision(3)}x (goal >= ${server.goal})`);
    for (const server of row.servers) {
      if (server.floorVerdict === 'FAIL') failed.push(`round trips: ${row.label}, ${server.configuration}: ${server.floorRatio?.toPrecision(3)}x the no-check floor (goal >= ${server.floorGoal})`);
    }
  }
  for (const row of results.pipeline?.rows ?? []) if (row.verdict === 'FAIL') failed.push(`pipeline: ${row.name} (${row.goalText})`);
  for (const [tool, ratio] of Object.entries(results.scale?.ratios ?? {})) if (ratio.verdict === 'FAIL') failed.push(`scale: ${tool} 100k/10k ${ratio.ratio.toPrecision(3)}x (goal <= 12)`);
  for (const row of results.scale?.rows ?? []) if (row.rssVerdict === 'FAIL') failed.push(`scale: peak RSS at ${row.files.toLocaleString('en-US')} files`);
  for (const row of results.startup?.rows ?? []) {
    if (row.verdict !== 'FAIL') continue;
    if (row.load === 'as is' && row.server === 'ours-sandbox') failed.push(`start-up: the sandbox adds ${results.startup!.sandboxCostMs?.toFixed(0)} ms (goal ${row.goal})`);
    else failed.push(`start-up, ${row.load}: ${row.server}, ${row.handshake} answered with ${row.cpuRatio?.toPrecision(3)}x the reference's CPU to initialize (goal ${row.goal})`);
  }
  for (const row of results.bundle?.rows ?? []) if (row.verdict === 'FAIL') failed.push(`bundle: ${row.name} (goal ${row.goal})`);
  const activation = results.bundle?.activation;
  if (activation?.verdict === 'FAIL') failed.push(`bundle: activation ${activation.activationMs} ms (goal ${activation.goal})`);
  for (const row of results.bytes?.rows ?? []) {
    if (row.verdict === 'FAIL') failed.push(`bytes: ${row.label} ${row.ratio.toPrecision(3)}x, structured ${row.structuredRatio?.toPrecision(3) ?? '-'}x the reference's (goal <= ${row.goal}x)`);
  }
  return failed;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        quick: { type: 'boolean' },
        only: { type: 'string', multiple: true },
        large: { type: 'boolean' },
        pin: { type: 'boolean' },
        results: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`perf: ${(error as Error).message}\nSee: tsx bench/perf/run.ts --help\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  const only = list(values.only);
  const unknown = only.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`perf: unknown section ${unknown.map((name) => JSON.stringify(name)).join(', ')} (known: ${SECTIONS.join(', ')})\n`);
    return 2;
  }
  const sections = only.length > 0 ? SECTIONS.filter((section) => only.includes(section)) : [...SECTIONS];
  const quick = values.quick === true;
  const pinned = values.pin === true;
  if (pinned && !pinningWorks()) {
    process.stderr.write('perf: --pin needs two CPUs or more and taskset (util-linux)\n');
    return 2;
  }
  const resultsFile = path.resolve(values.results ?? DEFAULT_RESULTS_FILE);
  const needsServers = sections.some((section) => section === 'round-trips' || section === 'syscalls' || section === 'scale' || section === 'startup' || section === 'bytes');
  if (needsServers && !fs.existsSync(builtServer)) {
    process.stderr.write(`perf: ${path.relative(process.cwd(), builtServer)} is missing: run npm run build first\n`);
    return 2;
  }
  if (needsServers && !fs.existsSync(referenceServer)) {
    process.stderr.write(`perf: ${referenceServer} is missing: run npm ci\n`);
    return 2;
  }

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      process.stderr.write(`\nperf: ${signal}: removing temporary folders\n`);
      removeAllTempDirs();
      process.exit(130);
    });
  }
  process.on('exit', removeAllTempDirs);

  const machine = describeMachine();
  const bundle = needsServers ? snapshotBundle(makeTempDir('bi-perf-bundle-')) : builtServer;
  const results: Results = {
    date: new Date().toISOString(),
    quick,
    machine,
    server: builtServer,
    sandbox: sandbox(),
    seconds: {},
    measured: {},
  };
  process.stdout.write(`${heading('Machine')}${formatMachine(machine)}\nSandbox: ${results.sandbox.available ? results.sandbox.reason : `unavailable: ${results.sandbox.reason}`}\n`);
  process.stdout.write(`Mode: ${quick ? 'quick (smoke run: few rounds, noisy)' : 'full'}; sections: ${sections.join(', ')}${pinned ? '; round trips pinned (the client on CPU 0, the servers on CPU 1)' : ''}\n`);

  const started = Date.now();
  for (const section of sections) {
    const sectionStart = Date.now();
    switch (section) {
      case 'round-trips': {
        const settings = quick ? QUICK_ROUND_TRIPS : FULL_ROUND_TRIPS;
        const report = await runRoundTrips({ settings: pinned ? { ...settings, pinned } : settings, bundle, progress });
        results.roundTrips = report;
        process.stdout.write(`${heading('1. Server round trips (one stdio client per server, one call in flight)')}${formatRoundTrips(report)}\n`);
        process.stdout.write(
          `Tree rows: ${report.workspace.treeEntries.toLocaleString('en-US')} entries (9,000 files and their folders), under our 10,000-entry walk limit, so both servers walk all of it; ` +
            `search_files finds ${report.workspace.treeMarkdownFiles} .md files on both.\n` +
            `calls/s is the median of ${report.settings.rounds} rounds; latencies over every counted call. "vs ref" (the goal) is ours/reference calls per second; ` +
            '"by median" is reference/ours median latency, the typical call without the tail; "CPU ms/call" is the server\'s own CPU time\n' +
            '(its process tree, from /proc) over the counted calls, and "by CPU" reference/ours of it: the steadiest of the three on a shared machine.\n',
        );
        break;
      }
      case 'syscalls': {
        const report = await runSyscalls(quick ? QUICK_SYSCALLS : FULL_SYSCALLS, bundle, progress);
        results.syscalls = report;
        process.stdout.write(`${heading('1b. System calls per tool call')}${formatSyscalls(report)}\n`);
        break;
      }
      case 'pipeline': {
        const report = await runPipeline({ settings: quick ? QUICK_PIPELINE : FULL_PIPELINE, progress });
        results.pipeline = report;
        process.stdout.write(`${heading('2. The pipeline alone (in process, per input)')}${formatPipeline(report)}\n`);
        break;
      }
      case 'scale': {
        const settings = quick ? QUICK_SCALE : FULL_SCALE;
        const report = await runScale({ settings: { ...settings, large: values.large === true }, bundle, progress });
        results.scale = report;
        process.stdout.write(`${heading('3. Scale (our server, sandbox off)')}${formatScale(report)}\n`);
        break;
      }
      case 'startup': {
        const report = await runStartup({ settings: quick ? QUICK_STARTUP : FULL_STARTUP, bundle, progress });
        results.startup = report;
        process.stdout.write(`${heading('4. Start-up (spawn to the handshake\'s answer and to the first tools/list)')}${formatStartup(report)}\n`);
        break;
      }
      case 'bundle': {
        const report = await runBundle({ activation: quick ? QUICK_ACTIVATION : FULL_ACTIVATION, progress });
        results.bundle = report;
        process.stdout.write(`${heading('5. The extension')}${formatBundle(report)}\n`);
        break;
      }
      case 'bytes': {
        const report = await runBytes({ bundle, progress });
        results.bytes = report;
        process.stdout.write(`${heading('6. Bytes before the model (ours, sandbox off, against the reference)')}${formatBytesReport(report)}\n`);
        break;
      }
    }
    results.seconds[section] = Math.round((Date.now() - sectionStart) / 100) / 10;
    results.measured[section] = new Date(sectionStart).toISOString();
  }

  const failed = failedGoals(results);
  process.stdout.write(`${heading('Goals')}`);
  process.stdout.write(failed.length === 0 ? 'Every goal measured in this run was met.\n' : `${failed.length} goal(s) missed:\n${failed.map((line) => `  ${line}`).join('\n')}\n`);
  const timings = Object.entries(results.seconds)
    .map(([section, seconds]) => `${section} ${seconds} s`)
    .join(', ');
  process.stdout.write(`\nTook ${((Date.now() - started) / 1000).toFixed(0)} s (${timings}).\n`);
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(only.length > 0 ? mergedWithPrevious(resultsFile, results, sections) : results, null, 2)}\n`);
  process.stdout.write(`Results: ${path.relative(process.cwd(), resultsFile)}\n`);
  return 0;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error: Error) => {
    process.stderr.write(`perf: ${error.stack ?? error.message}\n`);
    process.exitCode = 1;
  },
);
