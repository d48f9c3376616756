import type { ResultAsync } from "neverthrow";
import type { OperationContext } from "../core/context.js";
import type { ErrorBody } from "../core/errors/index.js";
import type { Ports } from "../ports/index.js";
import { connectDialect, restDialect, type Dialect } from "./dialect.js";
import {
  checkPassword,
  createHumanUser,
  createPasskeyRegistrationLink,
  getUser,
  importHumanUser,
  listUsers,
  passwordReset,
  registerPasskey,
  resendEmailCode,
  resendInitialization,
  resendPhoneCode,
  setPassword,
  unlockUser,
  verifyEmail,
  verifyInitCode,
  verifyPasskeyRegistration,
  verifyPhone,
} from "../operations/index.js";

/** An operation as the handler calls it; the `Ok` value is the response body. */
export type Operation = (ports: Ports, request: unknown, context: OperationContext) => ResultAsync<unknown, ErrorBody>;

export type RouteMethod = "GET" | "POST";

export interface Route {
  readonly method: RouteMethod;
  /** Literal segments and `{name}` segments, whose values are merged into the request. */
  readonly path: string;
  readonly operation: Operation;
  readonly dialect: Dialect;
  /**
   * The request carries (or may carry) its proof, a code or a password: served without a requester
   * too, and the operation answers 16 itself when the request has no proof and needs a requester.
   */
  readonly proof?: boolean;
  /** The HTTP status of a success: 200, or what ZITADEL's gateway answers instead (201 for a new user). */
  readonly successStatus: number;
}

const rest = (method: RouteMethod, path: string, operation: Operation, proof = false, successStatus = 200): Route => ({ method, path, operation, dialect: restDialect, proof, successStatus });
// Connect answers every success with 200.
const rpc = (path: string, operation: Operation, proof = false): Route => ({ method: "POST", path, operation, dialect: connectDialect, proof, successStatus: 200 });

const USER_SERVICE = "/zitadel.user.v2.UserService";
const MANAGEMENT = "/zitadel.management.v1.ManagementService";

/**
 * Each operation on its REST path (ZITADEL's gateway routes; `verifyInitCode` and
 * `checkPassword` on the library's own under `/human-users/v1`, as ZITADEL does those
 * in its login pages and its session service) and on its Connect RPC path
 * (`/package.Service/Method`, POST with a JSON body).
 */
export const ROUTES: readonly Route[] = [
  // ZITADEL's AddHumanUser declares `http_response { success_code: 201 }` (user_service.proto).
  rest("POST", "/v2/users/human", createHumanUser, false, 201),
  rest("POST", "/management/v1/users/human/_import", importHumanUser),
  rest("GET", "/v2/users/{userId}", getUser),
  rest("POST", "/v2/users", listUsers),
  rest("POST", "/v2/users/{userId}/email/verify", verifyEmail, true),
  rest("POST", "/v2/users/{userId}/email/resend", resendEmailCode),
  rest("POST", "/v2/users/{userId}/phone/verify", verifyPhone, true),
  rest("POST", "/v2/users/{userId}/phone/resend", resendPhoneCode),
  rest("POST", "/management/v1/users/{userId}/_resend_initialization", resendInitialization),
  rest("POST", "/human-users/v1/users/{userId}/initialization/verify", verifyInitCode, true),
  // The user by id or by login name in the body, so no id in the path.
  rest("POST", "/human-users/v1/users/_check_password", checkPassword, true),
  rest("POST", "/v2/users/{userId}/password", setPassword, true),
  rest("POST", "/v2/users/{userId}/password_reset", passwordReset),
  rest("POST", "/v2/users/{userId}/unlock", unlockUser),
  rest("POST", "/v2/users/{userId}/passkeys", registerPasskey, true),
  rest("POST", "/v2/users/{userId}/passkeys/registration_link", createPasskeyRegistrationLink),
  rest("POST", "/v2/users/{userId}/passkeys/{passkeyId}", verifyPasskeyRegistration, true),
  rpc(`${USER_SERVICE}/AddHumanUser`, createHumanUser),
  rpc(`${USER_SERVICE}/GetUserByID`, getUser),
  rpc(`${USER_SERVICE}/ListUsers`, listUsers),
  rpc(`${USER_SERVICE}/VerifyEmail`, verifyEmail, true),
  rpc(`${USER_SERVICE}/ResendEmailCode`, resendEmailCode),
  rpc(`${USER_SERVICE}/VerifyPhone`, verifyPhone, true),
  rpc(`${USER_SERVICE}/ResendPhoneCode`, resendPhoneCode),
  rpc(`${USER_SERVICE}/SetPassword`, setPassword, true),
  rpc(`${USER_SERVICE}/PasswordReset`, passwordReset),
  rpc(`${USER_SERVICE}/UnlockUser`, unlockUser),
  rpc(`${USER_SERVICE}/RegisterPasskey`, registerPasskey, true),
  rpc(`${USER_SERVICE}/VerifyPasskeyRegistration`, verifyPasskeyRegistration, true),
  rpc(`${USER_SERVICE}/CreatePasskeyRegistrationLink`, createPasskeyRegistrationLink),
  rpc(`${MANAGEMENT}/ImportHumanUser`, importHumanUser),
  rpc(`${MANAGEMENT}/ResendHumanInitialization`, resendInitialization),
];

const CONNECT_PATH = /^\/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\/[A-Za-z_]\w*$/;

/** The style an unknown path is answered in: Connect for anything shaped like `/pkg.Service/Method`. */
export function dialectForUnknownPath(path: string): Dialect {
  return CONNECT_PATH.test(path) ? connectDialect : restDialect;
}
