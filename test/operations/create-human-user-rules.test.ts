// The field rules of section 4 as createHumanUser applies them.
import { createDecipheriv } from "node:crypto";
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { fakeHash } from "./support/import-fixtures.js";
import { createHumanUser, type PasswordHasher } from "../../src/index.js";
import { verifyPassword } from "../../src/passwords/index.js";
import { FIRST_ID, invalidBody, member, minimalCreate, NOW, testKeys, testPorts } from "./support/ports.js";

const context = { requester: member };
const okBody = (extra: Record<string, unknown> = {}) =>
  ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" }, ...extra });

async function addedPayload(request: Record<string, unknown>, overrides = {}) {
  const ports = testPorts(overrides);
  const result = await createHumanUser(ports, request, context);
  expect(result.isOk(), JSON.stringify(result)).toBe(true);
  return ports.storage.events()[0]?.payload;
}

describe("profile", () => {
  it("defaults a blank display name to given and family name, trims names, canonicalizes the language", async () => {
    expect(
      await addedPayload({
        profile: { givenName: "  Ann ", familyName: " Lee", displayName: "   ", nickName: " annie ", preferredLanguage: "DE-ch", gender: 1 },
        email: { email: " ann@acme.test " },
      }),
    ).toEqual({
      userName: "ann@acme.test",
      firstName: "Ann",
      lastName: "Lee",
      nickName: "annie",
      displayName: "Ann Lee",
      preferredLanguage: "de-CH",
      gender: "GENDER_FEMALE",
      email: "ann@acme.test",
    });
  });

  it.each([
    ["en", "en"],
    ["zh-hant-tw", "zh-Hant-TW"],
    ["EN-gb", "en-GB"],
    ["en_US", "und"],
    ["not a tag", "und"],
    ["12345", "und"],
    ["", "und"],
  ])("stores the language %j as %j and never refuses the request for it", async (given, stored) => {
    const payload = await addedPayload({ ...minimalCreate(), profile: { givenName: "A", familyName: "B", preferredLanguage: given } });
    expect(payload?.["preferredLanguage"]).toBe(stored);
  });

  it.each([
    ["GENDER_UNSPECIFIED", "GENDER_UNSPECIFIED"],
    ["GENDER_MALE", "GENDER_MALE"],
    [3, "GENDER_DIVERSE"],
    [0, "GENDER_UNSPECIFIED"],
  ])("accepts the gender %j by name or number and writes %j", async (given, stored) => {
    const payload = await addedPayload({ ...minimalCreate(), profile: { givenName: "A", familyName: "B", gender: given } });
    expect(payload?.["gender"]).toBe(stored);
  });

  it.each([4, -1, 1.5, "female", "GENDER_OTHER", true])("refuses the gender %j", async (given) => {
    const ports = testPorts();
    const result = await createHumanUser(ports, { ...minimalCreate(), profile: { givenName: "A", familyName: "B", gender: given } }, context);
    expect(result).toEqual(
      err(invalidBody([{ field: "profile.gender", description: "must be one of GENDER_UNSPECIFIED, GENDER_FEMALE, GENDER_MALE, GENDER_DIVERSE (or 0 to 3)" }])),
    );
  });

  it("refuses members of the wrong type, naming each", async () => {
    const ports = testPorts();
    const result = await createHumanUser(
      ports,
      { userId: 7, profile: { givenName: ["Ann"], familyName: "Lee", nickName: {} }, email: { email: "ann@acme.test", isVerified: "yes" }, metadata: {} },
      context,
    );
    expect(result).toEqual(
      err(
        invalidBody([
          { field: "userId", description: "must be a string" },
          { field: "profile.givenName", description: "must be a string" },
          { field: "profile.nickName", description: "must be a string" },
          { field: "email.isVerified", description: "must be true or false" },
          { field: "metadata", description: "must be a list" },
        ]),
      ),
    );
  });
});

