// Section 2: the path pipeline alone, in this process. Ours (root prepared once, traceAgainst on
// the real filesystem) against the floor (one fs.realpathSync.native per input) and against the
// reference server's validatePath, on the same 10,000 inputs; and simulated platforms, no fs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prepareRoot, traceAgainst, type PreparedRoot } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';
import { makeTempDir, removeTempDir } from './fixtures.js';
import { repoRoot } from './servers.js';
import { formatMs, formatNumber, formatRatio, median, percentile, renderTable, roundOrder, type Verdict } from './stats.js';

export interface PipelineSettings {
  readonly inputs: number;
  readonly rounds: number;
}

export const FULL_PIPELINE: PipelineSettings = { inputs: 10_000, rounds: 11 };
export const QUICK_PIPELINE: PipelineSettings = { inputs: 2_000, rounds: 3 };

/** Ours may cost at most this many times the floor... */
const FLOOR_GOAL = 1.5;
/** ...must be at least this many times the reference's validatePath... */
const REFERENCE_GOAL = 2;
/** ...and simulated traces must reach this many per second. */
const SIMULATED_GOAL = 200_000;

// ------------------------------------------------------------------------------------------------
// Inputs
// ------------------------------------------------------------------------------------------------

/** A seeded generator, so every run (and every machine) judges the same inputs. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type InputKind = 'existing' | 'missing' | 'via-link' | 'uri' | 'hostile';

export interface PipelineInput {
  readonly kind: InputKind;
  readonly text: string;
}

export interface PipelineTree {
  readonly base: string;
  readonly workspace: string;
  /** Existing files, relative to the workspace, 3 to 8 names deep. */
  readonly files: readonly string[];
  /** Existing folders, relative, for targets that do not exist yet. */
  readonly folders: readonly string[];
  /** Files reached through links that stay inside, relative. */
  readonly linked: readonly string[];
}

/** A workspace with files 3 to 8 levels deep, links that stay inside, one that leaves, and a sibling-prefix folder beside it. */
export function createPipelineTree(): PipelineTree {
  const base = makeTempDir('bi-perf-pipeline-');
  const workspace = path.join(base, 'ws');
  const files: string[] = [];
  const folders: string[] = [];
  for (let branch = 0; branch < 6; branch += 1) {
    let folder = `src${branch}`;
    for (let depth = 2; depth <= 7; depth += 1) {
      folder = `${folder}/level${depth}`;
      folders.push(folder);
      fs.mkdirSync(path.join(workspace, folder), { recursive: true });
      for (let index = 0; index < 3; index += 1) {
        const file = `${folder}/file-${index}.ts`;
        fs.writeFileSync(path.join(workspace, file), '');
        files.push(file);
      }
    }
  }
  // Links inside: one at the top, one deep pointing up, and a chain of two.
  fs.symlinkSync('src0', path.join(workspace, 'link-to-src0'));
  fs.symlinkSync('../../../src1/level2', path.join(workspace, 'src2/level2/level3/up-link'));
  fs.symlinkSync('link-to-src0', path.join(workspace, 'chain'));
  const linked = [
    'link-to-src0/level2/file-0.ts',
    'link-to-src0/level2/level3/level4/file-1.ts',
    'src2/level2/level3/up-link/level3/file-2.ts',
    'chain/level2/level3/file-0.ts',
    'chain/level2/level3/level4/level5/level6/file-1.ts',
  ];
  // Hostile neighbours: a link that leaves, a folder outside, and a sibling whose name starts like the workspace's.
  fs.mkdirSync(path.join(base, 'outside'));
  fs.writeFileSync(path.join(base, 'outside', 'secret.txt'), 'outside');
  fs.symlinkSync('../outside', path.join(workspace, 'escape'));
  fs.mkdirSync(path.join(base, 'ws-evil'));
  fs.writeFileSync(path.join(base, 'ws-evil', 'x.txt'), 'sibling');
  return { base, workspace, files, folders, linked };
}

