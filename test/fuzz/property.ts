// The property, and the statistics around it: no request an oracle places outside (or that the
// design says must be refused) is ever judged inside by the core. The core refusing what an
// oracle allows is no failure; it is counted, by refusal code.
import fc from 'fast-check';
import { prepareRoot, traceAgainst, type PreparedRoot, type Trace } from '../../src/core/index.js';
import { nodeFileSystem } from '../../src/host/node.js';
import type { Fixture } from './fixture.js';
import { anyCase, type Case, type FuzzPlatform } from './generators.js';
import {
  insideLinuxRoot,
  judgeDarwin,
  judgeLinux,
  judgeWin32,
  kernelReading,
  linuxRoot,
  posixSimRoot,
  win32Root,
  type Answer,
  type LinuxRoot,
  type PosixSimRoot,
  type Win32Root,
} from './oracle.js';

export interface Judged {
  readonly case: Case;
  readonly oracle: Answer;
  readonly trace: Trace;
  /** Why this case breaks the property, or null. */
  readonly failure: string | null;
}

/** Judges cases with the core and the oracles; roots are prepared once per root and policy. */
export class Judge {
  private readonly prepared = new Map<string, PreparedRoot>();
  private readonly linuxRoots = new Map<string, LinuxRoot>();
  private readonly win32Roots = new Map<string, Win32Root>();
  private readonly darwinRoots = new Map<string, PosixSimRoot>();

  coreTrace(c: Case): Trace {
    const key = `${c.platform}\0${c.root}\0${JSON.stringify(c.policy)}`;
    let root = this.prepared.get(key);
    if (!root) {
      root = prepareRoot(c.root, { platform: c.platform, policy: c.policy, ...(c.platform === 'linux' ? { fs: nodeFileSystem } : {}) });
      this.prepared.set(key, root);
    }
    return traceAgainst(root, c.input, { followFinal: c.followFinal });
  }

  linuxRoot(given: string): LinuxRoot {
    return cached(this.linuxRoots, given, linuxRoot);
  }

  oracle(c: Case): Answer {
    switch (c.platform) {
      case 'linux':
        return judgeLinux(c.input, this.linuxRoot(c.root), c.followFinal);
      case 'win32':
        return judgeWin32(c.input, cached(this.win32Roots, c.root, win32Root), c.policy.unc ?? 'refuse');
      case 'darwin':
        return judgeDarwin(c.input, cached(this.darwinRoots, c.root, posixSimRoot));
    }
  }

  judge(c: Case): Judged {
    const oracle = this.oracle(c);
    const trace = this.coreTrace(c);
    let failure: string | null = null;
    if (trace.verdict === 'inside' && oracle.verdict === 'outside') failure = `the core judges inside what lands at ${oracle.path}, outside the root`;
    if (trace.verdict === 'inside' && oracle.verdict === 'must-refuse') failure = `the core judges inside what must be refused: ${oracle.rule}`;
    return { case: c, oracle, trace, failure };
  }
}

function cached<T>(map: Map<string, T>, key: string, make: (key: string) => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make(key);
    map.set(key, value);
  }
  return value;
}

/** A few examples of a kind, kept for the report. */
export class Examples {
  count = 0;
  readonly kept: string[] = [];
  add(describe: () => string, keep = 3): void {
    this.count += 1;
    if (this.kept.length < keep) this.kept.push(describe());
  }
}

export class Stats {
  cases = 0;
  readonly byPlatform: Record<FuzzPlatform, number> = { linux: 0, win32: 0, darwin: 0 };
  readonly oracleVerdicts = new Map<string, number>();
  readonly coreVerdicts = new Map<string, number>();
  /** Oracle: inside; core: not inside. Keyed by code, then platform. */
  readonly overRefusals = new Map<string, Map<FuzzPlatform, number>>();
  readonly overRefusalExamples = new Map<string, Examples>();
  /** Both inside, but the core names another path than where the oracle lands. */
  readonly otherPath = new Examples();
  /** The platform would open nothing (a link loop; a name `..` left for NTFS), yet the core judges inside. */
  readonly insideNowhere = new Examples();
  /** Linux: judged inside, but the input handed to the kernel as it is lands outside (`..` after a link). */
  readonly kernelReadingOutside = new Examples();

