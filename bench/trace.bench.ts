// Side-by-side costs of the pipeline against the baselines it replaces, measured in one run and
// reported as ratios: absolute numbers on a shared machine mean little, ratios hold.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prepareRoot, trace, traceAgainst } from '../src/core/index.js';
import { nodeFileSystem } from '../src/host/node.js';

interface Case {
  readonly name: string;
  readonly run: () => unknown;
}

/** Median nanoseconds per call over interleaved rounds, so background load hits every case alike. */
function measure(cases: readonly Case[], rounds = 9, minMillis = 150): Map<string, number> {
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (const c of cases) for (let i = 0; i < 200; i++) c.run(); // warm up
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      let calls = 0;
      const start = process.hrtime.bigint();
      let elapsed = 0n;
      while (elapsed < BigInt(minMillis) * 1_000_000n) {
        for (let i = 0; i < 100; i++) c.run();
        calls += 100;
        elapsed = process.hrtime.bigint() - start;
      }
      samples.get(c.name)!.push(Number(elapsed) / calls);
    }
  }
  const medians = new Map<string, number>();
  for (const [name, values] of samples) {
    values.sort((a, b) => a - b);
    medians.set(name, values[Math.floor(values.length / 2)]!);
  }
  return medians;
}

function report(title: string, baseline: string, medians: Map<string, number>): void {
  const base = medians.get(baseline)!;
  console.log(`\n${title}`);
  for (const [name, ns] of medians) {
    console.log(`  ${name.padEnd(52)} ${(ns / 1000).toFixed(2).padStart(9)} µs/op   ${(ns / base).toFixed(2).padStart(7)} x ${baseline === name ? '(baseline)' : ''}`);
  }
}

const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bi-bench-')));
try {
  const ws = path.join(top, 'ws');
  fs.mkdirSync(path.join(ws, 'src', 'deep', 'er'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'deep', 'er', 'file.ts'), '');
  fs.symlinkSync('src', path.join(ws, 'link'));
  const rootUri = pathToFileURL(ws).href;
  const inputUri = pathToFileURL(path.join(ws, 'src', 'deep', 'er', 'file.ts')).href;
  const prepared = prepareRoot(rootUri, { platform: 'linux', fs: nodeFileSystem });
  const simulatedRoot = prepareRoot(rootUri, { platform: 'linux' });

  // The seed's "correct conversion" plus a string-prefix check: what many servers ship.
  const seedBaseline = () => {
    const root = path.resolve(fileURLToPath(rootUri));
    const target = path.resolve(fileURLToPath(inputUri));
    return target === root || target.startsWith(root + path.sep);
  };
  // The same with fs.realpathSync on both sides: the usual fix for symlink escapes.
  const realpathBaseline = () => {
    const root = fs.realpathSync(fileURLToPath(rootUri));
    const target = fs.realpathSync(fileURLToPath(inputUri));
    return target === root || target.startsWith(root + path.sep);
  };

  report(
    'Pure string work (no filesystem): one URI against one root',
    'fileURLToPath + startsWith (seed baseline)',
    measure([
      { name: 'fileURLToPath + startsWith (seed baseline)', run: seedBaseline },
      { name: 'traceAgainst, simulated, root prepared once', run: () => traceAgainst(simulatedRoot, inputUri) },
      { name: 'trace, simulated, root converted each call', run: () => trace(inputUri, rootUri, { platform: 'linux' }) },
    ]),
  );
  report(
    'With the filesystem: links resolved, one existing file five names deep',
    'fs.realpathSync x2 + startsWith (baseline)',
    measure([
      { name: 'fs.realpathSync x2 + startsWith (baseline)', run: realpathBaseline },
      { name: 'traceAgainst, real filesystem, root prepared once', run: () => traceAgainst(prepared, inputUri) },
      { name: 'traceAgainst through a link below the root', run: () => traceAgainst(prepared, 'link/deep/er/file.ts') },
      { name: 'trace, real filesystem, root prepared each call', run: () => trace(inputUri, rootUri, { platform: 'linux', fs: nodeFileSystem }) },
    ]),
  );
} finally {
  fs.rmSync(top, { recursive: true, force: true });
}
