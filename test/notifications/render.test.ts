import { describe, expect, it } from "vitest";
import { renderNotification } from "../../src/notifications/render.js";
import type { MessageTemplates } from "../../src/ports/config.js";
import { emailNotification, mailOf, phoneNotification } from "./helpers.js";

const buttonStyle =
  "display: inline-block; padding: 0.6em 1.2em; background: #1f5fbf; color: #ffffff; text-decoration: none; border-radius: 4px;";

describe("renderNotification", () => {
  it("renders the English verification email, text and HTML", () => {
    const rendered = renderNotification(emailNotification());

    expect(rendered._unsafeUnwrap()).toEqual({
      channel: "mail",
      message: {
        id: "n-1",
        kind: "email.verification",
        to: "ada@example.com",
        subject: "Verify your email address",
        text: `Hello Ada Lovelace,

Please verify your email address by opening this link:
https://app.example.com/verify?userID=u-1&code=K7Q2ZD

Or enter this code: K7Q2ZD

The code is valid for 1 hour. If you did not ask for this, you can ignore this message.
`,
        html: `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"></head>
<body style="font-family: sans-serif; line-height: 1.5;">
<p>Hello Ada Lovelace,</p>
<p>Please verify your email address by opening this link:</p>
<p><a href="https://app.example.com/verify?userID=u-1&amp;code=K7Q2ZD" style="${buttonStyle}">Verify email address</a><br>
<a href="https://app.example.com/verify?userID=u-1&amp;code=K7Q2ZD">https://app.example.com/verify?userID=u-1&amp;code=K7Q2ZD</a></p>
<p>Or enter this code: <strong>K7Q2ZD</strong></p>
<p>The code is valid for 1 hour. If you did not ask for this, you can ignore this message.</p>
</body>
</html>
`,
        code: "K7Q2ZD",
        link: "https://app.example.com/verify?userID=u-1&code=K7Q2ZD",
        userId: "u-1",
        orgId: "org-1",
      },
    });
  });

  it("renders the German initialization email for a regional German tag, with the validity in German", () => {
    const rendered = renderNotification(
      emailNotification({ kind: "email.initialization", locale: "de-CH", expiresAt: "2025-03-04T10:00:00Z" }),
    );

    expect(rendered._unsafeUnwrap()).toEqual({
      channel: "mail",
      message: {
        id: "n-1",
        kind: "email.initialization",
        to: "ada@example.com",
        subject: "Richten Sie Ihr Konto ein",
        text: `Hallo Ada Lovelace,

für Sie wurde ein Konto mit dem Benutzernamen ada erstellt. Über diesen Link richten Sie es ein:
https://app.example.com/verify?userID=u-1&code=K7Q2ZD

Oder geben Sie diesen Code ein: K7Q2ZD

Der Code ist 72 Stunden gültig. Falls Sie dies nicht erwartet haben, können Sie diese Nachricht ignorieren.
`,
        html: `<!DOCTYPE html>
<html lang="de">
<head><meta charset="utf-8"></head>
<body style="font-family: sans-serif; line-height: 1.5;">
<p>Hallo Ada Lovelace,</p>
<p>für Sie wurde ein Konto mit dem Benutzernamen <strong>ada</strong> erstellt. Über diesen Link richten Sie es ein:</p>
<p><a href="https://app.example.com/verify?userID=u-1&amp;code=K7Q2ZD" style="${buttonStyle}">Konto einrichten</a><br>
<a href="https://app.example.com/verify?userID=u-1&amp;code=K7Q2ZD">https://app.example.com/verify?userID=u-1&amp;code=K7Q2ZD</a></p>
<p>Oder geben Sie diesen Code ein: <strong>K7Q2ZD</strong></p>
<p>Der Code ist 72 Stunden gültig. Falls Sie dies nicht erwartet haben, können Sie diese Nachricht ignorieren.</p>
</body>
</html>
`,
        code: "K7Q2ZD",
        link: "https://app.example.com/verify?userID=u-1&code=K7Q2ZD",
        userId: "u-1",
        orgId: "org-1",
      },
    });
  });

  it("renders the phone code SMS in English and German", () => {
    expect(renderNotification(phoneNotification())._unsafeUnwrap()).toEqual({
      channel: "sms",
      message: { id: "n-phone", to: "+41791234567", text: "Your verification code is ZX81AB. It is valid for 1 hour.", code: "ZX81AB" },
    });
    expect(renderNotification(phoneNotification({ locale: "de" }))._unsafeUnwrap()).toEqual({
      channel: "sms",
      message: { id: "n-phone", to: "+41791234567", text: "Ihr Bestätigungscode lautet ZX81AB. Er ist 1 Stunde gültig.", code: "ZX81AB" },
    });
  });

  it.each([
    ["und", "Verify your email address"],
    ["fr-CA", "Verify your email address"],
    ["DE", "Bestätigen Sie Ihre E-Mail-Adresse"],
    ["de-Latn-AT", "Bestätigen Sie Ihre E-Mail-Adresse"],
    ["en-GB", "Verify your email address"],
    ["", "Verify your email address"],
  ])("chooses the language by the primary subtag of %j, English otherwise", (locale, subject) => {
    expect(mailOf(emailNotification({ locale })).subject).toBe(subject);
  });

  it("escapes every user-provided value in the HTML part and keeps the subject on one line", () => {
    const templates: MessageTemplates = {
      en: {
        "email.verification": {
          subject: "Hi {{displayName}}",
          text: "{{displayName}} {{username}} {{code}} {{link}} {{recipient}}",
          html: '<p title="{{displayName}}">{{displayName}} {{username}} {{code}} {{recipient}}</p><a href="{{link}}">go</a>',
        },
      },
    };
    const notification = emailNotification({
      displayName: "<script>alert('x')</script>\r\nBcc: evil@example.com",
      username: 'a"b&c',
      code: "<b>",
      link: 'https://app.example.com/v?a="1"&b=<2>',
      recipient: "o'neil@example.com",
    });

    const message = renderNotification(notification, templates)._unsafeUnwrap().message;

    expect(message).toEqual({
      id: "n-1",
      kind: "email.verification",
      to: "o'neil@example.com",
      code: "<b>",
      link: 'https://app.example.com/v?a="1"&b=<2>',
      userId: "u-1",
      orgId: "org-1",
      subject: "Hi <script>alert('x')</script> Bcc: evil@example.com",
      text: `<script>alert('x')</script>\r\nBcc: evil@example.com a"b&c <b> https://app.example.com/v?a="1"&b=<2> o'neil@example.com`,
      html:
        '<p title="&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\r\nBcc: evil@example.com">' +
        "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\r\nBcc: evil@example.com a&quot;b&amp;c &lt;b&gt; o&#39;neil@example.com</p>" +
        '<a href="https://app.example.com/v?a=&quot;1&quot;&amp;b=&lt;2&gt;">go</a>',
    });
  });

  it("uses the host's template for its language and kind, and the built-in ones for the rest", () => {
    const templates: MessageTemplates = {
      fr: { "phone.verification": { text: "Votre code : {{ code }} (valable {{validity}})" } },
      "de-CH": { "phone.verification": { text: "Ihr Code: {{code}}" } },
    };

    const texts = ["fr-FR", "de-CH", "de", "fr"].map(
      (locale) => renderNotification(phoneNotification({ locale }), templates)._unsafeUnwrap().message.text,
    );

    expect(texts).toEqual([
      "Votre code : ZX81AB (valable 1\u00a0heure)",
      "Ihr Code: ZX81AB",
      "Ihr Bestätigungscode lautet ZX81AB. Er ist 1 Stunde gültig.",
      "Votre code : ZX81AB (valable 1\u00a0heure)",
    ]);
    // A French email falls back to English: the host gave French only for SMS.
    expect(mailOf(emailNotification({ locale: "fr" }), templates).subject).toBe(
      "Verify your email address",
    );
  });

  it("words validities in the largest whole unit", () => {
    const textFor = (expiresAt: string) =>
      renderNotification(phoneNotification({ expiresAt }))._unsafeUnwrap().message.text;

    expect([
      textFor("2025-03-01T10:30:00Z"),
      textFor("2025-03-01T12:00:00Z"),
      textFor("2025-03-01T10:00:45Z"),
    ]).toEqual([
      "Your verification code is ZX81AB. It is valid for 30 minutes.",
      "Your verification code is ZX81AB. It is valid for 2 hours.",
      "Your verification code is ZX81AB. It is valid for 45 seconds.",
    ]);
  });

  it("refuses placeholders in any spelling it does not know, links' included, rather than sending them as text", () => {
    const templates: MessageTemplates = { en: { "phone.verification": { text: "code {{.Code}} {{ code_x }} {{user-name}} {{ code }}" } } };

    expect(renderNotification(phoneNotification(), templates)._unsafeUnwrapErr()).toBe(
      "unknown placeholder {{.Code}}, {{ code_x }}, {{user-name}} in message template",
    );
  });

  it("refuses a host template with a part missing or not text, rather than throwing", () => {
    const missingHtml = { en: { "email.verification": { subject: "S only", text: "{{code}}" } } } as unknown as MessageTemplates;
    const numberSubject = { en: { "email.verification": { subject: 42, text: "{{code}}", html: "{{code}}" } } } as unknown as MessageTemplates;

    expect([renderNotification(emailNotification(), missingHtml)._unsafeUnwrapErr(), renderNotification(emailNotification(), numberSubject)._unsafeUnwrapErr()]).toEqual([
      "the message template's html is missing or not text",
      "the message template's subject is missing or not text",
    ]);
  });

  it("refuses a template with an unknown placeholder rather than sending it", () => {
    const templates: MessageTemplates = { en: { "phone.verification": { text: "{{code}} {{ firstName }} {{}}" } } };

    expect(renderNotification(phoneNotification(), templates)._unsafeUnwrapErr()).toBe(
      "unknown placeholder {{ firstName }}, {{}} in message template",
    );
  });
  it("refuses a template with a placeholder closed wrongly, which would send the mail without its value", () => {
    const unbalanced = ["Your code: {{code}", "{{ {{code}} }}", "code }} {{code}}", "{{code}} {{"];
    expect(unbalanced.map((text) => renderNotification(phoneNotification(), { en: { "phone.verification": { text } } })._unsafeUnwrapErr())).toEqual(
      unbalanced.map(() => "unbalanced braces in message template: write each placeholder as {{name}}"),
    );
    // Single braces are text.
    expect(renderNotification(phoneNotification(), { en: { "phone.verification": { text: "{code}: {{code}}" } } })._unsafeUnwrap().message.text).toBe("{code}: ZX81AB");
  });

  it("finds a host's template under an old or odd spelling of the user's language, as the language is stored canonical", () => {
    // Users' languages are stored canonical: `iw` as `he`, `tl` as `fil`, `en-GB-oed` as `en-GB-oxendict`.
    const templates: MessageTemplates = {
      iw: { "phone.verification": { text: "he {{code}}" } },
      TL: { "phone.verification": { text: "fil {{code}}" } },
      "en-GB-oed": { "phone.verification": { text: "oed {{code}}" } },
    };
    const texts = ["he", "fil", "en-GB-oxendict"].map((locale) => renderNotification(phoneNotification({ locale }), templates)._unsafeUnwrap().message.text);
    expect(texts).toEqual(["he ZX81AB", "fil ZX81AB", "oed ZX81AB"]);
  });

  it("keeps every C1 control character, NEXT LINE among them, out of the subject", () => {
    const templates: MessageTemplates = { en: { "email.verification": { subject: "Hi {{displayName}}", text: "{{code}}", html: "{{code}}" } } };
    const subject = mailOf(emailNotification({ displayName: "Eve\u0085Bcc: x@evil.example\u0080\u009f!" }), templates).subject;
    expect(subject).toBe("Hi Eve Bcc: x@evil.example !");
  });
});
