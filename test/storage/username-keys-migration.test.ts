// Migration 2 recomputes the username claim keys written by version 1 (lower-cased) with full case
// folding: on PGlite, and on the PostgreSQL server when one answers. Users whose names now fold
// together all stay, under distinct keys, and the migration lists them.
import { PGlite } from "@electric-sql/pglite";
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { runMigrations } from "../../src/adapters/postgres/migrate.js";
import { migrate, migrations, postgresStore, type SqlStore } from "../../src/adapters/postgres/index.js";
import { pgliteDatabase } from "../../src/adapters/pglite/pglite-store.js";
import type { SqlDatabase, SqlSession } from "../../src/adapters/postgres/sql-database.js";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import { checkPassword, createHumanUser, listUsers, setPassword, type Requester } from "../../src/index.js";
import { ACME, GLOBEX, plainError, testPorts } from "../operations/support/ports.js";
import { findPostgres, schemaPool, seedStore } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

/** Version 1 as released: keys were the lower-cased username. [user id, scope, username, old key]. */
const versionOneUsers: readonly (readonly [string, string, string, string])[] = [
  ["u01", "", "STRASSE", "strasse"],
  ["u02", "", "straße", "straße"],
  ["u03", "", "José", "josé"],
  ["u04", "", "ΌΣΟΣ", "όσος"],
  ["u05", "", "ﬁx", "ﬁx"],
  ["u06", "acme", "Straße", "straße"],
  ["u07", "", "ſam", "ſam"],
  ["u08", "", "sam", "sam"],
  ["u09", "", "ﬀ", "ﬀ"],
  ["u10", "", "ＦＦ", "ｆｆ"],
  ["u11", "", "ǅemal", "ǆemal"],
];

async function writeVersionOne(session: SqlSession): Promise<void> {
  for (const [userId, scope, username, key] of versionOneUsers) {
    await session.query("INSERT INTO human_users_claims (kind, scope, key, user_id) VALUES ('user_id', '', $1, $1), ('username', $2, $3, $1)", [userId, scope, key]);
    // u11 lost its first event: its key is recomputed from the old key alone.
    if (userId === "u11") continue;
    await session.query(
      "INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) VALUES ($1, 1, 'user.human.added', 'acme', now(), $2)",
      [userId, JSON.stringify({ userName: username, firstName: "A", lastName: "B" })],
    );
  }
}

const newerVersions = migrations.filter((migration) => migration.version > 1).map((migration) => migration.version);

const expectedReport = {
  applied: newerVersions,
  foldedTogether: [
    { scope: "", key: "strasse", userIds: ["u01", "u02"] },
    { scope: "", key: "sam", userIds: ["u07", "u08"] },
    { scope: "", key: "ff", userIds: ["u09", "u10"] },
  ],
};

// The first of each group keeps (or takes) the folded key; the others keep their old ones.
const expectedClaims = [
  { scope: "", key: "strasse", user_id: "u01" },
  { scope: "", key: "straße", user_id: "u02" },
  { scope: "", key: "josé", user_id: "u03" },
  { scope: "", key: "όσοσ", user_id: "u04" },
  { scope: "", key: "fix", user_id: "u05" },
  { scope: "acme", key: "strasse", user_id: "u06" },
  { scope: "", key: "ſam", user_id: "u07" },
  { scope: "", key: "sam", user_id: "u08" },
  { scope: "", key: "ff", user_id: "u09" },
  { scope: "", key: "ｆｆ", user_id: "u10" },
  { scope: "", key: "d\u017eemal", user_id: "u11" },
];

const usernameClaimsSql = "SELECT scope, key, user_id FROM human_users_claims WHERE kind = 'username' ORDER BY position";

