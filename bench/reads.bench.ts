// Reads and code checks. On PostgreSQL with 1,000,000 users stored (HUMAN_USERS_BENCH_USERS to
// change it), seeded in SQL with generate_series (not through the API): getUser, and listUsers by
// exact username and by email prefix, each p50 and p99 of single calls one after another, beside
// the same statements sent straight through `pg` (the baseline: the database's own time), with
// the plans. On the memory store: verifyEmail per second beside getUser on the same users.
// Run with `npm run bench -- reads`. The PostgreSQL part runs when HUMAN_USERS_PG_URL (or
// 127.0.0.1:5432) answers.
import { migrate, postgresStore } from "../src/adapters/postgres/index.js";
import { queryUsersStatement } from "../src/adapters/postgres/listing-query.js";
import type { ResultAsync } from "neverthrow";
import { createHumanUser, getUser, listUsers, memoryMailer, memoryStore, systemClock, verifyEmail, type ErrorBody, type Keys, type Ports } from "../src/index.js";
import { findPostgres, schemaPool } from "../test/storage/databases.js";

const USERS = Number(process.env.HUMAN_USERS_BENCH_USERS ?? 1_000_000);
const CALLS = 3_000;
const keys: Keys = { keyId: "bench", codeHmacKey: new Uint8Array(32).fill(7), encryptionKey: new Uint8Array(32).fill(9) };
const admin = { requester: { userId: "root", orgId: "org-0", instanceAdmin: true } };

interface Latencies {
  readonly p50: number;
  readonly p99: number;
  readonly perSecond: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** `calls` calls one after another (after a warm-up of a tenth as many): p50 and p99 in ms. */
async function latencies(calls: number, call: (index: number) => Promise<unknown>): Promise<Latencies> {
  for (let index = 0; index < calls / 10; index++) await call(calls + index);
  const times: number[] = [];
  const started = performance.now();
  for (let index = 0; index < calls; index++) {
    const before = performance.now();
    await call(index);
    times.push(performance.now() - before);
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), perSecond: calls / (total / 1000) };
}

/** A user number spread over the whole table, the same for the library and the baseline. */
function userNumber(index: number): number {
  return 1 + ((index * 7_919 + 13) % USERS);
}

const seedSql = (users: number) => [
  `INSERT INTO human_users_organizations (id, domains) SELECT 'org-' || o, '[]' FROM generate_series(0, 9) o`,
  `INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload)
   SELECT 'u' || i, 1, 'user.human.added', 'org-' || (i % 10), timestamp '2026-01-01' + i * interval '1 second',
     jsonb_build_object('userName', 'user' || i, 'firstName', 'First' || i, 'lastName', 'Last', 'displayName', 'First' || i || ' Last',
       'preferredLanguage', 'en', 'gender', 'GENDER_UNSPECIFIED', 'email', 'user' || i || '@example.com')
   FROM generate_series(1, ${users}) i`,
  `INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload)
   SELECT 'u' || i, 2, 'user.human.email.verified', 'org-' || (i % 10), timestamp '2026-01-01' + i * interval '1 second', '{}'
   FROM generate_series(1, ${users}) i`,
  `INSERT INTO human_users_claims (kind, scope, key, user_id)
   SELECT 'user_id', '', 'u' || i, 'u' || i FROM generate_series(1, ${users}) i
   UNION ALL SELECT 'username', '', 'user' || i, 'u' || i FROM generate_series(1, ${users}) i`,
  `INSERT INTO human_users_listings (user_id, org_id, sequence, created_at, changed_at, state, username, given_name, family_name, nick_name,
     display_name, preferred_language, gender, email, email_verified, phone, phone_verified, password_change_required, password_changed_at,
     username_folded, email_folded, display_name_folded)
   SELECT 'u' || i, 'org-' || (i % 10), 2, timestamp '2026-01-01' + i * interval '1 second', timestamp '2026-01-01' + i * interval '1 second',
     'USER_STATE_ACTIVE', 'user' || i, 'First' || i, 'Last', '', 'First' || i || ' Last', 'en', 'GENDER_UNSPECIFIED', 'user' || i || '@example.com',
     true, NULL, false, false, NULL, 'user' || i, 'user' || i || '@example.com', 'first' || i || ' last'
   FROM generate_series(1, ${users}) i`,
  // As autovacuum would leave a table at rest: statistics, and a visibility map for index-only scans.
  "VACUUM ANALYZE human_users_events, human_users_claims, human_users_listings",
];

function row(name: string, library: Latencies, baseline: Latencies): string {
  const ms = (value: number) => value.toFixed(3);
  return `| ${name} | ${ms(library.p50)} | ${ms(library.p99)} | ${Math.round(library.perSecond)} | ${ms(baseline.p50)} | ${ms(baseline.p99)} |`;
}

