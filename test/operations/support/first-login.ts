// The first-login operations on each store: the memory store, and PostgreSQL (the real server when
// one answers, else the same SQL on PGlite). Ports are deterministic (counting ids, a clock the
// test moves, known keys, codes drawn from known bytes) and hash with a cheap, deterministic
// PBKDF2 hasher, so that events and bodies can be asserted whole.
import { pbkdf2Sync } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import {
  importHumanUser,
  memoryMailer,
  memoryStore,
  type MemoryMailer,
  type Organization,
  type PasswordHasher,
  type Ports,
  type Storage,
  type StorageSnapshot,
  type StoredEvent,
  type JsonObject,
} from "../../../src/index.js";
import type { StorageSeed } from "../../../src/testing/index.js";
import { PgliteSchemas, findPostgres, postgresSubject } from "../../storage/databases.js";
import { countingIds, instanceAdmin, testKeys } from "./ports.js";
import { steppingRandom } from "./import-fixtures.js";

export const NOW = "2026-03-04T05:06:07Z";

/** Locks after 3 wrong passwords; usernames unique across the store. */
export const ACME: Organization = { id: "acme", domains: [{ domain: "acme.test", verified: true }], policy: { lockout: { maxPasswordAttempts: 3 } } };
/** No lockout. */
export const GLOBEX: Organization = { id: "globex", domains: [{ domain: "globex.test", verified: true }] };
/** Login names are `username@must.test`; locks after 5. */
export const MUST: Organization = {
  id: "must",
  domains: [{ domain: "must.test", verified: true }],
  policy: { userLoginMustBeDomain: true, lockout: { maxPasswordAttempts: 5 } },
};

export const SEED: StorageSeed = { organizations: [ACME, GLOBEX, MUST], identityProviders: [] };

/** passlib's adapted base64: no padding, "." for "+". */
function adaptedBase64(bytes: Buffer): string {
  return bytes.toString("base64").replace(/=+$/, "").replace(/\+/g, ".");
}

/**
 * The cheap hasher's hash of `password`: one PBKDF2 round over a fixed salt, so the same password
 * always gives the same hash. With more `rounds`, a hash the cheap hasher upgrades at login.
 */
export function cheapHash(password: string, rounds = 1): string {
  const salt = Buffer.alloc(16, 0x5a);
  return `$pbkdf2-sha256$${rounds}$${adaptedBase64(salt)}$${adaptedBase64(pbkdf2Sync(password, salt, rounds, 32, "sha256"))}`;
}

/** Hashes as `cheapHash`; current for exactly those hashes, so any other hash is upgraded at login. */
export const cheapHasher: PasswordHasher = {
  name: "cheap-pbkdf2",
  hash: (password) => Promise.resolve(cheapHash(password)),
  isCurrent: (parsed) => parsed.family === "pbkdf2" && parsed.prf === "sha256" && parsed.iterations === 1 && parsed.salt.every((byte) => byte === 0x5a),
};

/** A hasher that counts the verifications run against it: `verifyPassword` asks `isCurrent` once per verification. */
export function countingHasher(base: PasswordHasher = cheapHasher): PasswordHasher & { readonly verifications: () => number; readonly hashes: () => number } {
  let verifications = 0;
  let hashes = 0;
  return {
    name: base.name,
    hash: (password) => {
      hashes++;
      return base.hash(password);
    },
    isCurrent: (parsed) => {
      verifications++;
      return base.isCurrent(parsed);
    },
    verifications: () => verifications,
    hashes: () => hashes,
  };
}

/** A clock the test sets. */
export interface MovableClock {
  now(): Date;
  set(iso: string): void;
}

export function movableClock(start = NOW): MovableClock {
  let current = new Date(start);
  return { now: () => new Date(current), set: (iso) => (current = new Date(iso)) };
}

