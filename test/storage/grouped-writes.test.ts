// The grouping of new users' writes, with a writer that records what it is given: which writes go
// alone, which together, in what order, and how a refused or failed group is answered.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { groupedNewUserWrites, type Entry, type GroupWriter } from "../../src/adapters/postgres/grouped-writes.js";
import type { UserAppend } from "../../src/ports/storage.js";
import { newUserAppend } from "../../src/testing/index.js";
import { usernameClaim } from "../../src/testing/storage-fixtures.js";

class RefusedError extends Error {}

/** A writer whose groups wait until the test settles them, in order. */
function recordingWriter(): GroupWriter & { readonly groups: string[][]; settleNext(error?: Error): Promise<void> } {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const groups: string[][] = [];
  return {
    groups,
    writeGroup(appends: readonly UserAppend[]) {
      groups.push(appends.map((append) => append.userId));
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
    isRefusal: (error) => error instanceof RefusedError,
    async settleNext(error) {
      const next = pending.shift();
      if (next === undefined) throw new Error("no group is on its way");
      if (error === undefined) next.resolve();
      else next.reject(error);
      // Let the callers' promises and the next group's start run.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** Outcomes by user id, as each entry settles; a rejection is recorded as its message. */
function tracked(enter: (append: UserAppend) => Promise<Entry>) {
  const outcomes = new Map<string, Entry | string>();
  return {
    outcomes,
    enter(userId: string, claims?: Parameters<typeof newUserAppend>[1]) {
      const entry = enter(newUserAppend(userId, claims));
      entry.then(
        (value) => outcomes.set(userId, value),
        (error: Error) => outcomes.set(userId, error.message),
      );
      return entry;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("grouped new users' writes", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("lets a write go alone at once while places are free, and groups nothing", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 2, maxGroup: 100, slowAfterMs: 25 });
    const first = await grouping.enter(newUserAppend("u1"));
    const second = await grouping.enter(newUserAppend("u2"));
    expect([first.outcome, second.outcome]).toEqual(["alone", "alone"]);
    expect(writer.groups).toEqual([]);
  });

  it("sends the writes that arrive while every place is taken as one group, in arrival order, when a place is free", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 1, maxGroup: 100, slowAfterMs: 25 });
    const first = await grouping.enter(newUserAppend("u1"));
    const calls = tracked(grouping.enter);
    for (const id of ["u2", "u3", "u4"]) void calls.enter(id);
    await tick();
    expect(writer.groups).toEqual([]);
    expect(calls.outcomes.size).toBe(0);
    if (first.outcome === "alone") first.done();
    await tick();
    expect(writer.groups).toEqual([["u2", "u3", "u4"]]);
    await writer.settleNext();
    expect(Object.fromEntries(calls.outcomes)).toEqual({ u2: { outcome: "written" }, u3: { outcome: "written" }, u4: { outcome: "written" } });
  });

  it("never puts two writes wanting the same claim in one group: the later one waits for the next", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 1, maxGroup: 100, slowAfterMs: 25 });
    const first = await grouping.enter(newUserAppend("u1"));
    const calls = tracked(grouping.enter);
    void calls.enter("u2", { claims: [usernameClaim("ann")] });
    void calls.enter("u3", { claims: [usernameClaim("ann")] });
    void calls.enter("u4");
    void calls.enter("u5");
    if (first.outcome === "alone") first.done();
    await tick();
    expect(writer.groups).toEqual([["u2", "u4", "u5"]]);
    await writer.settleNext();
    // u3, left alone in the queue, goes alone and holds the place until its caller is done.
    expect(calls.outcomes.get("u3")).toEqual({ outcome: "alone", done: expect.any(Function) });
    expect(writer.groups).toEqual([["u2", "u4", "u5"]]);
  });

  it("groups at most maxGroup writes, and a lone write left over goes alone", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 1, maxGroup: 3, slowAfterMs: 25 });
    const first = await grouping.enter(newUserAppend("u0"));
    const calls = tracked(grouping.enter);
    for (let index = 1; index <= 7; index++) void calls.enter(`u${index}`);
    if (first.outcome === "alone") first.done();
    await tick();
    await writer.settleNext();
    await writer.settleNext();
    expect(writer.groups).toEqual([
      ["u1", "u2", "u3"],
      ["u4", "u5", "u6"],
    ]);
    expect(calls.outcomes.get("u7")).toEqual({ outcome: "alone", done: expect.any(Function) });
  });

  it("answers each write of a refused group alone, holding no place, so that each learns why by itself", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 1, maxGroup: 100, slowAfterMs: 25 });
    const first = await grouping.enter(newUserAppend("u1"));
    const calls = tracked(grouping.enter);
    void calls.enter("u2");
    void calls.enter("u3");
    if (first.outcome === "alone") first.done();
    await tick();
    await writer.settleNext(new RefusedError("a claim is held"));
    expect(calls.outcomes.get("u2")).toEqual({ outcome: "alone", done: expect.any(Function) });
    expect(calls.outcomes.get("u3")).toEqual({ outcome: "alone", done: expect.any(Function) });
    // The group's place is free again: a new write goes at once.
    expect((await grouping.enter(newUserAppend("u4"))).outcome).toBe("alone");
  });

  it("rejects each write of a group that failed for any other reason with that error, and frees the place", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 1, maxGroup: 100, slowAfterMs: 25 });
    const first = await grouping.enter(newUserAppend("u1"));
    const calls = tracked(grouping.enter);
    void calls.enter("u2").catch(() => undefined);
    void calls.enter("u3").catch(() => undefined);
    if (first.outcome === "alone") first.done();
    await tick();
    await writer.settleNext(new Error("the database cannot be reached"));
    expect(Object.fromEntries(calls.outcomes)).toEqual({ u2: "the database cannot be reached", u3: "the database cannot be reached" });
    expect((await grouping.enter(newUserAppend("u4"))).outcome).toBe("alone");
  });

  it("frees the place of a write that takes longer than slowAfterMs, so a write stuck on a lock holds nobody back", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 1, maxGroup: 100, slowAfterMs: 25 });
    await grouping.enter(newUserAppend("stuck"));
    const calls = tracked(grouping.enter);
    void calls.enter("u2");
    await vi.advanceTimersByTimeAsync(24);
    expect(calls.outcomes.size).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.outcomes.get("u2")).toEqual({ outcome: "alone", done: expect.any(Function) });
  });

  it("gives a place back once, however often done is called", async () => {
    const writer = recordingWriter();
    const grouping = groupedNewUserWrites(writer, { inFlight: 2, maxGroup: 100, slowAfterMs: 25 });
    const first = await grouping.enter(newUserAppend("u1"));
    await grouping.enter(newUserAppend("u2"));
    if (first.outcome === "alone") {
      first.done();
      first.done();
    }
    const calls = tracked(grouping.enter);
    expect((await calls.enter("u3")).outcome).toBe("alone");
    void calls.enter("u4");
    void calls.enter("u5");
    await tick();
    // Two places, both taken (u2 and u3): u4 and u5 wait.
    expect(calls.outcomes.has("u4")).toBe(false);
    expect(writer.groups).toEqual([]);
  });
});
