// Statistics and table printing shared by the sections. Medians and p99s only: means on a shared
// machine are dragged by whatever else ran in that second.

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile; with fewer than 100 samples p99 is the largest one. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Rotates the order each round so no configuration always runs right after the same one. */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  const shift = round % items.length;
  const rotated = [...items.slice(shift), ...items.slice(0, shift)];
  return round % 2 === 1 ? rotated.reverse() : rotated;
}

export function nowNs(): bigint {
  return process.hrtime.bigint();
}

export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export type Verdict = 'pass' | 'FAIL' | '-';

export function formatNumber(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Three significant digits is what a ratio on a shared machine can carry. */
export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

export function formatRatio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  // Three significant digits: 0.899x must not print as a 0.90x that fails a 0.9 goal.
  return `${value >= 100 ? value.toFixed(0) : value.toPrecision(3)}x`;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '-';
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

export type Cell = string | number;

/** A plain-text table: first column left-aligned, the rest right-aligned, a rule under the header. */
export function renderTable(header: readonly string[], rows: readonly (readonly Cell[])[], leftColumns = 1): string {
  const text = rows.map((row) => row.map(String));
  const widths = header.map((title, column) => Math.max(title.length, ...text.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...text.map(line)].join('\n');
}
