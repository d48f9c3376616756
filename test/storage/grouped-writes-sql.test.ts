// New users' writes grouped into one statement by the SQL store (PostgreSQL when a server answers,
// else PGlite): what a group writes is exactly what the same writes alone write; a group the
// database refuses answers each write as alone; a group that cannot be written changes nothing.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pgliteStore, migratePglite, type PgliteLike } from "../../src/adapters/pglite/index.js";
import { migrate, postgresStore, type SqlStore } from "../../src/adapters/postgres/index.js";
import type { PgPoolLike, PgQuery } from "../../src/adapters/postgres/pg-like.js";
import * as sql from "../../src/adapters/postgres/statements.js";
import { StorageUnavailableError, type AppendOutcome, type UserAppend } from "../../src/ports/storage.js";
import { newUserAppend } from "../../src/testing/index.js";
import { at, usernameClaim } from "../../src/testing/storage-fixtures.js";
import { findPostgres, freshSchemaName, schemaPool, type SchemaPool } from "./databases.js";
import { watchedPool } from "./support/watched-pool.js";

const url = await findPostgres();

/** How a test sees each statement: named when it is one of the appends, and a failure to inject. */
interface Watch {
  readonly sent: string[];
  /** The error the statement fails with instead of running, if any. */
  failing?: ((text: string) => Error | undefined) | undefined;
  /** A wait before the statement goes on to the database, if any. */
  holding?: ((text: string) => Promise<void> | undefined) | undefined;
}

const names = new Map<string, string>([
  [sql.newUserAppendSql, "alone"],
  [sql.newUserAppendWithNotificationsSql, "alone"],
  [sql.newUsersAppendSql, "group"],
  [sql.newUsersAppendWithNotificationsSql, "group"],
  [sql.deliveredSql, "report"],
]);

