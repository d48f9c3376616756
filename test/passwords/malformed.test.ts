import { describe, expect, it } from "vitest";
import { parsePasswordHash, verifyPassword, type HashRejectionReason } from "../../src/passwords/index.js";
import { loadVectors } from "./vectors.js";

const GOOD_ARGON2 = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";

/** Each entry: a hash that must be refused at parse time, and why. */
const MALFORMED: readonly (readonly [string, HashRejectionReason])[] = [
  ["", "unknown-format"],
  ["plain text", "unknown-format"],
  ["$2x$12$EXRkfkdmXnagzds2SSitu.MW9.gAVqa9eLS1//RYtYCmB1eLHg.9q", "unknown-format"],
  ["$2$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "unknown-format"],
  ["{FOO}c2VjcmV0c2VjcmV0c2VjcmV0", "unknown-format"],
  // bcrypt: one-digit cost, stray bits in the salt's last character, a character too many.
  ["$2b$5$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "malformed"],
  ["$2b$05$CCCCCCCCCCCCCCCCCCCCCDE5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "malformed"],
  ["$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeWx", "malformed"],
  // argon2: duplicate, unknown, leading zero, missing parameter; bad version; padding; stray bits; short salt/hash.
  ["$argon2id$v=19$m=65536,m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=19$m=65536,t=2,p=1,x=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=19$m=65536,t=02,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=19$m=65536,t=2$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=18$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ=$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHR$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=19$m=65536,t=2,p=1$c29tZXNh$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc", "malformed"],
  ["$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm", "malformed"],
  [`${GOOD_ARGON2}$`, "malformed"],
  // scrypt: missing p, duplicate r, N neither log2 nor a power of two.
  ["$scrypt$ln=10,r=1$wvif8/4fg1Cq9V7L2dv73w$bJcLia1lyfQ1X2x0xflehwVXPzWIUQWWdnlGwfVzBeQ", "malformed"],
  ["$scrypt$ln=10,r=1,r=1,p=1$wvif8/4fg1Cq9V7L2dv73w$bJcLia1lyfQ1X2x0xflehwVXPzWIUQWWdnlGwfVzBeQ", "malformed"],
  ["$scrypt$ln=16385,r=8,p=1$wvif8/4fg1Cq9V7L2dv73w$bJcLia1lyfQ1X2x0xflehwVXPzWIUQWWdnlGwfVzBeQ", "malformed"],
  // PBKDF2: leading zero, empty rounds, '.' and '+' mixed, I= instead of i=, l= not the length.
  ["$pbkdf2-sha256$01212$4vjV83LKPjQzk31VI4E0Vw$hsYF68OiOUPdDZ1Fg.fJPeq1h/gXXY7acBp9/6c.tmQ", "malformed"],
  ["$pbkdf2-sha256$$4vjV83LKPjQzk31VI4E0Vw$hsYF68OiOUPdDZ1Fg.fJPeq1h/gXXY7acBp9/6c.tmQ", "malformed"],
  ["$pbkdf2-sha256$1212$4vjV83LKPjQzk31VI4E0Vw$hsYF68OiOUPdDZ1Fg+fJPeq1h/gXXY7acBp9/6c.tmQ", "malformed"],
  ["$pbkdf2-sha512$I=100000,l=32$bdHBpn7OWOivJMVJypy2UqR0UnaD5prQXRZevj/05YU$+wArTfv1a+bNGO1iZrmEdVjhA+lL11wF4/IxpgYfPwc", "malformed"],
  ["$pbkdf2-sha512$i=100000,l=31$bdHBpn7OWOivJMVJypy2UqR0UnaD5prQXRZevj/05YU$+wArTfv1a+bNGO1iZrmEdVjhA+lL11wF4/IxpgYfPwc", "malformed"],
  ["pbkdf2_sha256$010000$kjVJaVz6qsnJ$5yPHw3rwJGECpUf70daLGhOrQ5+AMxIJdz1c3bqK1Rs=", "malformed"],
  // crypt family: 9-character salt, short checksum, leading zero in rounds, ':' in the salt.
  ["$1$dXc3I7Rw1$ctlgjDdWJLMT.qwHsWhXR1", "malformed"],
  ["$apr1$r31.....$HqJZimcKQFAMYayBlzkrA", "malformed"],
  ["$5$rounds=05000$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5", "malformed"],
  ["$5$salt:string$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5", "malformed"],
  // No salt after rounds=, or rounds= that is no number: not a salt "rounds=...", as libxcrypt reads it.
  ["$5$rounds=1000$japDxBfHcSVGcyn00bW518Ndv09CHo6WdVnm01mosE2", "malformed"],
  ["$5$rounds=abc$japDxBfHcSVGcyn00bW518Ndv09CHo6WdVnm01mosE2", "malformed"],
  ["$6$rounds=$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5", "malformed"],
  // The salt characters libxcrypt refuses too: space, "!", "*", ";" and "\\".
  ["$1$ab cd$R7hOeQ8QQMl9vP8gwLM820", "malformed"],
  ["$1$ab!cd$R7hOeQ8QQMl9vP8gwLM820", "malformed"],
  ["$6$ab*cd$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5", "malformed"],
  ["$5$ab;cd$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5", "malformed"],
  ["$apr1$ab\\cd$R7hOeQ8QQMl9vP8gwLM820", "malformed"],
  ["$5$saltstringsaltstr$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5", "malformed"],
  ["$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L", "malformed"],
  ["$S$ECiTwp95d.CM.PorExdDeWcec0F1SeaEsf3Yon9RUcrhQy4Q7X", "malformed"],
  // LDAP: bad padding, nothing beyond the digest for a salted scheme.
  ["{SHA}at+xg6SiyUovktq1redipHiJpaE", "malformed"],
  ["{SSHA}at+xg6SiyUovktq1redipHiJpaE=", "malformed"],
  // salted digests: pattern without {PASSWORD}, unknown HMAC digest, HMAC hash that is not hex.
  ["$md5$pf=e1NBTFR9$MTIzNA==$ud392Z8rfZ+Ou7ZFXYLKbA==", "malformed"],
  ["$hmac-whirlpool$ZmU4Njk3Zjc0MmQwODA0MDVkMTI3MGU2MTYzMzE2Zjk=$MTIzNDU=", "malformed"],
  ["$hmac-md5$ZmU4Njk3Zjc0MmQwODA0MDVkMTI3MGU2MTYzMzE2Wjk=$MTIzNDU=", "malformed"],
  ["$md5salted-prefix$$0M2MYNUmNumHqqQ+kmuTUQ==", "malformed"],
];

describe("malformed hashes", () => {
  it.each(MALFORMED)("refuses %s", (hash, expected) => {
    const parsed = parsePasswordHash(hash);
    expect(parsed.isErr() && parsed.error.reason).toBe(expected);
  });

  it("accepts the well-formed hash these cases are derived from", () => {
    expect(parsePasswordHash(GOOD_ARGON2).isOk()).toBe(true);
  });

  it("refuses every well-formed vector with a NUL or a lone surrogate inserted anywhere (no store could keep it)", () => {
    const wellFormed = loadVectors().map((vector) => vector.hash).filter((hash) => parsePasswordHash(hash).isOk());
    expect(wellFormed.length).toBeGreaterThan(100);
    const accepted: string[] = [];
    for (const hash of wellFormed) {
      for (let at = 0; at <= hash.length; at++) {
        for (const unit of ["\u0000", "\ud800", "\udc00"]) {
          const spoiled = hash.slice(0, at) + unit + hash.slice(at);
          const parsed = parsePasswordHash(spoiled);
          if (parsed.isOk() || (parsed.error.reason !== "malformed" && parsed.error.reason !== "unknown-format")) accepted.push(JSON.stringify(spoiled));
        }
      }
    }
    expect(accepted).toEqual([]);
  });
});

/**
 * What must stay out of an error: the hash, every 8-character stretch of each of its fields (salt,
 * digest, key, pattern), and the password. The scheme identifier in front (argon2id,
 * pbkdf2_sha256, ...) is not secret and may be named.
 */
function secretsOf(hash: string, password: string): string[] {
  const fields = hash.split(/[$,={}]/).filter((part) => part.length > 0).slice(1);
  const windows = fields.flatMap((field) => Array.from({ length: Math.max(0, field.length - 7) }, (_, at) => field.slice(at, at + 8)));
  return [hash, password, ...windows];
}

describe("error bodies", () => {
  const password = "never-echoed-password";
  const refused = [...MALFORMED.map(([hash]) => hash), ...loadVectors().filter((v) => !v.valid && v.reason !== "wrong-password").map((v) => v.hash)];

  it("check at least one stretch of every long field", () => {
    expect(secretsOf("$scrypt$ln=1$abcdefghi$", "pw")).toEqual(["$scrypt$ln=1$abcdefghi$", "pw", "abcdefgh", "bcdefghi"]);
  });

  it.each(refused.filter((hash) => hash.length > 0))("never echo the hash or the password: %s", async (hash) => {
    const result = await verifyPassword(hash, password);
    if (result.isOk()) return; // undetectable at parse time; covered by the fixtures test
    const body = JSON.stringify(result.error);
    for (const secret of secretsOf(hash, password)) expect(body).not.toContain(secret);
    expect(result.error).toEqual({
      code: 3,
      message: result.error.message,
      details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: expect.stringMatching(/^PASSWORD-/), message: result.error.message }],
    });
  });
});
