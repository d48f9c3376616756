// One writer process of the multi-process id test: creates users without a userId (so every id is
// generated here, by the default generator) against the schema it is given, for DURATION_MS, a few
// calls at a time, then prints one JSON line with how each call was answered.
import pg from "pg";
import { postgresStore } from "../../../src/adapters/postgres/index.js";
import { createHumanUser, memoryMailer, systemClock, type Ports } from "../../../src/index.js";

const { PG_URL, SCHEMA, DURATION_MS, WRITER } = process.env;
if (PG_URL === undefined || SCHEMA === undefined || DURATION_MS === undefined || WRITER === undefined) {
  throw new Error("PG_URL, SCHEMA, DURATION_MS and WRITER are required");
}

const IN_FLIGHT = 16;
// Four writers and the rest of the suite stay well under the server's 100 connections.
const CONNECTIONS = 8;
const pool = new pg.Pool({ connectionString: PG_URL, max: CONNECTIONS, options: `-c search_path=${SCHEMA}` });
pool.on("error", () => undefined);
const ports: Ports = {
  storage: postgresStore({ pool }),
  // Delivery is not what is tested: the outbox keeps every notification.
  mailer: memoryMailer(),
  clock: systemClock,
  keys: { keyId: "ids-test", codeHmacKey: new Uint8Array(32).fill(1), encryptionKey: new Uint8Array(32).fill(2) },
  config: { immediateDelivery: "off" },
};
const context = { requester: { userId: "admin", orgId: "acme" } };
const answers: Record<string, number> = {};
const stopAt = Date.now() + Number(DURATION_MS);
let call = 0;

async function writeUntilStopped(): Promise<void> {
  while (Date.now() < stopAt) {
    const n = call++;
    const result = await createHumanUser(ports, {
      username: `w${WRITER}-${n}`,
      profile: { givenName: "Ann", familyName: "Lee" },
      email: { email: `w${WRITER}-${n}@example.com` },
    }, context);
    const key = result.isOk() ? "ok" : `${result.error.code} ${result.error.message}`;
    answers[key] = (answers[key] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: IN_FLIGHT }, writeUntilStopped));
await pool.end();
process.stdout.write(`${JSON.stringify(answers)}\n`);
