// Migration 7 gives listings written before it the folded copies of their given, family and nick
// names: ASCII in its SQL, the rest in code. On PGlite, and on the PostgreSQL server when one answers.
import { PGlite } from "@electric-sql/pglite";
import type { PoolClient } from "pg";
import { describe, expect, it } from "vitest";
import { runMigrations } from "../../src/adapters/postgres/migrate.js";
import { migrate, migrations, postgresStore } from "../../src/adapters/postgres/index.js";
import { pgliteDatabase } from "../../src/adapters/pglite/pglite-store.js";
import type { SqlDatabase } from "../../src/adapters/postgres/sql-database.js";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import type { UserLog } from "../../src/index.js";
import type { MigrationReport } from "../../src/adapters/postgres/migrate.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

/** Users written before version 3, whose listings versions 3 to 6 then make: names in several scripts. */
const PEOPLE = [
  { id: "u1", firstName: "Zoe", lastName: "ADAMS", nickName: "" },
  { id: "u2", firstName: "Émile", lastName: "Zola", nickName: "ÉM" },
  { id: "u3", firstName: "amy", lastName: "Straße", nickName: "ﬁfi" },
  { id: "u4", firstName: "ÆSA", lastName: "strasse", nickName: "x" },
];

async function writeOldUsers(database: SqlDatabase): Promise<void> {
  for (const person of PEOPLE) {
    const payload = { userName: `user-${person.id}`, firstName: person.firstName, lastName: person.lastName, nickName: person.nickName, displayName: person.firstName };
    await database.query(
      "INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) VALUES ($1, 1, 'user.human.added', 'acme', '2025-06-01T10:00:00Z', $2)",
      [person.id, JSON.stringify(payload)],
    );
  }
}

const beforeVersion7 = (database: SqlDatabase): Promise<MigrationReport> => runMigrations(database, migrations.filter((migration) => migration.version < 7));

async function checkFoldedNames(userLog: UserLog): Promise<void> {
  const page = await userLog.queryUsers({ filter: { all: [] }, sortBy: "userId", ascending: true, offset: 0, limit: 10 });
  expect(page.users.map(({ userId, givenNameFolded, familyNameFolded, nickNameFolded }) => ({ userId, givenNameFolded, familyNameFolded, nickNameFolded }))).toEqual([
    { userId: "u1", givenNameFolded: "zoe", familyNameFolded: "adams", nickNameFolded: "" },
    { userId: "u2", givenNameFolded: "émile", familyNameFolded: "zola", nickNameFolded: "ém" },
    { userId: "u3", givenNameFolded: "amy", familyNameFolded: "strasse", nickNameFolded: "fifi" },
    { userId: "u4", givenNameFolded: "æsa", familyNameFolded: "strasse", nickNameFolded: "x" },
  ]);
  const sorted = async (sortBy: "givenName" | "familyName"): Promise<string[]> =>
    (await userLog.queryUsers({ filter: { all: [] }, sortBy, ascending: true, offset: 0, limit: 10 })).users.map((listing) => listing.userId);
  // By folded copy, then as given: `Straße` and `strasse` fold alike, and `S` sorts before `s`.
  expect({ givenName: await sorted("givenName"), familyName: await sorted("familyName") }).toEqual({ givenName: ["u3", "u1", "u4", "u2"], familyName: ["u1", "u3", "u4", "u2"] });
}

function clientDatabase(client: PoolClient): SqlDatabase {
  const session = { query: (text: string, params: readonly unknown[] = []) => client.query(text, [...params]), exec: async (script: string) => void (await client.query(script)) };
  return {
    ...session,
    transaction: async (body) => {
      await client.query("BEGIN");
      const value = await body({ ...session, rollback: async () => void (await client.query("ROLLBACK")) });
      await client.query("COMMIT");
      return value;
    },
  };
}

describe("migration 7 on PGlite", () => {
  it("folds the names of every listing written before it, ASCII or not", async () => {
    const db = new PGlite();
    try {
      const database = pgliteDatabase(db);
      await runMigrations(database, migrations.filter((migration) => migration.version < 3));
      await writeOldUsers(database);
      expect(await beforeVersion7(database)).toEqual({ applied: [3, 4, 5, 6], foldedTogether: [] });
      expect(await migratePglite(db)).toEqual({ applied: [7, 8], foldedTogether: [] });
      await checkFoldedNames(pgliteStore({ db }).userLog);
      // A copy of the release before, still running in a rolling upgrade, writes listings without
      // the new columns: they take '' (the next write by a current copy fills them), not an error.
      await db.query(`INSERT INTO human_users_listings (user_id, org_id, sequence, created_at, changed_at, state, username, given_name, family_name,
        nick_name, display_name, preferred_language, gender, email, email_verified, phone, phone_verified, password_change_required,
        username_folded, email_folded, display_name_folded)
        VALUES ('u5', 'acme', 2, now(), now(), 'USER_STATE_ACTIVE', 'old', 'Old', 'Copy', '', 'Old Copy', '', 'GENDER_UNSPECIFIED', 'o@acme.test', true, NULL, false, false, 'old', 'o@acme.test', 'old copy')`);
      expect((await db.query("SELECT given_name_folded, family_name_folded, nick_name_folded FROM human_users_listings WHERE user_id = 'u5'")).rows).toEqual([
        { given_name_folded: "", family_name_folded: "", nick_name_folded: "" },
      ]);
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe.skipIf(url === undefined)(`migration 7 on the server${needsServer}`, () => {
  it("folds the names of every listing written before it, ASCII or not", async () => {
    const schema = await schemaPool(url ?? "", "listing_names");
    try {
      const client = await schema.pool.connect();
      try {
        const database = clientDatabase(client);
        await runMigrations(database, migrations.filter((migration) => migration.version < 3));
        await writeOldUsers(database);
        expect(await beforeVersion7(database)).toEqual({ applied: [3, 4, 5, 6], foldedTogether: [] });
      } finally {
        client.release();
      }
      expect(await migrate(schema.pool)).toEqual({ applied: [7, 8], foldedTogether: [] });
      await checkFoldedNames(postgresStore({ pool: schema.pool }).userLog);
    } finally {
      await schema.drop();
    }
  }, 60_000);
});
