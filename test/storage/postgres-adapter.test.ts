// What the PostgreSQL adapter promises beyond the contract: migrations, and failures of the
// connection answered as "unavailable" with nothing half-written left behind.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { isConnectionFailure } from "../../src/adapters/postgres/connection-failure.js";
import { migrate, migrations, postgresStore } from "../../src/adapters/postgres/index.js";
import { migrationFileText } from "../../src/adapters/postgres/migrations.js";
import type { PgClientLike, PgPoolLike, PgQuery } from "../../src/adapters/postgres/pg-like.js";
import { createHumanUser, memoryMailer, systemClock } from "../../src/index.js";
import { StorageUnavailableError } from "../../src/ports/storage.js";
import { contractIdentityProviders, contractOrganizations, newUserAppend } from "../../src/testing/index.js";
import { usernameClaim } from "../../src/testing/storage-fixtures.js";
import { statementName } from "../../src/adapters/postgres/statement-name.js";
import * as statements from "../../src/adapters/postgres/statements.js";
import { testKeys } from "../operations/support/ports.js";
import { findPostgres, postgresSubject, schemaPool } from "./databases.js";

const url = await findPostgres();
const seed = { organizations: contractOrganizations, identityProviders: contractIdentityProviders };
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";

function codeError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("connection failures", () => {
  it("tells connection failures from other database errors", () => {
    const errors = [
      codeError("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"),
      codeError("read ECONNRESET", "ECONNRESET"),
      codeError("terminating connection due to administrator command", "57P01"),
      codeError("the database system is starting up", "57P03"),
      codeError("connection failure", "08006"),
      codeError("sorry, too many clients already", "53300"),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
      new Error("Client has encountered a connection error and is not queryable"),
      new AggregateError([codeError("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")], ""),
      new StorageUnavailableError("down"),
      codeError('duplicate key value violates unique constraint "x"', "23505"),
      codeError("syntax error at or near", "42601"),
      // The server's own statement_timeout, as the store's limit is: out of time, try again (14).
      codeError("canceling statement due to statement timeout", "57014"),
      // A statement the server could not take (too many parameters): it answered, so it is there.
      codeError("bind message has 6466 parameter formats but 0 parameters", "08P01"),
      new Error("something else"),
      "ECONNREFUSED",
    ];
    expect(errors.map(isConnectionFailure)).toEqual([true, true, true, true, true, true, true, true, true, true, true, false, false, true, false, false, false]);
  });

  it("refuses to be made from a pool passed as the options, or from nothing, saying what to pass", () => {
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none" });
    const made = [pool, {}, undefined].map((options) => {
      try {
        postgresStore(options as unknown as Parameters<typeof postgresStore>[0]);
        return "made";
      } catch (error) {
        return error instanceof TypeError ? error.message : "other error";
      }
    });
    expect(made).toEqual(Array(3).fill("postgresStore takes { pool }: a pg Pool (new pg.Pool({ connectionString })) as the pool member of its options"));
    void pool.end();
  });

  it("rejects every call with StorageUnavailableError when the server refuses connections", async () => {
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 2_000 });
    pool.on("error", () => undefined);
    const store = postgresStore({ pool });
    const now = new Date();
    const calls: Array<() => Promise<unknown>> = [
      () => store.directory.findOrganization("org-a"),
      () => store.directory.findOrganizationByDomain("acme.example"),
      () => store.directory.findIdentityProvider("idp"),
      () => store.userLog.findHeldClaims([{ kind: "username", scope: "", key: "a" }]),
      () => store.userLog.append(newUserAppend("u1")),
      () => store.userLog.loadEvents("u1"),
      () => store.outbox.lease({ now, limit: 1, leaseUntil: now }),
      () => store.outbox.markDelivered("n", now),
      () => store.outbox.markFailed("n", { at: now, error: "x" }),
      () => migrate(pool),
    ];
    const outcomes = await Promise.all(calls.map((call) => call().then(() => "resolved", (error: unknown) => (error instanceof StorageUnavailableError ? "unavailable" : String(error)))));
    expect(outcomes).toEqual(calls.map(() => "unavailable"));
    await pool.end();
  });

  it("makes createHumanUser answer 14 when the database cannot be reached", async () => {
    const pool = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 2_000 });
    pool.on("error", () => undefined);
    const ports = { storage: postgresStore({ pool }), mailer: memoryMailer(), clock: systemClock, keys: testKeys };
    const request = { profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.example" } };
    const result = await createHumanUser(ports, request, { requester: { userId: "admin", orgId: "org-a" } });
    expect(result.isErr() ? result.error : result.value).toEqual({
      code: 14,
      message: "storage is unavailable, try again later",
      details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-unv4", message: "storage is unavailable, try again later" }],
    });
    await pool.end();
  });
});

