// The outbox hands due notifications out in writing order. On PostgreSQL the lease picks the
// oldest rows in a subquery; once the outbox is large and its heap out of position order, the
// planner joins them back in hash order, so the rows came back shuffled (498 of 500 out of place).
import { describe, expect, it } from "vitest";
import { contractIdentityProviders, contractOrganizations } from "../../src/testing/index.js";
import { findPostgres, postgresSubject } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

describe.skipIf(url === undefined)(`leasing from a large outbox on PostgreSQL${needsServer}`, () => {
  it("hands out the oldest due notifications oldest first, by due lease and by ids", { timeout: 60_000 }, async () => {
    const subject = await postgresSubject(url ?? "", "lease_order", { organizations: contractOrganizations, identityProviders: contractIdentityProviders });
    try {
      const pool = subject.schema.pool;
      await pool.query(`INSERT INTO human_users_outbox (id, kind, user_id, org_id, recipient, code, link, locale, display_name, username, created_at, expires_at)
        SELECT 'n-' || lpad(i::text, 6, '0'), 'email.verification', 'u-' || i, 'org-a', 'a@example.com', 'CODE', '', 'en', 'Ann', 'ann', now(), now() + interval '1 hour'
        FROM generate_series(1, 20000) AS i`);
      // New versions of every third row land at the end of the heap, out of position order.
      await pool.query("UPDATE human_users_outbox SET attempts = attempts WHERE position % 3 = 0");
      await pool.query("ANALYZE human_users_outbox");
      const now = new Date("2030-01-01T00:00:00Z");
      const leaseUntil = new Date("2030-01-01T00:01:00Z");
      const name = (n: number) => `n-${String(n).padStart(6, "0")}`;
      const due = await subject.storage.outbox.lease({ now, limit: 500, leaseUntil });
      expect(due.map((notification) => notification.id)).toEqual(Array.from({ length: 500 }, (_, index) => name(index + 1)));
      const wanted = Array.from({ length: 300 }, (_, index) => name(20000 - 2 * index)).reverse();
      const byIds = await subject.storage.outbox.lease({ now, limit: 300, leaseUntil, ids: [...wanted].reverse() });
      expect(byIds.map((notification) => notification.id)).toEqual(wanted);
    } finally {
      await subject.close?.();
    }
  });
});
