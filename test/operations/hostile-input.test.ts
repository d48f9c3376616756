// Requests that are valid JSON, or that only a program can build, and that must still be
// refused cheaply and alike on every store: text no store can hold (NUL, lone surrogates), lists
// long enough to amplify the error body, and values JSON cannot produce (shared-reference graphs,
// sparse arrays, Buffers, typed arrays, class instances).
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, importHumanUser, importHumanUsers, type BulkImportOutcome } from "../../src/index.js";
import { BCRYPT_HASH, fakeHasher, minimalImport } from "./support/import-fixtures.js";
import { FIRST_ID, invalidBody, member, minimalCreate, NOW, testPorts } from "./support/ports.js";

type Request = Record<string, unknown>;
const context = { requester: member };
/** The test ports with an instant hasher: nothing here is about hashing cost. */
const ports = () => testPorts({ passwordHasher: fakeHasher });

const NUL = "must not contain the NUL character (U+0000)";
const LONE = "must not contain an unpaired surrogate (U+D800 to U+DFFF)";
const STRONG_PASSWORD = "Sup3r$ecret-Passw0rd";
const TOTP = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** Where a text field sits in a request, and a valid value for it that `bad` is appended to. */
interface TextField {
  readonly field: string;
  readonly valid: string;
  readonly request: (value: string) => Request;
}

const create = minimalCreate;
const profileA = (name: string) => (value: string): Request => ({ ...create(), profile: { givenName: "Ann", familyName: "Lee", [name]: value } });
const idpLinkA = (name: string) => (value: string): Request => ({
  ...create(),
  idpLinks: [
    { idpId: "idp-acme", userId: "ext-0", userName: "ann" },
    { idpId: "idp-acme", userId: "ext-1", userName: "ann", [name]: value },
  ],
});

const createFields: TextField[] = [
  { field: "userId", valid: "ann-1", request: (userId) => ({ ...create(), userId }) },
  { field: "username", valid: "ann", request: (username) => ({ ...create(), username }) },
  { field: "organization.orgId", valid: "acme", request: (orgId) => ({ ...create(), organization: { orgId } }) },
  { field: "organization.orgDomain", valid: "acme.test", request: (orgDomain) => ({ ...create(), organization: { orgDomain } }) },
  { field: "profile.givenName", valid: "Ann", request: profileA("givenName") },
  { field: "profile.familyName", valid: "Lee", request: profileA("familyName") },
  { field: "profile.nickName", valid: "annie", request: profileA("nickName") },
  { field: "profile.displayName", valid: "Ann Lee", request: profileA("displayName") },
  { field: "profile.preferredLanguage", valid: "de", request: profileA("preferredLanguage") },
  { field: "email.email", valid: "ann@acme.test", request: (email) => ({ ...create(), email: { email } }) },
  { field: "email.sendCode.urlTemplate", valid: "https://acme.test/{{.Code}}", request: (urlTemplate) => ({ ...create(), email: { email: "ann@acme.test", sendCode: { urlTemplate } } }) },
  { field: "phone.phone", valid: "+41791234567", request: (phone) => ({ ...create(), phone: { phone } }) },
  { field: "metadata[1].key", valid: "k", request: (key) => ({ ...create(), metadata: [{ key: "a", value: "AQ==" }, { key, value: "AQ==" }] }) },
  { field: "metadata[1].value", valid: "AQ==", request: (value) => ({ ...create(), metadata: [{ key: "a", value: "AQ==" }, { key: "b", value }] }) },
  { field: "password.password", valid: STRONG_PASSWORD, request: (password) => ({ ...create(), password: { password } }) },
  { field: "hashedPassword.hash", valid: BCRYPT_HASH, request: (hash) => ({ ...create(), hashedPassword: { hash } }) },
  { field: "idpLinks[1].idpId", valid: "idp-acme", request: idpLinkA("idpId") },
  { field: "idpLinks[1].userId", valid: "ext-1", request: idpLinkA("userId") },
  { field: "idpLinks[1].userName", valid: "ann", request: idpLinkA("userName") },
  { field: "totpSecret", valid: TOTP, request: (totpSecret) => ({ ...create(), totpSecret }) },
];

const profileB = (name: string) => (value: string): Request => ({ ...minimalImport(), profile: { firstName: "Ann", lastName: "Lee", [name]: value } });
const idpB = (name: string) => (value: string): Request => ({ ...minimalImport(), idps: [{ configId: "idp-acme", externalUserId: "ext-1", displayName: "Ann", [name]: value }] });

