// verifyEmail, verifyPhone, resendEmailCode and resendPhoneCode on every store: each success and
// each error path, with the whole body and the events written (or not).
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { importHumanUsers, registerPasskey, resendEmailCode, resendPhoneCode, setPassword, verifyEmail, verifyInitCode, verifyPhone } from "../../../src/index.js";
import { invalidBody, plainError, testKeys } from "../support/ports.js";
import { storeCases } from "../support/stores.js";
import { createAnn, details, eventTypes, FIRST_ID, globexMember, type Harness, harnessForEachTest, importBob, instanceAdmin, mails, member, START } from "./harness.js";

const wrongEmailCode = err(plainError(3, "USER-c0d3", "the email verification code is not valid"));
const wrongPhoneCode = err(plainError(3, "USER-c0d3", "the phone verification code is not valid"));
const emailVerified = err(plainError(9, "USER-3m4v", "the email address is already verified"));
const unknownUser = err(plainError(5, "USER-u5r5", "the user does not exist"));
const unauthenticated = err(plainError(16, "USER-4uth", "the request is not authenticated"));
const notInitialized = err(plainError(9, "USER-un1t", "the user is not initialized yet: it must first use its initialization code (resendInitialization sends a new one)"));
const noEmailCode = err(plainError(9, "USER-n0cd", "no email verification code is pending"));
const CREATED = ["user.human.added", "user.human.email.code.added", "user.human.phone.code.added"];

async function importedWithoutCodes(harness: Harness, userName: string): Promise<string> {
  const request = { userName, profile: { firstName: "Cleo", lastName: "Ray" }, email: { email: `${userName}@acme.test` }, password: "Secret-pass1" };
  for await (const outcome of importHumanUsers(harness.ports, [request], { requester: member }, { withoutCodes: true })) {
    if ("ok" in outcome) return outcome.ok.userId;
  }
  throw new Error(`could not import ${userName}`);
}

