import { describe, expect, it } from "vitest";
import { coalesced } from "../../src/shared/coalesced.js";

/** A `send` whose calls the test finishes by hand, recording what each carried. */
function manualSend() {
  const calls: { readonly items: readonly string[]; finish(error?: Error): void }[] = [];
  const send = (items: readonly string[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ items: [...items], finish: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  return { calls, send };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("coalesced", () => {
  it("sends the items given in one tick in one call", async () => {
    const { calls, send } = manualSend();
    const report = coalesced(send);
    const done = Promise.all(["a", "b", "c"].map(report));
    await settle();
    expect(calls.map((call) => call.items)).toEqual([["a", "b", "c"]]);
    calls[0]?.finish();
    expect(await done).toEqual([undefined, undefined, undefined]);
  });

  it("gathers the items given while a call is on its way into the next call, which starts when it ends", async () => {
    const { calls, send } = manualSend();
    const report = coalesced(send);
    const first = report("a");
    await settle();
    const later = [report("b"), report("c")];
    await settle();
    const late = report("d");
    await settle();
    expect(calls.map((call) => call.items)).toEqual([["a"]]);
    calls[0]?.finish();
    await first;
    await settle();
    expect(calls.map((call) => call.items)).toEqual([["a"], ["b", "c", "d"]]);
    calls[1]?.finish();
    expect(await Promise.all([...later, late])).toEqual([undefined, undefined, undefined]);
  });

  it("rejects the callers of a failed call only, and sends the next batch all the same", async () => {
    const { calls, send } = manualSend();
    const report = coalesced(send);
    const failing = [report("a"), report("b")];
    await settle();
    const next = report("c");
    calls[0]?.finish(new Error("connection lost"));
    const failed = await Promise.allSettled(failing);
    await settle();
    calls[1]?.finish();
    expect(failed).toEqual([
      { status: "rejected", reason: new Error("connection lost") },
      { status: "rejected", reason: new Error("connection lost") },
    ]);
    expect(await next).toBeUndefined();
    expect(calls.map((call) => call.items)).toEqual([["a", "b"], ["c"]]);
  });
});
