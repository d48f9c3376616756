import { describe, expect, it } from "vitest";
import { defaultHashBounds, parsePasswordHash, resolveHashBounds, verifyParsedPassword, type HashBounds } from "../../src/passwords/index.js";

// Syntactically valid strings whose cost fields the tests vary; no test here hashes anything.
const BCRYPT_TAIL = "$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u";
const ARGON2_TAIL = "$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
const SCRYPT_TAIL = "$wlhLyXmP8b53bm1NKYVQqg$mTpvG8lzuuDk+DWz8HZIB6Vum6erDuUm0As5yU+VxWA";
const PBKDF2_TAIL = "$4vjV83LKPjQzk31VI4E0Vw$hsYF68OiOUPdDZ1Fg.fJPeq1h/gXXY7acBp9/6c.tmQ";
const SHA512_TAIL = "$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1";

function accepted(hash: string, bounds?: HashBounds): boolean {
  return parsePasswordHash(hash, bounds).isOk();
}

function reason(hash: string, bounds?: HashBounds): string | undefined {
  const parsed = parsePasswordHash(hash, bounds);
  return parsed.isErr() ? parsed.error.reason : undefined;
}

/** A PBKDF2 hash whose derived key has `bytes` bytes (adapted base64 of zeros). */
function pbkdf2WithKeyBytes(bytes: number): string {
  const chars = Math.ceil((bytes * 8) / 6);
  return `$pbkdf2-sha256$1000$4vjV83LKPjQzk31VI4E0Vw$${"A".repeat(chars)}`;
}

