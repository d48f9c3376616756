// The errors the operations answer with. Ids are stable: hosts and tests may rely on them, by
// name through `errorIds` rather than by their text.
import type { ClaimKind } from "../../ports/user-log.js";
import { errorBody, invalidArgument, type ErrorBody, type FieldViolation } from "../../shared/error-body.js";

/** Every error id the operations answer with, by what it means. */
export const errorIds = {
  notAnObject: "USER-b0dy",
  invalidRequest: "USER-1nv4",
  unauthenticated: "USER-4uth",
  permissionDenied: "USER-p3rm",
  notTheUser: "USER-s3lf",
  organizationNotFound: "USER-0rg5",
  userNotFound: "USER-u5r5",
  identityProviderNotFound: "USER-1dp9",
  internal: "USER-1nt3",
  unavailable: "USER-unv4",
  aborted: "USER-4brt",
  userIdTaken: "USER-1d6x",
  usernameTaken: "USER-n4m6",
  accountTaken: "USER-l1n6",
  reservedDomain: "USER-d0m3",
  codeWrong: "USER-c0d3",
  codeExpired: "USER-c0dx",
  resetCodeExpired: "USER-rc0x",
  codeExhausted: "USER-c0d5",
  noCodePending: "USER-n0cd",
  emailAlreadyVerified: "USER-3m4v",
  phoneAlreadyVerified: "USER-ph4v",
  noPhone: "USER-n0ph",
  alreadyInitialized: "USER-1n1t",
  notInitialized: "USER-un1t",
  passwordNotChanged: "USER-s4me",
  invalidConfiguration: "USER-c0nf",
  wrongPassword: "USER-p4ss",
  userLocked: "USER-l0ck",
  userNotLocked: "USER-nl0k",
  passkeysNotConfigured: "USER-pk0c",
  passkeyNotPending: "USER-pk0n",
  passkeyExpired: "USER-pkex",
  passkeyAttestation: "USER-pkat",
  passkeyTaken: "USER-pk6x",
} as const;

/** One of the operations' error ids (`USER-n4m6`, ...); the password functions' ids are `PasswordErrorId`. */
export type ErrorId = (typeof errorIds)[keyof typeof errorIds];

export const notAnObject = (): ErrorBody => errorBody(3, errorIds.notAnObject, "the request body must be a JSON object");
/** `maxListed`: the configured `limits.maxFieldViolations` (default 100). */
export const invalidRequest = (violations: readonly FieldViolation[], maxListed?: number): ErrorBody =>
  invalidArgument(errorIds.invalidRequest, violations, maxListed);
export const unauthenticated = (): ErrorBody => errorBody(16, errorIds.unauthenticated, "the request is not authenticated");
export const permissionDenied = (): ErrorBody => errorBody(7, errorIds.permissionDenied, "no permission to write users in this organization");
export const notTheUser = (): ErrorBody =>
  errorBody(7, errorIds.notTheUser, "only the user itself may do this without a code; an administrator sends a link instead");
export const organizationNotFound = (): ErrorBody => errorBody(5, errorIds.organizationNotFound, "the organization does not exist");
/** Also the answer for a user the requester may not see: nobody learns which users exist. */
export const userNotFound = (): ErrorBody => errorBody(5, errorIds.userNotFound, "the user does not exist");
export const identityProviderNotFound = (): ErrorBody =>
  errorBody(9, errorIds.identityProviderNotFound, "an identity provider does not exist on the organization or the instance");
export const internal = (): ErrorBody => errorBody(13, errorIds.internal, "internal error");
export const unavailable = (): ErrorBody => errorBody(14, errorIds.unavailable, "storage is unavailable, try again later");
export const aborted = (): ErrorBody =>
  errorBody(10, errorIds.aborted, "the user was changed by another request at the same time, more often than the retries allow; try again");

/** Code 9: the host's ports, configuration or `context.origin` cannot work; the message names each setting (never a secret). */
export const invalidConfiguration = (problems: readonly string[]): ErrorBody =>
  errorBody(9, errorIds.invalidConfiguration, `invalid configuration: ${problems.join("; ")}`);

const CLAIM_ERRORS: Readonly<Record<ClaimKind, readonly [id: ErrorId, message: string]>> = {
  user_id: [errorIds.userIdTaken, "a user with this userId already exists"],
  username: [errorIds.usernameTaken, "the username is already taken"],
  idp_link: [errorIds.accountTaken, "this identity provider account is already linked to a user"],
  passkey: [errorIds.passkeyTaken, "this passkey is already registered to a user"],
};

