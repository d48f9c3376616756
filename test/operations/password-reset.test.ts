// passwordReset: a code mailed through the outbox and used, on the memory store and on PostgreSQL;
// the link, the languages and who may have the code returned.
import { describe, expect, it } from "vitest";
import { checkPassword, passwordReset, setPassword, type Requester } from "../../src/index.js";
import { annWithHash, cheapHash, details, event, imported, storeKinds } from "./support/first-login.js";
import { id, storedCode } from "./support/import-fixtures.js";
import { invalidBody, member, plainError } from "./support/ports.js";

const kinds = await storeKinds("password_reset");
const OLD = "Old-Password-1";
const NEW = "New-Password-2";

/** The built-in English reset mail to Ann, with `link` and `code`, written out. */
function englishResetMail(userId: string, link: string, code: string) {
  const htmlLink = link.replace(/&/g, "&amp;");
  return {
    id: id(2),
    kind: "email.password_reset",
    to: "ann@acme.test",
    subject: "Reset your password",
    text: `Hello Ann Lee,

Someone asked to reset the password of the account ann. Open this link to choose a new one:
${link}

Or enter this code: ${code}

The code is valid for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.
`,
    html: `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"></head>
<body style="font-family: sans-serif; line-height: 1.5;">
<p>Hello Ann Lee,</p>
<p>Someone asked to reset the password of the account <strong>ann</strong>. Open this link to choose a new one:</p>
<p><a href="${htmlLink}" style="display: inline-block; padding: 0.6em 1.2em; background: #1f5fbf; color: #ffffff; text-decoration: none; border-radius: 4px;">Reset password</a><br>
<a href="${htmlLink}">${htmlLink}</a></p>
<p>Or enter this code: <strong>${code}</strong></p>
<p>The code is valid for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.</p>
</body>
</html>
`,
    code,
    link,
    userId,
    orgId: "acme",
  };
}

describe.each(kinds)("passwordReset on $name", (kind) => {
  it("mails a code to the user's own address for a requester allowed to write the user, and setPassword takes it", async () => {
    const { ports, eventsOf, mailer, snapshot } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));

    expect((await passwordReset(ports, { userId }, { requester: member }))._unsafeUnwrap()).toEqual({ details: details(3) });
    const link = `http://localhost:8080/ui/login/password/init?userID=${userId}&code=AAAAAA&orgID=acme`;
    expect(mailer.sent).toEqual([englishResetMail(userId, link, "AAAAAA")]);
    expect(await eventsOf(userId, 2)).toEqual([event(userId, 3, "user.human.password.code.added", { code: storedCode("AAAAAA"), expiry: "3600s" })]);
    // Delivered at once; the outbox keeps no code.
    expect((await snapshot()).notifications.map((notification) => [notification.kind, notification.state, notification.code])).toEqual([
      ["email.password_reset", "delivered", ""],
    ]);

    const code = mailer.sent[0]?.code ?? "";
    expect((await setPassword(ports, { userId, newPassword: { password: NEW }, verificationCode: code }))._unsafeUnwrap()).toEqual({ details: details(4) });
    expect(await eventsOf(userId, 3)).toEqual([event(userId, 4, "user.human.password.changed", { encodedHash: cheapHash(NEW), changeRequired: false })]);
  });
});

