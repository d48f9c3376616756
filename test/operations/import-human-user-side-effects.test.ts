// importHumanUser: the side-effect table (initialization mail, phone SMS, passwordless
// link), each row both ways, the events in the contract's order, and codes kept only as keyed hashes.
import { ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { deliverPendingNotifications, importHumanUser } from "../../src/index.js";
import {
  ACME,
  addedPayload,
  BCRYPT_HASH,
  DEFAULT_ORIGIN,
  details,
  storedEvent,
  fakeHash,
  GLOBEX,
  id,
  importPorts,
  annInitMail,
  outboxRecord,
  member,
  minimalImport,
  NOW,
  recordingSms,
  storedCode,
} from "./support/import-fixtures.js";

const context = { requester: member };
const INIT_EVENT = ["user.human.initialization.code.added", { code: storedCode("AAAAAA"), expiry: "259200s" }] as const;
const VERIFIED = { email: "ann@acme.test", isEmailVerified: true };
const PLAIN = "Plain-Secret-42";

function typesAndPayloads(events: readonly { type: string; payload: unknown }[]) {
  return events.map((event) => [event.type, event.payload]);
}

/** The passwordless link with the values as given (already encoded where they need it). */
function passwordlessLink(origin: string, userId: string, orgId: string, codeId: string, code: string): string {
  const values = [`userID=${userId}`, `orgID=${orgId}`, `codeID=${codeId}`, `code=${code}`];
  return `${origin}/ui/login/login/passwordless/init?${values.join("&")}`;
}

/** A first failed delivery: retried after 30 s, jittered into [15 s, 30 s) by the next random fill (every byte 1). */
function firstFailure(lastError: string) {
  const retryMs = Math.round((15 + 15 * (0x01010101 / 2 ** 32)) * 1000);
  return { attempts: 1, failedAt: "2026-03-04T05:06:07.000Z", lastError, retryAt: new Date(Date.parse(NOW) + retryMs).toISOString() };
}

describe("importHumanUser: the initialization email", () => {
  // [row, request patch, the added payload's changes, the events after it]
  const mailed: [string, Record<string, unknown>, Record<string, unknown>, (readonly [string, unknown])[]][] = [
    ["email not verified, no password", {}, {}, [INIT_EVENT]],
    ["email not verified (false), a plain password", { email: { email: "ann@acme.test", isEmailVerified: false }, password: PLAIN }, { encodedHash: fakeHash(PLAIN), changeRequired: false }, [INIT_EVENT]],
    ["email not verified, a hashed password", { hashedPassword: { value: BCRYPT_HASH } }, { encodedHash: BCRYPT_HASH, changeRequired: false }, [INIT_EVENT]],
    ["email verified, no password", { email: VERIFIED }, {}, [["user.human.email.verified", {}], INIT_EVENT]],
    ["email verified, no password, a change required (of no password)", { email: VERIFIED, passwordChangeRequired: true }, {}, [["user.human.email.verified", {}], INIT_EVENT]],
  ];

  it.each(mailed)("is sent when the %s", async (_row, patch, changes, after) => {
    const ports = importPorts();

    const result = await importHumanUser(ports, { ...minimalImport(), ...patch }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details(String(1 + after.length)) }));
    expect(typesAndPayloads(ports.storage.events())).toEqual([["user.human.added", addedPayload(changes)], ...after]);
    expect(ports.mailer.sent).toEqual([annInitMail()]);
  });

  const notMailed: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["email verified and a plain password set", { email: VERIFIED, password: PLAIN }, { encodedHash: fakeHash(PLAIN), changeRequired: false }],
    ["email verified and a hashed password set", { email: VERIFIED, hashedPassword: { value: BCRYPT_HASH } }, { encodedHash: BCRYPT_HASH, changeRequired: false }],
  ];

  it.each(notMailed)("is not sent when the %s", async (_row, patch, changes) => {
    const ports = importPorts();

    const result = await importHumanUser(ports, { ...minimalImport(), ...patch }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(typesAndPayloads(ports.storage.events())).toEqual([
      ["user.human.added", addedPayload(changes)],
      ["user.human.email.verified", {}],
    ]);
    expect(ports.storage.notifications()).toEqual([]);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("links to the configured initialization template, each value URL-encoded", async () => {
    const org = { id: "org 1/ü", domains: [] };
    const ports = importPorts(
      { config: { initializationUrlTemplate: "https://app.acme.test/init/{{.UserID}}?c={{ .Code }}&o={{.OrgID}}" } },
      { organizations: [org] },
    );

    await importHumanUser(ports, minimalImport(), { requester: { userId: "admin", orgId: "org 1/ü" } });

    const link = `https://app.acme.test/init/${id(1)}?c=AAAAAA&o=org%201%2F%C3%BC`;
    expect(ports.mailer.sent).toEqual([annInitMail({ orgId: "org 1/ü", link })]);
  });

  it("is written to the outbox with its plain code only until it is delivered", async () => {
    const ports = importPorts({ config: { immediateDelivery: "off" } });

    await importHumanUser(ports, minimalImport(), context);

    const pending = outboxRecord({});
    expect(ports.storage.notifications()).toEqual([pending]);
    expect(ports.mailer.attempted).toEqual([]);

    await deliverPendingNotifications(ports);
    expect(ports.mailer.sent).toEqual([annInitMail()]);
    expect(ports.storage.notifications()).toEqual([{ ...pending, code: "", link: "", state: "delivered", deliveredAt: "2026-03-04T05:06:07.000Z" }]);
  });

  it("does not fail the import when the mailer refuses it: the outbox keeps it for a retry", async () => {
    const ports = importPorts();
    ports.mailer.failAlways(true);

    const result = await importHumanUser(ports, minimalImport(), context);

    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(ports.mailer.attempted).toEqual([annInitMail()]);
    expect(ports.mailer.sent).toEqual([]);
    expect(ports.storage.notifications()).toEqual([outboxRecord(firstFailure("Error: memoryMailer: delivery refused (test setting)"))]);
  });
});

describe("importHumanUser: the phone code SMS", () => {
  const phone = { phone: "+41 79 123 45 67" };
  const quiet = { email: VERIFIED, hashedPassword: { value: BCRYPT_HASH } };
  const withPhone = { encodedHash: BCRYPT_HASH, changeRequired: false, phone: "+41791234567" };
  const unverifiedPhoneEvents = [
    ["user.human.added", addedPayload(withPhone)],
    ["user.human.email.verified", {}],
    ["user.human.phone.code.added", { code: storedCode("AAAAAA"), expiry: "3600s" }],
  ];

  it("is sent through the SMS port when the phone is not verified", async () => {
    const sms = recordingSms();
    const ports = importPorts({ sms });

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet, phone }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("3") }));
    expect(typesAndPayloads(ports.storage.events())).toEqual(unverifiedPhoneEvents);
    expect(sms.sent).toEqual([{ id: id(2), to: "+41791234567", text: "AAAAAA for 1 hour", code: "AAAAAA" }]);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("is sent beside the initialization mail, each with its own code", async () => {
    const sms = recordingSms();
    const ports = importPorts({ sms });

    await importHumanUser(ports, { ...minimalImport(), phone: { ...phone, isPhoneVerified: false } }, context);

    expect(typesAndPayloads(ports.storage.events())).toEqual([
      ["user.human.added", addedPayload({ phone: "+41791234567" })],
      INIT_EVENT,
      ["user.human.phone.code.added", { code: storedCode("BBBBBB"), expiry: "3600s" }],
    ]);
    expect(ports.mailer.sent).toEqual([annInitMail()]);
    expect(sms.sent).toEqual([{ id: id(3), to: "+41791234567", text: "BBBBBB for 1 hour", code: "BBBBBB" }]);
  });

  it("is not queued without an SMS port, though the code is recorded", async () => {
    const ports = importPorts();

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet, phone }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("3") }));
    expect(typesAndPayloads(ports.storage.events())).toEqual(unverifiedPhoneEvents);
    expect(ports.storage.notifications()).toEqual([]);
  });

  it("is not sent when the phone is verified", async () => {
    const sms = recordingSms();
    const ports = importPorts({ sms });

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet, phone: { ...phone, isPhoneVerified: true } }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("3") }));
    expect(typesAndPayloads(ports.storage.events())).toEqual([
      ["user.human.added", addedPayload(withPhone)],
      ["user.human.email.verified", {}],
      ["user.human.phone.verified", {}],
    ]);
    expect(ports.storage.notifications()).toEqual([]);
    expect(sms.sent).toEqual([]);
  });

  it("does not fail the import when the SMS port rejects", async () => {
    const ports = importPorts({ sms: { send: () => Promise.reject(new Error("carrier down")) } });

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet, phone }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("3") }));
    expect(ports.storage.notifications()).toEqual([
      outboxRecord({ kind: "phone.verification", recipient: "+41791234567", link: "", expiresAt: "2026-03-04T06:06:07Z", ...firstFailure("Error: carrier down") }),
    ]);
  });
});

