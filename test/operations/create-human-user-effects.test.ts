// createHumanUser's side effects (section 4, notifications), its rules against storage (section 3.4)
// and its port failures (codes 13 and 14, storage unchanged).
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, StorageUnavailableError, type SmsMessage } from "../../src/index.js";
import { FIRST_ID, instanceAdmin, invalidBody, member, minimalCreate, NOW, plainError, SECOND_ID, testPorts, withIds } from "./support/ports.js";
import { patchStorage, type StoragePatch } from "../support/patch-storage.js";

const context = { requester: member };
const withEmail = (email: Record<string, unknown>) => ({ ...minimalCreate(), email: { email: "ann@acme.test", ...email } });
const withPhone = (phone: Record<string, unknown>) => ({ ...minimalCreate(), email: { email: "ann@acme.test", isVerified: true }, phone: { phone: "+41791234567", ...phone } });

function smsRecorder() {
  const sent: SmsMessage[] = [];
  return { sent, send: (message: SmsMessage) => (sent.push(message), Promise.resolve()) };
}

describe("email notifications", () => {
  it.each([
    ["no option", {}],
    ["sendCode without a template", { sendCode: {} }],
    ["isVerified: false", { isVerified: false }],
  ])("%s: sends a verification email with the default link", async (_name, email) => {
    const ports = testPorts();
    expect(await createHumanUser(ports, withEmail(email), context)).toEqual(
      ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" } }),
    );
    expect(ports.mailer.sent.map((mail) => [mail.kind, mail.to, mail.link])).toEqual([
      ["email.verification", "ann@acme.test", `http://localhost:8080/ui/login/mail/verification?userID=${FIRST_ID}&code=AAAAAA&orgID=acme`],
    ]);
  });

  it("uses context.origin, then the configured origin, then the configured template for the default link", async () => {
    const viaContext = testPorts();
    await createHumanUser(viaContext, minimalCreate(), { ...context, origin: "https://id.acme.test/" });
    const viaConfig = testPorts({ config: { origin: "https://login.acme.test" } });
    await createHumanUser(viaConfig, minimalCreate(), context);
    const viaTemplate = testPorts({ config: { emailVerificationUrlTemplate: "https://app.acme.test/v?u={{.UserID}}&c={{.Code}}" } });
    await createHumanUser(viaTemplate, minimalCreate(), context);
    expect([viaContext, viaConfig, viaTemplate].map((ports) => ports.mailer.sent[0]?.link)).toEqual([
      `https://id.acme.test/ui/login/mail/verification?userID=${FIRST_ID}&code=AAAAAA&orgID=acme`,
      `https://login.acme.test/ui/login/mail/verification?userID=${FIRST_ID}&code=AAAAAA&orgID=acme`,
      `https://app.acme.test/v?u=${FIRST_ID}&c=AAAAAA`,
    ]);
  });

  it("returnCode: answers the code, sends no email, and records that the code was returned", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, withEmail({ returnCode: {} }), context)).toEqual(
      ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" }, emailCode: "AAAAAA" }),
    );
    expect(ports.mailer.attempted).toEqual([]);
    expect(ports.storage.notifications()).toEqual([]);
    expect(ports.storage.events()[1]?.payload["codeReturned"]).toBe(true);
  });

  it("isVerified: true marks the email verified, creates no code and sends nothing", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, withEmail({ isVerified: true }), context)).toEqual(
      ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" } }),
    );
    expect(ports.storage.events().map((event) => [event.type, event.payload])).toEqual([
      ["user.human.added", expect.any(Object)],
      ["user.human.email.verified", {}],
    ]);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("allows only one of sendCode, returnCode and isVerified", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, withEmail({ returnCode: {}, isVerified: false }), context)).toEqual(
      err(invalidBody([{ field: "email", description: "only one of sendCode, returnCode, isVerified may be set" }])),
    );
  });

  it("uses the code settings of the configuration", async () => {
    const ports = testPorts({ config: { codes: { email: { length: 10, alphabet: "XY", lifetimeSeconds: 600 } } } });
    const result = await createHumanUser(ports, withEmail({ returnCode: {} }), context);
    expect(result._unsafeUnwrap().emailCode).toBe("XXXXXXXXXX");
    expect(ports.storage.events()[1]?.payload["expiry"]).toBe("600s");
  });
});