export interface Harness {
  readonly ports: Ports;
  readonly mailer: MemoryMailer;
  readonly clock: MovableClock;
  snapshot(): Promise<StorageSnapshot>;
  /** One user's events after `after` (its sequence before the step under test). */
  eventsOf(userId: string, after?: number): Promise<StoredEvent[]>;
}

export interface StoreKind {
  readonly name: string;
  /** A fresh store with SEED's organizations, and ports over it; released after the file. */
  open(overrides?: Partial<Ports>): Promise<Harness>;
}

function harness(storage: Storage, snapshot: () => Promise<StorageSnapshot> | StorageSnapshot, overrides: Partial<Ports>): Harness {
  const mailer = memoryMailer();
  const clock = movableClock();
  const ports: Ports = {
    storage,
    mailer,
    clock,
    ids: countingIds(),
    random: steppingRandom(),
    keys: testKeys,
    passwordHasher: cheapHasher,
    ...overrides,
  };
  return {
    ports,
    mailer,
    clock,
    snapshot: async () => snapshot(),
    async eventsOf(userId, after = 0) {
      const events = (await snapshot()).events.filter((stored) => stored.aggregateId === userId && stored.sequence > after);
      // SQL stores give times with milliseconds ("...07.000Z"); the memory store keeps them as written.
      return events.map((stored) => ({ ...stored, createdAt: stored.createdAt.replace(/\.000Z$/, "Z") }));
    },
  };
}

/**
 * The stores every first-login test runs on. Call once at the top level of a test file: it
 * registers the hooks that start and stop PGlite when no PostgreSQL server answers.
 */
export async function storeKinds(label: string): Promise<readonly StoreKind[]> {
  const memory: StoreKind = {
    name: "memory",
    open: async (overrides = {}) => {
      const store = memoryStore({ organizations: SEED.organizations });
      return harness(store, () => store.snapshot(), overrides);
    },
  };
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const url = await findPostgres();
  if (url !== undefined) {
    const server: StoreKind = {
      name: "postgres",
      open: async (overrides = {}) => {
        const subject = await postgresSubject(url, label, SEED);
        closers.push(async () => subject.schema.drop());
        return harness(subject.storage, () => subject.store.snapshot(), overrides);
      },
    };
    return [memory, server];
  }
  const pglite = new PgliteSchemas();
  beforeAll(() => pglite.instance.waitReady, 120_000);
  closers.push(() => pglite.close());
  const embedded: StoreKind = {
    name: "postgres SQL on PGlite",
    open: async (overrides = {}) => {
      const subject = await pglite.subject(label, SEED);
      return harness(subject.storage, () => subject.store.snapshot(), overrides);
    },
  };
  return [memory, embedded];
}

/** An imported user's id; `body` is an importHumanUser request, `orgId` its organization header. */
export async function imported(ports: Ports, body: Record<string, unknown>, orgId = "acme"): Promise<string> {
  const result = await importHumanUser(ports, body, { requester: instanceAdmin, orgId });
  if (result.isErr()) throw new Error(`import failed: ${JSON.stringify(result.error)}`);
  return result.value.userId;
}

/** Ann, imported with `hash` as her password hash and a verified email (no initialization mail). */
export function annWithHash(hash: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    userName: "ann",
    profile: { firstName: "Ann", lastName: "Lee", preferredLanguage: "en" },
    email: { email: "ann@acme.test", isEmailVerified: true },
    hashedPassword: { value: hash },
    ...changes,
  };
}

/** A stored event of `userId` in `orgId`, written at `at` (default NOW). */
export function event(userId: string, sequence: number, type: string, payload: JsonObject = {}, orgId = "acme", at = NOW): StoredEvent {
  return { type, aggregateId: userId, orgId, sequence, createdAt: at, payload };
}

/** The `details` of a change written at `at`. */
export function details(sequence: number, resourceOwner = "acme", at = NOW) {
  return { sequence: String(sequence), changeDate: at, resourceOwner };
}
