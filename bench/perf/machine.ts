// What the numbers were measured on: ratios travel between machines, absolute times do not.
import fs from 'node:fs';
import os from 'node:os';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
  readonly platform: string;
  /** 1, 5 and 15 minute load averages when the run started: how busy the shared cores already were. */
  readonly loadAverage: readonly number[];
}

function cpuModel(): string {
  try {
    const line = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (line) return line[1]!.trim();
  } catch {
    // not Linux: os.cpus() below
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export function describeMachine(): Machine {
  return {
    cpu: cpuModel(),
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    platform: `${process.platform}-${process.arch}`,
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

export function formatMachine(machine: Machine): string {
  return [
    `CPU     ${machine.cpu} (${machine.cores} cores available)`,
    `Memory  ${machine.memoryGiB} GiB`,
    `Node    ${machine.node} on ${machine.platform}`,
    `Kernel  ${machine.kernel}`,
    `Load    ${machine.loadAverage.join(' ')} (1/5/15 min, at start)`,
  ].join('\n');
}
