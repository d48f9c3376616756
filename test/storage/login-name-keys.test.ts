// Login names after the upgrade that folds usernames fully: a user that kept its first key (the
// name lower-cased) is found by its own name, scoped to an organization too; and a name whose
// lower case is a current key of another user (a capital newer than the fold's table) still finds
// its own user.
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { runMigrations } from "../../src/adapters/postgres/migrate.js";
import { migrations } from "../../src/adapters/postgres/index.js";
import { pgliteDatabase } from "../../src/adapters/pglite/pglite-store.js";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import { checkPassword, createHumanUser, listUsers, setPassword, type Requester } from "../../src/index.js";
import { member, testPorts } from "../operations/support/ports.js";
import { seedStore } from "./databases.js";

const byLoginName = (ports: ReturnType<typeof testPorts>, loginName: string, requester: Requester) =>
  listUsers(ports, { queries: [{ loginNameQuery: { loginName, method: "TEXT_QUERY_METHOD_EQUALS" } }] }, { requester });

describe("login names and the keys usernames had before full folding", () => {
  it("finds a scoped user that kept its first key by its own login name: ſam@acme.test, not sam@acme.test", async () => {
    const db = new PGlite();
    try {
      const database = pgliteDatabase(db);
      await runMigrations(database, migrations.filter((migration) => migration.version === 1));
      for (const [userId, username] of [["u07", "ſam"], ["u08", "sam"]] as const) {
        await db.query("INSERT INTO human_users_claims (kind, scope, key, user_id) VALUES ('user_id', '', $1, $1), ('username', 'acme', $2, $1)", [userId, username]);
        await db.query("INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) VALUES ($1, 1, 'user.human.added', 'acme', now(), $2)", [
          userId,
          JSON.stringify({ userName: username, firstName: "A", lastName: "B" }),
        ]);
      }
      const store = pgliteStore({ db });
      await seedStore(store, { organizations: [{ id: "acme", domains: [{ domain: "acme.test", verified: true }], policy: { userLoginMustBeDomain: true } }], identityProviders: [] });
      expect((await migratePglite(db)).foldedTogether).toEqual([{ scope: "acme", key: "sam", userIds: ["u07", "u08"] }]);
      const requester: Requester = { userId: "admin", orgId: "acme", instanceAdmin: true };
      const ports = testPorts({ storage: store });
      expect((await setPassword(ports, { userId: "u07", newPassword: { password: "Long-pass-1" } }, { requester })).isOk()).toBe(true);
      expect((await byLoginName(ports, "ſam@acme.test", requester))._unsafeUnwrap().result?.map((user) => user.userId)).toEqual(["u07"]);
      expect((await checkPassword(ports, { loginName: "ſam@acme.test", password: "Long-pass-1" }))._unsafeUnwrap().userId).toBe("u07");
    } finally {
      await db.close();
    }
  }, 60_000);

  it("signs in a user whose name's lower case is another user's current key (a capital newer than the fold's table)", async () => {
    const ports = testPorts();
    const make = async (username: string, password: string) =>
      (await createHumanUser(ports, { username, profile: { givenName: "A", familyName: "B" }, email: { email: `${username.length}${password.length}@acme.test` }, password: { password } }, { requester: member }))._unsafeUnwrap().userId;
    const lower = await make("\u1C8Aann", "Lower-pass-1"); // ᲊann
    const upper = await make("\u1C89ann", "Upper-pass-1"); // Ᲊann: its own username under the fold's Unicode 15 table
    expect(lower).not.toBe(upper);
    expect((await checkPassword(ports, { loginName: "\u1C89ann", password: "Upper-pass-1" }))._unsafeUnwrap().userId).toBe(upper);
    expect((await byLoginName(ports, "\u1C89ann", member))._unsafeUnwrap().result?.map((user) => user.userId)).toEqual([upper]);
  });
});
