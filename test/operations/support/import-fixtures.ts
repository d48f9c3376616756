// importHumanUser fixtures: ports whose codes, ids, hashes and messages are all predictable, so that
// bodies, events, outbox records and messages can be asserted whole.
import { createHmac, pbkdf2Sync } from "node:crypto";
import { expect } from "vitest";
import type { HumanUsersConfig, PasswordHasher, Ports, RandomSource, SmsMessage, SmsSender } from "../../../src/index.js";
import { NOW as NOW_TIME, testKeys, testPorts, type TestPorts } from "./ports.js";

export { ACME, GLOBEX, instanceAdmin, member, NOW, testKeys } from "./ports.js";

/** The n-th id the counting generator hands out: id(1) is "100000000000000001". */
export function id(n: number): string {
  return String(100_000_000_000_000_000n + BigInt(n));
}

/**
 * The k-th fill (from 0) sets every byte to k, so the k-th code drawn is the k-th character of its
 * alphabet repeated: "AAAAAA", then "BBBBBB" (A-Z 0-9), or "cccccccccccc" (a-z A-Z 0-9) third.
 */
export function steppingRandom(): RandomSource {
  let fills = 0;
  return { fill: (bytes) => bytes.fill(fills++ % 36) };
}

/** A hasher that is instant and deterministic; its output never contains the password. */
export const fakeHasher: PasswordHasher = {
  name: "fake",
  hash: (password) => Promise.resolve(fakeHash(password)),
  isCurrent: () => true,
};

/**
 * One PBKDF2-SHA256 round with a fixed salt: instant, and a hash the library parses and checks,
 * as every hasher's output must be (one it cannot parse is refused before it is stored).
 */
export function fakeHash(password: string): string {
  const salt = Buffer.alloc(16, 0x66);
  const adapted = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "").replace(/\+/g, ".");
  return `$pbkdf2-sha256$1$${adapted(salt)}$${adapted(pbkdf2Sync(password, salt, 1, 32, "sha256"))}`;
}

/** Host templates in English (the language of `und`) that show every value a message gets. */
export const visibleMessages: NonNullable<HumanUsersConfig["messages"]> = {
  en: {
    "email.initialization": {
      subject: "init {{username}}",
      text: "{{displayName}}|{{username}}|{{recipient}}|{{code}}|{{link}}|{{validity}}|{{expiresAt}}",
      html: "<p>{{code}}</p>",
    },
    "phone.verification": { text: "{{code}} for {{validity}}" },
  },
};

export interface RecordingSms extends SmsSender {
  readonly sent: SmsMessage[];
}

export function recordingSms(): RecordingSms {
  const sent: SmsMessage[] = [];
  return {
    sent,
    send: (message) => {
      sent.push(message);
      return Promise.resolve();
    },
  };
}

/**
 * The shared test ports with a stepping random source, the fake hasher and the visible messages;
 * `config` members are merged over `{ messages: visibleMessages }`.
 */
export function importPorts(overrides: Partial<Ports> = {}, seed?: Parameters<typeof testPorts>[1]): TestPorts {
  const config: HumanUsersConfig = { messages: visibleMessages, ...overrides.config };
  return testPorts({ random: steppingRandom(), passwordHasher: fakeHasher, ...overrides, config }, seed);
}

/** How a code is stored: computed here independently of the library, with the test key. */
export function storedCode(code: string): { algorithm: string; keyId: string; hash: string } {
  const hash = createHmac("sha256", testKeys.codeHmacKey).update(code).digest("base64");
  return { algorithm: "HMAC-SHA256", keyId: testKeys.keyId, hash };
}

/** A bcrypt hash (cost 4) of BCRYPT_PASSWORD, made with bcryptjs. */
export const BCRYPT_HASH = "$2b$04$ld1s9PNHWmt4T9DPLxl5O.WmxNLFa.oELdYsIlBWGS/xp43NoQ4pm";
export const BCRYPT_PASSWORD = "Correct-Horse-Battery-9";

/** passlib's adapted base64: no padding, "." for "+". */
function adaptedBase64(bytes: Buffer): string {
  return bytes.toString("base64").replace(/=+$/, "").replace(/\+/g, ".");
}

/** A valid `$pbkdf2-sha256$` hash of BCRYPT_PASSWORD; 102 salt bytes and 1000 rounds give 200 characters. */
export function pbkdf2Hash(rounds: number, saltBytes: number): string {
  const salt = Buffer.alloc(saltBytes, 0x5a);
  const digest = pbkdf2Sync(BCRYPT_PASSWORD, salt, rounds, 32, "sha256");
  return `$pbkdf2-sha256$${rounds}$${adaptedBase64(salt)}$${adaptedBase64(digest)}`;
}

