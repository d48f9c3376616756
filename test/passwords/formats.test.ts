import { argon2id } from "@noble/hashes/argon2.js";
import { ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { parsePasswordHash, parseExplicitPasswordHash, verifyPassword, verifyPasswordWithFormat } from "../../src/passwords/index.js";

const b64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes)).replace(/=+$/, "");
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const salt = text("somesaltsomesalt");

describe("argon2 PHC details", () => {
  it("reads an absent v= as version 0x10", async () => {
    const digest = argon2id(text("pw"), salt, { t: 1, m: 64, p: 1, version: 0x10 });
    const withoutV = `$argon2id$m=64,t=1,p=1$${b64(salt)}$${b64(digest)}`;
    const explicitV = `$argon2id$v=16$m=64,t=1,p=1$${b64(salt)}$${b64(digest)}`;
    const asV19 = `$argon2id$v=19$m=64,t=1,p=1$${b64(salt)}$${b64(digest)}`;
    expect((await verifyPassword(withoutV, "pw"))._unsafeUnwrap().valid).toBe(true);
    expect((await verifyPassword(explicitV, "pw"))._unsafeUnwrap().valid).toBe(true);
    expect((await verifyPassword(asV19, "pw"))._unsafeUnwrap().valid).toBe(false);
  });

  it("uses data= as associated data", async () => {
    const data = text("tenant-42");
    const digest = argon2id(text("pw"), salt, { t: 1, m: 64, p: 1, personalization: data });
    const hash = `$argon2id$v=19$m=64,t=1,p=1,data=${b64(data)}$${b64(salt)}$${b64(digest)}`;
    const otherData = `$argon2id$v=19$m=64,t=1,p=1,data=${b64(text("tenant-43"))}$${b64(salt)}$${b64(digest)}`;
    expect((await verifyPassword(hash, "pw"))._unsafeUnwrap().valid).toBe(true);
    expect((await verifyPassword(otherData, "pw"))._unsafeUnwrap().valid).toBe(false);
  });
});

describe("scrypt's ln", () => {
  it("is log2(N) below 1024 and N itself for a power of two from 1024", () => {
    const tail = "$wlhLyXmP8b53bm1NKYVQqg$mTpvG8lzuuDk+DWz8HZIB6Vum6erDuUm0As5yU+VxWA";
    const small = parsePasswordHash(`$scrypt$ln=14,r=8,p=1${tail}`)._unsafeUnwrap();
    const literal = parsePasswordHash(`$scrypt$ln=16384,r=8,p=1${tail}`)._unsafeUnwrap();
    expect(small.family === "scrypt" && small.n).toBe(16384);
    expect(literal.family === "scrypt" && literal.n).toBe(16384);
    expect(parsePasswordHash(`$scrypt$ln=1000,r=8,p=1${tail}`)._unsafeUnwrapErr().reason).toBe("cost-out-of-range");
  });
});

describe("explicit formats", () => {
  it("takes hex in one case only", () => {
    expect(parseExplicitPasswordHash({ kind: "digest", digest: "md5", hash: "5F4DCC3B5AA765D61D8327DEB882CF99" }).isOk()).toBe(true);
    expect(parseExplicitPasswordHash({ kind: "digest", digest: "md5", hash: "5f4dcc3b5aa765d61d8327deb882CF99" }).isErr()).toBe(true);
  });

  it("checks the salt position", async () => {
    const prefix = { kind: "digest", digest: "md5", hash: "67A1E09BB1F83F5007DC119C14D663AA", salt: "salt" } as const;
    expect((await verifyPasswordWithFormat(prefix, "password"))._unsafeUnwrap().valid).toBe(true);
    expect((await verifyPasswordWithFormat({ ...prefix, saltPosition: "suffix" }, "password"))._unsafeUnwrap().valid).toBe(false);
  });

  it("bounds an explicit scrypt like any other", () => {
    const huge = { kind: "scrypt", hash: "00".repeat(32), salt: "s", n: 2 ** 20, r: 8 } as const;
    expect(parseExplicitPasswordHash(huge)._unsafeUnwrapErr().reason).toBe("cost-out-of-range");
  });
});

describe("spellings beyond the spec's table", () => {
  it("reads Django's plain bcrypt$ prefix", async () => {
    const hash = "bcrypt$$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
    expect((await verifyPassword(hash, "U*U"))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
    expect((await verifyPassword(hash, "U*V"))._unsafeUnwrap()).toEqual({ valid: false, needsRehash: true });
  });

  it("reads LDAP's {CRYPT} around the crypt(3) formats it holds, in any case", async () => {
    expect((await verifyPassword("{CRYPT}$1$dXc3I7Rw$ctlgjDdWJLMT.qwHsWhXR1", "U*U*U*U*"))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
    const sha512 = "{crypt}$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1";
    expect((await verifyPassword(sha512, "Hello world!"))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
  });

  it("refuses under {CRYPT} what crypt(3) does not write", () => {
    expect(parsePasswordHash("{CRYPT}$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")._unsafeUnwrapErr()).toEqual({
      reason: "unknown-format",
      message: "the password hash is not in a supported format",
    });
    expect(parsePasswordHash("{CRYPT}aa1234567890A")._unsafeUnwrapErr().reason).toBe("unknown-format");
  });
});

describe("crypt salts beyond ./0-9A-Za-z", () => {
  // Made by libxcrypt's crypt(3) (Python's crypt module) with the password "pässwörd": crypt
  // makes no such salts itself, but checks hashes with them, which another system may have made.
  const LIBXCRYPT: readonly string[] = [
    '$1$ab"cd$R7hOeQ8QQMl9vP8gwLM820',
    "$1$~{|}^_`@$qGjh4pmGaSK65loaXR4lf/",
    "$5$rounds=1000$ab~cd'()+,$D3kMu09xsFh.TnsDO3Hj1MJdIAXNoeX.UAqq00xX.y4",
    "$6$<=>?[]#%&-$O1W6lpxFCu0yRdyiZ6OCHLjgjghXKE4J8ybi5zagXzW9bbq7r/Hq5IDPmcAAhFuJWog2kInShy9Ljl9Go0Xc..",
    "$5$x,y$7KSeS1hoxWeyGpbSdRArt5zjllJE2yt45pwAkm1pGp/",
  ];

  it.each(LIBXCRYPT)("checks %s as libxcrypt does", async (hash) => {
    const right = await verifyPassword(hash, "pässwörd");
    const wrong = await verifyPassword(hash, "passwörd");
    expect([right.map((verdict) => verdict.valid), wrong.map((verdict) => verdict.valid)]).toEqual([ok(true), ok(false)]);
  });
});
