// The fold from a user's events to its state: every event type, unknown types skipped, and the
// state after each way a user is created.
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { applyEvent, foldUser } from "../../src/core/users/fold-user.js";
import type { UserState } from "../../src/core/users/user-state.js";
import { createHumanUser, importHumanUser, type StoredEvent } from "../../src/index.js";
import { fakeHash, fakeHasher, importPorts } from "../operations/support/import-fixtures.js";
import { FIRST_ID, member, minimalCreate, NOW, testPorts } from "../operations/support/ports.js";

const T1 = "2026-03-04T05:06:07Z";
const T2 = "2026-03-04T06:06:07Z";
const code = (hash: string) => ({ algorithm: "HMAC-SHA256", keyId: "k1", hash });

function event(sequence: number, type: string, payload: Record<string, unknown> = {}, createdAt = T2): StoredEvent {
  return { type, aggregateId: "u1", orgId: "org", sequence, createdAt, payload: payload as StoredEvent["payload"] };
}

const added = event(1, "user.human.added", {
  userName: "ann",
  firstName: "Ann",
  lastName: "Lee",
  displayName: "Ann Lee",
  preferredLanguage: "en",
  gender: "GENDER_FEMALE",
  email: "ann@acme.test",
  phone: "+41791234567",
  encodedHash: "$2b$04$hash",
  changeRequired: true,
}, T1);

const base: UserState = {
  userId: "u1",
  orgId: "org",
  sequence: 1,
  createdAt: T1,
  changedAt: T1,
  lifecycle: "USER_STATE_ACTIVE",
  username: "ann",
  profile: { givenName: "Ann", familyName: "Lee", nickName: "", displayName: "Ann Lee", preferredLanguage: "en", gender: "GENDER_FEMALE" },
  email: { address: "ann@acme.test", verified: false },
  phone: { number: "+41791234567", verified: false },
  password: { encodedHash: "$2b$04$hash", changeRequired: true, changedAt: T1 },
  failedPasswordChecks: 0,
  passwordlessCodes: {},
  passkeys: {},
  idpLinks: [],
  metadata: {},
};

/** The state after `added` and then `events`, each at T2 with the next sequence. */
function after(...events: Array<[type: string, payload?: Record<string, unknown>]>): UserState | undefined {
  return foldUser([added, ...events.map(([type, payload], index) => event(index + 2, type, payload))]);
}

function pending(hash: string, seconds: number, failedAttempts = 0, returned = false) {
  return { hash: code(hash), issuedAt: T2, expiresAt: new Date(Date.parse(T2) + seconds * 1000).toISOString(), failedAttempts, returned };
}

