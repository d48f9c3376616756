// The errors the two operations answer with. Ids are stable: hosts and tests may rely on them.
import type { ClaimKind } from "../../ports/storage.js";
import { errorBody, invalidArgument, type ErrorBody, type FieldViolation } from "../../shared/error-body.js";

export const notAnObject = (): ErrorBody => errorBody(3, "USER-b0dy", "the request body must be a JSON object");
export const nestedTooDeeply = (): ErrorBody => errorBody(3, "USER-d33p", "the request body is nested too deeply");
/** `maxListed`: the configured `limits.maxFieldViolations` (default 100). */
export const invalidRequest = (violations: readonly FieldViolation[], maxListed?: number): ErrorBody => invalidArgument("USER-1nv4", violations, maxListed);
export const unauthenticated = (): ErrorBody => errorBody(16, "USER-4uth", "the request is not authenticated");
export const permissionDenied = (): ErrorBody => errorBody(7, "USER-p3rm", "no permission to write users in this organization");
export const organizationNotFound = (): ErrorBody => errorBody(5, "USER-0rg5", "the organization does not exist");
export const identityProviderNotFound = (): ErrorBody =>
  errorBody(9, "USER-1dp9", "an identity provider does not exist on the organization or the instance");
export const internal = (): ErrorBody => errorBody(13, "USER-1nt3", "internal error");
export const unavailable = (): ErrorBody => errorBody(14, "USER-unv4", "storage is unavailable, try again later");

const CLAIM_ERRORS: Readonly<Record<ClaimKind, readonly [id: string, message: string]>> = {
  user_id: ["USER-1d6x", "a user with this userId already exists"],
  username: ["USER-n4m6", "the username is already taken"],
  idp_link: ["USER-l1n6", "this identity provider account is already linked to a user"],
};

/** Code 6 naming the claim that is already held. */
export function alreadyExists(kind: ClaimKind): ErrorBody {
  const [id, message] = CLAIM_ERRORS[kind];
  return errorBody(6, id, message);
}

/** Code 3 on the username field: its domain is a verified domain of another organization. */
export function reservedDomain(field: string): ErrorBody {
  return invalidArgument("USER-d0m3", [{ field, description: "uses a domain verified by another organization" }]);
}
