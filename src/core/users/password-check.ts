// Checking a password a caller gives against the one a user has: once per call however often the
// runner decides again, as long as it lasts whatever the user, and counted towards the lockout.
import { err, ok, type Result } from "neverthrow";
import type { Organization } from "../../ports/directory.js";
import type { PasswordCheck, PasswordHashing } from "../../ports/password-hashing.js";
import { encodeBase64 } from "../../shared/base64.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { callPort, portFailure } from "../commands/port-call.js";
import { wrongPassword } from "../errors/user-errors.js";
import type { UserEventDraft } from "../events/user-events.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import type { UserState } from "./user-state.js";

/** The longest password checked, in UTF-8 bytes: the password functions refuse longer ones unread. */
export const MAX_PASSWORD_BYTES = 1024;

type Verification = Promise<Result<PasswordCheck, ErrorBody>>;

// One verification per call and stored hash: a lost race decides again on the same request object
// and, unless the password changed meanwhile, the same hash.
const verifications = new WeakMap<object, Map<string, Verification>>();

/**
 * `password` checked against the user's stored hash `encoded`, remembered for `call` (the parsed
 * request). A stored hash the configured bounds refuse is the host's problem, not the caller's: it
 * is logged and answered 13.
 */
export function verifyStoredPassword(ports: ResolvedPorts, call: object, encoded: string, password: string): Verification {
  let byHash = verifications.get(call);
  if (byHash === undefined) verifications.set(call, (byHash = new Map()));
  let verification = byHash.get(encoded);
  if (verification === undefined) {
    verification = verifyOnce(ports, encoded, password);
    byHash.set(encoded, verification);
  }
  return verification;
}

async function verifyOnce(ports: ResolvedPorts, encoded: string, password: string): Verification {
  const refusal = ports.passwords.refusalOf(encoded);
  if (refusal !== undefined) return err(portFailure(new Error(`stored password hash refused: ${refusal}`), "password check", ports.logger));
  const checked = await callPort("password verification", ports.logger, () => ports.passwords.verify(encoded, password));
  return checked.andThen((result) => result);
}

// One hash of the configured hasher per hashing setup, made on first need: what an unknown user's
// password is checked against. A failed one is not kept: kept, it made every later check of an
// unknown user answer at once, with no work, so the time told who exists.
const dummyHashes = new WeakMap<PasswordHashing, Promise<Result<string, ErrorBody>>>();

function dummyHash(ports: ResolvedPorts): Promise<Result<string, ErrorBody>> {
  let hash = dummyHashes.get(ports.passwords);
  if (hash === undefined) {
    const secret = encodeBase64(ports.random.fill(new Uint8Array(24)));
    const made = callPort("password hasher", ports.logger, () => ports.passwords.hash(secret));
    dummyHashes.set(ports.passwords, made);
    void made.then((result) => {
      if (result.isErr() && dummyHashes.get(ports.passwords) === made) dummyHashes.delete(ports.passwords);
    });
    hash = made;
  }
  return hash;
}

/**
 * A verification that cannot succeed, as long as one against a hash of the configured hasher:
 * what a check for a user that does not exist (or has no password) costs, so that the time of the
 * answer does not tell it apart. Answers what a wrong password answers, for a password no hash
 * could match (too long for `hashBounds.maxPasswordBytes`, not text) too; or, when the
 * verification fails, the port failure (13) a real check would answer. When the hash cannot be
 * made (logged), a wrong password: a real check makes no hash, so a 13 would tell who exists.
 */
export async function dummyVerification(ports: ResolvedPorts, password: string): Promise<ErrorBody> {
  const hash = await dummyHash(ports);
  if (hash.isErr()) return wrongPassword();
  const checked = await callPort("password verification", ports.logger, () => ports.passwords.verify(hash.value, password));
  if (checked.isErr()) return checked.error;
  if (checked.value.isOk()) return wrongPassword();
  // Refused unread (3): no password of any user is such a one, so it is a wrong one.
  return checked.value.error.code === 3 ? wrongPassword() : checked.value.error;
}

/** A password checked as a login checks it: right (and whether its hash is outdated), or wrong with the answer to give. */
export type LoginCheck = { readonly valid: true; readonly needsRehash: boolean } | { readonly valid: false; readonly answer: ErrorBody };

/**
 * `password` checked against the user's stored hash `encoded` as every proof by password is
 * (checkPassword, setPassword's current password): one too long for this hash's cost cannot match
 * it and is wrong, answered as an unknown user's is after the same work; and a wrong one against
 * a hash cheaper than the configured hasher's (imported, not upgraded yet) is paid up to an
 * unknown user's cost. Neither answer nor time tells which users have such a hash. Errs only for
 * a port failure (13).
 */
export async function checkAsLogin(ports: ResolvedPorts, call: object, encoded: string, password: string): Promise<Result<LoginCheck, ErrorBody>> {
  const checked = await verifyStoredPassword(ports, call, encoded, password);
  if (checked.isErr()) {
    if (checked.error.code !== 3) return err(checked.error);
    const answer = await dummyVerification(ports, password);
    return answer.code === 3 ? ok({ valid: false, answer }) : err(answer);
  }
  if (!checked.value.valid) {
    if (checked.value.needsRehash) {
      const padded = await dummyVerification(ports, password);
      if (padded.code !== 3) return err(padded);
    }
    return ok({ valid: false, answer: wrongPassword() });
  }
  return ok({ valid: true, needsRehash: checked.value.needsRehash });
}

/** Wrong passwords in a row after which the organization locks a user; 0: never. */
export function lockoutLimit(organization: Organization): number {
  const limit = organization.policy?.lockout?.maxPasswordAttempts;
  return limit !== undefined && Number.isSafeInteger(limit) && limit > 0 ? limit : 0;
}

/** A failed check, and the lock when it is the one that reaches the organization's limit. */
export function failedCheckEvents(user: UserState, organization: Organization): UserEventDraft[] {
  const limit = lockoutLimit(organization);
  const events: UserEventDraft[] = [{ type: "user.human.password.check.failed", payload: {} }];
  if (limit > 0 && user.failedPasswordChecks + 1 >= limit) events.push({ type: "user.locked", payload: {} });
  return events;
}

// A new password is hashed once per call, not once per try.
const newHashes = new WeakMap<object, Promise<Result<string, ErrorBody>>>();

/** `password` hashed with the configured hasher, once for `call` (the parsed request). */
export function hashOnce(ports: ResolvedPorts, call: object, password: string): Promise<Result<string, ErrorBody>> {
  let hashed = newHashes.get(call);
  if (hashed === undefined) {
    hashed = callPort("password hasher", ports.logger, () => ports.passwords.hash(password));
    newHashes.set(call, hashed);
  }
  return hashed;
}
