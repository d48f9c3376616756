// A row is "already there" only when it is the same user as one imported before (same import
// fingerprint), by an earlier row of the source or an earlier import; any other clash on the
// username or an identity-provider account is a conflict (code 6) naming the field and the holder.
import { describe, expect, it } from "vitest";
import { alreadyExists, internal, unavailable } from "../../src/core/errors/user-errors.js";
import { judge } from "../../src/core/bulk/same-user.js";
import type { FingerprintRule } from "../../src/core/users/import-fingerprint.js";
import { createHumanUser, importHumanUsers, StorageUnavailableError, type BulkImportOutcome } from "../../src/index.js";
import { fakeHasher } from "../operations/support/import-fixtures.js";
import { adminInAcme, bulkPorts, claimedUsernames, collect, importedBody, usernameTaken, userRequest } from "./support.js";

const ann = userRequest("ann", { email: "ann@acme.test" });
const otherAnn = userRequest("ann", { email: "other@acme.test" });
// The same people with their email in another case; straße and STRASSE are one under full case folding.
const annShouting = userRequest("ann", { email: "ANN@Acme.TEST" });
const strasse = userRequest("strasse", { email: "straße@acme.test" });
const strasseShouting = userRequest("strasse", { email: "STRASSE@acme.test" });

function withIdp(request: Record<string, unknown>, externalUserId: string): Record<string, unknown> {
  return { ...request, idps: [{ configId: "idp-global", externalUserId }] };
}

/** The id of each imported row, in input order. */
function importedIds(outcomes: readonly BulkImportOutcome[]): string[] {
  return outcomes.flatMap((outcome) => ("ok" in outcome ? [outcome.ok.userId] : []));
}

/**
 * The store of `ports`, as seen by an import during which another process imports `racers` into
 * it, between the lookup of the first batch's claims and their write; that process's ids are racer-1, ...
 */
function racedStore(ports: ReturnType<typeof bulkPorts>, racers: readonly unknown[]) {
  let racingIds = 0;
  const racing = bulkPorts({ storage: ports.storage, ids: { next: () => `racer-${++racingIds}` } });
  const store = ports.storage;
  let raced = false;
  const appendNewUsers = async (appends: Parameters<typeof store.userLog.appendNewUsers>[0]) => {
    if (!raced) {
      raced = true;
      await collect(importHumanUsers(racing, racers, adminInAcme));
    }
    return store.userLog.appendNewUsers(appends);
  };
  return { ...ports, storage: { ...store, userLog: { ...store.userLog, appendNewUsers } } };
}

