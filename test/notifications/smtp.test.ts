import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { smtpMailer, type SmtpMailer } from "../../src/adapters/smtp/mailer.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import type { DeliveryReport } from "../../src/notifications/report.js";
import { emailNotification, mailOf, manualClock, recordingLogger, writeOf, zeroRandom } from "./helpers.js";
import { readMail } from "./mime.js";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js";

let server: TestSmtpServer;
let mailer: SmtpMailer;

beforeEach(async () => {
  server = await startSmtpServer();
  mailer = smtpMailer(
    { host: "127.0.0.1", port: server.port, secure: false, ignoreTLS: true, name: "localhost" },
    { from: "Example App <noreply@app.example.com>" },
  );
});

afterEach(async () => {
  mailer.close();
  await server.close();
});

async function storeWith(...notifications: Parameters<typeof writeOf>[0]) {
  const storage = memoryStore();
  await storage.userLog.append(writeOf(notifications));
  return storage;
}

/** Delivers, then moves the clock to the retry time, until nothing is retrying any more. */
async function deliverUntilSettled(ports: Parameters<typeof deliverPendingNotifications>[0] & { clock: ReturnType<typeof manualClock> }) {
  const reports: DeliveryReport[] = [];
  for (;;) {
    const report = await deliverPendingNotifications(ports);
    reports.push(report);
    const next = report.retrying[0]?.retryAt;
    if (next === undefined) return reports;
    ports.clock.set(new Date(next));
  }
}

describe("smtpMailer against an SMTP server in the test process", () => {
  it("delivers the verification mail with the right recipient, subject, link and code", async () => {
    const notification = emailNotification();
    const storage = await storeWith(notification);

    const report = await deliverPendingNotifications({ storage, mailer, clock: manualClock() });

    expect(report).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
    expect(server.accepted).toHaveLength(1);
    const received = server.accepted[0]!;
    const read = readMail(received.raw);
    const expected = mailOf(notification);
    expect({
      envelope: received.envelope,
      from: read.headers.get("from"),
      to: read.headers.get("to"),
      subject: read.headers.get("subject"),
      messageId: read.headers.get("message-id"),
      kind: read.headers.get("x-human-users-notification-kind"),
      text: read.text,
      html: read.html,
    }).toEqual({
      envelope: { from: "noreply@app.example.com", to: ["ada@example.com"] },
      from: "Example App <noreply@app.example.com>",
      to: "ada@example.com",
      subject: "Verify your email address",
      messageId: "<notification.n-1@app.example.com>",
      kind: "email.verification",
      text: expected.text,
      html: expected.html,
    });
    // The link and code as the user sees them, in both parts.
    expect(read.text).toContain("https://app.example.com/verify?userID=u-1&code=K7Q2ZD\n\nOr enter this code: K7Q2ZD");
    expect(read.html).toContain('<a href="https://app.example.com/verify?userID=u-1&amp;code=K7Q2ZD">');
  });

  it("delivers a German initialization mail with an escaped display name", async () => {
    const notification = emailNotification({
      kind: "email.initialization",
      locale: "de",
      displayName: "<script>alert(1)</script>",
      expiresAt: "2025-03-04T10:00:00Z",
    });
    const storage = await storeWith(notification);

    await deliverPendingNotifications({ storage, mailer, clock: manualClock() });

    const read = readMail(server.accepted[0]!.raw);
    expect([read.headers.get("subject"), read.text, read.html]).toEqual([
      "Richten Sie Ihr Konto ein",
      mailOf(notification).text,
      mailOf(notification).html,
    ]);
    expect(read.html).toContain("<p>Hallo &lt;script&gt;alert(1)&lt;/script&gt;,</p>");
    expect(read.html).not.toContain("<script>");
  });

  it("gets the message exactly once from a server that refuses three times, each attempt with the same Message-ID", async () => {
    server.refuseNext(3, 451);
    const storage = await storeWith(emailNotification());
    const clock = manualClock();

    const reports = await deliverUntilSettled({ storage, mailer, clock, random: zeroRandom });

    expect(reports.map((report) => [report.delivered, report.retrying.map((failed) => failed.retryAt)])).toEqual([
      [[], ["2025-03-01T10:00:15.000Z"]],
      [[], ["2025-03-01T10:00:45.000Z"]],
      [[], ["2025-03-01T10:01:45.000Z"]],
      [["n-1"], []],
    ]);
    expect(reports[0]?.retrying[0]?.error).toMatch(/^Error: .*451 mailbox busy, try again later/);
    expect(server.accepted).toHaveLength(1);
    expect(server.transmitted.map((mail) => readMail(mail.raw).headers.get("message-id"))).toEqual(
      Array(4).fill("<notification.n-1@app.example.com>"),
    );
    expect(storage.notifications().map((record) => [record.state, record.attempts, record.code])).toEqual([["delivered", 3, ""]]);
  });

  it("leaves the notification dead and reported when the server never accepts, and the user stays", async () => {
    server.refuseAlways(451);
    const storage = await storeWith(emailNotification());
    const logger = recordingLogger();
    const config = { delivery: { maxAttempts: 3 } };

    const reports = await deliverUntilSettled({ storage, mailer, clock: manualClock(), random: zeroRandom, logger, config });

    const last = reports.at(-1)!;
    expect(reports).toHaveLength(3);
    expect(last.delivered).toEqual([]);
    expect(last.retrying).toEqual([]);
    expect(last.dead.map((failed) => [failed.id, failed.attempts])).toEqual([["n-1", 3]]);
    expect(last.dead[0]?.error).toMatch(/451 mailbox busy, try again later/);
    expect(logger.entries.map((entry) => entry.level)).toEqual(["warn", "warn", "error", "warn"]);
    expect(storage.notifications().map((record) => [record.state, record.attempts, record.code, record.link])).toEqual([
      ["dead", 3, "", ""],
    ]);
    expect(storage.events().map((event) => [event.type, event.aggregateId])).toEqual([["user.human.added", "u-1"]]);
    expect(server.accepted).toEqual([]);
  });

  // RFC 5321, 4.2.1: a 5yz reply is a permanent refusal; the same request should not be repeated.
  it.each([
    ["a recipient refused at RCPT TO", (smtp: TestSmtpServer) => smtp.refuseRecipients(550), /550 no such user here/],
    ["a message refused at the end of DATA", (smtp: TestSmtpServer) => smtp.refuseAlways(554), /554 mailbox busy, try again later/],
  ])("makes the notification dead at its first attempt for %s with a 5xx reply", async (_, refuse, reason) => {
    refuse(server);
    const storage = await storeWith(emailNotification());

    const reports = await deliverUntilSettled({ storage, mailer, clock: manualClock(), random: zeroRandom, logger: recordingLogger() });

    expect(reports.map((report) => [report.delivered, report.retrying.length, report.dead.map((failed) => [failed.id, failed.attempts])])).toEqual([[[], 0, [["n-1", 1]]]]);
    expect(reports[0]?.dead[0]?.error).toMatch(reason);
    expect(storage.notifications().map((record) => [record.state, record.attempts, record.code])).toEqual([["dead", 1, ""]]);
  });

  it("retries a recipient refused for now (4xx at RCPT TO)", async () => {
    server.refuseRecipients(450);
    const storage = await storeWith(emailNotification());

    const report = await deliverPendingNotifications({ storage, mailer, clock: manualClock(), random: zeroRandom });

    expect([report.retrying.length, report.dead.length]).toEqual([1, 0]);
  });
});
