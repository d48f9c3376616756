// Attacks on both operations: thousands of generated hostile bodies (wrong types, deep nesting,
// prototype keys, huge and odd strings) must each answer a well-formed Result, never throw, never
// write anything when refused, and never echo a secret back.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, importHumanUser, type ErrorBody } from "../../src/index.js";
import { member, minimalCreate, testPorts } from "./support/ports.js";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const SECRET = "Sup3r$ecret-Passw0rd";
const strings = ["", " ", "\u0000", "a".repeat(201), "😀".repeat(201), "{{.Code}}", "<script>", "__proto__", "constructor", "+41791234567", "ann@acme.test", SECRET, "$2b$04$" + "a".repeat(53), "\ud800", "x".repeat(10_000)];

function hostileValue(random: ReturnType<typeof generator>, depth: number): unknown {
  const kind = random.pick(["string", "number", "bool", "null", "array", "object", "proto"]);
  switch (kind) {
    case "string":
      return random.pick(strings);
    case "number":
      return random.pick([0, -1, 1.5, 2 ** 53, Number.MAX_VALUE, 3]);
    case "bool":
      return random.next() < 0.5;
    case "null":
      return null;
    case "array":
      return depth > 3 ? [] : Array.from({ length: Math.floor(random.next() * 3) }, () => hostileValue(random, depth + 1));
    case "proto":
      return JSON.parse('{"__proto__": {"isVerified": true, "instanceAdmin": true}, "constructor": {"prototype": {"x": 1}}}');
    default:
      return depth > 3 ? {} : hostileObject(random, depth + 1);
  }
}

const NAMES = ["userId", "username", "userName", "organization", "orgId", "orgDomain", "profile", "givenName", "firstName", "familyName", "lastName", "email", "isVerified", "isEmailVerified", "returnCode", "sendCode", "urlTemplate", "phone", "metadata", "key", "value", "password", "hashedPassword", "hash", "idpLinks", "idps", "totpSecret", "requestPasswordlessRegistration", "__proto__"];

function hostileObject(random: ReturnType<typeof generator>, depth: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const count = 1 + Math.floor(random.next() * 5);
  for (let i = 0; i < count; i++) Object.defineProperty(object, random.pick(NAMES), { value: hostileValue(random, depth), enumerable: true, configurable: true, writable: true });
  return object;
}

/** A near-valid body with one member replaced by something hostile. */
function mutatedBody(random: ReturnType<typeof generator>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...minimalCreate(),
    userName: "ann",
    profile: { givenName: "Ann", familyName: "Lee", firstName: "Ann", lastName: "Lee" },
    email: { email: "ann@acme.test" },
    password: random.next() < 0.5 ? { password: SECRET } : SECRET,
  };
  const target = random.pick(Object.keys(body));
  body[target] = hostileValue(random, 0);
  return body;
}

const CODES = new Set([3, 5, 6, 7, 9]);

function expectWellFormed(error: ErrorBody): void {
  expect(CODES.has(error.code), JSON.stringify(error)).toBe(true);
  expect(typeof error.message).toBe("string");
  expect(error.details[0]).toMatchObject({ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail" });
  expect(JSON.stringify(error)).not.toContain(SECRET);
}

describe("hostile bodies", () => {
  it("2,000 generated bodies: every answer is a well-formed Result, refusals write nothing", async () => {
    const random = generator(20261122);
    for (let round = 0; round < 2000; round++) {
      const ports = testPorts({ passwordHasher: { name: "test", hash: () => Promise.resolve("$test$"), isCurrent: () => true } });
      const body = random.next() < 0.5 ? hostileObject(random, 0) : mutatedBody(random);
      const operation = random.next() < 0.5 ? createHumanUser : importHumanUser;
      const result = await operation(ports, body, { requester: member });
      if (result.isErr()) {
        expectWellFormed(result.error);
        expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
      } else {
        expect(JSON.stringify(ports.storage.snapshot())).not.toContain(SECRET);
      }
    }
  });

  it("never lets a __proto__ key reach Object.prototype", async () => {
    const ports = testPorts();
    const body = JSON.parse('{"__proto__": {"polluted": 1}, "profile": {"__proto__": {"polluted": 2}}, "email": {"__proto__": {"polluted": 3}}}');
    await createHumanUser(ports, body, { requester: member });
    await importHumanUser(ports, body, { requester: member });
    expect((Object.prototype as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("answers a 5 MB string in a field with 3, naming the field", async () => {
    const ports = testPorts();
    const result = await createHumanUser(ports, { ...minimalCreate(), username: "u".repeat(5_000_000) }, { requester: member });
    expect(result._unsafeUnwrapErr().details[1]).toEqual({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [{ field: "username", description: "must be at most 200 characters long" }],
    });
  });

  it("answers a body nested ten thousand levels deep without overflowing the stack", async () => {
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { profile: deep };
    const result = await createHumanUser(testPorts(), { ...minimalCreate(), metadata: deep }, { requester: member });
    expect(result).toEqual(
      err({
        code: 3,
        message: "the request body is nested too deeply",
        details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-d33p", message: "the request body is nested too deeply" }],
      }),
    );
  });
});