export function createInputs(tree: PipelineTree, count: number): PipelineInput[] {
  const random = seededRandom(20_260_831);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const absolute = (relative: string) => path.join(tree.workspace, relative);
  const hostile = [
    '../x',
    '../../etc/passwd',
    'src0/level2/../../../x',
    '%2e%2e/%2e%2e/x',
    'src1/..%2f..%2fx',
    path.join(tree.base, 'ws-evil', 'x.txt'),
    `${tree.workspace}-evil/x.txt`,
    'escape/secret.txt',
    '/etc/passwd',
    `${pathToFileURL(tree.workspace).href}/%2e%2e/outside/secret.txt`,
    `${pathToFileURL(tree.workspace).href}/src0%2f..%2f..%2fx`,
    'file://localhost/etc/passwd',
  ];
  const inputs: PipelineInput[] = [];
  for (let index = 0; index < count; index += 1) {
    const roll = random();
    if (roll < 0.35) {
      const file = pick(tree.files);
      inputs.push({ kind: 'existing', text: random() < 0.5 ? file : absolute(file) });
    } else if (roll < 0.5) {
      const folder = pick(tree.folders);
      const name = random() < 0.5 ? `new-${index}.ts` : `new-${index}/deeper/file.ts`;
      inputs.push({ kind: 'missing', text: random() < 0.5 ? `${folder}/${name}` : absolute(`${folder}/${name}`) });
    } else if (roll < 0.65) {
      inputs.push({ kind: 'via-link', text: pick(tree.linked) });
    } else if (roll < 0.7) {
      inputs.push({ kind: 'uri', text: pathToFileURL(absolute(pick(tree.files))).href });
    } else {
      inputs.push({ kind: 'hostile', text: pick(hostile) });
    }
  }
  return inputs;
}

/** What the floor resolves for one input: the lexical target, or its deepest existing ancestor. */
function floorTarget(workspace: string, input: string): string {
  let target: string;
  if (input.startsWith('file:')) {
    try {
      target = fileURLToPath(input);
    } catch {
      target = path.resolve(workspace, new URL(input).pathname.slice(1));
    }
  } else {
    target = path.resolve(workspace, input);
  }
  while (fs.lstatSync(target, { throwIfNoEntry: false }) === undefined && path.dirname(target) !== target) target = path.dirname(target);
  return target;
}

// ------------------------------------------------------------------------------------------------
// Simulated platforms
// ------------------------------------------------------------------------------------------------

export const SIMULATED_ROOTS = { win32: 'file:///c%3A/Users/dev/ws', darwin: 'file:///Users/dev/ws' } as const;

export function simulatedInputs(platform: 'win32' | 'darwin', count: number): string[] {
  const win32 = [
    'C:\\Users\\dev\\ws\\src\\app\\main.ts',
    'src\\app\\main.ts',
    'src/app/deep/er/still/main.ts',
    'file:///c%3A/Users/dev/ws/src/app/main.ts',
    'file:///C:/Users/dev/ws/SRC/App/Main.ts',
    'C:\\USERS\\DEV\\WS\\readme.md',
    '..\\x',
    'src\\..\\..\\x',
    'C:\\Users\\dev\\ws-evil\\x',
    '\\\\?\\C:\\Users\\dev\\ws\\x',
    '\\\\server\\share\\x',
    'CON',
    'src\\aux.txt',
    'file:///c%3A/Users/dev/ws/%2e%2e/x',
    'file:///c%3A/Users/dev/ws/a%5Cb',
    'D:\\other\\x',
  ];
  const darwin = [
    '/Users/dev/ws/src/app/main.ts',
    'src/app/main.ts',
    'src/app/deep/er/still/main.ts',
    'file:///Users/dev/ws/src/app/main.ts',
    '/USERS/dev/WS/Readme.md',
    `src/${'caf\u0065\u0301'}.txt`,
    `file:///Users/dev/ws/caf%C3%A9.txt`,
    '../x',
    'src/../../x',
    '/Users/dev/ws-evil/x',
    'file:///Users/dev/ws/%2e%2e/x',
    'file:///Users/dev/ws/a%2Fb',
    'file://localhost/Users/dev/ws/x',
    '/private/etc/passwd',
  ];
  const source = platform === 'win32' ? win32 : darwin;
  return Array.from({ length: count }, (_, index) => source[index % source.length]!);
}

// ------------------------------------------------------------------------------------------------
// Measuring
// ------------------------------------------------------------------------------------------------

interface Contender {
  readonly name: string;
  /** One untimed pass over every input: throughput. */
  pass(): Promise<void> | void;
  /** One pass timing each input: latencies, in microseconds. */
  timedPass(into: number[]): Promise<void> | void;
}