  record(judged: Judged, judge: Judge): void {
    const { case: c, oracle, trace } = judged;
    this.cases += 1;
    this.byPlatform[c.platform] += 1;
    bump(this.oracleVerdicts, oracle.verdict);
    bump(this.coreVerdicts, trace.verdict);
    const show = () => `${c.platform} ${JSON.stringify(c.input)} against ${JSON.stringify(c.root)}: core ${trace.path}, oracle ${'path' in oracle ? oracle.path : oracle.verdict}`;
    if (oracle.verdict === 'inside' && trace.verdict !== 'inside') {
      const code = trace.code ?? 'none';
      const perPlatform = this.overRefusals.get(code) ?? new Map<FuzzPlatform, number>();
      bump(perPlatform, c.platform);
      this.overRefusals.set(code, perPlatform);
      const examples = this.overRefusalExamples.get(code) ?? new Examples();
      examples.add(() => `${c.platform} ${JSON.stringify(c.input)} against ${JSON.stringify(c.root)}`, 2);
      this.overRefusalExamples.set(code, examples);
    }
    if (oracle.verdict === 'inside' && trace.verdict === 'inside' && !samePath(c.platform, trace.path, oracle.path)) this.otherPath.add(show);
    if (oracle.verdict === 'nowhere' && trace.verdict === 'inside') this.insideNowhere.add(show);
    // With followFinal false the kernel reading would still follow a link written with a trailing slash: not comparable.
    if (c.platform === 'linux' && c.followFinal && trace.verdict === 'inside') {
      const root = judge.linuxRoot(c.root);
      const reading = kernelReading(c.input, root, c.followFinal);
      if (reading?.kind === 'landed' && !insideLinuxRoot(root, reading.path)) {
        this.kernelReadingOutside.add(() => `${JSON.stringify(c.input)} against ${JSON.stringify(c.root)}: the core reads ${trace.path}, the kernel would open ${reading.path}`);
      }
    }
  }

  report(): string {
    const lines: string[] = [];
    const total = (map: Map<unknown, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    const list = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).map(([key, n]) => `${key} ${n}`).join(', ');
    lines.push(`cases: ${this.cases} (linux on the real filesystem ${this.byPlatform.linux}, win32 simulated ${this.byPlatform.win32}, darwin simulated ${this.byPlatform.darwin})`);
    lines.push(`oracle: ${list(this.oracleVerdicts)}`);
    lines.push(`core:   ${list(this.coreVerdicts)}`);
    const refusals = [...this.overRefusals].sort((a, b) => total(b[1]) - total(a[1]));
    const overall = refusals.reduce((sum, [, perPlatform]) => sum + total(perPlatform), 0);
    const allowed = this.oracleVerdicts.get('inside') ?? 0;
    lines.push(`over-refusals (the oracle allows, the core refuses): ${overall} of ${allowed} allowed${allowed > 0 ? ` (${((100 * overall) / allowed).toFixed(1)}%)` : ''}`);
    for (const [code, perPlatform] of refusals) {
      lines.push(`  ${code.padEnd(24)} ${String(total(perPlatform)).padStart(7)}  (${[...perPlatform].map(([platform, n]) => `${platform} ${n}`).join(', ')})`);
      for (const example of this.overRefusalExamples.get(code)?.kept ?? []) lines.push(`      e.g. ${example}`);
    }
    const examples = (title: string, examples: Examples) => {
      lines.push(`${title}: ${examples.count}`);
      for (const example of examples.kept) lines.push(`  e.g. ${example}`);
    };
    examples('inside for both, but the core names another path than the oracle', this.otherPath);
    examples('inside for the core, though the platform would open nothing (a link loop, or a name ".." left for NTFS)', this.insideNowhere);
    examples('linux: inside for the core, but the input string handed to the kernel as it is lands outside', this.kernelReadingOutside);
    return lines.join('\n');
  }
}

function bump<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Win32 spells one path several ways (drive letter case); NTFS would open the same name. */
function samePath(platform: FuzzPlatform, core: string | null, oracle: string): boolean {
  if (core === null) return false;
  if (platform !== 'win32') return core === oracle;
  return core.replace(/^[a-z]:/, (drive) => drive.toUpperCase()).replace(/\\$/, '') === oracle.replace(/^[a-z]:/, (drive) => drive.toUpperCase()).replace(/\\$/, '');
}

