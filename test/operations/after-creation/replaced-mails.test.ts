// A new code replaces the one before it, and so the mail that carries it: a mail still waiting for
// a retry must not go out after its successor with a code that no longer works (a reader who types
// it uses up the live code's tries).
import { describe, expect, it } from "vitest";
import { createHumanUser, deliverPendingNotifications, passwordReset, resendEmailCode, verifyEmail, type Mailer, type MailMessage } from "../../../src/index.js";
import { member, minimalCreate, testPorts } from "../support/ports.js";

/** A mailer that refuses its first `failures` sends, and keeps the rest. */
function flakyMailer(failures: number): Mailer & { readonly sent: MailMessage[] } {
  let left = failures;
  const sent: MailMessage[] = [];
  return {
    sent,
    send(message) {
      if (left-- > 0) return Promise.reject(new Error("451 try again later"));
      sent.push(message);
      return Promise.resolve();
    },
  };
}

describe("a resent code", () => {
  it("makes the pending mail of the code it replaces dead, so that only the live code is mailed, and it verifies", async () => {
    const mailer = flakyMailer(1);
    const ports = testPorts({ mailer, config: { delivery: { maxAttempts: 5 } } });
    const { userId } = (await createHumanUser(ports, minimalCreate(), { requester: member }))._unsafeUnwrap();
    expect(mailer.sent).toEqual([]);
    expect((await resendEmailCode(ports, { userId, sendCode: {} }, { requester: member })).isOk()).toBe(true);
    // The worker's later rounds: the first mail's retry is due, and must not go out.
    for (let round = 0; round < 3; round++) await deliverPendingNotifications({ ...ports, clock: { now: () => new Date(Date.parse("2026-03-04T06:00:00Z") + round * 3_600_000) } });

    expect(mailer.sent.map((message) => message.kind)).toEqual(["email.verification"]);
    expect(ports.storage.notifications().map((record) => [record.state, record.lastError ?? ""])).toEqual([
      ["dead", "replaced by a newer code"],
      ["delivered", ""],
    ]);
    expect((await verifyEmail(ports, { userId, verificationCode: mailer.sent[0]?.code ?? "" })).isOk()).toBe(true);
  });

  it("returned to the caller instead of mailed, makes the pending mail of the code it replaces dead all the same", async () => {
    const mailer = flakyMailer(1);
    const ports = testPorts({ mailer, config: { delivery: { maxAttempts: 5 } } });
    const { userId } = (await createHumanUser(ports, minimalCreate(), { requester: member }))._unsafeUnwrap();
    const resent = (await resendEmailCode(ports, { userId, returnCode: {} }, { requester: member }))._unsafeUnwrap();
    for (let round = 0; round < 3; round++) await deliverPendingNotifications({ ...ports, clock: { now: () => new Date(Date.parse("2026-03-04T06:00:00Z") + round * 3_600_000) } });

    expect(mailer.sent).toEqual([]);
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.verification", "dead", "replaced by a newer code"]]);
    expect((await verifyEmail(ports, { userId, verificationCode: resent.verificationCode ?? "" })).isOk()).toBe(true);
  });

  it("a password reset code returned to the caller makes a reset mail still waiting for its retry dead", async () => {
    const mailer = flakyMailer(1);
    const ports = testPorts({ mailer, config: { delivery: { maxAttempts: 5 } } });
    const { userId } = (await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", isVerified: true } }, { requester: member }))._unsafeUnwrap();
    expect((await passwordReset(ports, { userId, sendLink: {} }, { requester: member })).isOk()).toBe(true);
    expect((await passwordReset(ports, { userId, returnCode: {} }, { requester: member })).isOk()).toBe(true);
    for (let round = 0; round < 3; round++) await deliverPendingNotifications({ ...ports, clock: { now: () => new Date(Date.parse("2026-03-04T06:00:00Z") + round * 3_600_000) } });

    expect(mailer.sent).toEqual([]);
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.password_reset", "dead", "replaced by a newer code"]]);
  });

  it("makes dead a mail the worker is about to send in the same round: each lease is taken right before its sends", async () => {
    const ports = testPorts({ config: { immediateDelivery: "off", delivery: { concurrency: 1 } } });
    const ann = (await createHumanUser(ports, minimalCreate(), { requester: member }))._unsafeUnwrap();
    const bob = (await createHumanUser(ports, { ...minimalCreate(), username: "bob", email: { email: "bob@acme.test" } }, { requester: member }))._unsafeUnwrap();
    let release: () => void = () => undefined;
    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      send(message) {
        sent.push(message);
        // Ann's mail is slow: Bob's new code is written while it goes out.
        return message.to === "ann@acme.test" ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
    };
    const round = deliverPendingNotifications({ ...ports, mailer });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const resent = (await resendEmailCode({ ...ports, config: { immediateDelivery: "off" } }, { userId: bob.userId, returnCode: {} }, { requester: member }))._unsafeUnwrap();
    release();
    const report = await round;

    expect([sent.map((message) => message.to), report.delivered.length, report.dead.length]).toEqual([["ann@acme.test"], 1, 0]);
    expect(ports.storage.notifications().map((record) => [record.userId, record.state, record.lastError ?? ""])).toEqual([
      [ann.userId, "delivered", ""],
      [bob.userId, "dead", "replaced by a newer code"],
    ]);
    expect((await verifyEmail(ports, { userId: bob.userId, verificationCode: resent.verificationCode ?? "" })).isOk()).toBe(true);
  });
});
