import type { Organization } from "../../ports/directory.js";
import type { UserListing } from "../../ports/user-listing.js";
import type { ChangeDetails, HumanProfile, HumanUser, User } from "../responses.js";
import { pruneEmpty } from "../wire/prune.js";
import { rfc3339 } from "../wire/timestamp.js";
import { loginNamesOf } from "./login-names.js";

/** A stored time as protobuf JSON writes a Timestamp. */
function timestamp(time: string): string {
  return rfc3339(new Date(time));
}

/** The details of a user's last change: its sequence and time, and its organization. */
export function lastChangeDetails(listing: UserListing): ChangeDetails {
  return { sequence: String(listing.sequence), changeDate: timestamp(listing.changedAt), resourceOwner: listing.orgId };
}

/**
 * A user as the v2 API shows it (`GetUserByID`, `ListUsers`): absent, empty and false members
 * left out as protobuf JSON leaves them out. Two are set whatever their value, as ZITADEL sets
 * them: the profile's `nickName` (an optional field, written even when `""`) and the `phone`
 * message (`{}` for a user without a phone number).
 */
export function renderUser(listing: UserListing, organization: Organization | undefined): User {
  const { loginNames, preferredLoginName } = loginNamesOf(listing.username, organization);
  const user = pruneEmpty<User>({
    userId: listing.userId,
    details: lastChangeDetails(listing),
    state: listing.state,
    username: listing.username,
    loginNames,
    preferredLoginName,
    human: pruneEmpty<HumanUser>({
      profile: {
        givenName: listing.givenName,
        familyName: listing.familyName,
        nickName: listing.nickName,
        displayName: listing.displayName,
        preferredLanguage: listing.preferredLanguage,
        gender: listing.gender as HumanProfile["gender"],
      },
      email: { email: listing.email, ...(listing.emailVerified ? { isVerified: true } : {}) },
      phone: listing.phone === undefined ? undefined : { phone: listing.phone, ...(listing.phoneVerified ? { isVerified: true } : {}) },
      passwordChangeRequired: listing.passwordChangeRequired || undefined,
      passwordChanged: listing.passwordChangedAt === undefined ? undefined : timestamp(listing.passwordChangedAt),
    }),
  });
  // Rebuilt in the proto's member order, so that the JSON reads as ZITADEL's does.
  const { profile, email, phone, passwordChangeRequired, passwordChanged } = user.human;
  const { givenName, familyName, displayName, preferredLanguage, gender } = profile;
  const human: HumanUser = {
    profile: { givenName, familyName, nickName: listing.nickName, ...(displayName === undefined ? {} : { displayName }), ...(preferredLanguage === undefined ? {} : { preferredLanguage }), gender },
    email,
    phone: phone ?? {},
    ...(passwordChangeRequired === undefined ? {} : { passwordChangeRequired }),
    ...(passwordChanged === undefined ? {} : { passwordChanged }),
  };
  return { ...user, human };
}