describe("passwordReset: links, languages and access", () => {
  const [memory] = kinds;
  if (memory === undefined) throw new Error("no memory store");

  it("writes the link from sendLink.urlTemplate, else from config.passwordResetUrlTemplate", async () => {
    const { ports, mailer } = await memory.open({ config: { passwordResetUrlTemplate: "https://login.test/reset/{{.UserID}}?code={{.Code}}" } });
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));

    await passwordReset(ports, { userId, sendLink: { notificationType: "NOTIFICATION_TYPE_Email", urlTemplate: "https://app.test/r?u={{.UserID}}&c={{.Code}}&o={{.OrgID}}" } }, { requester: member });
    await passwordReset(ports, { userId, sendLink: {} }, { requester: member });
    expect(mailer.sent.map((mail) => mail.link)).toEqual([`https://app.test/r?u=${userId}&c=AAAAAA&o=acme`, `https://login.test/reset/${userId}?code=BBBBBB`]);
  });

  it("mails in the user's language", async () => {
    const { ports, mailer } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD), { profile: { firstName: "Anna", lastName: "Lehmann", preferredLanguage: "de-CH" } }));

    await passwordReset(ports, { userId }, { requester: member });
    const mail = mailer.sent[0];
    expect([mail?.subject, mail?.text]).toEqual([
      "Setzen Sie Ihr Passwort zurück",
      `Hallo Anna Lehmann,

für das Konto ann wurde das Zurücksetzen des Passworts angefordert. Über diesen Link wählen Sie ein neues:
http://localhost:8080/ui/login/password/init?userID=${userId}&code=AAAAAA&orgID=acme

Oder geben Sie diesen Code ein: AAAAAA

Der Code ist 1 Stunde gültig. Falls Sie dies nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.
`,
    ]);
  });

  it("returns the code only to a requester allowed to write the user, and then mails nothing", async () => {
    const { ports, mailer, eventsOf } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    const outsider: Requester = { userId: "someone", orgId: "globex" };

    expect((await passwordReset(ports, { userId, returnCode: {} }))._unsafeUnwrapErr()).toEqual(plainError(16, "USER-4uth", "the request is not authenticated"));
    expect((await passwordReset(ports, { userId, returnCode: {} }, { requester: outsider }))._unsafeUnwrapErr()).toEqual(
      plainError(5, "USER-u5r5", "the user does not exist"),
    );
    expect((await passwordReset(ports, { userId, returnCode: {} }, { requester: member }))._unsafeUnwrap()).toEqual({ details: details(3), verificationCode: "AAAAAA" });
    expect(mailer.sent).toEqual([]);
    expect(await eventsOf(userId, 2)).toEqual([event(userId, 3, "user.human.password.code.added", { code: storedCode("AAAAAA"), expiry: "3600s", codeReturned: true })]);
  });

  it("mails nothing for a caller without a requester or outside the user's reach, whatever the user, and writes nothing", async () => {
    // As ZITADEL's PasswordReset: the caller (a login page acting for the user) must be allowed to
    // write the user. Otherwise anyone could replace a pending code, send mails at will, point the
    // link at a host of their choosing, and tell from the answers which user ids exist.
    const { ports, mailer, snapshot } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    const before = await snapshot();
    const outsider: Requester = { userId: "someone", orgId: "globex" };
    const poisoned = { sendLink: { urlTemplate: "https://attacker.test/steal?u={{.UserID}}&c={{.Code}}" } };
    for (const target of [userId, "123456789012345678"]) {
      expect((await passwordReset(ports, { userId: target }))._unsafeUnwrapErr()).toEqual(plainError(16, "USER-4uth", "the request is not authenticated"));
      expect((await passwordReset(ports, { userId: target, ...poisoned }))._unsafeUnwrapErr()).toEqual(plainError(16, "USER-4uth", "the request is not authenticated"));
      expect((await passwordReset(ports, { userId: target, ...poisoned }, { requester: outsider }))._unsafeUnwrapErr()).toEqual(plainError(5, "USER-u5r5", "the user does not exist"));
    }
    expect(mailer.sent).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("answers 9 for a user still waiting for its initialization, who is given a new initialization code instead", async () => {
    const { ports, mailer, snapshot } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD), { email: { email: "ann@acme.test", isEmailVerified: false } }));
    const before = await snapshot();
    const sentBefore = mailer.sent.length;
    for (const delivery of [{}, { returnCode: {} }]) {
      expect((await passwordReset(ports, { userId, ...delivery }, { requester: member }))._unsafeUnwrapErr()).toEqual(
        plainError(9, "USER-un1t", "the user is not initialized yet: it must first use its initialization code (resendInitialization sends a new one)"),
      );
    }
    expect(mailer.sent.length).toBe(sentBefore);
    expect(await snapshot()).toEqual(before);
  });

  it("mails a locked user still waiting for its initialization a code, as ZITADEL, where the lock comes first in its state", async () => {
    const { ports, mailer } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD), { email: { email: "ann@acme.test", isEmailVerified: false } }));
    // Acme locks a user at the third wrong password.
    for (let attempt = 0; attempt < 3; attempt++) await checkPassword(ports, { userId, password: "Not-It-1" });
    expect((await checkPassword(ports, { userId, password: OLD }))._unsafeUnwrapErr().code).toBe(9);
    expect((await passwordReset(ports, { userId }, { requester: member })).isOk()).toBe(true);
    expect(mailer.sent.map((mail) => mail.kind)).toEqual(["email.initialization", "email.password_reset"]);
  });

  it.each([
    [{ userId: "1", sendLink: {}, returnCode: {} }, [{ field: "sendLink", description: "only one of sendLink, returnCode may be set" }]],
    [{ userId: "1", sendLink: { notificationType: "NOTIFICATION_TYPE_SMS" } }, [{ field: "sendLink.notificationType", description: "must be NOTIFICATION_TYPE_Email (SMS is not supported)" }]],
    [{ userId: "1", sendLink: { urlTemplate: "https://x.test/{{.Nope}}" } }, [{ field: "sendLink.urlTemplate", description: "has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})" }]],
  ])("refuses %j", async (request, violations) => {
    const { ports } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    expect((await passwordReset(ports, { ...request, userId }, { requester: member }))._unsafeUnwrapErr()).toEqual(invalidBody(violations));
  });
});