export interface PipelineRow {
  readonly name: string;
  readonly perSecond: number;
  /** This process's CPU time per input (the libuv threads' included): scheduling waits left out. */
  readonly cpuUs: number;
  /** The same comparison as ratio, by CPU time instead of wall time. */
  readonly cpuRatio?: number;
  readonly medianUs: number;
  readonly p99Us: number;
  readonly baseline?: string;
  /** How this row compares with its baseline, as the goal reads (see goalText). */
  readonly ratio?: number;
  readonly goalText?: string;
  readonly verdict?: Verdict;
}

export interface PipelineReport {
  readonly settings: PipelineSettings;
  readonly inputMix: Readonly<Record<InputKind, number>>;
  /** What ours and the reference decided about the same inputs (allowed = inside or served). */
  readonly allowed: { readonly ours: number; readonly reference: number };
  readonly rows: readonly PipelineRow[];
}

interface Measured {
  readonly perSecond: number[];
  readonly cpuUs: number[];
  readonly latencies: number[];
}

async function measureContenders(contenders: readonly Contender[], inputs: number, rounds: number): Promise<Map<string, Measured>> {
  const results = new Map<string, Measured>(contenders.map((contender) => [contender.name, { perSecond: [], cpuUs: [], latencies: [] }]));
  for (const contender of contenders) await contender.pass(); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    for (const contender of roundOrder(contenders, round)) {
      const result = results.get(contender.name)!;
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      await contender.pass();
      result.perSecond.push(inputs / (Number(process.hrtime.bigint() - start) / 1e9));
      const used = process.cpuUsage(cpu);
      result.cpuUs.push((used.user + used.system) / inputs);
      await contender.timedPass(result.latencies);
    }
  }
  return results;
}

function syncContender(name: string, inputs: readonly string[], run: (input: string) => unknown): Contender {
  return {
    name,
    pass() {
      for (const input of inputs) run(input);
    },
    timedPass(into) {
      for (const input of inputs) {
        const start = process.hrtime.bigint();
        run(input);
        into.push(Number(process.hrtime.bigint() - start) / 1000);
      }
    },
  };
}

interface ReferenceLib {
  validatePath(requested: string): Promise<string>;
  setAllowedDirectories(directories: string[]): void;
}

interface ReferencePathUtils {
  normalizePath(p: string): string;
}

/** The reference server's own validatePath (dist/lib.js), with its allowed directories set as its index.js sets them. */
async function loadReferenceValidator(workspace: string): Promise<ReferenceLib['validatePath']> {
  const dist = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist');
  const lib = (await import(pathToFileURL(path.join(dist, 'lib.js')).href)) as ReferenceLib;
  const utils = (await import(pathToFileURL(path.join(dist, 'path-utils.js')).href)) as ReferencePathUtils;
  lib.setAllowedDirectories([utils.normalizePath(fs.realpathSync(workspace))]);
  return lib.validatePath;
}