interface Subject {
  readonly store: SqlStore;
  readonly watch: Watch;
  /** Every listing row, by user id, as the database has it. */
  listings(): Promise<readonly unknown[]>;
  /** Runs `work` with the store bound to a transaction the test holds, then commits it. */
  inHeldTransaction<T>(work: (store: SqlStore) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

let pglite: PGlite | undefined;
beforeAll(async () => {
  if (url === undefined) pglite = new PGlite();
}, 120_000);
afterAll(() => pglite?.close());

const listingsSql = "SELECT * FROM human_users_listings ORDER BY user_id";

async function subject(maxWritesInFlight: number): Promise<Subject> {
  const watch: Watch = { sent: [] };
  const observe = (text: string): void => {
    const error = watch.failing?.(text);
    watch.sent.push(names.get(text) ?? "other");
    if (error !== undefined) throw error;
  };
  if (url !== undefined) {
    const schema: SchemaPool = await schemaPool(url, "grouped");
    await migrate(schema.pool);
    const watched = watchedPool(schema.pool, { sent: (query: PgQuery) => observe(query.text) });
    // A failure injected as the connection dying: the query rejects, as pg's does.
    const pool: PgPoolLike = {
      async connect() {
        const client = await watched.connect();
        return {
          ...client,
          query: (query: PgQuery) => {
            try {
              const hold = watch.holding?.(query.text);
              return hold === undefined ? client.query(query) : hold.then(() => client.query(query));
            } catch (error) {
              return Promise.reject(error);
            }
          },
        };
      },
    };
    return {
      store: postgresStore({ pool, maxWritesInFlight }),
      watch,
      listings: async () => (await schema.pool.query(listingsSql)).rows,
      async inHeldTransaction(work) {
        const client = await schema.pool.connect();
        try {
          await client.query("BEGIN");
          const held = postgresStore({ pool, maxWritesInFlight }).inTransaction({
            query: (query: PgQuery) => {
              observe(query.text);
              return client.query(query);
            },
          });
          const value = await work(held);
          await client.query("COMMIT");
          return value;
        } finally {
          client.release();
        }
      },
      close: () => schema.drop(),
    };
  }
  const db = pglite as PGlite;
  const schema = freshSchemaName("grouped");
  await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  await migratePglite(db);
  const watched: PgliteLike = {
    query: async (text, params) => {
      observe(text);
      await watch.holding?.(text);
      return db.query(text, params);
    },
    exec: (script) => db.exec(script),
    transaction: (body) => db.transaction(body),
  };
  return {
    store: pgliteStore({ db: watched, maxWritesInFlight }),
    watch,
    listings: async () => (await db.query(`SELECT * FROM ${schema}.human_users_listings ORDER BY user_id`)).rows,
    inHeldTransaction: (work) =>
      db.transaction((tx) =>
        work(
          pgliteStore({ db: watched, maxWritesInFlight }).inTransaction({
            query: async (text, params) => {
              observe(text);
              return tx.query(text, params);
            },
            exec: (script) => tx.exec(script),
            rollback: () => tx.rollback(),
          }),
        ),
      ),
    close: async () => {
      await db.exec(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

/** Appends `appends` all at once; the first takes the one place, the others wait and go as groups. */
function allAtOnce(store: SqlStore, appends: readonly UserAppend[]): Promise<AppendOutcome[]> {
  return Promise.all(allAtOnceEach(store, appends));
}

/** A snapshot in an order that does not depend on which write committed first. */
async function contents(target: Subject) {
  const snapshot = await target.store.snapshot();
  const byUser = <T extends { readonly aggregateId?: string; readonly userId?: string }>(rows: readonly T[]) =>
    [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    events: byUser(snapshot.events),
    claims: [...snapshot.claims].sort((a, b) => `${a.kind}/${a.key}`.localeCompare(`${b.kind}/${b.key}`)),
    notifications: byUser(snapshot.notifications),
    listings: await target.listings(),
  };
}

const server = url === undefined ? "PGlite (no server found)" : "PostgreSQL";

describe(`grouped new users' writes on ${server}`, () => {
  const open: Subject[] = [];
  async function opened(maxWritesInFlight: number): Promise<Subject> {
    const made = await subject(maxWritesInFlight);
    open.push(made);
    return made;
  }
  afterEach(async () => {
    // PGlite has one session: its schemas are dropped one after another.
    for (const made of open.splice(0)) await made.close();
  });

  /** 30 users, some with notifications, some leased to the writer. */
  const thirty = Array.from({ length: 30 }, (_, index) => {
    const append = newUserAppend(`u${String(index).padStart(2, "0")}`, { notifications: index % 3 });
    return index % 2 === 0 ? { ...append, leaseNotificationsUntil: at(60_000) } : append;
  });

  it("writes 30 users appended at once as one alone and one group, exactly the rows the same writes make one by one", async () => {
    // One after the other: PGlite's one session sees one schema at a time.
    const grouped = await opened(1);
    const groupedOutcomes = await allAtOnce(grouped.store, thirty);
    expect(grouped.watch.sent).toEqual(["alone", "group"]);
    const written = await contents(grouped);
    await open.splice(0)[0]?.close();
    const alone = await opened(Infinity);
    const aloneOutcomes: AppendOutcome[] = [];
    for (const append of thirty) aloneOutcomes.push(await alone.store.userLog.append(append));
    expect(alone.watch.sent).toEqual(thirty.map(() => "alone"));
    expect(groupedOutcomes).toEqual(aloneOutcomes);
    expect(written.listings).toHaveLength(30);
    const leased = thirty.filter((append) => append.leaseNotificationsUntil !== undefined).reduce((count, append) => count + append.notifications.length, 0);
    expect(leased).toBe(15);
    expect(written.notifications.filter((record) => record.leasedUntil === at(60_000).toISOString())).toHaveLength(leased);
    expect(written).toEqual(await contents(alone));
  });

  it("answers claim-held to the one user of a group whose username is taken, and writes the others", async () => {
    const target = await opened(1);
    expect(await target.store.userLog.append(newUserAppend("holder", { claims: [usernameClaim("ann")] }))).toEqual({ ok: true });
    const appends = [
      newUserAppend("first"),
      newUserAppend("b1"),
      newUserAppend("taker", { claims: [usernameClaim("ann")] }),
      newUserAppend("b2"),
    ];
    expect(await allAtOnce(target.store, appends)).toEqual([
      { ok: true },
      { ok: true },
      { ok: false, reason: "claim-held", conflict: usernameClaim("ann") },
      { ok: true },
    ]);
    // The group was refused as a whole, and each of its writes went alone.
    expect(target.watch.sent.slice(0, 3)).toEqual(["alone", "alone", "group"]);
    const { listings, claims } = await contents(target);
    expect((listings as { user_id: string }[]).map((row) => row.user_id)).toEqual(["b1", "b2", "first", "holder"]);
    expect(claims.filter((claim) => claim.key === "ann")).toEqual([usernameClaim("ann")]);
    expect(claims).toHaveLength(8);
  });

  it("lets the first of two users wanting one username in line win it, the other answered claim-held", async () => {
    const target = await opened(1);
    const appends = [
      newUserAppend("first"),
      newUserAppend("u1", { claims: [usernameClaim("same")] }),
      newUserAppend("u2", { claims: [usernameClaim("same")] }),
      newUserAppend("u3"),
    ];
    expect(await allAtOnce(target.store, appends)).toEqual([{ ok: true }, { ok: true }, { ok: false, reason: "claim-held", conflict: usernameClaim("same") }, { ok: true }]);
    // u2 never shared a group with u1: its group went, then it went alone.
    expect(target.watch.sent.slice(0, 3)).toEqual(["alone", "group", "alone"]);
  });

  it("writes the others of a group when one user's write is one the database cannot take, which fails as it would alone", async () => {
    const target = await opened(1);
    const broken = newUserAppend("broken");
    // A NUL in a JSON text: jsonb refuses it (22P05), whoever else is in the statement.
    const unstorable = { ...broken, events: broken.events.map((event) => ({ ...event, payload: { text: "a\u0000b" } })) };
    const outcomes = await Promise.allSettled(allAtOnceEach(target.store, [newUserAppend("first"), newUserAppend("g1"), unstorable, newUserAppend("g2")]));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    const failure = outcomes[2]?.status === "rejected" ? (outcomes[2].reason as { code?: unknown }) : undefined;
    expect(failure).not.toBeInstanceOf(StorageUnavailableError);
    expect(failure?.code).toBe("22P05");
    expect(target.watch.sent.slice(0, 2)).toEqual(["alone", "group"]);
    const { listings } = await contents(target);
    expect((listings as { user_id: string }[]).map((row) => row.user_id)).toEqual(["first", "g1", "g2"]);
  });

  it("rejects every write of a group the database cannot take with StorageUnavailableError, and writes none of them", async () => {
    const target = await opened(1);
    target.watch.failing = (text) => (names.get(text) === "group" ? new Error("Connection terminated unexpectedly") : undefined);
    const outcomes = await Promise.allSettled(allAtOnceEach(target.store, [newUserAppend("first"), newUserAppend("g1"), newUserAppend("g2")]));
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : outcome.reason instanceof StorageUnavailableError))).toEqual([
      { ok: true },
      true,
      true,
    ]);
    expect(target.watch.sent).toEqual(["alone", "group"]);
    target.watch.failing = undefined;
    const { listings, events } = await contents(target);
    expect((listings as { user_id: string }[]).map((row) => row.user_id)).toEqual(["first"]);
    expect(new Set(events.map((event) => event.aggregateId))).toEqual(new Set(["first"]));
  });

  it("never groups the writes of a store bound to a transaction the host holds: they share its connection and its fate", async () => {
    const target = await opened(1);
    const appends = [newUserAppend("h1"), newUserAppend("h2"), newUserAppend("h3"), newUserAppend("h4")];
    const outcomes = await target.inHeldTransaction((held) => allAtOnce(held, appends));
    expect(outcomes).toEqual(appends.map(() => ({ ok: true })));
    expect(target.watch.sent.filter((name) => name !== "other")).toEqual(["alone", "alone", "alone", "alone"]);
    const { listings } = await contents(target);
    expect((listings as { user_id: string }[]).map((row) => row.user_id)).toEqual(["h1", "h2", "h3", "h4"]);
  });

  /** A user whose notification is written leased to this process, ready to be reported delivered. */
  async function withDelivery(target: Subject, userId: string): Promise<string> {
    const append = { ...newUserAppend(userId, { notifications: 1 }), leaseNotificationsUntil: at(60_000) };
    expect(await target.store.userLog.append(append)).toEqual({ ok: true, leased: append.notifications.map((notification) => ({ ...notification, attempts: 0 })) });
    return append.notifications[0]?.id ?? "";
  }

  async function stateOf(target: Subject, id: string): Promise<readonly unknown[]> {
    const record = (await target.store.snapshot()).notifications.find((notification) => notification.id === id);
    return [record?.state, record?.code, record?.deliveredAt];
  }

  /** Each notification delivered at its time, code and link erased. */
  async function expectDelivered(target: Subject, deliveries: readonly (readonly [id: string, at: Date])[]): Promise<void> {
    const states = await Promise.all(deliveries.map(([id]) => stateOf(target, id)));
    expect(states).toEqual(deliveries.map(([, when]) => ["delivered", "", when.toISOString()]));
  }

  it("sends a delivery report in a statement of its own at once, also while writes are on their way, which carry none", async () => {
    const target = await opened(1);
    const id = await withDelivery(target, "mailed");
    target.watch.sent.length = 0;
    const writes = allAtOnceEach(target.store, [newUserAppend("first"), newUserAppend("g1"), newUserAppend("g2")]);
    const reported = target.store.outbox.markDelivered(id, at(5_000));
    expect(await Promise.all([...writes, reported])).toEqual([{ ok: true }, { ok: true }, { ok: true }, undefined]);
    expect([...target.watch.sent].sort()).toEqual(["alone", "group", "report"]);
    await expectDelivered(target, [[id, at(5_000)]]);
    expect((await contents(target)).listings).toHaveLength(4);
  });

  it("sends the reports given together in one statement, and those given while it is on its way in the next one, after it", async () => {
    const target = await opened(1);
    const ids = await Promise.all(["r1", "r2", "r3", "r4", "r5"].map((userId) => withDelivery(target, userId)));
    target.watch.sent.length = 0;
    const [r1, r2, r3, r4, r5] = ids as [string, string, string, string, string];
    // The first report statement is held on its way until the later reports are given.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reportStatements = 0;
    let firstOnItsWay: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (firstOnItsWay = resolve));
    target.watch.holding = (text) => {
      if (names.get(text) !== "report") return undefined;
      reportStatements += 1;
      if (reportStatements > 1) return undefined;
      firstOnItsWay();
      return held;
    };
    const first = [target.store.outbox.markDelivered(r1, at(1_000)), target.store.outbox.markDelivered(r2, at(2_000))];
    await started;
    const second = [r3, r4, r5].map((id, index) => target.store.outbox.markDelivered(id, at(3_000 + index * 1_000)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One statement on its way at a time: the later three wait for it.
    expect(reportStatements).toBe(1);
    release();
    expect(await Promise.all([...first, ...second])).toEqual([undefined, undefined, undefined, undefined, undefined]);
    target.watch.holding = undefined;
    expect(target.watch.sent).toEqual(["report", "report"]);
    await expectDelivered(target, ids.map((id, index) => [id, at((index + 1) * 1_000)] as const));
  });

  it("rejects a report whose statement cannot be written, and leaves its notification pending", async () => {
    const target = await opened(1);
    const id = await withDelivery(target, "mailed");
    target.watch.failing = (text) => (names.get(text) === "report" ? new Error("Connection terminated unexpectedly") : undefined);
    const reported = target.store.outbox.markDelivered(id, at(5_000)).then(
      () => "written",
      (error: unknown) => (error instanceof StorageUnavailableError ? "unavailable" : String(error)),
    );
    expect(await reported).toBe("unavailable");
    target.watch.failing = undefined;
    expect(await stateOf(target, id)).toEqual(["pending", expect.any(String), undefined]);
  });

  it("writes a batch of new users nobody holds claims of as one plain statement, and a refused one the careful way", async () => {
    const target = await opened(1);
    const batch = [newUserAppend("b1", { notifications: 1 }), newUserAppend("b2")];
    expect(await target.store.userLog.appendNewUsers(batch)).toEqual([{ ok: true }, { ok: true }]);
    expect(target.watch.sent).toEqual(["group"]);
    target.watch.sent.length = 0;
    const clashing = [newUserAppend("c1", { claims: [usernameClaim("same")] }), newUserAppend("c2", { claims: [usernameClaim("same")] }), newUserAppend("c3")];
    expect(await target.store.userLog.appendNewUsers(clashing)).toEqual([{ ok: true }, { ok: false, reason: "claim-held", conflict: usernameClaim("same") }, { ok: true }]);
    // The plain statement was refused as a whole (two writes wanting one name), then the transaction answered each.
    expect(target.watch.sent.filter((name) => name === "group")).toEqual(["group"]);
    const { listings, notifications } = await contents(target);
    expect((listings as { user_id: string }[]).map((row) => row.user_id)).toEqual(["b1", "b2", "c1", "c3"]);
    const writtenAppends = [...batch, ...clashing].filter((append) => append.userId !== "c2");
    expect(notifications.map((record) => record.id).sort()).toEqual(writtenAppends.flatMap((append) => append.notifications.map((notification) => notification.id)).sort());
  });

  it("writes a batch of new users exactly as the same writes one by one, texts with tabs, newlines, backslashes, quotes and astral characters included", async () => {
    const texts = ["tab\there", "line\nbreak", "carriage\rreturn", "back\\slash", "\\N", "\\u0041", "\"quoted\", 'single'", "astral 𝒜😀", "ends with \\"];
    const batch = texts.map((text, index) => {
      const append = newUserAppend(`x${index}`, { claims: [usernameClaim(text)], notifications: index % 3 });
      const withPhone = index % 2 === 0 ? { phone: `+4179${index}000000`, passwordChangedAt: at(index).toISOString() } : {};
      return {
        ...append,
        ...(index % 2 === 0 ? { leaseNotificationsUntil: at(60_000) } : {}),
        events: append.events.map((event) => ({ ...event, payload: { ...event.payload, text, nested: { text: [text, { deeper: text }] } } })),
        notifications: append.notifications.map((notification) => ({ ...notification, displayName: text, username: text, link: `https://acme.example/?t=${encodeURIComponent(text)}` })),
        listing: { ...append.listing, username: text, givenName: text, familyName: text, nickName: text, displayName: text, usernameFolded: text, displayNameFolded: text, ...withPhone },
      };
    });
    const together = await opened(1);
    // A write that asked for a lease is answered with its notifications, leased to the writer.
    const answers = batch.map((append) => (append.leaseNotificationsUntil === undefined ? { ok: true } : { ok: true, leased: append.notifications.map((notification) => ({ ...notification, attempts: 0 })) }));
    expect(await together.store.userLog.appendNewUsers(batch)).toEqual(answers);
    const written = await contents(together);
    await open.splice(0)[0]?.close();
    const alone = await opened(Infinity);
    // One by one, a leased write answers its leased notifications too.
    for (const append of batch) expect((await alone.store.userLog.append(append)).ok).toBe(true);
    expect(written.listings).toHaveLength(texts.length);
    expect(written).toEqual(await contents(alone));
  });

  it("refuses a maxWritesInFlight that is not a whole number of at least 1, or Infinity", () => {
    const db = { query: () => Promise.reject(new Error("unused")), exec: () => Promise.reject(new Error("unused")), transaction: () => Promise.reject(new Error("unused")) };
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => pgliteStore({ db, maxWritesInFlight: bad })).toThrow(new RangeError(`maxWritesInFlight must be a whole number of at least 1, or Infinity; got ${String(bad)}`));
    }
    expect(() => pgliteStore({ db, maxWritesInFlight: Infinity })).not.toThrow();
    expect(() => postgresStore({ pool: { connect: () => Promise.reject(new Error("unused")) }, maxWritesInFlight: 0 })).toThrow(RangeError);
  });
});

/** Each append's own promise, all started at once. */
function allAtOnceEach(store: SqlStore, appends: readonly UserAppend[]): Promise<AppendOutcome>[] {
  return appends.map((append) => store.userLog.append(append));
}
