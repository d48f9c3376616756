import type { Organization } from "../../ports/directory.js";
import type { UserListing } from "../../ports/user-listing.js";
import type { HumanProfile, HumanUser, ReadDetails, User } from "../responses.js";
import { pruneEmpty } from "../wire/prune.js";
import { rfc3339 } from "../wire/timestamp.js";
import { loginNamesOf } from "./login-names.js";

/** A stored time as protobuf JSON writes a Timestamp. */
function timestamp(time: string): string {
  return rfc3339(new Date(time));
}

/**
 * The details of a read: the user's last change (its sequence and time), its organization, and
 * when it was created, in the order of `zitadel.object.v2.Details`' fields.
 */
export function readDetails(listing: UserListing): ReadDetails {
  return { sequence: String(listing.sequence), changeDate: timestamp(listing.changedAt), resourceOwner: listing.orgId, creationDate: timestamp(listing.createdAt) };
}

/**
 * A user as the v2 API shows it (`GetUserByID`, `ListUsers`): absent, empty and false members
 * left out as protobuf JSON leaves them out. Two are set whatever their value, as ZITADEL sets
 * them: the profile's `nickName` (an optional field, written even when `""`) and the `phone`
 * message (`{}` for a user without a phone number).
 */
export function renderUser(listing: UserListing, organization: Organization | undefined): User {
  const { loginNames, preferredLoginName } = loginNamesOf(listing.username, organization);
  // `human` is built apart: a prune of the whole user would take out the nickName "" it keeps.
  const human: HumanUser = {
    profile: {
      givenName: listing.givenName,
      familyName: listing.familyName,
      nickName: listing.nickName,
      ...pruneEmpty<Pick<HumanProfile, "displayName" | "preferredLanguage">>({ displayName: listing.displayName, preferredLanguage: listing.preferredLanguage }),
      gender: listing.gender as HumanProfile["gender"],
    },
    email: pruneEmpty<HumanUser["email"]>({ email: listing.email, isVerified: listing.emailVerified || undefined }),
    phone: listing.phone === undefined ? {} : pruneEmpty<HumanUser["phone"]>({ phone: listing.phone, isVerified: listing.phoneVerified || undefined }),
    ...pruneEmpty<Pick<HumanUser, "passwordChangeRequired" | "passwordChanged">>({
      passwordChangeRequired: listing.passwordChangeRequired || undefined,
      passwordChanged: listing.passwordChangedAt === undefined ? undefined : timestamp(listing.passwordChangedAt),
    }),
  };
  const user = pruneEmpty<Omit<User, "human">>({
    userId: listing.userId,
    details: readDetails(listing),
    state: listing.state,
    username: listing.username,
    loginNames,
    preferredLoginName,
  });
  return { ...user, human };
}