describe("foldUser: each event type", () => {
  it("starts a user with user.human.added", () => {
    expect(foldUser([added])).toEqual(base);
  });

  it("gives nothing for an empty stream or one that does not start with user.human.added", () => {
    expect(foldUser([])).toBeUndefined();
    expect(foldUser([event(1, "user.human.email.verified")])).toBeUndefined();
  });

  it("skips event types it does not know, counting their sequence", () => {
    expect(after(["user.human.avatar.added", { storeKey: "x" }])).toEqual({ ...base, sequence: 2, changedAt: T2 });
  });

  const moved = { sequence: 2, changedAt: T2 };
  it.each<[string, Record<string, unknown>, Partial<UserState>]>([
    ["user.human.email.code.added", { code: code("e"), expiry: "3600s", codeReturned: true }, { email: { address: "ann@acme.test", verified: false, code: pending("e", 3600, 0, true) } }],
    ["user.human.email.verified", {}, { email: { address: "ann@acme.test", verified: true } }],
    ["user.human.phone.code.added", { code: code("p"), expiry: "600s" }, { phone: { number: "+41791234567", verified: false, code: pending("p", 600) } }],
    ["user.human.phone.verified", {}, { phone: { number: "+41791234567", verified: true } }],
    ["user.human.initialization.code.added", { code: code("i"), expiry: "259200s" }, { initCode: pending("i", 259200), lifecycle: "USER_STATE_INITIAL" }],
    ["user.metadata.set", { key: "k", value: "dg==" }, { metadata: { k: "dg==" } }],
    ["user.human.externalidp.added", { idpConfigId: "idp", userId: "ext", displayName: "Ann" }, { idpLinks: [{ idpId: "idp", externalUserId: "ext", displayName: "Ann" }] }],
    ["user.human.mfa.otp.added", { secret: { algorithm: "AES-256-GCM", keyId: "k1", crypted: "c" } }, { totp: { secret: { algorithm: "AES-256-GCM", keyId: "k1", crypted: "c" }, verified: false } }],
    ["user.human.passwordless.initialization.code.added", { id: "c1", code: code("pl"), expiry: "3600s" }, { passwordlessCodes: { c1: pending("pl", 3600) } }],
    ["user.human.password.changed", { encodedHash: "$new", changeRequired: false }, { password: { encodedHash: "$new", changeRequired: false, changedAt: T2 } }],
    ["user.human.password.hash.updated", { encodedHash: "$upgraded" }, { password: { encodedHash: "$upgraded", changeRequired: true, changedAt: T1 } }],
    ["user.human.password.check.failed", {}, { failedPasswordChecks: 1 }],
    ["user.human.password.check.succeeded", {}, {}],
    ["user.human.password.code.added", { code: code("r"), expiry: "3600s" }, { passwordResetCode: pending("r", 3600) }],
    ["user.locked", {}, { lifecycle: "USER_STATE_LOCKED" }],
    ["user.unlocked", {}, {}],
    ["user.human.email.verification.failed", {}, {}],
    ["user.human.phone.verification.failed", {}, {}],
    ["user.human.initialization.check.failed", {}, {}],
    ["user.human.initialization.check.succeeded", {}, {}],
    ["user.human.mfa.otp.verified", {}, {}],
    // Without the code, passkey or reset code they are about, these change nothing.
    ["user.human.password.code.check.failed", {}, {}],
    ["user.human.passwordless.initialization.code.check.failed", { id: "c1" }, {}],
    ["user.human.passwordless.initialization.code.check.succeeded", { id: "c1" }, {}],
    ["user.human.passwordless.token.verified", { webAuthNTokenId: "pk1", keyId: "k", publicKey: "p", attestationType: "none", aaguid: "a", signCount: 0, webAuthNTokenName: "n", rpID: "r", userVerified: true, backedUp: false }, {}],
    [
      "user.human.passwordless.token.added",
      { webAuthNTokenId: "pk1", challenge: "ch", rpID: "acme.test", codeId: "c1" },
      { passkeys: { pk1: { id: "pk1", rpId: "acme.test", challenge: "ch", startedAt: T2, codeId: "c1" } } },
    ],
  ])("%s", (type, payload, changes) => {
    expect(after([type, payload])).toEqual({ ...base, ...moved, ...changes });
  });
});

