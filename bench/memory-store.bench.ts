// The memory store's outbox must not make other work slower as it grows, measured in the same
// process, alternating rounds (`npm run bench -- memory-store`; MEMORY_USERS changes the size):
// - verifyEmail for users whose code was returned (nothing in the outbox: the baseline) against
//   users whose code was mailed (one notification each). A redemption withdraws the user's pending
//   messages of its kind, and it scanned every notification;
// - a worker's lease of due notifications with an empty outbox (the baseline) against one beside
//   MEMORY_USERS delivered ones, which it walked on every poll.
import { createHumanUser, deliverPendingNotifications, fixedClock, memoryMailer, memoryStore, verifyEmail, type Ports } from "../src/index.js";
import { figuresTable, measuredRounds } from "./support/rounds.js";

const USERS = Number(process.env["MEMORY_USERS"] ?? 10_000);
const context = { requester: { userId: "admin", orgId: "acme" } };

/** Verifications per second over `USERS` users of a fresh store, their codes mailed or returned. */
async function verificationsPerSecond(mailed: boolean): Promise<number> {
  const mailer = memoryMailer();
  const ports: Ports = { storage: memoryStore({ organizations: [{ id: "acme", domains: [] }] }), mailer, clock: fixedClock("2026-01-01T00:00:00Z"), config: { allowThrowawayKeys: true } };
  const codes: (readonly [string, string])[] = [];
  for (let index = 0; index < USERS; index++) {
    const email = mailed ? { email: `user-${index}@example.com` } : { email: `user-${index}@example.com`, returnCode: {} };
    const created = (await createHumanUser(ports, { username: `user-${index}`, profile: { givenName: "Ann", familyName: "Lee" }, email }, context))._unsafeUnwrap();
    const code = mailed ? mailer.sent[mailer.sent.length - 1]?.code : created.emailCode;
    if (code === undefined) throw new Error("no code");
    codes.push([created.userId, code]);
  }
  const started = performance.now();
  for (const [userId, verificationCode] of codes) {
    if ((await verifyEmail(ports, { userId, verificationCode })).isErr()) throw new Error("refused");
  }
  return USERS / ((performance.now() - started) / 1000);
}

await verificationsPerSecond(false); // warm-up
const figures = await measuredRounds([
  { name: `verifyEmail, codes returned (nothing in the outbox; baseline), ${USERS.toLocaleString("en")} users`, measure: () => verificationsPerSecond(false) },
  { name: `verifyEmail, codes mailed (${USERS.toLocaleString("en")} notifications in the outbox)`, measure: () => verificationsPerSecond(true) },
]);
console.log(figuresTable(figures));

/** Leases per second of a worker's poll (nothing due), beside `delivered` delivered notifications. */
async function leasesPerSecond(delivered: number): Promise<number> {
  const storage = memoryStore({ organizations: [{ id: "acme", domains: [] }] });
  const ports: Ports = { storage, mailer: memoryMailer(), clock: fixedClock("2026-01-01T00:00:00Z"), config: { allowThrowawayKeys: true } };
  for (let index = 0; index < delivered; index++) {
    await createHumanUser(ports, { username: `user-${index}`, profile: { givenName: "Ann", familyName: "Lee" }, email: { email: `user-${index}@example.com` } }, context);
  }
  await deliverPendingNotifications(ports);
  const polls = 2_000;
  const leaseUntil = new Date("2026-01-01T00:01:00Z");
  const now = new Date("2026-01-01T00:00:00Z");
  const started = performance.now();
  for (let poll = 0; poll < polls; poll++) await storage.outbox.lease({ now, leaseUntil, limit: 50 });
  return polls / ((performance.now() - started) / 1000);
}

await leasesPerSecond(100); // warm-up
const leases = await measuredRounds([
  { name: "a worker's lease, nothing in the outbox (baseline)", measure: () => leasesPerSecond(0) },
  { name: `a worker's lease beside ${USERS.toLocaleString("en")} delivered notifications`, measure: () => leasesPerSecond(USERS) },
]);
console.log(`\n${figuresTable(leases)}`);
