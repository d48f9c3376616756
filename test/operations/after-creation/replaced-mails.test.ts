// A new code replaces the one before it, and so the mail that carries it: a mail still waiting for
// a retry must not go out after its successor with a code that no longer works (a reader who types
// it uses up the live code's tries).
import { describe, expect, it } from "vitest";
import { createHumanUser, deliverPendingNotifications, resendEmailCode, verifyEmail, type Mailer, type MailMessage } from "../../../src/index.js";
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
});
