import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { inNativeSlot, nativeSlotCount } from "../../src/passwords/primitives/native-slots.js";

describe("nativeSlotCount", () => {
  it.each([
    [1, {}, 1],
    [2, {}, 2],
    [16, {}, 3],
    [16, { process: { env: { UV_THREADPOOL_SIZE: "8" } } }, 7],
    [16, { process: { env: { UV_THREADPOOL_SIZE: "1" } } }, 1],
    [undefined, { navigator: { hardwareConcurrency: 3 } }, 3],
    [undefined, { navigator: { hardwareConcurrency: "many" } }, 2],
    [0, {}, 2],
  ])("cores %s with host %j: %i slots", (cores, host, expected) => {
    expect(nativeSlotCount(cores, host)).toBe(expected);
  });
});

describe("inNativeSlot", () => {
  it("runs at most one task per slot at once, every task in the end, failures included", async () => {
    const slots = nativeSlotCount(availableParallelism());
    let active = 0;
    let peak = 0;
    const task = async (i: number): Promise<number> => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 2));
      active -= 1;
      if (i % 3 === 0) throw new Error(`task ${i}`);
      return i;
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => inNativeSlot(() => task(i))));
    expect(peak).toBe(slots);
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : String(outcome.reason)))).toEqual([
      "Error: task 0", 1, 2, "Error: task 3", 4, 5, "Error: task 6", 7, 8, "Error: task 9",
    ]);
  });
});
