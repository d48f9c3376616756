// The public operations: each is a command of the core, run with delivery and password hashing.
import { createHumanUserCommand } from "../core/commands/create-human-user.js";
import { importHumanUserCommand } from "../core/commands/import-human-user.js";
import { checkPasswordCommand } from "../core/commands/check-password.js";
import { createPasskeyRegistrationLinkCommand } from "../core/commands/create-passkey-registration-link.js";
import { passwordResetCommand } from "../core/commands/password-reset.js";
import { registerPasskeyCommand } from "../core/commands/register-passkey.js";
import { setPasswordCommand } from "../core/commands/set-password.js";
import { unlockUserCommand } from "../core/commands/unlock-user.js";
import { verifyPasskeyRegistrationCommand } from "../core/commands/verify-passkey-registration.js";
import { getUserCommand } from "../core/commands/get-user.js";
import { listUsersQuery } from "../core/commands/list-users.js";
import { resendEmailCodeCommand } from "../core/commands/resend-email-code.js";
import { resendInitializationCommand } from "../core/commands/resend-initialization.js";
import { resendPhoneCodeCommand } from "../core/commands/resend-phone-code.js";
import { verifyEmailCommand } from "../core/commands/verify-email.js";
import { verifyInitCodeCommand } from "../core/commands/verify-init-code.js";
import { verifyPhoneCommand } from "../core/commands/verify-phone.js";
import type {
  CheckPasswordRequest,
  CreateHumanUserRequest,
  CreatePasskeyRegistrationLinkRequest,
  GetUserRequest,
  ImportHumanUserRequest,
  ListUsersRequest,
  PasswordResetRequest,
  RegisterPasskeyRequest,
  ResendEmailCodeRequest,
  ResendInitializationRequest,
  ResendPhoneCodeRequest,
  SetPasswordRequest,
  UnlockUserRequest,
  VerifyCodeRequest,
  VerifyInitCodeRequest,
  VerifyPasskeyRegistrationRequest,
} from "../core/requests.js";
import type {
  ChangeResponse,
  CheckPasswordResponse,
  CreateHumanUserResponse,
  CreatePasskeyRegistrationLinkResponse,
  GetUserResponse,
  ImportHumanUserResponse,
  ListUsersResponse,
  PasswordResetResponse,
  RegisterPasskeyResponse,
  ResendCodeResponse,
  SetPasswordResponse,
  UnlockUserResponse,
  VerifyPasskeyRegistrationResponse,
} from "../core/responses.js";
import { runBulkImport, type BulkImportOptions, type BulkImportOutcome, type BulkImportSource } from "../core/bulk/import-human-users.js";
import type { OperationContext } from "../core/context.js";
import type { Ports } from "../ports/index.js";
import { operation, queryOperation, type UserOperation } from "./operation.js";
import { runtime } from "./runtime.js";

export type { UserOperation } from "./operation.js";

/**
 * ZITADEL's `AddHumanUser` (`POST /v2/users/human`): validates the request, checks the rules,
 * appends the user's events atomically and sends the verification messages.
 */
export const createHumanUser: UserOperation<CreateHumanUserRequest, CreateHumanUserResponse> = operation(createHumanUserCommand);

/**
 * ZITADEL's `ImportHumanUser` (`POST /management/v1/users/human/_import`): the same rules and
 * write as `createHumanUser`, with the import request's shape, the organization header
 * (`context.orgId`), initialization mails and the passwordless registration link.
 */
export const importHumanUser: UserOperation<ImportHumanUserRequest, ImportHumanUserResponse> = operation(importHumanUserCommand);

/** ZITADEL's v2 `GetUserByID` (`GET /v2/users/{userId}`): one user, with `user.read` on its organization. */
export const getUser: UserOperation<GetUserRequest, GetUserResponse> = operation(getUserCommand);

/** ZITADEL's v2 `ListUsers` (`POST /v2/users`): a page of the users the requester may read. */
export const listUsers: UserOperation<ListUsersRequest, ListUsersResponse> = queryOperation(listUsersQuery);

/** ZITADEL's v2 `VerifyEmail`: redeems the email code; the code is the proof, no requester needed. */
export const verifyEmail: UserOperation<VerifyCodeRequest, ChangeResponse> = operation(verifyEmailCommand);

/** ZITADEL's v2 `ResendEmailCode`: a new email code, sent or returned; needs `user.write`. */
export const resendEmailCode: UserOperation<ResendEmailCodeRequest, ResendCodeResponse> = operation(resendEmailCodeCommand);

/** ZITADEL's v2 `VerifyPhone`: redeems the SMS code; the code is the proof, no requester needed. */
export const verifyPhone: UserOperation<VerifyCodeRequest, ChangeResponse> = operation(verifyPhoneCommand);

/** ZITADEL's v2 `ResendPhoneCode`: a new SMS code, sent or returned; needs `user.write`. */
export const resendPhoneCode: UserOperation<ResendPhoneCodeRequest, ResendCodeResponse> = operation(resendPhoneCodeCommand);

/** Redeems `importHumanUser`'s initialization code, optionally with a first password; no requester needed. */
export const verifyInitCode: UserOperation<VerifyInitCodeRequest, ChangeResponse> = operation(verifyInitCodeCommand);

