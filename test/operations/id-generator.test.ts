// The id generator port (ports.ids) is drawn for user ids, notification ids, code ids and passkey
// ids. An id it gives that no store can use (not a string of 1 to 200 characters a store can
// hold) is a port failure wherever it is drawn: 13, the cause logged, nothing written or sent.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, createPasskeyRegistrationLink, resendEmailCode } from "../../src/index.js";
import { FIRST_ID, member, minimalCreate, plainError, SECOND_ID, withIds } from "./support/ports.js";

const context = { requester: member };
const INTERNAL = err(plainError(13, "USER-1nt3", "internal error"));

describe("an unusable id drawn after the user was created", () => {
  it("for a resent code's mail: 13, the cause logged, no event and no mail", async () => {
    const { ports, logged } = withIds(FIRST_ID, "");
    const created = await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} } }, context);
    expect(created.isOk()).toBe(true);
    const before = ports.storage.snapshot();

    expect(await resendEmailCode(ports, { userId: FIRST_ID }, context)).toEqual(INTERNAL);
    expect(logged).toEqual([{ message: "human-users: resendEmailCode failed", cause: new Error("ports.ids.next() gave an unusable id: must not be empty") }]);
    expect(ports.storage.snapshot()).toEqual(before);
    expect(ports.mailer.attempted).toEqual([]);
  });

  it("for a passkey registration code: 13, the cause logged, no event", async () => {
    const { ports, logged } = withIds(FIRST_ID, { id: SECOND_ID });
    expect((await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", isVerified: true } }, context)).isOk()).toBe(true);
    const before = ports.storage.snapshot();

    expect(await createPasskeyRegistrationLink(ports, { userId: FIRST_ID, returnCode: {} }, context)).toEqual(INTERNAL);
    expect(logged).toEqual([{ message: "human-users: createPasskeyRegistrationLink failed", cause: new Error("ports.ids.next() gave an unusable id: must be a string, not an object") }]);
    expect(ports.storage.snapshot()).toEqual(before);
  });

  it("a usable id from the host's generator is used as it is", async () => {
    const { ports, logged } = withIds("u".repeat(200), "n-1");
    const created = await createHumanUser(ports, minimalCreate(), context);
    expect(created._unsafeUnwrap().userId).toBe("u".repeat(200));
    expect(ports.storage.notifications().map((notification) => notification.id)).toEqual(["n-1"]);
    expect(logged).toEqual([]);
  });
});
