// A bulk import's batch that one user holds up (its username waits on another transaction's lock)
// is cancelled for time, by the store's own limit or the server's statement_timeout: it wrote
// nothing, so its users are written one at a time, and only the one behind the lock fails (14).
// Before, every user of the batch failed with 14, on every run. Needs a second connection to hold
// the lock, so it runs on the PostgreSQL server only.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import { importHumanUsers, memoryMailer, systemClock, type Ports } from "../../src/index.js";
import { adminInAcme, collect, userRequest } from "../bulk/support.js";
import { fakeHasher } from "../operations/support/import-fixtures.js";
import { testKeys } from "../operations/support/ports.js";
import { patchStorage } from "../support/patch-storage.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();

describe.skipIf(url === undefined)("a bulk import's batch cancelled for time", () => {
  it.each([
    ["the store's statementTimeoutMs", { storeTimeoutMs: 300, serverTimeout: "" }],
    ["the server's statement_timeout", { storeTimeoutMs: 10_000, serverTimeout: " -c statement_timeout=300" }],
  ])("by %s: every user but the one behind the lock is imported", async (_case, { storeTimeoutMs, serverTimeout }) => {
    const schema = await schemaPool(url ?? "", "bulk_cancelled");
    const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema.schema}${serverTimeout}` });
    pool.on("error", () => undefined);
    const blocker = new pg.Client({ connectionString: url, options: `-c search_path=${schema.schema}` });
    await blocker.connect();
    try {
      await migrate(schema.pool);
      const storage = postgresStore({ pool, statementTimeoutMs: storeTimeoutMs });
      await storage.upsertOrganization({ id: "acme", domains: [] });
      await blocker.query("BEGIN");
      await blocker.query("INSERT INTO human_users_claims (kind, scope, key, user_id) VALUES ('username', '', 'locked', 'other')");
      const ports: Ports = { storage, mailer: memoryMailer(), clock: systemClock, keys: testKeys, passwordHasher: fakeHasher, config: { immediateDelivery: "off" } };
      const names = ["a1", "a2", "locked", "a3", "a4"];
      const outcomes = await collect(importHumanUsers(ports, names.map((name) => userRequest(name)), adminInAcme, { batchSize: 10 }));
      await blocker.query("ROLLBACK");
      expect(outcomes.map((outcome) => ("ok" in outcome ? "ok" : "error" in outcome ? outcome.error.code : "other"))).toEqual(["ok", "ok", 14, "ok", "ok"]);
      const { rows } = await schema.pool.query("SELECT key FROM human_users_claims WHERE kind = 'username' ORDER BY key");
      expect(rows.map((row: { key: string }) => row.key)).toEqual(["a1", "a2", "a3", "a4"]);
    } finally {
      await blocker.end();
      await pool.end();
      await schema.drop();
    }
  }, 30_000);

  it("when every user waits on one lock, stops after three users in a row time out: the batch does not cost one timeout per user", async () => {
    const schema = await schemaPool(url ?? "", "bulk_all_locked");
    const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema.schema}` });
    pool.on("error", () => undefined);
    const blocker = new pg.Client({ connectionString: url, options: `-c search_path=${schema.schema}` });
    await blocker.connect();
    try {
      await migrate(schema.pool);
      const store = postgresStore({ pool, statementTimeoutMs: 300 });
      await store.upsertOrganization({ id: "acme", domains: [] });
      let appends = 0;
      const storage = patchStorage(store, {
        userLog: {
          append: (append) => {
            appends += 1;
            return store.userLog.append(append);
          },
        },
      });
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE human_users_claims IN EXCLUSIVE MODE");
      const ports: Ports = { storage, mailer: memoryMailer(), clock: systemClock, keys: testKeys, passwordHasher: fakeHasher, config: { immediateDelivery: "off" } };
      const names = Array.from({ length: 10 }, (_, index) => `w${index}`);
      const outcomes = await collect(importHumanUsers(ports, names.map((name) => userRequest(name)), adminInAcme, { batchSize: 10 }));
      await blocker.query("ROLLBACK");
      expect(outcomes.map((outcome) => ("error" in outcome ? outcome.error.code : "other"))).toEqual(names.map(() => 14));
      expect(appends).toBe(3);
      const { rows } = await schema.pool.query("SELECT count(*)::int AS claims FROM human_users_claims");
      expect(rows).toEqual([{ claims: 0 }]);
    } finally {
      await blocker.end();
      await pool.end();
      await schema.drop();
    }
  }, 30_000);
});