describe("foldUser: what events do together", () => {
  it("counts wrong attempts on the pending code, and a new code starts at zero", () => {
    const state = after(
      ["user.human.email.code.added", { code: code("a"), expiry: "3600s" }],
      ["user.human.email.verification.failed"],
      ["user.human.email.verification.failed"],
    );
    expect(state?.email.code?.failedAttempts).toBe(2);
    expect(applyEvent(state, event(5, "user.human.email.code.added", { code: code("b"), expiry: "3600s" }))?.email.code?.failedAttempts).toBe(0);
  });

  it("verifying clears the pending code; the init check makes an initial user active", () => {
    const state = after(
      ["user.human.initialization.code.added", { code: code("i"), expiry: "60s" }],
      ["user.human.initialization.check.failed"],
    );
    expect(state?.initCode?.failedAttempts).toBe(1);
    expect(state?.lifecycle).toBe("USER_STATE_INITIAL");
    const done = applyEvent(state, event(4, "user.human.initialization.check.succeeded"));
    expect(done?.lifecycle).toBe("USER_STATE_ACTIVE");
    expect(done?.initCode).toBeUndefined();
  });

  it("password failures count up, a success or a new password resets them, and unlocking resets them too", () => {
    expect(after(["user.human.password.check.failed"], ["user.human.password.check.failed"])?.failedPasswordChecks).toBe(2);
    expect(after(["user.human.password.check.failed"], ["user.human.password.check.succeeded"])?.failedPasswordChecks).toBe(0);
    expect(after(["user.human.password.check.failed"], ["user.human.password.changed", { encodedHash: "$x", changeRequired: false }])?.failedPasswordChecks).toBe(0);
    const unlocked = after(["user.human.password.check.failed"], ["user.locked"], ["user.unlocked"]);
    expect([unlocked?.lifecycle, unlocked?.failedPasswordChecks]).toEqual(["USER_STATE_ACTIVE", 0]);
  });

  it("a locked user stays locked through an initialization, and is initial again after unlocking if it still has its code", () => {
    const locked = after(["user.human.initialization.code.added", { code: code("i"), expiry: "60s" }], ["user.locked"]);
    expect(locked?.lifecycle).toBe("USER_STATE_LOCKED");
    expect(applyEvent(locked, event(4, "user.unlocked"))?.lifecycle).toBe("USER_STATE_INITIAL");
  });

  it("a new password drops a pending reset code", () => {
    expect(after(["user.human.password.code.added", { code: code("r"), expiry: "3600s" }], ["user.human.password.changed", { encodedHash: "$x", changeRequired: true }])?.passwordResetCode).toBeUndefined();
  });

  it("counts wrong tries on a reset code and on a passwordless code; a redeemed passwordless code is gone", () => {
    const reset = after(["user.human.password.code.added", { code: code("r"), expiry: "3600s" }], ["user.human.password.code.check.failed"], ["user.human.password.code.check.failed"]);
    expect(reset?.passwordResetCode?.failedAttempts).toBe(2);
    const link = after(
      ["user.human.passwordless.initialization.code.added", { id: "c1", code: code("pl"), expiry: "3600s" }],
      ["user.human.passwordless.initialization.code.added", { id: "c2", code: code("p2"), expiry: "3600s" }],
      ["user.human.passwordless.initialization.code.check.failed", { id: "c1" }],
    );
    expect(link?.passwordlessCodes["c1"]?.failedAttempts).toBe(1);
    expect(applyEvent(link, event(5, "user.human.passwordless.initialization.code.check.succeeded", { id: "c1" }))?.passwordlessCodes).toEqual({ c2: pending("p2", 3600) });
  });

  it("a verified passkey keeps its name and credential beside how it was begun", () => {
    const verified = after(
      ["user.human.passwordless.token.added", { webAuthNTokenId: "pk1", challenge: "ch", rpID: "acme.test" }],
      [
        "user.human.passwordless.token.verified",
        { webAuthNTokenId: "pk1", keyId: "cred", publicKey: "pub", attestationType: "none", aaguid: "aa", signCount: 3, webAuthNTokenName: "Laptop", rpID: "acme.test", userVerified: true, backedUp: true },
      ],
    );
    expect(verified?.passkeys).toEqual({
      pk1: {
        id: "pk1",
        rpId: "acme.test",
        challenge: "ch",
        startedAt: T2,
        name: "Laptop",
        credential: { id: "cred", publicKey: "pub", signCount: 3, aaguid: "aa", attestationType: "none", userVerified: true, backedUp: true },
      },
    });
  });

  it("is pure: folding the same events twice gives equal states, and the events are not changed", () => {
    const events = [added, event(2, "user.metadata.set", { key: "k", value: "dg==" })];
    const copy = structuredClone(events);
    expect(foldUser(events)).toEqual(foldUser(events));
    expect(events).toEqual(copy);
  });
});

