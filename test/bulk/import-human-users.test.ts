import { describe, expect, it } from "vitest";
import {
  defaultBulkImportOptions,
  importHumanUser,
  importHumanUsers,
  StorageUnavailableError,
  type StoredEvent,
  type AppendOutcome,
  type BulkImportOutcome,
  type Storage,
  type UserAppend,
  type UserLog,
} from "../../src/index.js";
import { internal, unauthenticated, unavailable } from "../../src/core/errors/user-errors.js";
import { patchStorage } from "../support/patch-storage.js";
import {
  adminInAcme,
  bulkPorts,
  claimedUsernames,
  collect,
  importedBody,
  singleAnswer,
  usernameTaken,
  userRequest,
} from "./support.js";

/** Items of every kind: valid, refused by validation, not an object, and a same-batch duplicate. */
const mixed: readonly unknown[] = [
  userRequest("ann"),
  userRequest("bob", { lastName: "" }),
  null,
  userRequest("Ann", { email: "ann.again@example.com" }),
  "not an object",
  userRequest("cy", { email: "not-an-address", phone: "12" }),
  userRequest("dee"),
];

describe("importHumanUsers on the memory store", () => {
  it("answers every item in input order, each as importHumanUser answers it alone, a second user with the first's username a conflict", async () => {
    const ports = bulkPorts();
    const outcomes = await collect(importHumanUsers(ports, mixed, adminInAcme, { batchSize: 3 }));
    expect(outcomes).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, error: await singleAnswer(mixed[1]) },
      { index: 2, error: await singleAnswer(mixed[2]) },
      { index: 3, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 0 } },
      { index: 4, error: await singleAnswer(mixed[4]) },
      { index: 5, error: await singleAnswer(mixed[5]) },
      { index: 6, ok: importedBody() },
    ]);
    expect(claimedUsernames(ports.storage.claims())).toEqual(["ann", "dee"]);
  });

  it("gives every imported user its own id and writes exactly the events importHumanUser writes", async () => {
    const ports = bulkPorts();
    const outcomes = await collect(importHumanUsers(ports, [userRequest("ann"), userRequest("bob", { phone: "+41 79 123 45 67" })], adminInAcme));
    const ids = outcomes.map((outcome) => ("ok" in outcome ? outcome.ok.userId : ""));
    expect(new Set(ids).size).toBe(2);
    const alone = bulkPorts();
    await importHumanUser(alone, userRequest("bob", { phone: "+41 79 123 45 67" }), adminInAcme);
    const asAnyUser = (events: readonly StoredEvent[]) => events.map((event) => ({ ...event, aggregateId: "user" }));
    expect(asAnyUser(await ports.storage.userLog.loadEvents(ids[1] ?? ""))).toEqual(asAnyUser(alone.storage.events()));
  });

  it("answers the same whatever the batch size, concurrency and batches in flight", async () => {
    const duplicates = Array.from({ length: 40 }, (_, index) => userRequest(`user-${index % 13}`, { email: `u${index}@example.com` }));
    const expected: BulkImportOutcome[] = duplicates.map((_, index) =>
      index < 13 ? { index, ok: importedBody() } : { index, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: index % 13 } },
    );
    for (const options of [{ batchSize: 1, concurrency: 1, parallelBatches: 1 }, { batchSize: 7, concurrency: 3 }, { batchSize: 5, parallelBatches: 4 }, {}]) {
      const ports = bulkPorts();
      expect(await collect(importHumanUsers(ports, duplicates, adminInAcme, options))).toEqual(expected);
      expect(claimedUsernames(ports.storage.claims())).toEqual(Array.from({ length: 13 }, (_, index) => `user-${index}`).sort());
    }
  });

  it("takes an async iterable as well as an iterable", async () => {
    async function* requests() {
      yield userRequest("ann");
      yield userRequest("bob");
    }
    expect(await collect(importHumanUsers(bulkPorts(), requests(), adminInAcme))).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, ok: importedBody() },
    ]);
  });

  it("answers an empty source with nothing", async () => {
    expect(await collect(importHumanUsers(bulkPorts(), [], adminInAcme))).toEqual([]);
  });

  it("answers 16 for every item without a requester, as the single operation does", async () => {
    const outcomes = await collect(importHumanUsers(bulkPorts(), [userRequest("ann"), userRequest("bob")], { orgId: "acme" }));
    expect(outcomes).toEqual([
      { index: 0, error: unauthenticated() },
      { index: 1, error: unauthenticated() },
    ]);
  });
});

