// The contract suite's section on reads: who holds a claim, and the listings `queryUsers` answers from.
import { describe, expect, it, type TestContext } from "vitest";
import type { AppendNewUsers, StorageUnderTest } from "./storage-contract.js";
import type { ListedUserState, UserFilter, UserListing, UserLog, UserPage, UserQuery } from "../ports/storage.js";
import { T0, at, existingUserAppend, listingOf, newUserAppend, userIdClaim, usernameClaim } from "./storage-fixtures.js";

type WithStore = (body: (subject: StorageUnderTest) => Promise<void>) => () => Promise<void>;
type WithBatchStore = (body: (subject: StorageUnderTest, appendNewUsers: AppendNewUsers) => Promise<void>) => (context: TestContext) => Promise<void>;

const everybody: UserFilter = { all: [] };

function query(filter: UserFilter, overrides: Partial<UserQuery> = {}): UserQuery {
  return { filter, sortBy: "userId", ascending: true, offset: 0, limit: 100, ...overrides };
}

/** One user's listing with the texts a query looks at; folded copies as the core would fold them. */
function person(userId: string, username: string, email: string, displayName: string, extra: Partial<UserListing> = {}): UserListing {
  return listingOf(userId, extra.orgId ?? "org-a", 2, {
    username,
    email,
    displayName,
    usernameFolded: username.toLowerCase(),
    emailFolded: email.toLowerCase(),
    displayNameFolded: displayName.toLowerCase(),
    ...extra,
  });
}

// The folded copies of `STRASSE` and `straße` are one text, as NFKC_Casefold makes them.
const PEOPLE: readonly UserListing[] = [
  person("p1", "Alice", "alice@Acme.example", "Alice Smith"),
  person("p2", "alicia", "ALICIA@beta.example", "Alicia Keys", { orgId: "org-b", state: "USER_STATE_INITIAL" }),
  person("p3", "Bob_%", "bob@acme.example", "Bob", { state: "USER_STATE_LOCKED" }),
  person("p4", "STRASSE", "s1@acme.example", "Strasse", { usernameFolded: "strasse" }),
  person("p5", "straße", "s2@acme.example", "Straße", { usernameFolded: "strasse", displayNameFolded: "strasse" }),
  person("p6", "zz\u{d7ff}a", "z1@acme.example", "z"),
  person("p7", "zz\u{e000}", "z2@acme.example", "z"),
  person("p8", "zz\u{10ffff}\u{10ffff}", "z3@acme.example", "z"),
  person("p9", "zz\u{10ffff}a", "z4@acme.example", "z"),
];

/** A page as a store must answer it: the total, and the listings of `ids` in that order. */
function pageOf(listings: readonly UserListing[], ids: readonly string[], totalResult = ids.length): UserPage {
  const byId = new Map(listings.map((listing) => [listing.userId, listing]));
  return { totalResult, users: ids.map((id) => byId.get(id) ?? listingOf(`missing ${id}`, "", 0)) };
}

async function appendAll(userLog: UserLog, listings: readonly UserListing[]): Promise<void> {
  for (const listing of listings) {
    const outcome = await userLog.append({ ...newUserAppend(listing.userId, { orgId: listing.orgId, events: listing.sequence, notifications: 0 }), listing });
    expect(outcome).toEqual({ ok: true });
  }
}

