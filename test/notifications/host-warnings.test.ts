// A failure the host must act on reaches its logger (or else the console) as a warning, once per
// cause: a mailer that cannot send at all, phone codes with no SMS sender, a notification gone dead.
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import { MailerSetupError, type Mailer } from "../../src/ports/mailer.js";
import type { OutboxNotification } from "../../src/ports/storage.js";
import { emailNotification, manualClock, phoneNotification, recordingLogger, writeOf, zeroRandom } from "./helpers.js";

const MAILER_SETUP = "human-users: the mailer cannot send any mail until its set-up is fixed; notifications stay pending and are retried (warned once)";
const SMS_MISSING = "human-users: phone codes are waiting for an SMS sender (ports.sms); they stay pending and are retried (warned once)";
const DEAD = "human-users: a notification is dead: its code will not reach the user; see the delivery report or the logger's errors for more (warned once)";
const NOT_INSTALLED = "MailerSetupError: smtpMailer needs the nodemailer package: npm install nodemailer";

/** A mailer whose transport is missing, as smtpMailer is without nodemailer. */
const unconfiguredMailer: Mailer = {
  send: () => Promise.reject(new MailerSetupError("smtpMailer needs the nodemailer package: npm install nodemailer")),
};

async function storeWith(notifications: readonly OutboxNotification[]) {
  const storage = memoryStore();
  // One user per notification: each its own write.
  for (const [index, notification] of notifications.entries()) await storage.userLog.append(writeOf([notification], `u-${index + 1}`));
  return storage;
}

function mails(count: number): OutboxNotification[] {
  return Array.from({ length: count }, (_, index) => emailNotification({ id: `n-${index + 1}`, userId: `u-${index + 1}` }));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("warnings the host must act on", () => {
  it("a mailer that cannot send is one warning on the host's logger, however many mails and rounds fail", async () => {
    const storage = await storeWith(mails(3));
    const logger = recordingLogger();
    const clock = manualClock();
    const ports = { storage, mailer: unconfiguredMailer, clock, logger, random: zeroRandom };

    await deliverPendingNotifications(ports);
    clock.advance(60_000);
    await deliverPendingNotifications(ports);

    expect(logger.entries.filter((entry) => entry.level === "warn" && entry.message !== "human-users: notification delivery failed, will retry")).toEqual([
      { level: "warn", message: MAILER_SETUP, fields: { notificationId: "n-1", error: NOT_INSTALLED } },
    ]);
  });

  it("without a logger, it reaches the console as one warning, and nothing else is printed", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const storage = await storeWith(mails(2));
    const clock = manualClock();
    const ports = { storage, mailer: unconfiguredMailer, clock, random: zeroRandom };

    const first = await deliverPendingNotifications(ports);
    clock.advance(60_000);
    await deliverPendingNotifications(ports);

    expect(first.retrying.map((failed) => [failed.id, failed.error])).toEqual([
      ["n-1", NOT_INSTALLED],
      ["n-2", NOT_INSTALLED],
    ]);
    expect({ warn: warn.mock.calls, error: error.mock.calls, log: log.mock.calls }).toEqual({
      warn: [[MAILER_SETUP, { notificationId: "n-1", error: NOT_INSTALLED }]],
      error: [],
      log: [],
    });
  });

  it("a notification gone dead is one warning, not one per dead notification", async () => {
    const storage = await storeWith(mails(2));
    const logger = recordingLogger();
    const failing: Mailer = { send: () => Promise.reject(new Error("mailbox full")) };
    const ports = { storage, mailer: failing, clock: manualClock(), logger, random: zeroRandom, config: { delivery: { maxAttempts: 1 } } };

    const report = await deliverPendingNotifications(ports);

    const fieldsOf = (id: string, userId: string) => ({ notificationId: id, kind: "email.verification", userId, orgId: "org-1", attempts: 1, error: "Error: mailbox full" });
    expect(report.dead.map((failed) => failed.id)).toEqual(["n-1", "n-2"]);
    expect(logger.entries).toEqual([
      { level: "error", message: "human-users: notification is dead, no more delivery attempts", fields: fieldsOf("n-1", "u-1") },
      { level: "warn", message: DEAD, fields: fieldsOf("n-1", "u-1") },
      { level: "error", message: "human-users: notification is dead, no more delivery attempts", fields: fieldsOf("n-2", "u-2") },
    ]);
  });

  it("phone codes with no SMS sender are one warning", async () => {
    const storage = await storeWith([phoneNotification({ id: "p-1" }), phoneNotification({ id: "p-2", userId: "u-2" })]);
    const logger = recordingLogger();
    const mailer: Mailer = { send: () => Promise.resolve() };

    await deliverPendingNotifications({ storage, mailer, clock: manualClock(), logger, random: zeroRandom });

    expect(logger.entries.filter((entry) => entry.message === SMS_MISSING)).toEqual([
      { level: "warn", message: SMS_MISSING, fields: { notificationId: "p-1", error: "no SMS sender configured (ports.sms): the phone code cannot be sent" } },
    ]);
  });

  it("each cause is warned once per logger: a second logger hears it too", async () => {
    const first = recordingLogger();
    const second = recordingLogger();
    for (const logger of [first, first, second]) {
      await deliverPendingNotifications({ storage: await storeWith(mails(1)), mailer: unconfiguredMailer, clock: manualClock(), logger, random: zeroRandom });
    }
    const warnings = (logger: typeof first) => logger.entries.filter((entry) => entry.message === MAILER_SETUP).length;
    expect([warnings(first), warnings(second)]).toEqual([1, 1]);
  });

  it("a mailer failure the host need not act on (a refusing server) is no warning", async () => {
    const storage = await storeWith(mails(1));
    const logger = recordingLogger();
    const refusing: Mailer = { send: () => Promise.reject(new Error("450 mailbox busy")) };

    await deliverPendingNotifications({ storage, mailer: refusing, clock: manualClock(), logger, random: zeroRandom });

    expect(logger.entries.map((entry) => entry.message)).toEqual(["human-users: notification delivery failed, will retry"]);
  });
});
