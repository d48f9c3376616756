// Writers wanting the same claims in opposite orders, on the real server: the claims' primary key
// decides who wins each one, and since every writer takes its claims in one order, they queue
// instead of deadlocking (no advisory lock needed). Deadlocks are counted at the driver, where a
// retry would otherwise hide them.
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { postgresStore, type PgPoolLike } from "../../src/adapters/postgres/index.js";
import type { PgClientLike, PgQuery } from "../../src/adapters/postgres/pg-like.js";
import type { AppendOutcome, UniqueClaim } from "../../src/index.js";
import { newUserAppend } from "../../src/testing/index.js";
import { findPostgres, postgresSubject } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

const CLAIMS = 300;
const ROUNDS = 4;

interface Deadlocks {
  count: number;
}

/** The pool, its connections counting the deadlocks the server reports (SQLSTATE 40P01). */
function countingDeadlocks(pool: pg.Pool, deadlocks: Deadlocks): PgPoolLike {
  return {
    async connect(): Promise<PgClientLike> {
      const client = await pool.connect();
      return {
        query: (query: PgQuery) =>
          client.query(query).catch((error: unknown) => {
            if ((error as { code?: unknown }).code === "40P01") deadlocks.count += 1;
            throw error;
          }),
        release: (destroy?: boolean | Error) => client.release(destroy),
      };
    },
  };
}

function account(round: number, index: number): UniqueClaim {
  return { kind: "idp_link", scope: "", key: `round-${round}-account-${String(index).padStart(3, "0")}` };
}

const seed = { organizations: [{ id: "org-a", domains: [] }], identityProviders: [] };

describe.skipIf(url === undefined)(`claims taken in one order by every writer (PostgreSQL)${needsServer}`, () => {
  it(`two appends wanting the same ${CLAIMS} claims in opposite orders: one wins them all, the other is refused, and nobody deadlocks`, async () => {
    const subject = await postgresSubject(url ?? "", "order", seed);
    try {
      const deadlocks = { count: 0 };
      const store = postgresStore({ pool: countingDeadlocks(subject.schema.pool, deadlocks) });
      const results: { winners: number; loserConflict: boolean }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const claims = Array.from({ length: CLAIMS }, (_, index) => account(round, index));
        const forward = newUserAppend(`forward-${round}`, { claims });
        const backward = newUserAppend(`backward-${round}`, { claims: [...claims].reverse() });
        const outcomes: AppendOutcome[] = await Promise.all([store.userLog.append(forward), store.userLog.append(backward)]);
        const winner = outcomes[0]?.ok === true ? forward : backward;
        const loser = outcomes.find((outcome) => !outcome.ok);
        // The loser is refused on the first of its own claims, in its order: all are the winner's.
        const loserFirst = winner === forward ? claims[CLAIMS - 1] : claims[0];
        results.push({
          winners: outcomes.filter((outcome) => outcome.ok).length,
          loserConflict: loser !== undefined && !loser.ok && loser.reason === "claim-held" && JSON.stringify(loser.conflict) === JSON.stringify(loserFirst),
        });
      }
      expect({ results, deadlocks: deadlocks.count }).toEqual({ results: Array.from({ length: ROUNDS }, () => ({ winners: 1, loserConflict: true })), deadlocks: 0 });
      const snapshot = await subject.store.snapshot();
      expect(snapshot.claims.filter((claim) => claim.kind === "idp_link")).toHaveLength(CLAIMS * ROUNDS);
    } finally {
      await subject.close?.();
    }
  }, 60_000);

  it(`two batches of ${CLAIMS} new users wanting the same usernames in opposite orders: each username has one holder, and nobody deadlocks`, async () => {
    const subject = await postgresSubject(url ?? "", "order", seed);
    try {
      const deadlocks = { count: 0 };
      const store = postgresStore({ pool: countingDeadlocks(subject.schema.pool, deadlocks) });
      let written = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const name = (index: number): UniqueClaim => ({ kind: "username", scope: "", key: `round-${round}-name-${String(index).padStart(3, "0")}` });
        const ascending = Array.from({ length: CLAIMS }, (_, index) => newUserAppend(`up-${round}-${index}`, { claims: [name(index)] }));
        const descending = Array.from({ length: CLAIMS }, (_, index) => newUserAppend(`down-${round}-${index}`, { claims: [name(CLAIMS - 1 - index)] }));
        const [up, down] = await Promise.all([store.userLog.appendNewUsers(ascending), store.userLog.appendNewUsers(descending)]);
        written += [...(up ?? []), ...(down ?? [])].filter((outcome) => outcome.ok).length;
      }
      const snapshot = await subject.store.snapshot();
      const usernames = snapshot.claims.filter((claim) => claim.kind === "username").map((claim) => claim.key);
      expect({ written, usernames: usernames.length, distinct: new Set(usernames).size, deadlocks: deadlocks.count }).toEqual({
        written: CLAIMS * ROUNDS,
        usernames: CLAIMS * ROUNDS,
        distinct: CLAIMS * ROUNDS,
        deadlocks: 0,
      });
    } finally {
      await subject.close?.();
    }
  }, 60_000);
});
