// 200 concurrent createHumanUser calls contending for 20 usernames on the real server: the
// database's unique index lets exactly one writer win each name, and the losers leave nothing.
import { describe, expect, it } from "vitest";
import { createHumanUser, memoryMailer, systemClock, type Ports } from "../../src/index.js";
import { testKeys } from "../operations/support/ports.js";
import { findPostgres, postgresSubject } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

const CALLS = 200;
const USERNAMES = 20;
const seed = { organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }], identityProviders: [] };
const context = { requester: { userId: "admin", orgId: "acme" } };

function request(call: number): Record<string, unknown> {
  return {
    username: `contender-${call % USERNAMES}`,
    profile: { givenName: "Ann", familyName: "Lee" },
    email: { email: `caller-${call}@example.com` },
  };
}

describe.skipIf(url === undefined)(`createHumanUser racing on PostgreSQL${needsServer}`, () => {
  it(`${CALLS} concurrent calls for ${USERNAMES} usernames: ${USERNAMES} succeed, the rest answer 6, no orphans`, async () => {
    const subject = await postgresSubject(url ?? "", "race", seed);
    try {
      const mailer = memoryMailer();
      // Counts the losers refused by the database itself (not by the earlier look-up), to show the race was real.
      let refusedAtWrite = 0;
      const storage = {
        ...subject.store,
        userLog: {
          ...subject.store.userLog,
          append: async (write: Parameters<typeof subject.store.userLog.append>[0]) => {
            const outcome = await subject.store.userLog.append(write);
            if (!outcome.ok) refusedAtWrite += 1;
            return outcome;
          },
        },
      };
      const ports: Ports = { storage, mailer, clock: systemClock, keys: testKeys };
      const results = await Promise.all(Array.from({ length: CALLS }, (_, call) => createHumanUser(ports, request(call), context)));

      const outcomes: Record<string, number> = {};
      for (const result of results) {
        const key = result.isOk() ? "ok" : `code ${result.error.code}`;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
      expect(outcomes).toEqual({ ok: USERNAMES, [`code 6`]: CALLS - USERNAMES });
      expect(refusedAtWrite).toBeGreaterThan(0);

      const winners = results.flatMap((result) => (result.isOk() ? [result.value.userId] : [])).sort();
      const snapshot = await subject.store.snapshot();
      const eventsOf = (userId: string) => snapshot.events.filter((event) => event.aggregateId === userId);
      expect({
        distinctWinners: new Set(winners).size,
        usernamesWon: snapshot.claims.filter((claim) => claim.kind === "username").map((claim) => claim.key).sort(),
        userIdClaims: snapshot.claims.filter((claim) => claim.kind === "user_id").map((claim) => claim.key).sort(),
        usersWithEvents: [...new Set(snapshot.events.map((event) => event.aggregateId))].sort(),
        sequencesPerWinner: winners.map((userId) => eventsOf(userId).map((event) => event.sequence)),
        notifiedUsers: snapshot.notifications.map((notification) => notification.userId).sort(),
        notificationStates: [...new Set(snapshot.notifications.map((notification) => notification.state))],
        mailsSent: mailer.sent.length,
      }).toEqual({
        distinctWinners: USERNAMES,
        usernamesWon: Array.from({ length: USERNAMES }, (_, index) => `contender-${index}`).sort(),
        userIdClaims: winners,
        usersWithEvents: winners,
        sequencesPerWinner: winners.map(() => [1, 2]),
        notifiedUsers: winners,
        notificationStates: ["delivered"],
        mailsSent: USERNAMES,
      });

      // The same question asked of the tables directly: nothing that does not belong to a winner.
      const orphans = await subject.schema.pool.query(`
        SELECT
          (SELECT count(*) FROM human_users_claims c WHERE NOT EXISTS (SELECT 1 FROM human_users_events e WHERE e.aggregate_id = c.user_id))::int AS claims,
          (SELECT count(*) FROM human_users_outbox o WHERE NOT EXISTS (SELECT 1 FROM human_users_events e WHERE e.aggregate_id = o.user_id))::int AS notifications,
          (SELECT count(DISTINCT aggregate_id) FROM human_users_events)::int AS users`);
      expect(orphans.rows).toEqual([{ claims: 0, notifications: 0, users: USERNAMES }]);
    } finally {
      await subject.close?.();
    }
  }, 120_000);
});
