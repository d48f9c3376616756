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

/** The domain of a `local@domain` username, in two spellings. */
export interface UsernameDomain {
  /**
   * As written (after compatibility normalization): what a directory is asked first. Stores lower
   * some letters differently (İ is i in PostgreSQL, i and a combining dot in JavaScript), so a
   * domain registered with such a capital is found only under a spelling that keeps it.
   */
  readonly written: string;
  /** In canonical form (see `canonicalDomain`). */
  readonly canonical: string;
}

/**
 * The domain of a `local@domain` username; undefined for other usernames. The `@` is found after
 * compatibility normalization, so a full-width `＠` counts.
 */
export function usernameDomain(username: string): UsernameDomain | undefined {
  const compatible = isAscii(username) ? username : username.normalize("NFKC");
  const at = compatible.lastIndexOf("@");
  if (at < 0) return undefined;
  const written = compatible.slice(at + 1);
  const canonical = canonicalDomain(written);
  return canonical === "" ? undefined : { written, canonical };
}
