// Small statistics for the benchmarks.
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export const fmt = (n: number, digits = 1): string => n.toFixed(digits);