describe("phone notifications", () => {
  it("an unverified phone with an SMS port: a code goes out by SMS", async () => {
    const sms = smsRecorder();
    const ports = testPorts({ sms });
    expect(await createHumanUser(ports, withPhone({}), context)).toEqual(
      ok({ userId: FIRST_ID, details: { sequence: "3", changeDate: NOW, resourceOwner: "acme" } }),
    );
    expect(sms.sent.map(({ id, to, code }) => ({ id, to, code }))).toEqual([{ id: SECOND_ID, to: "+41791234567", code: "AAAAAA" }]);
    expect(ports.storage.events().map((event) => event.type)).toEqual(["user.human.added", "user.human.email.verified", "user.human.phone.code.added"]);
  });

  it("an unverified phone without an SMS port: the code is recorded, nothing is queued", async () => {
    const ports = testPorts();
    await createHumanUser(ports, withPhone({ sendCode: {} }), context);
    expect(ports.storage.events().map((event) => event.type)).toEqual(["user.human.added", "user.human.email.verified", "user.human.phone.code.added"]);
    expect(ports.storage.notifications()).toEqual([]);
  });

  it("returnCode: answers the phone code and sends no SMS", async () => {
    const sms = smsRecorder();
    const ports = testPorts({ sms });
    expect(await createHumanUser(ports, withPhone({ returnCode: {} }), context)).toEqual(
      ok({ userId: FIRST_ID, details: { sequence: "3", changeDate: NOW, resourceOwner: "acme" }, phoneCode: "AAAAAA" }),
    );
    expect(sms.sent).toEqual([]);
  });

  it("isVerified: true marks the phone verified and sends no SMS", async () => {
    const sms = smsRecorder();
    const ports = testPorts({ sms });
    await createHumanUser(ports, withPhone({ isVerified: true }), context);
    expect(ports.storage.events().map((event) => event.type)).toEqual(["user.human.added", "user.human.email.verified", "user.human.phone.verified"]);
    expect(sms.sent).toEqual([]);
  });

  it("returns both codes when both are asked for", async () => {
    const ports = testPorts();
    const request = { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} }, phone: { phone: "+41791234567", returnCode: {} } };
    expect(await createHumanUser(ports, request, context)).toEqual(
      ok({ userId: FIRST_ID, details: { sequence: "3", changeDate: NOW, resourceOwner: "acme" }, emailCode: "AAAAAA", phoneCode: "AAAAAA" }),
    );
  });
});

