// A verified domain with a capital that JavaScript and PostgreSQL lower differently (the Turkish
// İ): every store finds its organization when it is named as registered, to search and sign in by
// login name and to keep the domain from other organizations' usernames (one by one and in bulk).
// The library lowered or folded it in JavaScript first, so the SQL stores, which lower it their
// own way, found nobody.
import { err, ok } from "neverthrow";
import { afterEach, describe, expect, it } from "vitest";
import { checkPassword, createHumanUser, fixedClock, importHumanUsers, listUsers, memoryMailer, type Organization } from "../../../src/index.js";
import { collect } from "../../bulk/support.js";
import { fakeHasher } from "../support/import-fixtures.js";
import { testKeys } from "../support/ports.js";
import { storeCases, type OpenStore } from "../support/stores.js";

const TURK: Organization = { id: "turk", domains: [{ domain: "İZMİR.test", verified: true }], policy: { userLoginMustBeDomain: true } };
const ACME: Organization = { id: "acme", domains: [{ domain: "acme.test", verified: true }] };
const root = { requester: { userId: "root", orgId: "acme", instanceAdmin: true } };

describe.each(storeCases)("a domain registered with İ, on $name", (storeCase) => {
  let store: OpenStore | undefined;
  afterEach(async () => {
    await store?.close();
  });

  it("finds the user by its login name on that domain, and keeps the domain from other organizations", async () => {
    store = await storeCase.open([TURK, ACME]);
    const ports = { storage: store.storage, mailer: memoryMailer(), clock: fixedClock("2026-01-01T00:00:00Z"), keys: testKeys, passwordHasher: fakeHasher };
    const profile = { givenName: "Ann", familyName: "Lee" };
    const created = await createHumanUser(ports, { username: "ann", organization: { orgId: "turk" }, profile, email: { email: "ann@x.test", isVerified: true }, password: { password: "Secret-pass-1" } }, root);
    const userId = created._unsafeUnwrap().userId;
    for (const method of ["TEXT_QUERY_METHOD_EQUALS", "TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE", "TEXT_QUERY_METHOD_STARTS_WITH"]) {
      const page = await listUsers(ports, { queries: [{ loginNameQuery: { loginName: "ann@İZMİR.test", method } }] }, root);
      expect([method, page._unsafeUnwrap().result?.map((user) => user.userId)]).toEqual([method, [userId]]);
    }
    const login = await checkPassword(ports, { loginName: "ann@İZMİR.test", password: "Secret-pass-1" });
    expect(login.map((checked) => checked.userId)).toEqual(ok(userId));
    // Other spellings: stores lower İ their own way (see docs/storage.md), but on each store a
    // search ignoring case finds the user exactly when signing in with that login name does.
    for (const loginName of ["ann@izmir.test", "ann@İzmir.test", "ann@İZMİR.TEST", "ann@i\u0307zmi\u0307r.test"]) {
      const signedIn = (await checkPassword(ports, { loginName, password: "Secret-pass-1" })).isOk();
      const page = await listUsers(ports, { queries: [{ loginNameQuery: { loginName, method: "TEXT_QUERY_METHOD_EQUALS_IGNORE_CASE" } }] }, root);
      expect([loginName, page._unsafeUnwrap().result?.length ?? 0]).toEqual([loginName, signedIn ? 1 : 0]);
    }
    const taken = await createHumanUser(ports, { username: "bob@İZMİR.test", organization: { orgId: "acme" }, profile, email: { email: "bob@x.test", isVerified: true } }, root);
    const message = "username: uses a domain verified by another organization";
    const refusal = {
      code: 3,
      message,
      details: [
        { "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-d0m3", message },
        { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "username", description: "uses a domain verified by another organization" }] },
      ],
    };
    expect(taken).toEqual(err(refusal));
    const imported = await collect(importHumanUsers(ports, [{ userName: "cid@İZMİR.test", profile: { firstName: "Cid", lastName: "Lee" }, email: { email: "cid@x.test", isEmailVerified: true } }], { ...root, orgId: "acme" }));
    expect(imported).toEqual([{ index: 0, error: { ...refusal, message: "userName: uses a domain verified by another organization", details: [{ ...refusal.details[0], message: "userName: uses a domain verified by another organization" }, { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "userName", description: "uses a domain verified by another organization" }] }] } }]);
  });
});
