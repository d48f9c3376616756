// importHumanUser: every rule of the request table, at its boundary and one past it.
// Lengths count characters (code points), so each length rule is also tried with astral ones.
import { ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { importHumanUser } from "../../src/index.js";
import {
  ACME,
  astral,
  BCRYPT_HASH,
  details,
  GLOBEX,
  fakeHash,
  id,
  importPorts,
  member,
  minimalImport,
  pbkdf2Hash,
  addedPayload,
  invalidBody,
  refused,
  storedEvent,
} from "./support/import-fixtures.js";

const context = { requester: member };
const a = (count: number) => "a".repeat(count);
const TOO_LONG = "must be at most 200 characters long";

/** The minimal request with `patch` over it; `profile` members are merged into the minimal profile. */
function request(patch: Record<string, unknown>): Record<string, unknown> {
  const base = minimalImport();
  const profile = patch["profile"];
  return { ...base, ...patch, ...(isObject(profile) ? { profile: { ...(base["profile"] as object), ...profile } } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `local@bbb.ccc.<filler>.test` of exactly `length` characters (local part of 64 UTF-16 units at most). */
function emailOfLength(local: string, length: number): string {
  const fixed = [...local].length + 1 + 63 + 1 + 63 + 1 + 1 + 4;
  return `${local}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(length - fixed)}.test`;
}

// The identity providers the boundary rows link to (besides the shared ones).
const LONG_IDP = "i".repeat(200);
const ASTRAL_IDP = astral(200);
const providers = [{ id: "idp-acme", orgId: "acme" }, { id: "idp-global" }, { id: LONG_IDP }, { id: ASTRAL_IDP }];

async function importWith(body: Record<string, unknown>, seed = { identityProviders: providers }) {
  const ports = importPorts({}, seed);
  const result = await importHumanUser(ports, body, context);
  return { ports, result };
}

describe("importHumanUser: accepted at each boundary", () => {
  const email200 = emailOfLength(a(64), 200);
  const astralEmail200 = emailOfLength(astral(32), 200);
  const phone50 = `+41${" ".repeat(38)}791234567`;
  const password200 = `Aa1!${a(196)}`;
  const astralPassword200 = `Aa1!${astral(196)}`;

  // [name, request patch, the added payload's changes, the response's sequence]
  const rows: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
    ["userName of 1 character", { userName: "a" }, { userName: "a" }, "2"],
    ["userName of 200 characters", { userName: a(200) }, { userName: a(200) }, "2"],
    ["userName of 200 astral characters", { userName: astral(200) }, { userName: astral(200) }, "2"],
    ["firstName of 1 character", { profile: { firstName: "A" } }, { firstName: "A", displayName: "A Lee" }, "2"],
    ["firstName of 200 astral characters", { profile: { firstName: astral(200) } }, { firstName: astral(200), displayName: `${astral(200)} Lee` }, "2"],
    ["lastName of 1 character", { profile: { lastName: "L" } }, { lastName: "L", displayName: "Ann L" }, "2"],
    ["lastName of 200 characters", { profile: { lastName: a(200) } }, { lastName: a(200), displayName: `Ann ${a(200)}` }, "2"],
    ["nickName of 0 characters", { profile: { nickName: "" } }, {}, "2"],
    ["nickName of 200 astral characters", { profile: { nickName: astral(200) } }, { nickName: astral(200) }, "2"],
    ["displayName of 200 astral characters", { profile: { displayName: astral(200) } }, { displayName: astral(200) }, "2"],
    ["preferredLanguage of 10 characters", { profile: { preferredLanguage: "de-CH-1996" } }, { preferredLanguage: "de-CH-1996" }, "2"],
    ["preferredLanguage of 10 astral characters", { profile: { preferredLanguage: astral(10) } }, { preferredLanguage: "und" }, "2"],
    ["email of 200 characters", { email: { email: email200 } }, { email: email200, userName: email200 }, "2"],
    ["email of 200 characters, 32 of them astral", { email: { email: astralEmail200 } }, { email: astralEmail200, userName: astralEmail200 }, "2"],
    ["phone of 50 characters", { phone: { phone: phone50 } }, { phone: "+41791234567" }, "3"],
    ["phone with every visual separator", { phone: { phone: " +1 (415) 555-26.71 " } }, { phone: "+14155552671" }, "3"],
    ["password of 8 characters", { password: "Aa1!bcde" }, { encodedHash: fakeHash("Aa1!bcde"), changeRequired: false }, "2"],
    ["password of 8 characters, 4 of them astral", { password: `Aa1!${astral(4)}` }, { encodedHash: fakeHash(`Aa1!${astral(4)}`), changeRequired: false }, "2"],
    ["password of 200 characters", { password: password200 }, { encodedHash: fakeHash(password200), changeRequired: false }, "2"],
    ["password of 200 astral characters", { password: astralPassword200 }, { encodedHash: fakeHash(astralPassword200), changeRequired: false }, "2"],
    ["hashedPassword of 200 characters", { hashedPassword: { value: pbkdf2Hash(1000, 102) } }, { encodedHash: pbkdf2Hash(1000, 102), changeRequired: false }, "2"],
    ["idps configId of 200 characters", { idps: [{ configId: LONG_IDP, externalUserId: "x" }] }, {}, "3"],
    ["idps configId of 200 astral characters", { idps: [{ configId: ASTRAL_IDP, externalUserId: "x" }] }, {}, "3"],
    ["idps externalUserId of 1 character", { idps: [{ configId: "idp-acme", externalUserId: "x" }] }, {}, "3"],
    ["idps externalUserId of 200 astral characters", { idps: [{ configId: "idp-acme", externalUserId: astral(200) }] }, {}, "3"],
    ["idps displayName of 200 astral characters", { idps: [{ configId: "idp-acme", externalUserId: "x", displayName: astral(200) }] }, {}, "3"],
  ];

  it.each(rows)("accepts %s and stores it", async (_name, patch, changes, sequence) => {
    const { ports, result } = await importWith(request(patch));
    expect(result).toEqual(ok({ userId: id(1), details: details(sequence) }));
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload(changes));
  });

  it("stores each identity provider link with its values as given", async () => {
    const idps = [
      { configId: LONG_IDP, externalUserId: astral(200), displayName: astral(200) },
      { configId: "idp-global", externalUserId: a(200) },
    ];
    const { ports } = await importWith(request({ idps }));
    const linked = (sequence: number, payload: Record<string, unknown>) => storedEvent(sequence, "user.human.externalidp.added", payload);
    expect(ports.storage.events().slice(2)).toEqual([
      linked(3, { idpConfigId: LONG_IDP, userId: astral(200), displayName: astral(200) }),
      linked(4, { idpConfigId: "idp-global", userId: a(200) }),
    ]);
  });
});

describe("importHumanUser: refused one past each boundary (code 3)", () => {
  const NOT_GLOBAL = "must be a global number: + and the country code, then digits";
  // [name, request patch, field, description]
  const rows: [string, Record<string, unknown>, string, string][] = [
    ["userName of 0 characters", { userName: "" }, "userName", "must not be empty"],
    ["a blank userName", { userName: " \t " }, "userName", "must not be blank"],
    ["userName of 201 characters", { userName: a(201) }, "userName", TOO_LONG],
    ["userName of 201 astral characters", { userName: astral(201) }, "userName", TOO_LONG],
    ["userName of 201 characters before trimming", { userName: ` ${a(200)}` }, "userName", TOO_LONG],
    ["userName that is not a string", { userName: 7 }, "userName", "must be a string"],
    ["firstName missing", { profile: { firstName: undefined } }, "profile.firstName", "is required"],
    ["firstName of 0 characters", { profile: { firstName: "" } }, "profile.firstName", "must not be empty"],
    ["a blank firstName", { profile: { firstName: "  " } }, "profile.firstName", "must not be blank"],
    ["firstName of 201 astral characters", { profile: { firstName: astral(201) } }, "profile.firstName", TOO_LONG],
    ["lastName null", { profile: { lastName: null } }, "profile.lastName", "is required"],
    ["email null", { email: { email: null } }, "email.email", "is required"],
    ["hashedPassword value null", { hashedPassword: { value: null } }, "hashedPassword.value", "is required"],
    ["a blank lastName", { profile: { lastName: "\u00a0" } }, "profile.lastName", "must not be blank"],
    ["lastName of 201 characters", { profile: { lastName: a(201) } }, "profile.lastName", TOO_LONG],
    ["nickName of 201 astral characters", { profile: { nickName: astral(201) } }, "profile.nickName", TOO_LONG],
    ["displayName of 201 astral characters", { profile: { displayName: astral(201) } }, "profile.displayName", TOO_LONG],
    ["preferredLanguage of 11 characters", { profile: { preferredLanguage: "de-CH-19966" } }, "profile.preferredLanguage", "must be at most 10 characters long"],
    ["preferredLanguage of 11 astral characters", { profile: { preferredLanguage: astral(11) } }, "profile.preferredLanguage", "must be at most 10 characters long"],
    ...[4, -1, 1.5, "2", "GENDER_OTHER", true].map((gender): [string, Record<string, unknown>, string, string] => [
      `gender ${JSON.stringify(gender)}`,
      { profile: { gender } },
      "profile.gender",
      "must be one of GENDER_UNSPECIFIED, GENDER_FEMALE, GENDER_MALE, GENDER_DIVERSE (or 0 to 3)",
    ]),
    ["email missing", { email: {} }, "email.email", "is required"],
    ["email of 0 characters", { email: { email: "" } }, "email.email", "must not be empty"],
    ["email of 201 characters", { email: { email: emailOfLength(a(64), 201) } }, "email.email", TOO_LONG],
    ["email of 201 characters, 32 of them astral", { email: { email: emailOfLength(astral(32), 201) } }, "email.email", TOO_LONG],
    ["an email with a display name", { email: { email: "Ann <ann@acme.test>" } }, "email.email", "is not a valid email address"],
    ["an email without a domain", { email: { email: "ann@" } }, "email.email", "is not a valid email address"],
    ["isEmailVerified that is not a boolean", { email: { email: "ann@acme.test", isEmailVerified: "true" } }, "email.isEmailVerified", "must be true or false"],
    ["phone missing from its object", { phone: {} }, "phone.phone", "is required"],
    ["phone of 0 characters", { phone: { phone: "" } }, "phone.phone", "must not be empty"],
    ["phone of 51 characters", { phone: { phone: `+41${" ".repeat(39)}791234567` } }, "phone.phone", "must be at most 50 characters long"],
    ["a phone without +", { phone: { phone: "041 79 123 45 67" } }, "phone.phone", NOT_GLOBAL],
    ["a phone with letters", { phone: { phone: "+1 415 CALL NOW" } }, "phone.phone", NOT_GLOBAL],
    ["a phone of only +", { phone: { phone: "+" } }, "phone.phone", NOT_GLOBAL],
    ["a phone that cannot be parsed", { phone: { phone: "+999 12" } }, "phone.phone", "is not a phone number that can be parsed"],
    [
      "one identity-provider account twice",
      { idps: [{ configId: "idp-acme", externalUserId: "x", displayName: "a" }, { configId: "idp-acme", externalUserId: "x", displayName: "b" }] },
      "idps[1]",
      "names the same identity-provider account (configId and externalUserId) as idps[0]",
    ],
    ["isPhoneVerified that is not a boolean", { phone: { phone: "+41791234567", isPhoneVerified: 1 } }, "phone.isPhoneVerified", "must be true or false"],
    ["password of 0 characters", { password: "" }, "password", "must not be empty"],
    ["password of 201 characters", { password: `Aa1!${a(197)}` }, "password", TOO_LONG],
    ["password of 201 astral characters", { password: `Aa1!${astral(197)}` }, "password", TOO_LONG],
    ["password of 7 characters", { password: "Aa1!bcd" }, "password", "must be at least 8 characters long"],
    ["password of 7 characters, 3 of them astral", { password: `Aa1!${astral(3)}` }, "password", "must be at least 8 characters long"],
    ["password that is not a string", { password: { password: "Aa1!bcde" } }, "password", "must be a string"],
    ["hashedPassword without a value", { hashedPassword: {} }, "hashedPassword.value", "is required"],
    ["hashedPassword that is not an object", { hashedPassword: BCRYPT_HASH }, "hashedPassword", "must be an object"],
    ["hashedPassword of 0 characters", { hashedPassword: { value: "" } }, "hashedPassword.value", "must not be empty"],
    ["hashedPassword of 201 characters", { hashedPassword: { value: pbkdf2Hash(10000, 102) } }, "hashedPassword.value", TOO_LONG],
    ["a hash in no supported format", { hashedPassword: { value: "Plain-Secret-42" } }, "hashedPassword.value", "the password hash is not in a supported format"],
    ["a $2x$ bcrypt hash", { hashedPassword: { value: BCRYPT_HASH.replace("$2b$", "$2x$") } }, "hashedPassword.value", "the password hash is not in a supported format"],
    ["a bcrypt hash over the cost bound", { hashedPassword: { value: BCRYPT_HASH.replace("$04$", "$16$") } }, "hashedPassword.value", "bcrypt hash: cost is out of range (4..15)"],
    [
      "an scrypt hash with N of 2^(16*r), which no scrypt computes",
      { hashedPassword: { value: "$scrypt$ln=21,r=1,p=1$AwMDAwMDAwMDAwMDAwMDAw$BQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU" } },
      "hashedPassword.value",
      "scrypt hash: N and r is out of range (N below 2^(16*r))",
    ],
    ["passwordChangeRequired that is not a boolean", { passwordChangeRequired: "yes" }, "passwordChangeRequired", "must be true or false"],
    ["requestPasswordlessRegistration that is not a boolean", { requestPasswordlessRegistration: 1 }, "requestPasswordlessRegistration", "must be true or false"],
    ["idps that is not a list", { idps: { configId: "idp-acme", externalUserId: "x" } }, "idps", "must be a list"],
    ["an idps entry that is not an object", { idps: ["idp-acme"] }, "idps[0]", "must be an object"],
    ["an idps entry that is null", { idps: [null] }, "idps[0]", "is required"],
    ["idps configId of 0 characters", { idps: [{ configId: "", externalUserId: "x" }] }, "idps[0].configId", "must not be empty"],
    ["idps configId of 201 characters", { idps: [{ configId: `${LONG_IDP}i`, externalUserId: "x" }] }, "idps[0].configId", TOO_LONG],
    ["idps externalUserId of 0 characters", { idps: [{ configId: "idp-acme", externalUserId: "" }] }, "idps[0].externalUserId", "must not be empty"],
    ["idps externalUserId of 201 astral characters", { idps: [{ configId: "idp-acme", externalUserId: astral(201) }] }, "idps[0].externalUserId", TOO_LONG],
    ["idps displayName of 201 astral characters", { idps: [{ configId: "idp-acme", externalUserId: "x", displayName: astral(201) }] }, "idps[0].displayName", TOO_LONG],
    ["a second idps entry of 201 characters", { idps: [{ configId: "idp-acme", externalUserId: "x" }, { configId: "idp-acme", externalUserId: a(201) }] }, "idps[1].externalUserId", TOO_LONG],
  ];

  it.each(rows)("refuses %s and writes nothing", async (_name, patch, field, description) => {
    const { ports, result } = await importWith(request(patch));
    expect(result._unsafeUnwrapErr()).toEqual(refused(field, description));
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("refuses password and hashedPassword sent at once, naming password", async () => {
    const { result } = await importWith(request({ password: "Aa1!bcde", hashedPassword: { value: BCRYPT_HASH } }));
    expect(result._unsafeUnwrapErr()).toEqual(refused("password", "password and hashedPassword cannot both be set"));
  });

  it("lists every broken password rule, beside the other violations", async () => {
    const { result } = await importWith(request({ password: "a", hashedPassword: { value: "" } }));
    const message = "password: must be at least 8 characters long (and 5 more violations)";
    expect(result._unsafeUnwrapErr()).toEqual(
      invalidBody(message, [
        ["password", "must be at least 8 characters long"],
        ["password", "must contain an upper-case letter"],
        ["password", "must contain a digit"],
        ["password", "must contain a symbol"],
        ["password", "password and hashedPassword cannot both be set"],
        ["hashedPassword.value", "must not be empty"],
      ]),
    );
  });

  it("checks a plain password against the organization's own policy", async () => {
    const strict = { ...ACME, policy: { passwordComplexity: { minLength: 12, hasSymbol: false } } };
    const seed = { organizations: [strict, GLOBEX], identityProviders: providers };
    const short = await importWith(request({ password: "Abcdefgh123" }), seed);
    expect(short.result._unsafeUnwrapErr()).toEqual(refused("password", "must be at least 12 characters long"));

    const { ports, result } = await importWith(request({ password: "Abcdefgh1234" }), seed);
    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(ports.storage.events()[0]?.payload).toEqual(addedPayload({ encodedHash: fakeHash("Abcdefgh1234"), changeRequired: false }));
  });

  it("reports every violation at once, in the order of the request's fields", async () => {
    const body = {
      idps: [{ configId: "", externalUserId: "x" }],
      requestPasswordlessRegistration: "yes",
      password: "",
      phone: { phone: "0791234567" },
      email: { email: "not an address", isEmailVerified: 1 },
      profile: { firstName: " ", lastName: astral(201), gender: 9 },
      userName: a(201),
    };
    const { ports, result } = await importWith(body);
    const message = `userName: ${TOO_LONG} (and 9 more violations)`;
    expect(result._unsafeUnwrapErr()).toEqual(
      invalidBody(message, [
        ["userName", TOO_LONG],
        ["profile.firstName", "must not be blank"],
        ["profile.lastName", TOO_LONG],
        ["profile.gender", "must be one of GENDER_UNSPECIFIED, GENDER_FEMALE, GENDER_MALE, GENDER_DIVERSE (or 0 to 3)"],
        ["email.email", "is not a valid email address"],
        ["email.isEmailVerified", "must be true or false"],
        ["phone.phone", "must be a global number: + and the country code, then digits"],
        ["password", "must not be empty"],
        ["requestPasswordlessRegistration", "must be true or false"],
        ["idps[0].configId", "must not be empty"],
      ]),
    );
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });
});

describe("importHumanUser: the shape of the body (checked first)", () => {
  const notAnObject = {
    code: 3,
    message: "the request body must be a JSON object",
    details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-b0dy", message: "the request body must be a JSON object" }],
  };

  it.each([[null], [undefined], ["{}"], [42], [[minimalImport()]]])("refuses the body %j: not a JSON object", async (body) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, body, context);
    expect(result._unsafeUnwrapErr()).toEqual(notAnObject);
  });

  it.each([
    ["no profile", { email: { email: "ann@acme.test" } }, "profile", "is required"],
    ["a null profile", { profile: null, email: { email: "ann@acme.test" } }, "profile", "is required"],
    ["a profile that is a list", { profile: [], email: { email: "ann@acme.test" } }, "profile", "must be an object"],
    ["no email", { profile: { firstName: "Ann", lastName: "Lee" } }, "email", "is required"],
    ["an email that is a string", { profile: { firstName: "Ann", lastName: "Lee" }, email: "ann@acme.test" }, "email", "must be an object"],
  ])("refuses a body with %s", async (_name, body, field, description) => {
    const ports = importPorts();
    const result = await importHumanUser(ports, body, context);
    expect(result._unsafeUnwrapErr()).toEqual(refused(field, description));
  });

  it("reports both missing objects at once", async () => {
    const result = await importHumanUser(importPorts(), {}, context);
    const message = "profile: is required (and 1 more violation)";
    expect(result._unsafeUnwrapErr()).toEqual(
      invalidBody(message, [
        ["profile", "is required"],
        ["email", "is required"],
      ]),
    );
  });
});
