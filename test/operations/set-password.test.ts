// setPassword with each proof (current password, reset code) and without one, on the memory store
// and on PostgreSQL; unlockUser.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { checkPassword, createHumanUser, getUser, memoryStore, passwordReset, setPassword, unlockUser, type Organization, type Requester } from "../../src/index.js";
import { annWithHash, cheapHash, countingHasher, details, event, imported, SEED, storeKinds } from "./support/first-login.js";
import { storedCode } from "./support/import-fixtures.js";
import { instanceAdmin, invalidBody, member, plainError } from "./support/ports.js";

const kinds = await storeKinds("set_password");

const WRONG = plainError(3, "USER-p4ss", "the user or password is not correct");
const LOCKED = plainError(9, "USER-l0ck", "the user is locked; an administrator must unlock it");
const CODE_WRONG = plainError(3, "USER-c0d3", "the password reset code is not valid");
const NO_CODE = plainError(9, "USER-n0cd", "no password reset code is pending");
const OLD = "Old-Password-1";
const NEW = "New-Password-2";

describe.each(kinds)("setPassword on $name", (kind) => {
  it("answers an unknown user proven by a current password as a wrong password, after one verification, as checkPassword does; with a code or a requester, 5", async () => {
    const hasher = countingHasher();
    const { ports, snapshot } = await kind.open({ passwordHasher: hasher });
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    const before = await snapshot();
    const verificationsOf = async (request: Record<string, unknown>, answer: unknown) => {
      const start = hasher.verifications();
      expect((await setPassword(ports, request))._unsafeUnwrapErr()).toEqual(answer);
      return hasher.verifications() - start;
    };
    const notFound = plainError(5, "USER-u5r5", "the user does not exist");
    expect(await verificationsOf({ userId: "nobody", newPassword: { password: NEW }, currentPassword: "Not-It-1" }, WRONG)).toBe(1);
    expect(await verificationsOf({ userId: "nobody", newPassword: { password: NEW }, verificationCode: "ABCDEF" }, notFound)).toBe(0);
    expect((await setPassword(ports, { userId: "nobody", newPassword: { password: NEW } }, { requester: instanceAdmin }))._unsafeUnwrapErr()).toEqual(notFound);
    // A wrong current password of a real user costs the same one verification.
    expect(await verificationsOf({ userId, newPassword: { password: NEW }, currentPassword: "Not-It-1" }, WRONG)).toBe(1);
    expect((await snapshot()).events.length).toBe(before.events.length + 1);
    // A new password a policy may refuse is judged only after the proof: a wrong current password first, for both alike.
    const weak = { newPassword: { password: "short" }, currentPassword: "Not-It-1" };
    expect(await verificationsOf({ userId, ...weak }, WRONG)).toBe(1);
    expect(await verificationsOf({ userId: "nobody", ...weak }, WRONG)).toBe(1);
    // What no password may be (empty) is refused at once, for both alike.
    const empty = { newPassword: { password: "" }, currentPassword: "Not-It-1" };
    expect(await verificationsOf({ userId, ...empty }, invalidBody([{ field: "newPassword.password", description: "must not be empty" }]))).toBe(0);
    expect(await verificationsOf({ userId: "nobody", ...empty }, invalidBody([{ field: "newPassword.password", description: "must not be empty" }]))).toBe(0);
  });

  it("sets a new password with the current one, clears the change requirement, and the new password logs in", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD), { passwordChangeRequired: true }));

    expect((await setPassword(ports, { userId, newPassword: { password: NEW }, currentPassword: OLD }))._unsafeUnwrap()).toEqual({ details: details(3) });
    expect(await eventsOf(userId, 2)).toEqual([event(userId, 3, "user.human.password.changed", { encodedHash: cheapHash(NEW), changeRequired: false })]);
    expect((await checkPassword(ports, { userId, password: NEW }))._unsafeUnwrap()).toEqual({ userId, details: details(4) });
    expect((await checkPassword(ports, { userId, password: OLD }))._unsafeUnwrapErr()).toEqual(WRONG);
  });

  it("refuses a wrong current password as checkPassword does, counting it towards the lockout", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));

    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await setPassword(ports, { userId, newPassword: { password: NEW }, currentPassword: "Not-It-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    }
    expect((await setPassword(ports, { userId, newPassword: { password: NEW }, currentPassword: OLD }))._unsafeUnwrapErr()).toEqual(LOCKED);
    expect(await eventsOf(userId, 2)).toEqual([
      event(userId, 3, "user.human.password.check.failed"),
      event(userId, 4, "user.human.password.check.failed"),
      event(userId, 5, "user.human.password.check.failed"),
      event(userId, 6, "user.locked"),
    ]);
  });

  it("answers a current password too long for the stored hash's cost as a wrong one, counting it towards the lockout", async () => {
    const { ports, eventsOf } = await kind.open();
    // Well formed; never computed: a million rounds over 300 bytes is beyond the cost budget.
    const userId = await imported(ports, annWithHash(`$6$rounds=999999$saltsalt$${"a".repeat(85)}.`));
    // 150 characters pass the request rules; as 300 bytes they are too long for this hash.
    const longPassword = "\u00e9".repeat(150);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await setPassword(ports, { userId, newPassword: { password: NEW }, currentPassword: longPassword }))._unsafeUnwrapErr()).toEqual(WRONG);
    }
    expect((await setPassword(ports, { userId, newPassword: { password: NEW }, currentPassword: longPassword }))._unsafeUnwrapErr()).toEqual(LOCKED);
    expect(await eventsOf(userId, 2)).toEqual([
      event(userId, 3, "user.human.password.check.failed"),
      event(userId, 4, "user.human.password.check.failed"),
      event(userId, 5, "user.human.password.check.failed"),
      event(userId, 6, "user.locked"),
    ]);
  });

  it("sets a new password with a reset code, once: the code is used up", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    const reset = (await passwordReset(ports, { userId, returnCode: {} }, { requester: member }))._unsafeUnwrap();
    expect(reset).toEqual({ details: details(3), verificationCode: "AAAAAA" });

    expect((await setPassword(ports, { userId, newPassword: { password: NEW, changeRequired: true }, verificationCode: "AAAAAA" }))._unsafeUnwrap()).toEqual({
      details: details(4),
    });
    expect((await setPassword(ports, { userId, newPassword: { password: "Third-Password-3" }, verificationCode: "AAAAAA" }))._unsafeUnwrapErr()).toEqual(NO_CODE);
    expect(await eventsOf(userId, 2)).toEqual([
      event(userId, 3, "user.human.password.code.added", { code: storedCode("AAAAAA"), expiry: "3600s", codeReturned: true }),
      event(userId, 4, "user.human.password.changed", { encodedHash: cheapHash(NEW), changeRequired: true }),
    ]);
    // Asked for again: the next login must change it.
    expect((await checkPassword(ports, { userId, password: NEW }))._unsafeUnwrap()).toEqual({ userId, passwordChangeRequired: true, details: details(5) });
  });

  it("records a wrong reset code, refuses even the right one after five wrong tries, and refuses an expired one (9, as ZITADEL's setPassword)", async () => {
    const { ports, eventsOf, clock } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    await passwordReset(ports, { userId, returnCode: {} }, { requester: member });

    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await setPassword(ports, { userId, newPassword: { password: NEW }, verificationCode: "BBBBBB" }))._unsafeUnwrapErr()).toEqual(CODE_WRONG);
    }
    expect((await setPassword(ports, { userId, newPassword: { password: NEW }, verificationCode: "AAAAAA" }))._unsafeUnwrapErr()).toEqual(
      plainError(9, "USER-c0d5", "the password reset code was entered wrong too often; request a new one"),
    );
    expect((await eventsOf(userId, 3)).map((stored) => stored.type)).toEqual(Array.from({ length: 5 }, () => "user.human.password.code.check.failed"));

    // A fresh code, an hour later.
    expect((await passwordReset(ports, { userId, returnCode: {} }, { requester: member }))._unsafeUnwrap().verificationCode).toBe("BBBBBB");
    clock.set("2026-03-04T06:06:07Z");
    expect((await setPassword(ports, { userId, newPassword: { password: NEW }, verificationCode: "BBBBBB" }))._unsafeUnwrapErr()).toEqual(
      plainError(9, "USER-rc0x", "the password reset code has expired; request a new one"),
    );
    // Nothing recorded: the code was not tried.
    expect((await eventsOf(userId, 3)).map((stored) => stored.type)).toEqual([...Array.from({ length: 5 }, () => "user.human.password.code.check.failed"), "user.human.password.code.added"]);
  });

  it("sets a password without a proof for a requester allowed to write the user, and answers 16 without one and 5 outside its reach", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    const outsider: Requester = { userId: "someone", orgId: "globex" };

    expect((await setPassword(ports, { userId, newPassword: { password: NEW } }))._unsafeUnwrapErr()).toEqual(
      plainError(16, "USER-4uth", "the request is not authenticated"),
    );
    expect((await setPassword(ports, { userId, newPassword: { password: NEW } }, { requester: outsider }))._unsafeUnwrapErr()).toEqual(
      plainError(5, "USER-u5r5", "the user does not exist"),
    );
    expect((await setPassword(ports, { userId, newPassword: { password: NEW } }, { requester: member }))._unsafeUnwrap()).toEqual({ details: details(3) });
    expect(await eventsOf(userId, 2)).toEqual([event(userId, 3, "user.human.password.changed", { encodedHash: cheapHash(NEW), changeRequired: false })]);
  });
});

