import { describe, expect, it } from "vitest";
import { memoryMailer } from "../../src/adapters/memory/mailer.js";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { deliverWrittenNotifications, deliverPendingNotifications, type DeliveryPorts } from "../../src/notifications/deliver.js";
import type { SmsMessage } from "../../src/ports/sms-sender.js";
import type { OutboxNotification, PendingNotification, Storage } from "../../src/ports/storage.js";
import type { Telemetry } from "../../src/ports/telemetry.js";
import {
  emailNotification,
  mailOf,
  manualClock,
  phoneNotification,
  recordingLogger,
  start,
  writeOf,
  zeroRandom,
} from "./helpers.js";

async function setUp(notifications: readonly OutboxNotification[]) {
  const storage = memoryStore();
  await storage.userLog.append(writeOf(notifications));
  const mailer = memoryMailer();
  const clock = manualClock();
  const logger = recordingLogger();
  return { storage, mailer, clock, logger, random: zeroRandom };
}

describe("deliverPendingNotifications", () => {
  it("hands a pending email to the mailer and marks it delivered, erasing code and link", async () => {
    const notification = emailNotification();
    const ports = await setUp([notification]);

    const report = await deliverPendingNotifications(ports);

    expect(report).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
    expect(ports.mailer.sent).toEqual([mailOf(notification)]);
    expect(ports.storage.notifications()).toEqual([
      { ...notification, code: "", link: "", attempts: 0, state: "delivered", deliveredAt: start.toISOString() },
    ]);
    expect(await deliverPendingNotifications(ports)).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(ports.mailer.sent).toHaveLength(1);
  });

  it("delivers what a write left in the outbox when the process stopped before delivery", async () => {
    const storage = memoryStore();
    const first = emailNotification();
    const second = emailNotification({ id: "n-2", kind: "email.initialization" });
    // The write happened; the process died before any mailer was called.
    await storage.userLog.append(writeOf([first, second]));
    const mailer = memoryMailer();

    const report = await deliverPendingNotifications({ storage, mailer, clock: manualClock() });

    expect(report).toEqual({ delivered: ["n-1", "n-2"], retrying: [], dead: [], errors: [] });
    expect(mailer.sent).toEqual([mailOf(first), mailOf(second)]);
  });

  it("schedules a retry with backoff after a refusal and delivers once the retry time has come", async () => {
    const notification = emailNotification();
    const ports = await setUp([notification]);
    ports.mailer.failNext(2);

    const first = await deliverPendingNotifications(ports);
    // Zero jitter: half of the 30 s nominal delay.
    expect(first).toEqual({
      delivered: [],
      retrying: [
        {
          id: "n-1",
          kind: "email.verification",
          userId: "u-1",
          orgId: "org-1",
          attempts: 1,
          error: "Error: memoryMailer: delivery refused (test setting)",
          retryAt: "2025-03-01T10:00:15.000Z",
        },
      ],
      dead: [],
      errors: [],
    });
    expect(ports.storage.notifications()).toEqual([
      {
        ...notification,
        attempts: 1,
        state: "pending",
        failedAt: start.toISOString(),
        lastError: "Error: memoryMailer: delivery refused (test setting)",
        retryAt: "2025-03-01T10:00:15.000Z",
      },
    ]);

    ports.clock.advance(14_999);
    expect(await deliverPendingNotifications(ports)).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });

    ports.clock.advance(1);
    const second = await deliverPendingNotifications(ports);
    // Second failure: nominal 60 s, so 30 s later.
    expect(second.retrying.map((failed) => [failed.attempts, failed.retryAt])).toEqual([[2, "2025-03-01T10:00:45.000Z"]]);

    ports.clock.set(new Date("2025-03-01T10:00:45.000Z"));
    expect(await deliverPendingNotifications(ports)).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
    expect(ports.mailer.sent).toEqual([mailOf(notification)]);
    expect(ports.mailer.attempted).toHaveLength(3);
    expect(ports.logger.entries.map((entry) => [entry.level, entry.message])).toEqual([
      ["warn", "human-users: notification delivery failed, will retry"],
      ["warn", "human-users: notification delivery failed, will retry"],
    ]);
  });

  it("gives up after the configured attempts: the notification is dead, reported and logged", async () => {
    const notification = emailNotification();
    const ports = { ...(await setUp([notification])), config: { delivery: { maxAttempts: 2 } } };
    ports.mailer.failAlways(true);

    await deliverPendingNotifications(ports);
    ports.clock.advance(60_000);
    const last = await deliverPendingNotifications(ports);

    const dead = {
      id: "n-1",
      kind: "email.verification",
      userId: "u-1",
      orgId: "org-1",
      attempts: 2,
      error: "Error: memoryMailer: delivery refused (test setting)",
    };
    expect(last).toEqual({ delivered: [], retrying: [], dead: [dead], errors: [] });
    const fields = {
      notificationId: "n-1",
      kind: "email.verification",
      userId: "u-1",
      orgId: "org-1",
      attempts: 2,
      error: "Error: memoryMailer: delivery refused (test setting)",
    };
    // The error line for this notification, and the host's one warning that notifications die.
    expect(ports.logger.entries.slice(-2)).toEqual([
      { level: "error", message: "human-users: notification is dead, no more delivery attempts", fields },
      {
        level: "warn",
        message: "human-users: a notification is dead: its code will not reach the user; see the delivery report or the logger's errors for more (warned once)",
        fields,
      },
    ]);
    expect(ports.storage.notifications()).toEqual([
      {
        ...notification,
        code: "",
        link: "",
        attempts: 2,
        state: "dead",
        failedAt: "2025-03-01T10:01:00.000Z",
        lastError: "Error: memoryMailer: delivery refused (test setting)",
      },
    ]);
    ports.clock.advance(24 * 3600_000);
    expect(await deliverPendingNotifications(ports)).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(ports.mailer.attempted).toHaveLength(2);
  });

  it("delivers only the ids asked for", async () => {
    const ports = await setUp([emailNotification(), emailNotification({ id: "n-2" }), emailNotification({ id: "n-3" })]);

    const report = await deliverPendingNotifications(ports, { ids: ["n-3", "n-1"] });

    expect(report).toEqual({ delivered: ["n-1", "n-3"], retrying: [], dead: [], errors: [] });
    expect(ports.mailer.sent.map((message) => message.id)).toEqual(["n-1", "n-3"]);
    expect(await deliverPendingNotifications(ports, { ids: [] })).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
  });

  it("delivers at most `limit` notifications per call", async () => {
    const ports = await setUp([emailNotification(), emailNotification({ id: "n-2" }), emailNotification({ id: "n-3" })]);

    expect((await deliverPendingNotifications(ports, { limit: 2 })).delivered).toEqual(["n-1", "n-2"]);
    expect((await deliverPendingNotifications(ports, { limit: 2 })).delivered).toEqual(["n-3"]);
  });

  it("leases nothing more once its signal is aborted; the sends in flight are recorded", async () => {
    const ports = await setUp([emailNotification(), emailNotification({ id: "n-2" }), emailNotification({ id: "n-3" })]);
    expect(await deliverPendingNotifications(ports, { signal: { aborted: true } })).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    const controller = new AbortController();
    // Slices of one: the stop comes while the first is sent.
    const sending = { ...ports, config: { delivery: { concurrency: 1 } }, mailer: { send: () => Promise.resolve(controller.abort()) } };
    expect(await deliverPendingNotifications(sending, { signal: controller.signal })).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
    // A signal that throws when read stops too.
    const throwing = { get aborted(): boolean { throw new Error("broken"); } };
    expect((await deliverPendingNotifications(ports, { signal: throwing })).delivered).toEqual([]);
  });

  it("rounds a limit down, so that at most that many go on every store, and refuses one that is no finite number", async () => {
    const ports = await setUp([emailNotification(), emailNotification({ id: "n-2" }), emailNotification({ id: "n-3" }), emailNotification({ id: "n-4" })]);
    const empty = { delivered: [], retrying: [], dead: [], errors: [] };
    for (const limit of [0.5, 1e-9, -3]) expect(await deliverPendingNotifications(ports, { limit })).toEqual(empty);
    const refused = { ...empty, errors: [{ stage: "configuration", error: "invalid options: limit must be a finite number" }] };
    for (const limit of [Number.NaN, Number.POSITIVE_INFINITY, "2" as unknown as number]) expect(await deliverPendingNotifications(ports, { limit })).toEqual(refused);
    expect(ports.mailer.sent).toEqual([]);
    // null, as JavaScript callers write "none", is the default limit.
    expect((await deliverPendingNotifications(ports, { limit: null as unknown as number, ids: ["n-4"] })).delivered).toEqual(["n-4"]);
    // 2.5 is 2 (a SQL LIMIT refuses 2.5; the memory store sent 3).
    expect((await deliverPendingNotifications(ports, { limit: 2.5 })).delivered).toEqual(["n-1", "n-2"]);
    expect((await deliverPendingNotifications(ports, { limit: 1.9 })).delivered).toEqual(["n-3"]);
  });

  it("does not send a code that has expired: the notification is dead at once", async () => {
    const ports = await setUp([emailNotification()]);
    ports.clock.set(new Date("2025-03-01T11:00:00.000Z"));

    const report = await deliverPendingNotifications(ports);

    expect(report).toEqual({
      delivered: [],
      retrying: [],
      dead: [
        {
          id: "n-1",
          kind: "email.verification",
          userId: "u-1",
          orgId: "org-1",
          attempts: 1,
          error: "the code expired before it could be delivered",
        },
      ],
      errors: [],
    });
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("sends a phone code through the SMS port", async () => {
    const ports = await setUp([phoneNotification()]);
    const texts: SmsMessage[] = [];
    const sms = { send: (message: SmsMessage) => Promise.resolve(void texts.push(message)) };

    const report = await deliverPendingNotifications({ ...ports, sms });

    expect(report).toEqual({ delivered: ["n-phone"], retrying: [], dead: [], errors: [] });
    expect(texts).toEqual([
      { id: "n-phone", to: "+41791234567", text: "Your verification code is ZX81AB. It is valid for 1 hour.", code: "ZX81AB" },
    ]);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("keeps a phone code for retry, with a clear reason, when no SMS port is configured", async () => {
    const ports = await setUp([phoneNotification()]);

    const report = await deliverPendingNotifications(ports);

    expect(report).toEqual({
      delivered: [],
      retrying: [
        {
          id: "n-phone",
          kind: "phone.verification",
          userId: "u-1",
          orgId: "org-1",
          attempts: 1,
          error: "no SMS sender configured (ports.sms): the phone code cannot be sent",
          retryAt: "2025-03-01T10:00:15.000Z",
        },
      ],
      dead: [],
      errors: [],
    });
  });

  it("treats a mailer that throws instead of rejecting as a refusal", async () => {
    const ports = await setUp([emailNotification()]);
    const mailer = {
      send: (): Promise<void> => {
        throw new TypeError("not connected");
      },
    };

    const report = await deliverPendingNotifications({ ...ports, mailer });

    expect(report.retrying.map((failed) => failed.error)).toEqual(["TypeError: not connected"]);
  });

  it("sends nothing with a configuration the check refuses, names each problem, and keeps the notifications for when it is fixed", async () => {
    const notification = emailNotification();
    const ports = await setUp([notification]);
    const config = {
      messages: { en: { "email.verification": { subject: "Hi {{firstName}}", text: "{{code}}", html: "{{code}}" } } },
      delivery: { maxAttempts: 0, maxAttempt: 3 },
    } as unknown as NonNullable<DeliveryPorts["config"]>;
    const error =
      "invalid configuration: config.delivery.maxAttempt is not a delivery setting (did you mean config.delivery.maxAttempts?); " +
      "config.delivery.maxAttempts must be a whole number, 1 or more; " +
      'config.messages["en"]["email.verification"].subject: unknown placeholder {{firstName}} in message template';

    const refused = await deliverPendingNotifications({ ...ports, config });

    expect(refused).toEqual({ delivered: [], retrying: [], dead: [], errors: [{ stage: "configuration", error }] });
    expect(ports.logger.entries).toEqual([{ level: "error", fields: { error }, message: "human-users: notifications are not delivered with these ports: the configuration cannot be used (logged once per ports object)" }]);
    expect([ports.mailer.attempted, ports.storage.notifications().map((record) => [record.id, record.state, record.attempts])]).toEqual([[], [[notification.id, "pending", 0]]]);
    // A delivery process makes no code, so a durable store needs no keys for it.
    const durable = { ...ports, storage: Object.assign(Object.create(ports.storage) as typeof ports.storage, { durable: true }) };
    expect((await deliverPendingNotifications(durable)).delivered).toEqual([notification.id]);
  });

  it("makes a written notification dead at once when the host's template cannot be filled (changed after the operation's check)", async () => {
    const ports = await setUp([emailNotification()]);
    const config = {
      messages: { en: { "email.verification": { subject: "Hi {{firstName}}", text: "{{code}}", html: "{{code}}" } } },
    };

    const report = await deliverWrittenNotifications({ ...ports, config }, [emailNotification().id], undefined, false);

    expect(report.dead.map((failed) => failed.error)).toEqual(["unknown placeholder {{firstName}} in message template"]);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("makes a written notification dead at once when the host's template lacks a part, and goes on with the others", async () => {
    const notifications = [emailNotification({ id: "n-fr", locale: "fr" }), emailNotification({ id: "n-en-1" }), emailNotification({ id: "n-en-2" })];
    const ports = await setUp(notifications);
    const config = { messages: { fr: { "email.verification": { subject: "S only" } } } } as unknown as NonNullable<DeliveryPorts["config"]>;

    const report = await deliverWrittenNotifications({ ...ports, config }, ["n-fr", "n-en-1", "n-en-2"], undefined, false);

    expect({ delivered: [...report.delivered].sort(), dead: report.dead.map((failed) => [failed.id, failed.error]), errors: report.errors }).toEqual({
      delivered: ["n-en-1", "n-en-2"],
      dead: [["n-fr", "the message template's text is missing or not text"]],
      errors: [],
    });
  });

  it("counts a mailer's rejection with a value that cannot be turned into text as a failed attempt", async () => {
    const unprintable: readonly unknown[] = [
      Object.create(null),
      { toString: () => { throw new Error("no"); } },
      Object.defineProperty(new Error("x"), "message", { get: () => { throw new Error("no"); } }),
    ];
    for (const value of unprintable) {
      const ports = await setUp([emailNotification()]);
      const report = await deliverPendingNotifications({ ...ports, mailer: { send: () => Promise.reject(value) } });
      expect({ retrying: report.retrying.map((failed) => failed.attempts), errors: report.errors }).toEqual({ retrying: [1], errors: [] });
    }
  });

  it("never rejects when the store fails: the failure is reported and logged", async () => {
    const ports = await setUp([emailNotification()]);
    const broken: Storage = { ...ports.storage, outbox: { ...ports.storage.outbox, lease: () => Promise.reject(new Error("connection refused")) } };

    const report = await deliverPendingNotifications({ ...ports, storage: broken });

    expect(report).toEqual({ delivered: [], retrying: [], dead: [], errors: [{ stage: "lease", error: "Error: connection refused" }] });
    expect(ports.logger.entries).toEqual([
      {
        level: "error",
        message: "human-users: notifications could not be leased for delivery",
        fields: { error: "Error: connection refused" },
      },
    ]);
  });

  it("reports a delivery it could not record, which makes it due again after the lease", async () => {
    const ports = await setUp([emailNotification()]);
    const storage: Storage = { ...ports.storage, outbox: { ...ports.storage.outbox, markDelivered: () => Promise.reject(new Error("write failed")) } };

    const report = await deliverPendingNotifications({ ...ports, storage });

    expect(report).toEqual({
      delivered: ["n-1"],
      retrying: [],
      dead: [],
      errors: [{ stage: "markDelivered", id: "n-1", error: "Error: write failed" }],
    });
    ports.clock.advance(300_000);
    expect((await deliverPendingNotifications(ports)).delivered).toEqual(["n-1"]);
    expect(ports.mailer.sent.map((message) => message.id)).toEqual(["n-1", "n-1"]);
  });

  it("survives a logger that throws", async () => {
    const ports = await setUp([emailNotification()]);
    ports.mailer.failNext(1);
    const logger = {
      warn: () => {
        throw new Error("log sink down");
      },
      error: () => {
        throw new Error("log sink down");
      },
    };

    const report = await deliverPendingNotifications({ ...ports, logger });

    expect(report.retrying.map((failed) => failed.id)).toEqual(["n-1"]);
  });
});

describe("a refusal that quotes the message", () => {
  it.each([false, true])("keeps the code and link out of the report, the logger and the record (permanent: %s)", async (permanent) => {
    const notification = emailNotification();
    const ports = await setUp([notification]);
    // A mail server's content filter that quotes the link it blocked, code and all.
    const quoting = {
      send: () => {
        const refusal = new Error(`554 5.7.1 blocked URL ${notification.link} (code ${notification.code})`);
        if (permanent) refusal.name = "PermanentDeliveryError";
        return Promise.reject(refusal);
      },
    };

    const report = await deliverPendingNotifications({ ...ports, mailer: quoting });

    const error = `${permanent ? "PermanentDeliveryError" : "Error"}: 554 5.7.1 blocked URL [link] (code [code])`;
    const failures = permanent ? report.dead : report.retrying;
    expect(failures.map((failure) => failure.error)).toEqual([error]);
    expect(ports.storage.notifications().map((record) => record.lastError)).toEqual([error]);
    // A message waiting for its retry keeps its code and link to send them: only its error loses them.
    const told = JSON.stringify([report, ports.logger.entries, ports.storage.notifications().map((record) => record.lastError)]);
    expect([told.includes(notification.code), told.includes("code=")]).toEqual([false, false]);
  });
});

describe("a refusal that quotes the code in another case, or so long that it is cut inside the code", () => {
  it("keeps every case of the code out, and cuts the text only after the code is out", async () => {
    const notification = emailNotification({ id: "n-1" });
    const ports = await setUp([notification, emailNotification({ id: "n-2" })]);
    const lowered = notification.link.toLowerCase();
    // The cut at 1,000 characters would fall three characters into the code.
    const padding = "x".repeat(1000 - "Error: ".length - 3);
    const refusals = new Map([["n-1", `554 blocked ${lowered}`], ["n-2", `${padding}${notification.code}`]]);
    const mailer = { send: (message: { readonly id: string }) => Promise.reject(new Error(refusals.get(message.id))) };

    const report = await deliverPendingNotifications({ ...ports, mailer });

    const errors = [...report.retrying].sort((a, b) => a.id.localeCompare(b.id)).map((failure) => failure.error);
    // The code out first, then the cut (which here falls in the "[code]" put in its place).
    expect(errors).toEqual([`Error: 554 blocked ${lowered.replace(notification.code.toLowerCase(), "[code]")}`, `${`Error: ${padding}[code]`.slice(0, 1000)}...`]);
    const told = JSON.stringify([report, ports.logger.entries, ports.storage.notifications().map((record) => record.lastError)]);
    const codePrefix = notification.code.slice(0, 3);
    expect([told.toLowerCase().includes(notification.code.toLowerCase()), told.includes(`${padding}${codePrefix}`)]).toEqual([false, false]);
  });
});

describe("a refusal that quotes a code of reserved characters as its link carries it", () => {
  it("takes the URL-encoded code out too, in any case of its escapes", async () => {
    const code = "a/b?c&d";
    const notification = emailNotification({ id: "n-1", code, link: `https://app.example.com/verify?code=${encodeURIComponent(code)}` });
    const ports = await setUp([notification]);
    const mailer = { send: () => Promise.reject(new Error(`blocked ${encodeURIComponent(code).toLowerCase()} and ${code}`)) };
    const report = await deliverPendingNotifications({ ...ports, mailer });
    expect(report.retrying.map((failure) => failure.error)).toEqual(["Error: blocked [code] and [code]"]);
  });
});

describe("a delivery round ended by a port breaking its promise", () => {
  const brokenClock = { now: (): Date => { throw new Error("clock broke"); } };
  /** Runs the work, and throws synchronously for a delivery's span as a broken tracer might. */
  const throwingTelemetry: Telemetry = {
    span: (name, _attributes, work) => {
      if (name === "notification.deliver") throw new Error("tracer broke");
      return work({ setAttributes: () => undefined, fail: () => undefined });
    },
    count: () => undefined,
  };
  const leased = (count: number): PendingNotification[] =>
    Array.from({ length: count }, (_, index) => ({ ...emailNotification({ id: `n-${index + 1}` }), attempts: 0 }));

  it.each([1, 2])("reports an internal error, logs it and sends nothing, with %i notification(s) leased", async (count) => {
    const storage = memoryStore();
    await storage.userLog.append(writeOf(leased(count)));
    const mailer = memoryMailer();
    const logger = recordingLogger();

    const report = await deliverWrittenNotifications({ storage, mailer, clock: brokenClock, logger }, [], { notifications: leased(count), until: start }, false);

    expect(report).toEqual({ delivered: [], retrying: [], dead: [], errors: [{ stage: "internal", error: "Error: clock broke" }] });
    expect(logger.entries).toEqual([{ level: "error", message: "human-users: notification delivery stopped by an internal error", fields: { error: "Error: clock broke" } }]);
    expect(mailer.attempted).toEqual([]);
  });

  it.each([
    ["no valid time", new Date(Number.NaN), "Error: ports.clock.now() gave no valid time"],
    ["a time after year 9999", new Date(Date.UTC(20_000, 0, 1)), "Error: ports.clock.now() gave a time outside the years 0001 to 9999 that RFC 3339 writes and PostgreSQL stores"],
  ])("does the same for a clock that gives %s, and gives up no notification as expired", async (_, time, error) => {
    const storage = memoryStore();
    await storage.userLog.append(writeOf(leased(1)));
    const mailer = memoryMailer();
    const report = await deliverPendingNotifications({ storage, mailer, clock: { now: () => time }, logger: recordingLogger() });
    expect(report).toEqual({ delivered: [], retrying: [], dead: [], errors: [{ stage: "internal", error }] });
    expect(storage.notifications().map((notification) => notification.state)).toEqual(["pending"]);
    expect(mailer.attempted).toEqual([]);
  });

  it.each([1, 2])("delivers as without telemetry when the delivery's span throws, with %i notification(s) leased: tracing never changes an outcome", async (count) => {
    const storage = memoryStore();
    await storage.userLog.append(writeOf(leased(count)));
    const mailer = memoryMailer();
    const logger = recordingLogger();

    const report = await deliverWrittenNotifications({ storage, mailer, clock: manualClock(), telemetry: throwingTelemetry, logger }, [], { notifications: leased(count), until: new Date(start.getTime() + 300_000) }, false);

    const ids = leased(count).map((notification) => notification.id);
    expect(report).toEqual({ delivered: ids, retrying: [], dead: [], errors: [] });
    expect(mailer.attempted.length).toBe(count);
    expect(storage.notifications().map((notification) => notification.state)).toEqual(ids.map(() => "delivered"));
    expect(logger.entries.map((entry) => entry.message)).toEqual(["human-users: the telemetry port failed; the work went on without it (warned once)"]);
  });
});