describe("prepared statements", () => {
  it("gives every statement of the store its own stable name, a valid PostgreSQL identifier", () => {
    const texts = Object.values(statements);
    const names = texts.map(statementName);
    expect(new Set(names).size).toBe(texts.length);
    expect(names.every((name) => /^human_users_[0-9a-f]{16}$/.test(name) && name.length <= 63)).toBe(true);
    expect(texts.map(statementName)).toEqual(names);
  });
});

describe.skipIf(url === undefined)(`without prepared statements (for transaction-mode poolers)${needsServer}`, () => {
  it("writes, refuses a held claim, and hands out notifications the same way", async () => {
    const subject = await postgresSubject(url ?? "", "unprepared", seed);
    // One connection, so that pg_prepared_statements below looks at the very session the store used.
    const single = new pg.Pool({ connectionString: url ?? "", max: 1, options: `-c search_path=${subject.schema.schema}` });
    try {
      const store = postgresStore({ pool: single, preparedStatements: false });
      const write = newUserAppend("u1");
      expect(await store.userLog.append(write)).toEqual({ ok: true });
      expect(await store.userLog.append(newUserAppend("u2", { claims: write.claims.slice(1) }))).toEqual({ ok: false, reason: "claim-held", conflict: write.claims[1] });
      expect(await store.userLog.loadEvents("u1")).toEqual(write.events);
      const now = new Date("2030-01-01T00:00:00.000Z");
      expect((await store.outbox.lease({ now, limit: 10, leaseUntil: new Date(now.getTime() + 1_000), ids: ["u1-n0"] })).map((n) => n.id)).toEqual(["u1-n0"]);
      const prepared = await single.query("SELECT count(*)::int AS count FROM pg_prepared_statements WHERE name LIKE 'human_users_%'");
      expect(prepared.rows).toEqual([{ count: 0 }]);
    } finally {
      await single.end();
      await subject.close?.();
    }
  });
});

