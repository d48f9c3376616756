// Every limit of createHumanUser's table, at its boundary and one past it. Lengths count
// characters (code points): each limit is also tried with astral characters, two UTF-16 units each.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { fakeHash } from "./support/import-fixtures.js";
import { createHumanUser } from "../../src/index.js";
import { invalidBody, member, minimalCreate, testPorts } from "./support/ports.js";

type Request = Record<string, unknown>;
const context = { requester: member };
const base = minimalCreate;

interface Limit {
  readonly field: string;
  readonly max: number;
  readonly min: number;
  /** A valid value of exactly `length` characters, built from `unit` where the field allows it. */
  readonly value: (length: number, unit: string) => string;
  readonly request: (value: string) => Request;
  /** The field allows any character (an astral one counts as one). */
  readonly anyCharacter: boolean;
}

/** `aaa...@bbb.bbb...test`: a valid address of exactly `length` characters (labels under 64). */
function emailOfLength(length: number): string {
  const local = "a".repeat(Math.min(64, length - 7));
  let domain = "test";
  while (local.length + 1 + domain.length < length) {
    const room = length - local.length - 1 - domain.length - 1;
    domain = `${"b".repeat(Math.max(1, Math.min(63, room)))}.${domain}`;
  }
  return `${local}@${domain}`;
}

const repeat = (length: number, unit: string) => unit.repeat(length);
const withProfile = (member: string) => (value: string): Request => ({ ...base(), profile: { givenName: "Ann", familyName: "Lee", [member]: value } });
const validPassword = (length: number) => `Aa1!${"x".repeat(length - 4)}`;

const limits: Limit[] = [
  { field: "userId", min: 1, max: 200, value: repeat, anyCharacter: true, request: (userId) => ({ ...base(), userId }) },
  { field: "username", min: 1, max: 200, value: repeat, anyCharacter: true, request: (username) => ({ ...base(), username }) },
  { field: "profile.givenName", min: 1, max: 200, value: repeat, anyCharacter: true, request: withProfile("givenName") },
  { field: "profile.familyName", min: 1, max: 200, value: repeat, anyCharacter: true, request: withProfile("familyName") },
  { field: "profile.nickName", min: 0, max: 200, value: repeat, anyCharacter: true, request: withProfile("nickName") },
  { field: "profile.displayName", min: 0, max: 200, value: repeat, anyCharacter: true, request: withProfile("displayName") },
  { field: "profile.preferredLanguage", min: 0, max: 10, value: repeat, anyCharacter: true, request: withProfile("preferredLanguage") },
  {
    field: "email.email",
    min: 1,
    max: 200,
    value: emailOfLength,
    anyCharacter: false,
    request: (email) => ({ ...base(), email: { email } }),
  },
  {
    field: "email.sendCode.urlTemplate",
    min: 1,
    max: 200,
    value: (length) => `https://a.test/${"p".repeat(length - 15)}`,
    anyCharacter: false,
    request: (urlTemplate) => ({ ...base(), email: { email: "ann@acme.test", sendCode: { urlTemplate } } }),
  },
  {
    field: "metadata[0].key",
    min: 1,
    max: 200,
    value: repeat,
    anyCharacter: true,
    request: (key) => ({ ...base(), metadata: [{ key, value: "AQ==" }] }),
  },
  {
    field: "metadata[0].value",
    min: 1,
    max: 500_000,
    value: (length) => "A".repeat(length),
    anyCharacter: false,
    request: (value) => ({ ...base(), metadata: [{ key: "k", value }] }),
  },
  {
    field: "password.password",
    min: 1,
    max: 200,
    value: validPassword,
    anyCharacter: false,
    request: (password) => ({ ...base(), password: { password } }),
  },
  ...(["idpId", "userId", "userName"] as const).map((name): Limit => ({
    field: `idpLinks[0].${name}`,
    min: 1,
    max: 200,
    value: (length, unit) => (name === "idpId" ? "idp-acme" : repeat(length, unit)),
    anyCharacter: name !== "idpId",
    request: (value) => ({ ...base(), idpLinks: [{ idpId: "idp-acme", userId: "ext", userName: "ext", [name]: value }] }),
  })),
];

