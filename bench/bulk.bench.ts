// importHumanUsers of 100,000 users with bcrypt hashes into PostgreSQL, beside a plain COPY of the
// same rows into a bare table (no index, no constraint) measured in the same run, alternating.
// Run with `npm run bench -- bulk`. Needs PostgreSQL (HUMAN_USERS_PG_URL, else 127.0.0.1:5432);
// without one it says so and skips. BULK_USERS and BULK_ROUNDS change the size and the rounds;
// BULK_TRY="batchSize=1000,parallelBatches=4;batchSize=2000" adds rows for other options, each
// measured in the same rounds, so that a change of defaults is an A/B in one run. The defaults' row
// is followed by the same import run again over the rows it wrote (every row already there), as a
// migration re-run after a failure would.
import { hashSync } from "bcryptjs";
import { loadavg } from "node:os";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import { from as copyFrom } from "pg-copy-streams";
import { migrate, postgresStore } from "../src/adapters/postgres/index.js";
import { defaultBulkImportOptions, importHumanUsers, memoryMailer, systemClock, type BulkImportOptions, type Ports } from "../src/index.js";
import { findPostgres, schemaPool } from "../test/storage/databases.js";
import { postgresCpuMicros } from "./support/server-cpu.js";

const USERS = Number(process.env["BULK_USERS"] ?? 100_000);
const ROUNDS = Number(process.env["BULK_ROUNDS"] ?? 3);
/** Other options to measure beside the defaults: `name=value` pairs, `;` between variants. */
const TRIES: readonly BulkImportOptions[] = (process.env["BULK_TRY"] ?? "")
  .split(";")
  .filter((variant) => variant.trim() !== "")
  .map((variant) => Object.fromEntries(variant.split(",").map((pair) => pair.split("=").map((part) => part.trim())).map(([name, value]) => [name, Number(value)])));
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

/** importHumanUser's request for a row: verified email (and phone), so no mail is queued. */
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

/**
 * An import's rate, and the CPU time this process and the database server spent per user (less
 * sensitive to a loaded machine than the rate; the server's is 0 when it runs on another machine).
 */
interface ImportRun {
  readonly rate: number;
  readonly cpuMicros: number;
  readonly serverMicros: number;
}

/** One import of every row, timed; each row must answer `expected`. */
async function timedImport(ports: Ports, options: BulkImportOptions, expected: "ok" | "alreadyThere"): Promise<ImportRun> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const serverBefore = postgresCpuMicros();
  let answered = 0;
  for await (const outcome of importHumanUsers(ports, requests(USERS), context, options)) {
    if ("error" in outcome) throw new Error(`row ${outcome.index} refused: ${outcome.error.message}`);
    if (!(expected in outcome)) throw new Error(`row ${outcome.index} answered ${Object.keys(outcome).join(", ")}, not ${expected}`);
    answered += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const server = postgresCpuMicros() - serverBefore;
  if (answered !== USERS) throw new Error(`answered ${answered} of ${USERS}`);
  return { rate: USERS / seconds, cpuMicros: (cpu.user + cpu.system) / USERS, serverMicros: server / USERS };
}

/** The import into a fresh schema, and with `again` the same import run once more over what it wrote. */
async function importRate(url: string, options: BulkImportOptions, again = false): Promise<{ readonly first: ImportRun; readonly again?: ImportRun }> {
  const schema = await schemaPool(url, "bulk", 4);
  try {
    await migrate(schema.pool);
    const store = postgresStore({ pool: schema.pool });
    await store.upsertOrganization(ORG);
    const ports: Ports = { storage: store, mailer: memoryMailer(), clock: systemClock, config: { immediateDelivery: "off" as const, allowThrowawayKeys: true, origin: "https://id.acme.example" } };
    const first = await timedImport(ports, options, "ok");
    return again ? { first, again: await timedImport(ports, options, "alreadyThere") } : { first };
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
  await importRate(url, {}, true); // warm-up: JIT, connections, the database's caches
  const copies: number[] = [];
  const imports: ImportRun[] = [];
  const reruns: ImportRun[] = [];
  const tried: ImportRun[][] = TRIES.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    copies.push(await copyRate(url));
    const defaults = await importRate(url, {}, true);
    imports.push(defaults.first);
    if (defaults.again !== undefined) reruns.push(defaults.again);
    for (const [at, options] of TRIES.entries()) tried[at]?.push((await importRate(url, options)).first);
  }
  const { batchSize, concurrency, parallelBatches } = defaultBulkImportOptions;
  const micros = (value: number) => value.toFixed(0);
  console.log("| what | users/s, median (min–max) | time vs COPY, median (min–max) | CPU µs per user in this process, median (min–max) | CPU µs per user in the database server, median (min–max) |");
  console.log("|---|---:|---:|---:|---:|");
  console.log(`| COPY of the same rows into a bare table | ${spread(copies, rate)} | 1.00x | | |`);
  // Each round's import against the COPY of the same round: a slow patch of the machine hits both.
  const row = (label: string, runs: readonly ImportRun[]) => {
    const against = copies.map((copy, round) => copy / (runs[round]?.rate ?? Number.NaN));
    const rates = runs.map((run) => run.rate);
    return `| ${label} | ${spread(rates, rate)} | ${spread(against, (value) => `${value.toFixed(2)}x`)} | ${spread(runs.map((run) => run.cpuMicros), micros)} | ${spread(runs.map((run) => run.serverMicros), micros)} |`;
  };
  console.log(row(`importHumanUsers (defaults: batch ${batchSize}, concurrency ${concurrency}, ${parallelBatches} batches in flight)`, imports));
  console.log(row("importHumanUsers run again over the rows it wrote (defaults; every row already there)", reruns));
  for (const [at, options] of TRIES.entries()) console.log(row(`importHumanUsers (${JSON.stringify(options)})`, tried[at] ?? []));
  console.log(`rounds: COPY ${copies.map(rate).join(", ")}; import ${imports.map((run) => `${rate(run.rate)} (${micros(run.cpuMicros)} µs/user)`).join(", ")}; load average after: ${load()}`);
}
