// A mailer or SMS sender whose `send` never settles must not hold delivery: after
// `config.delivery.sendTimeoutSeconds` the attempt counts as failed and is retried with backoff.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryMailer } from "../../src/adapters/memory/mailer.js";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { configurationProblems } from "../../src/core/config-check.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import { resolveDeliverySettings } from "../../src/notifications/settings.js";
import { createHumanUser } from "../../src/operations/index.js";
import { hashingPaths } from "../../src/passwords/primitives/paths.js";
import type { HumanUsersConfig } from "../../src/ports/config.js";
import type { MailMessage } from "../../src/ports/mailer.js";
import { failureName, type Telemetry } from "../../src/ports/telemetry.js";
import { FIRST_ID, member, minimalCreate, testPorts } from "../operations/support/ports.js";
import { emailNotification, mailOf, manualClock, phoneNotification, recordingLogger, start, writeOf, zeroRandom } from "./helpers.js";

const never = (): Promise<void> => new Promise<void>(() => undefined);

/** Whether `promise` has settled, read after the fake timers have been advanced. */
function watch(promise: Promise<unknown>): { readonly settled: () => boolean } {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { settled: () => settled };
}

async function setUp(config: HumanUsersConfig = {}) {
  const storage = memoryStore();
  await storage.userLog.append(writeOf([emailNotification()]));
  return { storage, mailer: { send: never }, clock: manualClock(), logger: recordingLogger(), random: zeroRandom, config };
}

/** The report of a first attempt that failed with `error` (zero jitter: retried 15 s later). */
function retryingReport(error: string, notification = emailNotification()) {
  return {
    delivered: [],
    retrying: [{ id: notification.id, kind: notification.kind, userId: "u-1", orgId: "org-1", attempts: 1, error, retryAt: "2025-03-01T10:00:15.000Z" }],
    dead: [],
    errors: [],
  };
}

// An operation's first call in a process waits for the one lookup of which hashing runs natively
// (an import, real I/O): made here, before time is faked, so that the limits below are all it waits for.
beforeAll(async () => {
  await hashingPaths();
});