export async function runPipeline(options: { readonly settings: PipelineSettings; readonly progress: (line: string) => void }): Promise<PipelineReport> {
  const { settings } = options;
  const tree = createPipelineTree();
  try {
    const inputs = createInputs(tree, settings.inputs);
    const texts = inputs.map((input) => input.text);
    const inputMix = { existing: 0, missing: 0, 'via-link': 0, uri: 0, hostile: 0 } as Record<InputKind, number>;
    for (const input of inputs) inputMix[input.kind] += 1;

    const prepared: PreparedRoot = prepareRoot(pathToFileURL(tree.workspace).href, { platform: 'linux', fs: nodeFileSystem });
    if (!prepared.ok) throw new Error(`the pipeline's root was refused: ${prepared.reason}`);
    const floorTargets = texts.map((text) => floorTarget(tree.workspace, text));
    const validatePath = await loadReferenceValidator(tree.workspace);

    let oursAllowed = 0;
    let referenceAllowed = 0;
    for (const text of texts) {
      if (traceAgainst(prepared, text).verdict === 'inside') oursAllowed += 1;
      try {
        await validatePath(text);
        referenceAllowed += 1;
      } catch {
        // denied
      }
    }

    const realpathFloor = (target: string) => {
      try {
        return fs.realpathSync.native(target);
      } catch {
        return undefined;
      }
    };
    const ours = syncContender('ours: traceAgainst, root prepared once', texts, (text) => traceAgainst(prepared, text));
    // The targets were worked out beforehand: the floor is the realpath call and nothing else.
    const floor = syncContender('floor: fs.realpathSync.native', floorTargets, realpathFloor);
    const reference: Contender = {
      name: 'reference: validatePath (async)',
      async pass() {
        for (const text of texts) {
          try {
            await validatePath(text);
          } catch {
            // a refusal is an answer too
          }
        }
      },
      async timedPass(into) {
        for (const text of texts) {
          const start = process.hrtime.bigint();
          try {
            await validatePath(text);
          } catch {
            // a refusal is an answer too
          }
          into.push(Number(process.hrtime.bigint() - start) / 1000);
        }
      },
    };
    options.progress('pipeline: real filesystem');
    const real = await measureContenders([ours, floor, reference], texts.length, settings.rounds);

    options.progress('pipeline: simulated platforms');
    const simulated: Contender[] = (['win32', 'darwin'] as const).map((platform) => {
      const root = prepareRoot(SIMULATED_ROOTS[platform], { platform });
      if (!root.ok) throw new Error(`the simulated ${platform} root was refused: ${root.reason}`);
      return syncContender(`ours: simulated ${platform}, no fs`, simulatedInputs(platform, settings.inputs), (text) => traceAgainst(root, text));
    });
    const sim = await measureContenders(simulated, settings.inputs, settings.rounds);

    const summary = (name: string, from: Map<string, Measured>) => {
      const result = from.get(name)!;
      return { name, perSecond: median(result.perSecond), cpuUs: median(result.cpuUs), medianUs: median(result.latencies), p99Us: percentile(result.latencies, 99) };
    };
    const oursRow = summary(ours.name, real);
    const floorRow = summary(floor.name, real);
    const referenceRow = summary(reference.name, real);
    // The floor goal reads as a cost (ours' time over the floor's), the reference goal as a speed-up.
    const costOverFloor = floorRow.perSecond / oursRow.perSecond;
    const speedOverReference = oursRow.perSecond / referenceRow.perSecond;
    const rows: PipelineRow[] = [
      { ...oursRow },
      { ...floorRow, baseline: ours.name, ratio: costOverFloor, cpuRatio: oursRow.cpuUs / floorRow.cpuUs, goalText: `ours/floor time <= ${FLOOR_GOAL}`, verdict: costOverFloor <= FLOOR_GOAL ? 'pass' : 'FAIL' },
      {
        ...referenceRow,
        baseline: ours.name,
        ratio: speedOverReference,
        cpuRatio: referenceRow.cpuUs / oursRow.cpuUs,
        goalText: `ours/ref speed >= ${REFERENCE_GOAL}`,
        verdict: speedOverReference >= REFERENCE_GOAL ? 'pass' : 'FAIL',
      },
      ...simulated.map((contender) => {
        const row = summary(contender.name, sim);
        return { ...row, goalText: `>= ${formatNumber(SIMULATED_GOAL)}/s`, verdict: (row.perSecond >= SIMULATED_GOAL ? 'pass' : 'FAIL') as Verdict };
      }),
    ];
    return { settings, inputMix, allowed: { ours: oursAllowed, reference: referenceAllowed }, rows };
  } finally {
    removeTempDir(tree.base);
  }
}

export function formatPipeline(report: PipelineReport): string {
  const table = renderTable(
    ['contender', 'per second', 'median µs', 'p99 µs', 'CPU µs', 'ratio', 'by CPU', 'goal', 'result'],
    report.rows.map((row) => [
      row.name,
      formatNumber(row.perSecond),
      formatMs(row.medianUs),
      formatMs(row.p99Us),
      formatMs(row.cpuUs),
      row.ratio === undefined ? '' : formatRatio(row.ratio),
      row.cpuRatio === undefined ? '' : formatRatio(row.cpuRatio),
      row.goalText ?? '',
      row.verdict ?? '',
    ]),
  );
  const mix = Object.entries(report.inputMix)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  return [
    table,
    `Inputs: ${report.settings.inputs.toLocaleString('en-US')} (${mix}); the same strings for all three.`,
    `Allowed: ours ${report.allowed.ours}, reference ${report.allowed.reference} (the reference serves %2e%2e and file: text as literal relative names).`,
    'Ratios: the floor row is ours time / floor time (goal at most 1.5), the reference row ours speed / reference speed (goal at least 2).',
    '"CPU µs" is this process\'s CPU per input (libuv threads included), "by CPU" the same ratio by CPU: the reference\'s awaits wait on',
    'the thread pool, so its wall time swings with the load from other work far more than its CPU does.',
  ].join('\n');
}
