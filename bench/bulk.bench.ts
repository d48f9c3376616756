// importHumanUsers of 100,000 users with bcrypt hashes into PostgreSQL, beside a plain COPY of the
// same rows into a bare table (no index, no constraint) measured in the same run, alternating.
// Run with `npm run bench -- bulk`. Needs PostgreSQL (HUMAN_USERS_PG_URL, else 127.0.0.1:5432);
// without one it says so and skips. BULK_USERS and BULK_ROUNDS change the size and the rounds.
import { hashSync } from "bcryptjs";
import { loadavg } from "node:os";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { from as copyFrom } from "pg-copy-streams";
import { migrate, postgresStore } from "../src/adapters/postgres/index.js";
import { defaultBulkImportOptions, importHumanUsers, memoryMailer, systemClock, type BulkImportOptions } from "../src/index.js";
import { findPostgres, schemaPool } from "../test/storage/databases.js";

const USERS = Number(process.env["BULK_USERS"] ?? 100_000);
const ROUNDS = Number(process.env["BULK_ROUNDS"] ?? 3);
const ORG = { id: "acme", domains: [{ domain: "acme.example", verified: true }] };
const context = { requester: { userId: "bench", orgId: "acme", instanceAdmin: true }, orgId: "acme" };

/** A few real bcrypt hashes (cost 10), shared by the users: the import parses them, it never recomputes them. */
const hashes = Array.from({ length: 8 }, (_, index) => hashSync(`password-${index}`, 10));

interface InputRow {
  readonly userName: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phone: string;
  readonly hash: string;
}

function inputRow(index: number): InputRow {
  return {
    userName: `user-${index}`,
    firstName: "Ada",
    lastName: `Lovelace ${index}`,
    email: `user-${index}@example.com`,
    phone: index % 4 === 0 ? `+4179${String(1_000_000 + index).slice(-7)}` : "",
    hash: hashes[index % hashes.length] as string,
  };
}

/** Operation B's request for a row: verified email (and phone), so no mail is queued. */
function requestOf(row: InputRow): Record<string, unknown> {
  return {
    userName: row.userName,
    profile: { firstName: row.firstName, lastName: row.lastName },
    email: { email: row.email, isEmailVerified: true },
    ...(row.phone === "" ? {} : { phone: { phone: row.phone, isPhoneVerified: true } }),
    hashedPassword: { value: row.hash },
  };
}

function* requests(count: number): Generator<Record<string, unknown>> {
  for (let index = 0; index < count; index++) yield requestOf(inputRow(index));
}

/** COPY's text format: tab-separated, `\N` for null; none of these values holds a tab, newline or backslash. */
function* copyLines(count: number): Generator<string> {
  for (let index = 0; index < count; index++) {
    const row = inputRow(index);
    yield `${[row.userName, row.firstName, row.lastName, row.email, row.phone === "" ? "\\N" : row.phone, row.hash].join("\t")}\n`;
  }
}

async function importRate(url: string, options: BulkImportOptions): Promise<number> {
  const schema = await schemaPool(url, "bulk", 4);
  try {
    await migrate(schema.pool);
    const store = postgresStore({ pool: schema.pool });
    await store.upsertOrganization(ORG);
    const ports = { storage: store, mailer: memoryMailer(), clock: systemClock, config: { immediateDelivery: "off" as const, allowThrowawayKeys: true } };
    const started = performance.now();
    let imported = 0;
    for await (const outcome of importHumanUsers(ports, requests(USERS), context, options)) {
      if ("error" in outcome) throw new Error(`row ${outcome.index} refused: ${outcome.error.message}`);
      imported += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    if (imported !== USERS) throw new Error(`imported ${imported} of ${USERS}`);
    return USERS / seconds;
  } finally {
    await schema.drop();
  }
}

async function copyRate(url: string): Promise<number> {
  const schema = await schemaPool(url, "copy", 1);
  const client = await schema.pool.connect();
  try {
    await client.query("CREATE TABLE bare_users (user_name text, first_name text, last_name text, email text, phone text, password_hash text)");
    const started = performance.now();
    await pipeline(Readable.from(copyLines(USERS)), client.query(copyFrom("COPY bare_users FROM STDIN")));
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await client.query<{ count: string }>("SELECT count(*) FROM bare_users");
    if (Number(rows[0]?.count) !== USERS) throw new Error("COPY wrote the wrong number of rows");
    return USERS / seconds;
  } finally {
    client.release();
    await schema.drop();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const rate = (value: number) => Math.round(value).toLocaleString("en");
const load = () => loadavg().map((value) => value.toFixed(2)).join(" ");
/** Median of the rounds, then their extremes. */
const spread = (values: readonly number[], format: (value: number) => string) => `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;

const url = await findPostgres();
if (url === undefined) {
  console.log("bulk import bench skipped: no PostgreSQL answers (set HUMAN_USERS_PG_URL or start one on 127.0.0.1:5432)");
} else {
  console.log(`${rate(USERS)} users (bcrypt hashes, verified email, a quarter with a phone), median of ${ROUNDS} rounds; load average before: ${load()}`);
  await importRate(url, {}); // warm-up: JIT, connections, the database's caches
  const copies: number[] = [];
  const imports: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    copies.push(await copyRate(url));
    imports.push(await importRate(url, {}));
  }
  // Each round's import against the COPY of the same round: a slow patch of the machine hits both.
  const ratios = copies.map((copy, round) => copy / (imports[round] ?? Number.NaN));
  const { batchSize, concurrency, parallelBatches } = defaultBulkImportOptions;
  console.log("| what | users/s, median (min–max) | time vs COPY, median (min–max) |");
  console.log("|---|---:|---:|");
  console.log(`| COPY of the same rows into a bare table | ${spread(copies, rate)} | 1.00x |`);
  console.log(
    `| importHumanUsers (defaults: batch ${batchSize}, concurrency ${concurrency}, ${parallelBatches} batches in flight) | ${spread(imports, rate)} | ${spread(ratios, (value) => `${value.toFixed(2)}x`)} |`,
  );
  console.log(`rounds: COPY ${copies.map(rate).join(", ")}; import ${imports.map(rate).join(", ")}; load average after: ${load()}`);
}
