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

describe("a generated notification id that a stored notification has", () => {
  it("is drawn again, with the user's, as a taken user id is: the user is written with fresh ids", async () => {
    // A generator restarted from its first id: each id it gives again is a stored one's.
    const { ports, logged } = withIds("user-1", "note-1", "user-2", "note-1", "user-3", "note-2");
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "first" }, context)).isOk()).toBe(true);
    const second = await createHumanUser(ports, { ...minimalCreate(), username: "second", email: { email: "second@acme.test" } }, context);
    expect(second._unsafeUnwrap().userId).toBe("user-3");
    expect(ports.storage.notifications().map((notification) => [notification.id, notification.userId])).toEqual([
      ["note-1", "user-1"],
      ["note-2", "user-3"],
    ]);
    expect([...new Set(ports.storage.events().map((event) => event.aggregateId))]).toEqual(["user-1", "user-3"]);
    expect(logged).toEqual([]);
  });

  it("answers 10 once the tries run out, writing nothing more", async () => {
    const { ports } = withIds("user-1", "note-1", ...Array.from({ length: 10 }, (_, index) => [`user-${index + 2}`, "note-1"]).flat());
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "first" }, context)).isOk()).toBe(true);
    const before = ports.storage.snapshot();
    expect(await createHumanUser({ ...ports, config: { appendAttempts: 3 } }, { ...minimalCreate(), username: "second", email: { email: "second@acme.test" } }, context)).toEqual(
      err(plainError(10, "USER-4brt", "the user was changed by another request at the same time, more often than the retries allow; try again")),
    );
    expect(ports.storage.snapshot()).toEqual(before);
  });
});