describe("username and email", () => {
  it("trims the username and stores it in NFC; the email is trimmed and kept as given", async () => {
    const payload = await addedPayload({ ...minimalCreate(), username: "  Jose\u0301 ", email: { email: "  Ann.Lee@ACME.test " } });
    expect(payload?.["userName"]).toBe("Jos\u00e9");
    expect(payload?.["email"]).toBe("Ann.Lee@ACME.test");
  });

  // As RFC 5322's addr-spec (and ZITADEL's check, Go's mail.ParseAddress without a display name):
  // a one-label domain, quoted local parts and domain literals are addresses too.
  it.each([
    "ann.lee+news@example.co.uk",
    "o'brien@example.org",
    "ann@sub.domain.example",
    "jörg@bücher.example",
    "x@a-b.io",
    "ann@localhost",
    "ann@1.2.3.4",
    "ann@[192.0.2.1]",
    "ann@[IPv6:2001:db8::1]",
    "\"ann lee\"@example.com",
    "ann@-example.com",
    "a".repeat(70) + "@example.com",
  ])(
    "accepts the address %s",
    async (email) => {
      expect((await addedPayload({ ...minimalCreate(), email: { email } }))?.["email"]).toBe(email);
    },
  );

  it.each([
    "Ann Lee <ann@example.com>",
    "ann",
    "ann@",
    "@example.com",
    "ann@@example.com",
    "ann..lee@example.com",
    ".ann@example.com",
    "ann.@example.com",
    "ann@example..com",
    "ann@example.com.",
    "ann lee@example.com",
    "<ann@example.com>",
    "ann@example.com (Ann)",
    "\"ann\"lee@example.com",
    "\"\"@example.com",
    "ann@[192.0.2.1",
    "ann@[192.0.[2].1]",
    // A domain literal is an IP address (as Go's parser asks), and a quoted local part holds no
    // character a mailer reads as address syntax: either could send the code to another address.
    "ann@[<victim@evil.test>]",
    "ann@[,victim@evil.test,]",
    "ann@[999.0.2.1]",
    "\"<victim@evil.test>\"@acme.test",
    "\"a,b\"@acme.test",
    "\"ann\\\"s\"@example.com",
    "ann@exam ple.com",
    // nodemailer trims a quoted local part: `" a"` would be mailed to `a`, another mailbox.
    "\" a\"@acme.test",
    "\"a \"@acme.test",
    "\" \"@acme.test",
    "\"\u00a0a\"@acme.test",
    "\"a\u3000\"@acme.test",
  ])("refuses the address %j", async (email) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), email: { email } }, context)).toEqual(
      err(invalidBody([{ field: "email.email", description: "is not a valid email address" }])),
    );
  });
});

