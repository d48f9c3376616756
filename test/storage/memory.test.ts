import { describe, expect, it } from "vitest";
import { memoryStore } from "../../src/adapters/memory/store.js";
import type { StoredEvent } from "../../src/index.js";
import { describeStorageContract, newUserAppend } from "../../src/testing/index.js";
import { eventOf, listingOf } from "../../src/testing/storage-fixtures.js";
import { deepFreeze, isDeeplyFrozen } from "../../src/shared/deep-freeze.js";

describeStorageContract("memory", (seed) => {
  const store = memoryStore(seed);
  return { storage: store, snapshot: () => store.snapshot() };
});

describe("memoryStore keeps what it stores out of its callers' reach", () => {
  it("hands out frozen events: changing them throws and changes nothing stored, and neither does changing what was appended", async () => {
    const store = memoryStore();
    const append = newUserAppend("u1", { events: 2 });
    expect(await store.userLog.append(append)).toEqual({ ok: true });
    const payload = append.events[0]?.payload as Record<string, unknown>;
    payload["userName"] = "changed after the append";
    const loaded = await store.userLog.loadEvents("u1");
    expect(() => {
      (loaded[0]?.payload as Record<string, unknown>)["userName"] = "changed";
    }).toThrow(TypeError);
    expect(() => {
      ((loaded[0]?.payload["nested"] as Record<string, unknown>)["list"] as unknown[]).push(1);
    }).toThrow(TypeError);
    (loaded as StoredEvent[]).pop();
    expect(await store.userLog.loadEvents("u1")).toEqual([eventOf("u1", "org-a", 1), eventOf("u1", "org-a", 2)]);
    expect(store.events()).toEqual([eventOf("u1", "org-a", 1), eventOf("u1", "org-a", 2)]);
  });

  it("keeps a value frozen all through as it is (as the core makes events and listings), and copies one with anything still open in it", async () => {
    const store = memoryStore();
    const append = newUserAppend("u1", { events: 2 });
    const kept = deepFreeze(eventOf("u1", "org-a", 1));
    const listing = deepFreeze(listingOf("u1", "org-a", 2));
    const open = { userName: "open", nested: { list: [1] } };
    const shallow = Object.freeze({ ...eventOf("u1", "org-a", 2), payload: open });
    expect(await store.userLog.append({ ...append, events: [kept, shallow], listing })).toEqual({ ok: true });
    open.userName = "changed after the append";
    open.nested.list.push(2);
    const loaded = await store.userLog.loadEvents("u1");
    expect(loaded[0]).toBe(kept);
    expect(loaded[1]).not.toBe(shallow);
    expect(loaded[1]).toEqual({ ...eventOf("u1", "org-a", 2), payload: { userName: "open", nested: { list: [1] } } });
    expect(isDeeplyFrozen(loaded[1] ?? {})).toBe(true);
    expect((await store.userLog.queryUsers({ filter: { all: [] }, sortBy: "userId", ascending: true, offset: 0, limit: 10 })).users[0]).toBe(listing);
  });
});
