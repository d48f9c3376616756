// importHumanUsers when a row fails before its write (the claim lookup, deciding it), when a source
// hands out one object changed between items, or waits for ever after the stop signal: nobody is
// lost, and a later row never takes what an earlier, failed one wanted.
import { describe, expect, it } from "vitest";
import { importHumanUsers, StorageUnavailableError, type BulkImportOutcome, type UserLog } from "../../src/index.js";
import { internal, unavailable } from "../../src/core/errors/user-errors.js";
import { patchStorage } from "../support/patch-storage.js";
import { adminInAcme, bulkPorts, claimedUsernames, collect, importedBody, usernameTaken, userRequest } from "./support.js";

const ann = userRequest("ann");
const impostor = userRequest("ann", { email: "impostor@example.com" });
const rows = [userRequest("a0"), ann, userRequest("a2"), userRequest("a3"), impostor, userRequest("a5")];
const options = { batchSize: 2, parallelBatches: 1 };
const ids = (outcomes: readonly BulkImportOutcome[]) => outcomes.map((outcome) => ("ok" in outcome ? { ...outcome, ok: importedBody() } : outcome));

describe("a row that fails before its write", () => {
  it("holds its username against later rows when the claim lookup fails: a later person is a conflict, and a re-run imports the first", async () => {
    const ports = bulkPorts();
    let lookups = 0;
    const findClaimHolders: NonNullable<UserLog["findClaimHolders"]> = (claims) => {
      lookups += 1;
      return lookups === 1 ? Promise.reject(new StorageUnavailableError("connection lost")) : ports.storage.userLog.findClaimHolders!(claims);
    };
    const flaky = patchStorage(ports.storage, { userLog: { findClaimHolders } });
    expect(ids(await collect(importHumanUsers({ ...ports, storage: flaky }, rows, adminInAcme, options)))).toEqual([
      { index: 0, error: unavailable() },
      { index: 1, error: unavailable() },
      { index: 2, ok: importedBody() },
      { index: 3, ok: importedBody() },
      { index: 4, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 1 } },
      { index: 5, ok: importedBody() },
    ]);
    const again = await collect(importHumanUsers(ports, rows, adminInAcme, options));
    expect(again.map((outcome) => Object.keys(outcome).filter((key) => key !== "index").join())).toEqual(["ok", "ok", "alreadyThere", "alreadyThere", "error,conflict", "alreadyThere"]);
    expect(ports.storage.events().filter((event) => event.type === "user.human.added").map((event) => event.payload["email"])).toContain("ann@example.com");
  });

  it("holds its username when deciding it fails (the id generator), and a later row of the same person fails with its error", async () => {
    let drawn = 0;
    const ports = bulkPorts({ ids: { next: () => (++drawn === 2 ? (() => { throw new Error("no ids") })() : `1000000000000000${String(drawn).padStart(2, "0")}`) } });
    const outcomes = await collect(importHumanUsers(ports, [userRequest("a0"), ann, impostor, userRequest("ann")], adminInAcme, options));
    expect(outcomes.map((outcome) => ("ok" in outcome ? "ok" : outcome))).toEqual([
      "ok",
      { index: 1, error: internal() },
      { index: 2, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 1 } },
      { index: 3, error: internal(), sameUserAs: { earlierIndex: 1 } },
    ]);
    expect(claimedUsernames(ports.storage.claims())).toEqual(["a0"]);
  });
});

describe("a source's items", () => {
  it("are read as they are when handed out, even when the source changes one object between items", async () => {
    const ports = bulkPorts();
    function* reused() {
      const item = userRequest("x");
      for (let index = 0; index < 30; index++) {
        Object.assign(item, userRequest(`r${index}`));
        yield item;
      }
    }
    const outcomes = await collect(importHumanUsers(ports, reused(), adminInAcme, { batchSize: 4, concurrency: 1 }));
    expect(outcomes).toEqual(Array.from({ length: 30 }, (_, index) => ({ index, ok: importedBody() })));
    expect(claimedUsernames(ports.storage.claims())).toEqual(Array.from({ length: 30 }, (_, index) => `r${index}`).sort());
  });

  it("that wait for ever after the stop signal: the items already read are finished, and the outcomes end", async () => {
    const ports = bulkPorts();
    const controller = new AbortController();
    async function* stalling() {
      yield userRequest("s0");
      yield userRequest("s1");
      yield userRequest("s2");
      await new Promise(() => undefined);
    }
    setTimeout(() => controller.abort(), 100);
    const outcomes = await collect(importHumanUsers(ports, stalling(), adminInAcme, { signal: controller.signal }));
    expect(outcomes).toEqual([0, 1, 2].map((index) => ({ index, ok: importedBody() })));
  });
});

