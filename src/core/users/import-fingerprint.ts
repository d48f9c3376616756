import { sha256Base64Url } from "../secrets/sha256.js";
import type { UserDraft } from "../user-draft.js";
import { foldForSearch } from "./user-listing.js";

/**
 * What is compared, by version; the version prefixes the fingerprint, so that fingerprints of two
 * rules never match by accident. v1 (0.2.0): the email as given. v2: the email ignoring case. v3:
 * a username that is the email address (as it is when a row gives none) ignoring case too, as
 * the email: `ANN@acme.test` and `ann@acme.test` with no username are one person.
 */
export type FingerprintRule = "v1" | "v2" | "v3";

/** The rule of the fingerprints written now. */
export const CURRENT_RULE: FingerprintRule = "v3";

/** The username as compared: as stored, but under v3 a username that is the email address as "the email" (compared, folded, with it). */
function comparedUsername(draft: UserDraft, rule: FingerprintRule): string | readonly [string] {
  if (rule !== "v3") return draft.username;
  return foldForSearch(draft.username) === foldForSearch(draft.email.address) ? ["the email"] : draft.username;
}

/**
 * What tells an imported user apart from any other: a digest of its normalized import request
 * and organization, stored with the user when it is imported (`importFingerprint` of
 * `user.human.added`). A bulk import that finds a user's username or identity-provider link taken
 * counts the row as already there only when the holder's fingerprint equals the row's under the
 * holder's rule (`rule`: the current one unless given; v1 and v2 only to recognize users earlier
 * versions imported).
 *
 * Compared: the organization, the username as stored (v3: ignoring case when it is the email
 * address), every profile field (display name and language as normalized), the email address
 * ignoring case (as `foldForSearch` folds it; v1: as given) and whether it is verified, the phone
 * number (E.164) and whether it is verified, the password hash as given (a plain password only as
 * "a plain password", never its text: the digest must not let anyone guess it), whether a change
 * is required, the identity-provider links, and whether a passwordless registration was asked for.
 */
export function importFingerprint(draft: UserDraft, orgId: string, rule: FingerprintRule = CURRENT_RULE): string {
  const { profile, email, phone, password } = draft;
  const compared = [
    rule,
    orgId,
    comparedUsername(draft, rule),
    [profile.givenName, profile.familyName, profile.nickName, profile.displayName, profile.preferredLanguage, profile.gender],
    // An email is kept as given but compared ignoring case, here as everywhere.
    [rule === "v1" ? email.address : foldForSearch(email.address), email.verified],
    phone === undefined ? null : [phone.number, phone.verified],
    password === undefined ? null : password.kind === "hashed" ? ["hashed", password.encoded, password.changeRequired] : ["plain", password.changeRequired],
    draft.idpLinks.map((link) => [link.idpId, link.externalUserId, link.displayName]),
    draft.passwordlessRegistration,
  ];
  return `${rule}.${sha256Base64Url(JSON.stringify(compared))}`;
}

/** The rule a stored fingerprint was made with; undefined for one this version does not know. */
export function ruleOf(fingerprint: string): FingerprintRule | undefined {
  const prefix = fingerprint.slice(0, fingerprint.indexOf("."));
  return prefix === "v1" || prefix === "v2" || prefix === "v3" ? prefix : undefined;
}

/**
 * A draft's fingerprint under a rule, each made once and only when first asked: a row is compared
 * with 0.2.0's rule only when a holder has such a fingerprint, so the usual row costs one digest.
 * `made` is one made already (the decision's), reused rather than made again.
 */
export function fingerprintsOf(draft: UserDraft, orgId: string, made?: string): (rule: FingerprintRule) => string {
  const byRule = new Map<FingerprintRule, string>();
  const madeRule = made === undefined ? undefined : ruleOf(made);
  if (made !== undefined && madeRule !== undefined) byRule.set(madeRule, made);
  return (rule) => {
    let fingerprint = byRule.get(rule);
    if (fingerprint === undefined) byRule.set(rule, (fingerprint = importFingerprint(draft, orgId, rule)));
    return fingerprint;
  };
}
