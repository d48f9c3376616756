// The whole journeys after creation, on every store, with real random codes taken out of the
// delivered mail: sign-up with a mailed code, import with an initialization mail, a code that
// expired on a fixed clock, a code replaced by a resend, and two verifications racing on one code.
import { err, ok } from "neverthrow";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHumanUser, fixedClock, getUser, importHumanUser, resendEmailCode, verifyEmail, verifyInitCode, type Ports } from "../../../src/index.js";
import { plainError } from "../support/ports.js";
import { storeCases } from "../support/stores.js";
import { details, eventTypes, member, openHarness, START, type Harness } from "./harness.js";

const emailVerified = err(plainError(9, "USER-3m4v", "the email address is already verified"));

/** The code as a person reads it in the mail's text. */
function codeInMail(harness: Harness, index = -1): string {
  const mail = harness.ports.mailer.sent.at(index);
  const found = /Or enter this code: ([A-Z0-9]{6})/.exec(mail?.text ?? "");
  if (found?.[1] === undefined) throw new Error("no code in the mail");
  return found[1];
}

describe.each(storeCases)("journeys on $name", (storeCase) => {
  let harness: Harness;
  beforeEach(async () => {
    // Web Crypto's random source: codes nobody here chose.
    harness = await openHarness(storeCase, { random: { fill: (bytes) => crypto.getRandomValues(bytes) } });
  }, 120_000);
  afterEach(async () => {
    await harness.close();
  });

  it("signs up with a mailed code: create, the code from the delivered mail, verifyEmail, then getUser shows it verified", async () => {
    const request = { username: "ann", profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test", sendCode: {} } };
    const userId = (await createHumanUser(harness.ports, request, { requester: member }))._unsafeUnwrap().userId;
    const code = codeInMail(harness);
    expect(await verifyEmail(harness.ports, { userId, verificationCode: code })).toEqual(ok(details(3)));
    const user = (await getUser(harness.ports, { userId }, { requester: member }))._unsafeUnwrap().user;
    expect(user.human.email).toEqual({ email: "ann@acme.test", isVerified: true });
  });

  it("initializes an imported user: the code from the init mail with a new password, then getUser shows it active with passwordChanged", async () => {
    harness.clock.advance(90);
    const request = { userName: "bob", profile: { firstName: "Bob", lastName: "Stone" }, email: { email: "bob@acme.test" } };
    const userId = (await importHumanUser(harness.ports, request, { requester: member }))._unsafeUnwrap().userId;
    expect((await getUser(harness.ports, { userId }, { requester: member }))._unsafeUnwrap().user.state).toBe("USER_STATE_INITIAL");
    harness.clock.advance(60);
    expect(await verifyInitCode(harness.ports, { userId, verificationCode: codeInMail(harness), password: "Fresh-start9" })).toEqual(ok(details(5, harness.clock.iso())));
    const user = (await getUser(harness.ports, { userId }, { requester: member }))._unsafeUnwrap().user;
    expect({ state: user.state, email: user.human.email, passwordChanged: user.human.passwordChanged }).toEqual({
      state: "USER_STATE_ACTIVE",
      email: { email: "bob@acme.test", isVerified: true },
      passwordChanged: harness.clock.iso(),
    });
  });

  it("refuses a code that expired: mailed at a fixed time, checked an hour later on another fixed clock", async () => {
    const atStart: Ports = { ...harness.ports, clock: fixedClock(START) };
    const request = { username: "ann", profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test" } };
    const userId = (await createHumanUser(atStart, request, { requester: member }))._unsafeUnwrap().userId;
    const anHourLater: Ports = { ...harness.ports, clock: fixedClock(Date.parse(START) + 3_600_000) };
    expect(await verifyEmail(anHourLater, { userId, verificationCode: codeInMail(harness) })).toEqual(
      err(plainError(3, "USER-c0dx", "the email verification code has expired; request a new one")),
    );
    expect(await eventTypes(harness, userId)).toEqual(["user.human.added", "user.human.email.code.added"]);
  });

  it("refuses a code replaced by a resend, and takes the new one", async () => {
    const request = { username: "ann", profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test" } };
    const userId = (await createHumanUser(harness.ports, request, { requester: member }))._unsafeUnwrap().userId;
    const first = codeInMail(harness);
    expect(await resendEmailCode(harness.ports, { userId }, { requester: member })).toEqual(ok(details(3)));
    const second = codeInMail(harness);
    // Random codes: a draw that repeats the first code would prove nothing.
    expect(second).not.toBe(first);
    expect(await verifyEmail(harness.ports, { userId, verificationCode: first })).toEqual(err(plainError(3, "USER-c0d3", "the email verification code is not valid")));
    expect(await verifyEmail(harness.ports, { userId, verificationCode: second })).toEqual(ok(details(5)));
  });

  it("lets exactly one of two verifications racing on one code win; the other answers 9, and email.verified is written once", async () => {
    const request = { username: "ann", profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test" } };
    const userId = (await createHumanUser(harness.ports, request, { requester: member }))._unsafeUnwrap().userId;
    const code = codeInMail(harness);
    const answers = await Promise.all([verifyEmail(harness.ports, { userId, verificationCode: code }), verifyEmail(harness.ports, { userId, verificationCode: code })]);
    expect([...answers].sort((a, b) => Number(a.isErr()) - Number(b.isErr()))).toEqual([ok(details(3)), emailVerified]);
    expect(await eventTypes(harness, userId)).toEqual(["user.human.added", "user.human.email.code.added", "user.human.email.verified"]);
  });

  it("lets one of ten racing verifications win, the nine others answer 9", async () => {
    const request = { username: "ann", profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test" } };
    const userId = (await createHumanUser(harness.ports, request, { requester: member }))._unsafeUnwrap().userId;
    const code = codeInMail(harness);
    const answers = await Promise.all(Array.from({ length: 10 }, () => verifyEmail(harness.ports, { userId, verificationCode: code })));
    expect(answers.filter((answer) => answer.isOk())).toEqual([ok(details(3))]);
    expect(answers.filter((answer) => answer.isErr())).toEqual(Array.from({ length: 9 }, () => emailVerified));
    expect((await eventTypes(harness, userId)).filter((type) => type === "user.human.email.verified")).toHaveLength(1);
  });
});