// Fake timers throughout: the limits pass in no time, and a timer left behind is counted.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the time limit on a send", () => {
  it("makes a send that never settles a failed attempt after sendTimeoutSeconds, retried with the usual backoff", async () => {
    const ports = await setUp({ delivery: { sendTimeoutSeconds: 2 } });

    const delivering = deliverPendingNotifications(ports);
    const watched = watch(delivering);
    await vi.advanceTimersByTimeAsync(1999);
    expect(watched.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    const error = "SendTimeoutError: mailer.send did not settle within 2 s";
    expect(await delivering).toEqual(retryingReport(error));
    expect(ports.storage.notifications()).toEqual([
      { ...emailNotification(), attempts: 1, state: "pending", failedAt: start.toISOString(), lastError: error, retryAt: "2025-03-01T10:00:15.000Z" },
    ]);
    expect(ports.logger.entries.map((entry) => [entry.level, entry.message, entry.fields?.["error"]])).toEqual([
      ["warn", "human-users: notification delivery failed, will retry", error],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("is 60 s by default", async () => {
    const ports = await setUp();

    const delivering = deliverPendingNotifications(ports);
    const watched = watch(delivering);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(watched.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(await delivering).toEqual(retryingReport("SendTimeoutError: mailer.send did not settle within 60 s"));
  });

  it("applies to the SMS sender too", async () => {
    const storage = memoryStore();
    await storage.userLog.append(writeOf([phoneNotification()]));
    const ports = { storage, mailer: memoryMailer(), sms: { send: never }, clock: manualClock(), random: zeroRandom, config: { delivery: { sendTimeoutSeconds: 0.5 } } };

    const delivering = deliverPendingNotifications(ports);
    await vi.advanceTimersByTimeAsync(500);

    expect(await delivering).toEqual(retryingReport("SendTimeoutError: sms.send did not settle within 0.5 s", phoneNotification()));
  });

  it("ends the mailer's span as failed, so a trace shows the time-out", async () => {
    const spans: [string, string][] = [];
    const telemetry: Telemetry = {
      span: async (name, _attributes, work) => {
        try {
          const result = await work({ setAttributes: () => undefined, fail: () => undefined });
          spans.push([name, "ok"]);
          return result;
        } catch (cause) {
          spans.push([name, failureName(cause)]);
          throw cause;
        }
      },
      count: () => undefined,
    };
    const ports = { ...(await setUp({ delivery: { sendTimeoutSeconds: 1 } })), telemetry };

    const delivering = deliverPendingNotifications(ports);
    await vi.advanceTimersByTimeAsync(1000);
    await delivering;

    expect(spans).toEqual([
      ["outbox.lease", "ok"],
      ["mailer.send", "SendTimeoutError"],
      ["outbox.markFailed", "ok"],
      ["notification.deliver", "ok"],
      ["deliverPendingNotifications", "ok"],
    ]);
  });

  it("counts a send that completes after the limit as failed: the retry sends the same message again (at least once)", async () => {
    const ports = await setUp({ delivery: { sendTimeoutSeconds: 2 } });
    const sends: MailMessage[] = [];
    // Slow the first time (3 s, past the limit), quick the second.
    const slowMailer = {
      send: (message: MailMessage) =>
        new Promise<void>((resolve) => {
          sends.push(message);
          setTimeout(resolve, sends.length === 1 ? 3000 : 10);
        }),
    };

    const delivering = deliverPendingNotifications({ ...ports, mailer: slowMailer });
    await vi.advanceTimersByTimeAsync(2000);
    expect(await delivering).toEqual(retryingReport("SendTimeoutError: mailer.send did not settle within 2 s"));
    // The late success changes nothing: the outbox holds the attempt as failed.
    await vi.advanceTimersByTimeAsync(1000);
    expect(ports.storage.notifications().map((record) => [record.state, record.attempts])).toEqual([["pending", 1]]);

    ports.clock.advance(15_000);
    const retried = deliverPendingNotifications({ ...ports, mailer: slowMailer });
    await vi.advanceTimersByTimeAsync(10);
    expect(await retried).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
    expect(sends).toEqual([mailOf(emailNotification()), mailOf(emailNotification())]);
  });

  it("holds a limit longer than setTimeout can count (2^31 - 1 ms) without firing at once", async () => {
    vi.useRealTimers();
    const days = 24 * 3600;
    const ports = await setUp({ delivery: { leaseSeconds: 60 * days, sendTimeoutSeconds: 30 * days } });
    const mailer = { send: () => new Promise<void>((resolve) => setTimeout(resolve, 20)) };

    expect(await deliverPendingNotifications({ ...ports, mailer })).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
  });

  it("leaves no timer behind when the send settles in time", async () => {
    const ports = { ...(await setUp()), mailer: memoryMailer() };

    expect(await deliverPendingNotifications(ports)).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("createHumanUser with a mailer that never settles (immediateDelivery: await)", () => {
  it("answers with the user written once the time limit has passed; the mail stays in the outbox for a retry", async () => {
    const ports = testPorts({ mailer: { send: never } });

    const call = (async () => createHumanUser(ports, minimalCreate(), { requester: member }))();
    const watched = watch(call);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(watched.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect((await call)._unsafeUnwrap().userId).toBe(FIRST_ID);
    expect(ports.storage.notifications().map((record) => [record.userId, record.state, record.attempts, record.lastError])).toEqual([
      [FIRST_ID, "pending", 1, "SendTimeoutError: mailer.send did not settle within 60 s"],
    ]);
  });
});

describe("sendTimeoutSeconds in the settings", () => {
  it("defaults to 60 s, or half the lease when the lease is under 120 s, so that a send always ends within its lease", () => {
    const limits = [undefined, { leaseSeconds: 30 }, { leaseSeconds: 1 }, { sendTimeoutSeconds: 10 }, { leaseSeconds: 30, sendTimeoutSeconds: 29.5 }].map(
      (delivery) => resolveDeliverySettings(delivery === undefined ? {} : { delivery }).sendTimeoutSeconds,
    );
    expect(limits).toEqual([60, 15, 0.5, 10, 29.5]);
  });

  it("keeps the default for a limit the configuration check refuses (not above 0, or not below the lease)", () => {
    const limits = [{ sendTimeoutSeconds: 0 }, { sendTimeoutSeconds: Number.NaN }, { sendTimeoutSeconds: 300 }, { leaseSeconds: 30, sendTimeoutSeconds: 45 }].map(
      (delivery) => resolveDeliverySettings({ delivery }).sendTimeoutSeconds,
    );
    expect(limits).toEqual([60, 60, 60, 15]);
  });
});

describe("the configuration check of sendTimeoutSeconds", () => {
  const problemsOf = (delivery: unknown) => configurationProblems(testPorts({ config: { delivery } as HumanUsersConfig }));

  it("accepts a limit above 0 and below the lease, and a short lease without a limit", () => {
    expect([{ sendTimeoutSeconds: 0.5 }, { sendTimeoutSeconds: 299 }, { leaseSeconds: 120, sendTimeoutSeconds: 119.5 }, { leaseSeconds: 1 }].map(problemsOf)).toEqual([[], [], [], []]);
  });

  it("refuses a limit that is not a number of seconds above 0", () => {
    const problem = "config.delivery.sendTimeoutSeconds must be a number of seconds above 0, at most 31536000 (a year)";
    expect([{ sendTimeoutSeconds: 0 }, { sendTimeoutSeconds: -1 }, { sendTimeoutSeconds: "60" }, { sendTimeoutSeconds: Number.POSITIVE_INFINITY }].map(problemsOf)).toEqual([
      [problem],
      [problem],
      [problem],
      [problem],
    ]);
  });

  it("refuses a limit not below the lease: another process could lease and send the message while it is still being sent", () => {
    const problem = (lease: number) =>
      `config.delivery.sendTimeoutSeconds must be below config.delivery.leaseSeconds (${lease}): a send still running when its lease ends can be sent again by another process`;
    expect([{ sendTimeoutSeconds: 300 }, { sendTimeoutSeconds: 600 }, { leaseSeconds: 30, sendTimeoutSeconds: 30 }].map(problemsOf)).toEqual([
      [problem(300)],
      [problem(300)],
      [problem(30)],
    ]);
  });

  it("makes every operation answer 9 naming the setting", async () => {
    const ports = testPorts({ config: { delivery: { sendTimeoutSeconds: -1 } } });
    const message = "invalid configuration: config.delivery.sendTimeoutSeconds must be a number of seconds above 0, at most 31536000 (a year)";

    const result = await createHumanUser(ports, minimalCreate(), { requester: member });

    expect(result._unsafeUnwrapErr()).toEqual({ code: 9, message, details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-c0nf", message }] });
    expect(ports.storage.notifications()).toEqual([]);
  });
});
