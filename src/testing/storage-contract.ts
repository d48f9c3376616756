import { describe, expect, it, type TestContext } from "vitest";
import type {
  AppendOutcome,
  ClaimHolder,
  IdentityProvider,
  Organization,
  PendingNotification,
  Storage,
  StorageSnapshot,
  UserLog,
  StoredEvent,
  UniqueClaim,
  UserAppend,
} from "../ports/storage.js";
import {
  T0,
  at,
  contractIdentityProviders,
  contractOrganizations,
  eventOf,
  existingUserAppend,
  notificationOf,
  pendingRecord,
  userIdClaim,
  usernameClaim,
  newUserAppend,
} from "./storage-fixtures.js";
import { describeListingContract } from "./listing-contract.js";

/** The organizations and identity providers a store under test must start with. */
export interface StorageSeed {
  readonly organizations: readonly Organization[];
  readonly identityProviders: readonly IdentityProvider[];
}

/** A store built for one test, with a way to see everything it holds and to release it. */
export interface StorageUnderTest {
  readonly storage: Storage;
  /** Every event, claim and notification the store holds, each list in writing order. */
  snapshot(): StorageSnapshot | Promise<StorageSnapshot>;
  /** Called after the test, also when it failed. */
  close?(): void | Promise<void>;
}

/** Builds a fresh, empty store holding exactly `seed`'s organizations and identity providers. */
export type StorageFactory = (seed: StorageSeed) => StorageUnderTest | Promise<StorageUnderTest>;

/** A user log's optional batch write, once the store has one. */
export type AppendNewUsers = NonNullable<UserLog["appendNewUsers"]>;

/** Options of `describeStorageContract`. */
export interface StorageContractOptions {
  /** Parallel writers in the claim race; default 25. */
  readonly racers?: number;
}

const LEASE_MS = 60_000;

function byId(notifications: readonly PendingNotification[]): PendingNotification[] {
  return [...notifications].sort((a, b) => a.id.localeCompare(b.id));
}

function claimText(claim: UniqueClaim): string {
  return JSON.stringify([claim.kind, claim.scope, claim.key]);
}

function sortClaims(claims: readonly UniqueClaim[] | undefined): UniqueClaim[] {
  return [...(claims ?? [])].sort((a, b) => claimText(a).localeCompare(claimText(b)));
}

/** Stores may keep a write's claims in any order (SQL stores insert them in lock order). */
function inAnyClaimOrder(snapshot: StorageSnapshot): StorageSnapshot {
  return { ...snapshot, claims: sortClaims(snapshot.claims) };
}

function pending(id: string, userId: string, index: number, attempts = 0): PendingNotification {
  const notification = notificationOf(userId, "org-a", index);
  expect(notification.id).toBe(id);
  return { ...notification, attempts };
}

function lease(storage: Storage, nowMs: number, limit = 100, ids?: readonly string[]): Promise<readonly PendingNotification[]> {
  const base = { now: at(nowMs), limit, leaseUntil: at(nowMs + LEASE_MS) };
  return storage.outbox.lease(ids === undefined ? base : { ...base, ids });
}

/**
 * Runs every rule of the `Storage` port against stores made by `factory`, one fresh store per
 * test. Call it at the top level of a vitest test file:
 *
 * ```ts
 * describeStorageContract("my store", async (seed) => ({ storage: await myStore(seed), snapshot: ... }));
 * ```
 */
