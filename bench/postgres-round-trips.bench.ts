// createHumanUser on PostgreSQL against a plain prepared single-row INSERT of one user row, in one
// process, interleaved rounds (median and min–max of each ratio), 10 calls in flight on a pool of
// 10. Every statement sent through the pool is counted, so the table also shows the round trips
// each user costs, and the CPU time this process and the database's backends (read from /proc:
// the server must run on this machine for that column) spent per user. A second schema without
// the listings' secondary indexes shows what they cost.
// Run with `npm run bench -- round-trips` (BENCH_CASES=mail: only the cases naming mail, beside
// the plain INSERT); needs PostgreSQL (HUMAN_USERS_PG_URL or 127.0.0.1:5432).
import { migrate, postgresStore } from "../src/adapters/postgres/index.js";
import type { PgPoolLike } from "../src/adapters/postgres/pg-like.js";
import { createHumanUser, memoryMailer, systemClock, type Ports } from "../src/index.js";
import { findPostgres, schemaPool, type SchemaPool } from "../test/storage/databases.js";
import { watchedPool } from "../test/storage/support/watched-pool.js";
import { interleavedRounds, type BenchCase } from "./support/rounds.js";
import { processTicks } from "./support/server-cpu.js";

const IN_FLIGHT = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 2_000);
const context = { requester: { userId: "admin", orgId: "acme" } };
const acme = { id: "acme", domains: [{ domain: "acme.example", verified: true }] };

/** What one case cost over all its rounds: statements sent, calls made, CPU of this process and of the database's backends. */
interface Tally {
  statements: number;
  calls: number;
  nodeMicros: number;
  serverTicks: number;
}

/** The database backends serving the pools, by process id, with the CPU ticks each had when last read. */
const backends = new Map<number, number>();
const seen = new WeakSet<object>();

/**
 * CPU time the backends have used so far, in clock ticks (`/proc/<pid>/stat` utime + stime). A
 * backend that has ended (the pool closes idle connections) counts with its last reading: leaving
 * it out would subtract its whole past from the case running then.
 */
function serverTicks(): number {
  let ticks = 0;
  for (const [pid, last] of backends) {
    const now = processTicks(pid)?.ticks ?? last;
    backends.set(pid, now);
    ticks += now;
  }
  return ticks;
}

/** `pool` with every statement sent through its connections counted in `tally`, and its backends known. */
function countingPool(pool: PgPoolLike, tally: Tally): PgPoolLike {
  return watchedPool(pool, {
    sent: () => {
      tally.statements += 1;
    },
    async checkedOut(client) {
      if (seen.has(client)) return;
      seen.add(client);
      const row = (await client.query({ text: "SELECT pg_backend_pid() AS pid" })).rows[0] as { pid: number };
      backends.set(row.pid, 0);
    },
  });
}

/** The case running now and the CPU counters when it started: cases run one at a time. */
let running: { tally: Tally; node: NodeJS.CpuUsage; server: number } | undefined;

/** Charges the CPU used since the last switch to the case that was running, and starts counting for `tally`. */
function switchTo(tally: Tally | undefined): void {
  const node = process.cpuUsage();
  const server = serverTicks();
  if (running !== undefined) {
    running.tally.nodeMicros += node.user + node.system - running.node.user - running.node.system;
    running.tally.serverTicks += server - running.server;
  }
  running = tally === undefined ? undefined : { tally, node, server };
}

let counter = 0;
function nextRequest(returnCode: boolean): Record<string, unknown> {
  counter += 1;
  const email = returnCode ? { email: `rt-${counter}@example.com`, returnCode: {} } : { email: `rt-${counter}@example.com` };
  return { username: `rt-${counter}`, profile: { givenName: "Ann", familyName: "Lee" }, email };
}

const LISTING_INDEXES = [
  "username",
  "username_folded",
  "email",
  "email_folded",
  "display_name",
  "display_name_folded",
  "org",
  "created",
].map((suffix) => `human_users_listings_${suffix}`);

async function migratedSchema(url: string, label: string): Promise<SchemaPool> {
  const schema = await schemaPool(url, label, IN_FLIGHT);
  await migrate(schema.pool);
  await postgresStore({ pool: schema.pool }).upsertOrganization(acme);
  return schema;
}

/** One case: `call` counted in its own tally. */
function countedCase(name: string, tallies: Map<string, Tally>, call: (pool: PgPoolLike) => () => Promise<void>, pool: PgPoolLike): BenchCase {
  const tally: Tally = { statements: 0, calls: 0, nodeMicros: 0, serverTicks: 0 };
  tallies.set(name, tally);
  const run = call(countingPool(pool, tally));
  return {
    name,
    inFlight: IN_FLIGHT,
    run: async () => {
      if (running?.tally !== tally) switchTo(tally);
      await run();
      tally.calls += 1;
    },
  };
}