describe("phone", () => {
  it("normalizes a global number to E.164", async () => {
    const payload = await addedPayload({ ...minimalCreate(), phone: { phone: "+41 (79) 123-45.67", isVerified: true } });
    expect(payload?.["phone"]).toBe("+41791234567");
  });

  it("reads a number without + in the configured default region", async () => {
    const payload = await addedPayload({ ...minimalCreate(), phone: { phone: "079 123 45 67", isVerified: true } }, { config: { defaultPhoneRegion: "CH" } });
    expect(payload?.["phone"]).toBe("+41791234567");
  });

  it("refuses a number without + when no default region is configured", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), phone: { phone: "079 123 45 67" } }, context)).toEqual(
      err(invalidBody([{ field: "phone.phone", description: "must start with + and the country code (no default region is configured)" }])),
    );
  });

  it.each(["+", "+1", "+999 123 456", "+hello", "+41 abc"])("refuses %j, which cannot be parsed", async (phone) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), phone: { phone } }, context)).toEqual(
      err(invalidBody([{ field: "phone.phone", description: "is not a phone number that can be parsed" }])),
    );
  });

  it.each(["+4179123456789123456", "+41 79 123 45 67 89 12 34 56", "+1234567890123456"])("refuses %j, longer than the 15 digits of E.164", async (phone) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), phone: { phone, isVerified: true } }, context)).toEqual(
      err(invalidBody([{ field: "phone.phone", description: "has more than the 15 digits an E.164 number may have" }])),
    );
    expect(ports.storage.events()).toEqual([]);
  });

  it("takes a number of exactly 15 digits", async () => {
    const payload = await addedPayload({ ...minimalCreate(), phone: { phone: "+41 79 123 45 67 8901", isVerified: true } });
    expect(payload?.["phone"]).toBe("+417912345678901");
  });

  const UNPARSED = "is not a phone number that can be parsed";
  // The parser reads a last group after "#", "," or "~" (dialling marks) as an extension, and
  // E.164 leaves extensions out: the digits were cut off the number, and an SMS went to the rest.
  const UNNAMED_EXTENSION = 'has digits read as an extension (after "#", ",", "~" or "x") that the number needs: write an extension after the whole number, as "ext. 12", or leave it out';
  it.each([
    ["+1 800 FLOWERS", {}, UNPARSED],
    ["+41 79 CALL ME", {}, UNPARSED],
    ["+41 79 123 45 67; DROP TABLE x", {}, UNPARSED],
    ["+41 79 1234567x", {}, UNPARSED],
    ["079 CALL ME", { defaultPhoneRegion: "CH" }, UNPARSED],
    ["+41 79 123 45 67#", {}, UNNAMED_EXTENSION],
    ["+41-79-123-45-67#", {}, UNNAMED_EXTENSION],
    ["+41 79 123 45,67", {}, UNNAMED_EXTENSION],
    ["+41 79 123 45 ~67", {}, UNNAMED_EXTENSION],
    ["079 123 45 67#", { defaultPhoneRegion: "CH" }, UNNAMED_EXTENSION],
    ["+41 79 123 45 x 67", {}, UNNAMED_EXTENSION],
    ["+41 79 123 45 ext 67", {}, UNNAMED_EXTENSION],
    ["079 123 45 ext 67", { defaultPhoneRegion: "CH" }, UNNAMED_EXTENSION],
  ])("refuses %j whole, rather than storing the number found at its start", async (phone, config, description) => {
    const ports = testPorts({ config });
    expect(await createHumanUser(ports, { ...minimalCreate(), phone: { phone, isVerified: true } }, context)).toEqual(
      err(invalidBody([{ field: "phone.phone", description }])),
    );
    expect(ports.storage.events()).toEqual([]);
  });

  it.each(["+41 79 123 45 67 ext. 12", "+41 79 123 45 67 x12", "+41791234567;ext=12"])("takes %j, leaving out the extension it names", async (phone) => {
    const payload = await addedPayload({ ...minimalCreate(), phone: { phone, isVerified: true } });
    expect(payload?.["phone"]).toBe("+41791234567");
  });

  it("reads a number written with a trunk prefix in brackets, slashes or an extension, as libphonenumber does", async () => {
    for (const phone of ["+41 (0)79 123 45 67", "+41/79/123 45 67", "+41 79 123 45 67 ext. 12"]) {
      const payload = await addedPayload({ ...minimalCreate(), phone: { phone, isVerified: true } });
      expect(payload?.["phone"]).toBe("+41791234567");
    }
  });

  it("allows only one of sendCode, returnCode and isVerified", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), phone: { phone: "+41791234567", sendCode: {}, isVerified: false } }, context)).toEqual(
      err(invalidBody([{ field: "phone", description: "only one of sendCode, returnCode, isVerified may be set" }])),
    );
  });
});

