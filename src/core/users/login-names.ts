import type { Organization } from "../../ports/directory.js";

export interface LoginNames {
  readonly loginNames: readonly string[];
  /** Undefined when there is none (a user whose organization has no verified domain). */
  readonly preferredLoginName: string | undefined;
}

/**
 * The names a user signs in with, as ZITADEL lists them: the username alone when
 * usernames are unique instance-wide; with the organization's `userLoginMustBeDomain`,
 * `username@domain` for each verified domain, the preferred one on the domain marked `primary`
 * (else the first). Read from the organization as it is now.
 */
export function loginNamesOf(username: string, organization: Organization | undefined): LoginNames {
  if (organization?.policy?.userLoginMustBeDomain !== true) return { loginNames: [username], preferredLoginName: username };
  const verified = organization.domains.filter((entry) => entry.verified);
  const primary = verified.find((entry) => entry.primary === true) ?? verified[0];
  return {
    loginNames: verified.map((entry) => `${username}@${entry.domain}`),
    preferredLoginName: primary === undefined ? undefined : `${username}@${primary.domain}`,
  };
}
