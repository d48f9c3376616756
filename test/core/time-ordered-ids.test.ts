import { describe, expect, it } from "vitest";
import { timeOrderedIds } from "../../src/core/defaults/time-ordered-ids.js";
import type { RandomSource } from "../../src/index.js";

const zeros: RandomSource = { fill: (bytes) => bytes.fill(0) };
const ones: RandomSource = { fill: (bytes) => bytes.fill(0xff) };

describe("timeOrderedIds", () => {
  it("makes 34-digit decimal ids that increase strictly, within and across milliseconds", () => {
    let ms = Date.UTC(2026, 0, 1);
    const ids = timeOrderedIds(undefined, () => ms);
    const made: string[] = [];
    for (let i = 0; i < 1000; i++) {
      if (i % 100 === 0) ms += 1;
      made.push(ids.next());
    }
    for (const id of made) expect(id).toMatch(/^1\d{33}$/);
    for (let i = 1; i < made.length; i++) expect(BigInt(made[i] ?? 0) > BigInt(made[i - 1] ?? 0)).toBe(true);
  });

  it("spells out the time: a 1, the milliseconds since 2020 in 13 digits, then 20 digits that start at 64 random bits", () => {
    const ms = Date.UTC(2026, 0, 1);
    const sinceEpoch = String(ms - Date.UTC(2020, 0, 1)).padStart(13, "0");
    expect(timeOrderedIds(zeros, () => ms).next()).toBe(`1${sinceEpoch}${"0".repeat(20)}`);
    expect(timeOrderedIds(ones, () => ms).next()).toBe(`1${sinceEpoch}${String(2n ** 64n - 1n).padStart(20, "0")}`);
  });

  it("orders by time: an id of a later millisecond is larger than every id of an earlier one", () => {
    let ms = Date.UTC(2026, 0, 1);
    const early = timeOrderedIds(ones, () => ms);
    for (let i = 0; i < 1000; i++) early.next();
    const lastEarly = early.next();
    ms += 1;
    const late = timeOrderedIds(zeros, () => ms).next();
    expect(BigInt(late) > BigInt(lastEarly)).toBe(true);
  });

  it("keeps increasing when the clock goes back", () => {
    let ms = Date.UTC(2026, 0, 1);
    const ids = timeOrderedIds(undefined, () => ms);
    const before = ids.next();
    ms -= 5000;
    expect(BigInt(ids.next()) > BigInt(before)).toBe(true);
  });

  it("gives generators of separate processes, running in the same milliseconds, ids that never meet", () => {
    // Eight processes, each making four ids in each of 10,000 shared milliseconds: with a counter
    // that started under 10,000 (18-digit ids) hundreds of ids met; with 64 random bits a meeting
    // has odds of about 1 in 10^13.
    let ms = Date.UTC(2026, 0, 1);
    const processes = Array.from({ length: 8 }, () => timeOrderedIds(undefined, () => ms));
    const seen = new Set<string>();
    let made = 0;
    for (let tick = 0; tick < 10_000; tick++) {
      ms += 1;
      for (const ids of processes) {
        for (let i = 0; i < 4; i++) {
          seen.add(ids.next());
          made += 1;
        }
      }
    }
    expect(seen.size).toBe(made);
  });
});