describe("metadata", () => {
  it("decodes standard and URL-safe base64, padded or not, and stores the bytes; a repeated key keeps its last value", async () => {
    const ports = testPorts();
    const result = await createHumanUser(
      ports,
      {
        ...minimalCreate(),
        metadata: [
          { key: "std", value: "+/8=" },
          { key: "url", value: "-_8" },
          { key: "std", value: "aGk" },
          { key: "plain", value: "aGVsbG8gd29ybGQ=" },
        ],
      },
      context,
    );
    expect(result).toEqual(ok({ userId: FIRST_ID, details: { sequence: "5", changeDate: NOW, resourceOwner: "acme" } }));
    expect(ports.storage.events().slice(2).map((event) => [event.type, event.payload])).toEqual([
      ["user.metadata.set", { key: "std", value: "aGk=" }],
      ["user.metadata.set", { key: "url", value: "+/8=" }],
      ["user.metadata.set", { key: "plain", value: "aGVsbG8gd29ybGQ=" }],
    ]);
  });

  it.each(["a", "ab=c", "ab==c", "a===", "+_8=", "aGk= ", "aG k", "aGVsbG8=="])("refuses the value %j", async (value) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), metadata: [{ key: "k", value }] }, context)).toEqual(
      err(invalidBody([{ field: "metadata[0].value", description: "must be base64 encoded" }])),
    );
  });
});

