import { afterEach, describe, expect, it } from "vitest";
import { ok } from "neverthrow";
import {
  argon2idHasher,
  bcryptHasher,
  defaultPasswordHasher,
  hashPassword,
  parsePasswordHash,
  pbkdf2Sha256Hasher,
  scryptHasher,
  useNativeImplementations,
  verifyPassword,
  type PasswordHasher,
} from "../../src/passwords/index.js";

// Cheap parameters: these tests check behaviour, not strength.
const CHEAP: readonly (readonly [string, PasswordHasher, PasswordHasher])[] = [
  ["argon2id", argon2idHasher({ memoryKiB: 64, time: 1 }), argon2idHasher({ memoryKiB: 128, time: 1 })],
  ["scrypt", scryptHasher({ log2N: 10 }), scryptHasher({ log2N: 11 })],
  ["bcrypt", bcryptHasher({ cost: 4 }), bcryptHasher({ cost: 5 })],
  ["pbkdf2-sha256", pbkdf2Sha256Hasher({ iterations: 1000 }), pbkdf2Sha256Hasher({ iterations: 1001 })],
];

afterEach(() => {
  useNativeImplementations(true);
});

describe.each(CHEAP)("%s hasher", (name, hasher, other) => {
  it("round-trips: hash, parse, isCurrent, verify", async () => {
    const encoded = await hasher.hash("correct horse ☃");
    const parsed = parsePasswordHash(encoded);
    expect(parsed.isOk()).toBe(true);
    expect(parsed.isOk() && hasher.isCurrent(parsed.value)).toBe(true);
    expect(parsed.isOk() && other.isCurrent(parsed.value)).toBe(false);
    const good = await verifyPassword(encoded, "correct horse ☃", { hasher });
    expect(good._unsafeUnwrap()).toEqual({ valid: true, needsRehash: false });
    const wrong = await verifyPassword(encoded, "correct horse ☂", { hasher });
    expect(wrong._unsafeUnwrap()).toEqual({ valid: false, needsRehash: false });
    const otherParams = await verifyPassword(encoded, "correct horse ☃", { hasher: other });
    expect(otherParams._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
    expect(hasher.name).toBe(name);
  });

  it("uses a fresh salt each time", async () => {
    expect(await hasher.hash("same")).not.toBe(await hasher.hash("same"));
  });

  it("agrees with the pure-JS fallback", async () => {
    const encoded = await hasher.hash("fallback");
    useNativeImplementations(false);
    const result = await verifyPassword(encoded, "fallback", { hasher });
    expect(result._unsafeUnwrap().valid).toBe(true);
  });
});

describe("configuration", () => {
  it("refuses hasher parameters outside the bounds", () => {
    expect(() => bcryptHasher({ cost: 3 })).toThrow(RangeError);
    expect(() => argon2idHasher({ memoryKiB: 7, parallelism: 1 })).toThrow(RangeError);
    expect(() => scryptHasher({ log2N: 20, r: 8 })).toThrow(RangeError);
    expect(() => pbkdf2Sha256Hasher({ iterations: 2_000_001 })).toThrow(RangeError);
  });

  it("refuses an scrypt N of 2^(16*r) or more, which RFC 7914 leaves undefined and node:crypto cannot compute", () => {
    expect(() => scryptHasher({ log2N: 16, r: 1 })).toThrow(new RangeError("scrypt parameters exceed the default bounds: scrypt hash: N and r is out of range (N below 2^(16*r))"));
    expect(() => scryptHasher({ log2N: 15, r: 1 })).not.toThrow();
  });

  it("refuses scrypt parameters each within its bound but over the default cost budget together", () => {
    // N*r*p = 2^22 and 128*N*r = 512 KiB, both in bounds; the 2^20 lanes of PBKDF2 are what cost.
    expect(() => scryptHasher({ log2N: 2, r: 1024, p: 1024 })).toThrow(new RangeError("scrypt parameters exceed the default cost budget"));
    expect(() => scryptHasher({ log2N: 2, r: 1024, p: 256 })).not.toThrow();
  });

  it("defaults to OWASP's settings", async () => {
    const owasp = [
      parsePasswordHash("$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")._unsafeUnwrap(),
      parsePasswordHash("$scrypt$ln=17,r=8,p=1$wlhLyXmP8b53bm1NKYVQqg$mTpvG8lzuuDk+DWz8HZIB6Vum6erDuUm0As5yU+VxWA")._unsafeUnwrap(),
      parsePasswordHash("$2b$10$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u")._unsafeUnwrap(),
      parsePasswordHash("$pbkdf2-sha256$600000$4vjV83LKPjQzk31VI4E0Vw$hsYF68OiOUPdDZ1Fg.fJPeq1h/gXXY7acBp9/6c.tmQ")._unsafeUnwrap(),
    ];
    const hashers = [argon2idHasher(), scryptHasher(), bcryptHasher(), pbkdf2Sha256Hasher()];
    hashers.forEach((hasher, i) => {
      owasp.forEach((parsed, j) => expect(hasher.isCurrent(parsed)).toBe(i === j));
    });
  });
});

describe("needsRehash and the salt", () => {
  it.each([
    ["argon2id", (saltBytes: number) => argon2idHasher({ memoryKiB: 64, time: 1, saltBytes })],
    ["scrypt", (saltBytes: number) => scryptHasher({ log2N: 4, saltBytes })],
    ["PBKDF2-SHA256", (saltBytes: number) => pbkdf2Sha256Hasher({ iterations: 1000, saltBytes })],
  ] as const)("%s: a hash with a salt shorter than the hasher's now draws is not current; as long or longer is", async (_name, hasherWith) => {
    const short = parsePasswordHash(await hasherWith(16).hash("Password1!"))._unsafeUnwrap();
    const long = parsePasswordHash(await hasherWith(32).hash("Password1!"))._unsafeUnwrap();
    expect([hasherWith(32).isCurrent(short), hasherWith(32).isCurrent(long), hasherWith(16).isCurrent(short), hasherWith(16).isCurrent(long)]).toEqual([false, true, true, true]);
  });
});

describe("hashPassword and the default hasher", () => {
  it("hashes with the default hasher, and the result needs no rehash", async () => {
    const encoded = (await hashPassword("Password1!"))._unsafeUnwrap();
    expect(defaultPasswordHasher.isCurrent(parsePasswordHash(encoded)._unsafeUnwrap())).toBe(true);
    expect((await verifyPassword(encoded, "Password1!"))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: false });
  });

  it("flags legacy hashes for rehash", async () => {
    const result = await verifyPassword("$1$dXc3I7Rw$ctlgjDdWJLMT.qwHsWhXR1", "U*U*U*U*");
    expect(result._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
  });

  it("answers code 13 when the hasher fails, without its message", async () => {
    const failing: PasswordHasher = { name: "failing", hash: () => Promise.reject(new Error("secret detail")), isCurrent: () => false };
    const result = await hashPassword("pw", failing);
    expect(result.isErr() && result.error.code).toBe(13);
    expect(JSON.stringify(result.isErr() ? result.error : {})).not.toContain("secret detail");
  });
});

describe("password length", () => {
  const hash = "$1$dXc3I7Rw$ctlgjDdWJLMT.qwHsWhXR1";

  it("takes 1024 bytes and refuses 1025, counted in UTF-8", async () => {
    expect((await verifyPassword(hash, "a".repeat(1024))).isOk()).toBe(true);
    expect((await verifyPassword(hash, "é".repeat(512))).isOk()).toBe(true);
    const over = await verifyPassword(hash, `${"é".repeat(512)}a`);
    expect(over.isErr() && over.error.code).toBe(3);
    expect(over.isErr() && over.error.message).toContain("1024");
  });

  it("refuses to hash over 1024 bytes", async () => {
    expect((await hashPassword("a".repeat(1024), bcryptHasher({ cost: 4 }))).isOk()).toBe(true);
    const over = await hashPassword("a".repeat(1025), bcryptHasher({ cost: 4 }));
    expect(over.isErr() && over.error.code).toBe(3);
  });

  it("refuses a long password before any hashing, even against a costly hash", async () => {
    const started = performance.now();
    const result = await verifyPassword("$2b$15$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u", "a".repeat(1025));
    expect(result.isErr()).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("bcrypt's 72 bytes", () => {
  const hasher = bcryptHasher({ cost: 4 });

  it("only the first 72 UTF-8 bytes count", async () => {
    const base = "x".repeat(72);
    const encoded = await hasher.hash(`${base}tail`);
    expect((await verifyPassword(encoded, `${base}other tail`, { hasher }))._unsafeUnwrap().valid).toBe(true);
    expect((await verifyPassword(encoded, "x".repeat(71), { hasher }))._unsafeUnwrap().valid).toBe(false);
  });

  it("cuts inside a multi-byte character at byte 72", async () => {
    // 'é' (C3 A9) and 'è' (C3 A8) share their first byte, the 72nd here.
    const encoded = await hasher.hash(`${"x".repeat(71)}é`);
    expect((await verifyPassword(encoded, `${"x".repeat(71)}è`, { hasher }))._unsafeUnwrap().valid).toBe(true);
    expect((await verifyPassword(encoded, `${"x".repeat(71)}a`, { hasher }))._unsafeUnwrap().valid).toBe(false);
  });

  it("asks for no rehash of a password longer than bcrypt reads: a new hash of it would refuse the others bcrypt accepted", async () => {
    const encoded = await hasher.hash(`${"x".repeat(72)}tail`);
    const other = pbkdf2Sha256Hasher({ iterations: 1000 });
    expect(await verifyPassword(encoded, `${"x".repeat(72)}typo`, { hasher: other })).toEqual(ok({ valid: true, needsRehash: false }));
    expect(await verifyPassword(encoded, `${"x".repeat(72)}tail`, { hasher: other })).toEqual(ok({ valid: true, needsRehash: false }));
    // Under 72 bytes bcrypt read every byte and the password ended there: the upgrade is safe, and asked for.
    const short = await hasher.hash("x".repeat(71));
    expect(await verifyPassword(short, "x".repeat(71), { hasher: other })).toEqual(ok({ valid: true, needsRehash: true }));
    // Exactly 72: the password chosen may have gone on past what bcrypt read, so a login of 72 proves no more.
    expect(await verifyPassword(encoded, "x".repeat(72), { hasher: other })).toEqual(ok({ valid: true, needsRehash: false }));
    // 71 bytes and a two-byte character: 73 bytes, cut inside the character.
    const cut = await hasher.hash(`${"x".repeat(71)}é`);
    expect(await verifyPassword(cut, `${"x".repeat(71)}é`, { hasher: other })).toEqual(ok({ valid: true, needsRehash: false }));
  });

  it("Django's bcrypt_sha256 keeps every byte significant", async () => {
    const hash = "bcrypt_sha256$$2a$06$Tg/oYyZTyAf.Nb3qSgN61Ocy0BEz1RK6xslSNi8PlaLX2pe7x/KQG";
    const prefix = "abc123".repeat(12);
    expect((await verifyPassword(hash, `${prefix}qwr`))._unsafeUnwrap().valid).toBe(true);
    expect((await verifyPassword(hash, `${prefix}xyz`))._unsafeUnwrap().valid).toBe(false);
  });
});
