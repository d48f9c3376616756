// createHumanUser per second on PostgreSQL (pool of 10) and on PGlite (in a folder), beside plain
// INSERTs of the same rows (one transaction per user, multi-row INSERT ... VALUES into the same
// tables) measured in the same run. Rounds alternate between the cases, each in a fresh schema;
// the median round is reported. Run with `npm run bench -- storage`.
// The PostgreSQL part runs when HUMAN_USERS_PG_URL (or 127.0.0.1:5432) answers.
import { PGlite } from "@electric-sql/pglite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, postgresStore } from "../src/adapters/postgres/index.js";
import { migratePglite, pgliteStore } from "../src/adapters/pglite/index.js";
import type { SqlStore } from "../src/adapters/postgres/sql-store.js";
import { createHumanUser, memoryMailer, memoryStore, systemClock, type ImmediateDelivery, type UserAppend } from "../src/index.js";
import { findPostgres, freshSchemaName, schemaPool } from "../test/storage/databases.js";

const CONCURRENCY = 10;
const ROUNDS = 3;
const context = { requester: { userId: "admin", orgId: "acme" } };
const acme = { id: "acme", domains: [{ domain: "acme.example", verified: true }] };

let requestCounter = 0;
/** No password (hashing would measure the hasher, not the store); one verification mail each. */
function nextRequest(): Record<string, unknown> {
  requestCounter += 1;
  return { username: `bench-${requestCounter}`, profile: { givenName: "Ann", familyName: "Lee" }, email: { email: `bench-${requestCounter}@example.com` } };
}