describe.skipIf(url === undefined)(`an organization id no database can hold${needsServer}`, () => {
  it("answers as for an organization that does not exist (7, or 5 to an instance admin), never 13: the database is not asked", async () => {
    const subject = await postgresSubject(url ?? "", "badorg", seed);
    try {
      const ports = { storage: subject.store, mailer: memoryMailer(), clock: systemClock, keys: testKeys };
      const request = { profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.example" } };
      const answers: unknown[] = [];
      for (const orgId of ["org-a\u0000x", "\ud800"]) {
        for (const requester of [{ userId: "member", orgId: "org-a" }, { userId: "admin", orgId: "org-a", instanceAdmin: true }]) {
          const result = await createHumanUser(ports, request, { requester, orgId });
          answers.push(result.isErr() ? result.error.code : "ok");
        }
      }
      expect(answers).toEqual([7, 5, 7, 5]);
      expect(await subject.store.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    } finally {
      await subject.close?.();
    }
  });
});

describe.skipIf(url === undefined)(`migrations on the server${needsServer}`, () => {
  const server = url ?? "";

  it("refuses a schema a newer version of the library migrated, changing nothing", async () => {
    const schema = await schemaPool(server, "migrate_newer");
    try {
      await migrate(schema.pool);
      const newest = Math.max(...migrations.map((migration) => migration.version));
      await schema.pool.query("INSERT INTO human_users_schema_migrations (version, name) VALUES ($1, 'from a newer release')", [newest + 95]);
      await expect(migrate(schema.pool)).rejects.toThrow(
        new Error(`the database's human-users schema is at version ${newest + 95}, newer than this version of human-users knows (${newest}): upgrade human-users before using this database`),
      );
      const recorded = await schema.pool.query("SELECT version FROM human_users_schema_migrations ORDER BY version");
      expect(recorded.rows.map((row: { version: number }) => row.version)).toEqual([...migrations.map((migration) => migration.version), newest + 95]);
    } finally {
      await schema.drop();
    }
  });

  it("applies each version once, records it, and is safe to run again and in parallel", async () => {
    const schema = await schemaPool(server, "migrate");
    const others = [new pg.Pool({ connectionString: server, options: `-c search_path=${schema.schema}` }), new pg.Pool({ connectionString: server, options: `-c search_path=${schema.schema}` })];
    try {
      const parallel = await Promise.all([migrate(schema.pool), ...others.map((pool) => migrate(pool))]);
      expect(parallel.map((report) => report.applied).sort((a, b) => b.length - a.length)).toEqual([migrations.map((migration) => migration.version), [], []]);
      expect(await migrate(schema.pool)).toEqual({ applied: [], foldedTogether: [] });
      const recorded = await schema.pool.query("SELECT version, name FROM human_users_schema_migrations ORDER BY version");
      expect(recorded.rows).toEqual(migrations.map(({ version, name }) => ({ version, name })));
      const tables = await schema.pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name", [schema.schema]);
      expect(tables.rows.map((row: { table_name: string }) => row.table_name)).toEqual([
        "human_users_claims",
        "human_users_events",
        "human_users_identity_providers",
        "human_users_listings",
        "human_users_organization_domains",
        "human_users_organizations",
        "human_users_outbox",
        "human_users_schema_migrations",
      ]);
    } finally {
      await Promise.all(others.map((pool) => pool.end()));
      await schema.drop();
    }
  });

  it.each(["repeatable read", "serializable"])("is safe in parallel on a database whose transactions default to %s", async (isolation) => {
    const schema = await schemaPool(server, "migrate_iso");
    // A snapshot taken before the lock was granted would not see the first copy's tables.
    const options = `-c search_path=${schema.schema} -c default_transaction_isolation=${isolation.replace(" ", "\\ ")}`;
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: server, options }));
    try {
      const reports = await Promise.all(pools.map((pool) => migrate(pool)));
      expect(reports.map((report) => report.applied).sort((a, b) => b.length - a.length)).toEqual([migrations.map((migration) => migration.version), [], [], []]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await schema.drop();
    }
  });

  it("takes over a database a host's own tool set up from the shipped files: nothing applied twice, the store works", async () => {
    const schema = await schemaPool(server, "migrate_files");
    try {
      // As a migration tool applies them: each file whole, in its order, in a transaction of its own.
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        expect(migration.name).toMatch(/^[a-z0-9_]+$/);
        await schema.pool.query(`BEGIN; ${migrationFileText(migration)} COMMIT;`);
      }
      // Nothing applied twice: only the steps in code that the files could not run (2, 3 and 7).
      const withCode = migrations.filter((migration) => migration.run !== undefined).map((migration) => migration.version);
      expect(await migrate(schema.pool)).toEqual({ applied: withCode, foldedTogether: [] });
      expect(await migrate(schema.pool)).toEqual({ applied: [], foldedTogether: [] });
      const recorded = await schema.pool.query("SELECT version, name FROM human_users_schema_migrations ORDER BY version");
      expect(recorded.rows).toEqual(migrations.map(({ version, name }) => ({ version, name })));
      const store = postgresStore({ pool: schema.pool });
      await store.upsertOrganization({ id: "acme", domains: [] });
      const ports = { storage: store, mailer: memoryMailer(), clock: systemClock, config: { allowThrowawayKeys: true, immediateDelivery: "off" as const } };
      const created = await createHumanUser(ports, { username: "ann", profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test" } }, { requester: { userId: "admin", orgId: "acme" } });
      expect(created.isOk()).toBe(true);
    } finally {
      await schema.drop();
    }
  });

  it("lets a copy wait for another's migration longer than its statement time limit: waiting is no statement", async () => {
    const schema = await schemaPool(server, "migrate_wait");
    const holder = await schema.pool.connect();
    try {
      // Another copy's long migration, played by a transaction holding the migration lock for 1.5 s.
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock(hashtext('human_users.migrate:' || coalesce(current_schema(), '')))");
      const waiting = migrate(schema.pool, { statementTimeoutMs: 500 });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await holder.query("COMMIT");
      expect((await waiting).applied).toEqual(migrations.map((migration) => migration.version));
    } finally {
      holder.release();
      await schema.drop();
    }
  });
});

/**
 * A pool whose connection is terminated by the server (pg_terminate_backend from another
 * connection) just before the first statement `when` picks is sent, while a transaction is open.
 */
function killingPool(pool: pg.Pool, admin: pg.Pool, when: (text: string) => boolean): PgPoolLike & { kills: number } {
  const killing = {
    kills: 0,
    query: (query: PgQuery) => pool.query(query),
    async connect(): Promise<PgClientLike> {
      const client = await pool.connect();
      const pid = ((await client.query("SELECT pg_backend_pid() AS pid")).rows[0] as { pid: number }).pid;
      return {
        async query(query: PgQuery) {
          if (killing.kills === 0 && when(query.text)) {
            killing.kills += 1;
            // Waits (up to 5 s) until the backend is gone, so the statement surely meets a dead connection.
            await admin.query("SELECT pg_terminate_backend($1, 5000)", [pid]);
          }
          return client.query(query);
        },
        release: (destroy) => client.release(destroy),
        on: (event, listener) => client.on(event, listener),
        removeListener: (event, listener) => client.removeListener(event, listener),
      };
    },
  };
  return killing;
}

/** The pid of the session named `applicationName` once it waits for a lock (polls up to 5 s). */
async function blockedBackend(admin: pg.Pool, applicationName: string): Promise<number> {
  for (let poll = 0; poll < 100; poll++) {
    const found = await admin.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [applicationName]);
    const row = found.rows[0] as { pid: number } | undefined;
    if (row !== undefined) return row.pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the write never blocked");
}

describe.skipIf(url === undefined)(`a connection killed in the middle of a write${needsServer}`, () => {
  const server = url ?? "";
  const admin = new pg.Pool({ connectionString: server, max: 2 });
  afterAll(() => admin.end());

  /**
   * Ways to hold a write in the middle of its statement, from another session: `hold` blocks it,
   * and the function it returns lets go.
   */
  const blockers: ReadonlyArray<readonly [string, (blocker: pg.PoolClient, schema: string) => Promise<() => Promise<void>>]> = [
    [
      "waiting for a claim another transaction holds uncommitted",
      async (blocker, schema) => {
        // The victim's insert of the same claim must wait to learn whether this one commits.
        await blocker.query("BEGIN");
        await blocker.query(`INSERT INTO ${schema}.human_users_claims (kind, scope, key, user_id) VALUES ('username', '', 'victim-name', 'other')`);
        return async () => {
          await blocker.query("ROLLBACK");
        };
      },
    ],
    [
      "with its claims and events inserted, waiting to insert its notification",
      async (blocker, schema) => {
        // An uncommitted row with the victim's notification id: the victim's insert must wait for it.
        await blocker.query("BEGIN");
        await blocker.query(
          `INSERT INTO ${schema}.human_users_outbox (id, kind, user_id, org_id, recipient, code, link, locale, display_name, username, created_at, expires_at)
           VALUES ('victim-n0', 'email.verification', 'other', 'org-a', 'x@y.z', 'C', '', 'und', 'X', 'x', now(), now())`,
        );
        return async () => {
          await blocker.query("ROLLBACK");
        };
      },
    ],
  ];

  for (const [moment, hold] of blockers) {
    it(`${moment}: rejects as unavailable, leaves nothing behind, and the next call succeeds`, async () => {
      const subject = await postgresSubject(server, "kill", seed);
      const applicationName = subject.schema.schema;
      const pool = new pg.Pool({ connectionString: server, max: 2, application_name: applicationName, options: `-c search_path=${subject.schema.schema}` });
      pool.on("error", () => undefined);
      const blocker = await admin.connect();
      try {
        const store = postgresStore({ pool });
        const write = newUserAppend("victim", { events: 3, notifications: 2 });
        const letGo = await hold(blocker, subject.schema.schema);
        const pending = store.userLog.append(write).then(() => "resolved", (error: unknown) => error);
        await admin.query("SELECT pg_terminate_backend($1, 5000)", [await blockedBackend(admin, applicationName)]);
        expect(await pending).toBeInstanceOf(StorageUnavailableError);
        await letGo();
        expect(await subject.store.snapshot()).toEqual({ events: [], claims: [], notifications: [] });

        // The same store on the same pool: the dead connection must not be handed out again.
        expect(await store.userLog.append(write)).toEqual({ ok: true });
        expect(await store.userLog.loadEvents("victim")).toEqual(write.events);
      } finally {
        blocker.release();
        await pool.end();
        await subject.close?.();
      }
    });
  }

  it("a batch killed as its statement goes: rejects as unavailable, leaves nothing behind, and the next batch succeeds", async () => {
    const subject = await postgresSubject(server, "kill", seed);
    try {
      const groupStatements = new Set([statements.newUsersAppendSql, statements.newUsersAppendWithNotificationsSql]);
      const killing = killingPool(subject.schema.pool, admin, (text) => groupStatements.has(text));
      const store = postgresStore({ pool: killing });
      const writes = [newUserAppend("victim1"), newUserAppend("victim2")];
      const outcome = await store.userLog.appendNewUsers(writes).then(() => "resolved", (error: unknown) => error);
      expect(outcome).toBeInstanceOf(StorageUnavailableError);
      expect(killing.kills).toBe(1);
      expect(await subject.store.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
      expect(await store.userLog.appendNewUsers(writes)).toEqual([{ ok: true }, { ok: true }]);
      expect(killing.kills).toBe(1);
    } finally {
      await subject.close?.();
    }
  });

  it("a batch taking the careful way (two writes want one name), killed before COMMIT: rejects as unavailable, leaves nothing behind, and the next batch succeeds", async () => {
    const subject = await postgresSubject(server, "kill", seed);
    try {
      const killing = killingPool(subject.schema.pool, admin, (text) => text === "COMMIT");
      const store = postgresStore({ pool: killing });
      const writes = [newUserAppend("victim1", { claims: [usernameClaim("same")] }), newUserAppend("victim2", { claims: [usernameClaim("same")] })];
      const outcome = await store.userLog.appendNewUsers(writes).then(() => "resolved", (error: unknown) => error);
      expect(outcome).toBeInstanceOf(StorageUnavailableError);
      expect(killing.kills).toBe(1);
      expect(await subject.store.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
      expect(await store.userLog.appendNewUsers(writes)).toEqual([{ ok: true }, { ok: false, reason: "claim-held", conflict: usernameClaim("same") }]);
      expect(killing.kills).toBe(1);
    } finally {
      await subject.close?.();
    }
  });
});