describe("importHumanUser: the passwordless registration link", () => {
  const quiet = { email: VERIFIED, hashedPassword: { value: BCRYPT_HASH }, requestPasswordlessRegistration: true };
  const hashed = { encodedHash: BCRYPT_HASH, changeRequired: false };

  it("is returned with a lifetime and expiration of 3600s, written as a hashed code, and mailed to nobody", async () => {
    const ports = importPorts();

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet }, context);

    // The user id is the first id, the code id the second; the code is the first drawn (letters first).
    const link = passwordlessLink(DEFAULT_ORIGIN, id(1), "acme", id(2), "aaaaaaaaaaaa");
    expect(result).toEqual(ok({ userId: id(1), details: details("3"), passwordlessRegistration: { link, lifetime: "3600s", expiration: "3600s" } }));
    expect(typesAndPayloads(ports.storage.events())).toEqual([
      ["user.human.added", addedPayload(hashed)],
      ["user.human.email.verified", {}],
      ["user.human.passwordless.initialization.code.added", { id: id(2), code: storedCode("aaaaaaaaaaaa"), expiry: "3600s" }],
    ]);
    expect(ports.storage.notifications()).toEqual([]);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it.each([
    ["the context's origin, without its trailing slash", { origin: "https://id.acme.test/" }, {}, "https://id.acme.test"],
    ["the context's origin with a path", { origin: "https://acme.test/auth" }, { origin: "https://config.test" }, "https://acme.test/auth"],
    ["the configured origin when the context has none", {}, { origin: "https://config.test//" }, "https://config.test"],
  ])("starts with %s", async (_name, contextOrigin, config, origin) => {
    const ports = importPorts({ config });

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet }, { ...context, ...contextOrigin });

    const link = passwordlessLink(origin, id(1), "acme", id(2), "aaaaaaaaaaaa");
    expect(result).toEqual(ok({ userId: id(1), details: details("3"), passwordlessRegistration: { link, lifetime: "3600s", expiration: "3600s" } }));
  });

  it("URL-encodes every value, so each reads back exactly", async () => {
    const orgId = "org 1&codeID=x/ü+";
    const ports = importPorts({}, { organizations: [{ id: orgId, domains: [] }] });

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet }, { requester: { userId: "admin", orgId } });

    const link = passwordlessLink(DEFAULT_ORIGIN, id(1), "org%201%26codeID%3Dx%2F%C3%BC%2B", id(2), "aaaaaaaaaaaa");
    expect(result).toEqual(
      ok({ userId: id(1), details: details("3", orgId), passwordlessRegistration: { link, lifetime: "3600s", expiration: "3600s" } }),
    );
    const query = new URL(link).searchParams;
    expect([...query]).toEqual([
      ["userID", id(1)],
      ["orgID", orgId],
      ["codeID", id(2)],
      ["code", "aaaaaaaaaaaa"],
    ]);
  });

  it("takes its lifetime and expiration from the code configuration", async () => {
    const ports = importPorts({ config: { codes: { passwordless: { lifetimeSeconds: 600 } } } });

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet }, context);

    const link = passwordlessLink(DEFAULT_ORIGIN, id(1), "acme", id(2), "aaaaaaaaaaaa");
    expect(result).toEqual(ok({ userId: id(1), details: details("3"), passwordlessRegistration: { link, lifetime: "600s", expiration: "600s" } }));
    expect(ports.storage.events()[2]?.payload).toEqual({ id: id(2), code: storedCode("aaaaaaaaaaaa"), expiry: "600s" });
  });

  it("carries a fresh 12-character code from the real random source that is stored only as its keyed hash", async () => {
    const ports = importPorts({ random: { fill: (bytes) => crypto.getRandomValues(bytes) } });

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet }, context);

    const link = result._unsafeUnwrap().passwordlessRegistration?.link ?? "";
    const code = new URL(link).searchParams.get("code") ?? "";
    expect(code).toMatch(/^[a-zA-Z0-9]{12}$/);
    expect(ports.storage.events()[2]?.payload).toEqual({ id: id(2), code: storedCode(code), expiry: "3600s" });
    expect(JSON.stringify(ports.storage.snapshot()).includes(code)).toBe(false);
  });

  it("comes beside the initialization mail when there is no password: the link itself is never mailed", async () => {
    const ports = importPorts();

    const result = await importHumanUser(ports, { ...minimalImport(), email: VERIFIED, requestPasswordlessRegistration: true }, context);

    // Ids: the user, the mail, the passwordless code. Codes: the init code, then the passwordless one.
    const link = passwordlessLink(DEFAULT_ORIGIN, id(1), "acme", id(3), "bbbbbbbbbbbb");
    expect(result).toEqual(ok({ userId: id(1), details: details("4"), passwordlessRegistration: { link, lifetime: "3600s", expiration: "3600s" } }));
    expect(typesAndPayloads(ports.storage.events())).toEqual([
      ["user.human.added", addedPayload()],
      ["user.human.email.verified", {}],
      INIT_EVENT,
      ["user.human.passwordless.initialization.code.added", { id: id(3), code: storedCode("bbbbbbbbbbbb"), expiry: "3600s" }],
    ]);
    expect(ports.mailer.sent).toEqual([annInitMail()]);
  });

  it("is not made when requestPasswordlessRegistration is false", async () => {
    const ports = importPorts();

    const result = await importHumanUser(ports, { ...minimalImport(), ...quiet, requestPasswordlessRegistration: false }, context);

    expect(result).toEqual(ok({ userId: id(1), details: details("2") }));
    expect(ports.storage.events().map((event) => event.type)).toEqual(["user.human.added", "user.human.email.verified"]);
  });
});