export function describeListingContract(withStore: WithStore, withBatchStore: WithBatchStore): void {
  describe("user log: claim holders and listings", () => {
    it("finds the holder of a claim, exactly, and nobody once it is given up", withStore(async ({ storage }) => {
      const { userLog } = storage;
      await userLog.append(newUserAppend("u1", { events: 1 }));
      expect(await userLog.findClaimHolder(usernameClaim("u1-name"))).toBe("u1");
      expect(await userLog.findClaimHolder(userIdClaim("u1"))).toBe("u1");
      expect(await userLog.findClaimHolder(usernameClaim("u1-name", "org-a"))).toBeUndefined();
      expect(await userLog.findClaimHolder(usernameClaim("U1-NAME"))).toBeUndefined();
      expect(await userLog.findClaimHolder({ kind: "idp_link", scope: "", key: "u1-name" })).toBeUndefined();
      await userLog.append(existingUserAppend("u1", 1, { claims: [usernameClaim("renamed")], releasedClaims: [usernameClaim("u1-name")] }));
      expect(await userLog.findClaimHolder(usernameClaim("u1-name"))).toBeUndefined();
      expect(await userLog.findClaimHolder(usernameClaim("renamed"))).toBe("u1");
    }));

    it("keeps the listing an append carries, whole, and the next append's replaces it", withStore(async ({ storage }) => {
      const { userLog } = storage;
      const first = listingOf("u1", "org-a", 2, { phone: "+41791234567", phoneVerified: true, passwordChangeRequired: true, passwordChangedAt: T0.toISOString(), nickName: "Ada" });
      await userLog.append({ ...newUserAppend("u1", { events: 2 }), listing: first });
      expect(await userLog.queryUsers(query(everybody))).toEqual({ totalResult: 1, users: [first] });
      const second = listingOf("u1", "org-a", 3, { emailVerified: true, state: "USER_STATE_LOCKED", changedAt: at(5_000).toISOString() });
      await userLog.append({ ...existingUserAppend("u1", 2), listing: second });
      expect(await userLog.queryUsers(query(everybody))).toEqual({ totalResult: 1, users: [second] });
    }));

    it("keeps the listings as they were when an append is refused", withStore(async ({ storage }) => {
      const { userLog } = storage;
      const kept = listingOf("u1", "org-a", 2);
      await userLog.append(newUserAppend("u1"));
      const heldClaim = { ...newUserAppend("u2", { claims: [usernameClaim("u1-name")] }), listing: listingOf("u2", "org-a", 2) };
      expect(await userLog.append(heldClaim)).toEqual({ ok: false, reason: "claim-held", conflict: usernameClaim("u1-name") });
      const stale = { ...existingUserAppend("u1", 1), listing: listingOf("u1", "org-a", 2, { username: "stale" }) };
      expect(await userLog.append(stale)).toEqual({ ok: false, reason: "sequence-conflict", actualSequence: 2 });
      expect(await userLog.queryUsers(query(everybody))).toEqual({ totalResult: 1, users: [kept] });
    }));

    it("writes the listings of a batch's written appends, and none of its refused ones", withBatchStore(async ({ storage }, appendNewUsers) => {
      const outcomes = await appendNewUsers([newUserAppend("b1"), newUserAppend("b2", { claims: [usernameClaim("b1-name")] }), newUserAppend("b3", { orgId: "org-b" })]);
      expect(outcomes).toEqual([{ ok: true }, { ok: false, reason: "claim-held", conflict: usernameClaim("b1-name") }, { ok: true }]);
      expect(await storage.userLog.queryUsers(query(everybody))).toEqual({ totalResult: 2, users: [listingOf("b1", "org-a", 2), listingOf("b3", "org-b", 2)] });
    }));

    it("finds users by their texts: equal, starting, containing and ending, as given or folded, with no wildcards", withStore(async ({ storage }) => {
      await appendAll(storage.userLog, PEOPLE);
      const cases: readonly (readonly [UserFilter, readonly string[]])[] = [
        [{ text: "username", match: "equals", value: "Alice", ignoreCase: false }, ["p1"]],
        [{ text: "username", match: "equals", value: "alice", ignoreCase: false }, []],
        [{ text: "username", match: "equals", value: "alice", ignoreCase: true }, ["p1"]],
        [{ text: "username", match: "equals", value: "strasse", ignoreCase: true }, ["p4", "p5"]],
        [{ text: "username", match: "startsWith", value: "Ali", ignoreCase: false }, ["p1"]],
        [{ text: "username", match: "startsWith", value: "ali", ignoreCase: true }, ["p1", "p2"]],
        [{ text: "username", match: "startsWith", value: "Bob_", ignoreCase: false }, ["p3"]],
        [{ text: "username", match: "startsWith", value: "Bo%", ignoreCase: false }, []],
        [{ text: "username", match: "startsWith", value: "", ignoreCase: false }, PEOPLE.map((listing) => listing.userId)],
        [{ text: "username", match: "contains", value: "_%", ignoreCase: false }, ["p3"]],
        [{ text: "username", match: "contains", value: "o_", ignoreCase: false }, []],
        [{ text: "username", match: "endsWith", value: "_%", ignoreCase: false }, ["p3"]],
        [{ text: "email", match: "endsWith", value: "acme.example", ignoreCase: false }, ["p3", "p4", "p5", "p6", "p7", "p8", "p9"]],
        [{ text: "email", match: "endsWith", value: "@acme.example", ignoreCase: true }, ["p1", "p3", "p4", "p5", "p6", "p7", "p8", "p9"]],
        [{ text: "email", match: "equals", value: "ALICIA@beta.example", ignoreCase: false }, ["p2"]],
        [{ text: "email", match: "startsWith", value: "alicia@", ignoreCase: true }, ["p2"]],
        [{ text: "displayName", match: "contains", value: "ic", ignoreCase: false }, ["p1", "p2"]],
        [{ text: "displayName", match: "contains", value: "smith", ignoreCase: true }, ["p1"]],
        [{ text: "displayName", match: "contains", value: "smith", ignoreCase: false }, []],
        [{ text: "displayName", match: "equals", value: "strasse", ignoreCase: true }, ["p4", "p5"]],
      ];
      for (const [filter, ids] of cases) expect({ filter, page: await storage.userLog.queryUsers(query(filter)) }).toEqual({ filter, page: pageOf(PEOPLE, ids) });
    }));

    it("compares prefixes by code points, also next to the surrogates and at U+10FFFF", withStore(async ({ storage }) => {
      await appendAll(storage.userLog, PEOPLE);
      const cases: readonly (readonly [string, readonly string[]])[] = [
        ["zz\u{d7ff}", ["p6"]],
        ["zz\u{e000}", ["p7"]],
        ["zz\u{10ffff}", ["p8", "p9"]],
        ["zz\u{10ffff}\u{10ffff}", ["p8"]],
        ["zz", ["p6", "p7", "p8", "p9"]],
      ];
      for (const [value, ids] of cases) {
        const filter: UserFilter = { text: "username", match: "startsWith", value, ignoreCase: false };
        expect({ value, page: await storage.userLog.queryUsers(query(filter)) }).toEqual({ value, page: pageOf(PEOPLE, ids) });
      }
    }));

    it("finds users by organization, id and state, and combines conditions with all, any and not", withStore(async ({ storage }) => {
      await appendAll(storage.userLog, PEOPLE);
      const all = PEOPLE.map((listing) => listing.userId);
      const cases: readonly (readonly [UserFilter, readonly string[]])[] = [
        [{ orgIds: ["org-b"] }, ["p2"]],
        [{ orgIds: ["org-b", "org-missing"] }, ["p2"]],
        [{ orgIds: [] }, []],
        [{ userIds: ["p3", "p1", "nobody"] }, ["p1", "p3"]],
        [{ userIds: [] }, []],
        [{ states: ["USER_STATE_INITIAL", "USER_STATE_LOCKED"] }, ["p2", "p3"]],
        [{ all: [] }, all],
        [{ any: [] }, []],
        [{ not: { orgIds: ["org-a"] } }, ["p2"]],
        [{ not: { any: [] } }, all],
        [{ all: [{ orgIds: ["org-a"] }, { text: "username", match: "startsWith", value: "s", ignoreCase: true }] }, ["p4", "p5"]],
        [{ any: [{ all: [{ orgIds: ["org-a"] }, { states: ["USER_STATE_LOCKED"] }] }, { text: "username", match: "equals", value: "alicia", ignoreCase: false }] }, ["p2", "p3"]],
      ];
      for (const [filter, ids] of cases) expect({ filter, page: await storage.userLog.queryUsers(query(filter)) }).toEqual({ filter, page: pageOf(PEOPLE, ids) });
    }));

    it("sorts by every field both ways, texts by their folded copies then by code points, states in the enum's order, ties by user id", withStore(async ({ storage }) => {
      const state = (index: number): ListedUserState => (["USER_STATE_INITIAL", "USER_STATE_ACTIVE", "USER_STATE_LOCKED"] as const)[index % 3] ?? "USER_STATE_ACTIVE";
      // U+FF5E sorts before U+1F600 by code points, after it by UTF-16 units. `A` and `a` fold
      // alike and then sort as given. `ß` folds to `ss` (set here as the core would), so a store
      // that lower-cased the text itself would sort it after `z`.
      const names = ["a", "Z", "\u00e9", "\uff5e", "\u{1f600}", "a", "A", "\u00df"];
      const fold = (name: string): string => (name === "\u00df" ? "ss" : name.toLowerCase());
      const listings = names.map((name, index) =>
        person(`s${index}`, name, `${name}@x.example`, name, {
          givenName: name,
          familyName: name,
          nickName: name,
          usernameFolded: fold(name),
          emailFolded: `${fold(name)}@x.example`,
          displayNameFolded: fold(name),
          givenNameFolded: fold(name),
          familyNameFolded: fold(name),
          nickNameFolded: fold(name),
          state: state(index),
          createdAt: at((index % 2) * 1000).toISOString(),
        }),
      );
      // Usernames are unique in a store that checks claims; the listing itself need not be.
      await appendAll(storage.userLog, listings);
      const byName = ["s6", "s0", "s5", "s7", "s1", "s2", "s3", "s4"];
      const expected: Readonly<Record<UserQuery["sortBy"], readonly string[]>> = {
        userId: ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"],
        username: byName,
        givenName: byName,
        familyName: byName,
        nickName: byName,
        displayName: byName,
        email: byName,
        state: ["s1", "s4", "s7", "s2", "s5", "s0", "s3", "s6"],
        createdAt: ["s0", "s2", "s4", "s6", "s1", "s3", "s5", "s7"],
      };
      for (const [sortBy, ids] of Object.entries(expected) as [UserQuery["sortBy"], readonly string[]][]) {
        const ascending = await storage.userLog.queryUsers(query(everybody, { sortBy }));
        const descending = await storage.userLog.queryUsers(query(everybody, { sortBy, ascending: false }));
        expect({ sortBy, ascending, descending }).toEqual({ sortBy, ascending: pageOf(listings, ids), descending: pageOf(listings, [...ids].reverse()) });
      }
    }));

    it("pages through users that tie on the sort field without repeating or skipping one, counting them all", withStore(async ({ storage }) => {
      const listings = Array.from({ length: 23 }, (_, index) => person(`t${String(index).padStart(2, "0")}`, `tie-${index}`, `tie-${index}@x.example`, "Tie"));
      await appendAll(storage.userLog, [...listings].reverse());
      const ids = listings.map((listing) => listing.userId);
      for (const ascending of [true, false]) {
        const seen: string[] = [];
        for (let offset = 0; offset < 30; offset += 7) {
          const page = await storage.userLog.queryUsers(query(everybody, { sortBy: "createdAt", ascending, offset, limit: 7 }));
          const expectedIds = (ascending ? ids : [...ids].reverse()).slice(offset, offset + 7);
          expect(page).toEqual(pageOf(listings, expectedIds, 23));
          seen.push(...page.users.map((listing) => listing.userId));
        }
        expect(seen).toEqual(ascending ? ids : [...ids].reverse());
      }
      const filtered = await storage.userLog.queryUsers(query({ text: "username", match: "startsWith", value: "tie-1", ignoreCase: false }, { offset: 2, limit: 3 }));
      expect(filtered).toEqual(pageOf(listings, ["t11", "t12", "t13"], 11));
      expect(await storage.userLog.queryUsers(query({ orgIds: ["org-b"] }, { offset: 5 }))).toEqual({ totalResult: 0, users: [] });
    }));
  });
}
