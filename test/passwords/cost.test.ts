import { afterEach, describe, expect, it } from "vitest";
import {
  defaultHashBounds,
  parsePasswordHash,
  resolveHashBounds,
  useNativeImplementations,
  verifyParsedPassword,
  verifyPassword,
  type ParsedPasswordHash,
} from "../../src/passwords/index.js";
import { bcryptCostMs, estimateCostMs, type CostContext } from "../../src/passwords/cost.js";
import { ALL_NATIVE, hashingPaths, type HashingPaths } from "../../src/passwords/primitives/paths.js";

afterEach(() => {
  useNativeImplementations(true);
});

const SALT = "c2FsdHNhbHRzYWx0c2FsdA";
const DIGEST = "CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
const BCRYPT_TAIL = "$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u";
const SHA512_TAIL = "$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1";

/** The two hostile hashes of the report: each parameter in bounds, the whole far over. */
const HOSTILE_ARGON2 = `$argon2id$v=19$m=262144,t=10,p=16,data=eA$${SALT}$${DIGEST}`;
const HOSTILE_SCRYPT = `$scrypt$ln=1,r=1,p=2097152$${SALT}$${DIGEST}`;

const PURE_JS: HashingPaths = { argon2: false, scrypt: false, pbkdf2: new Set(), digestLoops: new Set() };
const NATIVE: CostContext = { paths: ALL_NATIVE, passwordBytes: 16 };
const JS: CostContext = { paths: PURE_JS, passwordBytes: 16 };

const budget = defaultHashBounds.maxEstimatedCostMs;
const budgetText = `estimated cost at most ${Number(budget.toPrecision(4))} ms`;

/** No bounds at all: minimums 0, maximums infinite, so that the estimates can be probed anywhere. */
const UNBOUNDED = Object.fromEntries(Object.keys(defaultHashBounds).map((key) => [key, /min/i.test(key) ? 0 : Infinity]));

function parsed(hash: string): ParsedPasswordHash {
  return parsePasswordHash(hash, UNBOUNDED)._unsafeUnwrap();
}

function refusal(id: string, message: string) {
  return { code: 3, message, details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id, message }] };
}

describe("the budget", () => {
  it("is by default the estimate for bcrypt at cost 15, which stays accepted", () => {
    expect(budget).toBe(bcryptCostMs(15));
    expect(parsePasswordHash(`$2b$15${BCRYPT_TAIL}`).isOk()).toBe(true);
  });

  it("refuses argon2 whose data= forces the pure-JS path, naming the fields", async () => {
    const message = `argon2 hash: m and t is out of range (${budgetText})`;
    expect(parsePasswordHash(HOSTILE_ARGON2)._unsafeUnwrapErr()).toEqual({ reason: "cost-out-of-range", message });
    expect((await verifyPassword(HOSTILE_ARGON2, "pw"))._unsafeUnwrapErr()).toEqual(refusal("PASSWORD-c0st", message));
  });

  it("accepts the same argon2 without data=, which runs natively", () => {
    expect(parsePasswordHash(HOSTILE_ARGON2.replace(",data=eA", "")).isOk()).toBe(true);
  });

  it("refuses scrypt whose p makes the work large though N*r is small", async () => {
    const message = `scrypt hash: N, r and p is out of range (${budgetText})`;
    expect(parsePasswordHash(HOSTILE_SCRYPT)._unsafeUnwrapErr()).toEqual({ reason: "cost-out-of-range", message });
    expect((await verifyPassword(HOSTILE_SCRYPT, "pw"))._unsafeUnwrapErr()).toEqual(refusal("PASSWORD-c0st", message));
  });

  it("refuses PBKDF2 whose long derived key multiplies its rounds", () => {
    // SHA-1's 20-byte blocks: a 128-byte key is 7 blocks of 2,000,000 iterations each.
    const long = `$pbkdf2$2000000$${SALT}$${"A".repeat(171)}`;
    const short = `$pbkdf2$2000000$${SALT}$${"A".repeat(27)}`;
    expect(parsePasswordHash(long)._unsafeUnwrapErr()).toEqual({ reason: "cost-out-of-range", message: `pbkdf2 hash: rounds and hash length is out of range (${budgetText})` });
    expect(parsePasswordHash(short).isOk()).toBe(true);
  });

  it("is configurable with the other bounds: a lower one refuses what the default accepts", async () => {
    const hash = `$2b$12${BCRYPT_TAIL}`;
    expect(parsePasswordHash(hash).isOk()).toBe(true);
    const message = "bcrypt hash: cost is out of range (estimated cost at most 100 ms)";
    expect(parsePasswordHash(hash, { maxEstimatedCostMs: 100 })._unsafeUnwrapErr()).toEqual({ reason: "cost-out-of-range", message });
    expect((await verifyPassword(hash, "a", { bounds: { maxEstimatedCostMs: 100 } }))._unsafeUnwrapErr()).toEqual(refusal("PASSWORD-c0st", message));
    expect(resolveHashBounds({ maxEstimatedCostMs: 100 })).toEqual({ ...defaultHashBounds, maxEstimatedCostMs: 100 });
  });

  it("counts a verification at the speed of this runtime: pure JS where it has no native code", async () => {
    // A shared fixture: valid, and about 0.2 s natively, but some seconds in pure JS.
    const hash = "$argon2id$v=19$m=262144,t=2,p=1$c29tZXNhbHQ$eP4eyR+zqlZX1y5xCS7lfQLvJ+TAV/+c1TyAfuTIwtk";
    expect(parsePasswordHash(hash).isOk()).toBe(true);
    useNativeImplementations(false);
    const message = `argon2 hash: m and t is out of range (${budgetText})`;
    expect((await verifyPassword(hash, "password"))._unsafeUnwrapErr()).toEqual(refusal("PASSWORD-c0st", message));
  });

  it("counts the password's length where every round hashes it", async () => {
    const hash = `$6$rounds=1000000${SHA512_TAIL}`;
    expect(parsePasswordHash(hash).isOk()).toBe(true);
    const message = `the password is too long for this hash's cost (${budgetText})`;
    expect((await verifyPassword(hash, "p".repeat(1024)))._unsafeUnwrapErr()).toEqual(refusal("PASSWORD-l0ng", message));
    expect(estimateCostMs(parsed(hash), { paths: ALL_NATIVE, passwordBytes: 16 })).toBeLessThan(budget);
  });

  it("refuses a hand-made parsed hash whose cost is not a number, as over the budget", async () => {
    const made = { ...parsed(`$2b$10${BCRYPT_TAIL}`), cost: Number.NaN } as ParsedPasswordHash;
    const message = `bcrypt hash: cost is out of range (${budgetText})`;
    expect((await verifyParsedPassword(made, "a"))._unsafeUnwrapErr()).toEqual(refusal("PASSWORD-c0st", message));
  });
});

