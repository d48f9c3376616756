import { describe, expect, it } from "vitest";
import { ok } from "neverthrow";
import { camelCaseKeys, UNREAD_VALUE } from "../../src/core/wire/camel-case-keys.js";
import { MAX_LIST_ENTRIES, type FieldTree } from "../../src/core/wire/field-tree.js";
import { createRequestFields } from "../../src/core/schemas/create-human-user.js";
import { importRequestFields } from "../../src/core/schemas/import-human-user.js";
import { pruneEmpty } from "../../src/core/wire/prune.js";
import { durationSeconds, rfc3339 } from "../../src/core/wire/timestamp.js";

const members = (entries: Record<string, FieldTree>): FieldTree => ({ members: new Map(Object.entries(entries)) });

/** A tree as plain data: members by name, a list's entries under "[]", a leaf as "text". */
function outline(tree: FieldTree): unknown {
  if (tree.items !== undefined) return { "[]": outline(tree.items) };
  if (tree.members !== undefined) return Object.fromEntries([...tree.members].map(([name, below]) => [name, outline(below)]));
  return "text";
}

describe("the request copy", () => {
  const fields = members({
    userId: {},
    email: members({ isVerified: {}, returnCode: members({}) }),
    list: { items: members({ userId: {} }) },
  });

  it("copies only the named fields, renaming their snake_case spelling, the camelCase spelling winning a tie", () => {
    const request = { given_name: "a", email: { is_verified: true, other: 1 }, list: [{ user_id: "1", other: 2 }], userId: "x", user_id: "y", other: { deep: [1] } };
    expect(camelCaseKeys(request, fields)).toEqual(ok({ email: { isVerified: true }, list: [{ userId: "1" }], userId: "x" }));
  });

  it("never copies a __proto__ key, and copies into objects without a prototype", () => {
    const copy = camelCaseKeys(JSON.parse('{"__proto__": {"polluted": true}, "email": {"__proto__": {"isVerified": true}}}'), fields)._unsafeUnwrap() as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(null);
    expect(Object.getPrototypeOf(copy["email"])).toBe(null);
    expect(copy).toEqual({ email: {} });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("keeps primitives wherever they are, and puts UNREAD_VALUE for an object or a list where the field takes neither", () => {
    expect(camelCaseKeys({ userId: { a: 1 }, email: [1], list: "x" }, fields)).toEqual(ok({ userId: UNREAD_VALUE, email: UNREAD_VALUE, list: "x" }));
    expect(camelCaseKeys({ userId: 7n, email: 1, list: null }, fields)).toEqual(ok({ userId: 7n, email: 1, list: null }));
  });

  it("puts UNREAD_VALUE for anything that is not plain data, without reading it", () => {
    class Email {
      readonly isVerified = true;
    }
    const notPlain = [new Email(), new Map([["isVerified", true]]), new Date(0), Buffer.from("x"), new Uint8Array(4), () => ({})];
    for (const value of notPlain) expect(camelCaseKeys({ email: value }, fields), String(value)).toEqual(ok({ email: UNREAD_VALUE }));
    expect(camelCaseKeys(new Map(), fields)).toEqual(ok(UNREAD_VALUE));
    expect(camelCaseKeys({ email: { returnCode: new Date(0) } }, fields)).toEqual(ok({ email: { returnCode: UNREAD_VALUE } }));
  });

  it("never calls a getter, of an object or a list", () => {
    let calls = 0;
    const getter = { enumerable: true, get: () => ++calls };
    const email = Object.defineProperty({}, "isVerified", getter);
    const list = Object.defineProperty([{ userId: "a" }, {}], 1, getter);
    expect(camelCaseKeys({ email, list }, fields)).toEqual(ok({ email: { isVerified: UNREAD_VALUE }, list: [{ userId: "a" }, UNREAD_VALUE] }));
    expect(calls).toBe(0);
  });

  it("copies holes as undefined, and a list longer than MAX_LIST_ENTRIES as MAX_LIST_ENTRIES + 1 unread entries", () => {
    expect(camelCaseKeys({ list: [, { userId: "a" }] }, fields)).toEqual(ok({ list: [undefined, { userId: "a" }] }));
    let reads = 0;
    const long = Object.defineProperty(new Array(4_000_000), 0, { enumerable: true, get: () => ++reads });
    const copy = camelCaseKeys({ list: long }, fields)._unsafeUnwrap() as { list: unknown[] };
    expect(copy.list).toEqual(new Array(MAX_LIST_ENTRIES + 1).fill(UNREAD_VALUE));
    expect(reads).toBe(0);
  });

  it("leaves an unknown field unread, whatever it holds", () => {
    let graph: unknown = [];
    for (let i = 0; i < 40; i++) graph = [graph, graph];
    const trap = new Proxy({}, { get: () => { throw new Error("read"); }, ownKeys: () => { throw new Error("read"); } });
    expect(camelCaseKeys({ userId: "x", graph, trap, sparse: new Array(2 ** 32 - 1) }, fields)).toEqual(ok({ userId: "x" }));
  });

  it("reads exactly the fields of createHumanUser's schema, and the organization", () => {
    expect(outline(createRequestFields)).toEqual({
      userId: "text",
      username: "text",
      profile: { givenName: "text", familyName: "text", nickName: "text", displayName: "text", preferredLanguage: "text", gender: "text" },
      email: { email: "text", sendCode: { urlTemplate: "text" }, returnCode: {}, isVerified: "text" },
      phone: { phone: "text", sendCode: {}, returnCode: {}, isVerified: "text" },
      metadata: { "[]": { key: "text", value: "text" } },
      password: { password: "text", changeRequired: "text" },
      hashedPassword: { hash: "text", changeRequired: "text" },
      idpLinks: { "[]": { idpId: "text", userId: "text", userName: "text" } },
      totpSecret: "text",
      organization: { orgId: "text", orgDomain: "text" },
    });
  });

  it("reads exactly the fields of importHumanUser's schema", () => {
    expect(outline(importRequestFields)).toEqual({
      userName: "text",
      profile: { firstName: "text", lastName: "text", nickName: "text", displayName: "text", preferredLanguage: "text", gender: "text" },
      email: { email: "text", isEmailVerified: "text" },
      phone: { phone: "text", isPhoneVerified: "text" },
      password: "text",
      hashedPassword: { value: "text" },
      passwordChangeRequired: "text",
      requestPasswordlessRegistration: "text",
      idps: { "[]": { configId: "text", externalUserId: "text", displayName: "text" } },
    });
  });
});

describe("wire helpers", () => {
  it("leaves out absent members, empty strings, false and empty lists, at every depth", () => {
    expect(pruneEmpty<Record<string, unknown>>({ a: undefined, b: "", c: false, d: [], e: 0, f: "x", g: { h: "", i: true } })).toEqual({ e: 0, f: "x", g: { i: true } });
  });

  it("writes timestamps as protobuf JSON does, and durations in seconds", () => {
    expect(rfc3339(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05Z");
    expect(rfc3339(new Date("2026-01-02T03:04:05.120Z"))).toBe("2026-01-02T03:04:05.120Z");
    expect(durationSeconds(3600)).toBe("3600s");
  });
});
