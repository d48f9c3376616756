// Deterministic ports for operation tests: counting ids, a fixed clock, known keys and a random
// source whose bytes are known, so that codes and bodies can be asserted whole.
import {
  fixedClock,
  memoryMailer,
  memoryStore,
  type IdGenerator,
  type Keys,
  type MemoryMailer,
  type MemoryStore,
  type MemoryStoreSeed,
  type Ports,
  type RandomSource,
  type Requester,
} from "../../../src/index.js";

export const NOW = "2026-03-04T05:06:07Z";

/** "100000000000000001", "100000000000000002", ... */
export function countingIds(): IdGenerator {
  let next = 100_000_000_000_000_000n;
  return { next: () => String(++next) };
}

/** Every byte 0: every code is the alphabet's first character repeated ("AAAAAA"). */
export const zeroRandom: RandomSource = { fill: (bytes) => bytes.fill(0) };

export const testKeys: Keys = {
  keyId: "test-key",
  codeHmacKey: new Uint8Array(32).fill(7),
  encryptionKey: new Uint8Array(32).fill(9),
};

export const ACME = { id: "acme", domains: [{ domain: "acme.test", verified: true }, { domain: "pending.test", verified: false }] };
export const GLOBEX = { id: "globex", domains: [{ domain: "globex.test", verified: true }] };

export const member: Requester = { userId: "admin-of-acme", orgId: "acme" };
export const instanceAdmin: Requester = { userId: "root", orgId: "globex", instanceAdmin: true };

export interface TestPorts extends Ports {
  readonly storage: MemoryStore;
  readonly mailer: MemoryMailer;
}

export function testPorts(overrides: Partial<Ports> = {}, seed: MemoryStoreSeed = {}): TestPorts {
  return {
    storage: memoryStore({
      organizations: [ACME, GLOBEX],
      identityProviders: [{ id: "idp-acme", orgId: "acme" }, { id: "idp-global" }, { id: "idp-globex", orgId: "globex" }],
      ...seed,
    }),
    mailer: memoryMailer(),
    clock: fixedClock(NOW),
    ids: countingIds(),
    random: zeroRandom,
    keys: testKeys,
    ...overrides,
  } as TestPorts;
}

/** The smallest valid createHumanUser request. */
export function minimalCreate(): Record<string, unknown> {
  return { profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test" } };
}

export const FIRST_ID = "100000000000000001";
export const SECOND_ID = "100000000000000002";

const ERROR_DETAIL = "type.googleapis.com/zitadel.v1.ErrorDetail";
const BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest";

/** The whole code-3 body the operations answer for these violations (written out independently). */
export function invalidBody(violations: readonly { field: string; description: string }[]) {
  const first = violations[0];
  const others = violations.length - 1;
  const head = first === undefined ? "" : `${first.field}: ${first.description}`;
  const message = others === 0 ? head : `${head} (and ${others} more violation${others === 1 ? "" : "s"})`;
  return {
    code: 3,
    message,
    details: [
      { "@type": ERROR_DETAIL, id: "USER-1nv4", message },
      { "@type": BAD_REQUEST, fieldViolations: violations },
    ],
  };
}

/** A whole error body without field violations. */
export function plainError(code: number, id: string, message: string) {
  return { code, message, details: [{ "@type": ERROR_DETAIL, id, message }] };
}

/** Ports whose id generator gives `ids` in turn (any value, to try unusable ones), and what their logger was told. */
export function withIds(...ids: unknown[]) {
  const logged: { message: string; cause: unknown }[] = [];
  const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>, message: string) => void logged.push({ message, cause: fields["err"] }) };
  let drawn = 0;
  const ports = testPorts({ ids: { next: () => ids[drawn++] as string }, logger });
  return { ports, logged };
}
