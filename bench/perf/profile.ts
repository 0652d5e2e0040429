// CPU profiles of our server (node --cpu-prof on the server process) for the round-trip rows that
// missed their goal in bench/results.json, and always for the protocol path (the no-file call) and
// the filesystem path (get_file_info, read_text_file, list_directory); plus an in-process profile
// of the pipeline. Input for optimising: it measures, it changes nothing.
import fs from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { prepareRoot, traceAgainst } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { summariseProfile, formatProfile, type CpuProfile, type ProfileSummary } from './cpuProfile.js';
import { createRoundTripWorkspace, makeTempDir, removeAllTempDirs, removeTempDir, type RoundTripWorkspace } from './fixtures.js';
import { createInputs, createPipelineTree, SIMULATED_ROOTS, simulatedInputs } from './pipeline.js';
import { ROUND_TRIP_CASES, ROUND_TRIP_GOALS, type RoundTripCase, type RoundTripReport } from './roundTrips.js';
import { answerText, CONFIGURATION_LABELS, DEFAULT_RESULTS_FILE, repoRoot, sandbox, snapshotBundle, startServer, type Configuration } from './servers.js';
import { pathToFileURL } from 'node:url';

/** Always profiled: the protocol path and the filesystem path. */
const ALWAYS = ['no_file', 'get_file_info', 'read_4k', 'list_directory'];

const help = `Usage: tsx bench/perf/profile.ts [options]

Profiles our server with node --cpu-prof (sampling every 100 µs) while one client calls a single
tool in a loop, and prints the top self-time functions, mapped through dist/server.js.map to
their source files. Rows: ${ALWAYS.join(', ')} always, plus every round-trip row whose ratio
missed its goal in the results file (with the sandbox on too where that configuration missed).
Then profiles the pipeline in process (traceAgainst on the real filesystem and simulated win32).
Run npm run build first; the .cpuprofile files stay in a temporary folder (printed) for DevTools.

Options:
  --rows <id,...>     profile these rows instead (known: ${ROUND_TRIP_CASES.map((testCase) => testCase.id).join(', ')})
  --seconds <n>       seconds of calls per row (default 6)
  --top <n>           functions listed per profile (default 15)
  --no-pipeline       skip the in-process pipeline profiles
  --results <file>    the runner's results to pick rows from (default bench/results.json)
  -h, --help          show this help
`;

interface Target {
  readonly testCase: RoundTripCase;
  readonly configuration: Exclude<Configuration, 'reference'>;
}

/** The rows below goal in the last run, by configuration. */
function missedGoals(resultsFile: string): Target[] {
  let report: RoundTripReport | undefined;
  try {
    report = (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as { roundTrips?: RoundTripReport }).roundTrips;
  } catch {
    return [];
  }
  const targets: Target[] = [];
  for (const row of report?.rows ?? []) {
    const testCase = ROUND_TRIP_CASES.find((candidate) => candidate.id === row.id);
    if (!testCase) continue;
    for (const server of row.servers) {
      if (server.configuration === 'reference' || server.configuration === 'floor' || server.ratio === undefined) continue;
      if (server.ratio < ROUND_TRIP_GOALS[server.configuration]) targets.push({ testCase, configuration: server.configuration });
    }
  }
  return targets;
}

function newestProfiles(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => path.join(folder, name));
}

/** The profile is written as the server exits; a sandboxed server leaves two (the launcher's, mostly idle). */
async function busiestProfile(folder: string): Promise<ProfileSummary & { file: string }> {
  for (let waited = 0; waited < 15_000 && newestProfiles(folder).length === 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 500)); // the inner process may finish writing after the launcher
  const summaries = newestProfiles(folder).map((file) => ({ file, ...summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, repoRoot) }));
  if (summaries.length === 0) throw new Error(`no .cpuprofile was written to ${folder}`);
  return summaries.sort((a, b) => b.busyMs - a.busyMs)[0]!;
}

