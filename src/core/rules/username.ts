import { isAscii, toNfkcCasefold } from "./case-folding.js";
import { canonicalDomain } from "./domain-name.js";

/** The stored form of a username: trimmed, Unicode NFC. */
export function normalizeUsername(username: string): string {
  return username.trim().normalize("NFC");
}

/**
 * Usernames are unique ignoring case, which ZITADEL's rules define as NFKC_Casefold: the claim key
 * is the username case-folded after compatibility normalization, so `STRASSE` and `straße`, or
 * `ﬁx` and `FIX`, are one username. The username itself is stored as given.
 */
export function usernameClaimKey(username: string): string {
  return toNfkcCasefold(username);
}

/**
 * The domain of a `local@domain` username in canonical form (see `canonicalDomain`); undefined for
 * other usernames. The `@` is found after compatibility normalization, so a full-width `＠` counts.
 */
export function usernameDomain(username: string): string | undefined {
  const compatible = isAscii(username) ? username : username.normalize("NFKC");
  const at = compatible.lastIndexOf("@");
  if (at < 0) return undefined;
  const domain = canonicalDomain(compatible.slice(at + 1));
  return domain === "" ? undefined : domain;
}
