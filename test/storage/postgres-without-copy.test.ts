// Without pg-copy-streams (an optional peer dependency) the PostgreSQL store writes a batch of new
// users with its one plain statement: the same rows, no COPY sent.
import { describe, expect, it, vi } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import * as sql from "../../src/adapters/postgres/statements.js";
import { newUserAppend } from "../../src/testing/index.js";
import { findPostgres, schemaPool } from "./databases.js";
import { watchedPool } from "./support/watched-pool.js";

vi.mock("pg-copy-streams", () => {
  throw new Error("Cannot find package 'pg-copy-streams'");
});

const url = await findPostgres();

describe.skipIf(url === undefined)("the PostgreSQL store without pg-copy-streams", () => {
  it("writes a batch of new users as one plain statement, and sends no COPY", async () => {
    const schema = await schemaPool(url as string, "nocopy");
    try {
      await migrate(schema.pool);
      const sent: string[] = [];
      const store = postgresStore({ pool: watchedPool(schema.pool, { sent: (query) => sent.push(query.text) }) });
      const batch = [newUserAppend("b1", { notifications: 1 }), newUserAppend("b2")];
      expect(await store.userLog.appendNewUsers(batch)).toEqual([{ ok: true }, { ok: true }]);
      expect(sent).toEqual([sql.newUsersAppendWithNotificationsSql]);
      expect(await store.userLog.loadEvents("b2")).toEqual(batch[1]?.events);
    } finally {
      await schema.drop();
    }
  });
});
