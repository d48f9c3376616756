import { ok, type Result } from "neverthrow";
import type { ErrorBody } from "../../shared/error-body.js";
import { INSTANCE_SCOPE } from "../claims.js";
import { callPort } from "../commands/port-call.js";
import type { ResolvedPorts } from "../resolved-ports.js";
import { normalizeUsername, usernameClaimKey, usernameDomain } from "../rules/username.js";

/** The part of a `local@domain` login name before its last `@`, read as `usernameDomain` reads the domain. */
function localPart(loginName: string): string {
  const compatible = loginName.normalize("NFKC");
  return compatible.slice(0, compatible.lastIndexOf("@"));
}

/**
 * The user holding the username `name` (trimmed, NFC) in `scope`. Users whose names came to fold
 * together when the SQL stores moved to full case folding (`STRASSE` and `straße`) kept their first
 * keys, the name lower-cased: such a user is found by its own name under that key first, or the
 * name would lead to the user holding the folded key, and a wrong password would count against
 * that one. The old key is asked only when it cannot be a current key (folding changes it): such
 * a key is held by such a user only. (A lower-cased name can be a folded key of its own where the
 * runtime's Unicode is newer than the fold's table: `Ᲊann` and `ᲊann` are two current users.)
 * `asWritten` is the name as the user gave it, before compatibility normalization (a scoped
 * login's local part is cut from the NFKC form for the folded key).
 */
export async function findUsernameHolder(ports: ResolvedPorts, scope: string, name: string, asWritten = name): Promise<Result<string | undefined, ErrorBody>> {
  const { userLog, logger } = ports;
  const key = usernameClaimKey(name);
  const firstKey = asWritten.toLowerCase();
  if (firstKey !== key && usernameClaimKey(firstKey) !== firstKey) {
    const kept = await callPort("storage lookup of a login name", logger, () => userLog.findClaimHolder({ kind: "username", scope, key: firstKey }));
    if (kept.isErr() || kept.value !== undefined) return kept;
  }
  return callPort("storage lookup of a login name", logger, () => userLog.findClaimHolder({ kind: "username", scope, key }));
}

/**
 * The id of the user a login name names, or undefined when none does. A login name is a username
 * held across the whole store, or, as ZITADEL forms it for an organization whose
 * policy says `userLoginMustBeDomain`, `username@domain` with a domain that organization verified.
 * Both compare as usernames do (NFKC_Casefold).
 */
export async function findUserIdByLoginName(ports: ResolvedPorts, loginName: string): Promise<Result<string | undefined, ErrorBody>> {
  const { directory, logger } = ports;
  const name = normalizeUsername(loginName);
  const global = await findUsernameHolder(ports, INSTANCE_SCOPE, name);
  if (global.isErr() || global.value !== undefined) return global;
  const domain = usernameDomain(name);
  if (domain === undefined) return ok(undefined);
  const organization = await callPort("directory lookup of a domain", logger, () => directory.findOrganizationByDomain(domain.written));
  if (organization.isErr()) return organization.map(() => undefined);
  const owner = organization.value;
  if (owner === undefined || owner.policy?.userLoginMustBeDomain !== true) return ok(undefined);
  const local = localPart(name);
  if (local === "") return ok(undefined);
  // The old key was the local part as written, lower-cased: cut at the last `@` of the NFC text.
  const at = name.lastIndexOf("@");
  return findUsernameHolder(ports, owner.id, local, at > 0 ? name.slice(0, at) : local);
}
