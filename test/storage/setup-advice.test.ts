// A store used before migrate(), or a search path naming no schema: the error a host reads (the
// logger's cause, or migrate's rejection) says what to do, not only what PostgreSQL said.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import { pgliteStore } from "../../src/adapters/pglite/index.js";
import { createHumanUser, memoryMailer, systemClock, type Storage } from "../../src/index.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();

async function causeLoggedFor(storage: Storage): Promise<string> {
  const causes: unknown[] = [];
  const logger = { warn: () => undefined, error: (fields: { err?: unknown }) => void causes.push(fields.err) };
  const ports = { storage, mailer: memoryMailer(), clock: systemClock, logger, config: { allowThrowawayKeys: true } };
  const answer = await createHumanUser(ports, { profile: { givenName: "A", familyName: "B" }, email: { email: "a@acme.test" } }, { requester: { userId: "admin", orgId: "acme" } });
  expect(answer._unsafeUnwrapErr().code).toBe(13);
  return String((causes[0] as Error | undefined)?.message);
}

const advice = "the human-users tables are not in this database's schema (its search_path): run migrate(pool) (migratePglite(db) for PGlite) before using the store";

describe("advice for a store that is not set up", () => {
  it("PGlite without migratePglite: the logged cause says to migrate", async () => {
    const db = new PGlite();
    try {
      expect(await causeLoggedFor(pgliteStore({ db }))).toMatch(new RegExp(`^${advice.replace(/[()]/g, "\\$&")} \\(relation "human_users_\\w+" does not exist\\)$`));
    } finally {
      await db.close();
    }
  });

  it.skipIf(url === undefined)("PostgreSQL without migrate(), and migrate() into a schema that does not exist", async () => {
    const schema = await schemaPool(url ?? "", "advice");
    const nowhere = new pg.Pool({ connectionString: url, options: "-c search_path=no_such_schema_here" });
    try {
      expect(await causeLoggedFor(postgresStore({ pool: schema.pool }))).toMatch(/^the human-users tables are not in this database's schema/);
      await expect(migrate(nowhere)).rejects.toThrow(/^the connection's search_path names no schema that exists: create it first \(CREATE SCHEMA name\), or connect with another search_path \(no schema has been selected to create in\)$/);
    } finally {
      await nowhere.end();
      await schema.drop();
    }
  });
});