async function checkAfterMigration(session: SqlSession, store: SqlStore): Promise<void> {
  expect((await session.query(usernameClaimsSql)).rows).toEqual(expectedClaims);
  const requester: Requester = { userId: "admin-of-acme", orgId: "acme" };
  const ports = testPorts({ storage: store });
  const create = (username: string) => createHumanUser(ports, { profile: { givenName: "A", familyName: "B" }, email: { email: "a@acme.test" }, username }, { requester });
  const taken = err(plainError(6, "USER-n4m6", "the username is already taken"));
  for (const username of ["Strasse", "straße", "ſam", "FF", "όσος", "FIX", "DŽEMAL"]) expect(await create(username)).toEqual(taken);
  expect((await create("strase")).isOk()).toBe(true);
  // Each user that kept its first key is found by its own name, not by the one holding the folded key.
  const byLoginName = async (loginName: string) =>
    (await listUsers(ports, { queries: [{ loginNameQuery: { loginName, method: "TEXT_QUERY_METHOD_EQUALS" } }] }, { requester }))._unsafeUnwrap().result?.map((user) => user.userId);
  const owners: [string, string][] = [["STRASSE", "u01"], ["straße", "u02"], ["José", "u03"], ["ſam", "u07"], ["sam", "u08"], ["ﬀ", "u09"], ["ＦＦ", "u10"]];
  for (const [loginName, userId] of owners) expect([loginName, await byLoginName(loginName)]).toEqual([loginName, [userId]]);
  // Signing in by login name reaches the same user (it used to reach STRASSE, and count a wrong password there).
  expect((await setPassword(ports, { userId: "u02", newPassword: { password: "Straße-pass-1" } }, { requester })).isOk()).toBe(true);
  expect((await checkPassword(ports, { loginName: "straße", password: "Straße-pass-1" }))._unsafeUnwrap().userId).toBe("u02");
}

/** The store's database at version 1, through the migration runner itself. */
function versionOne(database: SqlDatabase) {
  return runMigrations(
    database,
    migrations.filter((migration) => migration.version === 1),
  );
}

describe("migration 2 on PGlite", () => {
  it("recomputes the username keys, keeps and lists the users that now fold together, and refuses a new Strasse", async () => {
    const db = new PGlite();
    try {
      const database = pgliteDatabase(db);
      expect(await versionOne(database)).toEqual({ applied: [1], foldedTogether: [] });
      await writeVersionOne(database);
      const store = pgliteStore({ db });
      await seedStore(store, { organizations: [ACME, GLOBEX], identityProviders: [] });

      expect(await migratePglite(db)).toEqual(expectedReport);
      await checkAfterMigration(database, store);
      expect(await migratePglite(db)).toEqual({ applied: [], foldedTogether: [] });
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe.skipIf(url === undefined)(`migration 2 on the server${needsServer}`, () => {
  it("recomputes the username keys, keeps and lists the users that now fold together, and refuses a new Strasse", async () => {
    const schema = await schemaPool(url ?? "", "refold");
    try {
      const client = await schema.pool.connect();
      const database: SqlDatabase = {
        query: (text, params = []) => client.query(text, [...params]),
        exec: async (script) => {
          await client.query(script);
        },
        transaction: async (body) => {
          await client.query("BEGIN");
          try {
            const value = await body({ query: (text, params = []) => client.query(text, [...params]), exec: async (script) => void (await client.query(script)), rollback: async () => void (await client.query("ROLLBACK")) });
            await client.query("COMMIT");
            return value;
          } catch (error) {
            await client.query("ROLLBACK");
            throw error;
          }
        },
      };
      try {
        expect(await versionOne(database)).toEqual({ applied: [1], foldedTogether: [] });
        await writeVersionOne(database);
      } finally {
        client.release();
      }
      const store = postgresStore({ pool: schema.pool });
      await seedStore(store, { organizations: [ACME, GLOBEX], identityProviders: [] });

      expect(await migrate(schema.pool)).toEqual(expectedReport);
      const session: SqlSession = { query: (text, params = []) => schema.pool.query(text, [...params]), exec: async (script) => void (await schema.pool.query(script)) };
      await checkAfterMigration(session, store);
      expect(await migrate(schema.pool)).toEqual({ applied: [], foldedTogether: [] });
    } finally {
      await schema.drop();
    }
  }, 60_000);
});
