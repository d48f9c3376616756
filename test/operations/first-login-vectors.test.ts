// Every family of the shared hash vectors that importHumanUser accepts (self-describing strings of at
// most 200 characters with a UTF-8 password) logs in through checkPassword with its password; the
// first login upgrades the hash to the configured hasher, and the user still logs in with it.
import { describe, expect, it } from "vitest";
import { checkPassword } from "../../src/index.js";
import { parsePasswordHash } from "../../src/passwords/index.js";
import { loadVectors, type HashVector } from "../passwords/vectors.js";
import { cheapHash, details, event, imported, storeKinds } from "./support/first-login.js";
import { ANY_IMPORT_FINGERPRINT } from "./support/import-fixtures.js";

const kinds = await storeKinds("vectors");

/**
 * The first vector of each family that import accepts, in file order. Its password is not empty:
 * checkPassword refuses an empty one (as the reference server's session check does, min length 1).
 */
function onePerFamily(): readonly HashVector[] {
  const chosen = new Map<string, HashVector>();
  for (const vector of loadVectors()) {
    if (!vector.valid || vector.password === null || vector.password === "" || vector.hash.length > 200 || chosen.has(vector.format)) continue;
    if (parsePasswordHash(vector.hash).isOk()) chosen.set(vector.format, vector);
  }
  return [...chosen.values()];
}

const families = onePerFamily();

describe("the families of the shared vectors", () => {
  it("are the 35 that import accepts", () => {
    expect(families.map((vector) => vector.format)).toEqual([
      "apr1", "argon2d", "argon2i", "argon2id", "bcrypt", "django-bcrypt-sha256", "django-pbkdf2-sha1", "django-pbkdf2-sha256",
      "django-salted-md5", "django-salted-sha1", "drupal7", "kratos-hmac", "kratos-md5", "kratos-sha", "ldap-md5", "ldap-sha1", "ldap-smd5",
      "ldap-ssha", "ldap-ssha256", "ldap-ssha512", "md5crypt", "md5crypt-kratos", "md5salted", "pbkdf2-phc", "pbkdf2-phc-kratos-sha3",
      "pbkdf2-sha1", "pbkdf2-sha256", "pbkdf2-sha512", "phpass", "scrypt", "scrypt-7", "scrypt-kratos", "sha256crypt", "sha512crypt", "shacrypt-kratos",
    ]);
  });
});

describe.each(kinds)("first login of each imported family on $name", (kind) => {
  it.each(families.map((vector, index) => [vector.format, vector, index] as const))("%s logs in, is upgraded, and logs in with the new hash", async (_format, vector, index) => {
    const { ports, eventsOf } = await kind.open();
    const password = vector.password ?? "";
    const userName = `user-${index}`;
    const userId = await imported(ports, {
      userName,
      profile: { firstName: "Imported", lastName: "User" },
      email: { email: `${userName}@acme.test`, isEmailVerified: true },
      hashedPassword: { value: vector.hash },
    });

    expect((await checkPassword(ports, { loginName: userName, password }))._unsafeUnwrap()).toEqual({ userId, details: details(4) });
    expect((await checkPassword(ports, { userId, password }))._unsafeUnwrap()).toEqual({ userId, details: details(5) });
    expect(await eventsOf(userId)).toEqual([
      event(userId, 1, "user.human.added", {
        userName,
        firstName: "Imported",
        lastName: "User",
        displayName: "Imported User",
        preferredLanguage: "und",
        gender: "GENDER_UNSPECIFIED",
        email: `${userName}@acme.test`,
        encodedHash: vector.hash,
        changeRequired: false,
        importFingerprint: ANY_IMPORT_FINGERPRINT,
      }),
      event(userId, 2, "user.human.email.verified"),
      event(userId, 3, "user.human.password.check.succeeded"),
      event(userId, 4, "user.human.password.hash.updated", { encodedHash: cheapHash(password) }),
      event(userId, 5, "user.human.password.check.succeeded"),
    ]);
  });
});
