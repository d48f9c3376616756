// Four Node processes sharing one PostgreSQL schema, as production runs several copies of an
// application: they run migrate() at the same moment, then race createHumanUser and importHumanUser
// for the same 500 usernames while each runs a notification worker against one SMTP server.
// The SMTP server refuses the first few mails, so retries cross processes too. The promises: one
// winner per username, every other answer 6, each mail accepted exactly once (by Message-ID), and
// no row left without its user.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { migrations, postgresStore } from "../../src/adapters/postgres/index.js";
import { notificationMessageId } from "../../src/adapters/smtp/index.js";
import { startSmtpServer, type TestSmtpServer } from "../notifications/smtp-server.js";
import { findPostgres, schemaPool, type SchemaPool } from "./databases.js";
import { childGroup, type Child, type ChildMessage } from "./support/child-processes.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: PGlite is one process; set HUMAN_USERS_PG_URL to a PostgreSQL server)" : "";
if (url === undefined) console.log(`many processes, one database${needsServer}`);

const PROCESSES = 4;
const CALLS = 2_000;
const USERNAMES = 500;
/** Mails the SMTP server refuses (451, try again later) before accepting any: each is retried, by any process. */
const REFUSED = 25;
const SCRIPT = fileURLToPath(new URL("./support/shared-database-process.ts", import.meta.url));

/** Sends `message` to every child at once, then waits for each one's `answer`. */
async function everyone(processes: readonly Child[], message: ChildMessage, answer: string): Promise<ChildMessage[]> {
  const answers = processes.map((child) => child.next(answer));
  for (const child of processes) child.send(message);
  return Promise.all(answers);
}

function sum(counts: readonly Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const count of counts) for (const [key, value] of Object.entries(count)) total[key] = (total[key] ?? 0) + value;
  return total;
}

