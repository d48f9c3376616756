// importHumanUser: what a successful import answers and writes, and the JSON it reads.
import { ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { importHumanUser } from "../../src/index.js";
import { defaultPasswordHasher, verifyPassword } from "../../src/passwords/index.js";
import {
  ANY_IMPORT_FINGERPRINT,
  addedPayload,
  BCRYPT_HASH,
  BCRYPT_PASSWORD,
  details,
  storedEvent,
  fakeHash,
  id,
  importPorts,
  annInitMail,
  outboxRecord,
  member,
  minimalImport,
  NOW,
  storedCode,
} from "./support/import-fixtures.js";

const context = { requester: member };

describe("importHumanUser: a successful import", () => {
  it("imports the smallest request: the body, the events, the claims, the outbox and the initialization mail", async () => {
    const ports = importPorts();

    const result = await importHumanUser(ports, minimalImport(), context);

    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(ports.storage.snapshot()).toEqual({
      events: [
        storedEvent(1, "user.human.added", addedPayload()),
        storedEvent(2, "user.human.initialization.code.added", { code: storedCode("AAAAAA"), expiry: "259200s" }),
      ],
      claims: [
        { kind: "user_id", scope: "", key: id(1) },
        { kind: "username", scope: "", key: "ann@acme.test" },
      ],
      notifications: [outboxRecord({ code: "", link: "", state: "delivered", deliveredAt: "2026-03-04T05:06:07.000Z" })],
    });
    expect(ports.mailer.sent).toEqual([annInitMail()]);
  });

  it("imports every field: verified email and phone, a bcrypt hash with a change required, two identity providers", async () => {
    const ports = importPorts();
    const request = {
      userName: " Ann ",
      profile: { firstName: " Ann ", lastName: "Lee ", nickName: " annie ", displayName: "", preferredLanguage: "de-ch", gender: 2 },
      email: { email: " ann@acme.test ", isEmailVerified: true },
      phone: { phone: "+41 79 123 45 67", isPhoneVerified: true },
      hashedPassword: { value: BCRYPT_HASH },
      passwordChangeRequired: true,
      idps: [
        { configId: "idp-acme", externalUserId: "ext-1", displayName: "Ann at Acme" },
        { configId: "idp-global", externalUserId: "ext-2" },
      ],
    };

    const result = await importHumanUser(ports, request, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("5") }));
    expect(ports.storage.snapshot()).toEqual({
      events: [
        storedEvent(1, "user.human.added", {
          userName: "Ann",
          firstName: "Ann",
          lastName: "Lee",
          nickName: "annie",
          displayName: "Ann Lee",
          preferredLanguage: "de-CH",
          gender: "GENDER_MALE",
          email: "ann@acme.test",
          phone: "+41791234567",
          encodedHash: BCRYPT_HASH,
          changeRequired: true,
          importFingerprint: ANY_IMPORT_FINGERPRINT,
        }),
        storedEvent(2, "user.human.email.verified", {}),
        storedEvent(3, "user.human.phone.verified", {}),
        storedEvent(4, "user.human.externalidp.added", { idpConfigId: "idp-acme", userId: "ext-1", displayName: "Ann at Acme" }),
        storedEvent(5, "user.human.externalidp.added", { idpConfigId: "idp-global", userId: "ext-2" }),
      ],
      claims: [
        { kind: "user_id", scope: "", key: id(1) },
        { kind: "username", scope: "", key: "ann" },
        { kind: "idp_link", scope: "", key: '["idp-acme","ext-1"]' },
        { kind: "idp_link", scope: "", key: '["idp-global","ext-2"]' },
      ],
      notifications: [],
    });
    expect(ports.mailer.sent).toEqual([]);
  });

  it("keeps the imported hash as given, so the password it was made from is verified later", async () => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), hashedPassword: { value: BCRYPT_HASH } }, context);

    const [added] = ports.storage.events();
    expect(added?.payload).toEqual(addedPayload({ encodedHash: BCRYPT_HASH, changeRequired: false }));
    expect(await verifyPassword(BCRYPT_HASH, BCRYPT_PASSWORD)).toEqual(ok({ valid: true, needsRehash: true }));
  });

  it("hashes a plain password with the configured hasher and keeps the plain text nowhere", async () => {
    const ports = importPorts();
    const password = "Plain-Secret-42";

    const result = await importHumanUser(ports, { ...minimalImport(), password }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ encodedHash: fakeHash(password), changeRequired: false }));
    const everything = JSON.stringify([result, ports.storage.snapshot(), ports.mailer.attempted]);
    expect(everything.includes(password)).toBe(false);
  });

  it("hashes with the default hasher into a hash that verifyPassword accepts", async () => {
    const ports = importPorts({ passwordHasher: defaultPasswordHasher });
    const password = "Plain-Secret-42";

    await importHumanUser(ports, { ...minimalImport(), password, email: { email: "ann@acme.test", isEmailVerified: true } }, context);

    const encodedHash = ports.storage.events()[0]?.payload["encodedHash"];
    expect(typeof encodedHash).toBe("string");
    const verification = await verifyPassword(String(encodedHash), password);
    expect(verification).toEqual(ok({ valid: true, needsRehash: false }));
    expect(await verifyPassword(String(encodedHash), "Plain-Secret-43")).toEqual(ok({ valid: false, needsRehash: false }));
  });

  it.each([
    ["a plain password", { password: "Plain-Secret-42" }, fakeHash("Plain-Secret-42")],
    ["a hashed password", { hashedPassword: { value: BCRYPT_HASH } }, BCRYPT_HASH],
  ])("stores passwordChangeRequired with %s", async (_name, password, encodedHash) => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), ...password, passwordChangeRequired: true }, context);
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ encodedHash, changeRequired: true }));
  });

  it("ignores passwordChangeRequired without a password: there is nothing to change", async () => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), passwordChangeRequired: true }, context);
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload());
  });

  it.each([
    ["de-ch", "de-CH"],
    [" EN-us ", "en-US"],
    ["de-CH-1996", "de-CH-1996"],
    ["", "und"],
    ["en_US", "und"],
    ["no tag", "und"],
    ["1234567890", "und"],
    ["𝒜𝒜𝒜𝒜𝒜𝒜𝒜𝒜𝒜𝒜", "und"],
  ])("stores the language tag %j as %j, never refusing one that does not parse", async (preferredLanguage, stored) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, { ...minimalImport(), profile: { firstName: "Ann", lastName: "Lee", preferredLanguage } }, context);
    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ preferredLanguage: stored }));
  });

  it.each([
    [0, "GENDER_UNSPECIFIED"],
    [1, "GENDER_FEMALE"],
    [2, "GENDER_MALE"],
    [3, "GENDER_DIVERSE"],
    ["GENDER_DIVERSE", "GENDER_DIVERSE"],
  ])("reads the gender %j as %s", async (gender, stored) => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), profile: { firstName: "Ann", lastName: "Lee", gender } }, context);
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ gender: stored }));
  });

  it.each([
    ["a blank display name", { displayName: "   " }, { displayName: "Ann Lee" }],
    ["a display name", { displayName: " Annie L. " }, { displayName: "Annie L." }],
    ["astral names", { firstName: "𝒜nn", lastName: "L😀e", nickName: "😀" }, { firstName: "𝒜nn", lastName: "L😀e", nickName: "😀", displayName: "𝒜nn L😀e" }],
  ])("stores the profile with %s", async (_name, profile, stored) => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), profile: { firstName: "Ann", lastName: "Lee", ...profile } }, context);
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload(stored));
  });

  it("stores the username trimmed and in NFC, and claims it in lower case", async () => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), userName: "  Rene\u0301  " }, context);
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ userName: "Ren\u00e9" }));
    expect(ports.storage.claims()).toEqual([
      { kind: "user_id", scope: "", key: id(1) },
      { kind: "username", scope: "", key: "ren\u00e9" },
    ]);
  });

  it("defaults the username to the trimmed email address, also in NFC", async () => {
    const ports = importPorts();
    // U+212B ANGSTROM SIGN is a letter (so the address is valid) whose NFC form is U+00C5.
    await importHumanUser(ports, { ...minimalImport(), email: { email: " \u212Bsa@acme.test " } }, context);
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ userName: "\u00C5sa@acme.test", email: "\u212Bsa@acme.test" }));
    expect(ports.storage.claims()).toEqual([
      { kind: "user_id", scope: "", key: id(1) },
      { kind: "username", scope: "", key: "\u00E5sa@acme.test" },
    ]);
    expect(ports.mailer.sent.map((mail) => mail.subject)).toEqual(["init \u00C5sa@acme.test"]);
  });
});