describe.each(kinds)("setPassword before the initialization, and to the same password, on $name", (kind) => {
  const NOT_INITIALIZED = plainError(9, "USER-un1t", "the user is not initialized yet: it must first use its initialization code (resendInitialization sends a new one)");

  it("answers 9 for a user still waiting for its initialization, with every proof and without one, and writes nothing", async () => {
    const { ports, eventsOf } = await kind.open();
    // An unverified email: the user is initial until it redeems the initialization code.
    const userId = await imported(ports, annWithHash(cheapHash(OLD), { email: { email: "ann@acme.test", isEmailVerified: false } }));
    expect((await getUser(ports, { userId }, { requester: member }))._unsafeUnwrap().user.state).toBe("USER_STATE_INITIAL");
    for (const [request, context] of [
      [{ userId, newPassword: { password: NEW } }, { requester: member }],
      [{ userId, newPassword: { password: NEW }, currentPassword: OLD }, {}],
      [{ userId, newPassword: { password: NEW }, verificationCode: "ABCDEF" }, {}],
    ] as const) {
      expect((await setPassword(ports, request, context))._unsafeUnwrapErr()).toEqual(NOT_INITIALIZED);
    }
    expect(await eventsOf(userId, 2)).toEqual([]);
  });

  it("answers 9 to a new password proven by the same current password, and writes nothing", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    expect((await setPassword(ports, { userId, newPassword: { password: OLD }, currentPassword: OLD }))._unsafeUnwrapErr()).toEqual(
      plainError(9, "USER-s4me", "the new password is the current one"),
    );
    expect(await eventsOf(userId, 2)).toEqual([]);
  });
});

