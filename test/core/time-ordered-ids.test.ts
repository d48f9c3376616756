import { describe, expect, it } from "vitest";
import { timeOrderedIds } from "../../src/core/defaults/time-ordered-ids.js";

describe("timeOrderedIds", () => {
  it("makes 18-digit decimal ids that increase strictly, within and across milliseconds", () => {
    let ms = Date.UTC(2026, 0, 1);
    const ids = timeOrderedIds(undefined, () => ms);
    const made: string[] = [];
    for (let i = 0; i < 1000; i++) {
      if (i % 100 === 0) ms += 1;
      made.push(ids.next());
    }
    for (const id of made) expect(id).toMatch(/^[1-9]\d{17}$/);
    for (let i = 1; i < made.length; i++) expect(BigInt(made[i] ?? 0) > BigInt(made[i - 1] ?? 0)).toBe(true);
  });

  it("orders by time: an id of a later millisecond is larger than every id of an earlier one", () => {
    let ms = Date.UTC(2026, 0, 1);
    const zero = { fill: (bytes: Uint8Array) => bytes.fill(0) };
    const full = { fill: (bytes: Uint8Array) => bytes.fill(255) };
    const early = timeOrderedIds(full, () => ms).next();
    ms += 1;
    const late = timeOrderedIds(zero, () => ms).next();
    expect(BigInt(late) > BigInt(early)).toBe(true);
  });

  it("keeps increasing when the clock goes back", () => {
    let ms = Date.UTC(2026, 0, 1);
    const ids = timeOrderedIds(undefined, () => ms);
    const before = ids.next();
    ms -= 5000;
    expect(BigInt(ids.next()) > BigInt(before)).toBe(true);
  });
});
