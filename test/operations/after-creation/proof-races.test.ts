// A right password or code whose write loses its race to a change of that password or code: the
// call decides again against the new one, which its proof no longer matches. It is answered as a
// wrong one, but not recorded as one: the caller did not guess, so a double submit must not count
// towards the lockout, nor use up the tries of a code nobody has seen yet. A wrong proof that
// loses its race is still recorded.
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { checkPassword, passwordReset, resendEmailCode, setPassword, verifyEmail, type Ports } from "../../../src/index.js";
import { patchStorage } from "../../support/patch-storage.js";
import { plainError } from "../support/ports.js";
import { storeCases } from "../support/stores.js";
import { createAnn, details, eventTypes, type Harness, harnessForEachTest, member } from "./harness.js";

const WRONG_PASSWORD = err(plainError(3, "USER-p4ss", "the user or password is not correct"));
const WRONG_RESET_CODE = err(plainError(3, "USER-c0d3", "the password reset code is not valid"));
const WRONG_EMAIL_CODE = err(plainError(3, "USER-c0d3", "the email verification code is not valid"));
const PASSWORD = "Secret-pass1";
const CREATED = ["user.human.added", "user.human.email.code.added", "user.human.phone.code.added"];

/** The harness's ports, with `competitor` run (on the plain ports) right before the first write they make. */
function losingFirstWrite(harness: Harness, competitor: () => Promise<unknown>): Ports {
  const storage = harness.ports.storage;
  let raced = false;
  const append: typeof storage.userLog.append = async (request) => {
    if (!raced) {
      raced = true;
      await competitor();
    }
    return storage.userLog.append(request);
  };
  return { ...harness.ports, storage: patchStorage(storage, { userLog: { append } }) };
}

describe.each(storeCases)("proofs that lose their race on $name", (storeCase) => {
  const harness = harnessForEachTest(storeCase);

  it("a password change sent twice: one changes it, the other is answered wrong and counts no failed check", async () => {
    const userId = await createAnn(harness, { password: { password: PASSWORD } });
    const change = (password: string) => ({ userId, newPassword: { password }, currentPassword: PASSWORD });
    let first: unknown;
    const racing = losingFirstWrite(harness, async () => (first = await setPassword(harness.ports, change("New-Password-2"))));
    expect(await setPassword(racing, change("New-Password-3"))).toEqual(WRONG_PASSWORD);
    expect(first).toEqual(ok(details(4)));
    expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.password.changed"]);
    expect((await checkPassword(harness.ports, { userId, password: "New-Password-2" })).isOk()).toBe(true);
  });

  it("a login with the right password while the password changes: answered wrong, no failed check", async () => {
    const userId = await createAnn(harness, { password: { password: PASSWORD } });
    const racing = losingFirstWrite(harness, async () => await setPassword(harness.ports, { userId, newPassword: { password: "New-Password-2" }, currentPassword: PASSWORD }));
    expect(await checkPassword(racing, { userId, password: PASSWORD })).toEqual(WRONG_PASSWORD);
    expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.password.changed"]);
  });

  it("the right email code while a new one replaces it: answered wrong, and the new code keeps all its tries", async () => {
    const userId = await createAnn(harness);
    let resent: unknown;
    const racing = losingFirstWrite(harness, async () => (resent = await resendEmailCode(harness.ports, { userId, returnCode: {} }, { requester: member })));
    expect(await verifyEmail(racing, { userId, verificationCode: "AAAAAA" })).toEqual(WRONG_EMAIL_CODE);
    expect(resent).toEqual(ok({ ...details(4), verificationCode: "CCCCCC" }));
    expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.email.code.added"]);
    // Four wrong tries and the right one: the race used none of its five.
    for (let attempt = 1; attempt <= 4; attempt++) expect(await verifyEmail(harness.ports, { userId, verificationCode: `WRONG${attempt}` })).toEqual(WRONG_EMAIL_CODE);
    expect(await verifyEmail(harness.ports, { userId, verificationCode: "CCCCCC" })).toEqual(ok(details(9)));
  });

  it("the right reset code while a new reset replaces it: answered wrong, and the new code keeps all its tries", async () => {
    const userId = await createAnn(harness, { password: { password: PASSWORD } });
    const reset = async () => (await passwordReset(harness.ports, { userId, returnCode: {} }, { requester: member }))._unsafeUnwrap().verificationCode;
    const firstCode = await reset();
    let secondCode: string | undefined;
    const racing = losingFirstWrite(harness, async () => (secondCode = await reset()));
    expect(await setPassword(racing, { userId, newPassword: { password: "New-Password-2" }, verificationCode: firstCode })).toEqual(WRONG_RESET_CODE);
    expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.password.code.added", "user.human.password.code.added"]);
    expect((await setPassword(harness.ports, { userId, newPassword: { password: "New-Password-2" }, verificationCode: secondCode })).isOk()).toBe(true);
  });

  it("a wrong password that loses its race to another wrong one: both are recorded", async () => {
    const userId = await createAnn(harness, { password: { password: PASSWORD } });
    const racing = losingFirstWrite(harness, async () => await checkPassword(harness.ports, { userId, password: "Wrong-Password-1" }));
    expect(await checkPassword(racing, { userId, password: "Wrong-Password-2" })).toEqual(WRONG_PASSWORD);
    expect(await eventTypes(harness, userId)).toEqual([...CREATED, "user.human.password.check.failed", "user.human.password.check.failed"]);
  });
});