describe("setPassword: the request", () => {
  const [memory] = kinds;
  if (memory === undefined) throw new Error("no memory store");

  it("checks the new password against the organization's policy, reporting every rule broken", async () => {
    const { ports, snapshot } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    const before = await snapshot();

    expect((await setPassword(ports, { userId, newPassword: { password: "short" } }, { requester: member }))._unsafeUnwrapErr()).toEqual(
      invalidBody([
        { field: "newPassword.password", description: "must be at least 8 characters long" },
        { field: "newPassword.password", description: "must contain an upper-case letter" },
        { field: "newPassword.password", description: "must contain a digit" },
        { field: "newPassword.password", description: "must contain a symbol" },
      ]),
    );
    expect(await snapshot()).toEqual(before);
  });

  it("checks a new password against the organization's own policy only once the current password proved right, so an unknown user answers alike", async () => {
    const strict: Organization = { id: "strict", domains: [{ domain: "strict.test", verified: true }], policy: { passwordComplexity: { minLength: 20 } } };
    const storage = memoryStore({ organizations: [...SEED.organizations, strict] });
    const { ports } = await memory.open({ storage });
    const snapshot = () => storage.snapshot();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)), "strict");
    // Good enough for the default policy, too short for the organization's.
    const change = (target: string, current: string) => setPassword(ports, { userId: target, newPassword: { password: NEW }, currentPassword: current });
    // Before: 3 naming the policy for the real user at once, a wrong password after a verification for nobody.
    expect(await change(userId, "Not-It-1")).toEqual(err(WRONG));
    expect(await change("nobody", "Not-It-1")).toEqual(err(WRONG));
    expect(snapshot().events.map((stored) => stored.type).at(-1)).toBe("user.human.password.check.failed");
    const before = snapshot();
    expect(await change(userId, OLD)).toEqual(err(invalidBody([{ field: "newPassword.password", description: "must be at least 20 characters long" }])));
    expect(snapshot()).toEqual(before);
    expect((await change(userId, "Not-It-1")).isErr()).toBe(true);
    expect((await setPassword(ports, { userId, newPassword: { password: "A-New-Password-Long-Enough-1" }, currentPassword: OLD })).isOk()).toBe(true);
  });

  it("takes a new password an organization's lenient policy allows, proven by the current password as by a reset code", async () => {
    const lax: Organization = { id: "lax", domains: [{ domain: "lax.test", verified: true }], policy: { passwordComplexity: { minLength: 4, hasLowercase: false, hasUppercase: false, hasNumber: false, hasSymbol: false } } };
    const { ports } = await memory.open({ storage: memoryStore({ organizations: [...SEED.organizations, lax] }) });
    const userId = await imported(ports, annWithHash(cheapHash("old1")), "lax");
    expect((await setPassword(ports, { userId, newPassword: { password: "newpass" }, currentPassword: "old1" })).isOk()).toBe(true);
    expect((await checkPassword(ports, { userId, password: "newpass" })).isOk()).toBe(true);
  });

  it("refuses a new password longer than hashBounds.maxPasswordBytes, which no verification would take, here and at creation", async () => {
    const { ports, snapshot } = await memory.open({ hashBounds: { maxPasswordBytes: 16 } });
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    const before = await snapshot();
    const tooLong = "Long-Password-123456789"; // 23 bytes
    expect((await setPassword(ports, { userId, newPassword: { password: tooLong } }, { requester: member }))._unsafeUnwrapErr()).toEqual(
      invalidBody([{ field: "newPassword.password", description: "must be at most 16 bytes long" }]),
    );
    const creation = { username: "long", profile: { givenName: "L", familyName: "P" }, email: { email: "long@acme.test" }, password: { password: tooLong } };
    expect((await createHumanUser(ports, creation, { requester: member }))._unsafeUnwrapErr()).toEqual(
      invalidBody([{ field: "password.password", description: "must be at most 16 bytes long" }]),
    );
    expect(await snapshot()).toEqual(before);
    // 16 bytes are taken, and log in.
    expect((await setPassword(ports, { userId, newPassword: { password: "Pass-Word-123456" } }, { requester: member })).isOk()).toBe(true);
    expect((await checkPassword(ports, { userId, password: "Pass-Word-123456" })).isOk()).toBe(true);
  });

  it.each([
    [{ newPassword: { password: NEW } }, [{ field: "userId", description: "is required" }]],
    [{ userId: "1" }, [{ field: "newPassword", description: "is required" }]],
    [
      { userId: "1", newPassword: { password: NEW }, currentPassword: OLD, verificationCode: "AAAAAA" },
      [{ field: "verificationCode", description: "only one of currentPassword, verificationCode may be set" }],
    ],
    [{ userId: "1", newPassword: { password: NEW }, currentPassword: 5 }, [{ field: "currentPassword", description: "must be a string" }]],
  ])("refuses %j before anything else", async (request, violations) => {
    const { ports } = await memory.open();
    expect((await setPassword(ports, request))._unsafeUnwrapErr()).toEqual(invalidBody(violations));
  });
});

