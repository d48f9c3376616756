import type { StoredEvent } from "../../ports/user-log.js";
import type { CodeAdded, UserEventPayloads, UserEventType } from "../events/user-events.js";
import { entryOf } from "./entry-of.js";
import { GENDERS } from "../rules/gender.js";
import type { PendingCode, UserLifecycle, UserState } from "./user-state.js";

type Applier<K extends UserEventType> = (state: UserState, payload: UserEventPayloads[K], event: StoredEvent) => UserState;

function pendingCode(added: CodeAdded, event: StoredEvent): PendingCode {
  const seconds = Number.parseInt(added.expiry, 10);
  const expiresAt = new Date(Date.parse(event.createdAt) + (Number.isFinite(seconds) ? seconds : 0) * 1000).toISOString();
  return { hash: added.code, issuedAt: event.createdAt, expiresAt, failedAttempts: 0, returned: added.codeReturned === true };
}

function failed(code: PendingCode | undefined): PendingCode | undefined {
  return code === undefined ? undefined : { ...code, failedAttempts: code.failedAttempts + 1 };
}

/** Where a user stands when it is not locked: initial until its initialization code is redeemed. */
function unlockedLifecycle(state: UserState): UserLifecycle {
  return state.initCode !== undefined ? "USER_STATE_INITIAL" : "USER_STATE_ACTIVE";
}

/** `state` without the member `name` (optional members are absent, never undefined). */
function without<K extends keyof UserState>(state: UserState, name: K): UserState {
  const { [name]: _dropped, ...rest } = state;
  return rest as UserState;
}

/** How each event changes a user that exists; `user.human.added` starts one (see `foldUser`). */
const appliers: { readonly [K in Exclude<UserEventType, "user.human.added">]: Applier<K> } = {
  // A new address is unverified, and a code sent to the old one no longer verifies it.
  "user.human.email.changed": (state, payload) => ({ ...state, email: { address: payload.email, verified: false } }),
  "user.human.email.code.added": (state, payload, event) => ({ ...state, email: { address: state.email.address, verified: false, code: pendingCode(payload, event) } }),
  "user.human.email.verification.failed": (state) => ({ ...state, email: withCode(state.email, failed(state.email.code)) }),
  "user.human.email.verified": (state) => ({ ...state, email: { address: state.email.address, verified: true } }),
  "user.human.phone.code.added": (state, payload, event) =>
    state.phone === undefined ? state : { ...state, phone: { number: state.phone.number, verified: false, code: pendingCode(payload, event) } },
  "user.human.phone.verification.failed": (state) => (state.phone === undefined ? state : { ...state, phone: withCode(state.phone, failed(state.phone.code)) }),
  "user.human.phone.verified": (state) => (state.phone === undefined ? state : { ...state, phone: { number: state.phone.number, verified: true } }),
  "user.human.initialization.code.added": (state, payload, event) => ({
    ...state,
    initCode: pendingCode(payload, event),
    lifecycle: state.lifecycle === "USER_STATE_LOCKED" ? state.lifecycle : "USER_STATE_INITIAL",
  }),
  "user.human.initialization.check.failed": (state) => {
    const code = failed(state.initCode);
    return code === undefined ? state : { ...state, initCode: code };
  },
  "user.human.initialization.check.succeeded": (state) => {
    const next = without(state, "initCode");
    return { ...next, lifecycle: state.lifecycle === "USER_STATE_LOCKED" ? state.lifecycle : "USER_STATE_ACTIVE" };
  },
  "user.metadata.set": (state, payload) => ({ ...state, metadata: { ...state.metadata, [payload.key]: payload.value } }),
  "user.human.externalidp.added": (state, payload) => ({
    ...state,
    idpLinks: [...state.idpLinks, { idpId: payload.idpConfigId, externalUserId: payload.userId, ...(payload.displayName !== undefined ? { displayName: payload.displayName } : {}) }],
  }),
  "user.human.mfa.otp.added": (state, payload) => ({ ...state, totp: { secret: payload.secret, verified: false } }),
  "user.human.mfa.otp.verified": (state) => (state.totp === undefined ? state : { ...state, totp: { ...state.totp, verified: true } }),
  "user.human.passwordless.initialization.code.added": (state, payload, event) => ({
    ...state,
    passwordlessCodes: { ...state.passwordlessCodes, [payload.id]: pendingCode(payload, event) },
  }),
  "user.human.passwordless.initialization.code.check.failed": (state, payload) => {
    const code = failed(entryOf(state.passwordlessCodes, payload.id));
    return code === undefined ? state : { ...state, passwordlessCodes: { ...state.passwordlessCodes, [payload.id]: code } };
  },
  "user.human.passwordless.initialization.code.check.succeeded": (state, payload) => {
    const { [payload.id]: _redeemed, ...rest } = state.passwordlessCodes;
    return { ...state, passwordlessCodes: rest };
  },
  "user.human.passwordless.token.added": (state, payload, event) => ({
    ...state,
    passkeys: {
      ...state.passkeys,
      [payload.webAuthNTokenId]: {
        id: payload.webAuthNTokenId,
        rpId: payload.rpID,
        challenge: payload.challenge,
        startedAt: event.createdAt,
        ...(payload.codeId !== undefined ? { codeId: payload.codeId } : {}),
      },
    },
  }),
  "user.human.passwordless.token.verified": (state, payload) => {
    const begun = entryOf(state.passkeys, payload.webAuthNTokenId);
    if (begun === undefined) return state;
    const credential = {
      id: payload.keyId,
      publicKey: payload.publicKey,
      signCount: payload.signCount,
      aaguid: payload.aaguid,
      attestationType: payload.attestationType,
      userVerified: payload.userVerified,
      backedUp: payload.backedUp,
    };
    return { ...state, passkeys: { ...state.passkeys, [begun.id]: { ...begun, name: payload.webAuthNTokenName, credential } } };
  },
  "user.human.password.changed": (state, payload, event) => ({
    ...without(state, "passwordResetCode"),
    password: { encodedHash: payload.encodedHash, changeRequired: payload.changeRequired, changedAt: event.createdAt },
    failedPasswordChecks: 0,
  }),
  "user.human.password.hash.updated": (state, payload) =>
    state.password === undefined ? state : { ...state, password: { ...state.password, encodedHash: payload.encodedHash } },
  "user.human.password.check.succeeded": (state) => ({ ...state, failedPasswordChecks: 0 }),
  "user.human.password.check.failed": (state) => ({ ...state, failedPasswordChecks: state.failedPasswordChecks + 1 }),
  "user.human.password.code.added": (state, payload, event) => ({ ...state, passwordResetCode: pendingCode(payload, event) }),
  "user.human.password.code.check.failed": (state) => {
    const code = failed(state.passwordResetCode);
    return code === undefined ? state : { ...state, passwordResetCode: code };
  },
  "user.locked": (state) => ({ ...state, lifecycle: "USER_STATE_LOCKED" }),
  "user.unlocked": (state) => ({ ...state, failedPasswordChecks: 0, lifecycle: unlockedLifecycle(state) }),
};

