import { err, ok, type Result } from "neverthrow";
import type { Permission, Requester } from "../../ports/authorizer.js";
import type { Organization } from "../../ports/directory.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { organizationNotFound, permissionDenied } from "../errors/user-errors.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { unstorableTextProblem } from "../rules/storable-text.js";
import { callPort } from "./port-call.js";
import { askAuthorizer } from "./ask-authorizer.js";

/** Where the user is to be created, as the request and context name it. */
export type OrganizationRef = { readonly orgId: string } | { readonly orgDomain: string };

/**
 * Finds the organization and checks `permission` there. A missing organization answers 5 only to
 * a requester allowed to write users instance-wide, and 7 to everyone else, so that nobody learns
 * which organizations exist.
 */
export async function authorizeTarget(
  ports: ResolvedPorts,
  requester: Requester,
  target: OrganizationRef,
  permission: Permission,
): Promise<Result<Organization, ErrorBody>> {
  const { directory, authorizer, logger } = ports;
  const name = "orgId" in target ? target.orgId : target.orgDomain;
  // An id no store can hold (a NUL, say, from a header) names no organization; a database would
  // refuse the lookup itself, which would answer 13 for bad input.
  const found =
    unstorableTextProblem(name) !== undefined
      ? ok(undefined)
      : await callPort("storage lookup of the organization", logger, () =>
          "orgId" in target ? directory.findOrganization(target.orgId) : directory.findOrganizationByDomain(target.orgDomain),
        );
  if (found.isErr()) return err(found.error);
  const organization = found.value;
  const asked = askAuthorizer(authorizer, logger, requester, permission, organization?.id);
  const allowed = asked instanceof Promise ? await asked : asked;
  if (allowed.isErr()) return err(allowed.error);
  if (organization === undefined) return err(allowed.value ? organizationNotFound() : permissionDenied());
  return allowed.value ? ok(organization) : err(permissionDenied());
}
