// One store and the deterministic ports around it, for the functions that act on users after
// creation: counting ids, a clock the test moves, codes "AAAAAA", "BBBBBB", ... in the order they
// are drawn, test keys, the instant fake hasher, a recording mailer and SMS sender.
import { afterEach, beforeEach } from "vitest";
import {
  createHumanUser,
  importHumanUser,
  memoryMailer,
  type Clock,
  type MemoryMailer,
  type Organization,
  type Ports,
  type Requester,
} from "../../../src/index.js";
import { fakeHasher, recordingSms, steppingRandom, type RecordingSms } from "../support/import-fixtures.js";
import { countingIds, testKeys } from "../support/ports.js";
import type { OpenStore, StoreCase } from "../support/stores.js";

export const START = "2026-03-04T05:06:07Z";

export const ACME: Organization = { id: "acme", domains: [{ domain: "acme.test", verified: true }, { domain: "pending.test", verified: false }] };
export const GLOBEX: Organization = { id: "globex", domains: [{ domain: "globex.test", verified: true }] };
/** Usernames unique within it; login names on each verified domain, the second one preferred. */
export const INITECH: Organization = {
  id: "initech",
  domains: [
    { domain: "initech.test", verified: true },
    { domain: "Initech.Example", verified: true, primary: true },
    { domain: "later.test", verified: false },
  ],
  policy: { userLoginMustBeDomain: true, passwordComplexity: { minLength: 10, hasLowercase: true, hasUppercase: false, hasNumber: true, hasSymbol: false } },
};

export const member: Requester = { userId: "admin-of-acme", orgId: "acme" };
export const globexMember: Requester = { userId: "admin-of-globex", orgId: "globex" };
export const initechMember: Requester = { userId: "admin-of-initech", orgId: "initech" };
export const instanceAdmin: Requester = { userId: "root", orgId: "globex", instanceAdmin: true };

export const FIRST_ID = "100000000000000001";
export const SECOND_ID = "100000000000000002";
export const THIRD_ID = "100000000000000003";

/** A clock the test moves forward. */
export interface MovingClock extends Clock {
  advance(seconds: number): void;
  iso(): string;
}

export function movingClock(start: string): MovingClock {
  let now = Date.parse(start);
  const iso = () => new Date(now).toISOString().replace(".000Z", "Z");
  return { now: () => new Date(now), advance: (seconds) => void (now += seconds * 1000), iso };
}

export interface Harness {
  readonly ports: Ports & { readonly mailer: MemoryMailer };
  readonly clock: MovingClock;
  readonly sms: RecordingSms;
  close(): Promise<void>;
}

/**
 * A fresh harness on `storeCase` for each test of the enclosing `describe` (opened before it,
 * closed after it): the answer reads the current test's.
 */
export function harnessForEachTest(storeCase: StoreCase): Harness {
  let current: Harness | undefined;
  beforeEach(async () => {
    current = await openHarness(storeCase);
  }, 120_000);
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const now = (): Harness => {
    if (current === undefined) throw new Error("the harness is open only while a test runs");
    return current;
  };
  return {
    get ports() {
      return now().ports;
    },
    get clock() {
      return now().clock;
    },
    get sms() {
      return now().sms;
    },
    close: () => now().close(),
  };
}

export async function openHarness(storeCase: StoreCase, overrides: Partial<Omit<Ports, "mailer">> = {}): Promise<Harness> {
  const store: OpenStore = await storeCase.open([ACME, GLOBEX, INITECH]);
  const clock = movingClock(START);
  const sms = recordingSms();
  const ports = {
    storage: store.storage,
    mailer: memoryMailer(),
    clock,
    ids: countingIds(),
    random: steppingRandom(),
    keys: testKeys,
    passwordHasher: fakeHasher,
    sms,
    ...overrides,
  };
  return { ports, clock, sms, close: () => store.close() };
}

/** Ann in acme (createHumanUser): email and phone codes sent (or returned when asked). */
export async function createAnn(harness: Harness, overrides: Record<string, unknown> = {}, requester: Requester = member): Promise<string> {
  const request = {
    username: "ann",
    profile: { givenName: "Ann", familyName: "Lee" },
    email: { email: "ann@acme.test" },
    phone: { phone: "+41791234567" },
    ...overrides,
  };
  const created = await createHumanUser(harness.ports, request, { requester });
  if (created.isErr()) throw new Error(`could not create Ann: ${created.error.message}`);
  return created.value.userId;
}

/** Bob imported into acme (importHumanUser) without a password: an initialization mail. */
export async function importBob(harness: Harness, overrides: Record<string, unknown> = {}, requester: Requester = member): Promise<string> {
  const request = { userName: "bob", profile: { firstName: "Bob", lastName: "Stone" }, email: { email: "bob@acme.test" }, ...overrides };
  const imported = await importHumanUser(harness.ports, request, { requester });
  if (imported.isErr()) throw new Error(`could not import Bob: ${imported.error.message}`);
  return imported.value.userId;
}

/** The details of a change written at the clock's time. */
export function details(sequence: number, changeDate = START, resourceOwner = "acme") {
  return { details: { sequence: String(sequence), changeDate, resourceOwner } };
}

/** What the mailer was handed, without the rendered texts. */
export function mails(harness: Harness): { kind: string; to: string; code: string; link: string; userId: string }[] {
  return harness.ports.mailer.sent.map(({ kind, to, code, link, userId }) => ({ kind, to, code, link, userId }));
}

/** The types of a user's events, in order. */
export async function eventTypes(harness: Harness, userId: string): Promise<string[]> {
  return (await harness.ports.storage.userLog.loadEvents(userId)).map((event) => event.type);
}
