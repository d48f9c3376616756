import { ResultAsync } from "neverthrow";
import type { Ports } from "../../ports/index.js";
import type { OperationContext } from "../context.js";
import type { ErrorBody } from "../../shared/error-body.js";
import type { ImportHumanUserRequest } from "../requests.js";
import type { ImportHumanUserResponse } from "../responses.js";
import { importRequestShape, parseImportRequest } from "../schemas/import-human-user.js";
import { durationSeconds } from "../wire/timestamp.js";
import { pruneEmpty } from "../wire/prune.js";
import { runUserCreation, type OperationSpec } from "./run-user-creation.js";

/** Operation B in the shared pipeline; bulk import reuses it. */
export const importSpec: OperationSpec<ImportHumanUserResponse> = {
  operation: "import",
  shape: importRequestShape,
  // An empty header names no organization, as an absent one.
  target: (_request, context, requester) => ({ orgId: context.orgId || requester.orgId }),
  parse: parseImportRequest,
  usernameField: (request) => (request["userName"] != null ? "userName" : "email.email"),
  respond(planned, facts) {
    const passwordless = planned.passwordlessLink;
    const lifetime = passwordless === undefined ? undefined : durationSeconds(passwordless.lifetimeSeconds);
    return pruneEmpty<ImportHumanUserResponse>({
      userId: facts.userId,
      details: { sequence: facts.sequence, creationDate: facts.date, changeDate: facts.date, resourceOwner: facts.resourceOwner },
      passwordlessRegistration:
        passwordless === undefined || lifetime === undefined ? undefined : { link: passwordless.link, lifetime, expiration: lifetime },
    });
  },
};

/**
 * Operation B, ZITADEL's `ImportHumanUser` (`POST /management/v1/users/human/_import`): the same
 * rules and write as operation A, with the import request's shape, the organization header
 * (`context.orgId`), initialization mails and the passwordless registration link. Never throws or
 * rejects.
 */
export function importHumanUser(
  ports: Ports,
  request: ImportHumanUserRequest,
  context?: OperationContext,
): ResultAsync<ImportHumanUserResponse, ErrorBody>;
export function importHumanUser(ports: Ports, request: unknown, context?: OperationContext): ResultAsync<ImportHumanUserResponse, ErrorBody>;
export function importHumanUser(ports: Ports, request: unknown, context?: OperationContext): ResultAsync<ImportHumanUserResponse, ErrorBody> {
  return new ResultAsync(runUserCreation(ports, request, context, importSpec));
}