describe("dryRun", () => {
  it.each([["true"], [1], ["yes"], [{}]])("given as %j, not a boolean, checks without writing rather than importing for real", async (dryRun) => {
    const ports = bulkPorts();
    expect(await collect(importHumanUsers(ports, [userRequest("d0")], adminInAcme, { dryRun } as never))).toEqual([{ index: 0, wouldImport: true }]);
    expect(ports.storage.claims()).toEqual([]);
  });
});

describe("a batch whose connection failed with its outcome unknown", () => {
  const rows = [userRequest("ann"), userRequest("bob"), userRequest("cyd")];

  it("answers its users as imported when the store holds them all: the commit went through, its answer was lost", async () => {
    const ports = bulkPorts();
    const storage = patchStorage(ports.storage, {
      userLog: {
        appendNewUsers: async (appends) => {
          await ports.storage.userLog.appendNewUsers(appends);
          throw new StorageUnavailableError("connection terminated while the commit's answer was on its way");
        },
      },
    });
    const outcomes = await collect(importHumanUsers({ ...ports, storage }, rows, adminInAcme));
    expect(outcomes).toEqual([0, 1, 2].map((index) => ({ index, ok: importedBody() })));
    expect(claimedUsernames(ports.storage.claims())).toEqual(["ann", "bob", "cyd"]);
  });

  it("keeps the 14 when nothing of the batch is there", async () => {
    const ports = bulkPorts();
    const storage = patchStorage(ports.storage, {
      userLog: { appendNewUsers: () => Promise.reject(new StorageUnavailableError("connection refused")) },
    });
    const outcomes = await collect(importHumanUsers({ ...ports, storage }, rows, adminInAcme));
    expect(outcomes).toEqual([0, 1, 2].map((index) => ({ index, error: unavailable() })));
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });
});

