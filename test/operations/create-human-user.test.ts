import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser } from "../../src/index.js";
import { FIRST_ID, instanceAdmin, invalidBody, member, minimalCreate, NOW, SECOND_ID, testKeys, testPorts } from "./support/ports.js";

const context = { requester: member };

function keyedHash(code: string): string {
  return Buffer.from(hmac(sha256, testKeys.codeHmacKey, new TextEncoder().encode(code))).toString("base64");
}

const storedCode = (expiry = "3600s") => ({ code: { algorithm: "HMAC-SHA256", keyId: "test-key", hash: keyedHash("AAAAAA") }, expiry });

describe("createHumanUser: the main path", () => {
  it("creates the user, answers the exact body and mails a verification code", async () => {
    const ports = testPorts();
    const result = await createHumanUser(ports, minimalCreate(), context);

    expect(result).toEqual(ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" } }));
    expect(JSON.stringify(result._unsafeUnwrap())).toBe(
      `{"userId":"${FIRST_ID}","details":{"sequence":"2","changeDate":"${NOW}","resourceOwner":"acme"}}`,
    );
    expect(ports.storage.events()).toEqual([
      {
        type: "user.human.added",
        aggregateId: FIRST_ID,
        orgId: "acme",
        sequence: 1,
        createdAt: NOW,
        payload: {
          userName: "ann@acme.test",
          firstName: "Ann",
          lastName: "Lee",
          displayName: "Ann Lee",
          preferredLanguage: "und",
          gender: "GENDER_UNSPECIFIED",
          email: "ann@acme.test",
        },
      },
      { type: "user.human.email.code.added", aggregateId: FIRST_ID, orgId: "acme", sequence: 2, createdAt: NOW, payload: storedCode() },
    ]);
    expect(ports.storage.claims()).toEqual([
      { kind: "user_id", scope: "", key: FIRST_ID },
      { kind: "username", scope: "", key: "ann@acme.test" },
    ]);
    const link = `http://localhost:8080/ui/login/mail/verification?userID=${FIRST_ID}&code=AAAAAA&orgID=acme`;
    expect(ports.mailer.sent.map(({ id, kind, to, code, link, userId, orgId }) => ({ id, kind, to, code, link, userId, orgId }))).toEqual([
      { id: SECOND_ID, kind: "email.verification", to: "ann@acme.test", code: "AAAAAA", link, userId: FIRST_ID, orgId: "acme" },
    ]);
    expect(ports.storage.notifications().map(({ id, state, code, link }) => ({ id, state, code, link }))).toEqual([
      { id: SECOND_ID, state: "delivered", code: "", link: "" },
    ]);
  });

  it("never stores or echoes a plain code: the stored code is its HMAC under the configured key", async () => {
    const ports = testPorts();
    await createHumanUser(ports, { ...minimalCreate(), phone: { phone: "+41791234567", returnCode: {} } }, context);
    const stored = JSON.stringify(ports.storage.events());
    expect(stored).not.toContain("AAAAAA");
    expect(stored).toContain(keyedHash("AAAAAA"));
  });

  it("accepts snake_case names, ignores unknown fields and treats null as absent", async () => {
    const ports = testPorts();
    const result = await createHumanUser(
      ports,
      {
        user_id: "ann-1",
        username: "ann",
        profile: { given_name: "Ann", family_name: "Lee", nick_name: null, preferred_language: "de", whatever: 1 },
        email: { email: "ann@acme.test", return_code: {} },
        phone: null,
        unknown_top_level: { nested: true },
      },
      context,
    );
    expect(result).toEqual(ok({ userId: "ann-1", details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" }, emailCode: "AAAAAA" }));
    expect(ports.storage.events()[0]?.payload).toEqual({
      userName: "ann",
      firstName: "Ann",
      lastName: "Lee",
      displayName: "Ann Lee",
      preferredLanguage: "de",
      gender: "GENDER_UNSPECIFIED",
      email: "ann@acme.test",
    });
  });

  it("reports the last event's sequence and writes every event in the contract's order", async () => {
    const ports = testPorts();
    const result = await createHumanUser(
      ports,
      {
        ...minimalCreate(),
        email: { email: "ann@acme.test", isVerified: true },
        phone: { phone: "+41791234567", isVerified: true },
        metadata: [{ key: "a", value: "AQ==" }, { key: "b", value: "Ag" }],
        idpLinks: [{ idpId: "idp-acme", userId: "ext-1", userName: "ann@idp" }],
        totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
      },
      context,
    );
    expect(result).toEqual(ok({ userId: FIRST_ID, details: { sequence: "8", changeDate: NOW, resourceOwner: "acme" } }));
    expect(ports.storage.events().map((event) => [event.sequence, event.type])).toEqual([
      [1, "user.human.added"],
      [2, "user.human.email.verified"],
      [3, "user.human.phone.verified"],
      [4, "user.metadata.set"],
      [5, "user.metadata.set"],
      [6, "user.human.externalidp.added"],
      [7, "user.human.mfa.otp.added"],
      [8, "user.human.mfa.otp.verified"],
    ]);
  });
});

describe("createHumanUser: who and where", () => {
  it("answers 16 without a requester, before anything else is looked at", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, minimalCreate(), {})).toEqual(
      err({
        code: 16,
        message: "the request is not authenticated",
        details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-4uth", message: "the request is not authenticated" }],
      }),
    );
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  const denied = err({
    code: 7,
    message: "no permission to write users in this organization",
    details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-p3rm", message: "no permission to write users in this organization" }],
  });
  const notFound = err({
    code: 5,
    message: "the organization does not exist",
    details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-0rg5", message: "the organization does not exist" }],
  });

  it("answers 7 for another organization named in the body, the header or by domain", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgId: "globex" } }, context)).toEqual(denied);
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgDomain: "globex.test" } }, context)).toEqual(denied);
    expect(await createHumanUser(ports, minimalCreate(), { ...context, orgId: "globex" })).toEqual(denied);
    expect(ports.storage.events()).toEqual([]);
  });

  it("answers 7, not 5, for a missing organization to a requester without instance-wide rights", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgId: "nowhere" } }, context)).toEqual(denied);
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgDomain: "nowhere.test" } }, context)).toEqual(denied);
  });

  it("answers 5 for a missing organization to an instance admin", async () => {
    const ports = testPorts();
    const admin = { requester: instanceAdmin };
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgId: "nowhere" } }, admin)).toEqual(notFound);
    expect(await createHumanUser(ports, minimalCreate(), { ...admin, orgId: "nowhere" })).toEqual(notFound);
    // An unverified domain names no organization.
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgDomain: "pending.test" } }, admin)).toEqual(notFound);
  });

  it("counts an organization's id and domain in characters, as every other field: 200 emoji are a name it looks up", async () => {
    const ports = testPorts();
    const admin = { requester: instanceAdmin };
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgId: "😀".repeat(200) } }, admin)).toEqual(notFound);
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgDomain: "😀".repeat(200) } }, admin)).toEqual(notFound);
    expect(await createHumanUser(ports, { ...minimalCreate(), organization: { orgId: "😀".repeat(201) } }, admin)).toEqual(
      err(invalidBody([{ field: "organization.orgId", description: "must be a string of 1 to 200 characters" }])),
    );
  });

  it("resolves the organization from the body, then the header, then the requester", async () => {
    const ports = testPorts();
    const admin = { requester: instanceAdmin };
    const owner = async (request: Record<string, unknown>, ctx: object) =>
      (await createHumanUser(ports, request, ctx))._unsafeUnwrap().details.resourceOwner;
    expect(await owner({ ...minimalCreate(), username: "u1", organization: { orgId: "acme" } }, { ...admin, orgId: "globex" })).toBe("acme");
    expect(await owner({ ...minimalCreate(), username: "u2", organization: { orgDomain: "ACME.test" } }, admin)).toBe("acme");
    expect(await owner({ ...minimalCreate(), username: "u3" }, { ...admin, orgId: "acme" })).toBe("acme");
    expect(await owner({ ...minimalCreate(), username: "u4", email: { email: "u4@globex.test" } }, admin)).toBe("globex");
  });

  it("uses a replacement authorizer port", async () => {
    const ports = testPorts({ authorizer: { hasPermission: (_requester, _permission, orgId) => orgId === "globex" } });
    expect((await createHumanUser(ports, { ...minimalCreate(), email: { email: "a@globex.test" }, organization: { orgId: "globex" } }, context)).isOk()).toBe(true);
    expect(await createHumanUser(ports, minimalCreate(), context)).toEqual(denied);
  });

  const unauthenticated = err({
    code: 16,
    message: "the request is not authenticated",
    details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-4uth", message: "the request is not authenticated" }],
  });
  const badOrganizations: [string, unknown][] = [
    ["names neither member", {}],
    ["names both members", { orgId: "acme", orgDomain: "acme.test" }],
    ["has an empty orgId", { orgId: "" }],
    ["has an orgId of 201 characters", { orgId: "x".repeat(201) }],
    ["is a string", "acme"],
  ];

  it.each(badOrganizations)("answers 16 without a requester when the organization %s: the requester comes before the fields", async (_name, organization) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), organization }, {})).toEqual(unauthenticated);
  });

  it("reports a bad organization with every other violation, in field order", async () => {
    const ports = testPorts();
    const request = { profile: { givenName: "", familyName: "Lee" }, email: { email: "bad" }, organization: { orgId: "" } };
    expect(await createHumanUser(ports, request, context)).toEqual(
      err(
        invalidBody([
          { field: "organization.orgId", description: "must be a string of 1 to 200 characters" },
          { field: "profile.givenName", description: "must not be empty" },
          { field: "email.email", description: "is not a valid email address" },
        ]),
      ),
    );
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it.each([
    ["names neither member", {}, "organization", "must name exactly one of orgId and orgDomain"],
    ["names both members", { orgId: "acme", orgDomain: "acme.test" }, "organization", "must name exactly one of orgId and orgDomain"],
    ["has an orgId of 201 characters", { orgId: "x".repeat(201) }, "organization.orgId", "must be a string of 1 to 200 characters"],
    ["has a numeric orgDomain", { orgDomain: 5 }, "organization.orgDomain", "must be a string of 1 to 200 characters"],
    ["is a string", "acme", "organization", "must be an object"],
  ])("answers 3, not 7, to a requester of another organization when the organization %s, and asks no authorizer", async (_name, organization, field, description) => {
    let asked = 0;
    const ports = testPorts({ authorizer: { hasPermission: () => ((asked += 1), false) } });
    const outsider = { requester: { userId: "u", orgId: "globex" } };
    const request = { ...minimalCreate(), organization, email: { email: "not an address" } };
    expect(await createHumanUser(ports, request, outsider)).toEqual(
      err(invalidBody([{ field, description }, { field: "email.email", description: "is not a valid email address" }])),
    );
    expect(asked).toBe(0);
  });

  it("counts a bad organization against the violation cap", async () => {
    const ports = testPorts({ config: { limits: { maxFieldViolations: 2 } } });
    const request = { organization: {}, profile: { givenName: "", familyName: "" }, email: { email: "bad" } };
    expect(await createHumanUser(ports, request, context)).toEqual(
      err({
        code: 3,
        message: "organization: must name exactly one of orgId and orgDomain (and 1 more violation listed; more were left out)",
        details: [
          {
            "@type": "type.googleapis.com/zitadel.v1.ErrorDetail",
            id: "USER-1nv4",
            message: "organization: must name exactly one of orgId and orgDomain (and 1 more violation listed; more were left out)",
          },
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [
              { field: "organization", description: "must name exactly one of orgId and orgDomain" },
              { field: "profile.givenName", description: "must not be empty" },
            ],
          },
        ],
      }),
    );
  });

  it("checks no password policy while the organization is named badly: the policy is the organization's", async () => {
    const ports = testPorts();
    const request = { ...minimalCreate(), organization: { orgId: "" }, password: { password: "weak" } };
    expect(await createHumanUser(ports, request, context)).toEqual(
      err(invalidBody([{ field: "organization.orgId", description: "must be a string of 1 to 200 characters" }])),
    );
  });
});