async function onPostgres(url: string): Promise<void> {
  const schema = await schemaPool(url, "reads", 4);
  try {
    await migrate(schema.pool);
    const seeding = performance.now();
    for (const statement of seedSql(USERS)) await schema.pool.query(statement);
    console.log(`seeded ${USERS.toLocaleString("en")} users (2 events, 2 claims and a listing each) in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    const ports: Ports = { storage: postgresStore({ pool: schema.pool }), mailer: memoryMailer(), clock: systemClock, keys, config: { origin: "https://id.acme.example" } };

    const byUsername = (index: number) => ({ queries: [{ userNameQuery: { userName: `user${userNumber(index)}` } }] });
    // A prefix of 5 digits: 111 users for 1,000,000 (user12345, user123450 to user123459, user1234500 to ...99).
    const prefixOf = (index: number) => `user${String(userNumber(index)).slice(0, 5)}`;
    const byEmailPrefix = (index: number) => ({ queries: [{ emailQuery: { emailAddress: prefixOf(index), method: "TEXT_QUERY_METHOD_STARTS_WITH" } }] });
    const statementFor = (filter: Parameters<typeof queryUsersStatement>[0]["filter"]) => queryUsersStatement({ filter, sortBy: "userId", ascending: false, offset: 0, limit: 100 });
    const usernameStatement = (index: number) => statementFor({ text: "username", match: "equals", value: `user${userNumber(index)}`, ignoreCase: false });
    const prefixStatement = (index: number) => statementFor({ text: "email", match: "startsWith", value: prefixOf(index), ignoreCase: false });

    const checked = async (result: ResultAsync<unknown, ErrorBody>) => {
      if ((await result).isErr()) throw new Error("a bench call was refused");
    };
    const figures = {
      getUser: await latencies(CALLS, (index) => checked(getUser(ports, { userId: `u${userNumber(index)}` }, admin))),
      getUserSql: await latencies(CALLS, (index) =>
        schema.pool.query("SELECT type, aggregate_id, org_id, sequence, created_at, payload::text FROM human_users_events WHERE aggregate_id = $1 ORDER BY sequence", [`u${userNumber(index)}`]),
      ),
      username: await latencies(CALLS, (index) => checked(listUsers(ports, byUsername(index), admin))),
      usernameSql: await latencies(CALLS, (index) => schema.pool.query(usernameStatement(index).text, [...usernameStatement(index).params])),
      prefix: await latencies(CALLS, (index) => checked(listUsers(ports, byEmailPrefix(index), admin))),
      prefixSql: await latencies(CALLS, (index) => schema.pool.query(prefixStatement(index).text, [...prefixStatement(index).params])),
    };
    console.log(`\n${USERS.toLocaleString("en")} users on PostgreSQL, ${CALLS} calls one after another; baseline: the same SQL straight through pg`);
    console.log("| call | p50 ms | p99 ms | calls/s | baseline p50 ms | baseline p99 ms |");
    console.log("|---|---:|---:|---:|---:|---:|");
    console.log(row("getUser (events loaded and folded)", figures.getUser, figures.getUserSql));
    console.log(row("listUsers, username equals", figures.username, figures.usernameSql));
    console.log(row("listUsers, email starts with (5 digits: 111 users)", figures.prefix, figures.prefixSql));

    // The library prepares its statements, and PostgreSQL may switch a prepared statement to a
    // generic plan after five runs: both plans are shown, the generic one forced.
    const client = await schema.pool.connect();
    try {
      for (const [name, statement] of [["username equals", usernameStatement(1)], ["email starts with", prefixStatement(1)]] as const) {
        for (const mode of ["force_custom_plan", "force_generic_plan"]) {
          await client.query(`SET plan_cache_mode = ${mode}`);
          await client.query(`PREPARE listing AS ${statement.text}`);
          const values = statement.params.map((value) => (typeof value === "string" ? `'${value.replace(/'/g, "''")}'` : String(value))).join(", ");
          const plan = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE listing(${values})`);
          await client.query("DEALLOCATE listing");
          const lines = plan.rows.map((line: Record<string, string>) => Object.values(line)[0] ?? "");
          const sequential = lines.some((line) => line.includes("Seq Scan"));
          console.log(`\nplan, ${name}, ${mode} (${sequential ? "WITH A SEQUENTIAL SCAN" : "indexes only, no sequential scan"}):\n${lines.map((line) => `    ${line}`).join("\n")}`);
        }
      }
    } finally {
      await client.query("RESET plan_cache_mode");
      client.release();
    }
  } finally {
    await schema.drop();
  }
}

async function onMemory(): Promise<void> {
  const users = 20_000;
  const ports: Ports = { storage: memoryStore({ organizations: [{ id: "acme", domains: [] }] }), mailer: memoryMailer(), clock: systemClock, keys };
  const codes: { userId: string; code: string }[] = [];
  for (let index = 0; index < users; index++) {
    const request = { username: `m${index}`, profile: { givenName: "M", familyName: "N" }, email: { email: `m${index}@acme.test`, returnCode: {} } };
    const created = (await createHumanUser(ports, request, { requester: { userId: "a", orgId: "acme" } }))._unsafeUnwrap();
    codes.push({ userId: created.userId, code: created.emailCode ?? "" });
  }
  const time = async (call: (index: number) => ResultAsync<unknown, ErrorBody> | Promise<unknown>) => {
    const started = performance.now();
    for (let index = 0; index < users; index++) await call(index);
    return users / ((performance.now() - started) / 1000);
  };
  const read = await time((index) => getUser(ports, { userId: codes[index]?.userId }, { requester: { userId: "a", orgId: "acme" } }));
  const wrong = await time((index) => verifyEmail(ports, { userId: codes[index]?.userId, verificationCode: "WRONG1" }));
  const verified = await time(async (index) => {
    const answer = await verifyEmail(ports, { userId: codes[index]?.userId, verificationCode: codes[index]?.code });
    if (answer.isErr()) throw new Error(`verifyEmail refused: ${answer.error.message}`);
  });
  console.log(`\nmemory store, ${users.toLocaleString("en")} users, one call after another`);
  console.log("| call | calls/s |");
  console.log("|---|---:|");
  console.log(`| getUser (baseline: load, fold, render) | ${Math.round(read).toLocaleString("en")} |`);
  console.log(`| verifyEmail, wrong code (the failure appended) | ${Math.round(wrong).toLocaleString("en")} |`);
  console.log(`| verifyEmail, right code (after one wrong attempt each) | ${Math.round(verified).toLocaleString("en")} |`);
}

const url = await findPostgres();
if (url === undefined) console.log("PostgreSQL: no server answers (set HUMAN_USERS_PG_URL); skipped");
else await onPostgres(url);
await onMemory();
