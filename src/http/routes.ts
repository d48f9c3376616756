import type { ResultAsync } from "neverthrow";
import type { OperationContext } from "../core/context.js";
import type { ErrorBody } from "../core/errors/index.js";
import type { Ports } from "../ports/index.js";
import { connectDialect, restDialect, type Dialect } from "./dialect.js";
import {
  createHumanUser,
  getUser,
  importHumanUser,
  listUsers,
  resendEmailCode,
  resendInitialization,
  resendPhoneCode,
  verifyEmail,
  verifyInitCode,
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
  /** The request carries its proof (a code): served without a requester too. */
  readonly proof?: boolean;
}

const rest = (method: RouteMethod, path: string, operation: Operation, proof = false): Route => ({ method, path, operation, dialect: restDialect, proof });
const rpc = (path: string, operation: Operation, proof = false): Route => ({ method: "POST", path, operation, dialect: connectDialect, proof });

const USER_SERVICE = "/zitadel.user.v2.UserService";
const MANAGEMENT = "/zitadel.management.v1.ManagementService";

/**
 * Each operation on its REST path (the reference server's gateway routes; `verifyInitCode` on the
 * library's own, as the reference server redeems that code in its login pages) and on its Connect
 * RPC path (`/package.Service/Method`, POST with a JSON body).
 */
export const ROUTES: readonly Route[] = [
  rest("POST", "/v2/users/human", createHumanUser),
  rest("POST", "/management/v1/users/human/_import", importHumanUser),
  rest("GET", "/v2/users/{userId}", getUser),
  rest("POST", "/v2/users", listUsers),
  rest("POST", "/v2/users/{userId}/email/verify", verifyEmail, true),
  rest("POST", "/v2/users/{userId}/email/resend", resendEmailCode),
  rest("POST", "/v2/users/{userId}/phone/verify", verifyPhone, true),
  rest("POST", "/v2/users/{userId}/phone/resend", resendPhoneCode),
  rest("POST", "/management/v1/users/{userId}/_resend_initialization", resendInitialization),
  rest("POST", "/human-users/v1/users/{userId}/initialization/verify", verifyInitCode, true),
  rpc(`${USER_SERVICE}/AddHumanUser`, createHumanUser),
  rpc(`${USER_SERVICE}/GetUserByID`, getUser),
  rpc(`${USER_SERVICE}/ListUsers`, listUsers),
  rpc(`${USER_SERVICE}/VerifyEmail`, verifyEmail, true),
  rpc(`${USER_SERVICE}/ResendEmailCode`, resendEmailCode),
  rpc(`${USER_SERVICE}/VerifyPhone`, verifyPhone, true),
  rpc(`${USER_SERVICE}/ResendPhoneCode`, resendPhoneCode),
  rpc(`${MANAGEMENT}/ImportHumanUser`, importHumanUser),
  rpc(`${MANAGEMENT}/ResendHumanInitialization`, resendInitialization),
];

const CONNECT_PATH = /^\/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\/[A-Za-z_]\w*$/;

/** The style an unknown path is answered in: Connect for anything shaped like `/pkg.Service/Method`. */
export function dialectForUnknownPath(path: string): Dialect {
  return CONNECT_PATH.test(path) ? connectDialect : restDialect;
}
