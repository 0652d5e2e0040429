// Section 3: directory_tree and search_files over 10k, 100k and 1M files through our server (sandbox
// off), one server per tree so each one's peak RSS is its own, rounds alternating between trees.
// Walks stop at 10,000 entries with a truncation note, so time and memory should not follow the tree.
import { pathToFileURL } from 'node:url';
import { cacheFolder, cachedScaleTree, diskRoom, generateScaleTree, measureCreationRate, scaleTreeNeeds, type ScaleTree } from './fixtures.js';
import { answerText, startServer, type RunningServer, type ToolAnswer } from './servers.js';
import { formatBytes, formatMs, formatRatio, median, msSince, nowNs, percentile, renderTable, roundOrder, type Verdict } from './stats.js';

export interface ScaleSettings {
  readonly sizes: readonly number[];
  readonly rounds: number;
  readonly callsPerRound: number;
  /** Include 1,000,000 files even when generating them is projected to take longer than GENERATION_LIMIT_SECONDS. */
  readonly large: boolean;
}

export const FULL_SCALE: ScaleSettings = { sizes: [10_000, 100_000, 1_000_000], rounds: 5, callsPerRound: 3, large: false };
export const QUICK_SCALE: ScaleSettings = { sizes: [10_000, 100_000], rounds: 2, callsPerRound: 2, large: false };

const GENERATION_LIMIT_SECONDS = 180;
const TIME_RATIO_GOAL = 12;
const PEAK_RSS_GOAL_BYTES = 200 * 1024 * 1024;

const TOOLS = [
  { tool: 'directory_tree', args: { path: '.' } },
  { tool: 'search_files', args: { path: '.', pattern: '**/*.md' } },
] as const;

export interface ScaleRow {
  readonly files: number;
  readonly status: 'ran' | 'skipped' | 'failed';
  readonly reason?: string;
  readonly entries?: number;
  readonly generatedSeconds?: number | null;
  /** Per tool: median and p99 ms per call, whether the answer was cut at the walk limit. */
  readonly tools?: Readonly<Record<string, { medianMs: number; p99Ms: number; calls: number; truncated: boolean }>>;
  readonly peakRssBytes?: number | null;
  readonly rssGoal?: string;
  readonly rssVerdict?: Verdict;
}

export interface ScaleReport {
  readonly settings: ScaleSettings;
  readonly rows: readonly ScaleRow[];
  /** The 100k median over the 10k median, per tool (goal at most 12). */
  readonly ratios: Readonly<Record<string, { ratio: number; verdict: Verdict }>>;
}

function truncatedOf(answer: ToolAnswer): boolean {
  return answer.structuredContent?.truncated === true;
}

/** A tree from the cache, or generated now; or why not (it would not fit, or would take too long). */
function treeFor(files: number, settings: ScaleSettings, progress: (line: string) => void, rate: () => number): ScaleTree | string {
  const cached = cachedScaleTree(files);
  if (cached) return cached;
  const needs = scaleTreeNeeds(files);
  const room = diskRoom(cacheFolder);
  // Room to spare: the disk is shared, and a full inode table breaks everyone's work.
  if (room.freeInodes < needs.inodes * 2 || room.freeBytes < needs.bytes * 2 + 1024 ** 3) {
    return `needs ${needs.inodes.toLocaleString('en-US')} inodes and ${formatBytes(needs.bytes)}; ${room.freeInodes.toLocaleString('en-US')} inodes and ${formatBytes(room.freeBytes)} free`;
  }
  if (files >= 1_000_000 && !settings.large) {
    const projected = files / rate();
    if (projected > GENERATION_LIMIT_SECONDS) return `generating it would take about ${projected.toFixed(0)} s here; pass --large to generate it anyway`;
  }
  const tree = generateScaleTree(files, progress);
  progress(`generated ${files.toLocaleString('en-US')} files in ${tree.generatedSeconds?.toFixed(0)} s`);
  return tree;
}

