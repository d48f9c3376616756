// Durable keys: loaded from the environment, and rotated without losing what the old keys wrote.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { codeMatches } from "../../src/core/secrets/codes.js";
import { decryptSecret, encryptSecret } from "../../src/core/secrets/encrypt.js";
import { createHumanUser, keysFromEnvironment, type Keys } from "../../src/index.js";
import { member, minimalCreate, testPorts, zeroRandom } from "../operations/support/ports.js";

const ERROR_DETAIL = "type.googleapis.com/zitadel.v1.ErrorDetail";

function configurationError(problem: string) {
  const message = `invalid configuration: ${problem}`;
  return { error: { code: 9, message, details: [{ "@type": ERROR_DETAIL, id: "USER-c0nf", message }] } };
}

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);
const base64 = (length: number, fill: number) => Buffer.from(bytes(length, fill)).toString("base64");

const keyA: Keys = { keyId: "key-a", codeHmacKey: bytes(32, 1), encryptionKey: bytes(32, 2) };
const keyB: Keys = { keyId: "key-b", codeHmacKey: bytes(48, 3), encryptionKey: bytes(32, 4) };

describe("keysFromEnvironment", () => {
  it("is Ok(undefined) when no key variable is set, or each is empty", () => {
    expect(keysFromEnvironment({})).toEqual({ value: undefined });
    expect(keysFromEnvironment({ HUMAN_USERS_KEY_ID: "", HUMAN_USERS_CODE_HMAC_KEY: " ", PATH: "/bin" })).toEqual({ value: undefined });
  });

  it("reads the current keys, with the id they are recorded under", () => {
    const env = { HUMAN_USERS_KEY_ID: "app-2026", HUMAN_USERS_CODE_HMAC_KEY: base64(48, 3), HUMAN_USERS_ENCRYPTION_KEY: `${base64(32, 4)}\n` };
    expect(keysFromEnvironment(env)).toEqual({ value: { keyId: "app-2026", codeHmacKey: bytes(48, 3), encryptionKey: bytes(32, 4) } });
    const withoutId = { HUMAN_USERS_CODE_HMAC_KEY: base64(32, 1), HUMAN_USERS_ENCRYPTION_KEY: base64(32, 2).replace(/=+$/, "") };
    expect(keysFromEnvironment(withoutId)).toEqual({ value: { keyId: "default", codeHmacKey: bytes(32, 1), encryptionKey: bytes(32, 2) } });
  });

  it("reads the key sets a rotation retired", () => {
    const env = {
      HUMAN_USERS_KEY_ID: "key-b",
      HUMAN_USERS_CODE_HMAC_KEY: base64(48, 3),
      HUMAN_USERS_ENCRYPTION_KEY: base64(32, 4),
      HUMAN_USERS_PREVIOUS_KEYS: ` key-a:${base64(32, 1)}:${base64(32, 2)} , old:${base64(32, 5)}:${base64(32, 6)},`,
    };
    expect(keysFromEnvironment(env)).toEqual({
      value: { ...keyB, previous: [keyA, { keyId: "old", codeHmacKey: bytes(32, 5), encryptionKey: bytes(32, 6) }] },
    });
  });

  it("keeps a retired key id an earlier version took (a variation selector, another normal form)", () => {
    const env = {
      HUMAN_USERS_KEY_ID: "key-b",
      HUMAN_USERS_CODE_HMAC_KEY: base64(48, 3),
      HUMAN_USERS_ENCRYPTION_KEY: base64(32, 4),
      HUMAN_USERS_PREVIOUS_KEYS: `\u2764\ufe0f:${base64(32, 1)}:${base64(32, 2)}`,
    };
    expect(keysFromEnvironment(env)).toEqual({ value: { ...keyB, previous: [{ ...keyA, keyId: "\u2764\ufe0f" }] } });
  });

  it("names the variable that is wrong or missing, and never repeats a key", () => {
    const good = { HUMAN_USERS_CODE_HMAC_KEY: base64(32, 1), HUMAN_USERS_ENCRYPTION_KEY: base64(32, 2) };
    const cases: [Record<string, string>, string][] = [
      [{ HUMAN_USERS_CODE_HMAC_KEY: base64(32, 1) }, "HUMAN_USERS_ENCRYPTION_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY"],
      [{ HUMAN_USERS_KEY_ID: "app" }, "HUMAN_USERS_CODE_HMAC_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY; HUMAN_USERS_ENCRYPTION_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY"],
      [{ ...good, HUMAN_USERS_CODE_HMAC_KEY: "c2hvcnQ=" }, "HUMAN_USERS_CODE_HMAC_KEY must be standard base64 of 32 to 1024 bytes"],
      [{ ...good, HUMAN_USERS_CODE_HMAC_KEY: base64(32, 0xfb).replace(/\+/g, "-").replace(/\//g, "_") }, "HUMAN_USERS_CODE_HMAC_KEY must be standard base64 of 32 to 1024 bytes"],
      [{ ...good, HUMAN_USERS_ENCRYPTION_KEY: base64(33, 2) }, "HUMAN_USERS_ENCRYPTION_KEY must be standard base64 of 32 bytes"],
      [{ ...good, HUMAN_USERS_ENCRYPTION_KEY: "not base64!" }, "HUMAN_USERS_ENCRYPTION_KEY must be standard base64 of 32 bytes"],
      [{ ...good, HUMAN_USERS_KEY_ID: "a b" }, "HUMAN_USERS_KEY_ID must be 1 to 200 characters, without spaces, commas, colons or control characters"],
      [{ ...good, HUMAN_USERS_KEY_ID: "cafe\u0301" }, "HUMAN_USERS_KEY_ID must be in NFC, without invisible characters (variation selectors, joiners): another id would look the same"],
      [{ ...good, HUMAN_USERS_PREVIOUS_KEYS: "old" }, "HUMAN_USERS_PREVIOUS_KEYS entry 1 must be keyId:codeHmacKey:encryptionKey (the keys in standard base64)"],
      [{ ...good, HUMAN_USERS_PREVIOUS_KEYS: `old:${base64(16, 1)}:${base64(32, 2)}` }, "HUMAN_USERS_PREVIOUS_KEYS entry 1's codeHmacKey must be standard base64 of 32 to 1024 bytes"],
      [{ ...good, HUMAN_USERS_PREVIOUS_KEYS: `default:${base64(32, 1)}:${base64(32, 2)}` }, 'HUMAN_USERS_PREVIOUS_KEYS entry 1 repeats the key id "default": each key set needs its own'],
      [{ HUMAN_USERS_PREVIOUS_KEYS: `old:${base64(32, 1)}:${base64(32, 2)}` }, "HUMAN_USERS_CODE_HMAC_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY; HUMAN_USERS_ENCRYPTION_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY"],
    ];
    for (const [env, problem] of cases) expect(keysFromEnvironment(env)).toEqual(configurationError(problem));
  });

  it("names every variable that is wrong at once, so that a deploy is fixed in one go", () => {
    const missingBoth = "HUMAN_USERS_CODE_HMAC_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY; HUMAN_USERS_ENCRYPTION_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY";
    expect(keysFromEnvironment({ HUMAN_USERS_KEY_ID: "app" })).toEqual(configurationError(missingBoth));
    const everything = {
      HUMAN_USERS_KEY_ID: "a b",
      HUMAN_USERS_CODE_HMAC_KEY: "c2hvcnQ=",
      HUMAN_USERS_ENCRYPTION_KEY: base64(33, 2),
      HUMAN_USERS_PREVIOUS_KEYS: `old, old2:${base64(16, 1)}:${base64(32, 2)}`,
    };
    expect(keysFromEnvironment(everything)).toEqual(
      configurationError(
        [
          "HUMAN_USERS_KEY_ID must be 1 to 200 characters, without spaces, commas, colons or control characters",
          "HUMAN_USERS_CODE_HMAC_KEY must be standard base64 of 32 to 1024 bytes",
          "HUMAN_USERS_ENCRYPTION_KEY must be standard base64 of 32 bytes",
          "HUMAN_USERS_PREVIOUS_KEYS entry 1 must be keyId:codeHmacKey:encryptionKey (the keys in standard base64)",
          "HUMAN_USERS_PREVIOUS_KEYS entry 2's codeHmacKey must be standard base64 of 32 to 1024 bytes",
        ].join("; "),
      ),
    );
  });

  it("answers, never throws, for an environment whose reads throw", () => {
    const hostile = new Proxy({}, { get: () => { throw new Error("no"); } });
    expect(keysFromEnvironment(hostile)).toEqual(configurationError("the environment could not be read"));
  });
});

describe("key rotation", () => {
  it("checks a code issued under key A after a rotation to key B that keeps A in previous, and not without it", async () => {
    const before = testPorts({ keys: keyA, random: zeroRandom });
    const created = await createHumanUser(before, { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} } }, { requester: member });
    const code = created.isOk() ? created.value.emailCode : undefined;
    const stored = before.storage.events().find((event) => event.type === "user.human.email.code.added")?.payload["code"];
    expect({ code, stored }).toEqual({ code: "AAAAAA", stored: { algorithm: "HMAC-SHA256", keyId: "key-a", hash: expect.any(String) } });
    const hashed = stored as Parameters<typeof codeMatches>[1];

    expect(codeMatches("AAAAAA", hashed, { ...keyB, previous: [keyA] })).toBe(true);
    expect(codeMatches("AAAAAB", hashed, { ...keyB, previous: [keyA] })).toBe(false);
    expect(codeMatches("AAAAAA", hashed, keyB)).toBe(false);
  });

  it("checks it with keys read from the environment after the same rotation", () => {
    const rotated = keysFromEnvironment({
      HUMAN_USERS_KEY_ID: "key-b",
      HUMAN_USERS_CODE_HMAC_KEY: base64(48, 3),
      HUMAN_USERS_ENCRYPTION_KEY: base64(32, 4),
      HUMAN_USERS_PREVIOUS_KEYS: `key-a:${base64(32, 1)}:${base64(32, 2)}`,
    });
    const hashedUnderA = { algorithm: "HMAC-SHA256" as const, keyId: "key-a", hash: Buffer.from(createHmacSha256(bytes(32, 1), "K3Y5AB")).toString("base64") };
    expect(rotated.isOk() && rotated.value !== undefined && codeMatches("K3Y5AB", hashedUnderA, rotated.value)).toBe(true);
  });

  it("opens a TOTP secret sealed under key A with key B that keeps A in previous; a wrong key or changed bytes give nothing", async () => {
    const plain = new TextEncoder().encode("12345678901234567890");
    const sealed = await encryptSecret(plain, keyA, { fill: (target) => crypto.getRandomValues(target) });
    expect(await decryptSecret(sealed, { ...keyB, previous: [keyA] })).toEqual(plain);
    expect(await decryptSecret(sealed, keyA)).toEqual(plain);
    expect(await decryptSecret(sealed, keyB)).toBeUndefined();
    expect(await decryptSecret(sealed, { ...keyB, previous: [{ ...keyA, encryptionKey: bytes(32, 9) }] })).toBeUndefined();
    const changed = Buffer.from(sealed.crypted, "base64");
    changed[changed.length - 1] = (changed[changed.length - 1] ?? 0) ^ 1;
    expect(await decryptSecret({ ...sealed, crypted: changed.toString("base64") }, keyA)).toBeUndefined();
    expect(await decryptSecret({ ...sealed, crypted: "AAAA" }, keyA)).toBeUndefined();
  });
});

function createHmacSha256(key: Uint8Array, text: string): Uint8Array {
  return new Uint8Array(createHmac("sha256", key).update(text).digest());
}