describe("passwords", () => {
  const recordingHasher = (): PasswordHasher & { seen: string[] } => {
    const seen: string[] = [];
    return { name: "recording", seen, hash: (password) => (seen.push(password), Promise.resolve(fakeHash(password))), isCurrent: () => true };
  };

  it("hashes a plain password with the configured hasher and stores only the hash, with changeRequired", async () => {
    const hasher = recordingHasher();
    const ports = testPorts({ passwordHasher: hasher });
    const result = await createHumanUser(ports, { ...minimalCreate(), password: { password: "Secr3t!pw", changeRequired: true } }, context);
    expect(result).toEqual(okBody());
    expect(hasher.seen).toEqual(["Secr3t!pw"]);
    expect(ports.storage.events()[0]?.payload).toMatchObject({ encodedHash: fakeHash("Secr3t!pw"), changeRequired: true });
    expect(JSON.stringify(ports.storage.snapshot())).not.toContain("Secr3t!pw");
  });

  it("stores a password that verifies later with verifyPassword (default hasher)", async () => {
    const ports = testPorts();
    await createHumanUser(ports, { ...minimalCreate(), password: { password: "Secr3t!pw" } }, context);
    const stored = ports.storage.events()[0]?.payload["encodedHash"];
    expect(typeof stored).toBe("string");
    expect(await verifyPassword(String(stored), "Secr3t!pw")).toEqual(ok({ valid: true, needsRehash: false }));
    expect(ports.storage.events()[0]?.payload["changeRequired"]).toBe(false);
  });

  it("checks the default policy, reporting each rule broken", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), password: { password: "abcdefg" } }, context)).toEqual(
      err(
        invalidBody([
          { field: "password.password", description: "must be at least 8 characters long" },
          { field: "password.password", description: "must contain an upper-case letter" },
          { field: "password.password", description: "must contain a digit" },
          { field: "password.password", description: "must contain a symbol" },
        ]),
      ),
    );
  });

  it.each(["Aa1!aaaa", "Aa1 aaaa", "Aa1éaaaa", "ÄAa1aaaa"])("counts any character outside A-Z, a-z, 0-9 as a symbol: %j passes", async (password) => {
    const ports = testPorts({ passwordHasher: recordingHasher() });
    expect((await createHumanUser(ports, { ...minimalCreate(), password: { password } }, context)).isOk()).toBe(true);
  });

  it("counts the minimum length in characters", async () => {
    const ports = testPorts({ passwordHasher: recordingHasher() });
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "a", password: { password: "Aa1😀😀😀😀😀" } }, context)).isOk()).toBe(true);
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "b", password: { password: "Aa1😀😀😀😀" } }, context))._unsafeUnwrapErr()).toEqual(
      invalidBody([{ field: "password.password", description: "must be at least 8 characters long" }]),
    );
  });

  it("applies the organization's own policy", async () => {
    const policy = { passwordComplexity: { minLength: 4, hasUppercase: false, hasSymbol: false, hasNumber: false, hasLowercase: true } };
    const ports = testPorts({ passwordHasher: recordingHasher() }, { organizations: [{ id: "acme", domains: [], policy }] });
    expect((await createHumanUser(ports, { ...minimalCreate(), password: { password: "abcd" } }, context)).isOk()).toBe(true);
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "x", password: { password: "ABCD" } }, context))._unsafeUnwrapErr()).toEqual(
      invalidBody([{ field: "password.password", description: "must contain a lower-case letter" }]),
    );
  });

  it("imports a bcrypt hash as given", async () => {
    const hash = "$2b$04$Qe2lsy1SbQJd3ZAE0RNCVuXs0YkqXCwbwjzm.6t6r8s1RkUb5eHhO";
    const payload = await addedPayload({ ...minimalCreate(), hashedPassword: { hash } });
    expect(payload).toMatchObject({ encodedHash: hash, changeRequired: false });
  });

  it("refuses a hash that does not parse without echoing it", async () => {
    const ports = testPorts();
    const hash = "$2b$04$Qe2lsy1SbQJd3ZAE0RNCVuXs0YkqXCwbwjzm.6t6r8s1RkUb5eH";
    const result = await createHumanUser(ports, { ...minimalCreate(), hashedPassword: { hash } }, context);
    const body = result._unsafeUnwrapErr();
    expect(body.code).toBe(3);
    expect(JSON.stringify(body)).not.toContain("Qe2lsy1SbQJd3ZAE0RNCVu");
    expect(body.details[1]).toMatchObject({ fieldViolations: [{ field: "hashedPassword.hash" }] });
  });

  it("refuses a hash whose cost is out of bounds before hashing anything", async () => {
    const ports = testPorts();
    const result = await createHumanUser(ports, { ...minimalCreate(), hashedPassword: { hash: "$2b$31$Qe2lsy1SbQJd3ZAE0RNCVuXs0YkqXCwbwjzm.6t6r8s1RkUb5eHhO" } }, context);
    expect(result).toEqual(err(invalidBody([{ field: "hashedPassword.hash", description: "bcrypt hash: cost is out of range (4..15)" }])));
  });

  it("applies bounds given member by member, the others keeping their defaults", async () => {
    const ports = testPorts({ hashBounds: { bcryptMaxCost: 5 } });
    const cost10 = "$2b$10$Qe2lsy1SbQJd3ZAE0RNCVuXs0YkqXCwbwjzm.6t6r8s1RkUb5eHhO";
    expect(await createHumanUser(ports, { ...minimalCreate(), hashedPassword: { hash: cost10 } }, context)).toEqual(
      err(invalidBody([{ field: "hashedPassword.hash", description: "bcrypt hash: cost is out of range (4..5)" }])),
    );
    const argon2Huge = "$argon2id$v=19$m=1048576,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0bAlTGOFNbSfF8bI7WY3lWhb0vcBmLLl2W2q4wMnwYU";
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "b", hashedPassword: { hash: argon2Huge } }, context))._unsafeUnwrapErr().code).toBe(3);
  });

  it("refuses a password and a hashed password together", async () => {
    const ports = testPorts();
    const result = await createHumanUser(
      ports,
      { ...minimalCreate(), password: { password: "Secr3t!pw" }, hashedPassword: { hash: "$2b$04$Qe2lsy1SbQJd3ZAE0RNCVuXs0YkqXCwbwjzm.6t6r8s1RkUb5eHhO" } },
      context,
    );
    expect(result).toEqual(err(invalidBody([{ field: "password", description: "password and hashedPassword cannot both be set" }])));
  });
});