describe("the paths", () => {
  it("are native on Node, pure JS when native code is off", async () => {
    expect(await hashingPaths()).toEqual(ALL_NATIVE);
    useNativeImplementations(false);
    expect(await hashingPaths()).toEqual(PURE_JS);
  });
});

/** A family's hash with one cost parameter at each of `values`, in increasing order. */
type Series = readonly [string, (value: number) => string, readonly number[]];

const SERIES: readonly Series[] = [
  ["bcrypt cost", (v) => `$2b$${String(v).padStart(2, "0")}${BCRYPT_TAIL}`, [4, 10, 15, 20]],
  ["argon2 m", (v) => `$argon2id$v=19$m=${v},t=2,p=1$${SALT}$${DIGEST}`, [64, 4096, 65536, 262144]],
  ["argon2 t", (v) => `$argon2id$v=19$m=65536,t=${v},p=1$${SALT}$${DIGEST}`, [1, 2, 10, 100]],
  ["scrypt N", (v) => `$scrypt$ln=${v},r=8,p=1$${SALT}$${DIGEST}`, [1, 10, 17, 20]],
  ["scrypt r", (v) => `$scrypt$ln=14,r=${v},p=1$${SALT}$${DIGEST}`, [1, 8, 64, 1024]],
  ["scrypt p", (v) => `$scrypt$ln=14,r=8,p=${v}$${SALT}$${DIGEST}`, [1, 2, 32, 1000]],
  ["firebase scrypt N", (v) => `$firescrypt$ln=${v},r=8,p=1$${SALT}$${DIGEST}$Bw==$${DIGEST}`, [1, 14, 20]],
  ["pbkdf2 rounds", (v) => `$pbkdf2-sha256$${v}$${SALT}$${DIGEST}`, [1, 1000, 600000, 2000000]],
  ["pbkdf2 hash length", (v) => `$pbkdf2-sha256$1000$${SALT}$${"A".repeat(Math.ceil((v * 4) / 3))}`, [16, 33, 65, 128]],
  ["sha-crypt rounds", (v) => `$6$rounds=${v}${SHA512_TAIL}`, [1000, 5000, 1000000]],
  ["phpass rounds", (v) => `$P$${"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v]}12345678si5M0DDyPpmRCmcltU/YW/`, [7, 13, 20, 30]],
  ["drupal7 rounds", (v) => `$S$${"./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v]}CiTwp95d.CM.PorExdDeWcec0F1SeaEsf3Yon9RUcrhQy4Q7XX1`, [7, 15, 20]],
];

describe("each family's estimate", () => {
  it.each(SERIES)("grows with %s, natively and in pure JS", (_, hashWith, values) => {
    for (const context of [NATIVE, JS]) {
      const estimates = values.map((value) => estimateCostMs(parsed(hashWith(value)), context));
      const sorted = [...estimates].sort((a, b) => a - b);
      expect(estimates).toEqual(sorted);
      expect(new Set(estimates).size).toBe(estimates.length);
    }
  });

  it.each(SERIES.filter(([name]) => !name.startsWith("bcrypt")))("is higher in pure JS than natively: %s", (_, hashWith, values) => {
    const hash = parsed(hashWith(values[1] ?? 0));
    expect(estimateCostMs(hash, JS)).toBeGreaterThan(estimateCostMs(hash, NATIVE));
  });

  const PASSWORD_SENSITIVE = [`$6$rounds=5000${SHA512_TAIL}`, "$1$saltsalt$BsXyQbZiQujHkdhwPwdol.", "$P$512345678si5M0DDyPpmRCmcltU/YW/", `{SSHA}${btoa("x".repeat(24))}`];

  it.each(PASSWORD_SENSITIVE)("grows with the password's length where the password is hashed: %s", (hash) => {
    const estimates = [0, 16, 64, 1024].map((passwordBytes) => estimateCostMs(parsed(hash), { paths: ALL_NATIVE, passwordBytes }));
    expect(estimates).toEqual([...estimates].sort((a, b) => a - b));
    expect(estimates[3]).toBeGreaterThan(estimates[0] ?? Infinity);
  });

  it("counts argon2 with data= at pure-JS speed even where the binding is installed", () => {
    const withData = parsed(`$argon2id$v=19$m=65536,t=2,p=1,data=eA$${SALT}$${DIGEST}`);
    const without = parsed(`$argon2id$v=19$m=65536,t=2,p=1$${SALT}$${DIGEST}`);
    expect(estimateCostMs(withData, NATIVE)).toBe(estimateCostMs(without, JS));
  });
});