describe("createHumanUser: bodies that are not requests", () => {
  const notAnObject = err({
    code: 3,
    message: "the request body must be a JSON object",
    details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-b0dy", message: "the request body must be a JSON object" }],
  });

  it.each([null, undefined, [], [minimalCreate()], "body", "", 42, 0, true, false])("answers 3 for %j without throwing", async (body) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, body, context)).toEqual(notAnObject);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it("answers 3 listing both required objects when they are missing or not objects", async () => {
    const ports = testPorts();
    const body = (violations: { field: string; description: string }[]) => {
      const message = `${violations[0]?.field}: ${violations[0]?.description} (and 1 more violation)`;
      return err({
        code: 3,
        message,
        details: [
          { "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-1nv4", message },
          { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations },
        ],
      });
    };
    expect(await createHumanUser(ports, {}, context)).toEqual(
      body([
        { field: "profile", description: "is required" },
        { field: "email", description: "is required" },
      ]),
    );
    expect(await createHumanUser(ports, { profile: [], email: "ann@acme.test" }, context)).toEqual(
      body([
        { field: "profile", description: "must be an object" },
        { field: "email", description: "must be an object" },
      ]),
    );
  });

  it("keeps __proto__ keys as plain data: no prototype is polluted and the body is judged on its fields", async () => {
    const ports = testPorts();
    const body = JSON.parse('{"__proto__": {"isAdmin": true}, "profile": {"givenName": "Ann", "familyName": "Lee", "__proto__": {"x": 1}}, "email": {"email": "ann@acme.test", "__proto__": {"isVerified": true}}}');
    const result = await createHumanUser(ports, body, context);
    expect(result.isOk()).toBe(true);
    expect(({} as Record<string, unknown>)["isAdmin"]).toBeUndefined();
    // The smuggled isVerified did not count: a verification code was sent.
    expect(ports.storage.events().map((event) => event.type)).toEqual(["user.human.added", "user.human.email.code.added"]);

    const onlyProto = JSON.parse('{"__proto__": {"profile": {"givenName": "A", "familyName": "B"}, "email": {"email": "a@acme.test"}}}');
    expect((await createHumanUser(ports, onlyProto, context))._unsafeUnwrapErr().code).toBe(3);
  });
});
