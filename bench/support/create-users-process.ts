// One process of bench/processes.bench.ts: keeps its pool warm between rounds and, on each "run"
// message, creates new users with createHumanUser for `durationMs` with `inFlight` calls at a time,
// then answers "ran" with its calls per second and the share of that time its own CPU was busy. Mail stays in the outbox (immediate delivery off):
// the write path is what is measured. It leaves when the bench closes the channel.
import pg from "pg";
import { postgresStore } from "../../src/adapters/postgres/index.js";
import { createHumanUser, memoryMailer, systemClock, type Ports } from "../../src/index.js";

const { PG_URL, SCHEMA, LABEL } = process.env;
if (PG_URL === undefined || SCHEMA === undefined || LABEL === undefined) throw new Error("PG_URL, SCHEMA and LABEL are required");

const pool = new pg.Pool({ connectionString: PG_URL, max: 16, options: `-c search_path=${SCHEMA}` });
pool.on("error", () => undefined);
const ports: Ports = {
  storage: postgresStore({ pool }),
  mailer: memoryMailer(),
  clock: systemClock,
  keys: { keyId: "bench", codeHmacKey: new Uint8Array(32).fill(5), encryptionKey: new Uint8Array(32).fill(6) },
  config: { immediateDelivery: "off", origin: "https://id.acme.example" },
};
const context = { requester: { userId: "admin", orgId: "acme" } };
let created = 0;

async function createOne(): Promise<void> {
  created += 1;
  const username = `${LABEL}-${created}`;
  const result = await createHumanUser(ports, { username, profile: { givenName: "Ann", familyName: "Lee" }, email: { email: `${username}@example.com` } }, context);
  if (result.isErr()) throw new Error(`createHumanUser answered ${result.error.code}: ${result.error.message}`);
}

async function run(durationMs: number, inFlight: number): Promise<{ perSecond: number; busy: number }> {
  let calls = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const stopAt = started + durationMs;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < stopAt) {
        await createOne();
        calls += 1;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { perSecond: calls / (elapsedMs / 1000), busy: (used.user + used.system) / 1000 / elapsedMs };
}

process.on("message", (message: { type: string; durationMs: number; inFlight: number }) => {
  if (message.type !== "run") return;
  run(message.durationMs, message.inFlight).then(
    (figures) => process.send?.({ type: "ran", ...figures }),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.on("disconnect", () => {
  void pool.end().finally(() => process.exit(0));
});
process.send?.({ type: "ready" });
