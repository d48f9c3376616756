import { err, ok, type Result } from "neverthrow";
import type { Organization } from "../../ports/directory.js";
import type { UserFilter } from "../../ports/user-listing.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { INSTANCE_SCOPE } from "../claims.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import type { TextMethod } from "../schemas/list-users.js";
import { findUsernameHolder } from "../users/login-name.js";
import { foldForSearch } from "../users/user-listing.js";
import { callPort } from "./port-call.js";

const nobody: UserFilter = { any: [] };

/** `userId`, and its username exactly as given unless case is ignored. */
function heldBy(userId: string | undefined, username: string, ignoreCase: boolean): UserFilter | undefined {
  if (userId === undefined) return undefined;
  const holder: UserFilter = { userIds: [userId] };
  return ignoreCase ? holder : { all: [holder, { text: "username", match: "equals", value: username, ignoreCase: false }] };
}

/**
 * A login name query as a listing filter. A login name is a username unique instance-wide, or
 * `username@domain` for a verified domain of an organization whose usernames are unique within it
 * (`userLoginMustBeDomain`): so an equal login name is found through the username claims, at most
 * one user per reading of the name, and a prefix without `@` is a prefix of the username. A prefix
 * with `@` finds instance-wide usernames that start with it, and users of the organization whose
 * verified domain is the whole rest (a part of a domain names no organization).
 */
export async function loginNameFilter(ports: ResolvedPorts, given: string, method: TextMethod): Promise<Result<UserFilter, ErrorBody>> {
  const { directory, logger } = ports;
  // Usernames are stored in NFC: a name typed in another form still finds its user.
  const value = given.normalize("NFC");
  const { ignoreCase } = method;
  const at = value.lastIndexOf("@");
  const local = at > 0 ? value.slice(0, at) : undefined;
  const domain = at > 0 ? value.slice(at + 1) : "";
  let organization: Organization | undefined;
  if (local !== undefined && domain !== "") {
    const found = await callPort("directory lookup of a domain", logger, () => directory.findOrganizationByDomain(domain));
    if (found.isErr()) return err(found.error);
    const byDomain = found.value;
    // Ignoring case, the domain is the one the directory found, as it compares domains (stores
    // lower some letters their own way: a comparison here would refuse what signing in with the
    // same login name finds); else a domain the organization verified, exactly as written there.
    const domainMatches = byDomain !== undefined && (ignoreCase || byDomain.domains.some((candidate) => candidate.verified && candidate.domain === domain));
    if (byDomain?.policy?.userLoginMustBeDomain === true && domainMatches) organization = byDomain;
  }

  if (method.match === "startsWith") {
    const prefix: UserFilter = { text: "username", match: "startsWith", value: ignoreCase ? foldForSearch(value) : value, ignoreCase };
    if (organization === undefined || local === undefined) return ok(prefix);
    const scoped: UserFilter = { all: [{ orgIds: [organization.id] }, { text: "username", match: "equals", value: ignoreCase ? foldForSearch(local) : local, ignoreCase }] };
    return ok({ any: [prefix, scoped] });
  }

  const readings: UserFilter[] = [];
  const instanceHolder = await findUsernameHolder(ports, INSTANCE_SCOPE, value);
  if (instanceHolder.isErr()) return err(instanceHolder.error);
  const instanceReading = heldBy(instanceHolder.value, value, ignoreCase);
  if (instanceReading !== undefined) readings.push(instanceReading);
  if (organization !== undefined && local !== undefined) {
    const scope = organization.id;
    const scopedHolder = await findUsernameHolder(ports, scope, local);
    if (scopedHolder.isErr()) return err(scopedHolder.error);
    const scopedReading = heldBy(scopedHolder.value, local, ignoreCase);
    if (scopedReading !== undefined) readings.push({ all: [{ orgIds: [scope] }, scopedReading] });
  }
  return ok(readings.length === 0 ? nobody : { any: readings });
}
