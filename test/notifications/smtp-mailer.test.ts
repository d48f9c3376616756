import { describe, expect, it } from "vitest";
import { smtpMailer, type SmtpMail } from "../../src/adapters/smtp/mailer.js";
import { notificationMessageId, senderDomain } from "../../src/adapters/smtp/message-id.js";
import { emailNotification, mailOf } from "./helpers.js";

function capturingTransporter(result: unknown = { accepted: ["ada@example.com"], rejected: [] }) {
  const mails: SmtpMail[] = [];
  let closed = 0;
  return {
    mails,
    closed: () => closed,
    sendMail: (mail: SmtpMail) => {
      mails.push(mail);
      return Promise.resolve(result);
    },
    close: () => {
      closed += 1;
    },
  };
}

describe("smtpMailer", () => {
  it("hands the transporter the whole mail with a Message-ID derived from the notification id", async () => {
    const transporter = capturingTransporter();
    const mailer = smtpMailer(transporter, { from: "App <noreply@app.example.com>", replyTo: "help@app.example.com" });
    const message = mailOf(emailNotification());

    await mailer.send(message);
    await mailer.send(message);

    const expected: SmtpMail = {
      from: "App <noreply@app.example.com>",
      to: "ada@example.com",
      replyTo: "help@app.example.com",
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: "<notification.n-1@app.example.com>",
      headers: { "X-Human-Users-Notification-Kind": "email.verification" },
    };
    expect(transporter.mails).toEqual([expected, expected]);
  });

  it("rejects when the server refused the recipient", async () => {
    const mailer = smtpMailer(capturingTransporter({ accepted: [], rejected: ["ada@example.com"] }), {
      from: "noreply@app.example.com",
    });

    await expect(mailer.send(mailOf(emailNotification()))).rejects.toThrow("the SMTP server refused 1 recipient(s)");
  });

  it("leaves a transporter it was given open on close", () => {
    const transporter = capturingTransporter();
    smtpMailer(transporter, { from: "noreply@app.example.com" }).close();

    expect(transporter.closed()).toBe(0);
  });

  it("uses the configured Message-ID domain, else the sender's, else a reserved one", async () => {
    const message = mailOf(emailNotification());
    const ids: string[] = [];
    for (const options of [
      { from: "noreply@app.example.com", messageIdDomain: "mail.example.org" },
      { from: "Example <noreply@app.example.com>" },
      { from: "noreply" },
    ]) {
      const transporter = capturingTransporter();
      await smtpMailer(transporter, options).send(message);
      ids.push(transporter.mails[0]?.messageId ?? "");
    }

    expect(ids).toEqual([
      "<notification.n-1@mail.example.org>",
      "<notification.n-1@app.example.com>",
      "<notification.n-1@human-users.invalid>",
    ]);
  });
});

describe("notificationMessageId", () => {
  it("keeps letters, digits, - and _ and escapes every other byte, so distinct ids stay distinct", () => {
    expect(["311420977640964097", "a.b", "a=2Eb", "<x y>@z", "ü"].map((id) => notificationMessageId(id, "d.example"))).toEqual([
      "<notification.311420977640964097@d.example>",
      "<notification.a=2Eb@d.example>",
      "<notification.a=3D2Eb@d.example>",
      "<notification.=3Cx=20y=3E=40z@d.example>",
      "<notification.=C3=BC@d.example>",
    ]);
  });

  it("reads the sender's domain from an internationalized name (as its A-label), after a comment, and from an IP literal", () => {
    expect(["noreply@bücher.example", "noreply@acme.example (Acme)", "Acme <noreply@[192.0.2.1]>", "Acme <noreply@ACME.example>"].map(senderDomain)).toEqual([
      "xn--bcher-kva.example",
      "acme.example",
      "[192.0.2.1]",
      "acme.example",
    ]);
  });

  it("reads the sender's domain from both address forms", () => {
    expect(["a@x.example", "Name <a@y.example>", "no-domain", "Name <a@z.example> "].map(senderDomain)).toEqual([
      "x.example",
      "y.example",
      undefined,
      "z.example",
    ]);
  });
});
