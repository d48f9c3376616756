import { describe, expect, it } from "vitest";
import { oneAtATime, slicedLoop } from "../../src/passwords/primitives/yielding.js";

/** Holds the thread for about `ms` milliseconds, as a slice of key stretching does. */
function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spin
  }
}

describe("slicedLoop", () => {
  it("runs every step once, in order", async () => {
    const seen: number[] = [];
    await slicedLoop(5, (i) => seen.push(i));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it("rejects with a step's error and runs no further step", async () => {
    const seen: number[] = [];
    const loop = slicedLoop(5, (i) => {
      if (i === 2) throw new Error("step 2");
      seen.push(i);
    });
    await expect(loop).rejects.toThrow("step 2");
    expect(seen).toEqual([0, 1]);
  });

  it("lets concurrent loops take turns, a slice each", async () => {
    const order: string[] = [];
    const loop = (name: string) => slicedLoop(12, () => {
      busy(1);
      order.push(name);
    });
    await Promise.all([loop("a"), loop("b")]);
    const turns = order.filter((name, i) => name !== order[i - 1]);
    expect(turns.slice(0, 4)).toEqual(["a", "b", "a", "b"]);
  });
});

describe("oneAtATime", () => {
  it("starts a task only when the one before has settled, failed or not", async () => {
    const events: string[] = [];
    const task = (name: string, fail: boolean) => async () => {
      events.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, 2));
      events.push(`${name} end`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([oneAtATime(task("a", true)), oneAtATime(task("b", false))]);
    expect(events).toEqual(["a start", "a end", "b start", "b end"]);
    expect(results.map((result) => (result.status === "fulfilled" ? result.value : String(result.reason)))).toEqual(["Error: a", "b"]);
  });
});
