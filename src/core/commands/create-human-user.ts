import { ResultAsync } from "neverthrow";
import type { Ports } from "../../ports/index.js";
import type { OperationContext } from "../context.js";
import type { ErrorBody } from "../../shared/error-body.js";
import type { CreateHumanUserRequest } from "../requests.js";
import type { CreateHumanUserResponse } from "../responses.js";
import { createRequestShape, parseCreateRequest } from "../schemas/create-human-user.js";
import { member } from "../schemas/structure.js";
import { pruneEmpty } from "../wire/prune.js";
import { runUserCreation, type OperationSpec } from "./run-user-creation.js";

const createSpec: OperationSpec<CreateHumanUserResponse> = {
  operation: "create",
  shape: createRequestShape,
  target(request, context, requester) {
    const organization = request["organization"];
    const orgId = member(organization, "orgId");
    const orgDomain = member(organization, "orgDomain");
    if (typeof orgId === "string") return { orgId };
    if (typeof orgDomain === "string") return { orgDomain };
    return { orgId: context.orgId || requester.orgId };
  },
  parse: parseCreateRequest,
  usernameField: (request) => (request["username"] != null ? "username" : "email.email"),
  respond(planned, facts) {
    return pruneEmpty<CreateHumanUserResponse>({
      userId: facts.userId,
      details: { sequence: facts.sequence, changeDate: facts.date, resourceOwner: facts.resourceOwner },
      emailCode: planned.emailCode,
      phoneCode: planned.phoneCode,
    });
  },
};

/**
 * Operation A, ZITADEL's `AddHumanUser` (`POST /v2/users/human`): validates the request, checks
 * the rules, writes the user's events atomically and sends the verification messages. Resolves
 * to the exact response body, or to an error body; never throws or rejects.
 */
export function createHumanUser(
  ports: Ports,
  request: CreateHumanUserRequest,
  context?: OperationContext,
): ResultAsync<CreateHumanUserResponse, ErrorBody>;
export function createHumanUser(ports: Ports, request: unknown, context?: OperationContext): ResultAsync<CreateHumanUserResponse, ErrorBody>;
export function createHumanUser(ports: Ports, request: unknown, context?: OperationContext): ResultAsync<CreateHumanUserResponse, ErrorBody> {
  return new ResultAsync(runUserCreation(ports, request, context, createSpec));
}