describe("foldUser: the state after each way of creating a user", () => {
  it("createHumanUser with a returned email code, a returned phone code, metadata, a provider link and TOTP", async () => {
    const ports = testPorts();
    const request = {
      ...minimalCreate(),
      email: { email: "ann@acme.test", returnCode: {} },
      phone: { phone: "+41791234567", returnCode: {} },
      metadata: [{ key: "team", value: "Ymx1ZQ==" }],
      idpLinks: [{ idpId: "idp-acme", userId: "ext-1", userName: "ann" }],
      totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    };
    expect((await createHumanUser(ports, request, { requester: member })).isOk()).toBe(true);
    const state = foldUser(await ports.storage.userLog.loadEvents(FIRST_ID));
    expect(state).toEqual({
      userId: FIRST_ID,
      orgId: "acme",
      sequence: 7,
      createdAt: NOW,
      changedAt: NOW,
      lifecycle: "USER_STATE_ACTIVE",
      username: "ann@acme.test",
      profile: { givenName: "Ann", familyName: "Lee", nickName: "", displayName: "Ann Lee", preferredLanguage: "und", gender: "GENDER_UNSPECIFIED" },
      email: { address: "ann@acme.test", verified: false, code: expect.objectContaining({ expiresAt: "2026-03-04T06:06:07.000Z", failedAttempts: 0, returned: true }) },
      phone: { number: "+41791234567", verified: false, code: expect.objectContaining({ expiresAt: "2026-03-04T06:06:07.000Z", failedAttempts: 0, returned: true }) },
      failedPasswordChecks: 0,
      passwordlessCodes: {},
      passkeys: {},
      idpLinks: [{ idpId: "idp-acme", externalUserId: "ext-1", displayName: "ann" }],
      totp: { secret: expect.objectContaining({ algorithm: "AES-256-GCM", keyId: "test-key" }), verified: true },
      metadata: { team: "Ymx1ZQ==" },
    });
  });

  it("createHumanUser with a verified email and a password", async () => {
    const ports = testPorts({ passwordHasher: fakeHasher });
    const request = { ...minimalCreate(), email: { email: "ann@acme.test", isVerified: true }, password: { password: "Secret-Password-1", changeRequired: true } };
    expect((await createHumanUser(ports, request, { requester: member })).isOk()).toBe(true);
    const state = foldUser(await ports.storage.userLog.loadEvents(FIRST_ID));
    expect([state?.email, state?.password, state?.lifecycle]).toEqual([
      { address: "ann@acme.test", verified: true },
      { encodedHash: fakeHash("Secret-Password-1"), changeRequired: true, changedAt: NOW },
      "USER_STATE_ACTIVE",
    ]);
  });

  it("importHumanUser without a password: initial, with its initialization code, and a passwordless code", async () => {
    const ports = importPorts();
    const request = { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test", isEmailVerified: true }, requestPasswordlessRegistration: true };
    const result = await importHumanUser(ports, request, { requester: member });
    const state = foldUser(await ports.storage.userLog.loadEvents(result._unsafeUnwrap().userId));
    expect(state?.lifecycle).toBe("USER_STATE_INITIAL");
    expect(state?.email).toEqual({ address: "ann@acme.test", verified: true });
    expect(state?.initCode).toEqual(expect.objectContaining({ failedAttempts: 0, returned: false }));
    expect(Object.values(state?.passwordlessCodes ?? {})).toEqual([expect.objectContaining({ failedAttempts: 0 })]);
    expect(state?.password).toBeUndefined();
  });

  it("importHumanUser with a verified email and an imported hash: active, the hash kept as given", async () => {
    const ports = importPorts();
    const hash = bcrypt.hashSync("Old-Password-1", 4);
    const request = { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test", isEmailVerified: true }, hashedPassword: { value: hash }, passwordChangeRequired: true };
    const result = await importHumanUser(ports, request, { requester: member });
    const state = foldUser(await ports.storage.userLog.loadEvents(result._unsafeUnwrap().userId));
    expect([state?.lifecycle, state?.initCode, state?.password?.encodedHash, state?.password?.changeRequired]).toEqual(["USER_STATE_ACTIVE", undefined, hash, true]);
  });
});
