// Firebase scrypt in SuperTokens' spelling, `$f_scrypt$<hash>$<salt>$m=..$r=..$s=..`: the signer
// key is the project's, given to the verifier, so a Firebase user's hash fits the 200 characters
// the operations take. The vector is firebase/scrypt's README sample.
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { checkPassword, importHumanUser } from "../../src/index.js";
import { parsePasswordHash, pbkdf2Sha256Hasher, verifyPassword } from "../../src/passwords/index.js";
import { importPorts, minimalImport } from "../operations/support/import-fixtures.js";
import { FIRST_ID, invalidBody, member } from "../operations/support/ports.js";

const SIGNER_KEY = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==";
const HASH = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==";
const SALT = "42xEC+ixf3L2lw==";
const SUPERTOKENS = `$f_scrypt$${HASH}$${SALT}$m=14$r=8$s=Bw==`;
const KRATOS = `$firescrypt$ln=14,r=8,p=1$${SALT}$${HASH}$Bw==$${SIGNER_KEY}`;
const PASSWORD = "user1password";
const NO_KEY = "firebase scrypt hash: signer key is the Firebase project's, and none is configured (firebaseSignerKey)";

describe("verifyPassword: $f_scrypt$ with the project's signer key", () => {
  it("verifies as the same hash in Kratos' layout does, and fits in 200 characters", async () => {
    expect(SUPERTOKENS.length).toBeLessThanOrEqual(200);
    expect(await verifyPassword(SUPERTOKENS, PASSWORD, { firebaseSignerKey: SIGNER_KEY })).toEqual(ok({ valid: true, needsRehash: true }));
    expect(await verifyPassword(SUPERTOKENS, "wrong", { firebaseSignerKey: SIGNER_KEY })).toEqual(ok({ valid: false, needsRehash: true }));
    expect(await verifyPassword(KRATOS, PASSWORD)).toEqual(ok({ valid: true, needsRehash: true }));
  });

  it("answers 3 without the key, with a key of another length, or with text that is not base64", async () => {
    for (const firebaseSignerKey of [undefined, "AAAA", "not base64!", ""]) {
      const result = await verifyPassword(SUPERTOKENS, PASSWORD, firebaseSignerKey === undefined ? {} : { firebaseSignerKey });
      expect(result.isErr() && result.error.code).toBe(3);
      expect(JSON.stringify(result)).not.toContain(HASH.slice(0, 20));
    }
  });

  it("parses the parameters and refuses what the other spellings refuse", () => {
    expect(parsePasswordHash(SUPERTOKENS)._unsafeUnwrap()).toMatchObject({ family: "firebase-scrypt", layout: "supertokens", n: 2 ** 14, r: 8, p: 1, signerKey: undefined });
    // m is log2 N, from 1 to 30: 1024 is no literal N here, as it is in Kratos' ln.
    for (const m of [0, 31, 1024]) expect(parsePasswordHash(`$f_scrypt$${HASH}$${SALT}$m=${m}$r=8$s=Bw==`, { scryptMaxMemoryBytes: 2 ** 50, scryptMaxWork: 2 ** 50 }).isErr()).toBe(true);
    expect(parsePasswordHash(`$f_scrypt$${HASH}$${SALT}$m=31$r=8$s=Bw==`)._unsafeUnwrapErr().message).toBe("firebase scrypt hash: m is out of range (1..30)");
    for (const bad of [`$f_scrypt$${HASH}$${SALT}$m=014$r=8$s=Bw==`, `$f_scrypt$${HASH}$${SALT}$m=14$r=8`, `$f_scrypt$${HASH}$${SALT}$m=14$r=x$s=Bw==`, `$f_scrypt$${HASH}$${SALT}$m=31$r=8$s=Bw==`, `$f_scrypt$AAAA$${SALT}$m=14$r=8$s=Bw==`]) {
      expect(parsePasswordHash(bad).isErr()).toBe(true);
    }
  });
});

describe("importHumanUser and checkPassword: a Firebase user", () => {
  const request = { ...minimalImport(), userName: "ann", hashedPassword: { value: SUPERTOKENS } };
  const context = { requester: member };

  it("is imported with the project's key configured, logs in, and has the hash upgraded", async () => {
    // A cheap hasher that knows its own hashes, so that the imported one counts as legacy.
    const ports = importPorts({ firebaseSignerKey: SIGNER_KEY, passwordHasher: pbkdf2Sha256Hasher({ iterations: 1000 }) });
    expect((await importHumanUser(ports, request, context)).isOk()).toBe(true);
    expect(await checkPassword(ports, { loginName: "ann", password: "wrong" }, {})).toEqual(err(expect.objectContaining({ code: 3 })));
    expect((await checkPassword(ports, { loginName: "ann", password: PASSWORD }, {})).isOk()).toBe(true);
    const types = ports.storage.events().filter((event) => event.aggregateId === FIRST_ID).map((event) => event.type);
    expect(types.slice(-3)).toEqual(["user.human.password.check.failed", "user.human.password.check.succeeded", "user.human.password.hash.updated"]);
    // The upgraded hash is the configured hasher's: no signer key is needed any more.
    const { firebaseSignerKey: _key, ...withoutKey } = ports;
    expect((await checkPassword(withoutKey, { loginName: "ann", password: PASSWORD }, {})).isOk()).toBe(true);
  });

  it("is refused at import without the key, naming the field", async () => {
    const ports = importPorts();
    expect(await importHumanUser(ports, request, context)).toEqual(err(invalidBody([{ field: "hashedPassword.value", description: NO_KEY }])));
    expect(ports.storage.events()).toEqual([]);
  });
});
