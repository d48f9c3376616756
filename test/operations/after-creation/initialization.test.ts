// verifyInitCode and resendInitialization on every store: each success and error path, with the
// whole body and the events written (or not).
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { getUser, resendInitialization, verifyEmail, verifyInitCode } from "../../../src/index.js";
import { fakeHash } from "../support/import-fixtures.js";
import { invalidBody, plainError } from "../support/ports.js";
import { storeCases } from "../support/stores.js";
import { createAnn, details, eventTypes, FIRST_ID, globexMember, harnessForEachTest, importBob, initechMember, mails, member } from "./harness.js";

const wrongInitCode = err(plainError(3, "USER-c0d3", "the initialization code is not valid"));
const initialized = err(plainError(9, "USER-1n1t", "the user is already initialized"));
const unknownUser = err(plainError(5, "USER-u5r5", "the user does not exist"));
const IMPORTED = ["user.human.added", "user.human.initialization.code.added"];
const initLink = (userId: string, code: string, orgId = "acme") => `http://localhost:8080/ui/login/user/init?userID=${userId}&code=${code}&orgID=${orgId}`;

describe.each(storeCases)("initialization on $name", (storeCase) => {
  const harness = harnessForEachTest(storeCase);

  const state = async (userId: string) => {
    const user = (await getUser(harness.ports, { userId }, { requester: member }))._unsafeUnwrap().user;
    return { state: user.state, email: user.human.email, passwordChanged: user.human.passwordChanged };
  };

  describe("verifyInitCode", () => {
    it("redeems the mailed code with a first password, without a requester: verified email, password set, active", async () => {
      const userId = await importBob(harness);
      expect(mails(harness)).toEqual([{ kind: "email.initialization", to: "bob@acme.test", code: "AAAAAA", link: initLink(FIRST_ID, "AAAAAA"), userId }]);
      expect(await state(userId)).toEqual({ state: "USER_STATE_INITIAL", email: { email: "bob@acme.test" }, passwordChanged: undefined });
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA", password: "Secret-pass1" })).toEqual(ok(details(5)));
      const events = await harness.ports.storage.userLog.loadEvents(userId);
      expect(events.map((event) => [event.type, event.payload])).toEqual([
        ["user.human.added", events[0]?.payload],
        ["user.human.initialization.code.added", events[1]?.payload],
        ["user.human.initialization.check.succeeded", {}],
        ["user.human.email.verified", {}],
        ["user.human.password.changed", { encodedHash: fakeHash("Secret-pass1"), changeRequired: false }],
      ]);
      expect(await state(userId)).toEqual({ state: "USER_STATE_ACTIVE", email: { email: "bob@acme.test", isVerified: true }, passwordChanged: harness.clock.iso() });
    });

    it("redeems the code without a password: the email is verified and the user active", async () => {
      const userId = await importBob(harness);
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA" }, { requester: globexMember })).toEqual(ok(details(4)));
      expect(await eventTypes(harness, userId)).toEqual([...IMPORTED, "user.human.initialization.check.succeeded", "user.human.email.verified"]);
      expect(await state(userId)).toEqual({ state: "USER_STATE_ACTIVE", email: { email: "bob@acme.test", isVerified: true }, passwordChanged: undefined });
    });

    it("writes no second email.verified for an email verified at import", async () => {
      const userId = await importBob(harness, { email: { email: "bob@acme.test", isEmailVerified: true } });
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(ok(details(4)));
      expect(await eventTypes(harness, userId)).toEqual(["user.human.added", "user.human.email.verified", ...IMPORTED.slice(1), "user.human.initialization.check.succeeded"]);
    });

    it("records a wrong code and answers 3; five wrong codes kill it (9) until a new one is sent", async () => {
      const userId = await importBob(harness);
      for (let attempt = 1; attempt <= 5; attempt++) expect(await verifyInitCode(harness.ports, { userId, verificationCode: "ZZZZZZ" })).toEqual(wrongInitCode);
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(
        err(plainError(9, "USER-c0d5", "the initialization code was entered wrong too often; request a new one")),
      );
      expect(await eventTypes(harness, userId)).toEqual([...IMPORTED, ...Array.from({ length: 5 }, () => "user.human.initialization.check.failed")]);
      expect(await state(userId)).toEqual({ state: "USER_STATE_INITIAL", email: { email: "bob@acme.test" }, passwordChanged: undefined });
      expect(await resendInitialization(harness.ports, { userId }, { requester: member })).toEqual(ok(details(8)));
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(ok(details(10)));
    });

    it("keeps the code for 72 hours on the clock, then answers 3 with its own id and writes nothing", async () => {
      const userId = await importBob(harness);
      harness.clock.advance(72 * 3600 - 1);
      const other = await importBob(harness, { userName: "bob2" });
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(ok(details(4, harness.clock.iso())));
      harness.clock.advance(72 * 3600);
      expect(await verifyInitCode(harness.ports, { userId: other, verificationCode: "BBBBBB" })).toEqual(
        err(plainError(3, "USER-c0dx", "the initialization code has expired; request a new one")),
      );
      expect(await eventTypes(harness, other)).toEqual(IMPORTED);
    });

    it("checks the password against the organization's policy before anything is written; the code stays usable", async () => {
      const userId = await importBob(harness, {}, initechMember);
      const tooWeak = await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA", password: "short" });
      expect(tooWeak).toEqual(
        err(invalidBody([
          { field: "password", description: "must be at least 10 characters long" },
          { field: "password", description: "must contain a digit" },
        ])),
      );
      expect(await eventTypes(harness, userId)).toEqual(IMPORTED);
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA", password: "long enough 1" })).toEqual(ok(details(5, undefined, "initech")));
    });

    it("answers 9 for a user already initialized, and for one created without initialization", async () => {
      const bob = await importBob(harness);
      await verifyInitCode(harness.ports, { userId: bob, verificationCode: "AAAAAA" });
      expect(await verifyInitCode(harness.ports, { userId: bob, verificationCode: "AAAAAA" })).toEqual(initialized);
      const ann = await createAnn(harness);
      expect(await verifyInitCode(harness.ports, { userId: ann, verificationCode: "AAAAAA" })).toEqual(initialized);
    });

    it("answers 5 for a user that does not exist, and 3 naming a missing code", async () => {
      expect(await verifyInitCode(harness.ports, { userId: "nobody", verificationCode: "AAAAAA" })).toEqual(unknownUser);
      const userId = await importBob(harness);
      expect(await verifyInitCode(harness.ports, { userId, password: "Secret-pass1" })).toEqual(err(invalidBody([{ field: "verificationCode", description: "is required" }])));
    });
  });

  describe("resendInitialization", () => {
    it("mails a new code in place of the pending one, which stops working", async () => {
      const userId = await importBob(harness);
      expect(await resendInitialization(harness.ports, { userId }, { requester: member })).toEqual(ok(details(3)));
      expect(mails(harness)[1]).toEqual({ kind: "email.initialization", to: "bob@acme.test", code: "BBBBBB", link: initLink(FIRST_ID, "BBBBBB"), userId });
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(wrongInitCode);
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(ok(details(6)));
    });

    it("changes the address first when email differs, and mails the code there", async () => {
      const userId = await importBob(harness, { email: { email: "bob@acme.test", isEmailVerified: true } });
      expect(await resendInitialization(harness.ports, { userId, email: " robert@acme.test " }, { requester: member })).toEqual(ok(details(5)));
      expect(await eventTypes(harness, userId)).toEqual([
        "user.human.added",
        "user.human.email.verified",
        "user.human.initialization.code.added",
        "user.human.email.changed",
        "user.human.initialization.code.added",
      ]);
      const changed = await harness.ports.storage.userLog.loadEvents(userId);
      expect(changed[3]?.payload).toEqual({ email: "robert@acme.test" });
      expect(mails(harness)[1]).toEqual({ kind: "email.initialization", to: "robert@acme.test", code: "BBBBBB", link: initLink(FIRST_ID, "BBBBBB"), userId });
      expect(await state(userId)).toEqual({ state: "USER_STATE_INITIAL", email: { email: "robert@acme.test" }, passwordChanged: undefined });
      expect(await verifyInitCode(harness.ports, { userId, verificationCode: "BBBBBB" })).toEqual(ok(details(7)));
      expect(await state(userId)).toEqual({ state: "USER_STATE_ACTIVE", email: { email: "robert@acme.test", isVerified: true }, passwordChanged: undefined });
    });

    it("writes no change for the address the user has, in any case (emails compare ignoring case), or for an empty one", async () => {
      const userId = await importBob(harness);
      expect(await resendInitialization(harness.ports, { userId, email: "bob@acme.test" }, { requester: member })).toEqual(ok(details(3)));
      expect(await resendInitialization(harness.ports, { userId, email: "" }, { requester: member })).toEqual(ok(details(4)));
      expect(await resendInitialization(harness.ports, { userId, email: "BOB@Acme.TEST" }, { requester: member })).toEqual(ok(details(5)));
      const added = "user.human.initialization.code.added";
      expect(await eventTypes(harness, userId)).toEqual([...IMPORTED, added, added, added]);
      // The mail goes to the address as stored.
      expect(harness.ports.mailer.sent.at(-1)?.to).toBe("bob@acme.test");
    });

    it("answers 3 for an address that is not one, writing nothing", async () => {
      const userId = await importBob(harness);
      expect(await resendInitialization(harness.ports, { userId, email: "not an address" }, { requester: member })).toEqual(
        err(invalidBody([{ field: "email", description: "is not a valid email address" }])),
      );
      expect(await eventTypes(harness, userId)).toEqual(IMPORTED);
    });

    it("answers 9 for a user already initialized", async () => {
      const ann = await createAnn(harness);
      expect(await resendInitialization(harness.ports, { userId: ann }, { requester: member })).toEqual(initialized);
    });

    it("needs user.write: 16 without a requester, 5 to a requester of another organization", async () => {
      const userId = await importBob(harness);
      expect(await resendInitialization(harness.ports, { userId })).toEqual(err(plainError(16, "USER-4uth", "the request is not authenticated")));
      expect(await resendInitialization(harness.ports, { userId }, { requester: globexMember })).toEqual(unknownUser);
      expect(await eventTypes(harness, userId)).toEqual(IMPORTED);
    });
  });

  it("leaves verifyEmail to email codes: an init code does not verify through it (9: the user is not initialized)", async () => {
    const userId = await importBob(harness);
    expect(await verifyEmail(harness.ports, { userId, verificationCode: "AAAAAA" })).toEqual(
      err(plainError(9, "USER-un1t", "the user is not initialized yet: it must first use its initialization code (resendInitialization sends a new one)")),
    );
    expect(await eventTypes(harness, userId)).toEqual(IMPORTED);
  });
});
