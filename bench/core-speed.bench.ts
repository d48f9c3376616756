// createHumanUser on the memory store against a plain valibot safeParse of the same body (a schema
// of the same fields: trimmed strings of 1..200, an email check; none of the library's code), in
// the same process, interleaved rounds. Run with `npm run bench -- core-speed`.
import * as v from "valibot";
import { createHumanUser, fixedClock, memoryMailer, memoryStore, type Ports } from "../src/index.js";
import { figuresTable, interleavedRounds } from "./support/rounds.js";

const text = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));
const plainSchema = v.object({
  username: text,
  profile: v.object({ givenName: text, familyName: text, preferredLanguage: v.optional(v.pipe(v.string(), v.maxLength(10))) }),
  email: v.object({ email: v.pipe(text, v.email()), returnCode: v.optional(v.object({})) }),
});

const ports: Ports = {
  storage: memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] }),
  mailer: memoryMailer(),
  clock: fixedClock("2026-01-01T00:00:00Z"),
};
const context = { requester: { userId: "admin", orgId: "acme" } };
let counter = 0;
const body = () => {
  counter += 1;
  return { username: `user-${counter}`, profile: { givenName: "Ann", familyName: "Lee", preferredLanguage: "en" }, email: { email: `user-${counter}@example.com`, returnCode: {} } };
};

const ROUNDS = 5;
const figures = await interleavedRounds([
  {
    name: "valibot safeParse of the same body (baseline)",
    run: () => {
      if (!v.safeParse(plainSchema, body()).success) throw new Error("invalid");
    },
  },
  {
    name: "createHumanUser, no password, code returned (memory store)",
    run: async () => {
      if ((await createHumanUser(ports, body(), context)).isErr()) throw new Error("refused");
    },
  },
], ROUNDS);
console.log(figuresTable(figures));

// The aims: at most 8 times the plain parse (3 times as the direction), and 50,000 users/s on one core.
const creation = figures[1];
if (creation !== undefined) {
  const { ratio } = creation;
  const usersPerSecond = (value: number): string => Math.round(value).toLocaleString("en");
  console.log(
    `\ncreateHumanUser: ${ratio.median.toFixed(1)}× the plain valibot parse (median of ${ROUNDS} interleaved rounds; ${ratio.min.toFixed(1)}–${ratio.max.toFixed(1)}), aim ≤ 8×: ${ratio.median <= 8 ? "met" : "not met"}`,
  );
  console.log(
    `createHumanUser: ${usersPerSecond(creation.median)} users/s on one core (median; ${usersPerSecond(creation.min)}–${usersPerSecond(creation.max)}), aim ≥ 50,000: ${creation.median >= 50_000 ? "met" : "not met"}`,
  );
}