describe("importHumanUser: events", () => {
  it("are written in the contract's order, numbered 1..n, and the response names the last", async () => {
    const sms = recordingSms();
    const ports = importPorts({ sms });
    const request = {
      ...minimalImport(),
      phone: { phone: "+41791234567" },
      password: PLAIN,
      idps: [
        { configId: "idp-acme", externalUserId: "ext-1" },
        { configId: "idp-global", externalUserId: "ext-2", displayName: "Ann" },
      ],
      requestPasswordlessRegistration: true,
    };

    const result = await importHumanUser(ports, request, context);

    // Ids: user 1, mail 2, SMS 3, passwordless code 4. Codes: init, phone, passwordless.
    const link = passwordlessLink(DEFAULT_ORIGIN, id(1), "acme", id(4), "cccccccccccc");
    expect(result).toEqual(ok({ userId: id(1), details: details("6"), passwordlessRegistration: { link, lifetime: "3600s", expiration: "3600s" } }));
    expect(ports.storage.events()).toEqual([
      storedEvent(1, "user.human.added", addedPayload({ phone: "+41791234567", encodedHash: fakeHash(PLAIN), changeRequired: false })),
      storedEvent(2, INIT_EVENT[0], INIT_EVENT[1]),
      storedEvent(3, "user.human.phone.code.added", { code: storedCode("BBBBBB"), expiry: "3600s" }),
      storedEvent(4, "user.human.externalidp.added", { idpConfigId: "idp-acme", userId: "ext-1" }),
      storedEvent(5, "user.human.externalidp.added", { idpConfigId: "idp-global", userId: "ext-2", displayName: "Ann" }),
      storedEvent(6, "user.human.passwordless.initialization.code.added", { id: id(4), code: storedCode("cccccccccccc"), expiry: "3600s" }),
    ]);

    // No plain code or password anywhere in what is stored once the messages are out.
    const stored = JSON.stringify(ports.storage.snapshot());
    for (const secret of ["AAAAAA", "BBBBBB", "cccccccccccc", PLAIN]) expect(stored.includes(secret)).toBe(false);
    expect([ports.mailer.sent.map((mail) => mail.code), sms.sent.map((message) => message.code)]).toEqual([["AAAAAA"], ["BBBBBB"]]);
  });

  it("are numbered per user: a second user starts again at 1", async () => {
    const ports = importPorts();
    await importHumanUser(ports, minimalImport(), context);
    const second = await importHumanUser(ports, { ...minimalImport(), email: { email: "bob@acme.test" } }, { requester: { userId: "root", orgId: GLOBEX.id, instanceAdmin: true }, orgId: ACME.id });

    expect(second).toEqual(ok({ userId: id(3), details: details("2") }));
    expect(ports.storage.events().map((event) => [event.aggregateId, event.sequence])).toEqual([
      [id(1), 1],
      [id(1), 2],
      [id(3), 1],
      [id(3), 2],
    ]);
  });
});
