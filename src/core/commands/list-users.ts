import { err, ok, type Result } from "neverthrow";
import type { Organization } from "../../ports/directory.js";
import type { UserFilter } from "../../ports/user-listing.js";
import type { ErrorBody } from "../../shared/error-body.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import type { ListUsersResponse } from "../responses.js";
import { listUsersFields, parseListUsersRequest, type ListUsersParsed, type SearchQuery } from "../schemas/list-users.js";
import { renderUser } from "../users/render-user.js";
import { foldForSearch } from "../users/user-listing.js";
import { pruneEmpty } from "../wire/prune.js";
import { rfc3339 } from "../wire/timestamp.js";
import { loginNameFilter } from "./login-name-filter.js";
import { callPort } from "./port-call.js";
import { askAuthorizer } from "./ask-authorizer.js";
import type { Query, QueryInput } from "./query.js";

/** Every organization a query names, anywhere in it. */
function namedOrganizations(queries: readonly SearchQuery[], into: Set<string> = new Set()): Set<string> {
  for (const query of queries) {
    if (query.kind === "organization") into.add(query.orgId);
    else if (query.kind === "and" || query.kind === "or") namedOrganizations(query.queries, into);
    else if (query.kind === "not") namedOrganizations([query.query], into);
  }
  return into;
}

/**
 * What the requester may read: everything with `user.read` instance-wide, else the organizations
 * among its own and those the queries name where it has `user.read` (an authorizer cannot list
 * the organizations it allows, so these are the ones asked about).
 */
async function readableScope({ ports, parsed, requester }: QueryInput<ListUsersParsed>): Promise<Result<UserFilter | undefined, ErrorBody>> {
  const { authorizer, logger } = ports;
  const instanceWide = await askAuthorizer(authorizer, logger, requester, "user.read", undefined);
  if (instanceWide.isErr()) return err(instanceWide.error);
  if (instanceWide.value) return ok(undefined);
  const allowed: string[] = [];
  for (const orgId of namedOrganizations(parsed.queries, new Set([requester.orgId]))) {
    if (orgId === "") continue;
    const may = await askAuthorizer(authorizer, logger, requester, "user.read", orgId);
    if (may.isErr()) return err(may.error);
    if (may.value) allowed.push(orgId);
  }
  return ok({ orgIds: allowed });
}

/** A search query as a listing filter; texts ignoring case are folded as the listings' copies are. */
async function filterOf(ports: ResolvedPorts, query: SearchQuery): Promise<Result<UserFilter, ErrorBody>> {
  switch (query.kind) {
    case "text": {
      const { match, ignoreCase } = query.method;
      return ok({ text: query.field, match, ignoreCase, value: ignoreCase ? foldForSearch(query.value) : query.value });
    }
    case "loginName":
      return loginNameFilter(ports, query.value, query.method);
    case "organization":
      return ok({ orgIds: [query.orgId] });
    case "states":
      return ok({ states: query.states });
    case "userIds":
      return ok({ userIds: query.userIds });
    case "not": {
      const inner = await filterOf(ports, query.query);
      return inner.map((filter) => ({ not: filter }));
    }
    case "and":
    case "or": {
      const parts: UserFilter[] = [];
      for (const part of query.queries) {
        const filter = await filterOf(ports, part);
        if (filter.isErr()) return filter;
        parts.push(filter.value);
      }
      return ok(query.kind === "and" ? { all: parts } : { any: parts });
    }
  }
}

/** The organizations of a page's users, each looked up once. */
async function organizationsOf(ports: ResolvedPorts, orgIds: readonly string[]): Promise<Result<Map<string, Organization | undefined>, ErrorBody>> {
  const found = new Map<string, Organization | undefined>();
  for (const orgId of new Set(orgIds)) {
    const organization = await callPort("directory lookup of the organization", ports.logger, () => ports.directory.findOrganization(orgId));
    if (organization.isErr()) return err(organization.error);
    found.set(orgId, organization.value);
  }
  return ok(found);
}

async function read(input: QueryInput<ListUsersParsed>): Promise<Result<ListUsersResponse, ErrorBody>> {
  const { ports, parsed, now } = input;
  const scope = await readableScope(input);
  if (scope.isErr()) return err(scope.error);
  const asked = await filterOf(ports, { kind: "and", queries: parsed.queries });
  if (asked.isErr()) return err(asked.error);
  const filter: UserFilter = scope.value === undefined ? asked.value : { all: [scope.value, asked.value] };
  const { offset, limit, ascending, sortBy } = parsed;
  const page = await callPort("storage query of users", ports.logger, () => ports.userLog.queryUsers({ filter, sortBy, ascending, offset, limit }));
  if (page.isErr()) return err(page.error);
  const organizations = await organizationsOf(ports, page.value.users.map((listing) => listing.orgId));
  if (organizations.isErr()) return err(organizations.error);
  return ok(
    pruneEmpty<ListUsersResponse>({
      details: pruneEmpty({ totalResult: page.value.totalResult === 0 ? undefined : String(page.value.totalResult), timestamp: rfc3339(now) }),
      result: page.value.users.map((listing) => renderUser(listing, organizations.value.get(listing.orgId))),
    }),
  );
}

/**
 * ZITADEL's v2 `ListUsers` (`POST /v2/users`): a page of the users the queries find among those
 * the requester may read (`user.read`), with how many they find in all. Default 100 a page, at
 * most 1,000; sorted by user id unless `sortingColumn` says otherwise, descending unless
 * `query.asc`; ties broken by user id, so pages never overlap.
 */
export const listUsersQuery: Query<ListUsersParsed, ListUsersResponse> = {
  name: "listUsers",
  fields: listUsersFields,
  shape: () => [],
  parse: parseListUsersRequest,
  read,
};