describe("cost bounds at their edges", () => {
  it("bcrypt cost 4..15", () => {
    expect(reason(`$2b$03${BCRYPT_TAIL}`)).toBe("cost-out-of-range");
    expect(accepted(`$2b$04${BCRYPT_TAIL}`)).toBe(true);
    expect(accepted(`$2b$15${BCRYPT_TAIL}`)).toBe(true);
    expect(reason(`$2b$16${BCRYPT_TAIL}`)).toBe("cost-out-of-range");
  });

  it("argon2 t 1..10", () => {
    expect(reason(`$argon2id$v=19$m=65536,t=0,p=1${ARGON2_TAIL}`)).toBe("cost-out-of-range");
    expect(accepted(`$argon2id$v=19$m=65536,t=1,p=1${ARGON2_TAIL}`)).toBe(true);
    expect(accepted(`$argon2id$v=19$m=65536,t=10,p=1${ARGON2_TAIL}`)).toBe(true);
    expect(reason(`$argon2id$v=19$m=65536,t=11,p=1${ARGON2_TAIL}`)).toBe("cost-out-of-range");
  });

  it("argon2 m <= 256 MiB and m >= 8p", () => {
    expect(accepted(`$argon2id$v=19$m=262144,t=2,p=1${ARGON2_TAIL}`)).toBe(true);
    expect(reason(`$argon2id$v=19$m=262145,t=2,p=1${ARGON2_TAIL}`)).toBe("cost-out-of-range");
    expect(accepted(`$argon2id$v=19$m=32,t=2,p=4${ARGON2_TAIL}`)).toBe(true);
    expect(reason(`$argon2id$v=19$m=31,t=2,p=4${ARGON2_TAIL}`)).toBe("cost-out-of-range");
  });

  it("argon2 p 1..16", () => {
    expect(accepted(`$argon2id$v=19$m=65536,t=2,p=16${ARGON2_TAIL}`)).toBe(true);
    expect(reason(`$argon2id$v=19$m=65536,t=2,p=17${ARGON2_TAIL}`)).toBe("cost-out-of-range");
    expect(reason(`$argon2id$v=19$m=65536,t=2,p=0${ARGON2_TAIL}`)).toBe("cost-out-of-range");
  });

  it("scrypt 128*N*r <= 256 MiB", () => {
    expect(accepted(`$scrypt$ln=18,r=8,p=1${SCRYPT_TAIL}`)).toBe(true);
    expect(reason(`$scrypt$ln=19,r=8,p=1${SCRYPT_TAIL}`)).toBe("cost-out-of-range");
    expect(accepted(`$scrypt$ln=262144,r=8,p=1${SCRYPT_TAIL}`)).toBe(true);
    expect(reason(`$scrypt$ln=524288,r=8,p=1${SCRYPT_TAIL}`)).toBe("cost-out-of-range");
  });

  it("scrypt N below 2^(16*r), as RFC 7914 defines it: a larger N is no scrypt any implementation computes", () => {
    expect(accepted(`$scrypt$ln=15,r=1,p=1${SCRYPT_TAIL}`)).toBe(true);
    expect(parsePasswordHash(`$scrypt$ln=16,r=1,p=1${SCRYPT_TAIL}`)._unsafeUnwrapErr()).toEqual({
      reason: "cost-out-of-range",
      message: "scrypt hash: N and r is out of range (N below 2^(16*r))",
    });
    expect(reason(`$scrypt$ln=65536,r=1,p=1${SCRYPT_TAIL}`)).toBe("cost-out-of-range");
    expect(reason(`$scrypt$ln=21,r=1,p=1${SCRYPT_TAIL}`)).toBe("cost-out-of-range");
    // $7$ with N = 2^16 ("E") and r = 1, and Firebase's scrypt with ln 16 and one round.
    expect(reason(`$7$E/..../....saltsalt$${".".repeat(43)}`)).toBe("cost-out-of-range");
    expect(accepted(`$7$D/..../....saltsalt$${".".repeat(43)}`)).toBe(true);
    const firebase = (ln: number) => `$firescrypt$ln=${ln},r=1,p=1$c2FsdHNhbHRzYWx0c2FsdA==$${btoa("k".repeat(32))}$Bw==$${btoa("s".repeat(32))}`;
    expect(accepted(firebase(15))).toBe(true);
    expect(reason(firebase(16))).toBe("cost-out-of-range");
    const wide = resolveHashBounds({ scryptMaxMemoryBytes: 2 ** 40, scryptMaxWork: 2 ** 40, maxEstimatedCostMs: 1e12 });
    expect(accepted(`$scrypt$ln=31,r=2,p=1${SCRYPT_TAIL}`, wide)).toBe(true);
    expect(reason(`$scrypt$ln=32,r=2,p=1${SCRYPT_TAIL}`, wide)).toBe("cost-out-of-range");
  });

  it("scrypt N*r*p <= 2^22", () => {
    expect(accepted(`$scrypt$ln=14,r=8,p=32${SCRYPT_TAIL}`)).toBe(true);
    expect(reason(`$scrypt$ln=14,r=8,p=33${SCRYPT_TAIL}`)).toBe("cost-out-of-range");
  });

  it("PBKDF2 rounds 1..2,000,000", () => {
    expect(reason(`$pbkdf2-sha256$0${PBKDF2_TAIL}`)).toBe("cost-out-of-range");
    expect(accepted(`$pbkdf2-sha256$1${PBKDF2_TAIL}`)).toBe(true);
    expect(accepted(`$pbkdf2-sha256$2000000${PBKDF2_TAIL}`)).toBe(true);
    expect(reason(`$pbkdf2-sha256$2000001${PBKDF2_TAIL}`)).toBe("cost-out-of-range");
  });

  it("PBKDF2 derived key 16..128 bytes", () => {
    expect(reason(pbkdf2WithKeyBytes(15))).toBe("malformed");
    expect(accepted(pbkdf2WithKeyBytes(16))).toBe(true);
    expect(accepted(pbkdf2WithKeyBytes(128))).toBe(true);
    expect(reason(pbkdf2WithKeyBytes(129))).toBe("cost-out-of-range");
  });

  it("sha-crypt rounds 1000..1,000,000", () => {
    expect(reason(`$6$rounds=999${SHA512_TAIL}`)).toBe("malformed");
    expect(accepted(`$6$rounds=1000${SHA512_TAIL}`)).toBe(true);
    expect(accepted(`$6$rounds=1000000${SHA512_TAIL}`)).toBe(true);
    expect(reason(`$6$rounds=1000001${SHA512_TAIL}`)).toBe("cost-out-of-range");
  });

  it("phpass and Drupal log2 rounds 7..20", () => {
    // The rounds character is an index in ./0-9A-Za-z: '4'=6, '5'=7, 'I'=20, 'J'=21.
    expect(reason("$P$412345678si5M0DDyPpmRCmcltU/YW/")).toBe("cost-out-of-range");
    expect(accepted("$P$512345678si5M0DDyPpmRCmcltU/YW/")).toBe(true);
    expect(accepted("$H$I12345678si5M0DDyPpmRCmcltU/YW/")).toBe(true);
    expect(reason("$P$J12345678si5M0DDyPpmRCmcltU/YW/")).toBe("cost-out-of-range");
    expect(accepted("$S$ICiTwp95d.CM.PorExdDeWcec0F1SeaEsf3Yon9RUcrhQy4Q7XX1")).toBe(true);
    expect(reason("$S$JCiTwp95d.CM.PorExdDeWcec0F1SeaEsf3Yon9RUcrhQy4Q7XX1")).toBe("cost-out-of-range");
  });

  it("bounds are configurable", () => {
    const strict: HashBounds = { ...defaultHashBounds, bcryptMaxCost: 12, argon2MaxMemoryKiB: 65536 };
    expect(accepted(`$2b$12${BCRYPT_TAIL}`, strict)).toBe(true);
    expect(reason(`$2b$13${BCRYPT_TAIL}`, strict)).toBe("cost-out-of-range");
    expect(reason(`$argon2id$v=19$m=65537,t=2,p=1${ARGON2_TAIL}`, strict)).toBe("cost-out-of-range");
  });

  it("takes partial bounds, the rest from the defaults", () => {
    const partial: Partial<HashBounds> = { bcryptMaxCost: 12 };
    expect(parsePasswordHash(`$2b$13${BCRYPT_TAIL}`, partial)._unsafeUnwrapErr()).toEqual({
      reason: "cost-out-of-range",
      message: "bcrypt hash: cost is out of range (4..12)",
    });
    expect(parsePasswordHash(`$argon2id$v=19$m=262145,t=2,p=1${ARGON2_TAIL}`, partial)._unsafeUnwrapErr()).toEqual({
      reason: "cost-out-of-range",
      message: "argon2 hash: m is out of range (8*p..262144 KiB)",
    });
    expect(resolveHashBounds(partial)).toEqual({ ...defaultHashBounds, bcryptMaxCost: 12 });
  });

  it("ignores a member that is not a number, 0 or more, and a bounds object that throws when read: the defaults stand", () => {
    const mistyped = { bcryptMaxCost: -1, pbkdf2MaxIterations: -5, maxPasswordBytes: -1, maxEstimatedCostMs: Number.NaN, bcryptMinCost: "5" } as unknown as Partial<HashBounds>;
    expect(resolveHashBounds(mistyped)).toEqual(defaultHashBounds);
    expect(resolveHashBounds({ bcryptMaxCost: 12, maxPasswordBytes: -1 })).toEqual({ ...defaultHashBounds, bcryptMaxCost: 12 });
    const hostile = new Proxy({}, { get: () => { throw new Error("read"); } }) as Partial<HashBounds>;
    expect(resolveHashBounds(hostile)).toEqual(defaultHashBounds);
    expect(parsePasswordHash(`$2b$10${BCRYPT_TAIL}`, hostile).isOk()).toBe(true);
    expect(parsePasswordHash(`$2b$10${BCRYPT_TAIL}`, mistyped).isOk()).toBe(true);
  });

  it("applies the derived-key bounds to argon2 and scrypt outputs too", () => {
    const bounds: Partial<HashBounds> = { minDerivedKeyBytes: 33 };
    expect(parsePasswordHash(`$argon2id$v=19$m=65536,t=2,p=1${ARGON2_TAIL}`, bounds)._unsafeUnwrapErr()).toEqual({
      reason: "cost-out-of-range",
      message: "argon2 hash: hash length is out of range (33..128 bytes)",
    });
    expect(parsePasswordHash(`$scrypt$ln=14,r=8,p=1${SCRYPT_TAIL}`, bounds)._unsafeUnwrapErr()).toEqual({
      reason: "cost-out-of-range",
      message: "scrypt hash: hash length is out of range (33..128 bytes)",
    });
  });

  it("checks the bounds again before verifying a hash parsed earlier", async () => {
    const parsed = parsePasswordHash(`$2b$15${BCRYPT_TAIL}`)._unsafeUnwrap();
    const strict: HashBounds = { ...defaultHashBounds, bcryptMaxCost: 10 };
    const started = performance.now();
    const result = await verifyParsedPassword(parsed, "a", { bounds: strict });
    expect(result.isErr() && result.error.code).toBe(3);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
