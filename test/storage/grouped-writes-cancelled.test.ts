// A group of new users' writes cancelled past statementTimeoutMs (one of them waited on a lock
// another transaction holds) wrote nothing: each write then goes alone, so that only the one
// stuck behind the lock fails, not every user that happened to share its statement. Needs a
// second connection to hold the lock, so it runs on the PostgreSQL server only.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import { newUserAppend } from "../../src/testing/index.js";
import { usernameClaim } from "../../src/testing/storage-fixtures.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();

describe.skipIf(url === undefined)("a group cancelled past the statement timeout", () => {
  it("writes each of its users alone, so that only the one behind the lock fails", async () => {
    const schema = await schemaPool(url ?? "", "cancelled_group");
    const blocker = new pg.Client({ connectionString: url, options: `-c search_path=${schema.schema}` });
    await blocker.connect();
    try {
      await migrate(schema.pool);
      const log = postgresStore({ pool: schema.pool, statementTimeoutMs: 200, maxWritesInFlight: 1 }).userLog;
      await blocker.query("BEGIN");
      await blocker.query("INSERT INTO human_users_claims (kind, scope, key, user_id) VALUES ('username', '', 'locked', 'other')");
      // The first writer of "locked" takes the one place and waits; after 25 ms it gives the place
      // up, and the writes that arrive meanwhile go as one group, with the second writer of "locked".
      const first = log.append(newUserAppend("s1", { claims: [usernameClaim("locked")] }));
      await new Promise((resolve) => setTimeout(resolve, 10));
      const second = log.append(newUserAppend("s2", { claims: [usernameClaim("locked")] }));
      const others = ["g1", "g2", "g3", "g4", "g5"].map((id) => log.append(newUserAppend(id)));
      const settled = await Promise.allSettled([first, second, ...others]);
      await blocker.query("ROLLBACK");
      expect(settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : (outcome.reason as Error).name))).toEqual([
        "StorageUnavailableError",
        "StorageUnavailableError",
        { ok: true },
        { ok: true },
        { ok: true },
        { ok: true },
        { ok: true },
      ]);
      const { rows } = await schema.pool.query("SELECT DISTINCT aggregate_id FROM human_users_events ORDER BY aggregate_id");
      expect(rows.map((row: { aggregate_id: string }) => row.aggregate_id)).toEqual(["g1", "g2", "g3", "g4", "g5"]);
    } finally {
      await blocker.end();
      await schema.drop();
    }
  }, 20_000);
});
