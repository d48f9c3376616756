// Spans and counters through OpenTelemetry's SDK (in-memory exporter and reader): a span per
// operation with its code and organization, children for storage, hashing and delivery, counters
// for operations, deliveries and the outbox backlog, and never a username, email or secret.
import * as api from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTelemetry } from "../../src/adapters/otel/index.js";
import { checkPassword, createHumanUser, importHumanUser, StorageUnavailableError } from "../../src/index.js";
import { cheapHash, cheapHasher } from "../operations/support/first-login.js";
import { BCRYPT_HASH, fakeHasher } from "../operations/support/import-fixtures.js";
import { member, minimalCreate, testPorts } from "../operations/support/ports.js";
import { patchStorage } from "../support/patch-storage.js";
import { recordingTelemetry, useAsyncContexts, type SpanSummary } from "./otel-harness.js";

let stopContexts: () => void = () => undefined;
beforeAll(() => {
  stopContexts = useAsyncContexts();
});
afterAll(() => stopContexts());

const context = { requester: member };
const UNSET = { code: 0 };

function span(name: string, parent: string | undefined, attributes: Record<string, unknown> = {}, status: SpanSummary["status"] = UNSET): SpanSummary {
  return { name, parent, attributes, status };
}

const ann = { ...minimalCreate(), password: { password: "Ann-Passw0rd!" } };