/** The smallest valid importHumanUser request: unverified email, no password. */
export function minimalImport(): Record<string, unknown> {
  return { profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test" } };
}

/** `count` characters, each outside the Basic Multilingual Plane (two UTF-16 units each). */
export function astral(count: number): string {
  return "𝒜".repeat(count);
}

export interface InitMailFacts {
  readonly id: string;
  readonly userId: string;
  readonly orgId: string;
  readonly to: string;
  readonly displayName: string;
  readonly username: string;
  readonly code: string;
  readonly link: string;
  /** RFC 3339, the notification's expiry (72 hours after NOW by default). */
  readonly expiresAt: string;
  readonly validity?: string;
}

/** The initialization mail the visible messages make from these facts. */
export function initMail(facts: InitMailFacts) {
  const { id, userId, orgId, to, displayName, username, code, link, expiresAt } = facts;
  const validity = facts.validity ?? "72 hours";
  return {
    id,
    kind: "email.initialization",
    to,
    subject: `init ${username}`,
    text: [displayName, username, to, code, link, validity, expiresAt].join("|"),
    html: `<p>${code}</p>`,
    code,
    link,
    userId,
    orgId,
  };
}

/** The default initialization link. */
export function initLink(origin: string, userId: string, code: string, orgId: string): string {
  return `${origin}/ui/login/user/init?userID=${encodeURIComponent(userId)}&code=${code}&orgID=${encodeURIComponent(orgId)}`;
}

/** The user.human.added payload of `minimalImport()`, with `changes` over it. */
/** Any import fingerprint (`v2.` and a base64url SHA-256): what it compares is tested in test/bulk. */
export const ANY_IMPORT_FINGERPRINT = expect.stringMatching(/^v3\.[A-Za-z0-9_-]{43}$/) as unknown as string;

export function addedPayload(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    importFingerprint: ANY_IMPORT_FINGERPRINT,
    userName: "ann@acme.test",
    firstName: "Ann",
    lastName: "Lee",
    displayName: "Ann Lee",
    preferredLanguage: "und",
    gender: "GENDER_UNSPECIFIED",
    email: "ann@acme.test",
    ...changes,
  };
}

/** An error body without field violations. */
export function errorBody(code: number, id: string, message: string) {
  return { code, message, details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id, message }] };
}

/** The code-3 body of a validation failure: `message` as the contract words it, then every violation. */
export function invalidBody(message: string, violations: readonly (readonly [field: string, description: string])[], errorId = "USER-1nv4") {
  const { details } = errorBody(3, errorId, message);
  const fieldViolations = violations.map(([field, description]) => ({ field, description }));
  return { code: 3, message, details: [...details, { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations }] };
}

/** The code-3 body of a single violation. */
export function refused(field: string, description: string, errorId?: string) {
  return invalidBody(`${field}: ${description}`, [[field, description]], errorId);
}

export const DEFAULT_ORIGIN = "http://localhost:8080";
/** NOW plus the initialization code's default validity of 72 hours. */
export const IN_72_HOURS = "2026-03-07T05:06:07Z";

/** The response's `details` of a user written at NOW. */
export function details(sequence: string, resourceOwner = "acme") {
  return { sequence, creationDate: NOW_TIME, changeDate: NOW_TIME, resourceOwner };
}

/** One event of the first user imported into ACME, as the store keeps it. */
export function storedEvent(sequence: number, type: string, payload: Record<string, unknown>) {
  return { type, aggregateId: id(1), orgId: "acme", sequence, createdAt: NOW_TIME, payload };
}

/** The initialization mail of Ann's import in ACME: the first code drawn, the first notification id. */
export function annInitMail(changes: Partial<InitMailFacts> = {}) {
  return initMail({
    id: id(2),
    userId: id(1),
    orgId: "acme",
    to: "ann@acme.test",
    displayName: "Ann Lee",
    username: "ann@acme.test",
    code: "AAAAAA",
    link: initLink(DEFAULT_ORIGIN, id(1), "AAAAAA", "acme"),
    expiresAt: IN_72_HOURS,
    ...changes,
  });
}

/** Ann's notification in the outbox, as the memory store shows it, with `changes` over it. */
export function outboxRecord(changes: Record<string, unknown>) {
  return {
    id: id(2),
    kind: "email.initialization",
    userId: id(1),
    orgId: "acme",
    recipient: "ann@acme.test",
    code: "AAAAAA",
    link: initLink(DEFAULT_ORIGIN, id(1), "AAAAAA", "acme"),
    locale: "und",
    displayName: "Ann Lee",
    username: "ann@acme.test",
    createdAt: NOW_TIME,
    expiresAt: IN_72_HOURS,
    attempts: 0,
    state: "pending",
    ...changes,
  };
}
