// A user written in a transaction the host holds: committed with the host's own rows or rolled back
// with them, mail only after the commit, and lost races inside the host's transaction. On the
// PostgreSQL server when one answers, else on PGlite (which has one session, so the tests that hold
// two transactions at once run on the server only).
import { err, ok } from "neverthrow";
import type pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  createHumanUser,
  deliverPendingNotifications,
  importHumanUsers,
  fixedClock,
  memoryMailer,
  type MemoryMailer,
  type Ports,
  type Storage,
  type UniqueClaim,
} from "../../src/index.js";
import { postgresStore, type HostTransactionStore } from "../../src/adapters/postgres/index.js";
import { ACME, countingIds, FIRST_ID, member, minimalCreate, NOW, plainError, SECOND_ID, testKeys, zeroRandom } from "../operations/support/ports.js";
import { fakeHasher } from "../operations/support/import-fixtures.js";
import { newUserAppend, usernameClaim } from "../../src/testing/storage-fixtures.js";
import { patchStorage } from "../support/patch-storage.js";
import { adminInAcme, collect, importedBody, usernameTaken as bulkUsernameTaken, userRequest } from "../bulk/support.js";
import { hostDatabase, type HostDatabase, type HostSubject, type TransactionEnd } from "./host-database.js";

const database: HostDatabase = await hostDatabase();
afterAll(() => database.close());

