// The time-outs smtpMailer hands nodemailer: below the send time limit (60 s) and the lease
// (300 s) unless the host sets its own, where nodemailer's own (a 10 minute socket time-out) are not.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { smtpMailer, type SmtpConnectionOptions } from "../../src/adapters/smtp/mailer.js";
import { emailNotification, mailOf } from "./helpers.js";

const made = vi.hoisted(() => [] as unknown[]);

vi.mock("nodemailer", () => ({
  createTransport: (connection: unknown) => {
    made.push(connection);
    return { sendMail: () => Promise.resolve({ accepted: ["ada@example.com"], rejected: [] }) };
  },
}));

beforeEach(() => {
  made.length = 0;
});

/** What nodemailer's createTransport got for `connection`, after the mailer's first send. */
async function transportFor(connection: SmtpConnectionOptions | string): Promise<unknown> {
  const mailer = smtpMailer(connection, { from: "noreply@app.example.com" });
  await mailer.send(mailOf(emailNotification()));
  mailer.close();
  expect(made).toHaveLength(1);
  return made[0];
}

const defaults = { connectionTimeout: 15_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

describe("smtpMailer's nodemailer time-outs", () => {
  it("sets connection, greeting and socket time-outs that end a stuck send well within the send limit", async () => {
    expect(await transportFor({ host: "smtp.example.com", port: 587 })).toEqual({ host: "smtp.example.com", port: 587, ...defaults });
    expect(defaults.connectionTimeout + defaults.greetingTimeout + defaults.socketTimeout).toBeLessThan(60_000);
  });

  it("keeps the host's own time-outs, and adds the one left out", async () => {
    const connection = { host: "smtp.example.com", socketTimeout: 120_000, greetingTimeout: 5_000 };

    expect(await transportFor(connection)).toEqual({ host: "smtp.example.com", socketTimeout: 120_000, greetingTimeout: 5_000, connectionTimeout: 15_000 });
  });

  it("adds them to a connection URL as query parameters, leaving the ones it names", async () => {
    expect(await transportFor("smtps://mailer:p%40ss@smtp.example.com:465")).toBe(
      "smtps://mailer:p%40ss@smtp.example.com:465?connectionTimeout=15000&greetingTimeout=10000&socketTimeout=30000",
    );
    made.length = 0;
    expect(await transportFor("smtp://smtp.example.com?pool=true&socketTimeout=120000")).toBe(
      "smtp://smtp.example.com?pool=true&socketTimeout=120000&connectionTimeout=15000&greetingTimeout=10000",
    );
  });

  it("hands over TLS settings (a private CA, a floor) and OAuth2 as given, beside the time-outs", async () => {
    const connection: SmtpConnectionOptions = {
      host: "smtp.example.com",
      port: 587,
      requireTLS: true,
      tls: { ca: "-----BEGIN CERTIFICATE-----", minVersion: "TLSv1.2", servername: "smtp.example.com" },
      auth: { type: "OAuth2", user: "mailer@example.com", accessToken: "token" },
    };
    expect(await transportFor(connection)).toEqual({ ...connection, ...defaults });
  });
});
