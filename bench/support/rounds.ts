// Interleaved rounds: every case runs once per round, in turn, so that a slow patch of the machine
// hits all of them alike; each figure is the median of the rounds with its min and max, and each
// ratio is taken round by round against the baseline measured in the same round.

export interface BenchCase {
  readonly name: string;
  /** One call; resolves when it is done. */
  readonly run: () => unknown;
  /** Calls kept in flight at once (default 1: one after another). */
  readonly inFlight?: number;
}

export interface CaseFigures {
  readonly name: string;
  /** Operations per second, median of the rounds, with the extremes. */
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** Cost relative to the baseline (its time per op over the baseline's), median and extremes over rounds. */
  readonly ratio: { readonly median: number; readonly min: number; readonly max: number };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Calls per second of `run`, for about `durationMs`, with `inFlight` callers each starting its next call when its last one is done. */
async function rate(run: () => unknown, durationMs: number, inFlight = 1): Promise<number> {
  let calls = 0;
  const started = performance.now();
  const caller = async (): Promise<void> => {
    while (performance.now() - started < durationMs) {
      for (let batch = 0; batch < 50 / inFlight; batch++) {
        await run();
        calls += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, caller));
  return calls / ((performance.now() - started) / 1000);
}

/** A case that measures itself: one call runs it once and resolves to its operations per second. */
export interface MeasuredCase {
  readonly name: string;
  readonly measure: () => Promise<number>;
}

/**
 * Runs the cases in `rounds` interleaved rounds of `durationMs` each (after one warm-up round) and
 * gives each case's figures; the first case is the baseline its ratios are taken against.
 */
export async function interleavedRounds(cases: readonly BenchCase[], rounds = 5, durationMs = 1_000): Promise<CaseFigures[]> {
  for (const benchCase of cases) await rate(benchCase.run, durationMs / 2, benchCase.inFlight);
  return measuredRounds(
    cases.map((benchCase) => ({ name: benchCase.name, measure: () => rate(benchCase.run, durationMs, benchCase.inFlight) })),
    rounds,
  );
}

/**
 * The same rounds for cases that time themselves (work spread over several processes, say): each
 * case is measured once per round, in turn; warming up is left to the caller.
 */
export async function measuredRounds(cases: readonly MeasuredCase[], rounds = 5): Promise<CaseFigures[]> {
  const rates = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, measuredCase] of cases.entries()) rates[index]?.push(await measuredCase.measure());
  }
  const baseline = rates[0] ?? [];
  return cases.map((measuredCase, index) => {
    const mine = rates[index] ?? [];
    const ratios = mine.map((value, round) => (baseline[round] ?? Number.NaN) / value);
    return {
      name: measuredCase.name,
      median: median(mine),
      min: Math.min(...mine),
      max: Math.max(...mine),
      ratio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
    };
  });
}

/** The figures as a Markdown table. */
export function figuresTable(figures: readonly CaseFigures[]): string {
  const lines = ["| case | ops/s (median, min–max) | × baseline (median, min–max) |", "|---|---:|---:|"];
  for (const figure of figures) {
    const ops = `${Math.round(figure.median).toLocaleString("en")} (${Math.round(figure.min).toLocaleString("en")}–${Math.round(figure.max).toLocaleString("en")})`;
    const ratio = `${figure.ratio.median.toFixed(2)} (${figure.ratio.min.toFixed(2)}–${figure.ratio.max.toFixed(2)})`;
    lines.push(`| ${figure.name} | ${ops} | ${ratio} |`);
  }
  return lines.join("\n");
}
