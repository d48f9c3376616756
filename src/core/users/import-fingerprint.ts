import { sha256Base64Url } from "../secrets/sha256.js";
import type { UserDraft } from "../user-draft.js";

/** Changes when what is compared changes, so that fingerprints of two rules never match by accident. */
const RULE = "v1";

/**
 * What tells an imported user apart from any other: a digest of its normalized import request
 * and organization, stored with the user when it is imported (`importFingerprint` of
 * `user.human.added`). A bulk import that finds a user's username or identity-provider link taken
 * counts the row as already there only when the holder's fingerprint equals the row's.
 *
 * Compared: the organization, the username as stored, every profile field (display name and
 * language as normalized), the email address and whether it is verified, the phone number (E.164)
 * and whether it is verified, the password hash as given (a plain password only as "a plain
 * password", never its text: the digest must not let anyone guess it), whether a change is
 * required, the identity-provider links, and whether a passwordless registration was asked for.
 */
export function importFingerprint(draft: UserDraft, orgId: string): string {
  const { profile, email, phone, password } = draft;
  const compared = [
    RULE,
    orgId,
    draft.username,
    [profile.givenName, profile.familyName, profile.nickName, profile.displayName, profile.preferredLanguage, profile.gender],
    [email.address, email.verified],
    phone === undefined ? null : [phone.number, phone.verified],
    password === undefined ? null : password.kind === "hashed" ? ["hashed", password.encoded, password.changeRequired] : ["plain", password.changeRequired],
    draft.idpLinks.map((link) => [link.idpId, link.externalUserId, link.displayName]),
    draft.passwordlessRegistration,
  ];
  return `${RULE}.${sha256Base64Url(JSON.stringify(compared))}`;
}