describe.each(kinds)("unlockUser on $name", (kind) => {
  it("lets a locked user log in again, counting its failures from zero", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));
    for (let attempt = 0; attempt < 3; attempt++) await checkPassword(ports, { userId, password: "Not-It-1" });

    expect((await unlockUser(ports, { userId }, { requester: member }))._unsafeUnwrap()).toEqual({ details: details(7) });
    expect((await checkPassword(ports, { userId, password: OLD }))._unsafeUnwrap()).toEqual({ userId, details: details(8) });
    for (let attempt = 0; attempt < 2; attempt++) await checkPassword(ports, { userId, password: "Not-It-1" });
    expect((await checkPassword(ports, { userId, password: OLD }))._unsafeUnwrap()).toEqual({ userId, details: details(11) });
    expect(await eventsOf(userId, 6)).toEqual([
      event(userId, 7, "user.unlocked"),
      event(userId, 8, "user.human.password.check.succeeded"),
      event(userId, 9, "user.human.password.check.failed"),
      event(userId, 10, "user.human.password.check.failed"),
      event(userId, 11, "user.human.password.check.succeeded"),
    ]);
  });

  it("answers 9 for a user that is not locked, 16 without a requester and 5 outside the requester's reach", async () => {
    const { ports } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD)));

    expect((await unlockUser(ports, { userId }, { requester: instanceAdmin }))._unsafeUnwrapErr()).toEqual(plainError(9, "USER-nl0k", "the user is not locked"));
    expect((await unlockUser(ports, { userId }))._unsafeUnwrapErr()).toEqual(plainError(16, "USER-4uth", "the request is not authenticated"));
    expect((await unlockUser(ports, { userId }, { requester: { userId: "x", orgId: "globex" } }))._unsafeUnwrapErr()).toEqual(
      plainError(5, "USER-u5r5", "the user does not exist"),
    );
  });
});

