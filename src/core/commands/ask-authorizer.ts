import { err, type Result } from "neverthrow";
import type { Authorizer, Permission, Requester } from "../../ports/authorizer.js";
import type { Logger } from "../../ports/logger.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { callPort, portFailure } from "./port-call.js";

/**
 * Whether `requester` holds `permission` in `orgId`, from the authorizer port. Any answer but
 * `true` or `false` is a broken port (13, its cause logged), never read as a yes: a truthy
 * `"false"` or `1` must not let a request through.
 */
export async function askAuthorizer(
  authorizer: Authorizer,
  logger: Logger | undefined,
  requester: Requester,
  permission: Permission,
  orgId: string | undefined,
): Promise<Result<boolean, ErrorBody>> {
  const answer = await callPort("authorizer", logger, () => authorizer.hasPermission(requester, permission, orgId));
  if (answer.isErr() || typeof answer.value === "boolean") return answer;
  return err(portFailure(new TypeError(`the authorizer answered ${typeof answer.value}, not true or false`), "authorizer", logger));
}