describe("rules against storage", () => {
  it("answers 6 for a taken userId", async () => {
    const ports = testPorts();
    await createHumanUser(ports, { ...minimalCreate(), userId: "ann" }, context);
    expect(await createHumanUser(ports, { ...minimalCreate(), userId: "ann", username: "other" }, context)).toEqual(
      err(plainError(6, "USER-1d6x", "a user with this userId already exists")),
    );
    expect(ports.storage.events()).toHaveLength(2);
  });

  it("answers 6 for a username taken in any case and any Unicode normalization, across organizations", async () => {
    const ports = testPorts();
    await createHumanUser(ports, { ...minimalCreate(), username: "José" }, context);
    const taken = err(plainError(6, "USER-n4m6", "the username is already taken"));
    expect(await createHumanUser(ports, { ...minimalCreate(), username: " JOSE\u0301 " }, context)).toEqual(taken);
    expect(
      await createHumanUser(ports, { ...minimalCreate(), username: "josé", organization: { orgId: "globex" } }, { requester: instanceAdmin }),
    ).toEqual(taken);
    // The default username is the email address.
    await createHumanUser(ports, minimalCreate(), context);
    expect(await createHumanUser(ports, { ...minimalCreate(), email: { email: "ANN@acme.test" } }, context)).toEqual(taken);
  });

  it("keeps usernames unique per organization when the organization's policy says so", async () => {
    const policy = { userLoginMustBeDomain: true };
    const ports = testPorts({}, { organizations: [{ id: "acme", domains: [], policy }, { id: "globex", domains: [], policy }] });
    const admin = { requester: instanceAdmin };
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "ann", organization: { orgId: "acme" } }, admin)).isOk()).toBe(true);
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "ann", organization: { orgId: "globex" } }, admin)).isOk()).toBe(true);
    expect(await createHumanUser(ports, { ...minimalCreate(), username: "ANN", organization: { orgId: "acme" } }, admin)).toEqual(
      err(plainError(6, "USER-n4m6", "the username is already taken")),
    );
  });

  it("answers 9 for an identity provider that does not exist or belongs to another organization", async () => {
    const ports = testPorts();
    const notFound = err(plainError(9, "USER-1dp9", "an identity provider does not exist on the organization or the instance"));
    const link = (idpId: string) => ({ ...minimalCreate(), idpLinks: [{ idpId, userId: "ext", userName: "ext" }] });
    expect(await createHumanUser(ports, link("idp-nowhere"), context)).toEqual(notFound);
    expect(await createHumanUser(ports, link("idp-globex"), context)).toEqual(notFound);
    expect(ports.storage.events()).toEqual([]);
  });

  it("links providers of the organization and instance-wide ones, and answers 6 for an account already linked", async () => {
    const ports = testPorts();
    const request = {
      ...minimalCreate(),
      idpLinks: [
        { idpId: "idp-acme", userId: "ext-1", userName: "ann@idp" },
        { idpId: "idp-global", userId: "ext-1", userName: "ann@global" },
      ],
    };
    expect((await createHumanUser(ports, request, context)).isOk()).toBe(true);
    expect(ports.storage.events().filter((event) => event.type === "user.human.externalidp.added").map((event) => event.payload)).toEqual([
      { idpConfigId: "idp-acme", userId: "ext-1", displayName: "ann@idp" },
      { idpConfigId: "idp-global", userId: "ext-1", displayName: "ann@global" },
    ]);
    const again = { ...minimalCreate(), username: "other", idpLinks: [{ idpId: "idp-global", userId: "ext-1", userName: "x" }] };
    expect(await createHumanUser(ports, again, context)).toEqual(
      err(plainError(6, "USER-l1n6", "this identity provider account is already linked to a user")),
    );
  });

  it("answers 3 for a username whose domain another organization has verified, naming where it came from", async () => {
    const ports = testPorts();
    expect(await createHumanUser(ports, { ...minimalCreate(), username: "ann@globex.test" }, context)).toEqual(
      err({
        code: 3,
        message: "username: uses a domain verified by another organization",
        details: [
          { "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-d0m3", message: "username: uses a domain verified by another organization" },
          { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "username", description: "uses a domain verified by another organization" }] },
        ],
      }),
    );
    expect((await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@GLOBEX.test" } }, context))._unsafeUnwrapErr().details[1]).toEqual({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [{ field: "email.email", description: "uses a domain verified by another organization" }],
    });
    // Its own verified domain, an unverified one, and unknown ones are fine.
    for (const username of ["a@acme.test", "b@pending.test", "c@example.com"]) {
      expect((await createHumanUser(ports, { ...minimalCreate(), username }, context)).isOk()).toBe(true);
    }
  });

  it.each(["ann＠globex.test", "ann@globex.test.", "ann@globex。test", "ann@ＧＬＯＢＥＸ．ｔｅｓｔ", "ann@glo\u00adbex.test", "ann@globex.test\u200b"])(
    "answers 3 for %j, another organization's verified domain written another way, and writes nothing",
    async (username) => {
      const ports = testPorts();
      const message = "username: uses a domain verified by another organization";
      expect(await createHumanUser(ports, { ...minimalCreate(), username }, context)).toEqual(
        err({
          code: 3,
          message,
          details: [
            { "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-d0m3", message },
            { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "username", description: "uses a domain verified by another organization" }] },
          ],
        }),
      );
      expect(ports.storage.events()).toEqual([]);
    },
  );
});