const importFields: TextField[] = [
  { field: "userName", valid: "ann", request: (userName) => ({ ...minimalImport(), userName }) },
  { field: "profile.firstName", valid: "Ann", request: profileB("firstName") },
  { field: "profile.lastName", valid: "Lee", request: profileB("lastName") },
  { field: "profile.nickName", valid: "annie", request: profileB("nickName") },
  { field: "profile.displayName", valid: "Ann Lee", request: profileB("displayName") },
  { field: "profile.preferredLanguage", valid: "de", request: profileB("preferredLanguage") },
  { field: "email.email", valid: "ann@acme.test", request: (email) => ({ ...minimalImport(), email: { email } }) },
  { field: "phone.phone", valid: "+41791234567", request: (phone) => ({ ...minimalImport(), phone: { phone } }) },
  { field: "password", valid: STRONG_PASSWORD, request: (password) => ({ ...minimalImport(), password }) },
  { field: "hashedPassword.value", valid: BCRYPT_HASH, request: (value) => ({ ...minimalImport(), hashedPassword: { value } }) },
  { field: "idps[0].configId", valid: "idp-acme", request: idpB("configId") },
  { field: "idps[0].externalUserId", valid: "ext-1", request: idpB("externalUserId") },
  { field: "idps[0].displayName", valid: "Ann", request: idpB("displayName") },
];

/** Text no store can hold, and the violation it must answer. */
const unstorable: readonly (readonly [name: string, suffix: string, description: string])[] = [
  ["a NUL character", "\u0000", NUL],
  ["a NUL character inside", "\u0000x", NUL],
  ["a lone high surrogate", "\ud800", LONE],
  ["a lone low surrogate", "\udc00", LONE],
  ["a low surrogate before a high one", "\udc00\ud800", LONE],
];

const cases = (fields: readonly TextField[]) =>
  fields.flatMap((field) => unstorable.map(([name, suffix, description]) => [`${field.field} with ${name}`, field, suffix, description] as const));

describe("text no store can hold", () => {
  it.each(cases(createFields))("createHumanUser refuses %s, naming the field, and writes nothing", async (_name, field, suffix, description) => {
    const store = ports();
    const result = await createHumanUser(store, field.request(field.valid + suffix), context);
    expect(result).toEqual(err(invalidBody([{ field: field.field, description }])));
    expect(store.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it.each(cases(importFields))("importHumanUser refuses %s, naming the field, and writes nothing", async (_name, field, suffix, description) => {
    const store = ports();
    const result = await importHumanUser(store, field.request(field.valid + suffix), context);
    expect(result).toEqual(err(invalidBody([{ field: field.field, description }])));
    expect(store.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it("accepts every field of both operations with its valid value (the cases above differ only in the character)", async () => {
    for (const field of createFields) expect((await createHumanUser(ports(), field.request(field.valid), context)).isOk(), field.field).toBe(true);
    for (const field of importFields) expect((await importHumanUser(ports(), field.request(field.valid), context)).isOk(), field.field).toBe(true);
  });

  it("accepts characters outside the Basic Multilingual Plane: a surrogate pair is one character", async () => {
    const store = ports();
    const result = await createHumanUser(store, { ...create(), profile: { givenName: "Ann 😀", familyName: "𝔏ee" } }, context);
    expect(result).toEqual(ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" } }));
    expect(store.storage.events()[0]?.payload).toMatchObject({ firstName: "Ann 😀", lastName: "𝔏ee" });
  });

  it("reports the NUL character in a valid JSON body (the character escaped as \\u0000)", async () => {
    const body = JSON.parse('{"profile":{"givenName":"Ann\\u0000","familyName":"Lee"},"email":{"email":"ann@acme.test"}}') as unknown;
    expect(await createHumanUser(ports(), body, context)).toEqual(err(invalidBody([{ field: "profile.givenName", description: NUL }])));
  });

  it("refuses the same text in a bulk import, for that item only", async () => {
    const store = ports();
    const items = [{ ...minimalImport(), userName: "ann\u0000" }, { ...minimalImport(), userName: "bob", email: { email: "bob@acme.test" } }];
    const outcomes: BulkImportOutcome[] = [];
    for await (const outcome of importHumanUsers(store, items, context)) outcomes.push(outcome);
    expect(outcomes.map((outcome) => ("error" in outcome ? { index: outcome.index, error: outcome.error } : { index: outcome.index }))).toEqual([
      { index: 0, error: invalidBody([{ field: "userName", description: NUL }]) },
      { index: 1 },
    ]);
  });
});