/** ZITADEL's management `ResendHumanInitialization`: a new init code and mail, optionally to a new address. */
export const resendInitialization: UserOperation<ResendInitializationRequest, ChangeResponse> = operation(resendInitializationCommand);

/**
 * Checks a user's password (by `userId` or `loginName`), as ZITADEL does in a
 * session: 3 for a wrong password or an unknown user alike, 9 for a locked user. Records the check,
 * locks the user at the organization's `policy.lockout.maxPasswordAttempts`, and on a good check
 * upgrades a hash that is not of the configured hasher. Needs no requester: the password is the proof.
 */
export const checkPassword: UserOperation<CheckPasswordRequest, CheckPasswordResponse> = operation(checkPasswordCommand);

/**
 * ZITADEL's `SetPassword` (`POST /v2/users/{userId}/password`): a new password within the
 * organization's policy, proven by `currentPassword` or a reset `verificationCode` (no requester
 * needed), or set by a requester with `user.write`. `newPassword.changeRequired` asks for another
 * change at the next login; without it the requirement is cleared.
 */
export const setPassword: UserOperation<SetPasswordRequest, SetPasswordResponse> = operation(setPasswordCommand);

/**
 * ZITADEL's `PasswordReset` (`POST /v2/users/{userId}/password_reset`): a reset code mailed to the
 * user's own address or, with `returnCode`, returned. Either needs a requester with `user.write`
 * (a "forgot password" page calls as the login application); 9 for a user still waiting for its
 * initialization. `setPassword` redeems the code as `verificationCode`, without a requester.
 */
export const passwordReset: UserOperation<PasswordResetRequest, PasswordResetResponse> = operation(passwordResetCommand);

/** ZITADEL's `UnlockUser` (`POST /v2/users/{userId}/unlock`): a locked user may log in again; 9 when it is not locked. */
export const unlockUser: UserOperation<UnlockUserRequest, UnlockUserResponse> = operation(unlockUserCommand);

/**
 * ZITADEL's `CreatePasskeyRegistrationLink` (`POST /v2/users/{userId}/passkeys/registration_link`):
 * a new passwordless registration code, mailed as a link (default, `sendLink.urlTemplate` with
 * `{{.CodeID}}` too) or returned (`returnCode`). Needs `user.write`.
 */
export const createPasskeyRegistrationLink: UserOperation<CreatePasskeyRegistrationLinkRequest, CreatePasskeyRegistrationLinkResponse> =
  operation(createPasskeyRegistrationLinkCommand);

/**
 * ZITADEL's `RegisterPasskey` (`POST /v2/users/{userId}/passkeys`): begins a passkey registration
 * for the relying party of `config.passkeys` and answers `passkeyId` and the options for
 * `navigator.credentials.create`. With the `code` of a registration link no requester is needed;
 * without one, `user.write`.
 */
export const registerPasskey: UserOperation<RegisterPasskeyRequest, RegisterPasskeyResponse> = operation(registerPasskeyCommand);

/**
 * ZITADEL's `VerifyPasskeyRegistration` (`POST /v2/users/{userId}/passkeys/{passkeyId}`): checks
 * the browser's attestation (challenge, relying party, origin, signature) and stores the
 * credential; 3 for one that does not check, was used already, or came too late.
 */
export const verifyPasskeyRegistration: UserOperation<VerifyPasskeyRegistrationRequest, VerifyPasskeyRegistrationResponse> =
  operation(verifyPasskeyRegistrationCommand);

/**
 * `importHumanUser` for every request of `source` (an iterable or async iterable), answered in
 * input order (see `BulkImportOutcome`): imported (`ok`), already there (`alreadyThere`), would be
 * imported (`wouldImport`, in a dry run) or refused (`error`, with `conflict` when another user
 * holds its username or identity-provider account, or `sameUserAs` when it is the same user as an
 * earlier item whose write failed), with the bodies `importHumanUser` gives.
 *
 * Reads at most `parallelBatches + 1` batches ahead of the consumer; besides those, it keeps about
 * 370 bytes per row it imports, to compare later rows with it, and each failed write's error, to
 * fail a later row of the same user with it. Users are checked `concurrency` at
 * a time, judged in input order against the source's earlier rows and the stored users (a row is
 * already there only when the holder of its username or account was imported with the same
 * fingerprint, see `importFingerprint`; otherwise it is a conflict, code 6), and written
 * `batchSize` at a time, through the user log's `appendNewUsers` when it has one. One bad item
 * never fails its neighbours. Never throws or rejects: ports that fail the configuration check
 * answer 9 at index 0; a port failure answers 13 or 14 for the items it touched; an option or the
 * stop signal that throws when read, and a source that throws or gives something that is not an
 * iterator or an iterator result, end the outcomes with a code-13 answer at the position it
 * failed at. Options that are not an object, and members that are not usable numbers, are the defaults.
 */
export function importHumanUsers(
  ports: Ports,
  source: BulkImportSource,
  context: OperationContext,
  options: BulkImportOptions = {},
): AsyncGenerator<BulkImportOutcome, void, undefined> {
  return runBulkImport(ports, source, context, options, runtime);
}
