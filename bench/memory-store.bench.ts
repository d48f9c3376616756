// verifyEmail on the memory store, for users whose code was returned (nothing in the outbox: the
// baseline) against users whose code was mailed (one notification each in the outbox), measured
// in the same process, alternating rounds. A redemption withdraws the user's pending messages of
// its kind; it must cost the same whatever the outbox holds (it scanned every notification).
// Run with `npm run bench -- memory-store`. MEMORY_USERS changes the users per round.
import { createHumanUser, fixedClock, memoryMailer, memoryStore, verifyEmail, type Ports } from "../src/index.js";
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
