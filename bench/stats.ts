// Summaries of what autocannon measured. autocannon's own latency histogram keeps whole milliseconds; the
// per-response times it reports (its `response` event, hrtime-based) are kept here at full resolution.

export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
}

/** Nearest-rank percentile of sorted values: the smallest value with at least p% of the values at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function summarize(latenciesMs: readonly number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

/** A number for a table: `digits` decimals, or "n/a". */
export function fmt(value: number | undefined, digits = 1): string {
  return value === undefined || !Number.isFinite(value) ? "n/a" : value.toFixed(digits);
}

export const MIB = 1024 * 1024;
