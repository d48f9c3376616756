import type { Organization } from "../ports/directory.js";
import type { UniqueClaim } from "../ports/user-log.js";
import { idpAccountKey } from "./rules/idp-account.js";
import { usernameClaimKey } from "./rules/username.js";

/** Scope of the claims that hold across the whole store. */
export const INSTANCE_SCOPE = "";

/**
 * The one string that tells two claims apart, for every store that indexes claims by a single
 * key: kinds and scopes (ids) never hold a NUL, so the three parts stay apart.
 */
export function claimKey(claim: UniqueClaim): string {
  return `${claim.kind}\u0000${claim.scope}\u0000${claim.key}`;
}

/** Two claims are the same claim. */
export function sameClaim(a: UniqueClaim, b: UniqueClaim): boolean {
  return a.kind === b.kind && a.scope === b.scope && a.key === b.key;
}

/**
 * The first claim `claims` repeats, if any: one append cannot take a claim twice. `keys` are the
 * claims' keys, in the same order, for a caller that has made them already.
 */
export function firstRepeatedClaim(claims: readonly UniqueClaim[], keys: readonly string[] = claims.map(claimKey)): UniqueClaim | undefined {
  const seen = new Set<string>();
  for (const [index, claim] of claims.entries()) {
    const key = keys[index] ?? claimKey(claim);
    if (seen.has(key)) return claim;
    seen.add(key);
  }
  return undefined;
}

export function userIdClaim(userId: string): UniqueClaim {
  return { kind: "user_id", scope: INSTANCE_SCOPE, key: userId };
}

/** A username's claim: per organization when its policy says so, else across the store. */
export function usernameClaim(username: string, organization: Organization): UniqueClaim {
  const scope = organization.policy?.userLoginMustBeDomain === true ? organization.id : INSTANCE_SCOPE;
  return { kind: "username", scope, key: usernameClaimKey(username) };
}

/** A passkey's credential id (base64url, as the authenticator gave it), one user's across the instance. */
export function passkeyClaim(credentialId: string): UniqueClaim {
  return { kind: "passkey", scope: INSTANCE_SCOPE, key: credentialId };
}

export function idpLinkClaim(link: { readonly idpId: string; readonly externalUserId: string }): UniqueClaim {
  return { kind: "idp_link", scope: INSTANCE_SCOPE, key: idpAccountKey(link) };
}
