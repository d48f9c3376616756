// A write whose answer the store stopped waiting for is not left running on a live server: the
// store asks the server to cancel it and waits for what became of it. Before, a create blocked
// behind another transaction's lock answered 14 ("nothing was written") and then committed once
// the lock went: the caller's retry answered 6 for its own user, and its mail went out.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import { createHumanUser, memoryMailer, systemClock, type Ports } from "../../src/index.js";
import { member, minimalCreate, testKeys } from "../operations/support/ports.js";
import { findPostgres, schemaPool, type SchemaPool } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function migrated(label: string): Promise<SchemaPool> {
  const schema = await schemaPool(url ?? "", label, 4);
  await migrate(schema.pool);
  await postgresStore({ pool: schema.pool }).upsertOrganization({ id: "acme", domains: [{ domain: "acme.test", verified: true }] });
  return schema;
}

async function counts(schema: SchemaPool): Promise<Record<string, number>> {
  const { rows } = await schema.pool.query<Record<string, string>>(
    "SELECT (SELECT count(*) FROM human_users_events) AS events, (SELECT count(*) FROM human_users_claims) AS claims, (SELECT count(*) FROM human_users_outbox) AS outbox",
  );
  return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([name, value]) => [name, Number(value)]));
}

/** Holds an exclusive lock on the events table until `release()`: every write waits behind it. */
async function lockEvents(schema: SchemaPool): Promise<{ release(): Promise<void> }> {
  const blocker = new pg.Client({ connectionString: url, options: `-c search_path=${schema.schema}` });
  await blocker.connect();
  await blocker.query("BEGIN");
  await blocker.query("LOCK TABLE human_users_events IN EXCLUSIVE MODE");
  return {
    async release() {
      await blocker.query("COMMIT");
      await blocker.end();
    },
  };
}

describe.skipIf(url === undefined)(`a write that outlives the statement timeout on a live server${needsServer}`, () => {
  it("is cancelled on the server: the call answers 14, and nothing is written after the lock goes", { timeout: 15_000 }, async () => {
    const schema = await migrated("timeout_cancel");
    try {
      const ports: Ports = { storage: postgresStore({ pool: schema.pool, statementTimeoutMs: 300 }), mailer: memoryMailer(), clock: systemClock, keys: testKeys };
      const lock = await lockEvents(schema);
      const answer = await createHumanUser(ports, { ...minimalCreate(), username: "blocked" }, { requester: member });
      expect(answer.isErr() && answer.error.code).toBe(14);
      await lock.release();
      await sleep(300);
      expect(await counts(schema)).toEqual({ events: 0, claims: 0, outbox: 0 });
      // The caller's retry creates the user.
      const again = await createHumanUser(ports, { ...minimalCreate(), username: "blocked" }, { requester: member });
      expect(again.isOk()).toBe(true);
    } finally {
      await schema.drop();
    }
  });

  it("answers what the server did when the statement ends before the cancel reaches it", { timeout: 15_000 }, async () => {
    const schema = await migrated("timeout_late");
    try {
      // The lock goes right after the timeout fires, before a cancel can arrive: the write commits,
      // and the call must say so rather than "nothing was written".
      const ports: Ports = { storage: postgresStore({ pool: schema.pool, statementTimeoutMs: 300 }), mailer: memoryMailer(), clock: systemClock, keys: testKeys };
      const lock = await lockEvents(schema);
      const call = createHumanUser(ports, { ...minimalCreate(), username: "late" }, { requester: member });
      await sleep(300);
      await lock.release();
      const answer = await call;
      const written = await counts(schema);
      // Either outcome is true to the database: Ok with the user written, or 14 with nothing written.
      if (answer.isOk()) expect(written.events).toBeGreaterThan(0);
      else expect([answer.error.code, written]).toEqual([14, { events: 0, claims: 0, outbox: 0 }]);
    } finally {
      await schema.drop();
    }
  });
});