function plainInsert(pool: PgPoolLike): () => Promise<void> {
  const text = "INSERT INTO bench_plain_users (id, org_id, username, email, given_name, family_name, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)";
  return async () => {
    const n = ++counter;
    const client = await pool.connect();
    try {
      await client.query({ name: "bench_plain_insert", text, values: [`plain-${n}`, "acme", `rt-${n}`, `rt-${n}@example.com`, "Ann", "Lee", new Date().toISOString()] });
    } finally {
      client.release();
    }
  };
}

function creation(returnCode: boolean, maxWritesInFlight?: number): (pool: PgPoolLike) => () => Promise<void> {
  return (pool) => {
    const ports: Ports = { storage: postgresStore({ pool, ...(maxWritesInFlight === undefined ? {} : { maxWritesInFlight }) }), mailer: memoryMailer(), clock: systemClock, config: { allowThrowawayKeys: true, origin: "https://id.acme.example" } };
    return async () => {
      const result = await createHumanUser(ports, nextRequest(returnCode), context);
      if (result.isErr()) throw new Error(`bench request refused: ${JSON.stringify(result.error)}`);
    };
  };
}

const url = await findPostgres();
if (url === undefined) {
  console.log("No PostgreSQL answers (set HUMAN_USERS_PG_URL): nothing measured.");
} else {
  const indexed = await migratedSchema(url, "rt");
  const bare = await migratedSchema(url, "rt_bare");
  try {
    await indexed.pool.query(
      "CREATE TABLE bench_plain_users (id text PRIMARY KEY, org_id text NOT NULL, username text NOT NULL, email text NOT NULL, given_name text NOT NULL, family_name text NOT NULL, created_at timestamptz NOT NULL)",
    );
    for (const index of LISTING_INDEXES) await bare.pool.query(`DROP INDEX ${index}`);
    const tallies = new Map<string, Tally>();
    const pool: PgPoolLike = indexed.pool;
    // BENCH_CASES=mail keeps the plain INSERT (the baseline) and the cases whose name contains "mail".
    const only = process.env.BENCH_CASES;
    const cases = [
      countedCase("plain prepared INSERT of one user row", tallies, plainInsert, pool),
      countedCase("createHumanUser, no password, returnCode", tallies, creation(true), pool),
      countedCase("createHumanUser, verification mail to memoryMailer", tallies, creation(false), pool),
      countedCase("createHumanUser, returnCode, listings without secondary indexes", tallies, creation(true), bare.pool),
      countedCase("createHumanUser, returnCode, every write alone (maxWritesInFlight: Infinity)", tallies, creation(true, Infinity), pool),
      countedCase("createHumanUser, mail, every write alone (maxWritesInFlight: Infinity)", tallies, creation(false, Infinity), pool),
      ...(process.env.BENCH_IN_FLIGHT ?? "").split(",").filter((value) => value !== "").flatMap((value) => [
        countedCase(`createHumanUser, returnCode, maxWritesInFlight: ${value}`, tallies, creation(true, Number(value)), pool),
        countedCase(`createHumanUser, mail, maxWritesInFlight: ${value}`, tallies, creation(false, Number(value)), pool),
      ]),
    ].filter((benchCase, index) => index === 0 || only === undefined || benchCase.name.includes(only));
    const figures = await interleavedRounds(cases, ROUNDS, ROUND_MS);
    switchTo(undefined);
    const ticksPerSecond = Number(process.env.CLK_TCK ?? 100);
    console.log(`${IN_FLIGHT} calls in flight, pool of ${IN_FLIGHT}, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms; ratio = users/s ÷ plain INSERT's in the same round`);
    console.log("| case | users/s (median, min–max) | ÷ plain INSERT (median, min–max) | round trips per user | CPU µs per user: this process / database |");
    console.log("|---|---:|---:|---:|---:|");
    for (const figure of figures) {
      const tally = tallies.get(figure.name) ?? { statements: 0, calls: 0, nodeMicros: 0, serverTicks: 0 };
      const rate = (value: number) => Math.round(value).toLocaleString("en");
      // interleavedRounds gives time per call over the baseline's; its inverse is the throughput ratio.
      const ratio = `${(1 / figure.ratio.median).toFixed(2)} (${(1 / figure.ratio.max).toFixed(2)}–${(1 / figure.ratio.min).toFixed(2)})`;
      console.log(`| ${figure.name} | ${rate(figure.median)} (${rate(figure.min)}–${rate(figure.max)}) | ${ratio} | ${(tally.statements / tally.calls).toFixed(2)} | ${Math.round(tally.nodeMicros / tally.calls)} / ${Math.round((tally.serverTicks * 1e6) / ticksPerSecond / tally.calls)} |`);
    }
  } finally {
    await indexed.drop();
    await bare.drop();
  }
}