describe.each(kinds)("getUser after the first login on $name", (kind) => {
  it("shows the lock, the upgrade leaving passwordChanged as it was, and a new password with its change requirement", async () => {
    const { ports, clock } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash(OLD, 2), { passwordChangeRequired: true }));
    const shown = async () => {
      const { user } = (await getUser(ports, { userId }, { requester: member }))._unsafeUnwrap();
      return { state: user.state, sequence: user.details.sequence, passwordChangeRequired: user.human.passwordChangeRequired, passwordChanged: user.human.passwordChanged };
    };
    const atImport = { state: "USER_STATE_ACTIVE", sequence: "2", passwordChangeRequired: true, passwordChanged: "2026-03-04T05:06:07Z" };
    expect(await shown()).toEqual(atImport);

    // Two rounds of PBKDF2 are not the cheap hasher's one: the first login upgrades the hash, not the password's date.
    clock.set("2026-03-04T06:00:00Z");
    expect((await checkPassword(ports, { userId, password: OLD })).isOk()).toBe(true);
    expect(await shown()).toEqual({ ...atImport, sequence: "4" });

    for (let attempt = 0; attempt < 3; attempt++) await checkPassword(ports, { userId, password: "Not-It-1" });
    expect(await shown()).toEqual({ ...atImport, state: "USER_STATE_LOCKED", sequence: "8" });

    await unlockUser(ports, { userId }, { requester: member });
    clock.set("2026-03-04T07:00:00Z");
    expect((await setPassword(ports, { userId, newPassword: { password: NEW } }, { requester: member })).isOk()).toBe(true);
    expect(await shown()).toEqual({ state: "USER_STATE_ACTIVE", sequence: "10", passwordChangeRequired: undefined, passwordChanged: "2026-03-04T07:00:00Z" });
  });
});
