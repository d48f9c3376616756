// A new code replaces the one before it, and so the mail that carries it: a mail still waiting for
// a retry must not go out after its successor with a code that no longer works (a reader who types
// it uses up the live code's tries).
import { describe, expect, it } from "vitest";
import { checkPassword, createHumanUser, deliverPendingNotifications, importHumanUser, passwordReset, resendEmailCode, resendInitialization, setPassword, verifyEmail, verifyInitCode, type Mailer, type MailMessage } from "../../../src/index.js";
import { cheapHasher } from "../support/first-login.js";
import { ACME, GLOBEX, member, minimalCreate, testPorts } from "../support/ports.js";

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
      ["dead", "its code no longer works"],
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
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.verification", "dead", "its code no longer works"]]);
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
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.password_reset", "dead", "its code no longer works"]]);
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
      [bob.userId, "dead", "its code no longer works"],
    ]);
    expect((await verifyEmail(ports, { userId: bob.userId, verificationCode: resent.verificationCode ?? "" })).isOk()).toBe(true);
  });
});

/** A mailer whose first send reaches the reader, though its answer is lost: it counts as failed. */
function lostAnswerMailer(): Mailer & { readonly received: MailMessage[] } {
  const received: MailMessage[] = [];
  return {
    received,
    send(message) {
      received.push(message);
      return received.length === 1 ? Promise.reject(new Error("connection reset after DATA")) : Promise.resolve();
    },
  };
}

/** The worker's next rounds, hours apart: every retry that is due goes. */
async function laterRounds(ports: Parameters<typeof deliverPendingNotifications>[0]): Promise<void> {
  for (let round = 0; round < 3; round++) await deliverPendingNotifications({ ...ports, clock: { now: () => new Date(Date.parse("2026-03-04T06:00:00Z") + round * 3_600_000) } });
}

describe("a used-up code", () => {
  it("redeemed from a verification mail whose send was answered as failed: its retry is dead, and the reader gets it once", async () => {
    const mailer = lostAnswerMailer();
    const ports = testPorts({ mailer, config: { delivery: { maxAttempts: 5 } } });
    const { userId } = (await createHumanUser(ports, minimalCreate(), { requester: member }))._unsafeUnwrap();
    expect((await verifyEmail(ports, { userId, verificationCode: mailer.received[0]?.code ?? "" })).isOk()).toBe(true);
    await laterRounds(ports);

    expect(mailer.received.map((message) => message.kind)).toEqual(["email.verification"]);
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.verification", "dead", "its code no longer works"]]);
  });

  it("redeemed from an initialization mail whose send was answered as failed: its retry is dead", async () => {
    const mailer = lostAnswerMailer();
    const ports = testPorts({ mailer, config: { delivery: { maxAttempts: 5 } } });
    const imported = await importHumanUser(ports, { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test", isEmailVerified: false } }, { requester: member });
    const userId = imported._unsafeUnwrap().userId;
    const initialization = mailer.received.find((message) => message.kind === "email.initialization");
    expect((await verifyInitCode(ports, { userId, verificationCode: initialization?.code ?? "" })).isOk()).toBe(true);
    await laterRounds(ports);

    expect(mailer.received.map((message) => message.kind)).toEqual(["email.initialization"]);
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.initialization", "dead", "its code no longer works"]]);
  });

  it("of a password reset, once the password is set another way: the reset mail waiting for its retry is dead", async () => {
    const mailer = flakyMailer(1);
    const ports = testPorts({ mailer, passwordHasher: cheapHasher, config: { delivery: { maxAttempts: 5 } } });
    const { userId } = (await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", isVerified: true }, password: { password: "Secret-pass1" } }, { requester: member }))._unsafeUnwrap();
    expect((await passwordReset(ports, { userId, sendLink: {} }, { requester: member })).isOk()).toBe(true);
    expect((await setPassword(ports, { userId, newPassword: { password: "Secret-pass2" } }, { requester: member })).isOk()).toBe(true);
    await laterRounds(ports);

    expect(mailer.sent).toEqual([]);
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.password_reset", "dead", "its code no longer works"]]);
  });

  it("by its last wrong try: the mail waiting for its retry is dead, since its code would only answer 9", async () => {
    const mailer = flakyMailer(1);
    const ports = testPorts({ mailer, config: { delivery: { maxAttempts: 5 } } });
    const { userId } = (await createHumanUser(ports, minimalCreate(), { requester: member }))._unsafeUnwrap();
    for (let attempt = 0; attempt < 4; attempt++) expect((await verifyEmail(ports, { userId, verificationCode: "WRONG1" }))._unsafeUnwrapErr().code).toBe(3);
    expect(ports.storage.notifications().map((record) => record.state)).toEqual(["pending"]);
    expect((await verifyEmail(ports, { userId, verificationCode: "WRONG1" }))._unsafeUnwrapErr().code).toBe(3);
    await laterRounds(ports);

    expect(mailer.sent).toEqual([]);
    expect(ports.storage.notifications().map((record) => [record.kind, record.state, record.lastError ?? ""])).toEqual([["email.verification", "dead", "its code no longer works"]]);
  });

  it("is not a failed try: a wrong code leaves the mail of the live one to be retried", async () => {
    const mailer = flakyMailer(1);
    const ports = testPorts({ mailer, config: { delivery: { maxAttempts: 5 } } });
    const { userId } = (await createHumanUser(ports, minimalCreate(), { requester: member }))._unsafeUnwrap();
    expect((await verifyEmail(ports, { userId, verificationCode: "WRONG1" })).isErr()).toBe(true);
    await laterRounds(ports);

    expect(mailer.sent.map((message) => message.kind)).toEqual(["email.verification"]);
    expect((await verifyEmail(ports, { userId, verificationCode: mailer.sent[0]?.code ?? "" })).isOk()).toBe(true);
  });
});

describe("a changed address", () => {
  it("makes the mails still waiting for the old address dead, a reset mail whose code still works included", async () => {
    // The import's initialization mail and the reset mail both fail once, and wait for a retry.
    const mailer = flakyMailer(2);
    const locking = { ...ACME, policy: { lockout: { maxPasswordAttempts: 3 } } };
    const ports = testPorts({ mailer, passwordHasher: cheapHasher, config: { delivery: { maxAttempts: 5 } } }, { organizations: [locking, GLOBEX] });
    // Imported with a password and an unverified email (waiting for its initialization), then locked by three wrong passwords.
    const request = { userName: "bob", profile: { firstName: "Bob", lastName: "Stone" }, email: { email: "bob@acme.test" }, password: "Secret-pass1" };
    const { userId } = (await importHumanUser(ports, request, { requester: member }))._unsafeUnwrap();
    for (let attempt = 0; attempt < 3; attempt++) await checkPassword(ports, { userId, password: "Wrong-pass1" });
    expect((await passwordReset(ports, { userId, sendLink: {} }, { requester: member })).isOk()).toBe(true);
    expect((await resendInitialization(ports, { userId, email: "bob.new@acme.test" }, { requester: member })).isOk()).toBe(true);
    await laterRounds(ports);

    expect(mailer.sent.map((message) => [message.kind, message.to])).toEqual([["email.initialization", "bob.new@acme.test"]]);
    expect(ports.storage.notifications().map((record) => [record.kind, record.recipient, record.state])).toEqual([
      ["email.initialization", "bob@acme.test", "dead"],
      ["email.password_reset", "bob@acme.test", "dead"],
      ["email.initialization", "bob.new@acme.test", "delivered"],
    ]);
  });
});