export async function runScale(options: { readonly settings: ScaleSettings; readonly bundle: string; readonly progress: (line: string) => void }): Promise<ScaleReport> {
  const { settings, progress } = options;
  let creationRate: number | undefined;
  const rate = () => (creationRate ??= measureCreationRate());
  const trees = new Map<number, ScaleTree>();
  const skipped = new Map<number, string>();
  for (const files of settings.sizes) {
    const tree = treeFor(files, settings, progress, rate);
    if (typeof tree === 'string') skipped.set(files, tree);
    else trees.set(files, tree);
  }

  const servers = new Map<number, RunningServer>();
  const failed = new Map<number, string>();
  const samples = new Map<number, Map<string, number[]>>();
  const truncated = new Map<number, Map<string, boolean>>();
  try {
    for (const [files, tree] of trees) {
      try {
        const server = await startServer('ours-off', tree.root, { bundle: options.bundle });
        servers.set(files, server);
        samples.set(files, new Map(TOOLS.map(({ tool }) => [tool, []])));
        truncated.set(files, new Map());
      } catch (error) {
        failed.set(files, `could not start: ${(error as Error).message}`);
      }
    }
    const call = async (files: number, tool: string, args: Record<string, unknown>) => {
      const server = servers.get(files)!;
      const answer = await server.call(tool, { workspaceUri: pathToFileURL(trees.get(files)!.root).href, ...args });
      if (answer.isError === true) throw new Error(`${tool} answered an error: ${answerText(answer).slice(0, 300)}`);
      truncated.get(files)!.set(tool, truncatedOf(answer));
    };
    for (const files of servers.keys()) {
      progress(`scale: warming up ${files.toLocaleString('en-US')}`);
      try {
        for (const { tool, args } of TOOLS) await call(files, tool, args);
      } catch (error) {
        failed.set(files, (error as Error).message);
      }
    }
    const live = () => [...servers.keys()].filter((files) => !failed.has(files));
    for (let round = 0; round < settings.rounds; round += 1) {
      progress(`scale: round ${round + 1} of ${settings.rounds}`);
      for (const files of roundOrder(live(), round)) {
        for (const { tool, args } of TOOLS) {
          for (let index = 0; index < settings.callsPerRound; index += 1) {
            const start = nowNs();
            try {
              await call(files, tool, args);
            } catch (error) {
              failed.set(files, (error as Error).message);
              break;
            }
            samples.get(files)!.get(tool)!.push(msSince(start));
          }
        }
      }
    }

    const rows: ScaleRow[] = settings.sizes.map((files) => {
      const skip = skipped.get(files);
      if (skip !== undefined) return { files, status: 'skipped', reason: skip };
      const tree = trees.get(files)!;
      const failure = failed.get(files);
      if (failure !== undefined) return { files, status: 'failed', reason: failure, entries: tree.entries };
      const tools: Record<string, { medianMs: number; p99Ms: number; calls: number; truncated: boolean }> = {};
      for (const { tool } of TOOLS) {
        const values = samples.get(files)!.get(tool)!;
        tools[tool] = { medianMs: median(values), p99Ms: percentile(values, 99), calls: values.length, truncated: truncated.get(files)!.get(tool) === true };
      }
      const peakRssBytes = servers.get(files)!.peakRssBytes();
      const atGoalSize = files >= 1_000_000;
      return {
        files,
        status: 'ran',
        entries: tree.entries,
        generatedSeconds: tree.generatedSeconds,
        tools,
        peakRssBytes,
        ...(atGoalSize ? { rssGoal: `< ${formatBytes(PEAK_RSS_GOAL_BYTES)}`, rssVerdict: (peakRssBytes !== null && peakRssBytes < PEAK_RSS_GOAL_BYTES ? 'pass' : 'FAIL') as Verdict } : {}),
      };
    });
    const ratios: Record<string, { ratio: number; verdict: Verdict }> = {};
    const small = rows.find((row) => row.files === 10_000 && row.status === 'ran');
    const large = rows.find((row) => row.files === 100_000 && row.status === 'ran');
    if (small?.tools && large?.tools) {
      for (const { tool } of TOOLS) {
        const ratio = large.tools[tool]!.medianMs / small.tools[tool]!.medianMs;
        ratios[tool] = { ratio, verdict: ratio <= TIME_RATIO_GOAL ? 'pass' : 'FAIL' };
      }
    }
    return { settings, rows, ratios };
  } finally {
    await Promise.all([...servers.values()].map((server) => server.close().catch(() => undefined)));
  }
}

export function formatScale(report: ScaleReport): string {
  const table: string[][] = [];
  for (const row of report.rows) {
    const size = row.files.toLocaleString('en-US');
    if (row.status !== 'ran') {
      table.push([size, row.status, '', '', '', '', '', '', row.reason ?? '']);
      continue;
    }
    for (const { tool } of TOOLS) {
      const result = row.tools![tool]!;
      const ratio = row.files === 100_000 ? report.ratios[tool] : undefined;
      table.push([
        `${size} ${tool}`,
        formatMs(result.medianMs),
        formatMs(result.p99Ms),
        String(result.calls),
        result.truncated ? 'yes' : 'no',
        ratio ? formatRatio(ratio.ratio) : '',
        ratio ? `<= ${TIME_RATIO_GOAL}` : '',
        ratio?.verdict ?? '',
        '',
      ]);
    }
    table.push([`${size} peak RSS`, formatBytes(row.peakRssBytes), '', '', '', '', row.rssGoal ?? '', row.rssVerdict ?? '', row.generatedSeconds ? `generated in ${row.generatedSeconds.toFixed(0)} s` : 'cached']);
  }
  return [
    renderTable(['files / tool', 'median ms', 'p99 ms', 'calls', 'truncated', '100k/10k', 'goal', 'result', 'note'], table),
    'One call stops at 10,000 entries examined or its 40,000-byte answer, with a cursor for the rest (truncated): past that, time and memory should stay flat.',
    'Leaf folders hold 100 files, ten folders per level (10k: 2 levels, 100k: 3, 1M: 4); one file in ten is .md.',
  ].join('\n');
}