describe("importHumanUsers: the same user or a conflict", () => {
  it("counts the same person without a username, whose email (and so username) differs only in case, as already there: in one source and across runs", async () => {
    const withoutUsername = (email: string): Record<string, unknown> => {
      const { userName: _none, ...request } = userRequest("unused", { email });
      return request;
    };
    const ports = bulkPorts();
    const first = await collect(importHumanUsers(ports, [withoutUsername("ann@acme.test"), withoutUsername("ANN@acme.test"), withoutUsername("STRASSE@acme.test")], adminInAcme));
    expect(first).toEqual([{ index: 0, ok: importedBody() }, { index: 1, alreadyThere: { earlierIndex: 0 } }, { index: 2, ok: importedBody() }]);
    const [annId, strasseId] = importedIds(first);
    expect(await collect(importHumanUsers(ports, [withoutUsername("Ann@Acme.Test"), withoutUsername("straße@acme.test")], adminInAcme))).toEqual([
      { index: 0, alreadyThere: { userId: annId } },
      { index: 1, alreadyThere: { userId: strasseId } },
    ]);
    expect(claimedUsernames(ports.storage.claims())).toHaveLength(2);
  });

  it("answers a second person with the first one's username as a conflict with that row, and imports only the first", async () => {
    const ports = bulkPorts();
    expect(await collect(importHumanUsers(ports, [ann, otherAnn], adminInAcme))).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 0 } },
    ]);
    expect(claimedUsernames(ports.storage.claims())).toEqual(["ann"]);
  });

  it("answers the same person twice in one source as one user, the second row already there", async () => {
    const ports = bulkPorts();
    expect(await collect(importHumanUsers(ports, [ann, userRequest("bob"), { ...ann }], adminInAcme, { batchSize: 2 }))).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, ok: importedBody() },
      { index: 2, alreadyThere: { earlierIndex: 0 } },
    ]);
    expect(claimedUsernames(ports.storage.claims())).toEqual(["ann", "bob"]);
  });

  it("answers the same person with the email in another case as one user in one source, a different email still a conflict", async () => {
    const ports = bulkPorts();
    const kim = userRequest("kim", { email: "kim@acme.test" });
    // Default case folding, not the Turkic one: the dotless ı makes another address.
    const otherKim = userRequest("kim", { email: "KıM@acme.test" });
    expect(await collect(importHumanUsers(ports, [ann, strasse, annShouting, strasseShouting, kim, otherKim], adminInAcme, { batchSize: 3 }))).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, ok: importedBody() },
      { index: 2, alreadyThere: { earlierIndex: 0 } },
      { index: 3, alreadyThere: { earlierIndex: 1 } },
      { index: 4, ok: importedBody() },
      { index: 5, error: usernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 4 } },
    ]);
    expect(claimedUsernames(ports.storage.claims())).toEqual(["ann", "kim", "strasse"]);
  });

  it("counts a row whose email differs from the stored user's only in case as already there when the import runs again", async () => {
    const ports = bulkPorts();
    const ids = importedIds(await collect(importHumanUsers(ports, [annShouting, strasse], adminInAcme)));
    const before = ports.storage.snapshot();
    expect(await collect(importHumanUsers(ports, [strasseShouting, ann, otherAnn], adminInAcme))).toEqual([
      { index: 0, alreadyThere: { userId: ids[1] } },
      { index: 1, alreadyThere: { userId: ids[0] } },
      { index: 2, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: ids[0] } },
    ]);
    expect(ports.storage.snapshot()).toEqual(before);
  });

  it("counts every row of a finished import as already there when it runs again, and writes nothing", async () => {
    const ports = bulkPorts();
    const requests = [ann, userRequest("bob"), withIdp(userRequest("cy"), "cy-at-idp")];
    const ids = importedIds(await collect(importHumanUsers(ports, requests, adminInAcme)));
    const before = ports.storage.snapshot();
    expect(await collect(importHumanUsers(ports, requests, adminInAcme))).toEqual(ids.map((userId, index) => ({ index, alreadyThere: { userId } })));
    expect(ports.storage.snapshot()).toEqual(before);
  });

  it("decides nothing for a row a stored user holds a claim of: a re-run hashes no plain password and draws no id", async () => {
    let hashes = 0;
    let ids = 0;
    const ports = bulkPorts({
      passwordHasher: { name: "fake", hash: (password) => ((hashes += 1), fakeHasher.hash(password)), isCurrent: () => true },
      ids: { next: () => String(10n ** 17n + BigInt(++ids)) },
    });
    const withPlain = (request: Record<string, unknown>) => {
      const { hashedPassword: _hash, ...rest } = request;
      return { ...rest, password: "Correct-Horse-Battery-9" };
    };
    const requests = [withPlain(ann), withPlain(userRequest("bob")), withPlain(withIdp(userRequest("cy"), "cy-at-idp"))];
    const first = await collect(importHumanUsers(ports, requests, adminInAcme));
    expect(first).toEqual([{ index: 0, ok: importedBody() }, { index: 1, ok: importedBody() }, { index: 2, ok: importedBody("3") }]);
    expect([hashes, ids]).toEqual([3, 3]);
    // The second run: two rows already there, one conflict with a stored user, one new row.
    const again = await collect(importHumanUsers(ports, [...requests.slice(0, 2), withPlain(otherAnn), withPlain(userRequest("dee"))], adminInAcme));
    expect(again).toEqual([
      { index: 0, alreadyThere: { userId: importedIds(first)[0] } },
      { index: 1, alreadyThere: { userId: importedIds(first)[1] } },
      { index: 2, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: importedIds(first)[0] } },
      { index: 3, ok: importedBody() },
    ]);
    expect([hashes, ids]).toEqual([4, 4]);
  });

  describe("looking up the stored holders of a batch's claims", () => {
    /** A re-run beside new rows: two rows already there, one conflict with a stored user, one new row; batches of 2. */
    async function rerun(withoutBatchLookup: boolean) {
      const ports = bulkPorts();
      const store = ports.storage;
      const ids = importedIds(await collect(importHumanUsers(ports, [ann, withIdp(userRequest("cy"), "cy-at-idp")], adminInAcme)));
      const calls = { findClaimHolders: 0, findClaimHolder: 0, loadEvents: 0 };
      const { findClaimHolders: _batchLookup, ...withoutIt } = store.userLog;
      const userLog = {
        ...(withoutBatchLookup ? withoutIt : store.userLog),
        findClaimHolder: (claim: Parameters<typeof store.userLog.findClaimHolder>[0]) => ((calls.findClaimHolder += 1), store.userLog.findClaimHolder(claim)),
        loadEvents: (userId: string) => ((calls.loadEvents += 1), store.userLog.loadEvents(userId)),
        ...(withoutBatchLookup
          ? {}
          : { findClaimHolders: (claims: Parameters<typeof store.userLog.findClaimHolder>[0][]) => ((calls.findClaimHolders += 1), store.userLog.findClaimHolders(claims)) }),
      };
      const requests = [ann, userRequest("dee"), withIdp(userRequest("cy"), "cy-at-idp"), { ...otherAnn, userName: "ANN" }];
      const outcomes = await collect(importHumanUsers({ ...ports, storage: { ...store, userLog } }, requests, adminInAcme, { batchSize: 2 }));
      return { ids, outcomes, calls };
    }

    it("asks the store for the holders of a whole batch in one call, not one lookup per held claim", async () => {
      const { ids, outcomes, calls } = await rerun(false);
      expect(outcomes).toEqual([
        { index: 0, alreadyThere: { userId: ids[0] } },
        { index: 1, ok: importedBody() },
        { index: 2, alreadyThere: { userId: ids[1] } },
        { index: 3, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: ids[0] } },
      ]);
      expect(calls).toEqual({ findClaimHolders: 2, findClaimHolder: 0, loadEvents: 0 });
    });

    it("answers 13 for every row of a batch whose holders the store could not look up, and writes or decides none of them", async () => {
      let draws = 0;
      const ports = bulkPorts({ ids: { next: () => String(10n ** 17n + BigInt(++draws)) } });
      const store = ports.storage;
      const storage = { ...store, userLog: { ...store.userLog, findClaimHolders: () => Promise.reject(new Error("bad query")) } };
      expect(await collect(importHumanUsers({ ...ports, storage }, [ann, userRequest("bob")], adminInAcme))).toEqual([
        { index: 0, error: internal() },
        { index: 1, error: internal() },
      ]);
      expect(store.snapshot().events).toEqual([]);
      expect(draws).toBe(0);
    });

    it("answers the same through a store without findClaimHolders, looking each held claim up on its own", async () => {
      const batched = await rerun(false);
      const { ids, outcomes, calls } = await rerun(true);
      expect(outcomes).toEqual(batched.outcomes.map((outcome) => JSON.parse(JSON.stringify(outcome).replaceAll(String(batched.ids[0]), String(ids[0])).replaceAll(String(batched.ids[1]), String(ids[1]))) as BulkImportOutcome));
      // ann for each batch (rows 0 and 3), cy's username and cy's identity-provider account.
      expect(calls).toEqual({ findClaimHolders: 0, findClaimHolder: 4, loadEvents: 4 });
    });
  });

  it("answers a second person with a stored user's username, from another source, as a conflict with that user", async () => {
    const ports = bulkPorts();
    const [annId] = importedIds(await collect(importHumanUsers(ports, [ann], adminInAcme)));
    expect(await collect(importHumanUsers(ports, [userRequest("dee"), otherAnn], adminInAcme))).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: annId } },
    ]);
  });

  it("answers a row whose username a user made by createHumanUser holds as a conflict, even with the same details", async () => {
    const ports = bulkPorts();
    const created = await createHumanUser(ports, { username: "ann", profile: { givenName: "Ada", familyName: "Lovelace" }, email: { email: "ann@acme.test", isVerified: true } }, adminInAcme);
    const userId = created.isOk() ? created.value.userId : "";
    expect(await collect(importHumanUsers(ports, [ann], adminInAcme))).toEqual([
      { index: 0, error: usernameTaken, conflict: { claim: "username", field: "userName", userId } },
    ]);
  });

  it("names the username's field as the email when the username comes from it", async () => {
    const fromEmail = (lastName: string) => {
      const { userName: _none, ...rest } = userRequest("x", { email: "eve@acme.test", lastName });
      return rest;
    };
    expect(await collect(importHumanUsers(bulkPorts(), [fromEmail("One"), fromEmail("Two")], adminInAcme))).toEqual([
      { index: 0, ok: importedBody() },
      { index: 1, error: usernameTaken, conflict: { claim: "username", field: "email.email", earlierIndex: 0 } },
    ]);
  });

  it("answers two people with one identity-provider account as a conflict on that link, in the source and against stored users", async () => {
    const ports = bulkPorts();
    const first = withIdp(userRequest("fay"), "shared-account");
    const second = { ...withIdp(userRequest("gus"), "other-account"), idps: [{ configId: "idp-global", externalUserId: "own" }, { configId: "idp-global", externalUserId: "shared-account" }] };
    const idpTaken = alreadyExists("idp_link");
    const outcomes = await collect(importHumanUsers(ports, [first, second], adminInAcme));
    expect(outcomes).toEqual([
      { index: 0, ok: importedBody("3") },
      { index: 1, error: idpTaken, conflict: { claim: "idp_link", field: "idps[1].externalUserId", earlierIndex: 0 } },
    ]);
    const [fayId] = importedIds(outcomes);
    expect(await collect(importHumanUsers(ports, [second], adminInAcme))).toEqual([
      { index: 0, error: idpTaken, conflict: { claim: "idp_link", field: "idps[1].externalUserId", userId: fayId } },
    ]);
  });

  it("answers a row the store refuses because another writer took its username meanwhile by what that user is", async () => {
    const outcomes = await collect(importHumanUsers(racedStore(bulkPorts(), [otherAnn]), [ann], adminInAcme));
    expect(outcomes).toEqual([{ index: 0, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: "racer-1" } }]);
  });
});