describe("importHumanUser: the JSON on the wire", () => {
  it("answers a value whose JSON.stringify is the wire body, with no absent or empty members", async () => {
    const ports = importPorts();
    const result = await importHumanUser(ports, minimalImport(), context);
    const body = result._unsafeUnwrap();
    expect(JSON.stringify(body)).toBe(
      `{"userId":"${id(1)}","details":{"sequence":"2","creationDate":"${NOW}","changeDate":"${NOW}","resourceOwner":"acme"}}`,
    );
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);
  });

  it("writes the passwordless registration into the wire body too", async () => {
    const ports = importPorts();
    const result = await importHumanUser(ports, { ...minimalImport(), requestPasswordlessRegistration: true }, { ...context, origin: "https://id.acme.test" });
    const link = `https://id.acme.test/ui/login/login/passwordless/init?userID=${id(1)}&orgID=acme&codeID=${id(3)}&code=bbbbbbbbbbbb`;
    expect(JSON.stringify(result._unsafeUnwrap())).toBe(
      `{"userId":"${id(1)}","details":{"sequence":"3","creationDate":"${NOW}","changeDate":"${NOW}","resourceOwner":"acme"},` +
        `"passwordlessRegistration":{"link":"${link}","lifetime":"3600s","expiration":"3600s"}}`,
    );
  });

  it("accepts the snake_case names of every field and writes exactly what the camelCase body writes", async () => {
    const camel = {
      userName: "ann",
      profile: { firstName: "Ann", lastName: "Lee", nickName: "annie", displayName: "A. Lee", preferredLanguage: "de", gender: "GENDER_FEMALE" },
      email: { email: "ann@acme.test", isEmailVerified: false },
      phone: { phone: "+41791234567", isPhoneVerified: true },
      hashedPassword: { value: BCRYPT_HASH },
      passwordChangeRequired: true,
      requestPasswordlessRegistration: true,
      idps: [{ configId: "idp-acme", externalUserId: "ext-1", displayName: "Ann" }],
    };
    const snake = {
      user_name: "ann",
      profile: { first_name: "Ann", last_name: "Lee", nick_name: "annie", display_name: "A. Lee", preferred_language: "de", gender: "GENDER_FEMALE" },
      email: { email: "ann@acme.test", is_email_verified: false },
      phone: { phone: "+41791234567", is_phone_verified: true },
      hashed_password: { value: BCRYPT_HASH },
      password_change_required: true,
      request_passwordless_registration: true,
      idps: [{ config_id: "idp-acme", external_user_id: "ext-1", display_name: "Ann" }],
    };
    const fromCamel = importPorts();
    const fromSnake = importPorts();

    const camelResult = await importHumanUser(fromCamel, camel, context);
    const snakeResult = await importHumanUser(fromSnake, snake, context);

    expect(snakeResult).toEqual(camelResult);
    expect(camelResult.isOk()).toBe(true);
    expect(fromSnake.storage.snapshot()).toEqual(fromCamel.storage.snapshot());
    expect(fromSnake.storage.events().map((stored) => stored.type)).toEqual([
      "user.human.added",
      "user.human.initialization.code.added",
      "user.human.phone.verified",
      "user.human.externalidp.added",
      "user.human.passwordless.initialization.code.added",
    ]);
    expect(fromSnake.mailer.sent).toEqual(fromCamel.mailer.sent);
  });

  it("takes the camelCase member when a body has both spellings of a name", async () => {
    const ports = importPorts();
    await importHumanUser(ports, { ...minimalImport(), userName: "camel", user_name: "snake" }, context);
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ userName: "camel" }));
  });

  it("ignores unknown fields at every level", async () => {
    const ports = importPorts();
    const request = {
      profile: { firstName: "Ann", lastName: "Lee", avatar: "x" },
      email: { email: "ann@acme.test", sendCode: {} },
      org_id: "globex",
      metadata: [{ key: "k", value: "dg==" }],
      idps: [{ configId: "idp-acme", externalUserId: "ext-1", extra: true }],
    };

    const result = await importHumanUser(ports, request, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("3") }));
    expect(ports.storage.events().map((stored) => [stored.type, stored.payload])).toEqual([
      ["user.human.added", addedPayload()],
      ["user.human.initialization.code.added", { code: storedCode("AAAAAA"), expiry: "259200s" }],
      ["user.human.externalidp.added", { idpConfigId: "idp-acme", userId: "ext-1" }],
    ]);
  });

  it("treats null members as absent, as protobuf JSON does", async () => {
    const withNulls = importPorts();
    const without = importPorts();
    const request = {
      userName: null,
      profile: { firstName: "Ann", lastName: "Lee", nickName: null, displayName: null, preferredLanguage: null, gender: null },
      email: { email: "ann@acme.test", isEmailVerified: null },
      phone: null,
      password: null,
      hashedPassword: null,
      passwordChangeRequired: null,
      requestPasswordlessRegistration: null,
      idps: null,
    };

    const result = await importHumanUser(withNulls, request, context);

    expect(result).toEqual(await importHumanUser(without, minimalImport(), context));
    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(withNulls.storage.snapshot()).toEqual(without.storage.snapshot());
  });

  it("takes a null password beside a hashed one as only the hashed one", async () => {
    const ports = importPorts();
    const result = await importHumanUser(ports, { ...minimalImport(), password: null, hashedPassword: { value: BCRYPT_HASH } }, context);
    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ encodedHash: BCRYPT_HASH, changeRequired: false }));
  });
});