describe("port failures", () => {
  const failingWrite = (error: Error): StoragePatch => ({
    userLog: { append: () => Promise.reject(error) },
  });

  async function withBrokenStorage(overrides: StoragePatch, logged: unknown[] = []) {
    const ports = testPorts({ logger: { warn: () => undefined, error: (fields) => void logged.push(fields["err"]) } });
    const storage = patchStorage(ports.storage, overrides);
    const result = await createHumanUser({ ...ports, storage }, minimalCreate(), context);
    return { result, ports };
  }

  it("a storage write that throws answers 13, leaves storage as it was, and sends nothing", async () => {
    const logged: unknown[] = [];
    const cause = new Error("disk on fire");
    const { result, ports } = await withBrokenStorage(failingWrite(cause), logged);
    expect(result).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect(ports.mailer.attempted).toEqual([]);
    expect(logged).toEqual([cause]);
  });

  it("unreachable storage answers 14", async () => {
    const { result } = await withBrokenStorage(failingWrite(new StorageUnavailableError("connection refused")));
    expect(result).toEqual(err(plainError(14, "USER-unv4", "storage is unavailable, try again later")));
  });

  it("a lookup that fails answers 13 or 14 as well", async () => {
    const { result } = await withBrokenStorage({ directory: { findOrganization: () => Promise.reject(new StorageUnavailableError("down")) } });
    expect(result).toEqual(err(plainError(14, "USER-unv4", "storage is unavailable, try again later")));
    // Claims are looked up only when the directory refuses the user (here: a domain another organization verified).
    const ports = testPorts();
    const storage = patchStorage(ports.storage, { userLog: { findHeldClaims: () => { throw new TypeError("bug"); } } });
    const broken = { result: await createHumanUser({ ...ports, storage }, { ...minimalCreate(), username: "ann@globex.test" }, context) };
    expect(broken.result).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
  });

  it("a failing clock, id generator, authorizer or hasher answers 13 without throwing", async () => {
    const boom = () => {
      throw new Error("boom");
    };
    const cases = [
      testPorts({ clock: { now: boom } }),
      testPorts({ ids: { next: boom } }),
      testPorts({ authorizer: { hasPermission: () => Promise.reject(new Error("no")) } }),
      testPorts({ passwordHasher: { name: "x", hash: () => Promise.reject(new Error("no")), isCurrent: () => true } }),
    ];
    for (const ports of cases) {
      const result = await createHumanUser(ports, { ...minimalCreate(), password: { password: "Secr3t!pw" } }, context);
      expect(result).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
      expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    }
  });

  it.each([
    ["an empty string", "", "must not be empty"],
    ["a number", 42, "must be a string, not a number"],
    ["null", null, "must be a string, not null"],
    ["undefined", undefined, "must be a string, not undefined"],
    ["201 characters", "9".repeat(201), "must be at most 200 characters long"],
    ["a NUL character", "id\u0000", "must not contain the NUL character (U+0000)"],
  ])("an id generator that gives %s for the user id answers 13, logs why and writes nothing", async (_name, id, problem) => {
    const { ports, logged } = withIds(id);
    const result = await createHumanUser(ports, withEmail({ isVerified: true }), context);
    expect(result).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
    expect(logged).toEqual([{ message: "human-users: id generator failed", cause: new Error(`ports.ids.next() gave an unusable id: ${problem}`) }]);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it("an id generator that gives an unusable notification id answers 13, logs why, and writes and sends nothing", async () => {
    const { ports, logged } = withIds(FIRST_ID, "");
    const result = await createHumanUser(ports, minimalCreate(), context);
    expect(result).toEqual(err(plainError(13, "USER-1nt3", "internal error")));
    // Drawn while the user is planned: logged under the function's name, as a random source that fails is.
    expect(logged).toEqual([{ message: "human-users: createHumanUser failed", cause: new Error("ports.ids.next() gave an unusable id: must not be empty") }]);
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("a mailer that throws does not fail the request and leaves the notification pending for a retry", async () => {
    const ports = testPorts();
    ports.mailer.failAlways(true);
    expect(await createHumanUser(ports, minimalCreate(), context)).toEqual(
      ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: NOW, resourceOwner: "acme" } }),
    );
    expect(ports.storage.notifications().map(({ id, state, attempts, code, retryAt }) => ({ id, state, attempts, code, retrying: retryAt !== undefined }))).toEqual([
      { id: SECOND_ID, state: "pending", attempts: 1, code: "AAAAAA", retrying: true },
    ]);
  });

  it("ports that are missing altogether answer 9 naming them rather than throwing", async () => {
    const result = await createHumanUser(undefined as never, minimalCreate(), context);
    expect(result).toEqual(err(plainError(9, "USER-c0nf", "invalid configuration: ports must be an object")));
  });
});

describe("repeats within one request", () => {
  it("refuses a provider account named twice, rather than dropping one of its user names, and writes nothing", async () => {
    const ports = testPorts();
    const link = { idpId: "idp-acme", userId: "ext-1", userName: "first" };
    const other = { idpId: "idp-acme", userId: "ext-2", userName: "other" };
    const result = await createHumanUser(ports, { ...minimalCreate(), idpLinks: [link, other, { ...link, userName: "second" }, other] }, context);
    expect(result).toEqual(
      err(
        invalidBody([
          { field: "idpLinks[2]", description: "names the same identity-provider account (idpId and userId) as idpLinks[0]" },
          { field: "idpLinks[3]", description: "names the same identity-provider account (idpId and userId) as idpLinks[1]" },
        ]),
      ),
    );
    expect(ports.storage.events()).toEqual([]);
  });

  it("takes an empty organization header as no header", async () => {
    const ports = testPorts();
    expect((await createHumanUser(ports, minimalCreate(), { ...context, orgId: "" }))._unsafeUnwrap().details.resourceOwner).toBe("acme");
  });
});
