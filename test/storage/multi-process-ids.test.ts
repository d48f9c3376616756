// Four processes creating users without a userId in one PostgreSQL schema at the same time: every
// id they generate (user, notification) is drawn by its own process, and no two may meet. With
// 18-digit ids this answered 6 ("userId already exists") and 13 (a duplicate outbox id).
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: no PostgreSQL server answers; set HUMAN_USERS_PG_URL)" : "";
if (url === undefined) console.log(`multi-process ids${needsServer}`);

const WRITERS = 4;
const DURATION_MS = 6_000;

/** Runs one writer to its end; resolves with its answers by kind. */
function runWriter(writer: number, schema: string): Promise<Record<string, number>> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/storage/support/id-writer.ts"], {
    env: { ...process.env, PG_URL: url, SCHEMA: schema, DURATION_MS: String(DURATION_MS), WRITER: String(writer) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(JSON.parse(out) as Record<string, number>);
      else reject(new Error(`writer ${writer} exited with ${code}: ${errors}`));
    });
  });
}

describe.skipIf(url === undefined)(`generated ids across processes on PostgreSQL${needsServer}`, () => {
  it(`${WRITERS} processes create users without a userId for ${DURATION_MS / 1000} s: every answer is Ok, and users, events and outbox rows add up`, async () => {
    const schema = await schemaPool(url ?? "", "ids");
    try {
      await migrate(schema.pool);
      await postgresStore({ pool: schema.pool }).upsertOrganization({ id: "acme", domains: [] });

      const answers = await Promise.all(Array.from({ length: WRITERS }, (_, writer) => runWriter(writer, schema.schema)));

      const created = answers.reduce((sum, answer) => sum + (answer["ok"] ?? 0), 0);
      const counted = await schema.pool.query<{ users: string; user_ids: string; events: string; outbox: string }>(
        `SELECT (SELECT count(DISTINCT aggregate_id) FROM human_users_events) AS users,
                (SELECT count(*) FROM human_users_claims WHERE kind = 'user_id') AS user_ids,
                (SELECT count(*) FROM human_users_events) AS events,
                (SELECT count(*) FROM human_users_outbox) AS outbox`,
      );
      // Each user: user.human.added and user.human.email.code.added, and one verification mail.
      expect({ answers: answers.map((answer) => Object.keys(answer)), counts: counted.rows[0] }).toEqual({
        answers: answers.map(() => ["ok"]),
        counts: { users: String(created), user_ids: String(created), events: String(2 * created), outbox: String(created) },
      });
      // The processes did overlap: each answered many calls within the same seconds.
      expect(answers.every((answer) => (answer["ok"] ?? 0) > 20)).toBe(true);
    } finally {
      await schema.drop();
    }
  }, 30_000);
});