function withCode<T extends { readonly code?: PendingCode }>(channel: T, code: PendingCode | undefined): T {
  const { code: _old, ...rest } = channel;
  return (code === undefined ? rest : { ...rest, code }) as T;
}

/** A stored text member, or `fallback` when a payload written elsewhere lacks it: the fold never throws. */
function textOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function added(payload: UserEventPayloads["user.human.added"], event: StoredEvent): UserState {
  return {
    userId: event.aggregateId,
    orgId: event.orgId,
    sequence: event.sequence,
    createdAt: event.createdAt,
    changedAt: event.createdAt,
    lifecycle: "USER_STATE_ACTIVE",
    username: textOr(payload.userName, ""),
    profile: {
      givenName: textOr(payload.firstName, ""),
      familyName: textOr(payload.lastName, ""),
      nickName: textOr(payload.nickName, ""),
      displayName: textOr(payload.displayName, ""),
      preferredLanguage: textOr(payload.preferredLanguage, "und"),
      gender: (GENDERS as readonly string[]).includes(payload.gender) ? payload.gender : "GENDER_UNSPECIFIED",
    },
    email: { address: textOr(payload.email, ""), verified: false },
    ...(payload.phone !== undefined ? { phone: { number: payload.phone, verified: false } } : {}),
    ...(payload.encodedHash !== undefined
      ? { password: { encodedHash: payload.encodedHash, changeRequired: payload.changeRequired === true, changedAt: event.createdAt } }
      : {}),
    failedPasswordChecks: 0,
    passwordlessCodes: {},
    passkeys: {},
    idpLinks: [],
    metadata: {},
    ...(typeof payload.importFingerprint === "string" ? { importFingerprint: payload.importFingerprint } : {}),
  };
}

/** The state after one more event. Event types this version does not know are skipped, never thrown. */
export function applyEvent(state: UserState | undefined, event: StoredEvent): UserState | undefined {
  if (event.type === "user.human.added") return added(event.payload as UserEventPayloads["user.human.added"], event);
  if (state === undefined) return undefined;
  const apply = (appliers as Readonly<Record<string, Applier<UserEventType> | undefined>>)[event.type];
  const next = apply === undefined ? state : apply(state, event.payload as never, event);
  return { ...next, sequence: event.sequence, changedAt: event.createdAt };
}

/**
 * A user's state from its events, in sequence order: undefined when the stream is empty or does
 * not start with `user.human.added`. Pure: the same events always give the same state.
 */
export function foldUser(events: readonly StoredEvent[]): UserState | undefined {
  let state: UserState | undefined;
  for (const event of events) state = applyEvent(state, event);
  return state;
}