/** Code 6 naming the claim that is already held. */
export function alreadyExists(kind: ClaimKind): ErrorBody {
  const [id, message] = CLAIM_ERRORS[kind];
  return errorBody(6, id, message);
}

/** Code 3 on the username field: its domain is a verified domain of another organization. */
export function reservedDomain(field: string): ErrorBody {
  return invalidArgument(errorIds.reservedDomain, [{ field, description: "uses a domain verified by another organization" }]);
}

/** Which code a check or a resend is about. */
export type CodeChannel = "email" | "phone" | "init" | "passwordReset" | "passwordless";

const CODE_NAMES: Readonly<Record<CodeChannel, string>> = {
  email: "email verification code",
  phone: "phone verification code",
  init: "initialization code",
  passwordReset: "password reset code",
  passwordless: "passkey registration code",
};

/** Code 3: the code is not the one sent. The failed attempt is recorded. */
export const codeWrong = (channel: CodeChannel): ErrorBody => errorBody(3, errorIds.codeWrong, `the ${CODE_NAMES[channel]} is not valid`);
/** Code 3: the code was right or wrong, but its time is over; nothing is recorded. */
export const codeExpired = (channel: CodeChannel): ErrorBody =>
  errorBody(3, errorIds.codeExpired, `the ${CODE_NAMES[channel]} has expired; request a new one`);
/**
 * Code 9: `setPassword`'s reset code is over its time. ZITADEL's SetPassword passes its code
 * check's precondition failure on, where its verify operations answer every failure as 3.
 */
export const resetCodeExpired = (): ErrorBody => errorBody(9, errorIds.resetCodeExpired, `the ${CODE_NAMES.passwordReset} has expired; request a new one`);
/** Code 9: too many wrong attempts killed the code. */
export const codeExhausted = (channel: CodeChannel): ErrorBody =>
  errorBody(9, errorIds.codeExhausted, `the ${CODE_NAMES[channel]} was entered wrong too often; request a new one`);
export const noCodePending = (channel: CodeChannel): ErrorBody => errorBody(9, errorIds.noCodePending, `no ${CODE_NAMES[channel]} is pending`);
export const emailAlreadyVerified = (): ErrorBody => errorBody(9, errorIds.emailAlreadyVerified, "the email address is already verified");
export const phoneAlreadyVerified = (): ErrorBody => errorBody(9, errorIds.phoneAlreadyVerified, "the phone number is already verified");
export const noPhone = (): ErrorBody => errorBody(9, errorIds.noPhone, "the user has no phone number");
export const alreadyInitialized = (): ErrorBody => errorBody(9, errorIds.alreadyInitialized, "the user is already initialized");
/** Code 9, as ZITADEL's `Errors.User.Password.NotChanged`: a change proven by the current password must change it. */
export const passwordNotChanged = (): ErrorBody => errorBody(9, errorIds.passwordNotChanged, "the new password is the current one");
export const notInitialized = (): ErrorBody =>
  errorBody(9, errorIds.notInitialized, "the user is not initialized yet: it must first use its initialization code (resendInitialization sends a new one)");

/**
 * A password check that failed, for any reason a caller could tell apart otherwise: an unknown
 * login name, a user without a password and a wrong password all answer exactly this.
 */
export const wrongPassword = (): ErrorBody => errorBody(3, errorIds.wrongPassword, "the user or password is not correct");
export const userLocked = (): ErrorBody => errorBody(9, errorIds.userLocked, "the user is locked; an administrator must unlock it");
export const userNotLocked = (): ErrorBody => errorBody(9, errorIds.userNotLocked, "the user is not locked");
export const passkeysNotConfigured = (): ErrorBody =>
  errorBody(9, errorIds.passkeysNotConfigured, "passkeys are not configured (config.passkeys names no relying party)");
export const passkeyNotPending = (): ErrorBody =>
  errorBody(3, errorIds.passkeyNotPending, "no passkey registration with this id is waiting for verification");
export const passkeyExpired = (): ErrorBody => errorBody(3, errorIds.passkeyExpired, "the passkey registration has expired; register again");
export const passkeyAttestation = (): ErrorBody =>
  errorBody(3, errorIds.passkeyAttestation, "the passkey attestation could not be verified");