export interface FuzzRun {
  readonly seed: number;
  readonly numRuns: number;
  readonly stats: Stats;
  readonly milliseconds: number;
  /** Every case that broke the property, by platform and what the oracle said, with a few inputs each. */
  readonly failures: ReadonlyMap<string, Examples>;
  /** The first failing case, shrunk, judged again. */
  readonly counterexample: { readonly judged: Judged; readonly shrinks: number; readonly path: string | undefined } | null;
}

/**
 * Runs every case even past a failure, so the statistics and the list of failures cover the
 * whole run; then replays the first failure (fast-check's seed and path) to shrink it.
 */
export function runFuzz(fixture: Fixture, options: { readonly numRuns: number; readonly seed?: number | undefined }): FuzzRun {
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const judge = new Judge();
  const stats = new Stats();
  const failures = new Map<string, Examples>();
  let firstFailure: number | undefined;
  let index = 0;
  const cases = anyCase(fixture);
  const started = performance.now();
  fc.check(
    fc.property(cases, (c) => {
      const judged = judge.judge(c);
      stats.record(judged, judge);
      if (judged.failure !== null) {
        firstFailure ??= index;
        const kind = `${c.platform}, oracle ${judged.oracle.verdict}`;
        const examples = failures.get(kind) ?? new Examples();
        examples.add(() => `${JSON.stringify(c.input)} against ${JSON.stringify(c.root)}: core inside at ${judged.trace.path}; oracle ${describeAnswer(judged.oracle)}`, 5);
        failures.set(kind, examples);
      }
      index += 1;
      return true;
    }),
    { numRuns: options.numRuns, seed },
  );
  const milliseconds = performance.now() - started;
  const base = { seed, numRuns: options.numRuns, stats, milliseconds, failures };
  if (firstFailure === undefined) return { ...base, counterexample: null };
  const details = fc.check(
    fc.property(cases, (c) => judge.judge(c).failure === null),
    { numRuns: options.numRuns, seed, path: String(firstFailure) },
  );
  if (!details.failed || details.counterexample === null) throw new Error(`replaying run ${firstFailure} of seed ${seed} did not fail again`);
  const [shrunk] = details.counterexample;
  return { ...base, counterexample: { judged: judge.judge(shrunk), shrinks: details.numShrinks, path: details.counterexamplePath ?? undefined } };
}

function describeAnswer(answer: Answer): string {
  return answer.verdict === 'must-refuse' ? `must refuse (${answer.rule})` : answer.verdict === 'nowhere' ? `nowhere (${answer.why})` : `${answer.verdict}, ${answer.path}`;
}

export function describeFailures(run: FuzzRun): string {
  const lines: string[] = [];
  for (const [kind, examples] of run.failures) {
    lines.push(`  ${kind}: ${examples.count}`);
    for (const example of examples.kept) lines.push(`    e.g. ${example}`);
  }
  return lines.join('\n');
}

/** Everything a person needs to see a counterexample for themselves. */
export function describeCounterexample(run: FuzzRun): string {
  if (!run.counterexample) return 'no counterexample';
  const { judged, shrinks, path } = run.counterexample;
  const { case: c, oracle, trace } = judged;
  return [
    `COUNTEREXAMPLE (the first of ${[...run.failures.values()].reduce((sum, examples) => sum + examples.count, 0)}, shrunk ${shrinks} times; replay with seed ${run.seed}${path ? `, fast-check path ${JSON.stringify(path)}` : ''}):`,
    `  platform:    ${c.platform}${c.platform === 'linux' ? ' (the host filesystem)' : ' (simulated)'}`,
    `  root:        ${JSON.stringify(c.root)}`,
    `  input:       ${JSON.stringify(c.input)}`,
    `  policy:      ${JSON.stringify(c.policy)}, followFinal ${c.followFinal}`,
    `  core:        ${trace.verdict} at ${trace.stage} (${trace.code ?? 'no code'}), path ${JSON.stringify(trace.path)}`,
    `               ${trace.reason}`,
    `  oracle:      ${JSON.stringify(oracle)}`,
    `  why:         ${judged.failure}`,
  ].join('\n');
}
