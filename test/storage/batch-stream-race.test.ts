// A new user's stream created by another transaction while a batch is being written: the batch
// meets it at the events' unique index, is tried again, and then answers that write
// sequence-conflict and writes the others. Needs a second connection, so it runs on the
// PostgreSQL server only.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { newUserAppend } from "../../src/testing/index.js";
import { usernameClaim } from "../../src/testing/storage-fixtures.js";
import { findPostgres, postgresSubject } from "./databases.js";

const url = await findPostgres();
const seed = { organizations: [{ id: "org-a", domains: [] }], identityProviders: [] };

/** Waits until some statement waits for a lock (the batch, on the other transaction's row). */
async function lockWaited(client: pg.Client): Promise<void> {
  for (let tries = 0; tries < 250; tries++) {
    const { rows } = await client.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()");
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the batch never waited for the other transaction");
}

describe.skipIf(url === undefined)("a batch that meets a stream created meanwhile", () => {
  it("answers that write sequence-conflict after trying again, and writes the others", async () => {
    const subject = await postgresSubject(url ?? "", "streamrace", seed);
    const other = new pg.Client({ connectionString: url, options: `-c search_path=${subject.schema.schema}` });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload)
         VALUES ('u1', 1, 'user.human.added', 'org-a', now(), '{}'), ('u1', 2, 'user.metadata.set', 'org-a', now(), '{}')`,
      );
      // u7's stream exists already: the batch's first statement fails at once on it, before it
      // reaches u1, and the batch goes the careful way, which does not see u1's stream yet.
      const u7 = { ...newUserAppend("u7", { notifications: 0 }), claims: [] };
      expect(await subject.store.userLog.append(u7)).toEqual({ ok: true });
      const claimless = (userId: string) => ({ ...newUserAppend(userId, { notifications: 0 }), claims: [] });
      const batch = [claimless("u7"), claimless("u1"), newUserAppend("u9", { claims: [usernameClaim("dup")] }), newUserAppend("u8", { claims: [usernameClaim("dup")] }), newUserAppend("u2")];
      const answered = subject.store.userLog.appendNewUsers(batch);
      await lockWaited(other);
      await other.query("COMMIT");
      expect(await answered).toEqual([
        { ok: false, reason: "sequence-conflict", actualSequence: 2 },
        { ok: false, reason: "sequence-conflict", actualSequence: 2 },
        { ok: true },
        { ok: false, reason: "claim-held", conflict: usernameClaim("dup") },
        { ok: true },
      ]);
      const snapshot = await subject.store.snapshot();
      expect(snapshot.events.map((event) => `${event.aggregateId}:${event.sequence}`).sort()).toEqual(["u1:1", "u1:2", "u2:1", "u2:2", "u7:1", "u7:2", "u9:1", "u9:2"]);
    } finally {
      await other.end();
      await subject.close?.();
    }
  }, 20_000);
});