async function profileRow(target: Target, workspace: RoundTripWorkspace, bundle: string, profiles: string, seconds: number): Promise<{ summary: ProfileSummary & { file: string }; calls: number }> {
  // With the sandbox on, /tmp is empty and read-only inside: the profile goes in the workspace, which it may write.
  const folder = target.configuration === 'ours-sandbox' ? path.join(workspace.root, `.cpuprofile-${target.testCase.id}`) : path.join(profiles, `${target.testCase.id}-${target.configuration}`);
  fs.mkdirSync(folder, { recursive: true });
  const server = await startServer(target.configuration, workspace.root, { bundle, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${folder}`, '--cpu-prof-interval=100'] });
  let calls = 0;
  try {
    const call = target.testCase.ours(pathToFileURL(workspace.root).href, target.configuration);
    const deadline = Date.now() + seconds * 1000;
    while (Date.now() < deadline || calls < 5) {
      const answer = await server.call(call.tool, call.args);
      if (answer.isError === true) throw new Error(`${call.tool} answered an error: ${answerText(answer).slice(0, 300)}`);
      calls += 1;
    }
  } finally {
    await server.close();
  }
  const summary = await busiestProfile(folder);
  if (target.configuration === 'ours-sandbox') {
    const kept = path.join(profiles, `${target.testCase.id}-${target.configuration}.cpuprofile`);
    fs.copyFileSync(summary.file, kept);
    fs.rmSync(folder, { recursive: true, force: true });
    return { summary: { ...summary, file: kept }, calls };
  }
  return { summary, calls };
}

/** The pipeline in this process, through the inspector's profiler. */
async function profileInProcess(name: string, seconds: number, work: () => void, profiles: string): Promise<{ summary: ProfileSummary & { file: string }; calls: number }> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
  for (let index = 0; index < 3; index += 1) work(); // warm-up, outside the profile
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  let calls = 0;
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    work();
    calls += 1;
  }
  const { profile } = await post<{ profile: CpuProfile }>('Profiler.stop');
  session.disconnect();
  const file = path.join(profiles, `${name}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  return { summary: { file, ...summariseProfile(profile, repoRoot) }, calls };
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        rows: { type: 'string', multiple: true },
        seconds: { type: 'string' },
        top: { type: 'string' },
        'no-pipeline': { type: 'boolean' },
        results: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`profile: ${(error as Error).message}\nSee: tsx bench/perf/profile.ts --help\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  const seconds = values.seconds === undefined ? 6 : Number(values.seconds);
  const top = values.top === undefined ? 15 : Number(values.top);
  if (!(seconds > 0) || !(top > 0)) {
    process.stderr.write('profile: --seconds and --top must be positive numbers\n');
    return 2;
  }
  const asked = (values.rows ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter((value) => value !== '');
  const unknown = asked.filter((id) => !ROUND_TRIP_CASES.some((testCase) => testCase.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`profile: unknown row ${unknown.join(', ')} (known: ${ROUND_TRIP_CASES.map((testCase) => testCase.id).join(', ')})\n`);
    return 2;
  }

  const targets: Target[] = [];
  const add = (target: Target) => {
    if (target.configuration === 'ours-sandbox' && !sandbox().available) return;
    if (!targets.some((known) => known.testCase.id === target.testCase.id && known.configuration === target.configuration)) targets.push(target);
  };
  if (asked.length > 0) {
    for (const id of asked) add({ testCase: ROUND_TRIP_CASES.find((testCase) => testCase.id === id)!, configuration: 'ours-off' });
  } else {
    for (const id of ALWAYS) add({ testCase: ROUND_TRIP_CASES.find((testCase) => testCase.id === id)!, configuration: 'ours-off' });
    for (const target of missedGoals(path.resolve(values.results ?? DEFAULT_RESULTS_FILE))) add(target);
  }
  // Row order as the runner lists them, sandbox off before on.
  targets.sort((a, b) => ROUND_TRIP_CASES.indexOf(a.testCase) - ROUND_TRIP_CASES.indexOf(b.testCase) || a.configuration.localeCompare(b.configuration));

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      removeAllTempDirs();
      process.exit(130);
    });
  }
  // Not registered for removal: the .cpuprofile files are the product.
  const profiles = fs.realpathSync(fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'bi-perf-profiles-')));
  const bundleFolder = makeTempDir('bi-perf-bundle-');
  const bundle = snapshotBundle(bundleFolder);
  const workspace = createRoundTripWorkspace();
  const summaries: Record<string, unknown> = {};
  try {
    for (const target of targets) {
      const title = `${target.testCase.label} (${CONFIGURATION_LABELS[target.configuration]})`;
      process.stderr.write(`profile: ${title}\n`);
      try {
        const { summary, calls } = await profileRow(target, workspace, bundle, profiles, seconds);
        summaries[`${target.testCase.id}/${target.configuration}`] = { calls, ...summary };
        process.stdout.write(`\n== ${title}\n${formatProfile(summary, { top, calls })}\nprofile: ${summary.file}\n`);
      } catch (error) {
        process.stdout.write(`\n== ${title}\nfailed: ${(error as Error).message}\n`);
      }
    }

    if (values['no-pipeline'] !== true) {
      const tree = createPipelineTree();
      try {
        const prepared = prepareRoot(pathToFileURL(tree.workspace).href, { platform: 'linux', fs: nodeFileSystem });
        const inputs = createInputs(tree, 10_000).map((input) => input.text);
        const win32Root = prepareRoot(SIMULATED_ROOTS.win32, { platform: 'win32' });
        const win32Inputs = simulatedInputs('win32', 10_000);
        const runs = [
          { name: 'pipeline-real-fs', title: 'pipeline: traceAgainst on the real filesystem, 10,000 mixed inputs per pass', work: () => inputs.forEach((input) => traceAgainst(prepared, input)) },
          { name: 'pipeline-simulated-win32', title: 'pipeline: simulated win32, no fs, 10,000 inputs per pass', work: () => win32Inputs.forEach((input) => traceAgainst(win32Root, input)) },
        ];
        for (const run of runs) {
          process.stderr.write(`profile: ${run.title}\n`);
          const { summary, calls } = await profileInProcess(run.name, seconds, run.work, profiles);
          summaries[run.name] = { passes: calls, ...summary };
          process.stdout.write(`\n== ${run.title}\n${formatProfile(summary, { top })}\n(${calls} passes over the inputs, in this process; self time includes whatever V8 inlined into a function)\nprofile: ${summary.file}\n`);
        }
      } finally {
        removeTempDir(tree.base);
      }
    }
  } finally {
    removeTempDir(workspace.root);
    removeTempDir(bundleFolder);
  }
  fs.writeFileSync(path.join(profiles, 'summary.json'), `${JSON.stringify(summaries, null, 2)}\n`);
  process.stdout.write(`\nProfiles and summary.json: ${profiles}\n`);
  return 0;
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error: Error) => {
    process.stderr.write(`profile: ${error.stack ?? error.message}\n`);
    process.exitCode = 1;
  },
);
