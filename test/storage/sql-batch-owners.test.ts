// The SQL stores' batch write keeps or drops a write's events and notifications by the user they
// name, not by a tag per row: a write carrying another user's is refused whole before anything is
// written, so that it can never be written under the wrong user's claims.
import { afterAll, describe, expect, it } from "vitest";
import type { SqlStore } from "../../src/adapters/postgres/index.js";
import type { UserAppend } from "../../src/index.js";
import { contractIdentityProviders, contractOrganizations, newUserAppend, type StorageUnderTest } from "../../src/testing/index.js";
import { findPostgres, PgliteSchemas, postgresSubject } from "./databases.js";

const url = await findPostgres();
const pglite = new PgliteSchemas();
afterAll(() => pglite.close());
const seed = { organizations: contractOrganizations, identityProviders: contractIdentityProviders };

const stores: readonly (readonly [string, () => Promise<StorageUnderTest & { readonly store: SqlStore }>])[] = [
  ["pglite", () => pglite.subject("owners", seed)],
  ...(url === undefined ? [] : [["postgres", () => postgresSubject(url, "owners", seed)] as const]),
];

const mixedUp: readonly (readonly [string, (other: UserAppend) => Partial<UserAppend>])[] = [
  ["an event", (other) => ({ events: other.events })],
  ["a notification", (other) => ({ notifications: other.notifications })],
  ["a listing", (other) => ({ listing: other.listing })],
];

describe.each(stores)("appendNewUsers on %s", (_, subjectOf) => {
  it.each(mixedUp)("refuses a batch in which a write carries %s of another user, and writes none of it", async (_thing, carried) => {
    const subject = await subjectOf();
    try {
      const fine = newUserAppend("u1");
      const wrong = { ...newUserAppend("u2"), ...carried(newUserAppend("u3")) };
      await expect(subject.store.userLog.appendNewUsers([fine, wrong])).rejects.toEqual(
        new Error("appendNewUsers: a write carries another user's event, notification or listing"),
      );
      expect(await subject.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    } finally {
      await subject.close?.();
    }
  });
});
