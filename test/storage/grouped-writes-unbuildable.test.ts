// A group of new users' writes whose parameters cannot be built (a text no column can hold, which
// only a host calling the port directly can send) fails its one bad write, not the others; and a
// delivery reported while writes wait on a lock is recorded at once, not after them. Needs a
// second connection to hold a claim open, so it runs on the PostgreSQL server only.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { newUserAppend } from "../../src/testing/index.js";
import { usernameClaim } from "../../src/testing/storage-fixtures.js";
import { findPostgres, postgresSubject } from "./databases.js";

const url = await findPostgres();
const seed = { organizations: [{ id: "org-a", domains: [] }], identityProviders: [] };

describe.skipIf(url === undefined)("a group whose parameters cannot be built", () => {
  it("fails only its bad write, and a report given while the writes wait is written at once", async () => {
    const subject = await postgresSubject(url ?? "", "unbuildable", seed, { maxWritesInFlight: 1 });
    const blocker = new pg.Client({ connectionString: url, options: `-c search_path=${subject.schema.schema}` });
    await blocker.connect();
    try {
      const log = subject.store.userLog;
      expect(await log.append(newUserAppend("u0"))).toEqual({ ok: true });
      // Another transaction holds the claim the first write wants: that write keeps the one place
      // for a while, and the writes that follow wait; the report does not.
      await blocker.query("BEGIN");
      await blocker.query("INSERT INTO human_users_claims (kind, scope, key, user_id) VALUES ('username', '', 'slow', 'other')");
      const slow = log.append(newUserAppend("s1", { claims: [usernameClaim("slow")] }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const reported = subject.store.outbox.markDelivered("u0-n0", new Date("2026-01-01T00:00:05.000Z"));
      const unbuildable = { ...newUserAppend("b1"), listing: { ...newUserAppend("b1").listing, displayName: "nul\u0000" } };
      const writes = Promise.allSettled([log.append(unbuildable), log.append(newUserAppend("g1"))]);
      const waited = new Promise((resolve) => setTimeout(() => resolve("still waiting after 3 s"), 3_000));
      expect(await Promise.race([reported.then(() => "written"), waited])).toBe("written");
      await blocker.query("ROLLBACK");
      expect(await slow).toEqual({ ok: true });
      const [bad, good] = await writes;
      expect([bad?.status, good]).toEqual(["rejected", { status: "fulfilled", value: { ok: true } }]);
      const { rows } = await subject.schema.pool.query("SELECT state, delivered_at IS NOT NULL AS delivered FROM human_users_outbox WHERE id = 'u0-n0'");
      expect(rows).toEqual([{ state: "delivered", delivered: true }]);
    } finally {
      await blocker.end();
      await subject.close?.();
    }
  }, 20_000);
});