/** A source that counts what was taken from it and whether it was closed. */
function countingSource(limit = Number.POSITIVE_INFINITY): { iterable: Iterable<unknown>; readonly read: number; readonly closed: boolean } {
  const state = { read: 0, closed: false };
  const iterable: Iterable<unknown> = {
    [Symbol.iterator]: () => ({
      next: () => (state.read < limit ? { done: false, value: userRequest(`user-${state.read++}`) } : { done: true, value: undefined }),
      return: () => {
        state.closed = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return {
    iterable,
    get read() {
      return state.read;
    },
    get closed() {
      return state.closed;
    },
  };
}

describe("importHumanUsers: bounded memory, stopping, failing sources", () => {
  it("never reads more than parallelBatches + 1 batches ahead of the consumer, and closes the source when the consumer stops", async () => {
    const source = countingSource();
    const ports = bulkPorts();
    let consumed = 0;
    for await (const outcome of importHumanUsers(ports, source.iterable, adminInAcme, { batchSize: 10, parallelBatches: 2 })) {
      expect(outcome).toEqual({ index: consumed, ok: importedBody() });
      consumed += 1;
      expect(source.read).toBeLessThanOrEqual(consumed + 30);
      if (consumed === 45) break;
    }
    expect(source.closed).toBe(true);
    // What was read but never answered was not written either, beyond the batches already being written.
    expect(ports.storage.claims().filter((claim) => claim.kind === "username").length).toBeLessThanOrEqual(source.read);
  });

  it("stops reading once the signal is aborted, and answers every item it had read", async () => {
    const source = countingSource();
    const signal = { aborted: false };
    const ports = bulkPorts();
    const outcomes: BulkImportOutcome[] = [];
    for await (const outcome of importHumanUsers(ports, source.iterable, adminInAcme, { batchSize: 10, signal })) {
      outcomes.push(outcome);
      signal.aborted = true;
    }
    expect(outcomes).toEqual(Array.from({ length: source.read }, (_, index) => ({ index, ok: importedBody() })));
    // What was read ahead: at most the batches in flight and the one being read.
    expect(source.read).toBeLessThanOrEqual((defaultBulkImportOptions.parallelBatches + 1) * 10);
    expect(claimedUsernames(ports.storage.claims())).toEqual(Array.from({ length: source.read }, (_, index) => `user-${index}`).sort());
  });

  it("ends with a code-13 answer at the position where the source threw, having answered what came before", async () => {
    function* failing() {
      yield userRequest("ann");
      yield userRequest("bob");
      throw new Error("disk gone");
    }
    const logged: unknown[] = [];
    const ports = bulkPorts({ logger: { error: (details, message) => logged.push({ message, details }), warn: () => undefined } });
    expect(await collect(importHumanUsers(ports, failing(), adminInAcme))).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, ok: importedBody() },
      { index: 2, error: internal() },
    ]);
    expect(logged).toEqual([{ message: "human-users: bulk import source failed", details: { err: new Error("disk gone") } }]);
  });
});

/** The memory store with its batch write replaced. */
function withBatchWrite(appendNewUsers: NonNullable<UserLog["appendNewUsers"]>) {
  const ports = bulkPorts();
  const store = ports.storage;
  const storage = patchStorage(store, { userLog: { appendNewUsers } });
  return { ports: { ...ports, storage }, store };
}

describe("importHumanUsers: how it writes", () => {
  it("writes through appendNewUsers, one call per batch, in input order", async () => {
    const batches: string[][] = [];
    const { ports, store } = withBatchWrite((writes) => {
      batches.push(writes.map((write) => String(write.events[0]?.payload["userName"])));
      return store.userLog.appendNewUsers(writes);
    });
    const requests = ["a", "b", "c", "d", "e"].map((name) => userRequest(name));
    await collect(importHumanUsers(ports, requests, adminInAcme, { batchSize: 2, parallelBatches: 1 }));
    expect(batches).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });

  it("writes one user at a time through append when the store has no batch write", async () => {
    const store = bulkPorts().storage;
    const written: string[] = [];
    const { appendNewUsers: _batchWrite, ...withoutBatchWrite } = store.userLog;
    const storage: Storage = {
      ...store,
      userLog: {
        ...withoutBatchWrite,
        append: (write: UserAppend) => {
          written.push(String(write.events[0]?.payload["userName"]));
          return store.userLog.append(write);
        },
      },
    };
    const outcomes = await collect(importHumanUsers({ ...bulkPorts(), storage }, [userRequest("a"), userRequest("A"), userRequest("b")], adminInAcme));
    expect(outcomes).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 0 } },
      { index: 2, ok: importedBody() },
    ]);
    // The conflict is found before writing: it is never offered to the store.
    expect(written).toEqual(["a", "b"]);
  });

  it("writes a refused batch again one user at a time, so one bad write fails only itself", async () => {
    const { ports, store } = withBatchWrite(() => Promise.reject(new Error("batch refused")));
    const poisoned = patchStorage(ports.storage, {
      userLog: { append: (write) => (write.events[0]?.payload["userName"] === "bad" ? Promise.reject(new Error("bad row")) : store.userLog.append(write)) },
    });
    const outcomes = await collect(importHumanUsers({ ...ports, storage: poisoned }, [userRequest("a"), userRequest("bad"), userRequest("c")], adminInAcme));
    expect(outcomes).toEqual([{ index: 0, ok: importedBody() }, { index: 1, error: internal() }, { index: 2, ok: importedBody() }]);
    expect(claimedUsernames(store.claims())).toEqual(["a", "c"]);
  });

  it("answers 14 for a batch the store cannot be reached for, without trying each write", async () => {
    let single = 0;
    const { ports } = withBatchWrite(() => Promise.reject(new StorageUnavailableError("connection refused")));
    const storage = patchStorage(ports.storage, { userLog: { append: () => ((single += 1), Promise.resolve<AppendOutcome>({ ok: true })) } });
    const outcomes = await collect(importHumanUsers({ ...ports, storage }, [userRequest("a"), userRequest("b")], adminInAcme));
    expect(outcomes).toEqual([{ index: 0, error: unavailable() }, { index: 1, error: unavailable() }]);
    expect(single).toBe(0);
  });

  it("answers 13 for every write of a batch whose store answers the wrong number of outcomes, writing nothing again", async () => {
    let single = 0;
    const { ports } = withBatchWrite(() => Promise.resolve([{ ok: true }]));
    const storage = patchStorage(ports.storage, { userLog: { append: () => ((single += 1), Promise.resolve<AppendOutcome>({ ok: true })) } });
    const outcomes = await collect(importHumanUsers({ ...ports, storage }, [userRequest("a"), userRequest("b")], adminInAcme));
    expect(outcomes).toEqual([{ index: 0, error: internal() }, { index: 1, error: internal() }]);
    expect(single).toBe(0);
  });

  it.each([
    ["with findClaimHolders, one call per batch", true],
    ["without findClaimHolders, findHeldClaims once per wave of users", false],
  ])("looks organizations and domains up once per import, and claims %s", async (_, batchLookup) => {
    const store = bulkPorts().storage;
    const calls = { organizations: 0, domains: 0, claims: 0, holders: 0 };
    const patched = patchStorage(store, {
      directory: {
        findOrganization: (id) => ((calls.organizations += 1), store.directory.findOrganization(id)),
        findOrganizationByDomain: (domain) => ((calls.domains += 1), store.directory.findOrganizationByDomain(domain)),
      },
      userLog: { findHeldClaims: (claims) => ((calls.claims += 1), store.userLog.findHeldClaims(claims)) },
    });
    const { findClaimHolders: _batchLookup, ...withoutBatchLookup } = patched.userLog;
    const userLog: UserLog = batchLookup
      ? { ...patched.userLog, findClaimHolders: (claims) => ((calls.holders += 1), store.userLog.findClaimHolders(claims)) }
      : withoutBatchLookup;
    const requests = Array.from({ length: 100 }, (_, index) => userRequest(`user-${index}@example.com`, { email: `user-${index}@example.com` }));
    const outcomes = await collect(importHumanUsers({ ...bulkPorts(), storage: { ...patched, userLog } }, requests, adminInAcme, { batchSize: 50, concurrency: 50 }));
    expect(outcomes).toEqual(requests.map((_, index) => ({ index, ok: importedBody() })));
    expect(calls.organizations).toBe(1);
    expect(calls.domains).toBe(1);
    if (batchLookup) expect([calls.claims, calls.holders]).toEqual([0, 2]);
    else {
      expect(calls.holders).toBe(0);
      expect(calls.claims).toBeGreaterThanOrEqual(1);
      expect(calls.claims).toBeLessThanOrEqual(4);
    }
  });

  it("a row wanting the username of a row in an earlier batch still being written is a conflict with that row", async () => {
    const { ports, store } = withBatchWrite(async (writes) => {
      // The first batch is slow: the second, wanting the same username, must not overtake it.
      if (writes[0]?.events[0]?.payload["userName"] === "first") await new Promise((resolve) => setTimeout(resolve, 50));
      return store.userLog.appendNewUsers(writes);
    });
    const requests = [userRequest("first"), userRequest("shared", { email: "one@example.com" }), userRequest("other"), userRequest("SHARED", { email: "two@example.com" })];
    const outcomes = await collect(importHumanUsers(ports, requests, adminInAcme, { batchSize: 2, parallelBatches: 2 }));
    expect(outcomes).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, ok: importedBody() },
      { index: 2, ok: importedBody() },
      { index: 3, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 1 } },
    ]);
  });
});
