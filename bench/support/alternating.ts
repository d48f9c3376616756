// Cases measured in alternation, batch by batch: within a round every case runs a small batch in
// turn, over and over, so a burst of load from elsewhere on the machine falls on all of them alike
// (rounds of a second per case, one after another, are swayed by it). Each round gives each case
// its time per call and its ratio to the baseline's in that round; the figures are the medians.
import type { BenchCase } from "./rounds.js";

export interface AlternatingFigures {
  readonly name: string;
  /** Microseconds per call: median of the rounds. */
  readonly microseconds: number;
  /** Time per call over the baseline's, per round: median, min and max. */
  readonly ratio: { readonly median: number; readonly min: number; readonly max: number };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function timeBatch(run: () => unknown, calls: number): Promise<number> {
  const started = performance.now();
  for (let call = 0; call < calls; call++) await run();
  return performance.now() - started;
}

/**
 * `rounds` rounds (after a warm-up one) of `slices` turns; in each turn every case runs `batch`
 * calls. The first case is the baseline.
 */
export async function alternatingRounds(cases: readonly BenchCase[], rounds = 5, slices = 200, batch = 20): Promise<AlternatingFigures[]> {
  const perCall = cases.map(() => [] as number[]);
  for (let round = -1; round < rounds; round++) {
    const spent = cases.map(() => 0);
    for (let slice = 0; slice < slices; slice++) {
      // The order turns each slice, so that no case always runs right after another one.
      for (let turn = 0; turn < cases.length; turn++) {
        const index = (turn + slice) % cases.length;
        spent[index] = (spent[index] ?? 0) + (await timeBatch(cases[index]?.run ?? (() => undefined), batch));
      }
    }
    if (round >= 0) spent.forEach((ms, index) => perCall[index]?.push((ms * 1000) / (slices * batch)));
  }
  const baseline = perCall[0] ?? [];
  return cases.map((benchCase, index) => {
    const mine = perCall[index] ?? [];
    const ratios = mine.map((value, round) => value / (baseline[round] ?? Number.NaN));
    return { name: benchCase.name, microseconds: median(mine), ratio: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) } };
  });
}

export function alternatingTable(figures: readonly AlternatingFigures[]): string {
  const lines = ["| case | µs per call (median) | × baseline (median, min–max of the rounds) |", "|---|---:|---:|"];
  for (const figure of figures) {
    lines.push(`| ${figure.name} | ${figure.microseconds.toFixed(1)} | ${figure.ratio.median.toFixed(3)} (${figure.ratio.min.toFixed(3)}–${figure.ratio.max.toFixed(3)}) |`);
  }
  return lines.join("\n");
}