describe("createHumanUser's field limits", () => {
  for (const limit of limits) {
    describe(limit.field, () => {
      it(`accepts ${limit.max} characters`, async () => {
        if (limit.field.startsWith("idpLinks[0].idpId")) return; // provider ids are looked up: see the business-rule tests
        const ports = testPorts({ passwordHasher: fastHasher });
        const result = await createHumanUser(ports, limit.request(limit.value(limit.max, "x")), context);
        expect(result.isOk(), JSON.stringify(result)).toBe(true);
      });

      it(`refuses ${limit.max + 1} characters with the whole error body, writing nothing`, async () => {
        const ports = testPorts({ passwordHasher: fastHasher });
        const tooLong = limit.field.endsWith("idpId") ? "i".repeat(limit.max + 1) : limit.value(limit.max + 1, "x");
        const result = await createHumanUser(ports, limit.request(tooLong), context);
        const description = `must be at most ${limit.max} characters long`;
        expect(result).toEqual(err(invalidBody([{ field: limit.field, description }])));
        expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
      });

      if (limit.anyCharacter) {
        it(`counts characters, not UTF-16 units: ${limit.max} astral characters pass, ${limit.max + 1} do not`, async () => {
          const ports = testPorts();
          const astral = "😀";
          const within = await createHumanUser(ports, limit.request(repeat(limit.max, astral)), context);
          if (limit.field !== "profile.preferredLanguage") expect(within.isOk(), JSON.stringify(within)).toBe(true);
          else expect(within.isOk()).toBe(true); // stored as und, never refused
          const past = await createHumanUser(ports, limit.request(repeat(limit.max + 1, astral)), context);
          expect(past).toEqual(err(invalidBody([{ field: limit.field, description: `must be at most ${limit.max} characters long` }])));
        });
      }

      if (limit.min === 1) {
        it("refuses the empty string", async () => {
          const ports = testPorts();
          const result = await createHumanUser(ports, limit.request(""), context);
          expect(result).toEqual(err(invalidBody([{ field: limit.field, description: "must not be empty" }])));
        });
      }
    });
  }

  it("refuses a blank given name, family name, username and metadata key", async () => {
    const ports = testPorts();
    const result = await createHumanUser(
      ports,
      { username: "  ", profile: { givenName: " ", familyName: "\t" }, email: { email: "ann@acme.test" }, metadata: [{ key: "  ", value: "AQ" }] },
      context,
    );
    expect(result).toEqual(
      err(
        invalidBody([
          { field: "username", description: "must not be blank" },
          { field: "profile.givenName", description: "must not be blank" },
          { field: "profile.familyName", description: "must not be blank" },
          { field: "metadata[0].key", description: "must not be blank" },
        ]),
      ),
    );
  });

  it("refuses a phone number over 200 characters and takes an empty one as no phone", async () => {
    const ports = testPorts();
    const long = `+41${"1".repeat(198)}`;
    expect(await createHumanUser(ports, { ...base(), phone: { phone: long } }, context)).toEqual(
      err(invalidBody([{ field: "phone.phone", description: "must be at most 200 characters long" }])),
    );
    const result = await createHumanUser(ports, { ...base(), phone: { phone: "" } }, context);
    expect(result.isOk()).toBe(true);
    expect(ports.storage.events().map((event) => event.type)).toEqual(["user.human.added", "user.human.email.code.added"]);
  });

  it("refuses a phone number of only white space: only an empty one means no phone", async () => {
    const ports = testPorts();
    for (const blank of [" ", " \t ", "\n"]) {
      expect(await createHumanUser(ports, { ...base(), phone: { phone: blank, returnCode: {} } }, context)).toEqual(
        err(invalidBody([{ field: "phone.phone", description: "is blank: give a number, or leave it empty for no phone" }])),
      );
    }
    expect(ports.storage.events()).toEqual([]);
  });

  it("takes a TOTP secret of 2,000 characters and refuses one of 2,001 before decoding it", async () => {
    const ports = testPorts();
    const secret = (length: number): string => "A".repeat(length);
    const withSecret = (totpSecret: string, username: string) => ({ ...base(), username, totpSecret });
    expect((await createHumanUser(ports, withSecret(secret(2000), "long-secret"), context)).isOk()).toBe(true);
    expect(await createHumanUser(ports, withSecret(secret(2001), "too-long-secret"), context)).toEqual(
      err(invalidBody([{ field: "totpSecret", description: "must be at most 2000 characters long" }])),
    );
  });

  it("refuses a hash of 201 characters before parsing it", async () => {
    const ports = testPorts();
    const result = await createHumanUser(ports, { ...base(), hashedPassword: { hash: `$2b$04$${"a".repeat(194)}` } }, context);
    expect(result).toEqual(err(invalidBody([{ field: "hashedPassword.hash", description: "must be at most 200 characters long" }])));
  });

  it("reports every violation at once, in request order", async () => {
    const ports = testPorts();
    const result = await createHumanUser(
      ports,
      {
        totpSecret: "short1",
        userId: "",
        profile: { givenName: "", familyName: "x".repeat(201), gender: "GENDER_OTHER" },
        email: { email: "not-an-address" },
        metadata: [{ key: "ok", value: "AQ" }, { key: "k", value: "%%%" }],
      },
      context,
    );
    expect(result).toEqual(
      err(
        invalidBody([
          { field: "userId", description: "must not be empty" },
          { field: "profile.givenName", description: "must not be empty" },
          { field: "profile.familyName", description: "must be at most 200 characters long" },
          { field: "profile.gender", description: "must be one of GENDER_UNSPECIFIED, GENDER_FEMALE, GENDER_MALE, GENDER_DIVERSE (or 0 to 3)" },
          { field: "email.email", description: "is not a valid email address" },
          { field: "metadata[1].value", description: "must be base64 encoded" },
          { field: "totpSecret", description: "is not valid base32" },
        ]),
      ),
    );
  });
});

/** A hasher that costs nothing, for tests that are about limits, not hashing. */
const fastHasher = {
  name: "test",
  hash: (password: string) => Promise.resolve(fakeHash(password)),
  isCurrent: () => true,
};