/** Waits until no notification is pending (the workers keep running meanwhile). */
async function outboxEmptied(pool: SchemaPool["pool"], withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const pending = await pool.query<{ count: string }>("SELECT count(*) FROM human_users_outbox WHERE state = 'pending'");
    if (pending.rows[0]?.count === "0") return;
    if (Date.now() > deadline) throw new Error(`${pending.rows[0]?.count} notifications still pending after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function messageId(raw: string): string {
  const header = /^message-id:[ \t]*(.*)$/im.exec(raw);
  if (header?.[1] === undefined) throw new Error("a mail without a Message-ID");
  return header[1].trim();
}

/** What each process did, for the log: the exactly-once counts and how the work spread. */
function summary(written: readonly ChildMessage[], stopped: readonly ChildMessage[], smtp: TestSmtpServer, outboxRows: number): string {
  const each = (answers: readonly ChildMessage[], figure: (answer: ChildMessage) => unknown) => answers.map(figure).join(", ");
  const distinct = new Set(smtp.accepted.map((mail) => messageId(mail.raw))).size;
  return [
    `many processes: calls took ${each(written, (answer) => answer["ms"])} ms`,
    `users created by each: ${each(written, (answer) => (answer["created"] as string[]).length)}`,
    `appends the database refused in each: ${each(written, (answer) => answer["refusedAtWrite"])}`,
    `mails transmitted ${smtp.transmitted.length}, accepted ${smtp.accepted.length}, distinct Message-IDs ${distinct}, outbox rows ${outboxRows}`,
    `mails handed over by each process: ${each(stopped, (answer) => answer["mailed"])}, of them by its worker: ${each(stopped, (answer) => answer["workerDelivered"])}`,
  ].join("; ");
}

/** Rows that belong to no user (a user: a stream that starts with user.human.added). Each count must be 0. */
const orphansSql = `
WITH users AS (SELECT aggregate_id AS user_id FROM human_users_events WHERE type = 'user.human.added')
SELECT
  (SELECT count(*) FROM human_users_events e WHERE e.aggregate_id NOT IN (SELECT user_id FROM users)) AS events,
  (SELECT count(*) FROM human_users_claims c WHERE c.user_id NOT IN (SELECT user_id FROM users)) AS claims,
  (SELECT count(*) FROM human_users_listings l WHERE l.user_id NOT IN (SELECT user_id FROM users)) AS listings,
  (SELECT count(*) FROM human_users_outbox o WHERE o.user_id NOT IN (SELECT user_id FROM users)) AS outbox,
  (SELECT count(*) FROM users u WHERE u.user_id NOT IN (SELECT user_id FROM human_users_listings)) AS unlisted_users`;

const countsSql = `
SELECT
  (SELECT count(*) FROM human_users_events WHERE type = 'user.human.added') AS users,
  (SELECT count(DISTINCT username_folded) FROM human_users_listings) AS usernames,
  (SELECT count(*) FROM human_users_claims WHERE kind = 'username') AS username_claims,
  (SELECT count(*) FROM human_users_claims WHERE kind = 'user_id') AS user_id_claims,
  (SELECT count(*) FROM human_users_outbox) AS outbox,
  (SELECT count(*) FROM human_users_outbox WHERE state = 'delivered') AS delivered`;

describe.skipIf(url === undefined)(`many processes, one database${needsServer}`, () => {
  const children = childGroup();
  let schema: SchemaPool | undefined;
  let smtp: TestSmtpServer | undefined;
  // Also after a failure or a time-out: no process outlives the test, then nothing holds the schema.
  afterEach(async () => {
    await children.killAll();
    await smtp?.close();
    await schema?.drop();
  });

  it(
    `${PROCESSES} processes: migrate() at once, ${CALLS} calls each for ${USERNAMES} shared usernames, a worker each: ` +
      `${USERNAMES} users, every other answer 6, each mail once, no orphans`,
    async () => {
      schema = await schemaPool(url ?? "", "procs");
      smtp = await startSmtpServer();
      const env = { PG_URL: url ?? "", SCHEMA: schema.schema, SMTP_PORT: String(smtp.port), CALLS: String(CALLS), USERNAMES: String(USERNAMES) };
      const processes = Array.from({ length: PROCESSES }, (_, writer) => children.start(SCRIPT, { ...env, WRITER: String(writer) }));
      await Promise.all(processes.map((child) => child.next("ready")));

      // All four get "migrate" together: one applies every migration, the others wait for it and find nothing to do.
      const migrated = await everyone(processes, { type: "migrate" }, "migrated");
      const everyVersion = migrations.map((migration) => migration.version).sort((a, b) => a - b);
      const applied = migrated.map((answer) => answer["applied"] as number[]);
      expect({ applying: applied.filter((versions) => versions.length > 0), findingNothing: applied.filter((versions) => versions.length === 0).length }).toEqual({
        applying: [everyVersion],
        findingNothing: PROCESSES - 1,
      });
      await postgresStore({ pool: schema.pool }).upsertOrganization({ id: "acme", domains: [{ domain: "acme.example", verified: true }] });

      smtp.refuseNext(REFUSED, 451);
      const written = await everyone(processes, { type: "write" }, "written");
      await outboxEmptied(schema.pool, 30_000);
      const stopped = await everyone(processes, { type: "stop" }, "stopped");
      await Promise.all(processes.map((child) => child.exited));

      const answers = sum(written.map((answer) => answer["answers"] as Record<string, number>));
      const messages = Object.assign({}, ...written.map((answer) => answer["messages"] as Record<string, string>)) as Record<string, string>;
      expect(answers, JSON.stringify(messages)).toEqual({ ok: USERNAMES, "6": PROCESSES * CALLS - USERNAMES });
      // Nothing failed but the refused mails, each once, whichever path (after the write, or a worker) tried it.
      const logged = stopped.flatMap((answer) => answer["logged"] as string[]);
      expect(sum(logged.map((line) => ({ [line]: 1 })))).toEqual({ "warn: human-users: notification delivery failed, will retry": REFUSED });

      const counts = (await schema.pool.query<Record<string, string>>(countsSql)).rows[0];
      const all = String(USERNAMES);
      expect(counts).toEqual({ users: all, usernames: all, username_claims: all, user_id_claims: all, outbox: all, delivered: all });
      const orphans = (await schema.pool.query<Record<string, string>>(orphansSql)).rows[0];
      expect(orphans).toEqual({ events: "0", claims: "0", listings: "0", outbox: "0", unlisted_users: "0" });
      // Every user some process was told it created is in the database.
      const users = await schema.pool.query<{ user_id: string }>("SELECT aggregate_id AS user_id FROM human_users_events WHERE type = 'user.human.added'");
      const created = written.flatMap((answer) => answer["created"] as string[]);
      expect(new Set(created)).toEqual(new Set(users.rows.map((row) => row.user_id)));

      // Exactly once: one accepted mail per outbox row, by Message-ID, and nothing sent twice.
      const outbox = await schema.pool.query<{ id: string }>("SELECT id FROM human_users_outbox");
      const expected = outbox.rows.map((row) => notificationMessageId(row.id, "acme.example")).sort();
      const received = smtp.accepted.map((mail) => messageId(mail.raw)).sort();
      console.log(summary(written, stopped, smtp, outbox.rows.length));
      expect({ transmitted: smtp.transmitted.length, received }).toEqual({ transmitted: expected.length + REFUSED, received: expected });
      // The workers took part: they sent the mail of the processes that leave it to them.
      expect(stopped.some((answer) => (answer["workerDelivered"] as number) > 0)).toBe(true);
    },
    120_000,
  );
});
