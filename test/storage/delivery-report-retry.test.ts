// A delivery report lost to a connection that failed (terminated, reset) is sent again: the mail
// went out, and a report given up would leave the notification to be sent a second time once its
// lease ends. Runs on the PostgreSQL server.
import { describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import type { PgPoolLike, PgQuery } from "../../src/adapters/postgres/pg-like.js";
import { newUserAppend } from "../../src/testing/index.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();

/** `pool`, with the first `failures` delivery reports failing as a terminated connection does. */
function losingReports(pool: PgPoolLike, failures: number): PgPoolLike {
  let left = failures;
  return {
    async connect() {
      const client = await pool.connect();
      return {
        ...client,
        query: (query: PgQuery) => {
          if (left > 0 && query.text.includes("human_users_mark_delivered")) {
            left -= 1;
            return Promise.reject(new Error("Connection terminated unexpectedly"));
          }
          return client.query(query);
        },
        release: (destroy?: boolean | Error) => client.release(destroy),
      };
    },
  };
}

describe.skipIf(url === undefined)("a delivery report whose connection fails", () => {
  it("is sent again, and the notification is recorded as delivered", async () => {
    const schema = await schemaPool(url ?? "", "report_retry");
    try {
      await migrate(schema.pool);
      const store = postgresStore({ pool: losingReports(schema.pool, 2) });
      expect(await store.userLog.append(newUserAppend("u0"))).toEqual({ ok: true });
      await store.outbox.markDelivered("u0-n0", new Date("2026-01-01T00:00:05.000Z"));
      const { rows } = await schema.pool.query("SELECT state FROM human_users_outbox WHERE id = 'u0-n0'");
      expect(rows).toEqual([{ state: "delivered" }]);
    } finally {
      await schema.drop();
    }
  }, 20_000);
});