describe("URL templates", () => {
  const send = async (urlTemplate: string, userId = "ann/1 &2") => {
    const ports = testPorts();
    const result = await createHumanUser(ports, { ...minimalCreate(), userId, email: { email: "ann@acme.test", sendCode: { urlTemplate } } }, context);
    return { result, ports };
  };

  it("fills the placeholders, spaces inside braces allowed, URL-encoding each value", async () => {
    const { result, ports } = await send("https://app.test/verify/{{ .UserID }}?c={{.Code}}&o={{  .OrgID}}");
    expect(result.isOk()).toBe(true);
    expect(ports.mailer.sent.map((mail) => mail.link)).toEqual(["https://app.test/verify/ann%2F1%20%262?c=AAAAAA&o=acme"]);
  });

  it.each([
    ["https://app.test/{{.Email}}", "has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})"],
    ["https://app.test/{{UserID}}", "has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})"],
    ["https://app.test/{{.UserID}", "has unbalanced braces"],
    ["https://app.test/{.UserID}}", "has unbalanced braces"],
    ["https://app.test/}}", "has unbalanced braces"],
    ["https://app.test/{{.Code}}}", "has unbalanced braces"],
    ["/verify?code={{.Code}}", "must give an absolute http or https URL"],
    ["ftp://app.test/{{.Code}}", "must give an absolute http or https URL"],
    ["javascript:alert({{.Code}})", "must give an absolute http or https URL"],
    ["{{.OrgID}}://x", "must give an absolute http or https URL"],
    // No host: the URL parser would read the first path segment (the code) as one.
    ["https:///{{.Code}}", "must give an absolute http or https URL"],
    ["https:////app.test/{{.Code}}", "must give an absolute http or https URL"],
    ["http://", "must give an absolute http or https URL"],
    // The URL parser drops tabs and line breaks, so the code would be read as the host again.
    ["https://\t/{{.Code}}", "must give an absolute http or https URL"],
    ["HTTPS://\n/{{.Code}}", "must give an absolute http or https URL"],
    ["https://app.test/\r{{.Code}}", "must give an absolute http or https URL"],
  ])("refuses %j", async (template, description) => {
    const { result, ports } = await send(template);
    expect(result).toEqual(err(invalidBody([{ field: "email.sendCode.urlTemplate", description }])));
    expect(ports.storage.events()).toEqual([]);
  });

  it("refuses a template whose link, filled with the request's own user id, is no absolute URL: the id lands in its host", async () => {
    const { result, ports } = await send("https://x.test{{.UserID}}/verify?code={{.Code}}", "@evil.test");
    expect(result).toEqual(err(invalidBody([{ field: "email.sendCode.urlTemplate", description: "must give an absolute http or https URL with this user's id" }])));
    expect(ports.storage.events()).toEqual([]);
    // The same template with an id that fits a host name is taken.
    expect((await send("https://x.test{{.UserID}}/verify?code={{.Code}}", "1")).result.isOk()).toBe(true);
  });

  it("refuses a user id that makes the configured link no absolute URL, naming the id", async () => {
    const ports = testPorts({ config: { emailVerificationUrlTemplate: "https://{{.UserID}}.app.test/verify?code={{.Code}}" } });
    const result = await createHumanUser(ports, { ...minimalCreate(), userId: "a b" }, context);
    expect(result).toEqual(err(invalidBody([{ field: "userId", description: "cannot be put into the configured link template: it makes no absolute http or https URL" }])));
    expect(ports.storage.events()).toEqual([]);
  });
});

