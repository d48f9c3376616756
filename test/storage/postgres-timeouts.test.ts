// The PostgreSQL store bounds its own waits: for a connection from the host's pool, and for each
// statement's answer. A database that never answers makes a call fail as "unavailable" (code 14)
// in bounded time; the connection that was waiting is destroyed, never handed out again, and a
// transaction that ran out of time is never committed.
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import type { PgClientLike, PgPoolLike, PgQuery } from "../../src/adapters/postgres/pg-like.js";
import { createHumanUser, fixedClock, memoryMailer } from "../../src/index.js";
import { contractIdentityProviders, contractOrganizations, newUserAppend } from "../../src/testing/index.js";
import { NOW, member, minimalCreate, testKeys } from "../operations/support/ports.js";
import { checkOut } from "../../src/adapters/postgres/pooled-connection.js";
import * as statements from "../../src/adapters/postgres/statements.js";
import { findPostgres, postgresSubject } from "./databases.js";
import { silentServer, type SilentServer } from "./silent-server.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";
const seed = { organizations: contractOrganizations, identityProviders: contractIdentityProviders };

const unavailableBody = {
  code: 14,
  message: "storage is unavailable, try again later",
  details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-unv4", message: "storage is unavailable, try again later" }],
};

/** An error as plain data (name, message, cause), so that whole errors can be compared. */
function described(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  return error.cause === undefined ? { name: error.name, message: error.message } : { name: error.name, message: error.message, cause: described(error.cause) };
}

function timedOut(waitingFor: "connection" | "answer", ms: number): unknown {
  const cause = waitingFor === "connection" ? `no connection from the pool within ${ms} ms` : `no answer from the database within ${ms} ms`;
  return { name: "StorageUnavailableError", message: "the database did not answer in time", cause: { name: "DatabaseTimeoutError", message: cause } };
}

/** What a call settled with, as data; "pending" while it has not. */
function watch(call: Promise<unknown>): () => unknown {
  let outcome: unknown = "pending";
  call.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error: described(error) }),
  );
  return () => outcome;
}

