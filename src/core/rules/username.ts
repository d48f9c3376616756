/** The stored form of a username: trimmed, Unicode NFC. */
export function normalizeUsername(username: string): string {
  return username.trim().normalize("NFC");
}

/** Usernames are unique ignoring case: the claim key is the lower-cased stored form. */
export function usernameClaimKey(username: string): string {
  return username.toLowerCase();
}

/** The domain of a `local@domain` username, lower-cased; undefined for other usernames. */
export function usernameDomain(username: string): string | undefined {
  const at = username.lastIndexOf("@");
  return at > 0 && at < username.length - 1 ? username.slice(at + 1).toLowerCase() : undefined;
}