describe("TOTP secret", () => {
  const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"; // 20 bytes

  async function totpEvents(totpSecret: string) {
    const ports = testPorts();
    const result = await createHumanUser(ports, { ...minimalCreate(), totpSecret }, context);
    return { result, events: ports.storage.events().filter((event) => event.type.startsWith("user.human.mfa.otp")) };
  }

  it.each([
    secret,
    secret.toLowerCase(),
    "JBSWY3DPEHPK3PXPJBSWY3DPEE======", // 16 bytes, padded
    "JBSWY3DPEHPK3PXPJBSWY3DPEE",
    `otpauth://totp/ACME:ann?secret=${secret}&issuer=ACME`,
    `otpauth://totp/ann?secret=${secret}&algorithm=SHA1&digits=6&period=30`,
  ])("accepts %s, storing the secret encrypted and the factor active", async (totpSecret) => {
    const { result, events } = await totpEvents(totpSecret);
    expect(result).toEqual(ok({ userId: FIRST_ID, details: { sequence: "4", changeDate: NOW, resourceOwner: "acme" } }));
    expect(events.map((event) => event.type)).toEqual(["user.human.mfa.otp.added", "user.human.mfa.otp.verified"]);
    expect(JSON.stringify(events)).not.toMatch(/JBSWY3DPEHPK3PXP/i);
  });

  it("encrypts with AES-256-GCM under the configured key: the stored value decrypts to the secret", async () => {
    const { events } = await totpEvents(secret);
    const stored = events[0]?.payload["secret"] as { algorithm: string; keyId: string; crypted: string };
    expect({ algorithm: stored.algorithm, keyId: stored.keyId }).toEqual({ algorithm: "AES-256-GCM", keyId: "test-key" });
    const bytes = Buffer.from(stored.crypted, "base64");
    const decipher = createDecipheriv("aes-256-gcm", testKeys.encryptionKey, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
    expect(plain.toString("hex")).toBe("48656c6c6f21deadbeef".repeat(2));
  });

  it.each([
    ["JBSWY3DPEHPK3PXP", "must hold at least 128 bits"],
    ["JBSWY3DPEHPK3PX1", "is not valid base32"],
    ["JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP=", "is not valid base32"],
    ["JBSWY3DPEHPK3PXPJBSWY3DPE", "is not valid base32"],
    [`otpauth://hotp/ann?secret=${secret}&counter=0`, "must be an otpauth://totp/ URI (HOTP is not supported)"],
    [`otpauth://HOTP?secret=${secret}`, "must be an otpauth://totp/ URI (HOTP is not supported)"],
    [`otpauth://totp?secret=${secret}`, "must be an otpauth://totp/ URI: otpauth://totp/ then the label, then ?secret="],
    [`otpauth://steam/ann?secret=${secret}`, "must be an otpauth://totp/ URI: otpauth://totp/ then the label, then ?secret="],
    [`otpauth://totp/ann?secret=${secret}&algorithm=SHA256`, "must use the SHA1 algorithm"],
    [`otpauth://totp/ann?secret=${secret}&digits=8`, "must use 6 digits"],
    [`otpauth://totp/ann?secret=${secret}&period=60`, "must use a 30-second period"],
    ["otpauth://totp/ann?secret=JBSWY3DPEHPK3PXP", "must hold at least 128 bits"],
    ["otpauth://totp/ann?issuer=x", "is not a valid otpauth URI or its secret is not valid base32"],
    [`otpauth://totp/ann?secret=${secret}&encoder=steam`, "must make 6-digit codes (no encoder parameter)"],
    [`otpauth://totp/ann?secret=${secret}&algorithm=SHA256&algorithm=SHA1`, "must give each parameter once (algorithm is repeated)"],
    [`otpauth://totp/ann?secret=${secret}&secret=JBSWY3DPEHPK3PXP`, "must give each parameter once (secret is repeated)"],
  ])("refuses %j: %s", async (totpSecret, description) => {
    const { result, events } = await totpEvents(totpSecret);
    expect(result).toEqual(err(invalidBody([{ field: "totpSecret", description }])));
    expect(events).toEqual([]);
  });
});

describe("default username", () => {
  it("stores a username taken from the email in NFC, like a given one", async () => {
    const payload = await addedPayload({ ...minimalCreate(), email: { email: "jose\u0301@acme.test" } });
    expect(payload?.["userName"]).toBe("jos\u00e9@acme.test");
    expect(payload?.["email"]).toBe("jose\u0301@acme.test");
  });
});