async function timed<T>(call: Promise<T>): Promise<{ readonly outcome: unknown; readonly ms: number }> {
  const started = performance.now();
  const outcome = await call.then((value) => ({ value }), (error: unknown) => ({ error: described(error) }));
  return { outcome, ms: performance.now() - started };
}

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (let poll = 0; poll < 100; poll++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting: ${what}`);
}

describe("a server that accepts connections and never answers", () => {
  let server: SilentServer;
  let pool: pg.Pool;

  beforeEach(async () => {
    server = await silentServer({ greets: false });
    // pg's defaults: no connection timeout, no query timeout.
    pool = new pg.Pool({ host: "127.0.0.1", port: server.port, user: "postgres", database: "none" });
    pool.on("error", () => undefined);
  });

  afterEach(async () => {
    await server.close();
    await pool.end();
  });

  it("makes a read fail as unavailable once the connect timeout has passed", { timeout: 3_000 }, async () => {
    const store = postgresStore({ pool, connectTimeoutMs: 300 });
    const { outcome, ms } = await timed(store.directory.findOrganization("org-a"));
    expect(outcome).toEqual({ error: timedOut("connection", 300) });
    expect(ms).toBeGreaterThanOrEqual(295);
    expect(ms).toBeLessThan(1_500);
  });

  it("makes createHumanUser answer 14 and send no mail", { timeout: 3_000 }, async () => {
    const mailer = memoryMailer();
    const ports = { storage: postgresStore({ pool, connectTimeoutMs: 300 }), mailer, clock: fixedClock(NOW), keys: testKeys };
    const result = await createHumanUser(ports, minimalCreate(), { requester: member });
    expect(result.isErr() ? result.error : result.value).toEqual(unavailableBody);
    expect(mailer.sent).toEqual([]);
  });

  it("makes migrate fail as unavailable", { timeout: 3_000 }, async () => {
    const { outcome } = await timed(migrate(pool, { connectTimeoutMs: 300 }));
    expect(outcome).toEqual({ error: timedOut("connection", 300) });
  });
});

describe("a server that completes the handshake and never answers a statement", () => {
  let server: SilentServer;
  let pool: pg.Pool;

  beforeEach(async () => {
    server = await silentServer({ greets: true });
    pool = new pg.Pool({ host: "127.0.0.1", port: server.port, user: "postgres", database: "none" });
    pool.on("error", () => undefined);
  });

  afterEach(async () => {
    await server.close();
    await pool.end();
  });

  it("makes a read fail as unavailable once the statement timeout has passed, and destroys the connection", { timeout: 3_000 }, async () => {
    const store = postgresStore({ pool, statementTimeoutMs: 300 });
    const { outcome, ms } = await timed(store.directory.findOrganization("org-a"));
    expect(outcome).toEqual({ error: timedOut("answer", 300) });
    expect(ms).toBeGreaterThanOrEqual(295);
    expect(ms).toBeLessThan(1_500);
    await waitUntil(() => server.closedByClient() === 1, "the stuck connection is closed");
    expect(pool.totalCount).toBe(0);

    // The next call gets a new connection, not the stuck one.
    expect((await timed(store.directory.findOrganization("org-a"))).outcome).toEqual({ error: timedOut("answer", 300) });
    expect(server.accepted()).toBe(2);
  });

  it("never sends COMMIT (nor anything else) after a statement of a transaction timed out", { timeout: 3_000 }, async () => {
    const store = postgresStore({ pool, statementTimeoutMs: 300 });
    const { outcome } = await timed(store.upsertOrganization({ id: "org-new", domains: [] }));
    expect(outcome).toEqual({ error: timedOut("answer", 300) });
    await waitUntil(() => server.closedByClient() === 1, "the stuck connection is closed");
    expect(server.statements).toEqual(["BEGIN"]);
  });

  it("makes createHumanUser answer 14 and send no mail", { timeout: 3_000 }, async () => {
    const mailer = memoryMailer();
    const ports = { storage: postgresStore({ pool, statementTimeoutMs: 300 }), mailer, clock: fixedClock(NOW), keys: testKeys };
    const result = await createHumanUser(ports, minimalCreate(), { requester: member });
    expect(result.isErr() ? result.error : result.value).toEqual(unavailableBody);
    expect(mailer.sent).toEqual([]);
  });

  it("makes migrate fail as unavailable", { timeout: 3_000 }, async () => {
    const { outcome } = await timed(migrate(pool, { statementTimeoutMs: 300 }));
    expect(outcome).toEqual({ error: timedOut("answer", 300) });
    expect(server.statements).toEqual(["BEGIN"]);
  });
});

/** A connection that records what it is asked and answers each statement as `answer` says. */
interface ScriptedClient extends PgClientLike {
  readonly statements: string[];
  /** The argument of each `release` call. */
  readonly releases: unknown[];
}

function scriptedClient(answer: (text: string) => Promise<{ rows: unknown[] }>): ScriptedClient {
  const statements: string[] = [];
  const releases: unknown[] = [];
  return {
    statements,
    releases,
    query(query: PgQuery) {
      statements.push(query.text);
      return answer(query.text);
    },
    release(destroy?: boolean | Error) {
      releases.push(destroy instanceof Error ? described(destroy) : destroy);
    },
  };
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
const noRows = () => Promise.resolve({ rows: [] });

/** A pool with one connection, handed out as `connect` says. */
function scriptedPool(client: ScriptedClient, connect: () => Promise<PgClientLike> = () => Promise.resolve(client)): PgPoolLike {
  return { connect };
}

describe("the limits' defaults, and what happens to late answers", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits 5 s for a connection and 10 s for each answer by default", async () => {
    const stalledPool = scriptedPool(scriptedClient(noRows), never);
    const connecting = watch(postgresStore({ pool: stalledPool }).directory.findOrganization("org-a"));
    const client = scriptedClient(never);
    const answering = watch(postgresStore({ pool: scriptedPool(client) }).directory.findOrganization("org-a"));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(connecting()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(connecting()).toEqual({ error: timedOut("connection", 5_000) });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(answering()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(answering()).toEqual({ error: timedOut("answer", 10_000) });
    expect(client.releases).toEqual([{ name: "DatabaseTimeoutError", message: "no answer from the database within 10000 ms" }]);
  });

  it("gives migrate 5 s for a connection and 60 s for each answer by default (migrations may rewrite big tables)", async () => {
    const connecting = watch(migrate(scriptedPool(scriptedClient(noRows), never)));
    const client = scriptedClient((text) => (text === "BEGIN" ? noRows() : never()));
    const answering = watch(migrate(scriptedPool(client)));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(connecting()).toEqual({ error: timedOut("connection", 5_000) });
    await vi.advanceTimersByTimeAsync(54_999);
    expect(answering()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(answering()).toEqual({ error: timedOut("answer", 60_000) });
  });

  it("waits without limit when a timeout is 0", async () => {
    const connecting = watch(postgresStore({ pool: scriptedPool(scriptedClient(noRows), never), connectTimeoutMs: 0 }).directory.findOrganization("org-a"));
    const answering = watch(postgresStore({ pool: scriptedPool(scriptedClient(never)), statementTimeoutMs: 0 }).directory.findOrganization("org-a"));
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect([connecting(), answering()]).toEqual(["pending", "pending"]);
  });

  it("hands a connection that arrives after the timeout straight back to the pool", async () => {
    const client = scriptedClient(noRows);
    const pool = scriptedPool(client, () => new Promise((resolve) => setTimeout(() => resolve(client), 400)));
    const call = watch(postgresStore({ pool, connectTimeoutMs: 300 }).directory.findOrganization("org-a"));
    await vi.advanceTimersByTimeAsync(300);
    expect(call()).toEqual({ error: timedOut("connection", 300) });
    await vi.advanceTimersByTimeAsync(100);
    expect({ statements: client.statements, releases: client.releases }).toEqual({ statements: [], releases: [undefined] });
  });

  it("destroys a connection whose transaction timed out mid-way, and a late answer sends nothing more", async () => {
    let answerLate: (rows: { rows: unknown[] }) => void = () => undefined;
    const late = new Promise<{ rows: unknown[] }>((resolve) => (answerLate = resolve));
    // BEGIN answers; the first statement of the body does not.
    const client = scriptedClient((text) => (text === "BEGIN" ? noRows() : late));
    const call = watch(postgresStore({ pool: scriptedPool(client), statementTimeoutMs: 300 }).upsertOrganization({ id: "org-new", domains: [] }));
    await vi.advanceTimersByTimeAsync(300);
    expect(call()).toEqual({ error: timedOut("answer", 300) });
    answerLate({ rows: [] });
    await vi.advanceTimersByTimeAsync(1_000);
    expect({ statements: client.statements.length, releases: client.releases }).toEqual({
      statements: 2,
      releases: [{ name: "DatabaseTimeoutError", message: "no answer from the database within 300 ms" }],
    });
  });

  it("destroys the connection when COMMIT times out, without trying ROLLBACK on it", async () => {
    const client = scriptedClient((text) => (text === "COMMIT" ? never() : noRows()));
    const call = watch(postgresStore({ pool: scriptedPool(client), statementTimeoutMs: 300 }).upsertOrganization({ id: "org-new", domains: [] }));
    await vi.advanceTimersByTimeAsync(300);
    expect(call()).toEqual({ error: timedOut("answer", 300) });
    expect({ last: client.statements.at(-1), releases: client.releases }).toEqual({
      last: "COMMIT",
      releases: [{ name: "DatabaseTimeoutError", message: "no answer from the database within 300 ms" }],
    });
  });

  it("ignores a statement that fails after it timed out", async () => {
    let failLate: (error: Error) => void = () => undefined;
    const client = scriptedClient(() => new Promise((_, reject) => (failLate = reject)));
    const call = watch(postgresStore({ pool: scriptedPool(client), statementTimeoutMs: 300 }).directory.findOrganization("org-a"));
    await vi.advanceTimersByTimeAsync(300);
    failLate(new Error("Connection terminated"));
    await vi.advanceTimersByTimeAsync(100);
    expect(call()).toEqual({ error: timedOut("answer", 300) });
    expect(client.releases).toHaveLength(1);
  });

  it("asks the server to cancel a statement past its timeout, waits for the cancel however the statement ends, and never reuses the connection", async () => {
    let failLate: (error: Error) => void = () => undefined;
    const client = Object.assign(
      scriptedClient(() => new Promise((_, reject) => (failLate = reject))),
      { processID: 42 },
    );
    let answerCancel: () => void = () => undefined;
    const canceller = scriptedClient(() => new Promise((resolve) => (answerCancel = () => resolve({ rows: [] }))));
    const connections = [client, canceller];
    const pool: PgPoolLike = { connect: () => Promise.resolve(connections.shift() ?? canceller) };
    const connection = await checkOut(pool, { connectTimeoutMs: 300, statementTimeoutMs: 300 });
    const run = watch(connection.run({ text: "INSERT INTO t VALUES (1)" }));
    await vi.advanceTimersByTimeAsync(300);
    expect(canceller.statements).toEqual([
      "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND left(query, 200) = left($2, 200)",
    ]);
    // The statement fails on its own (a duplicate key) before the cancel is answered: its error is
    // the answer, but only once the cancel can no longer reach the connection's next statement.
    const duplicate = Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" });
    failLate(duplicate);
    await vi.advanceTimersByTimeAsync(10);
    expect(run()).toBe("pending");
    answerCancel();
    await vi.advanceTimersByTimeAsync(10);
    expect(run()).toEqual({ error: { name: "Error", message: "duplicate key value violates unique constraint" } });
    connection.release();
    const timeout = { name: "DatabaseTimeoutError", message: "no answer from the database within 300 ms" };
    expect({ releases: client.releases, cancellerReleases: canceller.releases }).toEqual({ releases: [timeout], cancellerReleases: [undefined] });
  });

  it("sends nothing more on a connection after one of its statements timed out", async () => {
    const client = scriptedClient(never);
    const connection = await checkOut(scriptedPool(client), { connectTimeoutMs: 300, statementTimeoutMs: 300 });
    const first = watch(connection.run({ text: "SELECT 1" }));
    await vi.advanceTimersByTimeAsync(300);
    const second = await connection.run({ text: "COMMIT" }).catch(described);
    connection.release();
    const timeout = { name: "DatabaseTimeoutError", message: "no answer from the database within 300 ms" };
    expect({ first: first(), second, statements: client.statements, releases: client.releases }).toEqual({
      first: { error: timeout },
      second: timeout,
      statements: ["SELECT 1"],
      releases: [timeout],
    });
  });

  it("destroys a connection whose statement failed because the connection broke", async () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const client = scriptedClient(() => Promise.reject(reset));
    const outcome = await postgresStore({ pool: scriptedPool(client) }).directory.findOrganization("org-a").catch(described);
    expect({ outcome, releases: client.releases }).toEqual({
      outcome: { name: "StorageUnavailableError", message: "the database cannot be reached", cause: { name: "Error", message: "read ECONNRESET" } },
      releases: [{ name: "Error", message: "read ECONNRESET" }],
    });
  });

  it("keeps a connection whose statement failed for a reason other than the connection", async () => {
    const syntax = Object.assign(new Error("syntax error"), { code: "42601" });
    const client = scriptedClient(() => Promise.reject(syntax));
    const outcome = await postgresStore({ pool: scriptedPool(client) }).directory.findOrganization("org-a").catch(described);
    expect({ outcome, releases: client.releases }).toEqual({ outcome: { name: "Error", message: "syntax error" }, releases: [false] });
  });
});

describe("invalid limits", () => {
  const pool = scriptedPool(scriptedClient(noRows));

  it.each([
    ["connectTimeoutMs", -1],
    ["statementTimeoutMs", Number.NaN],
    ["statementTimeoutMs", Number.POSITIVE_INFINITY],
    ["connectTimeoutMs", 2 ** 31],
  ])("refuses %s = %s when the store is made", (option, value) => {
    expect(() => postgresStore({ pool, [option]: value })).toThrow(
      new RangeError(`human-users: ${option} must be a number of milliseconds from 0 (no limit) to 2147483647, got ${value}`),
    );
  });

  it("refuses them in migrate too, as a rejection", async () => {
    await expect(migrate(pool, { statementTimeoutMs: -5 })).rejects.toThrow(
      new RangeError("human-users: statementTimeoutMs must be a number of milliseconds from 0 (no limit) to 2147483647, got -5"),
    );
  });
});

/** The statement the session named `applicationName` runs once it waits for a lock (polls up to 2 s). */
async function blockedStatement(admin: pg.Pool, applicationName: string): Promise<string> {
  for (let poll = 0; poll < 100; poll++) {
    const found = await admin.query("SELECT query FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [applicationName]);
    const row = found.rows[0] as { query: string } | undefined;
    if (row !== undefined) return row.query;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the statement never waited for the lock");
}

describe.skipIf(url === undefined)(`statements held up on the real server${needsServer}`, () => {
  const server = url ?? "";
  const admin = new pg.Pool({ connectionString: server, max: 2 });
  afterAll(() => admin.end());

  /** A store with a 300 ms statement timeout, on a pool of its own whose sessions are named after the schema. */
  async function subjectWithShortTimeout(label: string, poolConfig: pg.PoolConfig = {}) {
    const subject = await postgresSubject(server, label, seed);
    const applicationName = subject.schema.schema;
    const pool = new pg.Pool({ connectionString: server, max: 2, application_name: applicationName, options: `-c search_path=${subject.schema.schema}`, ...poolConfig });
    pool.on("error", () => undefined);
    const store = postgresStore({ pool, statementTimeoutMs: 300 });
    const sessionsLeft = async () =>
      ((await admin.query("SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'", [applicationName])).rows[0] as { count: number }).count;
    return {
      subject,
      pool,
      store,
      applicationName,
      /** Waits until the server has ended the abandoned session's work (polls up to 2 s). */
      async settled() {
        for (let poll = 0; poll < 100 && (await sessionsLeft()) > 0; poll++) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await sessionsLeft()).toBe(0);
      },
      async close() {
        await pool.end();
        await subject.close?.();
      },
    };
  }

  it("a read waiting on a lock fails as unavailable in time; the pool answers again afterwards", { timeout: 3_000 }, async () => {
    const s = await subjectWithShortTimeout("slowread");
    const blocker = await admin.connect();
    try {
      await blocker.query(`BEGIN; LOCK TABLE ${s.subject.schema.schema}.human_users_organizations IN ACCESS EXCLUSIVE MODE`);
      const { outcome, ms } = await timed(s.store.directory.findOrganization("org-a"));
      expect(outcome).toEqual({ error: timedOut("answer", 300) });
      expect(ms).toBeLessThan(1_500);
      await blocker.query("ROLLBACK");
      await s.settled();
      expect(await s.store.directory.findOrganization("org-a")).toEqual(contractOrganizations.find((organization) => organization.id === "org-a"));
    } finally {
      blocker.release();
      await s.close();
    }
  });

  it("a transaction that times out mid-way writes nothing, and the next one commits", { timeout: 3_000 }, async () => {
    const s = await subjectWithShortTimeout("slowtx");
    const blocker = await admin.connect();
    try {
      // The organization row is written first, then the domains: lock the domains so the transaction stops half-way.
      await blocker.query(`BEGIN; LOCK TABLE ${s.subject.schema.schema}.human_users_organization_domains IN ACCESS EXCLUSIVE MODE`);
      const organization = { id: "org-new", domains: [{ domain: "new.example", verified: true }] };
      const pending = timed(s.store.upsertOrganization(organization));
      expect(await blockedStatement(admin, s.applicationName)).toBe(statements.deleteDomainsSql);
      expect((await pending).outcome).toEqual({ error: timedOut("answer", 300) });
      await blocker.query("ROLLBACK");
      await s.settled();
      expect(await s.subject.store.directory.findOrganization("org-new")).toBeUndefined();

      await s.store.upsertOrganization(organization);
      expect(await s.subject.store.directory.findOrganization("org-new")).toEqual(organization);
    } finally {
      blocker.release();
      await s.close();
    }
  });

  // A single-statement write commits when the server finishes it, whether or not anybody still
  // listens: only the server's own statement_timeout stops one the store has given up on.
  it("a write waiting on a lock, with the pool's statement_timeout a little above the store's, is never committed", { timeout: 3_000 }, async () => {
    const s = await subjectWithShortTimeout("slowwrite", { statement_timeout: 600 });
    const blocker = await admin.connect();
    try {
      // An uncommitted claim of the victim's username: its insert waits to learn whether this one commits.
      await blocker.query("BEGIN");
      await blocker.query(`INSERT INTO ${s.subject.schema.schema}.human_users_claims (kind, scope, key, user_id) VALUES ('username', '', 'victim-name', 'other')`);
      const write = newUserAppend("victim");
      expect((await timed(s.store.userLog.append(write))).outcome).toEqual({ error: timedOut("answer", 300) });
      await s.settled();
      await blocker.query("ROLLBACK");
      expect(await s.subject.store.snapshot()).toEqual({ events: [], claims: [], notifications: [] });

      expect(await s.store.userLog.append(write)).toEqual({ ok: true });
    } finally {
      blocker.release();
      await s.close();
    }
  });
});
