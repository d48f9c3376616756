import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseExplicitPasswordHash, parsePasswordHash, verifyPassword } from "../../src/passwords/index.js";

const PASSWORD = "secret";
const GARBAGE = Buffer.from("garbage");
const SALT = Buffer.from("saltsalt");

function digestOf(name: string, ...parts: Buffer[]): Buffer {
  return createHash(name).update(Buffer.concat(parts)).digest();
}

const ldap = (scheme: string, bytes: Buffer): string => `{${scheme}}${bytes.toString("base64")}`;

/** A code-3 body, as verifyPassword answers a hash refused at parse time. */
function refusal(id: string, message: string) {
  return { code: 3, message, details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id, message }] };
}

describe("LDAP digests of a fixed length", () => {
  const unsalted = [
    ["SHA", "sha1"],
    ["MD5", "md5"],
  ] as const;

  it.each(unsalted)("{%s} verifies exactly one digest", async (scheme, name) => {
    expect((await verifyPassword(ldap(scheme, digestOf(name, Buffer.from(PASSWORD))), PASSWORD))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
  });

  it.each(unsalted)("{%s} refuses bytes after the digest, at import and at verification", async (scheme, name) => {
    const hash = ldap(scheme, Buffer.concat([digestOf(name, Buffer.from(PASSWORD)), GARBAGE]));
    const message = `ldap hash: value is not exactly one ${name} digest`;
    expect(parsePasswordHash(hash)._unsafeUnwrapErr()).toEqual({ reason: "malformed", message });
    expect((await verifyPassword(hash, PASSWORD))._unsafeUnwrapErr()).toEqual(refusal("PASSWORD-m4lf", message));
  });

  it.each(unsalted)("{%s} refuses a digest one byte short", (scheme, name) => {
    const hash = ldap(scheme, digestOf(name, Buffer.from(PASSWORD)).subarray(1));
    expect(parsePasswordHash(hash)._unsafeUnwrapErr()).toEqual({ reason: "malformed", message: `ldap hash: value is not exactly one ${name} digest` });
  });

  const salted = [
    ["SSHA", "sha1"],
    ["SSHA256", "sha256"],
    ["SSHA512", "sha512"],
    ["SMD5", "md5"],
  ] as const;

  it.each(salted)("{%s} verifies a digest followed by a salt", async (scheme, name) => {
    const hash = ldap(scheme, Buffer.concat([digestOf(name, Buffer.from(PASSWORD), SALT), SALT]));
    expect((await verifyPassword(hash, PASSWORD))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
  });

  it.each(salted)("{%s} refuses a digest with no salt after it", (scheme, name) => {
    const hash = ldap(scheme, digestOf(name, Buffer.from(PASSWORD)));
    expect(parsePasswordHash(hash)._unsafeUnwrapErr()).toEqual({ reason: "malformed", message: "ldap hash: value is too short for a digest and a salt" });
  });
});

/** Every other format whose digest has a fixed length refuses a byte more or less. */
describe("other fixed-length digests", () => {
  const md5 = digestOf("md5", Buffer.from(PASSWORD));
  const sha256 = digestOf("sha256", Buffer.from(PASSWORD));
  const hmacHex = (bytes: Buffer): string => Buffer.from(bytes.toString("hex")).toString("base64");
  const hmac = createHmac("sha256", "key").update(PASSWORD).digest();
  const cases: readonly (readonly [string, (digest: Buffer) => string, Buffer])[] = [
    ["Kratos $sha256$", (d) => `$sha256$${d.toString("base64")}`, sha256],
    ["Kratos $md5$ with pf=", (d) => `$md5$pf=${Buffer.from("{SALT}{PASSWORD}").toString("base64")}$${SALT.toString("base64")}$${d.toString("base64")}`, digestOf("md5", SALT, Buffer.from(PASSWORD))],
    ["$md5salted-prefix$", (d) => `$md5salted-prefix$saltsalt$${d.toString("base64")}`, digestOf("md5", SALT, Buffer.from(PASSWORD))],
    ["Django md5$", (d) => `md5$saltsalt$${d.toString("hex")}`, digestOf("md5", SALT, Buffer.from(PASSWORD))],
    ["$hmac-sha256$", (d) => `$hmac-sha256$${hmacHex(d)}$${Buffer.from("key").toString("base64")}`, hmac],
    ["{CRYPT}$1$", (d) => `{CRYPT}$1$saltsalt$${d.length === 16 ? "BsXyQbZiQujHkdhwPwdol." : "BsXyQbZiQujHkdhwPwdol.AA"}`, md5],
  ];

  it.each(cases)("%s: the exact digest parses, one byte more or less does not", (_, spell, digest) => {
    expect(parsePasswordHash(spell(digest)).isOk()).toBe(true);
    expect(parsePasswordHash(spell(Buffer.concat([digest, GARBAGE.subarray(0, 1)]))).isErr()).toBe(true);
    expect(parsePasswordHash(spell(digest.subarray(1))).isErr()).toBe(true);
  });

  it("an explicit digest refuses bytes after it", () => {
    const hex = Buffer.concat([md5, GARBAGE]).toString("hex");
    expect(parseExplicitPasswordHash({ kind: "digest", digest: "md5", hash: hex })._unsafeUnwrapErr()).toEqual({ reason: "malformed", message: "explicit hash: hash is not a md5 digest" });
  });
});
