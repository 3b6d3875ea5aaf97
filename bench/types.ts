/**
 * What a benchmark module returns: one figure per measurement. Modules export an async
 * function (`benchSquasher`, `benchCli`, `benchRouter`, `benchSessions`, `benchMcp`) returning
 * `BenchFigure[]`; bench/run.ts prints them and writes BENCHMARKS.md.
 */
export interface BenchFigure {
  name: string;
  value: number;
  /** `MB/s`, `x`, `MB`, `KB`, `%`, `ms` … */
  unit: string;
  /** Issue target: `">= 100"`, `"<= 1.10"` (or `{ op, value }`); absent = informational. */
  target?: string | { op: '>=' | '<=' | '>' | '<'; value: number };
  /** One line on how it was measured or why it is approximate. */
  note?: string;
}

/** A measurement that could not be taken, with the reason (printed, and listed in BENCHMARKS.md). */
export interface BenchSkip {
  name: string;
  reason: string;
}

export type BenchOutput = BenchFigure[] | { figures: BenchFigure[]; skipped?: BenchSkip[] };

/** Median of a non-empty list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
