import { beforeEach, describe, expect, it, vi } from "vitest";
import { verifyPassword } from "../../src/passwords/index.js";
import { argon2 } from "../../src/passwords/primitives/argon2.js";
import { bcryptDigest } from "../../src/passwords/primitives/bcrypt.js";
import { digestStreams } from "../../src/passwords/primitives/fast-digest.js";
import { pbkdf2 } from "../../src/passwords/primitives/pbkdf2.js";
import { scrypt } from "../../src/passwords/primitives/scrypt.js";
import { loadVectors } from "./vectors.js";

// Every hashing primitive, wrapped in a spy that still computes: what ran is counted.
vi.mock("../../src/passwords/primitives/argon2.js", async (original) => {
  const module = await original<typeof import("../../src/passwords/primitives/argon2.js")>();
  return { ...module, argon2: vi.fn(module.argon2) };
});
vi.mock("../../src/passwords/primitives/scrypt.js", async (original) => {
  const module = await original<typeof import("../../src/passwords/primitives/scrypt.js")>();
  return { ...module, scrypt: vi.fn(module.scrypt) };
});
vi.mock("../../src/passwords/primitives/pbkdf2.js", async (original) => {
  const module = await original<typeof import("../../src/passwords/primitives/pbkdf2.js")>();
  return { ...module, pbkdf2: vi.fn(module.pbkdf2) };
});
vi.mock("../../src/passwords/primitives/bcrypt.js", async (original) => {
  const module = await original<typeof import("../../src/passwords/primitives/bcrypt.js")>();
  return { ...module, bcryptDigest: vi.fn(module.bcryptDigest) };
});
vi.mock("../../src/passwords/primitives/fast-digest.js", async (original) => {
  const module = await original<typeof import("../../src/passwords/primitives/fast-digest.js")>();
  return { ...module, digestStreams: vi.fn(module.digestStreams) };
});

const PRIMITIVES = [argon2, scrypt, pbkdf2, bcryptDigest, digestStreams].map((primitive) => vi.mocked(primitive));

function hashingCalls(): number {
  return PRIMITIVES.reduce((sum, primitive) => sum + primitive.mock.calls.length, 0);
}

beforeEach(() => {
  for (const primitive of PRIMITIVES) primitive.mockClear();
});

const SALT = "c2FsdHNhbHRzYWx0c2FsdA";
const DIGEST = "CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";

/** Each parameter within its bound, the whole over the budget. */
const OVER_BUDGET = [
  `$argon2id$v=19$m=262144,t=10,p=16,data=eA$${SALT}$${DIGEST}`,
  `$scrypt$ln=1,r=1,p=2097152$${SALT}$${DIGEST}`,
  `$scrypt$ln=2,r=1024,p=1024$${SALT}$${DIGEST}`,
  `$pbkdf2$2000000$${SALT}$${"A".repeat(171)}`,
  `$pbkdf2-sha224$i=2000000,l=32$${SALT}$${DIGEST}`,
];

const DOS_VECTORS = loadVectors()
  .filter((vector) => vector.dos === true)
  .map((vector) => vector.hash);

describe("a hash over the budget", () => {
  it("is refused before any hashing primitive runs", async () => {
    for (const hash of [...OVER_BUDGET, ...DOS_VECTORS]) {
      const result = await verifyPassword(hash, "password");
      expect(result.isErr() && result.error.code).toBe(3);
    }
    expect(hashingCalls()).toBe(0);
  });

  it("a cheap one does reach the primitive (the spies see it)", async () => {
    const result = await verifyPassword(`$scrypt$ln=4,r=1,p=1$${SALT}$${DIGEST}`, "password");
    expect(result._unsafeUnwrap()).toEqual({ valid: false, needsRehash: true });
    expect(vi.mocked(scrypt)).toHaveBeenCalledTimes(1);
    expect(hashingCalls()).toBe(1);
  });
});