describe("importHumanUsers: the same user as an earlier row that was not imported", () => {
  /** The store, with its batch writes refused as unreachable for the batches whose number (from 1) `failing` holds. */
  function failingBatches(failing: ReadonlySet<number>) {
    const ports = bulkPorts();
    const store = ports.storage;
    let batches = 0;
    const appendNewUsers = (appends: Parameters<typeof store.userLog.appendNewUsers>[0]) =>
      failing.has(++batches) ? Promise.reject(new StorageUnavailableError("connection lost")) : store.userLog.appendNewUsers(appends);
    return { ports: { ...ports, storage: { ...store, userLog: { ...store.userLog, appendNewUsers } } }, store };
  }

  it("fails the later row with the earlier row's error when that row's write failed, in the same batch", async () => {
    const { ports, store } = failingBatches(new Set([1]));
    expect(await collect(importHumanUsers(ports, [ann, userRequest("bob"), { ...ann }], adminInAcme))).toEqual([
      { index: 0, error: unavailable() },
      { index: 1, error: unavailable() },
      { index: 2, error: unavailable(), sameUserAs: { earlierIndex: 0 } },
    ]);
    expect(store.snapshot().events).toEqual([]);
  });

  it("fails the later row with the earlier row's error when that row's write failed, in an earlier batch", async () => {
    const { ports, store } = failingBatches(new Set([1]));
    expect(await collect(importHumanUsers(ports, [ann, userRequest("bob"), { ...ann }], adminInAcme, { batchSize: 1 }))).toEqual([
      { index: 0, error: unavailable() },
      { index: 1, ok: importedBody() },
      { index: 2, error: unavailable(), sameUserAs: { earlierIndex: 0 } },
    ]);
    expect(claimedUsernames(store.claims())).toEqual(["bob"]);
  });

  it("fails the later row when another writer took the earlier row's username for someone else meanwhile", async () => {
    const outcomes = await collect(importHumanUsers(racedStore(bulkPorts(), [otherAnn]), [ann, { ...ann }], adminInAcme));
    expect(outcomes).toEqual([
      { index: 0, error: usernameTaken, conflict: { claim: "username", field: "userName", userId: "racer-1" } },
      { index: 1, error: usernameTaken, sameUserAs: { earlierIndex: 0 } },
    ]);
  });

  it("keeps the later row already there when the earlier row's user turned out to be there already (written meanwhile by another import of it)", async () => {
    const outcomes = await collect(importHumanUsers(racedStore(bulkPorts(), [ann]), [ann, { ...ann }], adminInAcme));
    expect(outcomes).toEqual([
      { index: 0, alreadyThere: { userId: "racer-1" } },
      { index: 1, alreadyThere: { earlierIndex: 0 } },
    ]);
  });

  it("counts a row as already there when another import wrote the same person meanwhile with the email in another case", async () => {
    const outcomes = await collect(importHumanUsers(racedStore(bulkPorts(), [annShouting]), [ann, { ...ann }], adminInAcme));
    expect(outcomes).toEqual([
      { index: 0, alreadyThere: { userId: "racer-1" } },
      { index: 1, alreadyThere: { earlierIndex: 0 } },
    ]);
  });
});