describe.each(storeCases)("codes on $name", (storeCase) => {
  const harness = harnessForEachTest(storeCase);

  describe("verifyEmail", () => {
    it("verifies the email with the mailed code, without a requester", async () => {
      const userId = await createAnn(harness);
      expect(mails(harness)).toEqual([
        { kind: "email.verification", to: "ann@acme.test", code: "AAAAAA", link: `http://localhost:8080/ui/login/mail/verification?userID=${FIRST_ID}&code=AAAAAA&orgID=acme`, userId },
      ]);
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(ok(details(4)));
      expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.email.verified"]);
    });

    it("asks a requester who is given for no permission: the code is the proof", async () => {
      const userId = await createAnn(harness);
      expect(await verifyEmail(harness.ports, { user_id: userId, verification_code: "AAAAAA" }, { requester: globexMember })).toEqual(ok(details(4)));
    });

    it("records a wrong code and answers 3", async () => {
      const userId = await createAnn(harness);
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAB" })).toEqual(wrongEmailCode);
      expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.email.verification.failed"]);
    });

    it("kills the code after five wrong attempts: 9 even for the right code, until a new one is sent", async () => {
      const userId = await createAnn(harness);
      for (let attempt = 1; attempt <= 5; attempt++) expect(await verifyEmail(harness.ports, { userId, verificationCode: `WRONG${attempt}` })).toEqual(wrongEmailCode);
      const dead = err(plainError(9, "USER-c0d5", "the email verification code was entered wrong too often; request a new one"));
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(dead);
      expect(await eventTypes(harness, userId)).toEqual([...CREATED, ...Array.from({ length: 5 }, () => "user.human.email.verification.failed")]);
      expect(await resendEmailCode(harness.ports, { userId }, { requester: member })).toEqual(ok(details(9)));
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "CCCCCC" })).toEqual(ok(details(10)));
    });

    it("checks the code against its own expiry on the clock: valid for an hour, then 3 with its own id and nothing written", async () => {
      const userId = await createAnn(harness);
      harness.clock.advance(3600);
      const expired = err(plainError(3, "USER-c0dx", "the email verification code has expired; request a new one"));
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(expired);
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "WRONG1" })).toEqual(expired);
      expect(await eventTypes(harness, userId)).toEqual(CREATED);
    });

    it("accepts the code in its last second", async () => {
      const userId = await createAnn(harness);
      harness.clock.advance(3599);
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(ok(details(4, harness.clock.iso())));
    });

    it("answers 9 for an email already verified, and 9 when no email code is pending", async () => {
      const verified = await createAnn(harness, { email: { email: "ann@acme.test", isVerified: true } });
      expect(await verifyEmail(harness.ports, { userId: verified, verificationCode: "AAAAAA" })).toEqual(emailVerified);
      // Imported without codes: active, its email unverified, and no code ever sent.
      const cleo = await importedWithoutCodes(harness, "cleo");
      expect(await verifyEmail(harness.ports, { userId: cleo, verificationCode: "AAAAAA" })).toEqual(noEmailCode);
    });

    it("checks a code written under keys that a rotation retired", async () => {
      const userId = await createAnn(harness);
      const rotated = { ...harness.ports, keys: { keyId: "next", codeHmacKey: new Uint8Array(32).fill(3), encryptionKey: new Uint8Array(32).fill(4), previous: [testKeys] } };
      expect(await verifyEmail(rotated, { userId, verificationCode: "AAAAAA" })).toEqual(ok(details(4)));
    });

    it("never matches a code written under a key it does not know", async () => {
      const userId = await createAnn(harness);
      const other = { ...harness.ports, keys: { keyId: "other", codeHmacKey: new Uint8Array(32).fill(3), encryptionKey: new Uint8Array(32).fill(4) } };
      expect(await verifyEmail(other, { userId, verificationCode: "AAAAAA" })).toEqual(wrongEmailCode);
    });

    it("answers 5 for a user that does not exist, and 3 naming a missing id or code", async () => {
      expect(await verifyEmail(harness.ports, { userId: "nobody", verificationCode: "AAAAAA" })).toEqual(unknownUser);
      expect(await verifyEmail(harness.ports, { verificationCode: "AAAAAA" })).toEqual(err(invalidBody([{ field: "userId", description: "is required" }])));
      const userId = await createAnn(harness);
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "" })).toEqual(err(invalidBody([{ field: "verificationCode", description: "must not be empty" }])));
      expect(await verifyEmail(harness.ports, { userId })).toEqual(err(invalidBody([{ field: "verificationCode", description: "is required" }])));
      expect(await eventTypes(harness, userId)).toEqual(CREATED);
    });
  });

  it("refuses a code longer than any code is made (64 characters) as a bad request, counting no try, in every operation that takes one", async () => {
    const userId = await createAnn(harness);
    const tooLong = "A".repeat(65);
    const refused = err(invalidBody([{ field: "verificationCode", description: "must be at most 64 characters long" }]));
    expect(await verifyEmail(harness.ports, { userId, verificationCode: tooLong })).toEqual(refused);
    expect(await verifyPhone(harness.ports, { userId, verificationCode: tooLong })).toEqual(refused);
    expect(await setPassword(harness.ports, { userId, newPassword: { password: "New-Password-2" }, verificationCode: tooLong })).toEqual(refused);
    expect(await verifyInitCode(harness.ports, { userId, verificationCode: tooLong })).toEqual(refused);
    expect(await registerPasskey(harness.ports, { userId, code: { id: "1", code: tooLong } })).toEqual(
      err(invalidBody([{ field: "code.code", description: "must be at most 64 characters long" }])),
    );
    expect(await eventTypes(harness, userId)).toEqual(CREATED);
    // 64 characters are a code that could have been made: a wrong one, counted.
    expect(await verifyEmail(harness.ports, { userId, verificationCode: "A".repeat(64) })).toEqual(wrongEmailCode);
    expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.email.verification.failed"]);
  });

  describe("verifyPhone", () => {
    it("verifies the phone with the texted code, without a requester", async () => {
      const userId = await createAnn(harness);
      expect(harness.sms.sent.map(({ to, code }) => ({ to, code }))).toEqual([{ to: "+41791234567", code: "BBBBBB" }]);
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(ok(details(4)));
      expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.phone.verified"]);
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(err(plainError(9, "USER-ph4v", "the phone number is already verified")));
    });

    it("records a wrong code and answers 3; an expired one answers 3 with its own id", async () => {
      const userId = await createAnn(harness);
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(wrongPhoneCode);
      harness.clock.advance(3600);
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(
        err(plainError(3, "USER-c0dx", "the phone verification code has expired; request a new one")),
      );
      expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.phone.verification.failed"]);
    });

    it("answers 9 for a user without a phone", async () => {
      const userId = await createAnn(harness, { phone: undefined });
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(err(plainError(9, "USER-n0ph", "the user has no phone number")));
    });
  });

  describe("resendEmailCode", () => {
    it("mails a new code in place of the pending one, which stops working", async () => {
      const userId = await createAnn(harness);
      expect(await resendEmailCode(harness.ports, { userId }, { requester: member })).toEqual(ok(details(4)));
      expect(mails(harness)[1]).toEqual({
        kind: "email.verification",
        to: "ann@acme.test",
        code: "CCCCCC",
        link: `http://localhost:8080/ui/login/mail/verification?userID=${FIRST_ID}&code=CCCCCC&orgID=acme`,
        userId,
      });
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(wrongEmailCode);
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "CCCCCC" })).toEqual(ok(details(6)));
      expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.email.code.added", "user.human.email.verification.failed", "user.human.email.verified"]);
    });

    it("mails the link of sendCode.urlTemplate, and a fresh hour from the resend", async () => {
      const userId = await createAnn(harness);
      harness.clock.advance(3000);
      const request = { userId, sendCode: { urlTemplate: "https://app.test/verify/{{.UserID}}?code={{.Code}}&org={{.OrgID}}" } };
      expect(await resendEmailCode(harness.ports, request, { requester: member })).toEqual(ok(details(4, harness.clock.iso())));
      expect(mails(harness)[1]?.link).toBe(`https://app.test/verify/${FIRST_ID}?code=CCCCCC&org=acme`);
      harness.clock.advance(3000);
      expect(await verifyEmail(harness.ports, { userId, verificationCode: "CCCCCC" })).toEqual(ok(details(5, harness.clock.iso())));
    });

    it("returns the code instead of mailing it when returnCode asks", async () => {
      const userId = await createAnn(harness);
      expect(await resendEmailCode(harness.ports, { userId, returnCode: {} }, { requester: member })).toEqual(ok({ ...details(4), verificationCode: "CCCCCC" }));
      expect(mails(harness)).toHaveLength(1);
      const events = await harness.ports.storage.userLog.loadEvents(userId);
      expect(events[3]?.payload["codeReturned"]).toBe(true);
    });

    it("needs user.write: 16 without a requester, 5 to a requester of another organization; an instance admin may", async () => {
      const userId = await createAnn(harness);
      expect(await resendEmailCode(harness.ports, { userId })).toEqual(unauthenticated);
      expect(await resendEmailCode(harness.ports, { userId }, { requester: globexMember })).toEqual(unknownUser);
      expect(await resendEmailCode(harness.ports, { userId }, { requester: instanceAdmin })).toEqual(ok(details(4)));
    });

    it("answers 9 for an email already verified and for a user never sent an email code; 3 for sendCode with returnCode", async () => {
      const verified = await createAnn(harness, { email: { email: "ann@acme.test", isVerified: true } });
      expect(await resendEmailCode(harness.ports, { userId: verified }, { requester: member })).toEqual(emailVerified);
      const bob = await importBob(harness);
      expect(await resendEmailCode(harness.ports, { userId: bob, sendCode: {}, returnCode: {} }, { requester: member })).toEqual(
        err(invalidBody([{ field: "returnCode", description: "cannot be set together with sendCode" }])),
      );
    });

    it("refuses a link template with an unknown placeholder, writing nothing", async () => {
      const userId = await createAnn(harness);
      const request = { userId, sendCode: { urlTemplate: "https://app.test/{{.Who}}" } };
      expect(await resendEmailCode(harness.ports, request, { requester: member })).toEqual(
        err(invalidBody([{ field: "sendCode.urlTemplate", description: "has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})" }])),
      );
      expect(await eventTypes(harness, userId)).toEqual(CREATED);
    });
  });

  describe("resendPhoneCode", () => {
    it("texts a new code in place of the pending one, or returns it", async () => {
      const userId = await createAnn(harness);
      expect(await resendPhoneCode(harness.ports, { userId, sendCode: {} }, { requester: member })).toEqual(ok(details(4)));
      expect(harness.sms.sent.map(({ to, code }) => ({ to, code }))).toEqual([
        { to: "+41791234567", code: "BBBBBB" },
        { to: "+41791234567", code: "CCCCCC" },
      ]);
      expect(await resendPhoneCode(harness.ports, { userId, returnCode: {} }, { requester: member })).toEqual(ok({ ...details(5), verificationCode: "DDDDDD" }));
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "CCCCCC" })).toEqual(wrongPhoneCode);
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "DDDDDD" })).toEqual(ok(details(7)));
    });

    it("records the code without a message when there is no SMS sender, as creation does", async () => {
      const userId = await createAnn(harness);
      const { sms: _none, ...withoutSms } = harness.ports;
      expect(await resendPhoneCode(withoutSms, { userId }, { requester: member })).toEqual(ok(details(4)));
      expect(harness.sms.sent).toHaveLength(1);
      expect(await verifyPhone(harness.ports, { userId, verificationCode: "CCCCCC" })).toEqual(ok(details(5)));
    });

    it("answers 9 for a user without a phone, and for a phone already verified", async () => {
      const noPhone = await createAnn(harness, { phone: undefined });
      expect(await resendPhoneCode(harness.ports, { userId: noPhone }, { requester: member })).toEqual(err(plainError(9, "USER-n0ph", "the user has no phone number")));
      const verified = await createAnn(harness, { username: "ann2", phone: { phone: "+41791234567", isVerified: true } });
      expect(await resendPhoneCode(harness.ports, { userId: verified }, { requester: member })).toEqual(err(plainError(9, "USER-ph4v", "the phone number is already verified")));
    });

    it("answers 5 for a user the requester may not see", async () => {
      const userId = await createAnn(harness);
      expect(await resendPhoneCode(harness.ports, { userId }, { requester: globexMember })).toEqual(unknownUser);
      expect(await eventTypes(harness, userId)).toEqual(CREATED);
    });
  });

  it("refuses a user still waiting for its initialization in every email and phone flow (9, as ZITADEL's NotInitialised), writing nothing; the code works once it is initialized", async () => {
    // Imported with a phone, a password and an unverified email: an initialization mail and an SMS code.
    const userId = await importBob(harness, { phone: { phone: "+41791234567" }, password: "Secret-pass1" });
    expect(harness.sms.sent.map(({ to, code }) => ({ to, code }))).toEqual([{ to: "+41791234567", code: "BBBBBB" }]);
    const imported = await eventTypes(harness, userId);
    expect(await verifyPhone(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(notInitialized);
    expect(await resendPhoneCode(harness.ports, { userId, returnCode: {} }, { requester: member })).toEqual(notInitialized);
    expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(notInitialized);
    expect(await resendEmailCode(harness.ports, { userId }, { requester: member })).toEqual(notInitialized);
    expect(await eventTypes(harness, userId)).toEqual(imported);
    expect(harness.sms.sent).toHaveLength(1);
    expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(ok(details(imported.length + 2)));
    expect(await verifyPhone(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(ok(details(imported.length + 3)));
  });

  it("refuses an initial user whose email was verified at import as not initialized, before saying it is verified", async () => {
    const userId = await importBob(harness, { email: { email: "bob@acme.test", isEmailVerified: true } });
    expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(notInitialized);
    expect(await resendEmailCode(harness.ports, { userId }, { requester: member })).toEqual(notInitialized);
  });

  it("starts from the clock's time", () => {
    expect(harness.clock.iso()).toBe(START);
  });
});
