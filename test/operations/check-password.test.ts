// checkPassword: the first login of an imported user, on the memory store and on PostgreSQL.
import { hashSync } from "bcryptjs";
import { err } from "neverthrow";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkPassword, setPassword, type Requester } from "../../src/index.js";
import { bcryptHasher } from "../../src/passwords/index.js";
import { BCRYPT_HASH, BCRYPT_PASSWORD } from "./support/import-fixtures.js";
import { annWithHash, cheapHash, countingHasher, details, event, imported, storeKinds } from "./support/first-login.js";
import { plainError } from "./support/ports.js";

const kinds = await storeKinds("check_password");

const WRONG = plainError(3, "USER-p4ss", "the user or password is not correct");
const LOCKED = plainError(9, "USER-l0ck", "the user is locked; an administrator must unlock it");
const ERROR_DETAIL = "type.googleapis.com/zitadel.v1.ErrorDetail";
const BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest";

function invalid(field: string, description: string) {
  const message = `${field}: ${description}`;
  return { code: 3, message, details: [{ "@type": ERROR_DETAIL, id: "USER-1nv4", message }, { "@type": BAD_REQUEST, fieldViolations: [{ field, description }] }] };
}

describe.each(kinds)("checkPassword on $name", (kind) => {
  it("logs an imported bcrypt user in, upgrades the hash in the same call, and logs in with the new hash", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(BCRYPT_HASH, { passwordChangeRequired: true }));

    expect((await checkPassword(ports, { userId, password: BCRYPT_PASSWORD }))._unsafeUnwrap()).toEqual({
      userId,
      passwordChangeRequired: true,
      details: details(4),
    });
    expect(await eventsOf(userId, 2)).toEqual([
      event(userId, 3, "user.human.password.check.succeeded"),
      event(userId, 4, "user.human.password.hash.updated", { encodedHash: cheapHash(BCRYPT_PASSWORD) }),
    ]);

    // By login name this time; the hash is current now, so nothing more is upgraded.
    expect((await checkPassword(ports, { loginName: "ANN", password: BCRYPT_PASSWORD }))._unsafeUnwrap()).toEqual({
      userId,
      passwordChangeRequired: true,
      details: details(5),
    });
    expect(await eventsOf(userId, 4)).toEqual([event(userId, 5, "user.human.password.check.succeeded")]);
  });

  it("keeps a bcrypt hash when the password is longer than the 72 bytes bcrypt reads, so that every password it accepted still logs in", async () => {
    const { ports, eventsOf } = await kind.open();
    const real = `${"Long-Password-1-".repeat(5)}real-end`;
    const userId = await imported(ports, annWithHash(hashSync(real, 4)));
    const nearMiss = `${real.slice(0, 72)}-typo`;

    expect((await checkPassword(ports, { userId, password: nearMiss }))._unsafeUnwrap()).toEqual({ userId, details: details(3) });
    // Exactly the 72 bytes bcrypt read: the password chosen may be longer, so this is no proof of it either.
    expect((await checkPassword(ports, { userId, password: real.slice(0, 72) }))._unsafeUnwrap()).toEqual({ userId, details: details(4) });
    expect((await checkPassword(ports, { userId, password: real }))._unsafeUnwrap()).toEqual({ userId, details: details(5) });
    expect(await eventsOf(userId, 2)).toEqual([3, 4, 5].map((sequence) => event(userId, sequence, "user.human.password.check.succeeded")));
  });

  it("answers a password with an unpaired surrogate as a wrong one: not the password with U+FFFD in its place", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash("Pass-\ufffd-word-1A!")));
    // Two tries: the organization of these tests locks a user at the third wrong password.
    for (const lone of ["\ud800", "\udfff"]) expect(await checkPassword(ports, { userId, password: `Pass-${lone}-word-1A!` })).toEqual(err(WRONG));
    expect(await checkPassword(ports, { loginName: "nobody", password: "Pass-\ud800-word-1A!" })).toEqual(err(WRONG));
    expect(await eventsOf(userId, 2)).toEqual([3, 4].map((sequence) => event(userId, sequence, "user.human.password.check.failed")));
    expect((await checkPassword(ports, { userId, password: "Pass-\ufffd-word-1A!" })).isOk()).toBe(true);
  });

  it("answers a password longer than hashBounds.maxPasswordBytes as a wrong one, for a user and for nobody, and records the failed check", async () => {
    const { ports, eventsOf } = await kind.open({ hashBounds: { maxPasswordBytes: 16 } });
    const userId = await imported(ports, annWithHash(cheapHash("Right-Pass-1")));
    expect(await checkPassword(ports, { userId, password: "Right-Pass-1-and-more" })).toEqual(err(WRONG));
    expect(await checkPassword(ports, { loginName: "nobody", password: "Right-Pass-1-and-more" })).toEqual(err(WRONG));
    expect(await eventsOf(userId, 2)).toEqual([event(userId, 3, "user.human.password.check.failed")]);
  });

  it("answers a wrong password, an unknown user id and an unknown login name with one body, and records only the wrong password", async () => {
    const { ports, eventsOf, snapshot } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1")), "globex");

    expect((await checkPassword(ports, { userId, password: "Wrong-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    expect(await eventsOf(userId, 2)).toEqual([event(userId, 3, "user.human.password.check.failed", {}, "globex")]);

    const before = await snapshot();
    expect((await checkPassword(ports, { userId: "nobody", password: "Wrong-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    expect((await checkPassword(ports, { loginName: "nobody", password: "Right-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    expect(await snapshot()).toEqual(before);
  });

  it("finds a user of an organization with userLoginMustBeDomain by username@domain, ignoring case, and not by the bare username", async () => {
    const { ports } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1"), { userName: "bob", email: { email: "bob@must.test", isEmailVerified: true } }), "must");

    expect((await checkPassword(ports, { loginName: "Bob@Must.Test", password: "Right-Password-1" }))._unsafeUnwrap()).toEqual({
      userId,
      details: details(3, "must"),
    });
    expect((await checkPassword(ports, { loginName: "bob", password: "Right-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    expect((await checkPassword(ports, { loginName: "bob@acme.test", password: "Right-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
  });

  it("answers a user without a password as a wrong password, and records nothing", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, { ...annWithHash(""), hashedPassword: undefined });
    const events = await eventsOf(userId);

    expect((await checkPassword(ports, { userId, password: "Any-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    expect(await eventsOf(userId)).toEqual(events);
  });

  it("locks the user at the organization's limit; a locked user answers 9 even to the right password, and nothing more is recorded", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1")));

    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await checkPassword(ports, { userId, password: "Wrong-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    }
    expect((await checkPassword(ports, { userId, password: "Right-Password-1" }))._unsafeUnwrapErr()).toEqual(LOCKED);
    expect((await checkPassword(ports, { loginName: "ann", password: "Wrong-Password-1" }))._unsafeUnwrapErr()).toEqual(LOCKED);
    expect(await eventsOf(userId, 2)).toEqual([
      event(userId, 3, "user.human.password.check.failed"),
      event(userId, 4, "user.human.password.check.failed"),
      event(userId, 5, "user.human.password.check.failed"),
      event(userId, 6, "user.locked"),
    ]);
  });

  it("starts counting again after a right password", async () => {
    const { ports, eventsOf } = await kind.open();
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1")));
    for (const password of ["Wrong-1", "Wrong-2", "Right-Password-1", "Wrong-3", "Wrong-4"]) await checkPassword(ports, { userId, password });

    expect((await eventsOf(userId, 2)).map((stored) => stored.type)).toEqual([
      "user.human.password.check.failed",
      "user.human.password.check.failed",
      "user.human.password.check.succeeded",
      "user.human.password.check.failed",
      "user.human.password.check.failed",
    ]);
    expect((await checkPassword(ports, { userId, password: "Right-Password-1" }))._unsafeUnwrap()).toEqual({ userId, details: details(8) });
  });
});

describe("checkPassword: who may call and what is checked first", () => {
  const [memory] = kinds;
  if (memory === undefined) throw new Error("no memory store");

  it("needs no requester, and a requester from another organization needs no permission: the password is the proof", async () => {
    const { ports } = await memory.open();
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1")));
    const outsider: Requester = { userId: "someone", orgId: "globex" };

    expect((await checkPassword(ports, { userId, password: "Right-Password-1" }, { requester: outsider }))._unsafeUnwrap()).toEqual({
      userId,
      details: details(3),
    });
  });

  it.each([
    [{ password: "x" }, invalid("userId", "one of userId, loginName is required")],
    [{ userId: "1", loginName: "ann", password: "x" }, invalid("userId", "only one of userId, loginName may be set")],
    [{ userId: 7, password: "x" }, invalid("userId", "must be a string")],
    [{ loginName: "", password: "x" }, invalid("loginName", "must not be empty")],
    [{ userId: "1" }, invalid("password", "is required")],
    [{ userId: "1", password: "" }, invalid("password", "must not be empty")],
    [{ userId: "1", password: "é".repeat(513) }, invalid("password", "must be at most 1024 bytes long")],
  ])("refuses %j before looking the user up", async (request, body) => {
    const { ports, snapshot } = await memory.open();
    expect((await checkPassword(ports, request))._unsafeUnwrapErr()).toEqual(body);
    expect(await snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });

  it("runs one verification for an unknown login name, an unknown user id and a user without a password, as for a wrong password", async () => {
    const hasher = countingHasher();
    const { ports } = await memory.open({ passwordHasher: hasher });
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1")));
    const withoutPassword = await imported(ports, { ...annWithHash(""), userName: "nopass", hashedPassword: undefined });
    const verificationsOf = async (request: Record<string, unknown>) => {
      const before = hasher.verifications();
      expect((await checkPassword(ports, request))._unsafeUnwrapErr()).toEqual(WRONG);
      return hasher.verifications() - before;
    };

    expect(await verificationsOf({ userId, password: "Wrong-Password-1" })).toBe(1);
    expect(await verificationsOf({ loginName: "nobody", password: "Wrong-Password-1" })).toBe(1);
    expect(await verificationsOf({ userId: "nobody", password: "Wrong-Password-1" })).toBe(1);
    expect(await verificationsOf({ userId: withoutPassword, password: "Wrong-Password-1" })).toBe(1);
    // The hash the unknown are checked against is made once, with the configured hasher.
    expect(hasher.hashes()).toBe(1);
  });

  it("answers a wrong password, as for a known user, when the hash unknown users are checked against cannot be made, and makes it again on the next call", async () => {
    const errors: unknown[] = [];
    const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>, message: string) => errors.push([message, String(fields["err"])]) };
    const counting = countingHasher();
    let failures = 1;
    const hasher = { ...counting, hash: (password: string) => (failures-- > 0 ? Promise.reject(new Error("hasher down")) : counting.hash(password)) };
    const { ports } = await memory.open({ passwordHasher: hasher, logger });
    // A known user's wrong password never calls hash(): 3, not 13, or the code would tell who exists.
    // Before the fix, every later unknown name was answered at once, with no work: the time told it.
    expect(await checkPassword(ports, { loginName: "nobody", password: "Wrong-Password-1" })).toEqual(err(WRONG));
    expect(errors).toEqual([["human-users: password hasher failed", "Error: hasher down"]]);
    const before = counting.verifications();
    expect(await checkPassword(ports, { loginName: "nobody", password: "Wrong-Password-1" })).toEqual(err(WRONG));
    expect(await setPassword(ports, { userId: "nobody", newPassword: { password: "New-Password-2" }, currentPassword: "Wrong-Password-1" })).toEqual(err(WRONG));
    expect([counting.verifications() - before, counting.hashes()]).toEqual([2, 1]);
  });

  it("answers 13 for an unknown user when the configured hasher cannot verify, as for a known one", async () => {
    const counting = countingHasher();
    let verifying = false;
    const hasher = {
      ...counting,
      isCurrent: (parsed: Parameters<typeof counting.isCurrent>[0]) => {
        if (verifying) throw new Error("hasher down");
        return counting.isCurrent(parsed);
      },
    };
    const logger = { warn: () => undefined, error: () => undefined };
    const { ports } = await memory.open({ passwordHasher: hasher, logger });
    const userId = await imported(ports, annWithHash(cheapHash("Right-Password-1")));
    verifying = true;
    const internal = err(plainError(13, "USER-1nt3", "internal error"));
    expect(await checkPassword(ports, { userId, password: "Wrong-Password-1" })).toEqual(internal);
    expect(await checkPassword(ports, { loginName: "nobody", password: "Wrong-Password-1" })).toEqual(internal);
    expect(await setPassword(ports, { userId: "nobody", newPassword: { password: "New-Password-2" }, currentPassword: "Wrong-Password-1" })).toEqual(internal);
  });

  it("pays a verification at the configured hasher's cost for a wrong password against a cheaper imported hash, so that its time does not tell an imported user from an unknown one", async () => {
    const hasher = countingHasher();
    const { ports } = await memory.open({ passwordHasher: hasher });
    // {SHA} of "Right-Password-1": far cheaper than any configured hasher.
    const sha1 = createHash("sha1").update("Right-Password-1").digest("base64");
    const userId = await imported(ports, annWithHash(`{SHA}${sha1}`));
    const before = hasher.verifications();
    expect((await checkPassword(ports, { userId, password: "Wrong-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    // Its own verification, then one against the configured hasher's hash, as an unknown user gets.
    expect(hasher.verifications() - before).toBe(2);
    // setPassword's current password is a proof by password too, paid the same.
    const beforeChange = hasher.verifications();
    expect((await setPassword(ports, { userId, newPassword: { password: "New-Password-2" }, currentPassword: "Wrong-Password-1" }))._unsafeUnwrapErr()).toEqual(WRONG);
    expect(hasher.verifications() - beforeChange).toBe(2);
    expect((await checkPassword(ports, { userId, password: "Right-Password-1" })).isOk()).toBe(true);
  });

  it("answers a password too long for the stored hash's cost as a wrong one, with the unknown user's body, and records the failed check", async () => {
    const { ports, eventsOf } = await memory.open();
    // Well formed; never computed: a million rounds over 300 bytes is beyond the cost budget.
    const userId = await imported(ports, annWithHash(`$6$rounds=999999$saltsalt$${"a".repeat(85)}.`));
    const longPassword = "x".repeat(300);
    expect(await checkPassword(ports, { loginName: "nobody", password: longPassword })).toEqual(err(WRONG));
    expect(await checkPassword(ports, { userId, password: longPassword })).toEqual(err(WRONG));
    expect(await eventsOf(userId, 2)).toEqual([event(userId, 3, "user.human.password.check.failed")]);
  });

  it("answers 13 without recording anything when the stored hash is beyond the configured bounds, and logs why", async () => {
    const errors: unknown[] = [];
    const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>, message: string) => errors.push([message, String(fields["err"])]) };
    const { ports, eventsOf } = await memory.open({ logger });
    const userId = await imported(ports, annWithHash(BCRYPT_HASH));
    const strict = { ...ports, hashBounds: { bcryptMinCost: 5 } };

    expect((await checkPassword(strict, { userId, password: BCRYPT_PASSWORD }))._unsafeUnwrapErr()).toEqual(plainError(13, "USER-1nt3", "internal error"));
    expect(await eventsOf(userId, 2)).toEqual([]);
    expect(errors).toEqual([["human-users: password check failed", "Error: stored password hash refused: bcrypt hash: cost is out of range (5..15)"]]);
  });

  it("never stores a hash of the configured hasher that the configured bounds refuse: logins go on with the old hash, a new password answers 13", async () => {
    const errors: unknown[] = [];
    const logger = { warn: () => undefined, error: (fields: Readonly<Record<string, unknown>>, message: string) => errors.push([message, String(fields["err"])]) };
    // bcrypt at cost 6 makes hashes that a maximum cost of 5 refuses on every later check.
    const { ports, eventsOf } = await memory.open({ logger, passwordHasher: bcryptHasher({ cost: 6 }), hashBounds: { bcryptMaxCost: 5 } });
    const userId = await imported(ports, annWithHash(BCRYPT_HASH));

    for (const sequence of [3, 4]) {
      expect((await checkPassword(ports, { userId, password: BCRYPT_PASSWORD }))._unsafeUnwrap()).toEqual({ userId, details: details(sequence) });
    }
    expect((await eventsOf(userId, 2)).map((stored) => stored.type)).toEqual(["user.human.password.check.succeeded", "user.human.password.check.succeeded"]);
    expect((await setPassword(ports, { userId, newPassword: { password: "A-new-Passw0rd!" }, currentPassword: BCRYPT_PASSWORD }))._unsafeUnwrapErr()).toEqual(
      plainError(13, "USER-1nt3", "internal error"),
    );
    expect((await eventsOf(userId, 4)).map((stored) => stored.type)).toEqual([]);
    const refused = "Error: the configured password hasher (bcrypt) made a hash that hashBounds refuses (bcrypt hash: cost is out of range (4..5)): lower its cost or widen hashBounds";
    expect(errors).toEqual([
      ["human-users: password hasher failed", refused],
      ["human-users: password hasher failed", refused],
      ["human-users: password hasher failed", refused],
    ]);
  });
});