describe("importHumanUsers: a dry run", () => {
  it("answers as the real run does, rows to import as wouldImport, and writes nothing", async () => {
    const ports = bulkPorts();
    await collect(importHumanUsers(ports, [userRequest("stored")], adminInAcme));
    const before = ports.storage.snapshot();
    const requests = [ann, otherAnn, { ...ann }, userRequest("stored"), userRequest("bad", { lastName: " " }), userRequest("new")];
    const dry = await collect(importHumanUsers(ports, requests, adminInAcme, { dryRun: true }));
    expect(ports.storage.snapshot()).toEqual(before);
    const real = await collect(importHumanUsers(ports, requests, adminInAcme));
    expect(dry).toEqual(real.map((outcome) => ("ok" in outcome ? { index: outcome.index, wouldImport: true } : outcome)));
    expect(dry.map((outcome) => Object.keys(outcome)[1])).toEqual(["wouldImport", "error", "alreadyThere", "alreadyThere", "error", "wouldImport"]);
  });
});

describe("judge", () => {
  const claim = { kind: "username", scope: "instance", key: "ann" } as const;
  const holder = (fingerprint: string | undefined) => ({ at: { userId: "u-1" }, fingerprint, shown: { userId: "u-1" } });

  it("compares a row with each holder under the holder's rule, making an older rule's fingerprint only for a holder that has one", () => {
    const asked: FingerprintRule[] = [];
    const row = (rule: FingerprintRule): string => (asked.push(rule), `${rule}.ann`);
    expect(judge(row, [{ claim, holder: { at: { earlierIndex: 0 }, fingerprint: "v2.ann", shown: { earlierIndex: 0 } } }])).toEqual({ kind: "already-there", holder: { earlierIndex: 0 } });
    expect(asked).toEqual(["v2"]);
    expect(judge(row, [{ claim, holder: holder("v1.ann") }])).toEqual({ kind: "already-there", holder: { userId: "u-1" } });
    expect(asked).toEqual(["v2", "v1"]);
    for (const other of ["v1.bob", "v2.bob", "v9.ann", "ann", undefined]) {
      expect(judge(row, [{ claim, holder: holder(other) }])).toEqual({ kind: "conflict", claim, holder: { userId: "u-1" } });
    }
  });
});
