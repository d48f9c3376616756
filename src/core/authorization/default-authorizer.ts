import type { Authorizer } from "../../ports/authorizer.js";

/** Instance admins may read and write users in every organization; everyone else only in their own. */
export const defaultAuthorizer: Authorizer = {
  hasPermission(requester, _permission, orgId) {
    if (requester.instanceAdmin === true) return true;
    return orgId !== undefined && orgId === requester.orgId;
  },
};
