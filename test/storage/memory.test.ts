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

describe("memoryStore's directory hands out frozen organizations and providers", () => {
  it("answers every lookup with the same frozen value: changing it throws, and the seed's later changes are not seen", async () => {
    const seed = {
      organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }], policy: { userLoginMustBeDomain: true } }],
      identityProviders: [{ id: "idp-1", orgId: "acme" }],
    };
    const store = memoryStore(seed);
    seed.organizations[0]!.domains[0]!.verified = false;
    seed.identityProviders[0]!.orgId = "changed in the seed";
    const found = await store.directory.findOrganization("acme");
    expect(found).toEqual({ id: "acme", domains: [{ domain: "acme.example", verified: true }], policy: { userLoginMustBeDomain: true } });
    expect(await store.directory.findOrganizationByDomain("ACME.example")).toBe(found);
    expect(() => {
      (found?.domains as unknown as { verified: boolean }[])[0]!.verified = false;
    }).toThrow(TypeError);
    expect(() => {
      (found?.domains as unknown[]).push({ domain: "evil.example", verified: true });
    }).toThrow(TypeError);
    expect(() => {
      (found?.policy as { userLoginMustBeDomain: boolean }).userLoginMustBeDomain = false;
    }).toThrow(TypeError);
    expect(await store.directory.findOrganization("acme")).toEqual({ id: "acme", domains: [{ domain: "acme.example", verified: true }], policy: { userLoginMustBeDomain: true } });
    const provider = await store.directory.findIdentityProvider("idp-1");
    expect(provider).toEqual({ id: "idp-1", orgId: "acme" });
    expect(() => {
      (provider as { orgId: string }).orgId = "changed";
    }).toThrow(TypeError);
  });
});

describe("memoryStore records what became of a notification member by member", () => {
  /** The record as the spread-and-delete merge made it, the order of its members included. */
  function merged(record: object, patch: object): object {
    const out: Record<string, unknown> = { ...record, ...patch };
    for (const [name, member] of Object.entries(out)) if (member === undefined) delete out[name];
    return out;
  }

  it("keeps the members, their order and the removed ones as a spread of the change over the record would", async () => {
    const store = memoryStore();
    const append = newUserAppend("u1", { notifications: 2 });
    const leaseUntil = new Date("2026-01-01T00:05:00Z");
    expect(await store.userLog.append({ ...append, leaseNotificationsUntil: leaseUntil })).toMatchObject({ ok: true });
    const [first, second] = store.notifications();
    const failedAt = new Date("2026-01-01T00:01:00Z");
    const retryAt = new Date("2026-01-01T00:02:00Z");
    await store.outbox.markFailed(first?.id ?? "", { at: failedAt, error: "refused", retryAt });
    const failed = merged(first ?? {}, { attempts: 1, failedAt: failedAt.toISOString(), lastError: "refused", leasedUntil: undefined, retryAt: retryAt.toISOString() });
    expect(JSON.stringify(store.notifications()[0])).toBe(JSON.stringify(failed));
    const deliveredAt = new Date("2026-01-01T00:03:00Z");
    await store.outbox.markDelivered(first?.id ?? "", deliveredAt);
    const delivered = merged(failed, { state: "delivered", code: "", link: "", deliveredAt: deliveredAt.toISOString(), leasedUntil: undefined, retryAt: undefined });
    expect(JSON.stringify(store.notifications()[0])).toBe(JSON.stringify(delivered));
    expect(Object.keys(store.notifications()[0] ?? {})).toEqual(Object.keys(delivered));
    await store.outbox.markFailed(second?.id ?? "", { at: failedAt, error: "gone" });
    const dead = merged(second ?? {}, { attempts: 1, failedAt: failedAt.toISOString(), lastError: "gone", leasedUntil: undefined, state: "dead", code: "", link: "", retryAt: undefined });
    expect(JSON.stringify(store.notifications()[1])).toBe(JSON.stringify(dead));
    // Delivered and dead ones never change again.
    await store.outbox.markDelivered(second?.id ?? "", deliveredAt);
    expect(JSON.stringify(store.notifications()[1])).toBe(JSON.stringify(dead));
  });
});
