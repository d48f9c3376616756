// One process of the many-processes test, driven by the test over the IPC channel:
//   "migrate" → runs migrate() and answers "migrated" with the versions it applied;
//   "write"   → starts a notification worker, makes CALLS calls (createHumanUser and importHumanUser
//               in turn) for USERNAMES usernames shared with the other processes, in an order of its
//               own, and answers "written" with the answers counted by code;
//   "stop"    → stops the worker (a last round), answers "stopped" with what it sent and logged.
// Even writers deliver each user's mail right after the write, odd ones leave it to the workers,
// so both paths race for the same outbox.
import pg from "pg";
import { migrate, postgresStore } from "../../../src/adapters/postgres/index.js";
import { smtpMailer } from "../../../src/adapters/smtp/index.js";
import {
  createHumanUser,
  importHumanUser,
  startNotificationWorker,
  systemClock,
  type DeliveryReport,
  type Mailer,
  type Logger,
  type Ports,
} from "../../../src/index.js";
import type { ChildMessage } from "./child-processes.js";

const { PG_URL, SCHEMA, SMTP_PORT, WRITER, CALLS, USERNAMES } = process.env;
if ([PG_URL, SCHEMA, SMTP_PORT, WRITER, CALLS, USERNAMES].includes(undefined)) {
  throw new Error("PG_URL, SCHEMA, SMTP_PORT, WRITER, CALLS and USERNAMES are required");
}
const writer = Number(WRITER);
const calls = Number(CALLS);
const usernames = Number(USERNAMES);

// Four processes and the rest of the suite stay well under the server's 100 connections.
const IN_FLIGHT = 8;
const pool = new pg.Pool({ connectionString: PG_URL, max: 6, options: `-c search_path=${SCHEMA}` });
pool.on("error", () => undefined);

/** What delivery logged, on either path: every failed hand-over, failed outbox write or dead notification. */
const logged: string[] = [];
const logger: Logger = {
  warn: (_fields, message) => logged.push(`warn: ${message}`),
  error: (_fields, message) => logged.push(`error: ${message}`),
};

const smtp = smtpMailer(
  { host: "127.0.0.1", port: Number(SMTP_PORT), secure: false, ignoreTLS: true, pool: true, maxConnections: 2 },
  { from: "Acme <noreply@acme.example>" },
);
/** Mails this process handed to the SMTP server, by the worker or right after a write. */
let mailed = 0;
const mailer: Mailer = { send: (message) => smtp.send(message).then(() => void (mailed += 1)) };
const store = postgresStore({ pool });
/** Appends the database refused because another user holds a claim: the races it settled for this process. */
let refusedAtWrite = 0;
const ports: Ports = {
  storage: {
    ...store,
    userLog: {
      ...store.userLog,
      append: async (append) => {
        const outcome = await store.userLog.append(append);
        if (!outcome.ok) refusedAtWrite += 1;
        return outcome;
      },
    },
  },
  mailer,
  clock: systemClock,
  logger,
  keys: { keyId: "procs-test", codeHmacKey: new Uint8Array(32).fill(3), encryptionKey: new Uint8Array(32).fill(4) },
  // A refused mail is tried again within a second, by whichever process leases it first.
  config: { immediateDelivery: writer % 2 === 0 ? "await" : "off", delivery: { initialBackoffSeconds: 0.2, maxBackoffSeconds: 1 } },
};
const context = { requester: { userId: "admin", orgId: "acme" }, origin: "https://login.acme.example" };

function send(message: ChildMessage): void {
  process.send?.(message);
}

/** The username indexes in an order of this writer's own (a seeded shuffle): whoever starts first does not win every name. */
function shuffled(count: number, seed: number): number[] {
  const order = Array.from({ length: count }, (_, index) => index);
  let state = seed + 1;
  for (let index = count - 1; index > 0; index--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const other = state % (index + 1);
    [order[index], order[other]] = [order[other] as number, order[index] as number];
  }
  return order;
}
const order = shuffled(usernames, writer);

/** Call `call` of this writer: each pass goes through all the usernames the other processes use too. */
function callFor(call: number): ReturnType<typeof createHumanUser> | ReturnType<typeof importHumanUser> {
  const username = `shared-${String(order[call % usernames]).padStart(3, "0")}`;
  const email = `${username}@mail.example`;
  // Neighbouring writers use the other operation for the same username at the same moment.
  return (call + writer) % 2 === 0
    ? createHumanUser(ports, { username, profile: { givenName: "Ann", familyName: "Lee" }, email: { email } }, context)
    : importHumanUser(ports, { userName: username, profile: { firstName: "Ann", lastName: "Lee" }, email: { email, isEmailVerified: false } }, context);
}

async function write(): Promise<ChildMessage> {
  const answers: Record<string, number> = {};
  /** The first message of each refusal, to tell what went wrong when a code is not the one expected. */
  const messages: Record<string, string> = {};
  const created: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < calls) {
        const result = await callFor(next++);
        const code = result.isOk() ? "ok" : String(result.error.code);
        answers[code] = (answers[code] ?? 0) + 1;
        if (result.isOk()) created.push(result.value.userId);
        else messages[code] ??= result.error.message;
      }
    }),
  );
  return { type: "written", answers, messages, created, refusedAtWrite, ms: Math.round(performance.now() - started) };
}

const delivered: string[] = [];
let worker: ReturnType<typeof startNotificationWorker> | undefined;
let stopped = false;

function record(report: DeliveryReport): void {
  delivered.push(...report.delivered);
}

async function handle(message: ChildMessage): Promise<void> {
  if (message.type === "migrate") {
    const report = await migrate(pool);
    send({ type: "migrated", applied: report.applied });
  } else if (message.type === "write") {
    worker = startNotificationWorker(ports, { intervalMs: 100, onReport: record });
    send(await write());
  } else if (message.type === "stop") {
    // The last round's report has gone to onReport already.
    await worker?.stop();
    smtp.close();
    await pool.end();
    stopped = true;
    send({ type: "stopped", mailed, workerDelivered: delivered.length, logged });
    process.disconnect();
  }
}

process.on("message", (message: ChildMessage) => {
  handle(message).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
// The test went away (it failed, timed out or was killed): so does this process.
process.on("disconnect", () => {
  if (!stopped) process.exit(1);
});
send({ type: "ready" });
