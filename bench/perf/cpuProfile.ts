// Reading a V8 .cpuprofile: self time per function, mapped through the bundle's source map to
// the file it came from, and totals per area (our src, the SDK, zod, Node itself...).
import fs from 'node:fs';
import { findSourceMap, SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMs, renderTable } from './stats.js';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface FunctionTime {
  readonly where: string;
  readonly functionName: string;
  readonly area: string;
  readonly selfMs: number;
}

export interface ProfileSummary {
  /**
   * Sampled main-thread time not spent idle, in milliseconds. The sampler records the stack while
   * a blocking call (fsync, a sync write to the stdout pipe) waits, so that waiting counts here.
   */
  readonly busyMs: number;
  readonly idleMs: number;
  readonly functions: readonly FunctionTime[];
  readonly areas: readonly { readonly area: string; readonly selfMs: number }[];
}

/** V8's pseudo-frames: kept as their own rows, never mapped. */
const PSEUDO_FRAMES = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** Where a bundle position came from, through its source map when there is one. */
class Locator {
  private readonly maps = new Map<string, SourceMap | null>();

  constructor(private readonly repoRoot: string) {}

  private mapFor(file: string): SourceMap | null {
    if (!this.maps.has(file)) {
      let map: SourceMap | null = null;
      try {
        map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
      } catch {
        // No map beside it: a module this process loaded (through tsx) may have an inline one.
        map = findSourceMap(file) ?? null;
      }
      this.maps.set(file, map);
    }
    return this.maps.get(file)!;
  }

  locate(frame: CallFrame): string {
    if (frame.url === '') return '(native)';
    if (!frame.url.startsWith('file:')) return frame.url; // node:fs, node:internal/...
    const file = fileURLToPath(frame.url);
    const map = this.mapFor(file);
    if (map) {
      const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number };
      if (entry.originalSource) return `${tidy(entry.originalSource, this.repoRoot)}:${(entry.originalLine ?? 0) + 1}`;
    }
    return `${tidy(file, this.repoRoot)}:${frame.lineNumber + 1}`;
  }
}

/** Repository-relative, and node_modules shortened to the package path. */
function tidy(source: string, repoRoot: string): string {
  let text = source.startsWith('file:') ? fileURLToPath(source) : source;
  if (path.isAbsolute(text)) text = path.relative(repoRoot, text);
  text = text.replace(/^(\.\.\/)+/, '');
  const modules = text.lastIndexOf('node_modules/');
  return modules === -1 ? text : text.slice(modules + 'node_modules/'.length);
}

function areaOf(where: string, functionName: string): string {
  if (PSEUDO_FRAMES.has(functionName)) return functionName;
  if (where === '(native)') return 'native (V8 builtins, C++)';
  if (where.startsWith('node:')) return 'node internals';
  const ours = /^(src\/[^/]+)\//.exec(where);
  if (ours) return ours[1]!;
  if (where.startsWith('@modelcontextprotocol/')) return where.split('/').slice(0, 2).join('/');
  const firstName = where.split('/')[0]!;
  return firstName.startsWith('@') ? where.split('/').slice(0, 2).join('/') : firstName;
}

export function summariseProfile(profile: CpuProfile, repoRoot: string): ProfileSummary {
  const locator = new Locator(repoRoot);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfById = new Map<number, number>();
  // Sample i lasts until sample i+1 is taken; the last one until the profile ends.
  let at = profile.startTime;
  const times: number[] = profile.timeDeltas.map((delta) => (at += delta));
  for (let index = 0; index < profile.samples.length; index += 1) {
    const duration = (index + 1 < times.length ? times[index + 1]! : profile.endTime) - times[index]!;
    const id = profile.samples[index]!;
    selfById.set(id, (selfById.get(id) ?? 0) + Math.max(0, duration));
  }
  const functions = new Map<string, { where: string; functionName: string; area: string; selfUs: number }>();
  let idleUs = 0;
  let busyUs = 0;
  for (const [id, selfUs] of selfById) {
    const frame = byId.get(id)!.callFrame;
    const functionName = frame.functionName === '' ? '(anonymous)' : frame.functionName;
    if (functionName === '(idle)') {
      idleUs += selfUs;
      continue;
    }
    busyUs += selfUs;
    const where = PSEUDO_FRAMES.has(functionName) ? '' : locator.locate(frame);
    // A frame's position is where its function starts, so file, line and name identify one function.
    const key = `${where}\0${functionName}`;
    const entry = functions.get(key) ?? { where, functionName, area: areaOf(where, functionName), selfUs: 0 };
    entry.selfUs += selfUs;
    functions.set(key, entry);
  }
  const sorted = [...functions.values()].sort((a, b) => b.selfUs - a.selfUs);
  const areas = new Map<string, number>();
  for (const entry of sorted) areas.set(entry.area, (areas.get(entry.area) ?? 0) + entry.selfUs);
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    functions: sorted.map((entry) => ({ where: entry.where, functionName: entry.functionName, area: entry.area, selfMs: entry.selfUs / 1000 })),
    areas: [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([area, selfUs]) => ({ area, selfMs: selfUs / 1000 })),
  };
}

export function formatProfile(summary: ProfileSummary, options: { readonly top: number; readonly calls?: number }): string {
  const percent = (ms: number) => `${((ms / summary.busyMs) * 100).toFixed(1)}%`;
  const perCall = options.calls ? `, ${formatMs(summary.busyMs / options.calls)} ms of busy main thread per call over ${options.calls} calls` : '';
  const functions = renderTable(
    ['function', 'where (the function, in its source)', 'self ms', 'of busy'],
    summary.functions.slice(0, options.top).map((entry) => [entry.functionName, entry.where, formatMs(entry.selfMs), percent(entry.selfMs)]),
    2,
  );
  const areas = summary.areas
    .slice(0, 8)
    .map((entry) => `${entry.area} ${percent(entry.selfMs)}`)
    .join(', ');
  return [`busy ${formatMs(summary.busyMs)} ms (idle ${formatMs(summary.idleMs)} ms excluded)${perCall}`, `by area: ${areas}`, functions].join('\n');
}
