import { describe, expect, it } from "vitest";
import { errorBody } from "../../src/core/errors/index.js";
import { hashPassword, parsePasswordHash, pbkdf2Sha256Hasher, verifyParsedPassword, verifyPassword, type ParsedPasswordHash } from "../../src/passwords/index.js";

// Cheap to verify (MD5-crypt, 1000 rounds); not of the default hasher, so it needs a rehash.
const MD5_CRYPT = "$1$dXc3I7Rw$ctlgjDdWJLMT.qwHsWhXR1";
const MD5_CRYPT_PASSWORD = "U*U*U*U*";

/** Values a JavaScript caller (or a JSON body) can hand over where text was expected. */
const JUNK: readonly unknown[] = [undefined, null, 0, 42, true, {}, [], ["a"], () => "x", Symbol("s"), new Date(0), new ArrayBuffer(4)];

const HASH_NOT_TEXT = errorBody(3, "PASSWORD-m4lf", "the password hash is not a string");
const PASSWORD_NOT_TEXT = errorBody(3, "PASSWORD-1npt", "the password is neither a string nor bytes");

describe("verifyPassword never throws or rejects", () => {
  it.each(JUNK.map((value) => [String(typeof value), value]))("refuses a hash of type %s", async (_, hash) => {
    const result = await verifyPassword(hash as string, MD5_CRYPT_PASSWORD);
    expect(result._unsafeUnwrapErr()).toEqual(HASH_NOT_TEXT);
  });

  it.each(JUNK.map((value) => [String(typeof value), value]))("refuses a password of type %s", async (_, password) => {
    const result = await verifyPassword(MD5_CRYPT, password as string);
    expect(result._unsafeUnwrapErr()).toEqual(PASSWORD_NOT_TEXT);
  });

  it("refuses a password with an unpaired surrogate, which UTF-8 would write as U+FFFD and so match that password", async () => {
    const encoded = await pbkdf2Sha256Hasher({ iterations: 1000 }).hash("Pass-\ufffd-word");
    expect((await verifyPassword(encoded, "Pass-\ufffd-word"))._unsafeUnwrap().valid).toBe(true);
    for (const lone of ["\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800"]) {
      expect((await verifyPassword(encoded, `Pass-${lone}-word`))._unsafeUnwrapErr()).toEqual(
        errorBody(3, "PASSWORD-1npt", "the password holds an unpaired surrogate (U+D800 to U+DFFF), which no text has"),
      );
    }
    // A pair is one character, and fine.
    expect((await verifyPassword(encoded, "Pass-\ud83d\ude00-word"))._unsafeUnwrap().valid).toBe(false);
  });

  it.each([...JUNK, "options"].map((value) => [String(typeof value), value]))("ignores options of type %s", async (_, options) => {
    const result = await verifyPassword(MD5_CRYPT, MD5_CRYPT_PASSWORD, options as object);
    expect(result._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
  });

  it("ignores bounds and hasher members of the wrong shape, keeping the defaults", async () => {
    const options = { bounds: { bcryptMaxCost: "99", argon2MaxTime: Number.NaN }, hasher: { isCurrent: 3 } } as unknown as object;
    expect((await verifyPassword(MD5_CRYPT, MD5_CRYPT_PASSWORD, options))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
    const costly = await verifyPassword("$2b$16$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u", "a", options);
    expect(costly._unsafeUnwrapErr()).toEqual(errorBody(3, "PASSWORD-c0st", "bcrypt hash: cost is out of range (4..15)"));
  });

  it("refuses a hash over 4096 characters before reading it", () => {
    const huge = `$pbkdf2-sha256$1000$${"A".repeat(5000)}$${"A".repeat(43)}`;
    expect(parsePasswordHash(huge)._unsafeUnwrapErr()).toEqual({ reason: "malformed", message: "the password hash is longer than 4096 characters" });
  });

  it.each(JUNK.map((value) => [String(typeof value), value]))("verifyParsedPassword refuses a parsed hash of type %s", async (_, parsed) => {
    const result = await verifyParsedPassword(parsed as ParsedPasswordHash, "pw");
    expect(result._unsafeUnwrapErr()).toEqual(errorBody(3, "PASSWORD-m4lf", "the parsed password hash is not one parsePasswordHash returned"));
  });

  it("verifyParsedPassword refuses an object of an unknown family", async () => {
    const result = await verifyParsedPassword({ family: "rot13" } as unknown as ParsedPasswordHash, "pw");
    expect(result._unsafeUnwrapErr()).toEqual(errorBody(3, "PASSWORD-m4lf", "the parsed password hash is not one parsePasswordHash returned"));
  });
});

describe("hashPassword never throws or rejects", () => {
  it.each(JUNK.map((value) => [String(typeof value), value]))("refuses a password of type %s", async (_, password) => {
    expect((await hashPassword(password as string))._unsafeUnwrapErr()).toEqual(errorBody(3, "PASSWORD-1npt", "the password is not a string"));
  });

  it.each([null, {}, { hash: 1 }])("answers 13 for a hasher that cannot hash: %s", async (hasher) => {
    const result = await hashPassword("pw", hasher as never);
    expect(result._unsafeUnwrapErr()).toEqual(errorBody(13, "PASSWORD-h4sh", "password hashing failed"));
  });
});