export function describeStorageContract(name: string, factory: StorageFactory, options: StorageContractOptions = {}): void {
  const racers = options.racers ?? 25;
  const seed: StorageSeed = { organizations: contractOrganizations, identityProviders: contractIdentityProviders };

  function withStore(body: (subject: StorageUnderTest) => Promise<void>): () => Promise<void> {
    return async () => {
      const subject = await factory(seed);
      try {
        await body(subject);
      } finally {
        await subject.close?.();
      }
    };
  }

  /** For the optional batch write: the test is skipped, saying why, when the store has none. */
  function withBatchStore(body: (subject: StorageUnderTest, appendNewUsers: AppendNewUsers) => Promise<void>): (context: TestContext) => Promise<void> {
    return async (context) => {
      const subject = await factory(seed);
      try {
        const appendNewUsers = subject.storage.userLog.appendNewUsers?.bind(subject.storage.userLog);
        if (appendNewUsers === undefined) return context.skip("this user log has no appendNewUsers (optional)");
        await body(subject, appendNewUsers);
      } finally {
        await subject.close?.();
      }
    };
  }

  describe(`storage contract: ${name}`, () => {
    describe("directory", () => {
      it("finds an organization by id with its domains and policy", withStore(async ({ storage }) => {
        expect(await storage.directory.findOrganization("org-a")).toEqual(contractOrganizations[0]);
        expect(await storage.directory.findOrganization("org-b")).toEqual(contractOrganizations[1]);
        expect(await storage.directory.findOrganization("org-missing")).toBeUndefined();
      }));

      it("finds an organization by a verified domain, ignoring case", withStore(async ({ storage }) => {
        expect(await storage.directory.findOrganizationByDomain("acme.example")).toEqual(contractOrganizations[0]);
        expect(await storage.directory.findOrganizationByDomain("ACME.EXAMPLE")).toEqual(contractOrganizations[0]);
        expect(await storage.directory.findOrganizationByDomain("Beta.Example")).toEqual(contractOrganizations[1]);
      }));

      it("does not find an organization by an unverified or unknown domain", withStore(async ({ storage }) => {
        expect(await storage.directory.findOrganizationByDomain("pending.example")).toBeUndefined();
        expect(await storage.directory.findOrganizationByDomain("unknown.example")).toBeUndefined();
        expect(await storage.directory.findOrganizationByDomain("acme")).toBeUndefined();
      }));

      it("finds identity providers by id, instance-wide and owned by an organization", withStore(async ({ storage }) => {
        expect(await storage.directory.findIdentityProvider("idp-instance")).toStrictEqual({ id: "idp-instance" });
        expect(await storage.directory.findIdentityProvider("idp-org-a")).toStrictEqual({ id: "idp-org-a", orgId: "org-a" });
        expect(await storage.directory.findIdentityProvider("idp-missing")).toBeUndefined();
      }));
    });

    describe("user log: append and claims", () => {
      it("writes every event, claim and notification of one user", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1", { events: 3, notifications: 2 });
        expect(await storage.userLog.append(write)).toEqual({ ok: true });
        expect(inAnyClaimOrder(await snapshot())).toEqual({
          events: write.events,
          claims: sortClaims(write.claims),
          notifications: write.notifications.map(pendingRecord),
        });
      }));

      it("refuses a write holding a taken claim, names that claim, and writes nothing of it", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1"));
        const before = inAnyClaimOrder(await snapshot());
        const loser = newUserAppend("u2", { claims: [usernameClaim("fresh-name"), usernameClaim("u1-name")], events: 3, notifications: 2 });
        expect(await storage.userLog.append(loser)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("u1-name") });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
        expect(await storage.userLog.loadEvents("u2")).toEqual([]);
        expect(await storage.userLog.findHeldClaims([usernameClaim("fresh-name"), userIdClaim("u2")])).toEqual([]);
        expect(await lease(storage, 0, 100, ["u2-n0", "u2-n1"])).toEqual([]);
      }));

      it("refuses a write with a notification id that a stored one or an earlier one of the write has, names it, and writes nothing of it", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1"));
        const before = inAnyClaimOrder(await snapshot());
        const stored = { ...newUserAppend("u2", { events: 3 }), notifications: [notificationOf("u2", "org-a", 0), { ...notificationOf("u2", "org-a", 1), id: "u1-n0" }] };
        const twice = { ...newUserAppend("u2", { events: 3 }), notifications: [notificationOf("u2", "org-a", 0), notificationOf("u2", "org-a", 0)] };
        expect([await storage.userLog.append(stored), await storage.userLog.append(twice)]).toEqual([
          { ok: false, reason: "notification-id-taken", notificationId: "u1-n0" },
          { ok: false, reason: "notification-id-taken", notificationId: "u2-n0" },
        ]);
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
        // Checked after the claims and the stream, for an existing user's append too.
        const held = { ...stored, claims: [...stored.claims, usernameClaim("u1-name")] };
        expect(await storage.userLog.append(held)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("u1-name") });
        const existing = existingUserAppend("u1", 2, { notifications: [{ ...notificationOf("u1", "org-a", 5), id: "u1-n0" }] });
        expect(await storage.userLog.append(existing)).toEqual({ ok: false, reason: "notification-id-taken", notificationId: "u1-n0" });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
        // With a fresh id the same write goes through.
        expect(await storage.userLog.append({ ...stored, notifications: [notificationOf("u2", "org-a", 0), notificationOf("u2", "org-a", 1)] })).toEqual({ ok: true });
      }));

      it("writes a write that holds no claims", withStore(async ({ storage, snapshot }) => {
        const write = { ...newUserAppend("u1"), claims: [] };
        expect(await storage.userLog.append(write)).toEqual({ ok: true });
        expect(inAnyClaimOrder(await snapshot())).toEqual({ events: write.events, claims: [], notifications: write.notifications.map(pendingRecord) });
      }));

      it("refuses a write that holds one claim twice, writing nothing", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1", { claims: [usernameClaim("twice"), usernameClaim("twice")] });
        expect(await storage.userLog.append(write)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("twice") });
        expect(inAnyClaimOrder(await snapshot())).toEqual({ events: [], claims: [], notifications: [] });
      }));

      it("keeps claims apart by kind and by scope", withStore(async ({ storage, snapshot }) => {
        const first = newUserAppend("u1", { claims: [usernameClaim("same"), { kind: "idp_link", scope: "idp-instance", key: "same" }] });
        const otherScope = newUserAppend("u2", { claims: [usernameClaim("same", "org-a"), { kind: "idp_link", scope: "idp-org-a", key: "same" }] });
        const otherKind = newUserAppend("u3", { claims: [{ kind: "user_id", scope: "", key: "same" }] });
        const sameAll = newUserAppend("u4", { claims: [usernameClaim("same", "org-a")] });
        expect(await storage.userLog.append(first)).toEqual({ ok: true });
        expect(await storage.userLog.append(otherScope)).toEqual({ ok: true });
        expect(await storage.userLog.append(otherKind)).toEqual({ ok: true });
        expect(await storage.userLog.append(sameAll)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("same", "org-a") });
        expect(inAnyClaimOrder(await snapshot()).claims).toEqual(sortClaims([...first.claims, ...otherScope.claims, ...otherKind.claims]));
      }));

      it("keeps claims apart whose kind, scope and key run together into the same text", withStore(async ({ storage }) => {
        // A store keying claims by kind + scope + key with no separator would take these for one.
        const first = newUserAppend("u1", { claims: [{ kind: "idp_link", scope: "idp-1", key: "23" }] });
        const second = newUserAppend("u2", { claims: [{ kind: "idp_link", scope: "idp-12", key: "3" }, { kind: "idp_link", scope: "idp-123", key: "" }] });
        expect([await storage.userLog.append(first), await storage.userLog.append(second)]).toEqual([{ ok: true }, { ok: true }]);
      }));

      it("answers claim-held, naming its user_id claim, for a new user whose id a stream holds already: a new user's claims come before its stream", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2 }));
        const before = inAnyClaimOrder(await snapshot());
        const again = { ...newUserAppend("u1", { events: 1, notifications: 0 }), claims: [userIdClaim("u1"), usernameClaim("fresh-name")] };
        expect(await storage.userLog.append(again)).toEqual({ ok: false, reason: "claim-held", conflict: userIdClaim("u1") });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
      }));

      it("compares claim keys exactly: case, accents and Unicode forms are the core's business", withStore(async ({ storage }) => {
        // The core normalizes usernames before claiming; user ids and external ids are case-sensitive.
        const keys = ["alice", "Alice", "ALICE", "caf\u00e9", "cafe\u0301", "stra\u00dfe", "strasse", "alice "];
        for (const [index, key] of keys.entries()) {
          expect(await storage.userLog.append(newUserAppend(`u${index}`, { claims: [usernameClaim(key)] }))).toEqual({ ok: true });
        }
        expect(await storage.userLog.append(newUserAppend("again", { claims: [usernameClaim("caf\u00e9")] }))).toEqual({
          ok: false,
          reason: "claim-held",
          conflict: usernameClaim("caf\u00e9"),
        });
      }));

      it("reports which of the asked claims are held", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { claims: [usernameClaim("taken"), usernameClaim("scoped", "org-b")] }));
        const asked: UniqueClaim[] = [usernameClaim("free"), usernameClaim("scoped", "org-b"), usernameClaim("scoped"), userIdClaim("u1"), usernameClaim("taken")];
        expect(await storage.userLog.findHeldClaims(asked)).toEqual([usernameClaim("scoped", "org-b"), userIdClaim("u1"), usernameClaim("taken")]);
        expect(await storage.userLog.findHeldClaims([])).toEqual([]);
      }));

      it("names the user holding a claim, comparing kind, scope and key exactly", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { claims: [usernameClaim("ann"), usernameClaim("bob", "org-a")] }));
        await storage.userLog.append(newUserAppend("u2", { claims: [usernameClaim("bob")] }));
        expect(await storage.userLog.findClaimHolder(usernameClaim("ann"))).toBe("u1");
        expect(await storage.userLog.findClaimHolder(usernameClaim("bob", "org-a"))).toBe("u1");
        expect(await storage.userLog.findClaimHolder(usernameClaim("bob"))).toBe("u2");
        expect(await storage.userLog.findClaimHolder(userIdClaim("u2"))).toBe("u2");
        expect(await storage.userLog.findClaimHolder(usernameClaim("Ann"))).toBeUndefined();
        expect(await storage.userLog.findClaimHolder(usernameClaim("ann", "org-a"))).toBeUndefined();
        expect(await storage.userLog.findClaimHolder({ kind: "idp_link", scope: "", key: "ann" })).toBeUndefined();
      }));

      it("names nobody for a claim given up, and the new holder once another user takes it", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { claims: [usernameClaim("moving")] }));
        const release = existingUserAppend("u1", 2, { releasedClaims: [usernameClaim("moving")] });
        expect(await storage.userLog.append(release)).toEqual({ ok: true });
        expect(await storage.userLog.findClaimHolder(usernameClaim("moving"))).toBeUndefined();
        await storage.userLog.append(newUserAppend("u2", { claims: [usernameClaim("moving")] }));
        expect(await storage.userLog.findClaimHolder(usernameClaim("moving"))).toBe("u2");
      }));

      it("names the holders of many claims at once, each with its events, as findClaimHolder and loadEvents would (optional findClaimHolders)", async (context) => {
        const subject = await factory(seed);
        const { storage } = subject;
        try {
          const findClaimHolders = storage.userLog.findClaimHolders?.bind(storage.userLog);
          if (findClaimHolders === undefined) return context.skip("this user log has no findClaimHolders (optional)");
          await storage.userLog.append(newUserAppend("u1", { claims: [usernameClaim("ann"), usernameClaim("bob", "org-a"), usernameClaim("moving")] }));
          await storage.userLog.append(existingUserAppend("u1", 2, { releasedClaims: [usernameClaim("moving")] }));
          await storage.userLog.append(newUserAppend("u2", { claims: [usernameClaim("bob")] }));
          const asked = [usernameClaim("bob"), usernameClaim("ann"), usernameClaim("Ann"), usernameClaim("moving"), usernameClaim("bob", "org-a"), userIdClaim("u2")];
          const u1 = await storage.userLog.loadEvents("u1");
          const u2 = await storage.userLog.loadEvents("u2");
          expect(u1.map((event) => event.sequence)).toEqual([1, 2, 3]);
          const byClaim = (holders: readonly ClaimHolder[]) => [...holders].sort((a, b) => claimText(a.claim).localeCompare(claimText(b.claim)));
          expect(byClaim(await findClaimHolders(asked))).toEqual(
            byClaim([
              { claim: usernameClaim("bob"), userId: "u2", events: u2 },
              { claim: usernameClaim("ann"), userId: "u1", events: u1 },
              { claim: usernameClaim("bob", "org-a"), userId: "u1", events: u1 },
              { claim: userIdClaim("u2"), userId: "u2", events: u2 },
            ]),
          );
          expect(await findClaimHolders([usernameClaim("nobody")])).toEqual([]);
          expect(await findClaimHolders([])).toEqual([]);
        } finally {
          await subject.close?.();
        }
      });

      it(`lets exactly one of ${racers} parallel writers win one claim`, withStore(async ({ storage, snapshot }) => {
        const writes = Array.from({ length: racers }, (_, index) => newUserAppend(`racer${index}`, { claims: [usernameClaim("contested")] }));
        const outcomes = await Promise.all(writes.map((write) => storage.userLog.append(write)));
        const winners = outcomes.flatMap((outcome, index) => (outcome.ok ? [index] : []));
        expect(winners).toHaveLength(1);
        const losers = outcomes.filter((outcome) => !outcome.ok);
        expect(losers).toEqual(Array.from({ length: racers - 1 }, () => ({ ok: false, reason: "claim-held", conflict: usernameClaim("contested") })));
        const winner = writes[winners[0] ?? -1];
        expect(inAnyClaimOrder(await snapshot())).toEqual({
          events: winner?.events,
          claims: sortClaims(winner?.claims),
          notifications: winner?.notifications.map(pendingRecord),
        });
      }));
    });

    describe("user log: existing users racing for a claim", () => {
      it(`lets exactly one of ${racers} existing users taking one claim at once win it, the others told who holds it`, withStore(async ({ storage, snapshot }) => {
        const users = Array.from({ length: racers }, (_, index) => `u${index}`);
        for (const userId of users) await storage.userLog.append(newUserAppend(userId, { events: 1 }));
        const claim = { kind: "passkey", scope: "", key: "credential-1" } as const;
        const outcomes = await Promise.all(users.map((userId) => storage.userLog.append(existingUserAppend(userId, 1, { claims: [claim] }))));
        expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
        expect(outcomes.filter((outcome) => !outcome.ok)).toEqual(Array.from({ length: racers - 1 }, () => ({ ok: false, reason: "claim-held", conflict: claim })));
        const winner = users[outcomes.findIndex((outcome) => outcome.ok)];
        expect(await storage.userLog.findClaimHolder(claim)).toBe(winner);
        // Only the winner's append was written: one more event for it, none for the others.
        const eventCounts = await Promise.all(users.map(async (userId) => (await storage.userLog.loadEvents(userId)).length));
        expect(eventCounts.filter((count) => count === 2)).toHaveLength(1);
        expect(inAnyClaimOrder(await snapshot()).claims.filter((held) => held.kind === "passkey")).toEqual([claim]);
      }));
    });

    describe("user log: appendNewUsers (optional batch of new users)", () => {
      it("writes each write of a batch atomically on its own, in order, answering each", withBatchStore(async ({ storage, snapshot }, appendNewUsers) => {
        const earlier = newUserAppend("u0", { claims: [usernameClaim("held")] });
        await storage.userLog.append(earlier);
        const first = newUserAppend("u1", { claims: [usernameClaim("x")] });
        const loser = newUserAppend("u2", { claims: [usernameClaim("z"), usernameClaim("x")] });
        const afterLoser = newUserAppend("u3", { claims: [usernameClaim("z")] });
        const againstEarlier = newUserAppend("u4", { claims: [usernameClaim("held")] });
        expect(await appendNewUsers([first, loser, afterLoser, againstEarlier])).toEqual([
          { ok: true },
          { ok: false, reason: "claim-held", conflict: usernameClaim("x") },
          // The refused write gave its claim on "z" back: the next write may take it.
          { ok: true },
          { ok: false, reason: "claim-held", conflict: usernameClaim("held") },
        ]);
        const kept = [earlier, first, afterLoser];
        expect(inAnyClaimOrder(await snapshot())).toEqual({
          events: kept.flatMap((write) => write.events),
          claims: sortClaims(kept.flatMap((write) => write.claims)),
          notifications: kept.flatMap((write) => write.notifications.map(pendingRecord)),
        });
      }));

      it("rejects a batch that cannot be written (a write carrying another user's event) and writes none of it", withBatchStore(async ({ snapshot }, appendNewUsers) => {
        const fine = newUserAppend("u1");
        const foreign = { ...newUserAppend("u2"), events: newUserAppend("u3").events };
        await expect(appendNewUsers([fine, foreign])).rejects.toBeInstanceOf(Error);
        expect(inAnyClaimOrder(await snapshot())).toEqual({ events: [], claims: [], notifications: [] });
      }));

      it("refuses a write of a batch whose notification id a stored one or an earlier write of the batch has, and writes the rest", withBatchStore(async ({ storage, snapshot }, appendNewUsers) => {
        const earlier = newUserAppend("u0");
        await storage.userLog.append(earlier);
        const first = newUserAppend("u1");
        const sameAsStored = { ...newUserAppend("u2"), notifications: [{ ...notificationOf("u2", "org-a", 0), id: "u0-n0" }] };
        const sameAsFirst = { ...newUserAppend("u3"), notifications: [{ ...notificationOf("u3", "org-a", 0), id: "u1-n0" }] };
        const twice = { ...newUserAppend("u5"), notifications: [notificationOf("u5", "org-a", 0), notificationOf("u5", "org-a", 0)] };
        const last = newUserAppend("u4");
        expect(await appendNewUsers([first, sameAsStored, sameAsFirst, twice, last])).toEqual([
          { ok: true },
          { ok: false, reason: "notification-id-taken", notificationId: "u0-n0" },
          { ok: false, reason: "notification-id-taken", notificationId: "u1-n0" },
          { ok: false, reason: "notification-id-taken", notificationId: "u5-n0" },
          { ok: true },
        ]);
        const kept = [earlier, first, last];
        expect(inAnyClaimOrder(await snapshot())).toEqual({
          events: kept.flatMap((write) => write.events),
          claims: sortClaims(kept.flatMap((write) => write.claims)),
          notifications: kept.flatMap((write) => write.notifications.map(pendingRecord)),
        });
      }));

      it("writes a write that holds no claims, alone and beside others", withBatchStore(async ({ snapshot }, appendNewUsers) => {
        const unclaimed = { ...newUserAppend("u1"), claims: [] };
        const claimed = newUserAppend("u2");
        expect(await appendNewUsers([unclaimed, claimed])).toEqual([{ ok: true }, { ok: true }]);
        expect(inAnyClaimOrder(await snapshot())).toEqual({
          events: [...unclaimed.events, ...claimed.events],
          claims: sortClaims(claimed.claims),
          notifications: [...unclaimed.notifications, ...claimed.notifications].map(pendingRecord),
        });
      }));

      it("keeps every text of a batch as written, whatever characters a store's own format gives a meaning", withBatchStore(async ({ storage, snapshot }, appendNewUsers) => {
        // Quotes, backslashes, braces, commas and the word NULL mean something in SQL, CSV and
        // array literals; spaces at the ends, line breaks and emoji are easy to lose.
        const texts = ['say "hi"', "ends with a backslash\\", '\\"both\\"', "{braces}", "a,b", "NULL", " padded ", "😀 x", "", "it's"];
        const moreTexts = ["back\\slash", "line\nbreak\ttab", "carriage\r", 'mixed "\\n" \n'];
        const writesOf = (batch: string, list: readonly string[]): UserAppend[] =>
          list.map((text, index) => {
            const base = newUserAppend(`${batch}${index} ${text}`, { claims: [usernameClaim(`${batch} ${text}`)] });
            return {
              ...base,
              events: base.events.map((event) => ({ ...event, type: `${event.type} ${text}`, payload: { ...event.payload, text } })),
              notifications: base.notifications.map((notification) => ({ ...notification, recipient: text, code: text, link: text, displayName: text, username: text })),
              listing: { ...base.listing, username: `${batch} ${text}`, givenName: text, familyName: text, nickName: text, displayName: text, email: text, emailFolded: text, phone: text, displayNameFolded: text },
            };
          });
        const first = writesOf("a", texts);
        expect(await appendNewUsers(first)).toEqual(first.map(() => ({ ok: true })));
        // Line breaks and other escapes, and a write that loses a claim in the batch: stores may write such a batch another way.
        const second = writesOf("b", [...texts, ...moreTexts]);
        const loser = newUserAppend("loser", { claims: [usernameClaim(`a ${texts[0] ?? ""}`)] });
        expect(await appendNewUsers([...second, loser])).toEqual([...second.map(() => ({ ok: true })), { ok: false, reason: "claim-held", conflict: usernameClaim(`a ${texts[0] ?? ""}`) }]);
        const writes = [...first, ...second];
        expect(inAnyClaimOrder(await snapshot())).toEqual({
          events: writes.flatMap((write) => write.events),
          claims: sortClaims(writes.flatMap((write) => write.claims)),
          notifications: writes.flatMap((write) => write.notifications.map(pendingRecord)),
        });
        for (const write of writes) expect(await storage.userLog.loadEvents(write.userId)).toEqual(write.events);
        const byId = (a: { readonly userId: string }, b: { readonly userId: string }) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);
        const page = await storage.userLog.queryUsers({ filter: { all: [] }, sortBy: "userId", ascending: true, offset: 0, limit: 100 });
        expect([...page.users].sort(byId)).toEqual(writes.map((write) => write.listing).sort(byId));
      }));

      it("answers sequence-conflict for a write whose stream exists and whose claims are free, gives them back, and writes the rest of the batch", withBatchStore(async ({ storage, snapshot }, appendNewUsers) => {
        const existing = { ...newUserAppend("u1", { events: 3 }), claims: [] };
        await storage.userLog.append(existing);
        const claimless = { ...newUserAppend("u1", { notifications: 0 }), claims: [] };
        const withFreeClaim = newUserAppend("u1", { notifications: 0, claims: [usernameClaim("free")] });
        const other = newUserAppend("u2");
        const twice = { ...newUserAppend("u3", { notifications: 0 }), claims: [] };
        const conflict = (actualSequence: number) => ({ ok: false, reason: "sequence-conflict", actualSequence }) as const;
        // Its claims (its user_id claim among them: u1 was written without one) are free: the stream decides.
        expect(await appendNewUsers([claimless, other, withFreeClaim])).toEqual([conflict(3), { ok: true }, conflict(3)]);
        // Of two writes of one new stream in a batch, the second finds the first's.
        expect(await appendNewUsers([twice, { ...twice }])).toEqual([{ ok: true }, conflict(2)]);
        expect(inAnyClaimOrder(await snapshot())).toEqual({
          events: [...existing.events, ...other.events, ...twice.events],
          claims: sortClaims(other.claims),
          notifications: [...existing.notifications, ...other.notifications].map(pendingRecord),
        });
        for (const claim of withFreeClaim.claims) expect(await storage.userLog.findClaimHolder(claim)).toBeUndefined();
      }));

      it("names a claim another user holds before one the write repeats, as append does", withBatchStore(async ({ storage, snapshot }, appendNewUsers) => {
        await storage.userLog.append(newUserAppend("holder", { claims: [usernameClaim("held")] }));
        const before = inAnyClaimOrder(await snapshot());
        const write = newUserAppend("r1", { claims: [usernameClaim("x"), usernameClaim("x"), usernameClaim("held")] });
        expect(await appendNewUsers([write])).toEqual([{ ok: false, reason: "claim-held", conflict: usernameClaim("held") }]);
        expect(await storage.userLog.append(write)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("held") });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
      }));

      it("answers as leased exactly the notifications a batch wrote leased to the writer, and hands out the others", withBatchStore(async ({ storage, snapshot }, appendNewUsers) => {
        await storage.userLog.append(newUserAppend("holder", { notifications: 0, claims: [usernameClaim("held")] }));
        const leasedWrite = (userId: string, claims?: readonly UniqueClaim[]) => ({ ...newUserAppend(userId, { notifications: 2, ...(claims === undefined ? {} : { claims }) }), leaseNotificationsUntil: at(LEASE_MS) });
        // A batch written at once, and one with a write that loses a claim: stores may write such a batch another way.
        const outcomes = [...(await appendNewUsers([leasedWrite("u1"), leasedWrite("u2")])), ...(await appendNewUsers([leasedWrite("u3"), leasedWrite("u4", [usernameClaim("held")])]))];
        expect(outcomes[3]).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("held") });
        const records = (await snapshot()).notifications;
        for (const [at_, userId] of ["u1", "u2", "u3"].entries()) {
          const outcome = outcomes[at_];
          const mine = records.filter((record) => record.userId === userId);
          expect(mine).toHaveLength(2);
          if (outcome?.ok === true && outcome.leased !== undefined) {
            // Answered leased: written leased until then, whole, no attempts yet.
            expect(outcome.leased).toEqual(mine.map(({ leasedUntil: _until, state: _state, ...notification }) => notification));
            expect(mine.map((record) => record.leasedUntil)).toEqual([at(LEASE_MS).toISOString(), at(LEASE_MS).toISOString()]);
          } else {
            expect(outcome).toEqual({ ok: true });
            expect(mine.map((record) => record.leasedUntil)).toEqual([undefined, undefined]);
          }
        }
        // What was answered leased is the writer's until the lease ends; the rest is due now.
        const answeredLeased = new Set(outcomes.flatMap((outcome) => (outcome.ok ? (outcome.leased ?? []).map((notification) => notification.id) : [])));
        const due = records.filter((record) => !answeredLeased.has(record.id)).map((record) => record.id);
        expect((await lease(storage, 0)).map((notification) => notification.id).sort()).toEqual([...due].sort());
      }));

      it("answers an empty batch with nothing", withBatchStore(async ({ snapshot }, appendNewUsers) => {
        expect(await appendNewUsers([])).toEqual([]);
        expect(inAnyClaimOrder(await snapshot())).toEqual({ events: [], claims: [], notifications: [] });
      }));

      it("answers a long batch of chained claims as append one after another would", withBatchStore(async ({ storage, snapshot }, appendNewUsers) => {
        await storage.userLog.append(newUserAppend("held", { claims: [usernameClaim("k3"), usernameClaim("k10")] }));
        // Write i claims k(i) and k(i+1), some also k(i) twice: each decision hangs on the ones before it.
        const writes = Array.from({ length: 40 }, (_, index) => {
          const claims = [usernameClaim(`k${index % 17}`), usernameClaim(`k${(index + 1) % 17}`)];
          return newUserAppend(`w${index}`, { claims: index % 11 === 5 ? [...claims, claims[0] ?? usernameClaim("")] : claims });
        });
        const held = new Set(["k3", "k10"].map((key) => claimText(usernameClaim(key))));
        const expected = writes.map((write): AppendOutcome => {
          const wanted = write.claims.map(claimText);
          const conflict = write.claims.find((claim, index) => held.has(claimText(claim)) || wanted.indexOf(claimText(claim)) < index);
          if (conflict !== undefined) return { ok: false, reason: "claim-held", conflict };
          for (const key of wanted) held.add(key);
          return { ok: true };
        });
        expect(await appendNewUsers(writes)).toEqual(expected);
        const kept = writes.filter((_, index) => expected[index]?.ok === true);
        expect(kept.length).toBeGreaterThan(0);
        // Batches may write their users in another order than given: compared user by user.
        const byUser = (events: readonly StoredEvent[]) => [...events].sort((a, b) => a.aggregateId.localeCompare(b.aggregateId) || a.sequence - b.sequence);
        expect(byUser((await snapshot()).events.filter((event) => event.aggregateId !== "held"))).toEqual(byUser(kept.flatMap((write) => write.events)));
      }));

      it("lets parallel batches claiming the same keys in different orders each key win once", withBatchStore(async ({ snapshot }, appendNewUsers) => {
        const keys = 5;
        const batches = Array.from({ length: 4 }, (_, batch) =>
          Array.from({ length: keys }, (_, index) => newUserAppend(`b${batch}-${index}`, { claims: [usernameClaim(`shared-${(batch + index) % keys}`)] })),
        );
        const outcomes = (await Promise.all(batches.map((batch) => appendNewUsers(batch)))).flat();
        expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(keys);
        const usernames = inAnyClaimOrder(await snapshot()).claims.filter((claim) => claim.kind === "username");
        expect(usernames).toEqual(Array.from({ length: keys }, (_, index) => usernameClaim(`shared-${index}`)));
      }));
    });

    describe("user log: events", () => {
      it("keeps each user's sequences and payloads, and loads one user's events in sequence order", withStore(async ({ storage }) => {
        const first = newUserAppend("u1", { events: 4 });
        const second = newUserAppend("u2", { events: 2 });
        // Written out of order: loadEvents orders by sequence, not by position in the write.
        const shuffled = { ...first, events: [first.events[2], first.events[0], first.events[3], first.events[1]].flatMap((event) => (event ? [event] : [])) };
        await storage.userLog.append(shuffled);
        await storage.userLog.append(second);
        expect(await storage.userLog.loadEvents("u1")).toEqual(first.events);
        expect(await storage.userLog.loadEvents("u2")).toEqual(second.events);
        expect(await storage.userLog.loadEvents("nobody")).toEqual([]);
      }));

      it("keeps the milliseconds of event times, of new and of existing users", withStore(async ({ storage, snapshot }) => {
        const timed = (events: readonly StoredEvent[], times: readonly string[]) => events.map((event, index) => ({ ...event, createdAt: times[index] ?? event.createdAt }));
        const created = newUserAppend("u1", { events: 3 });
        const first = { ...created, events: timed(created.events, ["2030-01-01T00:00:00.123Z", "2030-01-01T00:00:00.007Z", "2030-01-01T00:00:01.990Z"]) };
        expect(await storage.userLog.append(first)).toEqual({ ok: true });
        const changed = existingUserAppend("u1", 3);
        const second = { ...changed, events: timed(changed.events, ["2030-01-01T00:00:02.456Z"]) };
        expect(await storage.userLog.append(second)).toEqual({ ok: true });
        expect(await storage.userLog.loadEvents("u1")).toEqual([...first.events, ...second.events]);
        expect((await snapshot()).events).toEqual([...first.events, ...second.events]);
      }));

      it("keeps the events of many users apart", withStore(async ({ storage }) => {
        const users = ["a", "b", "c", "d"];
        await Promise.all(users.map((userId) => storage.userLog.append(newUserAppend(userId, { events: 3 }))));
        for (const userId of users) {
          expect(await storage.userLog.loadEvents(userId)).toEqual([1, 2, 3].map((sequence) => eventOf(userId, "org-a", sequence)));
        }
      }));
    });

    describe("user log: streams of existing users", () => {
      const APPENDERS = 50;

      it("appends to an existing user after its last sequence, with the append's claims", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2 }));
        const next = existingUserAppend("u1", 2, { events: 2, claims: [usernameClaim("second-name")] });
        expect(await storage.userLog.append(next)).toEqual({ ok: true });
        expect(await storage.userLog.loadEvents("u1")).toEqual([1, 2, 3, 4].map((sequence) => eventOf("u1", "org-a", sequence)));
        expect(await storage.userLog.findHeldClaims([usernameClaim("second-name")])).toEqual([usernameClaim("second-name")]);
      }));

      it("refuses an append at a sequence the stream is not at, with the actual one, and writes nothing", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2 }));
        const before = inAnyClaimOrder(await snapshot());
        for (const expected of [1, 3, 7]) {
          const stale = existingUserAppend("u1", expected, { claims: [usernameClaim(`name-${expected}`)] });
          expect(await storage.userLog.append(stale)).toEqual({ ok: false, reason: "sequence-conflict", actualSequence: 2 });
        }
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
      }));

      it("keeps the claims an append gives up, and leaves the ones it takes free, when it is refused for a moved sequence", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2, claims: [usernameClaim("old-name")] }));
        const before = inAnyClaimOrder(await snapshot());
        const stale = existingUserAppend("u1", 1, { claims: [usernameClaim("new-name")], releasedClaims: [usernameClaim("old-name")] });
        expect(await storage.userLog.append(stale)).toEqual({ ok: false, reason: "sequence-conflict", actualSequence: 2 });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
        expect(await storage.userLog.findHeldClaims([usernameClaim("old-name"), usernameClaim("new-name")])).toEqual([usernameClaim("old-name")]);
        expect(await storage.userLog.findClaimHolder(usernameClaim("old-name"))).toBe("u1");
      }));

      it("writes the notifications of an append to an existing user, whole and due, and none of one refused", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2 }));
        await storage.userLog.append(newUserAppend("u2"));
        const before = inAnyClaimOrder(await snapshot());
        const notifications = [notificationOf("u1", "org-a", 1), notificationOf("u1", "org-a", 2)];
        const stale = existingUserAppend("u1", 1, { notifications });
        expect(await storage.userLog.append(stale)).toEqual({ ok: false, reason: "sequence-conflict", actualSequence: 2 });
        const taken = existingUserAppend("u1", 2, { claims: [usernameClaim("u2-name")], notifications });
        expect(await storage.userLog.append(taken)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("u2-name") });
        const ghost = existingUserAppend("ghost", 2, { notifications: [notificationOf("ghost", "org-a", 0)] });
        expect(await storage.userLog.append(ghost)).toEqual({ ok: false, reason: "user-not-found" });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
        expect(await storage.userLog.append(existingUserAppend("u1", 2, { notifications }))).toEqual({ ok: true });
        expect((await snapshot()).notifications).toEqual([...before.notifications, ...notifications.map(pendingRecord)]);
        expect(byId(await lease(storage, 0))).toEqual([pending("u1-n0", "u1", 0), pending("u1-n1", "u1", 1), pending("u1-n2", "u1", 2), pending("u2-n0", "u2", 0)]);
      }));

      it("makes the user's pending notifications of the kinds an append withdraws dead, and no others, only when the append is written", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1, notifications: 2 }));
        await storage.userLog.append(newUserAppend("u2", { notifications: 1 }));
        const replacing = { ...existingUserAppend("u1", 1, { notifications: [notificationOf("u1", "org-a", 2)] }), withdrawnNotificationKinds: ["email.verification"] };
        const before = await snapshot();
        expect(await storage.userLog.append({ ...replacing, claims: [usernameClaim("u2-name")] })).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("u2-name") });
        expect((await snapshot()).notifications).toEqual(before.notifications);
        expect(await storage.userLog.append(replacing)).toEqual({ ok: true });
        const [emailCode, phoneCode] = [notificationOf("u1", "org-a", 0), notificationOf("u1", "org-a", 1)];
        const withdrawn = { ...pendingRecord(emailCode), code: "", link: "", state: "dead", failedAt: replacing.events[0]?.createdAt, lastError: "its code no longer works" };
        expect((await snapshot()).notifications).toEqual([withdrawn, pendingRecord(phoneCode), pendingRecord(notificationOf("u2", "org-a", 0)), pendingRecord(notificationOf("u1", "org-a", 2))]);
      }));

      it("records the delivery of a notification withdrawn while it was being sent (the mail went out), and no failure of one", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1, notifications: 2 }));
        await lease(storage, 0);
        const withdrawing = { ...existingUserAppend("u1", 1), withdrawnNotificationKinds: ["email.verification", "phone.verification"] };
        expect(await storage.userLog.append(withdrawing)).toEqual({ ok: true });
        await storage.outbox.markDelivered("u1-n0", at(1_000));
        await storage.outbox.markFailed("u1-n1", { at: at(1_000), error: "smtp 451", retryAt: at(30_000) });
        const withdrawn = (index: number) => ({ ...pendingRecord(notificationOf("u1", "org-a", index)), code: "", link: "", state: "dead", failedAt: withdrawing.events[0]?.createdAt, lastError: "its code no longer works" });
        expect((await snapshot()).notifications).toEqual([{ ...withdrawn(0), state: "delivered", deliveredAt: at(1_000).toISOString() }, withdrawn(1)]);
        expect(await lease(storage, LEASE_MS * 1_000)).toEqual([]);
      }));

      it("leaves delivered and dead notifications as they are when an append withdraws their kinds: only pending ones die", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1, notifications: 2 }));
        await lease(storage, 0);
        await storage.outbox.markDelivered("u1-n0", at(1_000));
        await storage.outbox.markFailed("u1-n1", { at: at(1_000), error: "550 mailbox unknown" });
        const finished = (await snapshot()).notifications;
        const withdrawing = { ...existingUserAppend("u1", 1), withdrawnNotificationKinds: ["email.verification", "phone.verification"] };
        expect(await storage.userLog.append(withdrawing)).toEqual({ ok: true });
        expect((await snapshot()).notifications).toEqual(finished);
      }));

      it("keeps both an append and a lease that run at once: neither undoes the other", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { notifications: 1 }));
        const write = newUserAppend("u2", { notifications: 1 });
        const [appended, leased] = await Promise.all([storage.userLog.append(write), lease(storage, 0)]);
        expect(appended).toEqual({ ok: true });
        expect((await storage.userLog.loadEvents("u2")).length).toBe(write.events.length);
        expect(await storage.userLog.findHeldClaims(write.claims)).toEqual(write.claims);
        // The lease took u1's notification, and u2's if it came first; whatever it took stays leased.
        const taken = new Set(leased.map((notification) => notification.id));
        expect(taken.has("u1-n0")).toBe(true);
        const records = (await snapshot()).notifications;
        expect(records.map((record) => [record.id, record.state, record.leasedUntil !== undefined]).sort()).toEqual(
          [["u1-n0", "pending", true], ["u2-n0", "pending", taken.has("u2-n0")]].sort(),
        );
      }));

      it("checks an existing user's sequence before its claims", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2 }));
        await storage.userLog.append(newUserAppend("u2"));
        const both = existingUserAppend("u1", 1, { claims: [usernameClaim("u2-name")] });
        expect(await storage.userLog.append(both)).toEqual({ ok: false, reason: "sequence-conflict", actualSequence: 2 });
      }));

      it("refuses a new user whose stream exists already, even without claims", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2 }));
        const again = { ...newUserAppend("u1", { events: 1, notifications: 0 }), claims: [] };
        expect(await storage.userLog.append(again)).toEqual({ ok: false, reason: "sequence-conflict", actualSequence: 2 });
        expect(await storage.userLog.loadEvents("u1")).toEqual([1, 2].map((sequence) => eventOf("u1", "org-a", sequence)));
      }));

      it("answers user-not-found for an append to a user that does not exist, and writes nothing", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1"));
        const before = inAnyClaimOrder(await snapshot());
        const ghost = existingUserAppend("ghost", 3, { claims: [usernameClaim("ghost-name")], releasedClaims: [usernameClaim("u1-name")] });
        expect(await storage.userLog.append(ghost)).toEqual({ ok: false, reason: "user-not-found" });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
        expect(await storage.userLog.loadEvents("ghost")).toEqual([]);
      }));

      it("answers user-not-found before looking at the claims of an append to a user that does not exist", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1"));
        expect(await storage.userLog.append(existingUserAppend("ghost", 3, { claims: [usernameClaim("u1-name")] }))).toEqual({ ok: false, reason: "user-not-found" });
      }));

      it("refuses an append to an existing user that takes one claim twice, writing nothing", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1 }));
        const before = inAnyClaimOrder(await snapshot());
        const twice = existingUserAppend("u1", 1, { claims: [usernameClaim("twice"), usernameClaim("twice")] });
        expect(await storage.userLog.append(twice)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("twice") });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
      }));

      it(`lets exactly one of ${APPENDERS} parallel appends at one sequence win, the others answered with the new sequence`, withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 2 }));
        const outcomes = await Promise.all(Array.from({ length: APPENDERS }, () => storage.userLog.append(existingUserAppend("u1", 2))));
        expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
        expect(outcomes.filter((outcome) => !outcome.ok)).toEqual(
          Array.from({ length: APPENDERS - 1 }, () => ({ ok: false, reason: "sequence-conflict", actualSequence: 3 })),
        );
        expect(await storage.userLog.loadEvents("u1")).toEqual([1, 2, 3].map((sequence) => eventOf("u1", "org-a", sequence)));
      }));

      it(`lets ${APPENDERS} appenders that try again after a conflict all land, one event per sequence, no gaps`, withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1 }));
        await Promise.all(
          Array.from({ length: APPENDERS }, async () => {
            // Bounded, so that a store that never lets an appender land fails here rather than hang the run.
            for (let attempt = 1; attempt <= APPENDERS * 4; attempt++) {
              const last = (await storage.userLog.loadEvents("u1")).length;
              const outcome = await storage.userLog.append(existingUserAppend("u1", last));
              if (outcome.ok) return;
              expect(outcome).toMatchObject({ ok: false, reason: "sequence-conflict" });
            }
            expect.fail(`an appender was refused ${APPENDERS * 4} times at the sequence loadEvents gave it: loadEvents or the sequence check reads a stale stream`);
          }),
        );
        const sequences = (await storage.userLog.loadEvents("u1")).map((event) => event.sequence);
        expect(sequences).toEqual(Array.from({ length: APPENDERS + 1 }, (_, index) => index + 1));
      }));

      it("never shows a reader part of an append: appends of three events, read while they land, are seen whole or not at all", withStore(async ({ storage }) => {
        const APPENDS = 20;
        await storage.userLog.append(newUserAppend("u1", { events: 3 }));
        const seen: number[][] = [];
        let landed = 0;
        const reader = async (): Promise<void> => {
          while (landed < APPENDS) {
            seen.push((await storage.userLog.loadEvents("u1")).map((event) => event.sequence));
            // A turn of the event loop: a store whose append waits on real I/O gets to finish it.
            await new Promise((resolve) => setTimeout(resolve, 0));
          }
        };
        const writer = async (): Promise<void> => {
          for (; landed < APPENDS; landed++) expect(await storage.userLog.append(existingUserAppend("u1", 3 + landed * 3, { events: 3 }))).toEqual({ ok: true });
        };
        await Promise.all([writer(), reader(), reader()]);
        const partial = seen.filter((sequences) => sequences.length % 3 !== 0 || sequences.some((sequence, index) => sequence !== index + 1));
        expect(partial, "a read saw some of an append's events without the others, or a gap").toEqual([]);
        expect((await storage.userLog.loadEvents("u1")).length).toBe(3 + APPENDS * 3);
      }));

      it("lets a released claim be taken again by another user", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1, claims: [usernameClaim("ann")] }));
        expect(await storage.userLog.append(newUserAppend("u2", { claims: [usernameClaim("ann")] }))).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("ann") });
        expect(await storage.userLog.append(existingUserAppend("u1", 1, { releasedClaims: [usernameClaim("ann")] }))).toEqual({ ok: true });
        expect(await storage.userLog.findHeldClaims([usernameClaim("ann")])).toEqual([]);
        expect(await storage.userLog.append(newUserAppend("u2", { claims: [usernameClaim("ann")] }))).toEqual({ ok: true });
      }));

      it("releases one claim and takes another in one append, or does neither", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1, claims: [usernameClaim("old-name")] }));
        await storage.userLog.append(newUserAppend("u2", { claims: [usernameClaim("taken-name")] }));
        const before = inAnyClaimOrder(await snapshot());
        // The claim taken is held by another user: nothing happens, the old one stays held.
        const refused = existingUserAppend("u1", 1, { claims: [usernameClaim("taken-name")], releasedClaims: [usernameClaim("old-name")] });
        expect(await storage.userLog.append(refused)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("taken-name") });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
        const renamed = existingUserAppend("u1", 1, { claims: [usernameClaim("new-name")], releasedClaims: [usernameClaim("old-name")] });
        expect(await storage.userLog.append(renamed)).toEqual({ ok: true });
        expect(await storage.userLog.findHeldClaims([usernameClaim("old-name"), usernameClaim("new-name")])).toEqual([usernameClaim("new-name")]);
        expect(await storage.userLog.append(newUserAppend("u3", { claims: [usernameClaim("old-name")] }))).toEqual({ ok: true });
      }));

      it("refuses an append that gives up a claim and takes it again (claim-held), and changes nothing", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1, claims: [usernameClaim("ann")] }));
        const before = inAnyClaimOrder(await snapshot());
        // The core never writes this (a claim given up and taken again is in neither list): every store answers it the same way.
        const both = existingUserAppend("u1", 1, { claims: [usernameClaim("ann")], releasedClaims: [usernameClaim("ann")] });
        expect(await storage.userLog.append(both)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("ann") });
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
      }));

      it("leaves a claim held by another user when an append names it as given up", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { events: 1 }));
        await storage.userLog.append(newUserAppend("u2", { claims: [usernameClaim("theirs")] }));
        expect(await storage.userLog.append(existingUserAppend("u1", 1, { releasedClaims: [usernameClaim("theirs")] }))).toEqual({ ok: true });
        expect(await storage.userLog.findHeldClaims([usernameClaim("theirs")])).toEqual([usernameClaim("theirs")]);
      }));
    });

    describeListingContract(withStore, withBatchStore);

    describe("outbox", () => {
      it("hands out due notifications whole, with no attempts yet, and records the lease", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1", { notifications: 2 });
        await storage.userLog.append(write);
        expect(byId(await lease(storage, 0))).toEqual([pending("u1-n0", "u1", 0), pending("u1-n1", "u1", 1)]);
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual(
          write.notifications.map((notification) => ({ ...pendingRecord(notification), leasedUntil: at(LEASE_MS).toISOString() })),
        );
      }));

      for (const [asked, ids] of [["", undefined], [" of the ids asked", ["u1-n4", "u1-n3", "u1-n2", "u1-n1", "u1-n0", "missing"]]] as const) {
        it(`hands out at most \`limit\` notifications per call${asked}, and each only once`, withStore(async ({ storage }) => {
          await storage.userLog.append(newUserAppend("u1", { notifications: 5 }));
          expect(await lease(storage, 0, 0, ids)).toEqual([]);
          const batches = [await lease(storage, 0, 2, ids), await lease(storage, 0, 2, ids), await lease(storage, 0, 2, ids), await lease(storage, 0, 2, ids)];
          expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1, 0]);
          expect(byId(batches.flat()).map((notification) => notification.id)).toEqual(["u1-n0", "u1-n1", "u1-n2", "u1-n3", "u1-n4"]);
        }));
      }

      it("hands out due notifications in writing order, the oldest first", withStore(async ({ storage }) => {
        // u2 is written first: writing order is not the order of the ids.
        await storage.userLog.append(newUserAppend("u2", { notifications: 3 }));
        await storage.userLog.append(newUserAppend("u1", { notifications: 2 }));
        expect(await lease(storage, 0, 2)).toEqual([pending("u2-n0", "u2", 0), pending("u2-n1", "u2", 1)]);
        expect(await lease(storage, 0)).toEqual([pending("u2-n2", "u2", 2), pending("u1-n0", "u1", 0), pending("u1-n1", "u1", 1)]);
      }));

      it("hands out the asked ids once each, in writing order, however they are asked", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { notifications: 3 }));
        expect(await lease(storage, 0, 100, ["u1-n2", "u1-n0", "u1-n2", "u1-n0"])).toEqual([pending("u1-n0", "u1", 0), pending("u1-n2", "u1", 2)]);
      }));

      it("hands out only the asked ids when `ids` is given", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1", { notifications: 3 }));
        await storage.userLog.append(newUserAppend("u2", { notifications: 1 }));
        expect(await lease(storage, 0, 100, [])).toEqual([]);
        expect(byId(await lease(storage, 0, 100, ["u1-n2", "u2-n0", "missing"]))).toEqual([pending("u1-n2", "u1", 2), pending("u2-n0", "u2", 0)]);
        expect(byId(await lease(storage, 0, 100))).toEqual([pending("u1-n0", "u1", 0), pending("u1-n1", "u1", 1)]);
      }));

      it("hides leased notifications until the lease ends, then hands them out again", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1"));
        expect(await lease(storage, 0)).toEqual([pending("u1-n0", "u1", 0)]);
        expect(await lease(storage, LEASE_MS - 1)).toEqual([]);
        expect(await lease(storage, LEASE_MS)).toEqual([pending("u1-n0", "u1", 0)]);
      }));

      it("hides a leased notification until the end of the lease asked for, however long", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        const leaseUntil = async (nowMs: number, untilMs: number) => {
          expect(await storage.outbox.lease({ now: at(nowMs), limit: 100, leaseUntil: at(untilMs) })).toEqual([pending("u1-n0", "u1", 0)]);
          expect((await snapshot()).notifications).toEqual(write.notifications.map((notification) => ({ ...pendingRecord(notification), leasedUntil: at(untilMs).toISOString() })));
        };
        await leaseUntil(0, 5 * LEASE_MS);
        expect(await lease(storage, 5 * LEASE_MS - 1)).toEqual([]);
        expect(await lease(storage, 5 * LEASE_MS - 1, 100, ["u1-n0"])).toEqual([]);
        await leaseUntil(5 * LEASE_MS, 5 * LEASE_MS + 10_000);
        expect(await lease(storage, 5 * LEASE_MS + 9_999)).toEqual([]);
        expect(await lease(storage, 5 * LEASE_MS + 10_000)).toEqual([pending("u1-n0", "u1", 0)]);
      }));

      const parallelUsers = ["u1", "u2", "u3", "u4"];
      const idsOf = (userId: string) => [0, 1, 2, 3, 4].map((index) => `${userId}-n${index}`);

      for (const [asked, leaseOne] of [
        ["", (storage: Storage) => lease(storage, 0, 3)],
        // Each caller asks for two users' notifications by id: each notification is asked for by four callers.
        [", also when they ask for it by id", (storage: Storage, caller: number) => lease(storage, 0, 100, [caller, caller + 1].flatMap((index) => idsOf(parallelUsers[index % 4] ?? "")))],
      ] as const) {
        it(`never hands one notification to two parallel callers${asked}`, withStore(async ({ storage }) => {
          await Promise.all(parallelUsers.map((userId) => storage.userLog.append(newUserAppend(userId, { notifications: 5 }))));
          const batches = await Promise.all(Array.from({ length: 8 }, (_, caller) => leaseOne(storage, caller)));
          const ids = batches.flat().map((notification) => notification.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids.sort()).toEqual(parallelUsers.flatMap(idsOf).sort());
        }));
      }

      it("writes an append's notifications leased to the writer when it asks, and hands them out once the lease is over", withStore(async ({ storage, snapshot }) => {
        const write = { ...newUserAppend("u1", { notifications: 2 }), leaseNotificationsUntil: at(LEASE_MS) };
        const outcome = await storage.userLog.append(write);
        if (outcome.ok && outcome.leased === undefined) {
          // A store that cannot lease in the write writes them free: the writer leases them itself.
          expect(outcome).toEqual({ ok: true });
          expect(byId(await lease(storage, 0))).toEqual([pending("u1-n0", "u1", 0), pending("u1-n1", "u1", 1)]);
          return;
        }
        expect(outcome).toEqual({ ok: true, leased: [pending("u1-n0", "u1", 0), pending("u1-n1", "u1", 1)] });
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual(
          write.notifications.map((notification) => ({ ...pendingRecord(notification), leasedUntil: at(LEASE_MS).toISOString() })),
        );
        // A writer that never reports on them (its process died) leaves them to whoever leases after the lease.
        expect(await lease(storage, LEASE_MS - 1)).toEqual([]);
        expect(await lease(storage, LEASE_MS - 1, 100, ["u1-n0"])).toEqual([]);
        expect(byId(await lease(storage, LEASE_MS))).toEqual([pending("u1-n0", "u1", 0), pending("u1-n1", "u1", 1)]);
        expect(await lease(storage, LEASE_MS)).toEqual([]);
      }));

      it("leases nothing for an append that is refused, and nothing when not asked", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1", { notifications: 0 }));
        const refused = { ...existingUserAppend("u1", 1), notifications: [notificationOf("u1", "org-a", 0)], leaseNotificationsUntil: at(LEASE_MS) };
        expect(await storage.userLog.append(refused)).toEqual({ ok: false, reason: "sequence-conflict", actualSequence: 2 });
        expect(await storage.userLog.append(newUserAppend("u2", { notifications: 1 }))).toEqual({ ok: true });
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([pendingRecord(notificationOf("u2", "org-a", 0))]);
      }));

      it("records every delivery of many reported at once, each with its own time", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1", { notifications: 4 });
        await storage.userLog.append(write);
        await lease(storage, 0);
        await Promise.all(write.notifications.map((notification, index) => storage.outbox.markDelivered(notification.id, at(1_000 + index))));
        await Promise.all([storage.outbox.markDelivered("missing", at(5_000)), storage.outbox.markDelivered("u1-n0", at(9_000))]);
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual(
          write.notifications.map((notification, index) => ({ ...pendingRecord(notification), code: "", link: "", state: "delivered", deliveredAt: at(1_000 + index).toISOString() })),
        );
        expect(await lease(storage, LEASE_MS * 1_000)).toEqual([]);
      }));

      it("erases code and link on delivery and never hands a delivered notification out again", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        await lease(storage, 0);
        await storage.outbox.markDelivered("u1-n0", at(1_000));
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([
          { ...pendingRecord(write.notifications[0] ?? notificationOf("u1", "org-a", 0)), code: "", link: "", state: "delivered", deliveredAt: at(1_000).toISOString() },
        ]);
        expect(await lease(storage, LEASE_MS * 1_000)).toEqual([]);
        expect(await lease(storage, LEASE_MS * 1_000, 100, ["u1-n0"])).toEqual([]);
      }));

      it("keeps a delivery reported while another caller leases: the mail is not handed out again", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("a", { notifications: 1 }));
        await storage.userLog.append(newUserAppend("b", { notifications: 1 }));
        await lease(storage, 0, 100, ["a-n0"]);
        const [, others] = await Promise.all([storage.outbox.markDelivered("a-n0", at(1_000)), lease(storage, 1_000)]);
        expect(others.map((notification) => notification.id)).toEqual(["b-n0"]);
        const delivered = (await snapshot()).notifications.find((record) => record.id === "a-n0");
        expect([delivered?.state, delivered?.code, delivered?.link]).toEqual(["delivered", "", ""]);
        expect(await lease(storage, LEASE_MS * 1_000)).toEqual([pending("b-n0", "b", 0)]);
      }));

      it("records a delivery reported after its lease ended: a mail that went out was delivered, whoever reports it", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        await lease(storage, 0);
        const late = LEASE_MS * 3;
        await storage.outbox.markDelivered("u1-n0", at(late));
        expect(inAnyClaimOrder(await snapshot()).notifications).toEqual([
          { ...pendingRecord(write.notifications[0] ?? notificationOf("u1", "org-a", 0)), code: "", link: "", state: "delivered", deliveredAt: at(late).toISOString() },
        ]);
        expect(await lease(storage, late + 1)).toEqual([]);
      }));

      it("ignores a failure reported after delivery", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1"));
        await lease(storage, 0);
        await storage.outbox.markDelivered("u1-n0", at(1_000));
        const delivered = inAnyClaimOrder(await snapshot());
        await storage.outbox.markFailed("u1-n0", { at: at(2_000), error: "late", retryAt: at(3_000) });
        expect(inAnyClaimOrder(await snapshot())).toEqual(delivered);
        expect(await lease(storage, 10_000)).toEqual([]);
      }));

      it("schedules a failed notification again only from its retry time, counting the attempt", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        await lease(storage, 0);
        await storage.outbox.markFailed("u1-n0", { at: at(1_000), error: "smtp 451", retryAt: at(30_000) });
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([
          { ...pendingRecord(write.notifications[0] ?? notificationOf("u1", "org-a", 0)), attempts: 1, failedAt: at(1_000).toISOString(), lastError: "smtp 451", retryAt: at(30_000).toISOString() },
        ]);
        expect(await lease(storage, 29_999)).toEqual([]);
        expect(await lease(storage, 29_999, 100, ["u1-n0"])).toEqual([]);
        expect(await lease(storage, 30_000)).toEqual([pending("u1-n0", "u1", 0, 1)]);
        await storage.outbox.markFailed("u1-n0", { at: at(31_000), error: "smtp 451 again", retryAt: at(90_000) });
        expect(await lease(storage, 90_000)).toEqual([pending("u1-n0", "u1", 0, 2)]);
      }));

      it("a retry before the lease would end makes the notification due at its retry time", withStore(async ({ storage }) => {
        await storage.userLog.append(newUserAppend("u1"));
        await lease(storage, 0);
        await storage.outbox.markFailed("u1-n0", { at: at(1_000), error: "refused", retryAt: at(2_000) });
        expect(await lease(storage, 2_000)).toEqual([pending("u1-n0", "u1", 0, 1)]);
      }));

      it("ignores a failure reported under a lease another caller has taken since, and records one under the current lease", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        await lease(storage, 0);
        // The first lease is over: a second caller takes the notification, until 2 * LEASE_MS + 1 s.
        const secondUntil = at(2 * LEASE_MS + 1_000);
        expect(await lease(storage, LEASE_MS + 1_000)).toEqual([pending("u1-n0", "u1", 0)]);
        const taken = inAnyClaimOrder(await snapshot());
        // The first caller's send failed late: its reports free nothing, count nothing, kill nothing.
        // Each says it recorded nothing (false), so that delivery does not report dead what the other sends.
        expect(await storage.outbox.markFailed("u1-n0", { at: at(LEASE_MS + 2_000), error: "stale", retryAt: at(LEASE_MS + 3_000), leasedUntil: at(LEASE_MS) })).toBe(false);
        expect(await storage.outbox.markFailed("u1-n0", { at: at(LEASE_MS + 2_000), error: "stale, last attempt", leasedUntil: at(LEASE_MS) })).toBe(false);
        expect(inAnyClaimOrder(await snapshot())).toEqual(taken);
        expect(await lease(storage, LEASE_MS + 3_000)).toEqual([]);
        // The holder's own report is recorded; the first caller's still changes nothing after it.
        expect(await storage.outbox.markFailed("u1-n0", { at: at(LEASE_MS + 4_000), error: "smtp 451", retryAt: at(LEASE_MS + 5_000), leasedUntil: secondUntil })).toBe(true);
        expect(await storage.outbox.markFailed("u1-n0", { at: at(LEASE_MS + 4_500), error: "stale", leasedUntil: at(LEASE_MS) })).toBe(false);
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([
          { ...pendingRecord(write.notifications[0] ?? notificationOf("u1", "org-a", 0)), attempts: 1, failedAt: at(LEASE_MS + 4_000).toISOString(), lastError: "smtp 451", retryAt: at(LEASE_MS + 5_000).toISOString() },
        ]);
        expect(await lease(storage, LEASE_MS + 5_000)).toEqual([pending("u1-n0", "u1", 0, 1)]);
      }));

      it("keeps a lease's end to the millisecond: a failure reported under a lease ending at .123 s is recorded", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        // The library's lease ends are the clock's time plus the lease: rarely a whole second.
        expect(await lease(storage, 123)).toEqual([pending("u1-n0", "u1", 0)]);
        await storage.outbox.markFailed("u1-n0", { at: at(1_000), error: "smtp 451", retryAt: at(30_000), leasedUntil: at(LEASE_MS + 123) });
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([
          { ...pendingRecord(write.notifications[0] ?? notificationOf("u1", "org-a", 0)), attempts: 1, failedAt: at(1_000).toISOString(), lastError: "smtp 451", retryAt: at(30_000).toISOString() },
        ]);
      }));

      it("records a failure reported under a lease that is over when nobody has taken the notification since", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        await lease(storage, 0);
        expect(await storage.outbox.markFailed("u1-n0", { at: at(LEASE_MS + 2_000), error: "late", leasedUntil: at(LEASE_MS) })).toBe(true);
        const dead = { ...pendingRecord(write.notifications[0] ?? notificationOf("u1", "org-a", 0)), code: "", link: "", state: "dead", attempts: 1, failedAt: at(LEASE_MS + 2_000).toISOString(), lastError: "late" };
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([dead]);
      }));

      it("never hands out a dead notification again, but still shows it as dead", withStore(async ({ storage, snapshot }) => {
        const write = newUserAppend("u1");
        await storage.userLog.append(write);
        await lease(storage, 0);
        await storage.outbox.markFailed("u1-n0", { at: at(1_000), error: "mailbox unknown" });
        const dead = { ...pendingRecord(write.notifications[0] ?? notificationOf("u1", "org-a", 0)), code: "", link: "", state: "dead", attempts: 1, failedAt: at(1_000).toISOString(), lastError: "mailbox unknown" };
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([dead]);
        expect(await lease(storage, LEASE_MS * 1_000)).toEqual([]);
        expect(await lease(storage, LEASE_MS * 1_000, 100, ["u1-n0"])).toEqual([]);
        await storage.outbox.markDelivered("u1-n0", at(2_000));
        expect(await storage.outbox.markFailed("u1-n0", { at: at(3_000), error: "again", retryAt: at(4_000) })).toBe(false);
        expect((inAnyClaimOrder(await snapshot())).notifications).toEqual([dead]);
      }));

      it("ignores reports about unknown notifications", withStore(async ({ storage, snapshot }) => {
        await storage.userLog.append(newUserAppend("u1"));
        const before = inAnyClaimOrder(await snapshot());
        await storage.outbox.markDelivered("missing", T0);
        expect(await storage.outbox.markFailed("missing", { at: T0, error: "x", retryAt: T0 })).toBe(false);
        expect(inAnyClaimOrder(await snapshot())).toEqual(before);
      }));
    });
  });
}