describe("telemetry through OpenTelemetry", () => {
  it("createHumanUser with a password and a mail: one span for the operation, children for storage, the hash and the delivery", async () => {
    const recording = recordingTelemetry();
    const ports = testPorts({ telemetry: recording.telemetry, passwordHasher: fakeHasher });
    expect((await createHumanUser(ports, ann, context)).isOk()).toBe(true);

    const op = "createHumanUser";
    expect(recording.tree()).toEqual([
      span(op, undefined, { "human_users.operation": op, "human_users.organization.id": "acme", "human_users.code": 0 }),
      span("directory.findOrganization", op),
      span("directory.findOrganizationByDomain", op),
      span("passwords.hash", op),
      span("userLog.append", op, { "human_users.events": 2, "human_users.claims": 2, "human_users.notifications": 1, "human_users.outcome": "ok" }),
      span("deliverPendingNotifications", op, { "human_users.delivered": 1, "human_users.retrying": 0, "human_users.dead": 0 }),
      span("notification.deliver", "deliverPendingNotifications", { "human_users.notification.kind": "email.verification", "human_users.outcome": "delivered" }),
      span("mailer.send", "notification.deliver"),
      span("outbox.markDelivered", "notification.deliver"),
    ]);
    expect(await recording.counters()).toEqual([
      { counter: "human_users.deliveries", attributes: { "human_users.notification.kind": "email.verification", "human_users.outcome": "delivered" }, value: 1 },
      { counter: "human_users.operations", attributes: { "human_users.operation": op, "human_users.code": 0 }, value: 1 },
      { counter: "human_users.outbox.backlog", attributes: {}, value: 0 },
    ]);
  });

  it("a message the operation leaves for a later round (too little lease left) is not counted as a delivery, nor off the backlog", async () => {
    const recording = recordingTelemetry();
    let now = Date.parse("2026-03-04T05:06:07Z");
    const clock = { now: () => new Date(now) };
    const ports = testPorts({ telemetry: recording.telemetry, clock, config: { delivery: { leaseSeconds: 10, sendTimeoutSeconds: 6 } } });
    // The write waits 5 s (a row lock): the operation's lease has 5 s left, under the send's 6 s limit.
    const slowWrite = patchStorage(ports.storage, {
      userLog: {
        append: (append) => {
          now += 5_000;
          return ports.storage.userLog.append(append);
        },
      },
    });
    expect((await createHumanUser({ ...ports, storage: slowWrite }, minimalCreate(), context)).isOk()).toBe(true);
    expect(await recording.counters()).toEqual([
      { counter: "human_users.operations", attributes: { "human_users.operation": "createHumanUser", "human_users.code": 0 }, value: 1 },
      { counter: "human_users.outbox.backlog", attributes: {}, value: 1 },
    ]);
  });

  it("checkPassword by login name: the claim lookup, the read, the verification and the append, with no name on any span", async () => {
    const recording = recordingTelemetry();
    const ports = testPorts({ telemetry: recording.telemetry, passwordHasher: cheapHasher, config: { immediateDelivery: "off" } });
    const body = { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test", isEmailVerified: true }, hashedPassword: { value: cheapHash("Right-Password-1") } };
    expect((await importHumanUser(ports, body, context)).isOk()).toBe(true);
    const before = recording.tree().length;
    expect((await checkPassword(ports, { loginName: "ann", password: "Right-Password-1" })).isOk()).toBe(true);

    const op = "checkPassword";
    expect(recording.tree().slice(before)).toEqual([
      span(op, undefined, { "human_users.operation": op, "human_users.organization.id": "acme", "human_users.code": 0 }),
      span("userLog.findClaimHolder", op, { "human_users.claim.kind": "username", "human_users.claim.held": true }),
      span("userLog.loadEvents", op, { "human_users.events": 2 }),
      span("passwords.verify", op, { "human_users.valid": true }),
      span("userLog.append", op, { "human_users.events": 1, "human_users.claims": 0, "human_users.notifications": 0, "human_users.outcome": "ok" }),
    ]);
  });

  it("an error answer: the code on the operation's span, a refusal is no span error, and operations are counted by code", async () => {
    const recording = recordingTelemetry();
    const ports = testPorts({ telemetry: recording.telemetry, config: { immediateDelivery: "off" } });
    await createHumanUser(ports, minimalCreate(), context);
    const spansBefore = recording.spans().length;
    expect((await createHumanUser(ports, minimalCreate(), context))._unsafeUnwrapErr().code).toBe(6);

    const op = "createHumanUser";
    // The directory answers from its cache this time: no span. The append meets the held username.
    expect(recording.tree().slice(spansBefore)).toEqual([
      span(op, undefined, { "human_users.operation": op, "human_users.organization.id": "acme", "human_users.code": 6 }),
      span("userLog.append", op, {
        "human_users.events": 2,
        "human_users.claims": 2,
        "human_users.notifications": 1,
        "human_users.outcome": "claim-held",
        "human_users.claim.kind": "username",
      }),
    ]);
    expect(await recording.counters()).toEqual([
      { counter: "human_users.operations", attributes: { "human_users.operation": op, "human_users.code": 0 }, value: 1 },
      { counter: "human_users.operations", attributes: { "human_users.operation": op, "human_users.code": 6 }, value: 1 },
      // Written, not delivered (immediate delivery is off): the backlog is 1.
      { counter: "human_users.outbox.backlog", attributes: {}, value: 1 },
    ]);
  });

  it("a store that cannot be reached: code 14, and both the operation's span and the storage call's span are errors", async () => {
    const recording = recordingTelemetry();
    const base = testPorts({ telemetry: recording.telemetry });
    const unreachable = () => Promise.reject(new StorageUnavailableError("the database cannot be reached at db.internal:5432"));
    const ports = { ...base, storage: patchStorage(base.storage, { userLog: { append: unreachable } }) };
    expect((await createHumanUser(ports, minimalCreate(), context))._unsafeUnwrapErr().code).toBe(14);

    const op = "createHumanUser";
    const failed = (reason: string) => ({ code: 2, message: reason });
    expect(recording.tree()).toEqual([
      span(op, undefined, { "human_users.operation": op, "human_users.organization.id": "acme", "human_users.code": 14, "error.type": "USER-unv4" }, failed("USER-unv4")),
      span("directory.findOrganization", op),
      span("directory.findOrganizationByDomain", op),
      span("userLog.append", op, { "human_users.events": 2, "human_users.claims": 2, "human_users.notifications": 1, "error.type": "StorageUnavailableError" }, failed("StorageUnavailableError")),
    ]);
  });

  it("a failed delivery: the notification's span says retrying, and the deliveries and backlog counters say so too", async () => {
    const recording = recordingTelemetry();
    const base = testPorts({ telemetry: recording.telemetry });
    const ports = { ...base, mailer: { send: () => Promise.reject(new Error("550 mailbox of ann@acme.test unavailable")) } };
    expect((await createHumanUser(ports, minimalCreate(), context)).isOk()).toBe(true);

    expect(recording.tree().filter((summary) => summary.parent === "deliverPendingNotifications" || summary.parent === "notification.deliver")).toEqual([
      span("notification.deliver", "deliverPendingNotifications", { "human_users.notification.kind": "email.verification", "human_users.outcome": "retrying" }),
      span("mailer.send", "notification.deliver", { "error.type": "Error" }, { code: 2, message: "Error" }),
      span("outbox.markFailed", "notification.deliver"),
    ]);
    expect(await recording.counters()).toEqual([
      { counter: "human_users.deliveries", attributes: { "human_users.notification.kind": "email.verification", "human_users.outcome": "retrying" }, value: 1 },
      { counter: "human_users.operations", attributes: { "human_users.operation": "createHumanUser", "human_users.code": 0 }, value: 1 },
      { counter: "human_users.outbox.backlog", attributes: {}, value: 1 },
    ]);
  });

  it("no span or measurement carries a username, email, phone number, code, password, hash or provider account", async () => {
    const recording = recordingTelemetry();
    const ports = testPorts({ telemetry: recording.telemetry, passwordHasher: fakeHasher });
    const secrets = {
      username: "zed-the-unique-user",
      email: "zed.mailbox@acme.test",
      phone: "+41791234567",
      password: "Zed-Unique-Passw0rd!",
      idpAccount: "idp-account-4242",
      idpName: "zed-at-idp",
      importedUser: "yara-imported",
      importedEmail: "yara.mailbox@acme.test",
      hash: BCRYPT_HASH,
    };
    const created = await createHumanUser(
      ports,
      {
        username: secrets.username,
        profile: { givenName: "Zed", familyName: "Zulu" },
        email: { email: secrets.email, returnCode: {} },
        phone: { phone: secrets.phone, returnCode: {} },
        password: { password: secrets.password },
        idpLinks: [{ idpId: "idp-acme", userId: secrets.idpAccount, userName: secrets.idpName }],
      },
      context,
    );
    const codes = [created._unsafeUnwrap().emailCode ?? "", created._unsafeUnwrap().phoneCode ?? ""];
    await createHumanUser(ports, { username: secrets.username, profile: { givenName: "Zed", familyName: "Zulu" }, email: { email: secrets.email } }, context);
    await importHumanUser(
      ports,
      { userName: secrets.importedUser, profile: { firstName: "Yara", lastName: "Young" }, email: { email: secrets.importedEmail }, hashedPassword: { value: secrets.hash } },
      { ...context, orgId: "acme" },
    );

    const seen = JSON.stringify({
      spans: recording.spans().map((recorded) => ({ name: recorded.name, attributes: recorded.attributes, status: recorded.status, events: recorded.events })),
      counters: await recording.counters(),
    }).toLowerCase();
    const leaked = [...Object.values(secrets), ...codes, "zed.mailbox", "yara"].filter((secret) => secret !== "" && seen.includes(secret.toLowerCase()));
    expect(leaked).toEqual([]);
    // Every kind of span was there to be scanned.
    expect([...new Set(recording.spans().map((recorded) => recorded.name))].sort()).toEqual([
      "createHumanUser",
      "deliverPendingNotifications",
      "directory.findIdentityProvider",
      "directory.findOrganization",
      "importHumanUser",
      "mailer.send",
      "notification.deliver",
      "outbox.markDelivered",
      "passwords.hash",
      "userLog.append",
    ]);
    expect(codes.every((code) => code.length > 0)).toBe(true);
  });

  it("openTelemetry(api) with the host's API module reports to the providers the host registered globally", async () => {
    const recording = recordingTelemetry(({ tracerProvider, meterProvider }) => {
      api.trace.setGlobalTracerProvider(tracerProvider);
      api.metrics.setGlobalMeterProvider(meterProvider);
      return openTelemetry(api);
    });
    try {
      const ports = testPorts({ telemetry: recording.telemetry, config: { immediateDelivery: "off" } });
      expect((await createHumanUser(ports, {}, context))._unsafeUnwrapErr().code).toBe(3);
      expect(recording.tree()).toEqual([span("createHumanUser", undefined, { "human_users.operation": "createHumanUser", "human_users.code": 3 })]);
      expect(await recording.counters()).toEqual([
        { counter: "human_users.operations", attributes: { "human_users.operation": "createHumanUser", "human_users.code": 3 }, value: 1 },
      ]);
    } finally {
      api.trace.disable();
      api.metrics.disable();
    }
  });
});
