// The public operations: each is a command of the core, run with delivery and password hashing.
import { createHumanUserCommand } from "../core/commands/create-human-user.js";
import { importHumanUserCommand } from "../core/commands/import-human-user.js";
import { getUserCommand } from "../core/commands/get-user.js";
import { listUsersQuery } from "../core/commands/list-users.js";
import { resendEmailCodeCommand } from "../core/commands/resend-email-code.js";
import { resendInitializationCommand } from "../core/commands/resend-initialization.js";
import { resendPhoneCodeCommand } from "../core/commands/resend-phone-code.js";
import { verifyEmailCommand } from "../core/commands/verify-email.js";
import { verifyInitCodeCommand } from "../core/commands/verify-init-code.js";
import { verifyPhoneCommand } from "../core/commands/verify-phone.js";
import type {
  CreateHumanUserRequest,
  GetUserRequest,
  ImportHumanUserRequest,
  ListUsersRequest,
  ResendEmailCodeRequest,
  ResendInitializationRequest,
  ResendPhoneCodeRequest,
  VerifyCodeRequest,
  VerifyInitCodeRequest,
} from "../core/requests.js";
import type {
  ChangeResponse,
  CreateHumanUserResponse,
  GetUserResponse,
  ImportHumanUserResponse,
  ListUsersResponse,
  ResendCodeResponse,
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

/** Redeems operation B's initialization code, optionally with a first password; no requester needed. */
export const verifyInitCode: UserOperation<VerifyInitCodeRequest, ChangeResponse> = operation(verifyInitCodeCommand);

/** ZITADEL's management `ResendHumanInitialization`: a new init code and mail, optionally to a new address. */
export const resendInitialization: UserOperation<ResendInitializationRequest, ChangeResponse> = operation(resendInitializationCommand);

/**
 * `importHumanUser` for every request of `source` (an iterable or async iterable), answered in
 * input order as `{ index, ok }` or `{ index, error }` with the same bodies `importHumanUser` gives.
 *
 * Reads at most `parallelBatches + 1` batches ahead of the consumer, so memory stays bounded
 * whatever the input's size. Users are checked `concurrency` at a time and written `batchSize` at
 * a time, through the user log's `appendNewUsers` when it has one; of two items claiming one
 * username, the first in input order wins and the other answers 6, in the same batch or not. One
 * bad item never fails its neighbours. Never throws or rejects: ports that fail the
 * configuration check answer 9 at index 0; a port failure answers 13 or 14 for the items it
 * touched; an option or the stop signal that throws when read, and a source that throws or gives
 * something that is not an iterator or an iterator result, end the outcomes with a code-13 answer
 * at the position it failed at. Options that are not an object, and members that are not usable
 * numbers, are the defaults.
 */
export function importHumanUsers(
  ports: Ports,
  source: BulkImportSource,
  context: OperationContext,
  options: BulkImportOptions = {},
): AsyncGenerator<BulkImportOutcome, void, undefined> {
  return runBulkImport(ports, source, context, options, runtime);
}
