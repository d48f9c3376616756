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

/** The whole body of a refusal whose violations were cut at the cap of 100: the first 100 listed. */
function cappedBody(violations: readonly { field: string; description: string }[]) {
  const listed = violations.slice(0, 100);
  const first = listed[0];
  const message = `${first?.field}: ${first?.description} (and 99 more violations listed; more were left out)`;
  return {
    code: 3,
    message,
    details: [
      { "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-1nv4", message },
      { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: listed },
    ],
  };
}

/** The two violations of one empty metadata entry. */
const emptyEntry = (index: number) => [
  { field: `metadata[${index}].key`, description: "is required" },
  { field: `metadata[${index}].value`, description: "is required" },
];

const metadataEntries = (count: number) => Array.from({ length: count }, (_, index) => ({ key: `k${index}`, value: "AQ==" }));
const idpLinks = (count: number) => Array.from({ length: count }, (_, index) => ({ idpId: "idp-acme", userId: `ext-${index}`, userName: "ann" }));
const idps = (count: number) => Array.from({ length: count }, (_, index) => ({ configId: "idp-acme", externalUserId: `ext-${index}` }));

describe("error amplification", () => {
  it("answers a 1 MiB body of 349,000 empty metadata objects with one violation on the list", async () => {
    const json = `{"profile":{"givenName":"Ann","familyName":"Lee"},"email":{"email":"ann@acme.test"},"metadata":[${Array(349_000).fill("{}").join(",")}]}`;
    expect(json.length).toBeGreaterThan(1_000_000);
    const store = ports();
    const result = await createHumanUser(store, JSON.parse(json) as unknown, context);
    expect(result).toEqual(err(invalidBody([{ field: "metadata", description: "must have at most 1000 entries" }])));
    expect(store.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it("takes 1000 metadata entries and refuses 1001 without checking them one by one", async () => {
    expect((await createHumanUser(ports(), { ...create(), metadata: metadataEntries(1000) }, context)).isOk()).toBe(true);
    const tooMany = [...metadataEntries(1000), {}];
    expect(await createHumanUser(ports(), { ...create(), metadata: tooMany }, context)).toEqual(
      err(invalidBody([{ field: "metadata", description: "must have at most 1000 entries" }])),
    );
  });

  it("takes 1000 identity-provider links and refuses 1001, in both operations", async () => {
    expect((await createHumanUser(ports(), { ...create(), idpLinks: idpLinks(1000) }, context)).isOk()).toBe(true);
    expect((await importHumanUser(ports(), { ...minimalImport(), idps: idps(1000) }, context)).isOk()).toBe(true);
    expect(await createHumanUser(ports(), { ...create(), idpLinks: idpLinks(1001) }, context)).toEqual(
      err(invalidBody([{ field: "idpLinks", description: "must have at most 1000 entries" }])),
    );
    expect(await importHumanUser(ports(), { ...minimalImport(), idps: idps(1001) }, context)).toEqual(
      err(invalidBody([{ field: "idps", description: "must have at most 1000 entries" }])),
    );
  });

  it("reports a list that is too long beside the other violations, in field order", async () => {
    const request = { ...create(), profile: { givenName: "", familyName: "Lee" }, metadata: Array(5000).fill({}), idpLinks: [{}] };
    expect(await createHumanUser(ports(), request, context)).toEqual(
      err(
        invalidBody([
          { field: "profile.givenName", description: "must not be empty" },
          { field: "metadata", description: "must have at most 1000 entries" },
          { field: "idpLinks[0].idpId", description: "is required" },
          { field: "idpLinks[0].userId", description: "is required" },
          { field: "idpLinks[0].userName", description: "is required" },
        ]),
      ),
    );
  });

  it("lists exactly 100 violations whole, without saying that any were left out", async () => {
    const result = await createHumanUser(ports(), { ...create(), metadata: Array(50).fill({}) }, context);
    expect(result).toEqual(err(invalidBody(Array.from({ length: 50 }, (_, index) => emptyEntry(index)).flat())));
  });

  it("lists the first 100 of 101 violations, in field order, and says that more were left out", async () => {
    const request = { ...create(), profile: { givenName: "", familyName: "Lee" }, metadata: Array(50).fill({}) };
    const all = [{ field: "profile.givenName", description: "must not be empty" }, ...Array.from({ length: 50 }, (_, index) => emptyEntry(index)).flat()];
    expect(await createHumanUser(ports(), request, context)).toEqual(err(cappedBody(all)));
  });

  it("stops at the cap in a list of 1000 empty entries: 100 violations listed of 2000", async () => {
    const result = await createHumanUser(ports(), { ...create(), metadata: Array(1000).fill({}) }, context);
    expect(result).toEqual(err(cappedBody(Array.from({ length: 50 }, (_, index) => emptyEntry(index)).flat())));
  });
});

class Account {
  readonly givenName = "Ann";
  readonly familyName = "Lee";
}

/** `[v, v]` thirty times over: a graph of 31 arrays that a walk would see as 2^30 leaves. */
function sharedGraph(): unknown {
  let graph: unknown = [];
  for (let i = 0; i < 30; i++) graph = [graph, graph];
  return graph;
}

const created = ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" } });

describe("values JSON cannot produce (programmatic callers)", () => {
  it("ignores a shared-reference graph in an unknown field, without walking it", async () => {
    expect(await createHumanUser(ports(), { ...create(), extra: sharedGraph() }, context)).toEqual(created);
  });

  it("refuses a shared-reference graph as metadata: each entry is a list where an object belongs", async () => {
    expect(await createHumanUser(ports(), { ...create(), metadata: sharedGraph() }, context)).toEqual(
      err(
        invalidBody([
          { field: "metadata[0]", description: "must be an object" },
          { field: "metadata[1]", description: "must be an object" },
        ]),
      ),
    );
  });

  it("refuses a sparse list of 4,000,000 entries as metadata with one violation, and ignores one in an unknown field", async () => {
    expect(await createHumanUser(ports(), { ...create(), metadata: new Array(4_000_000) }, context)).toEqual(
      err(invalidBody([{ field: "metadata", description: "must have at most 1000 entries" }])),
    );
    expect(await importHumanUser(ports(), { ...minimalImport(), idps: new Array(4_000_000) }, context)).toEqual(
      err(invalidBody([{ field: "idps", description: "must have at most 1000 entries" }])),
    );
    expect(await createHumanUser(ports(), { ...create(), extra: new Array(4_000_000) }, context)).toEqual(created);
  });

  it("ignores a 50 MB Buffer in an unknown field", async () => {
    expect(await createHumanUser(ports(), { ...create(), extra: Buffer.alloc(50_000_000) }, context)).toEqual(created);
  });

  it("refuses a 20 MB Uint8Array as givenName as a value of the wrong type", async () => {
    const request = { ...create(), profile: { givenName: new Uint8Array(20_000_000), familyName: "Lee" } };
    expect(await createHumanUser(ports(), request, context)).toEqual(err(invalidBody([{ field: "profile.givenName", description: "must be a string" }])));
  });

  it("refuses objects that are not plain data where an object or a list belongs, without reading them", async () => {
    const request = {
      organization: new Account(),
      profile: new Map([["givenName", "Ann"]]),
      email: new Date(0),
      phone: Buffer.from("+41791234567"),
      metadata: new Set([{ key: "a", value: "AQ==" }]),
      password: new Uint8Array(8),
    };
    expect(await createHumanUser(ports(), request, context)).toEqual(
      err(
        invalidBody([
          { field: "profile", description: "must be an object" },
          { field: "email", description: "must be an object" },
        ]),
      ),
    );
    // The organization is a field rule (optional, as phone is), so it is reported with them.
    const shaped = { ...create(), organization: new Account(), phone: Buffer.from("+41791234567"), metadata: new Set([{ key: "a", value: "AQ==" }]), password: new Uint8Array(8) };
    expect(await createHumanUser(ports(), shaped, context)).toEqual(
      err(
        invalidBody([
          { field: "organization", description: "must be an object" },
          { field: "phone", description: "must be an object" },
          { field: "metadata", description: "must be a list" },
          { field: "password", description: "must be an object" },
        ]),
      ),
    );
  });

  it("refuses a plain object's member that is not plain data, as the wrong type", async () => {
    const request = {
      ...create(),
      email: { email: "ann@acme.test", returnCode: new Date(0) },
      metadata: [new Map([["key", "a"]])],
      idpLinks: [{ idpId: "idp-acme", userId: new String("ext-1"), userName: "ann" }],
    };
    expect(await createHumanUser(ports(), request, context)).toEqual(
      err(
        invalidBody([
          { field: "email.returnCode", description: "must be an object" },
          { field: "metadata[0]", description: "must be an object" },
          { field: "idpLinks[0].userId", description: "must be a string" },
        ]),
      ),
    );
  });

  it("never calls a getter: a member defined by one is a value of the wrong type", async () => {
    let calls = 0;
    const profile = {
      familyName: "Lee",
      get givenName(): string {
        calls++;
        return "Ann";
      },
    };
    expect(await createHumanUser(ports(), { ...create(), profile }, context)).toEqual(
      err(invalidBody([{ field: "profile.givenName", description: "must be a string" }])),
    );
    expect(calls).toBe(0);
  });

  it("answers a plain object whose prototype is null like any other", async () => {
    const profile = Object.assign(Object.create(null) as Record<string, unknown>, { givenName: "Ann", familyName: "Lee" });
    expect(await createHumanUser(ports(), { ...create(), profile }, context)).toEqual(created);
  });
});
