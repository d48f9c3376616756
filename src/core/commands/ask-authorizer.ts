import { err, ok, type Result } from "neverthrow";
import type { Authorizer, Permission, Requester } from "../../ports/authorizer.js";
import type { Logger } from "../../ports/logger.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { callPortNow, portFailure } from "./port-call.js";

/**
 * Whether `requester` holds `permission` in `orgId`, from the authorizer port. Any answer but
 * `true` or `false` is a broken port (13, its cause logged), never read as a yes: a truthy
 * `"false"` or `1` must not let a request through.
 */
export function askAuthorizer(
  authorizer: Authorizer,
  logger: Logger | undefined,
  requester: Requester,
  permission: Permission,
  orgId: string | undefined,
  userId?: string,
): Result<boolean, ErrorBody> | Promise<Result<boolean, ErrorBody>> {
  // Asked with three arguments when no user is named, as authorizers written before `userId` expect.
  const answer = callPortNow("authorizer", logger, () =>
    userId === undefined ? authorizer.hasPermission(requester, permission, orgId) : authorizer.hasPermission(requester, permission, orgId, userId),
  );
  return answer instanceof Promise ? answer.then((settled) => checkedAnswer(settled, logger)) : checkedAnswer(answer, logger);
}

function checkedAnswer(answer: Result<unknown, ErrorBody>, logger: Logger | undefined): Result<boolean, ErrorBody> {
  if (answer.isErr()) return err(answer.error);
  if (typeof answer.value === "boolean") return ok(answer.value);
  return err(portFailure(new TypeError(`the authorizer answered ${typeof answer.value}, not true or false`), "authorizer", logger));
}