describe("a batch the store cancelled, written again one user at a time", () => {
  const rows = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"].map((name) => userRequest(name));
  const cancelled = () => Promise.reject(new StorageUnavailableError("canceling statement due to lock timeout", { nothingWritten: true }));

  it("stops trying after three users in a row fail as unavailable: the rest of the batch answers 14 without one timeout each", async () => {
    const ports = bulkPorts();
    let appends = 0;
    const storage = patchStorage(ports.storage, {
      userLog: {
        appendNewUsers: cancelled,
        append: () => {
          appends += 1;
          return cancelled();
        },
      },
    });
    const outcomes = await collect(importHumanUsers({ ...ports, storage }, rows, adminInAcme, { batchSize: 8, parallelBatches: 1 }));
    expect(outcomes).toEqual(rows.map((_, index) => ({ index, error: unavailable() })));
    expect(appends).toBe(3);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it("tries every user of a store that writes one at a time anyway (no appendNewUsers): a short outage fails only the users it met", async () => {
    const ports = bulkPorts();
    let appends = 0;
    const { appendNewUsers: _batches, ...oneAtATime } = patchStorage(ports.storage, {
      userLog: { append: (append) => (++appends <= 3 ? Promise.reject(new StorageUnavailableError("connection refused")) : ports.storage.userLog.append(append)) },
    }).userLog;
    const storage = { ...ports.storage, userLog: oneAtATime };
    const outcomes = await collect(importHumanUsers({ ...ports, storage }, rows, adminInAcme, { batchSize: 8, parallelBatches: 1 }));
    expect(outcomes.map((outcome) => ("ok" in outcome ? "ok" : "error" in outcome ? outcome.error.code : "other"))).toEqual([14, 14, 14, "ok", "ok", "ok", "ok", "ok"]);
  });

  it("keeps trying while users between the failures are written: only the users behind a lock fail", async () => {
    const ports = bulkPorts();
    const locked = new Set(["a1", "a2", "a4", "a5", "a7"]);
    const storage = patchStorage(ports.storage, {
      userLog: {
        appendNewUsers: cancelled,
        append: (append) => (append.claims.some((claim) => claim.kind === "username" && locked.has(claim.key)) ? cancelled() : ports.storage.userLog.append(append)),
      },
    });
    const outcomes = await collect(importHumanUsers({ ...ports, storage }, rows, adminInAcme, { batchSize: 8, parallelBatches: 1 }));
    expect(outcomes.map((outcome) => ("ok" in outcome ? "ok" : "error" in outcome ? outcome.error.code : "other"))).toEqual(["ok", 14, 14, "ok", 14, 14, "ok", 14]);
    expect(claimedUsernames(ports.storage.claims())).toEqual(["a0", "a3", "a6"]);
  });
});

/**
 * Ports whose id generator restarts from its first ids after the first batch of two: the second
 * batch's user and notification ids are the first batch's again, until they run ahead, so its
 * rows are decided again with new ids.
 */
function portsWithRestartedIds() {
  const drawnIds = ["u1", "n1", "u2", "n2", "u1", "n1", "u3", "n2", "u4", "n3", "u5", "n4"];
  let drawn = 0;
  return bulkPorts({ ids: { next: () => drawnIds[drawn++] ?? `late-${drawn}` }, config: { immediateDelivery: "off" } });
}

/** A row whose email is not verified: its user gets an initialization mail, so a notification. */
const mailed = (name: string) => ({ ...userRequest(name), email: { email: `${name}@example.com` } });

describe("a generated notification id that is taken", () => {
  it("is drawn again for the row, as importHumanUser does: every row imported, each notification with its own id", async () => {
    const ports = portsWithRestartedIds();
    const outcomes = await collect(importHumanUsers(ports, [mailed("a0"), mailed("a1"), mailed("a2"), mailed("a3")], adminInAcme, { batchSize: 2, parallelBatches: 1 }));
    expect(outcomes.map((outcome) => Object.keys(outcome).join())).toEqual(["index,ok", "index,ok", "index,ok", "index,ok"]);
    const notifications = ports.storage.notifications().map((notification) => notification.id);
    expect(notifications).toHaveLength(4);
    expect(new Set(notifications).size).toBe(4);
  });
});

describe("beforeWrite: the answers a batch will get, before the batch is written", () => {
  const asking = (name: string) => ({ ...userRequest(name), requestPasswordlessRegistration: true });
  const context = { ...adminInAcme, origin: "https://login.acme.test" };

  it("is called with each new user's answer before its batch's write, and those are the answers given", async () => {
    const ports = bulkPorts();
    const calls: string[] = [];
    const kept: unknown[] = [];
    const appendNewUsers: NonNullable<UserLog["appendNewUsers"]> = (appends) => {
      calls.push(`write ${appends.length}`);
      return ports.storage.userLog.appendNewUsers!(appends);
    };
    const watched = patchStorage(ports.storage, { userLog: { appendNewUsers } });
    const rows = [asking("a0"), userRequest("a1"), asking("a2"), asking("a0")];
    const outcomes = await collect(
      importHumanUsers({ ...ports, storage: watched }, rows, context, {
        batchSize: 2,
        parallelBatches: 1,
        beforeWrite: (answers) => {
          calls.push(`before ${answers.map((answer) => answer.index).join(",")}`);
          kept.push(...answers);
        },
      }),
    );
    // The fourth row is the first again: already there, so nothing of it is written.
    expect(calls).toEqual(["before 0,1", "write 2", "before 2", "write 1"]);
    expect(kept).toEqual(outcomes.filter((outcome) => "ok" in outcome).map((outcome) => ({ index: outcome.index, answer: "ok" in outcome ? outcome.ok : undefined })));
    expect(kept.map((entry) => (entry as { answer: { passwordlessRegistration?: unknown } }).answer.passwordlessRegistration !== undefined)).toEqual([true, false, true]);
  });

  it("that rejects: its batch is not written, its rows fail with 13, and the next batch goes on", async () => {
    const ports = bulkPorts();
    let call = 0;
    const outcomes = await collect(
      importHumanUsers(ports, [asking("b0"), asking("b1"), asking("b2")], context, {
        batchSize: 2,
        parallelBatches: 1,
        beforeWrite: () => (++call === 1 ? Promise.reject(new Error("disk full")) : undefined),
      }),
    );
    expect(outcomes.map((outcome) => ("error" in outcome ? outcome.error.code : "ok" in outcome ? "ok" : "other"))).toEqual([13, 13, "ok"]);
    expect(claimedUsernames(ports.storage.claims())).toEqual(["b2"]);
  });
});

describe("beforeWrite and a user decided again", () => {
  it("is given the new answer before the new write: the last answer kept for each row is its outcome's", async () => {
    const ports = portsWithRestartedIds();
    const kept = new Map<number, unknown>();
    const calls: number[][] = [];
    const outcomes = await collect(
      importHumanUsers(ports, [mailed("a0"), mailed("a1"), mailed("a2"), mailed("a3")], adminInAcme, {
        batchSize: 2,
        parallelBatches: 1,
        beforeWrite: (answers) => {
          calls.push(answers.map((answer) => answer.index));
          for (const { index, answer } of answers) kept.set(index, answer);
        },
      }),
    );
    expect(outcomes.every((outcome) => "ok" in outcome)).toBe(true);
    expect(outcomes.map((outcome) => kept.get(outcome.index))).toEqual(outcomes.map((outcome) => ("ok" in outcome ? outcome.ok : undefined)));
    // Each batch once, then each row decided again on its own.
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.slice(0, 2)).toEqual([[0, 1], [2, 3]]);
  });
});
