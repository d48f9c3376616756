// smtpMailer where nodemailer is not installed: the mail stays pending, and a host with no logger
// still hears why, once, on the console.
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { smtpMailer } from "../../src/adapters/smtp/mailer.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import { emailNotification, manualClock, writeOf, zeroRandom } from "./helpers.js";

vi.mock("nodemailer", () => {
  throw new Error("Cannot find package 'nodemailer'");
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("smtpMailer without nodemailer", () => {
  it("keeps every mail pending and warns on the console once", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const storage = memoryStore();
    await storage.userLog.append(writeOf([emailNotification({ id: "n-1" }), emailNotification({ id: "n-2", recipient: "bob@example.com" })]));
    const mailer = smtpMailer("smtp://127.0.0.1:2525", { from: "noreply@app.example.com" });
    const clock = manualClock();
    const ports = { storage, mailer, clock, random: zeroRandom };

    const first = await deliverPendingNotifications(ports);
    clock.advance(60_000);
    const second = await deliverPendingNotifications(ports);

    const notInstalled = "MailerSetupError: smtpMailer needs the nodemailer package: npm install nodemailer";
    expect([first, second].map((report) => report.retrying.map((failed) => [failed.id, failed.error]))).toEqual([
      [
        ["n-1", notInstalled],
        ["n-2", notInstalled],
      ],
      [
        ["n-1", notInstalled],
        ["n-2", notInstalled],
      ],
    ]);
    expect(storage.notifications().map((record) => [record.id, record.state])).toEqual([
      ["n-1", "pending"],
      ["n-2", "pending"],
    ]);
    expect(warn.mock.calls).toEqual([
      [
        "human-users: the mailer cannot send any mail until its set-up is fixed; notifications stay pending and are retried (warned once)",
        { notificationId: "n-1", error: notInstalled },
      ],
    ]);
  });
});