/** Runs `task(0..total-1)` with `concurrency` calls in flight; resolves to calls per second. */
async function ratePerSecond(total: number, concurrency: number, task: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await task(next++);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

/** The writes createHumanUser makes for `count` users, captured from a memory store. */
async function capturedWrites(count: number): Promise<UserAppend[]> {
  const store = memoryStore({ organizations: [acme] });
  const writes: UserAppend[] = [];
  const storage = { ...store, userLog: { ...store.userLog, append: (write: UserAppend) => (writes.push(write), store.userLog.append(write)) } };
  for (let index = 0; index < count; index++) {
    const result = await createHumanUser({ storage, mailer: memoryMailer(), clock: systemClock, config: { immediateDelivery: "off" } }, nextRequest(), context);
    if (result.isErr()) throw new Error(`could not prepare the rows: ${result.error.message}`);
  }
  return writes;
}

interface Session {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

/** `INSERT INTO table (columns) VALUES ($1, ...), (...)` for `rows`. */
function insertStatement(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): [string, unknown[]] {
  const values = rows.map((row, rowIndex) => `(${row.map((_, column) => `$${rowIndex * columns.length + column + 1}`).join(", ")})`);
  return [`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values.join(", ")}`, rows.flat()];
}

/** The same rows the store writes, as a hand-written application would insert them. */
async function insertPlain(session: Session, write: UserAppend): Promise<void> {
  const statements = [
    insertStatement("human_users_claims", ["kind", "scope", "key", "user_id"], write.claims.map((claim) => [claim.kind, claim.scope, claim.key, write.userId])),
    insertStatement(
      "human_users_events",
      ["aggregate_id", "sequence", "type", "org_id", "created_at", "payload"],
      write.events.map((event) => [event.aggregateId, event.sequence, event.type, event.orgId, event.createdAt, JSON.stringify(event.payload)]),
    ),
    insertStatement(
      "human_users_outbox",
      ["id", "kind", "user_id", "org_id", "recipient", "code", "link", "locale", "display_name", "username", "created_at", "expires_at"],
      write.notifications.map((n) => [n.id, n.kind, n.userId, n.orgId, n.recipient, n.code, n.link, n.locale, n.displayName, n.username, n.createdAt, n.expiresAt]),
    ),
  ];
  for (const [text, params] of statements) if (params.length > 0) await session.query(text, params);
}

interface Target {
  readonly name: string;
  readonly users: number;
  /** A fresh, migrated, seeded store, and a way to run plain SQL in one transaction on it. */
  fresh(): Promise<{ store: SqlStore; plainTransaction(body: (session: Session) => Promise<void>): Promise<void>; dispose(): Promise<void> }>;
}

interface Figures {
  readonly plain: number;
  readonly off: number;
  readonly awaited: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function libraryRate(target: Target, delivery: ImmediateDelivery): Promise<number> {
  const { store, dispose } = await target.fresh();
  try {
    const ports = { storage: store, mailer: memoryMailer(), clock: systemClock, config: { immediateDelivery: delivery, allowThrowawayKeys: true, origin: "https://id.acme.example" } };
    return await ratePerSecond(target.users, CONCURRENCY, async () => {
      const result = await createHumanUser(ports, nextRequest(), context);
      if (result.isErr()) throw new Error(`bench request refused: ${JSON.stringify(result.error)}`);
    });
  } finally {
    await dispose();
  }
}

async function plainRate(target: Target, writes: readonly UserAppend[]): Promise<number> {
  const { plainTransaction, dispose } = await target.fresh();
  try {
    return await ratePerSecond(writes.length, CONCURRENCY, (index) => plainTransaction((session) => insertPlain(session, writes[index] as UserAppend)));
  } finally {
    await dispose();
  }
}

async function measure(target: Target): Promise<Figures> {
  const rounds: Figures[] = [];
  await libraryRate(target, "off"); // warm-up: JIT, connections, the database's caches
  for (let round = 0; round < ROUNDS; round++) {
    const writes = await capturedWrites(target.users);
    rounds.push({ plain: await plainRate(target, writes), off: await libraryRate(target, "off"), awaited: await libraryRate(target, "await") });
  }
  return { plain: median(rounds.map((r) => r.plain)), off: median(rounds.map((r) => r.off)), awaited: median(rounds.map((r) => r.awaited)) };
}

function postgresTarget(url: string): Target {
  return {
    name: `PostgreSQL (pool of ${CONCURRENCY})`,
    users: 2_000,
    async fresh() {
      const schema = await schemaPool(url, "bench", CONCURRENCY);
      await migrate(schema.pool);
      const store = postgresStore({ pool: schema.pool });
      await store.upsertOrganization(acme);
      return {
        store,
        async plainTransaction(body) {
          const client = await schema.pool.connect();
          try {
            await client.query("BEGIN");
            await body(client);
            await client.query("COMMIT");
          } finally {
            client.release();
          }
        },
        dispose: () => schema.drop(),
      };
    },
  };
}

function pgliteTarget(db: PGlite): Target {
  return {
    name: "PGlite (in a folder)",
    users: 500,
    async fresh() {
      const schema = freshSchemaName("bench");
      await db.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      await migratePglite(db);
      const store = pgliteStore({ db });
      await store.upsertOrganization(acme);
      return {
        store,
        plainTransaction: (body) => db.transaction((tx) => body(tx)),
        dispose: async () => {
          await db.exec(`DROP SCHEMA ${schema} CASCADE`);
        },
      };
    },
  };
}

function printRow(name: string, figures: Figures): void {
  const rate = (value: number) => Math.round(value).toLocaleString("en");
  const ratio = (value: number) => `${(figures.plain / value).toFixed(2)}x`;
  console.log(`| ${name} | ${rate(figures.plain)} | ${rate(figures.off)} | ${ratio(figures.off)} | ${rate(figures.awaited)} | ${ratio(figures.awaited)} |`);
}

console.log(`users/s, ${CONCURRENCY} calls in flight, median of ${ROUNDS} rounds; each user: 2 events, 2 claims, 1 notification`);
console.log("| store | plain INSERTs | createHumanUser, delivery off | time vs plain | createHumanUser, mail delivered | time vs plain |");
console.log("|---|---:|---:|---:|---:|---:|");

const url = await findPostgres();
if (url === undefined) console.log("| PostgreSQL | no server answers (set HUMAN_USERS_PG_URL) | | | | |");
else printRow(postgresTarget(url).name, await measure(postgresTarget(url)));

const folder = mkdtempSync(join(tmpdir(), "human-users-bench-"));
const db = new PGlite(folder);
try {
  const target = pgliteTarget(db);
  printRow(target.name, await measure(target));
} finally {
  await db.close();
  rmSync(folder, { recursive: true, force: true });
}
