import type { ListedUserState, UserListing } from "../../ports/user-listing.js";
import { toNfkcCasefold } from "../rules/case-folding.js";
import { deepFreeze } from "../../shared/deep-freeze.js";
import { isoTime } from "../wire/timestamp.js";
import type { UserState } from "./user-state.js";

/** The one meaning of "ignoring case" for listings and their queries (the username claim's too). */
export function foldForSearch(text: string): string {
  return toNfkcCasefold(text);
}

/** A listing while it is built: members in the order they are written. */
type ListingSoFar = { -readonly [K in keyof UserListing]?: UserListing[K] };

/**
 * What a store keeps of a user for `listUsers`: derived from the folded state, never from a
 * request. Frozen whole, so that a store may keep it as it is.
 */
export function userListing(state: UserState): UserListing {
  const { profile, email, phone, password } = state;
  // Member by member, in the order the listing has always had: a conditional spread costs a
  // temporary object and a copy each on Node 20's V8.
  const listing: ListingSoFar = {
    userId: state.userId,
    orgId: state.orgId,
    sequence: state.sequence,
    createdAt: isoTime(state.createdAt),
    changedAt: isoTime(state.changedAt),
    state: state.lifecycle,
    username: state.username,
    givenName: profile.givenName,
    familyName: profile.familyName,
    nickName: profile.nickName,
    displayName: profile.displayName,
    preferredLanguage: profile.preferredLanguage,
    gender: profile.gender,
    email: email.address,
    emailVerified: email.verified,
  };
  if (phone !== undefined) listing.phone = phone.number;
  listing.phoneVerified = phone?.verified === true;
  listing.passwordChangeRequired = password?.changeRequired === true;
  if (password !== undefined) listing.passwordChangedAt = isoTime(password.changedAt);
  listing.usernameFolded = foldForSearch(state.username);
  listing.emailFolded = foldForSearch(email.address);
  listing.displayNameFolded = foldForSearch(profile.displayName);
  listing.givenNameFolded = foldForSearch(profile.givenName);
  listing.familyNameFolded = foldForSearch(profile.familyName);
  listing.nickNameFolded = foldForSearch(profile.nickName);
  return deepFreeze(listing as UserListing);
}

/** States in the order `listUsers` sorts them: the v2 enum's numbers (active 1, locked 4, initial 5). */
export const LISTED_STATE_ORDER: readonly ListedUserState[] = ["USER_STATE_ACTIVE", "USER_STATE_LOCKED", "USER_STATE_INITIAL"];
