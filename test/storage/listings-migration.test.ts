// Migration 3 gives users written before it their listing, folded from their events: on PGlite,
// and on the PostgreSQL server when one answers.
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { runMigrations } from "../../src/adapters/postgres/migrate.js";
import { migrate, migrations, postgresStore } from "../../src/adapters/postgres/index.js";
import { pgliteDatabase } from "../../src/adapters/pglite/pglite-store.js";
import type { SqlDatabase, SqlSession } from "../../src/adapters/postgres/sql-database.js";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import type { UserListing, UserLog } from "../../src/index.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

const BEFORE = "2025-06-01T10:00:00.000Z";
const LATER = "2025-06-02T11:30:00.000Z";

/** Version 2 users: Ann with a verified email and a password to change, Bob with an old, sparse first event. */
async function writeVersionTwoUsers(session: SqlSession): Promise<void> {
  const event = "INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) VALUES ($1, $2, $3, 'acme', $4, $5)";
  const ann = {
    userName: "Ann",
    firstName: "Ann",
    lastName: "Lee",
    displayName: "Ann Lee",
    preferredLanguage: "de-CH",
    gender: "GENDER_FEMALE",
    email: "Ann@Acme.test",
    phone: "+41791234567",
    encodedHash: "$fake$x",
    changeRequired: true,
  };
  await session.query(event, ["u-ann", 1, "user.human.added", BEFORE, JSON.stringify(ann)]);
  await session.query(event, ["u-ann", 2, "user.human.email.verified", LATER, "{}"]);
  await session.query(event, ["u-bob", 1, "user.human.added", BEFORE, JSON.stringify({ userName: "bob", firstName: "Bob", lastName: "Stone" })]);
  await session.query(event, ["u-bob", 2, "user.human.initialization.code.added", BEFORE, JSON.stringify({ code: { algorithm: "HMAC-SHA256", keyId: "k", hash: "AAAA" }, expiry: "259200s" })]);
}

const expected: UserListing[] = [
  {
    userId: "u-ann",
    orgId: "acme",
    sequence: 2,
    createdAt: BEFORE,
    changedAt: LATER,
    state: "USER_STATE_ACTIVE",
    username: "Ann",
    givenName: "Ann",
    familyName: "Lee",
    nickName: "",
    displayName: "Ann Lee",
    preferredLanguage: "de-CH",
    gender: "GENDER_FEMALE",
    email: "Ann@Acme.test",
    emailVerified: true,
    phone: "+41791234567",
    phoneVerified: false,
    passwordChangeRequired: true,
    passwordChangedAt: BEFORE,
    usernameFolded: "ann",
    emailFolded: "ann@acme.test",
    displayNameFolded: "ann lee",
    givenNameFolded: "ann",
    familyNameFolded: "lee",
    nickNameFolded: "",
  },
  {
    userId: "u-bob",
    orgId: "acme",
    sequence: 2,
    createdAt: BEFORE,
    changedAt: BEFORE,
    state: "USER_STATE_INITIAL",
    username: "bob",
    givenName: "Bob",
    familyName: "Stone",
    nickName: "",
    displayName: "",
    preferredLanguage: "und",
    gender: "GENDER_UNSPECIFIED",
    email: "",
    emailVerified: false,
    phoneVerified: false,
    passwordChangeRequired: false,
    usernameFolded: "bob",
    emailFolded: "",
    displayNameFolded: "",
    givenNameFolded: "bob",
    familyNameFolded: "stone",
    nickNameFolded: "",
  },
];

const everybody = { filter: { all: [] }, sortBy: "userId", ascending: true, offset: 0, limit: 10 } as const;
const olderVersions = (database: SqlDatabase) => runMigrations(database, migrations.filter((migration) => migration.version < 3));

async function checkListings(userLog: UserLog): Promise<void> {
  expect(await userLog.queryUsers(everybody)).toEqual({ totalResult: 2, users: expected });
  expect(await userLog.queryUsers({ ...everybody, filter: { text: "email", match: "equals", value: "ann@acme.test", ignoreCase: true } })).toEqual({ totalResult: 1, users: [expected[0]] });
}

describe("migration 3 on PGlite", () => {
  it("writes the listing of every user that has events, from their fold, even from sparse old payloads", async () => {
    const db = new PGlite();
    try {
      const database = pgliteDatabase(db);
      expect(await olderVersions(database)).toEqual({ applied: [1, 2], foldedTogether: [] });
      await writeVersionTwoUsers(database);
      expect(await migratePglite(db)).toEqual({ applied: migrations.filter((migration) => migration.version >= 3).map((migration) => migration.version), foldedTogether: [] });
      await checkListings(pgliteStore({ db }).userLog);
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe.skipIf(url === undefined)(`migration 3 on the server${needsServer}`, () => {
  it("writes the listing of every user that has events, from their fold", async () => {
    const schema = await schemaPool(url ?? "", "listings");
    try {
      const client = await schema.pool.connect();
      const database: SqlDatabase = {
        query: (text, params = []) => client.query(text, [...params]),
        exec: async (script) => void (await client.query(script)),
        transaction: async (body) => {
          await client.query("BEGIN");
          const value = await body({ query: (text, params = []) => client.query(text, [...params]), exec: async (script) => void (await client.query(script)), rollback: async () => void (await client.query("ROLLBACK")) });
          await client.query("COMMIT");
          return value;
        },
      };
      try {
        expect(await olderVersions(database)).toEqual({ applied: [1, 2], foldedTogether: [] });
        await writeVersionTwoUsers(database);
      } finally {
        client.release();
      }
      expect(await migrate(schema.pool)).toEqual({ applied: migrations.filter((migration) => migration.version >= 3).map((migration) => migration.version), foldedTogether: [] });
      await checkListings(postgresStore({ pool: schema.pool }).userLog);
    } finally {
      await schema.drop();
    }
  }, 60_000);
});