const seed = { organizations: [ACME], identityProviders: [] };
const context = { requester: member };
const created = (userId: string) => ok({ userId, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" } });
const THIRD_ID = "100000000000000003";
const usernameTaken = err(plainError(6, "USER-n4m6", "the username is already taken"));

function portsOn(storage: Storage, mailer: MemoryMailer, ids = countingIds()): Ports {
  return { storage, mailer, clock: fixedClock(NOW), ids, random: zeroRandom, keys: testKeys };
}

/** The users a store holds, by their user-id claims. */
async function userIds(subject: HostSubject): Promise<readonly string[]> {
  const snapshot = await subject.store.snapshot();
  return snapshot.claims.filter((claim) => claim.kind === "user_id").map((claim) => claim.key);
}

async function withSubject(test: (subject: HostSubject) => Promise<void>): Promise<void> {
  const subject = await database.subject(seed);
  try {
    await test(subject);
  } finally {
    await subject.close();
  }
}

/** A look-up that sees nothing held, so that the append itself meets the held claim (as in a race). */
const blindLookup = { findHeldClaims: async (): Promise<readonly UniqueClaim[]> => [] };

describe(`a user in the host's transaction (${database.label})`, () => {
  it("commit: the host's row and the user are both written; mail goes only when the host delivers after its commit", async () => {
    await withSubject(async (subject) => {
      const mailer = memoryMailer();
      const written = await subject.transaction("commit", async (tx) => {
        await tx.addSignup("ann");
        const result = await createHumanUser(portsOn(tx.storage, mailer), minimalCreate(), context);
        expect(result).toEqual(created(FIRST_ID));
        expect(mailer.sent).toEqual([]);
        return tx.storage.writtenNotificationIds();
      });
      expect(written).toEqual([SECOND_ID]);
      expect(mailer.sent).toEqual([]);
      expect({ signups: await subject.signups(), users: await userIds(subject) }).toEqual({ signups: ["ann"], users: [FIRST_ID] });

      const report = await deliverPendingNotifications(portsOn(subject.store, mailer), { ids: written });
      expect(report).toEqual({ delivered: [SECOND_ID], retrying: [], dead: [], errors: [] });
      expect(mailer.sent.map(({ id, to }) => ({ id, to }))).toEqual([{ id: SECOND_ID, to: "ann@acme.test" }]);
    });
  });

  it("rollback: neither the host's row nor the user is written, and no mail is sent, not even by a worker's round", async () => {
    await withSubject(async (subject) => {
      const mailer = memoryMailer();
      const written = await subject.transaction("rollback", async (tx) => {
        await tx.addSignup("ann");
        expect(await createHumanUser(portsOn(tx.storage, mailer), minimalCreate(), context)).toEqual(created(FIRST_ID));
        return tx.storage.writtenNotificationIds();
      });
      const delivery = portsOn(subject.store, mailer);
      expect(await deliverPendingNotifications(delivery, { ids: written })).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
      expect(await deliverPendingNotifications(delivery)).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
      expect({ signups: await subject.signups(), snapshot: await subject.store.snapshot(), mails: mailer.sent }).toEqual({
        signups: [],
        snapshot: { events: [], claims: [], notifications: [] },
        mails: [],
      });
    });
  });

  it("a username refused by the database itself (a unique-index violation for a new user) answers 6 and leaves the host's transaction usable: its row commits", async () => {
    await withSubject(async (subject) => {
      const mailer = memoryMailer();
      const ids = countingIds();
      await subject.transaction("commit", async (tx) => {
        expect(await createHumanUser(portsOn(tx.storage, mailer, ids), { ...minimalCreate(), username: "ann" }, context)).toEqual(created(FIRST_ID));
      });
      await subject.transaction("commit", async (tx) => {
        const storage = patchStorage(tx.storage, { userLog: blindLookup });
        expect(await createHumanUser(portsOn(storage, mailer, ids), { ...minimalCreate(), username: "ann" }, context)).toEqual(usernameTaken);
        await tx.addSignup("bob");
        expect(tx.storage.writtenNotificationIds()).toEqual([]);
      });
      expect({ signups: await subject.signups(), users: await userIds(subject) }).toEqual({ signups: ["bob"], users: [FIRST_ID] });
    });
  });

  it("a lost race for a generated user id is decided again inside the host's transaction (a savepoint per attempt), and commits", async () => {
    await withSubject(async (subject) => {
      const mailer = memoryMailer();
      await subject.transaction("commit", async (tx) => {
        expect(await createHumanUser(portsOn(tx.storage, mailer), { ...minimalCreate(), username: "ann" }, context)).toEqual(created(FIRST_ID));
      });
      // The same ids again: the first draw is Ann's id, taken (the second went to her mail); the
      // append meets it and the runner decides again with the third.
      const ids = countingIds();
      await subject.transaction("commit", async (tx) => {
        const storage = patchStorage(tx.storage, { userLog: blindLookup });
        const result = await createHumanUser(portsOn(storage, mailer, ids), { ...minimalCreate(), username: "bob" }, context);
        expect(result).toEqual(created(THIRD_ID));
        await tx.addSignup("bob");
      });
      expect({ signups: await subject.signups(), users: await userIds(subject) }).toEqual({ signups: ["bob"], users: [FIRST_ID, THIRD_ID] });
    });
  });
});

describe(`several writes in one host transaction (${database.label})`, () => {
  it("two operations at once on one bound store take turns: one gets the username, the other answers 6, and both end in the one commit", async () => {
    await withSubject(async (subject) => {
      const mailer = memoryMailer();
      const ids = countingIds();
      const answers = await subject.transaction("commit", async (tx) => {
        const storage = patchStorage(tx.storage, { userLog: blindLookup });
        const ann = { ...minimalCreate(), username: "ann" };
        const both = await Promise.all([createHumanUser(portsOn(storage, mailer, ids), ann, context), createHumanUser(portsOn(storage, mailer, ids), ann, context)]);
        await tx.addSignup("ann");
        return both;
      });
      expect(answers).toEqual([created(FIRST_ID), usernameTaken]);
      expect({ signups: await subject.signups(), users: await userIds(subject) }).toEqual({ signups: ["ann"], users: [FIRST_ID] });
    });
  });

  it("a bulk import inside the host's transaction: each item answered as alone, its notifications kept for after the commit", async () => {
    await withSubject(async (subject) => {
      const mailer = memoryMailer();
      const items = [userRequest("ann"), userRequest("Ann", { email: "ann.again@example.com" }), { ...userRequest("dee"), email: { email: "dee@example.com" } }];
      const { outcomes, written } = await subject.transaction("commit", async (tx) => {
        const ports = { ...portsOn(tx.storage, mailer), passwordHasher: fakeHasher };
        const outcomes = await collect(importHumanUsers(ports, items, adminInAcme, { batchSize: 3 }));
        await tx.addSignup("import");
        return { outcomes, written: tx.storage.writtenNotificationIds() };
      });
      expect(outcomes).toEqual([
        { index: 0, ok: importedBody() },
        { index: 1, error: bulkUsernameTaken, conflict: { claim: "username", field: "userName", earlierIndex: 0 } },
        { index: 2, ok: importedBody() },
      ]);
      const snapshot = await subject.store.snapshot();
      expect({ written, mails: mailer.sent, signups: await subject.signups() }).toEqual({
        written: snapshot.notifications.map((notification) => notification.id),
        mails: [],
        signups: ["import"],
      });
      expect(written).toHaveLength(1);
    });
  });

  it("a batch of new users in which one meets a held claim: each answered as alone, and the host's transaction stays usable and commits", async () => {
    await withSubject(async (subject) => {
      const held = newUserAppend("holder", { claims: [usernameClaim("taken")] });
      expect(await subject.store.userLog.append(held)).toEqual({ ok: true });
      const batch = [newUserAppend("a1"), newUserAppend("a2", { claims: [usernameClaim("taken")] }), newUserAppend("a3")];
      const outcomes = await subject.transaction("commit", async (tx) => {
        const answered = await tx.storage.userLog.appendNewUsers(batch);
        await tx.addSignup("after the batch");
        return answered;
      });
      expect(outcomes).toEqual([{ ok: true }, { ok: false, reason: "claim-held", conflict: usernameClaim("taken") }, { ok: true }]);
      expect({ users: [...(await userIds(subject))].sort(), signups: await subject.signups() }).toEqual({ users: ["a1", "a3", "holder"], signups: ["after the batch"] });
    });
  });
});

/** A transaction of the host held open on its own connection, for tests that interleave two. */
interface OpenTransaction {
  readonly storage: HostTransactionStore;
  readonly pid: number;
  addSignup(name: string): Promise<void>;
  end(how: TransactionEnd): Promise<void>;
}

async function begin(pool: pg.Pool, isolation = "READ COMMITTED"): Promise<OpenTransaction> {
  const client = await pool.connect();
  await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
  const pid = Number((await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid);
  return {
    storage: postgresStore({ pool }).inTransaction(client),
    pid,
    addSignup: async (name) => {
      await client.query("INSERT INTO signups (name) VALUES ($1)", [name]);
    },
    async end(how) {
      await client.query(how === "commit" ? "COMMIT" : "ROLLBACK");
      client.release();
    },
  };
}

/** Resolves once the backend `pid` waits for a lock another transaction holds. */
async function waitingForLock(pool: pg.Pool, pid: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const waiting = await pool.query("SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted", [pid]);
    if (waiting.rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`backend ${pid} never waited for a lock`);
}

const needsServer = database.concurrent ? "" : " (skipped: PGlite has one session, so two transactions cannot be held at once; set HUMAN_USERS_PG_URL)";

describe.skipIf(!database.concurrent)(`two host transactions racing for one username (${database.label})${needsServer}`, () => {
  const ann = { ...minimalCreate(), username: "ann" };

  /** The first holds Ann uncommitted; the second asks for her too and waits for the first to end. */
  async function race(subject: HostSubject, firstEnds: TransactionEnd, secondIsolation?: string) {
    const pool = subject.pool as pg.Pool;
    const mailer = memoryMailer();
    const ids = countingIds();
    const first = await begin(pool);
    const second = await begin(pool, secondIsolation);
    expect(await createHumanUser(portsOn(first.storage, mailer, ids), ann, context)).toEqual(created(FIRST_ID));
    await first.addSignup("first");
    const secondAnswer = createHumanUser(portsOn(second.storage, mailer, ids), ann, context);
    await waitingForLock(pool, second.pid);
    await first.end(firstEnds);
    const answer = await secondAnswer;
    await second.addSignup("second");
    await second.end("commit");
    return { answer, second, mails: mailer.sent.length };
  }

  it("the first commits: the second answers 6, its own row still commits, and exactly one user exists", async () => {
    await withSubject(async (subject) => {
      const { answer, second, mails } = await race(subject, "commit");
      expect(answer).toEqual(usernameTaken);
      expect(second.storage.writtenNotificationIds()).toEqual([]);
      expect({ signups: await subject.signups(), users: await userIds(subject), mails }).toEqual({ signups: ["first", "second"], users: [FIRST_ID], mails: 0 });
    });
  });

  it("the first rolls back: the second gets the username", async () => {
    await withSubject(async (subject) => {
      const { answer, mails } = await race(subject, "rollback");
      expect(answer).toEqual(created(THIRD_ID));
      expect({ signups: await subject.signups(), users: await userIds(subject), mails }).toEqual({ signups: ["second"], users: [THIRD_ID], mails: 0 });
    });
  });

  it("REPEATABLE READ: the second cannot see the winner, answers 10, and the host's retry of its transaction answers 6", async () => {
    await withSubject(async (subject) => {
      const { answer } = await race(subject, "commit", "REPEATABLE READ");
      expect(answer).toEqual(err(plainError(10, "USER-4brt", "the user was changed by another request at the same time, more often than the retries allow; try again")));
      const retried = await begin(subject.pool as pg.Pool, "REPEATABLE READ");
      expect(await createHumanUser(portsOn(retried.storage, memoryMailer(), countingIds()), ann, context)).toEqual(usernameTaken);
      await retried.end("commit");
      expect(await userIds(subject)).toEqual([FIRST_ID]);
    });
  });
});
