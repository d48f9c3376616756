// What a store keeps to answer `listUsers`: one row per user, replaced by every append, and the
// query language the core asks it in.

/** The user states a user of this library can be in, by their v2 names. */
export type ListedUserState = "USER_STATE_INITIAL" | "USER_STATE_ACTIVE" | "USER_STATE_LOCKED";

/**
 * One user as `listUsers` finds, sorts and shows it: its state after its last event, without
 * secrets. The core builds it from the folded events and every append carries it, so a store
 * keeps the latest one per user (written with the events, atomically) and never computes it.
 * Times are UTC in `Date.prototype.toISOString()` form; a store answers them in that form.
 */
export interface UserListing {
  readonly userId: string;
  readonly orgId: string;
  /** The stream's last sequence. */
  readonly sequence: number;
  readonly createdAt: string;
  readonly changedAt: string;
  readonly state: ListedUserState;
  readonly username: string;
  readonly givenName: string;
  readonly familyName: string;
  /** "" when there is none. */
  readonly nickName: string;
  readonly displayName: string;
  /** Canonical BCP 47 tag, `und` when unknown. */
  readonly preferredLanguage: string;
  /** The v2 enum name, `GENDER_UNSPECIFIED` when unknown. */
  readonly gender: string;
  readonly email: string;
  readonly emailVerified: boolean;
  /** E.164; absent when the user has no phone. */
  readonly phone?: string;
  readonly phoneVerified: boolean;
  readonly passwordChangeRequired: boolean;
  /** When the password was last set; absent when the user has none. */
  readonly passwordChangedAt?: string;
  /**
   * The texts case-folded by the core (NFKC_Casefold, the library's one meaning of "ignoring
   * case"): queries that ignore case match them, and pages sorted by a text sort by them. A store
   * compares them exactly, as it does claim keys.
   */
  readonly usernameFolded: string;
  readonly emailFolded: string;
  readonly displayNameFolded: string;
  readonly givenNameFolded: string;
  readonly familyNameFolded: string;
  readonly nickNameFolded: string;
}

/** How a text query compares. */
export type TextMatch = "equals" | "startsWith" | "contains" | "endsWith";

/** The texts a query may match. */
export type ListingTextField = "username" | "email" | "displayName";

/**
 * Which users a query finds. Text conditions with `ignoreCase` carry a value folded by the core
 * and match the folded copy of the field (`usernameFolded`, ...); the others match the field
 * itself. Comparisons are by code points, with no wildcard characters: `%` and `_` are plain text.
 * `{ all: [] }` finds everybody and `{ any: [] }` nobody.
 */
export type UserFilter =
  | { readonly text: ListingTextField; readonly match: TextMatch; readonly value: string; readonly ignoreCase: boolean }
  | { readonly orgIds: readonly string[] }
  | { readonly userIds: readonly string[] }
  | { readonly states: readonly ListedUserState[] }
  | { readonly all: readonly UserFilter[] }
  | { readonly any: readonly UserFilter[] }
  | { readonly not: UserFilter };

/**
 * What a page is sorted by. Texts sort ignoring case, as ZITADEL sorts them by `LOWER(column)`:
 * by their folded copy (`usernameFolded`, ...), then by the text itself, both by code points
 * (PostgreSQL's collation "C"). States sort in the v2 enum's order (active, locked, initial),
 * times as times. Ties are always broken by `userId` in the same direction, so that pages never
 * overlap or leave a gap.
 */
export type ListingSortField = "userId" | "username" | "givenName" | "familyName" | "nickName" | "displayName" | "email" | "state" | "createdAt";

/** One page of `listUsers`, as the store's `queryUsers` receives it. */
export interface UserQuery {
  readonly filter: UserFilter;
  readonly sortBy: ListingSortField;
  readonly ascending: boolean;
  /** Users skipped before the page, in sort order. */
  readonly offset: number;
  /** Users on the page at most; 1 or more. */
  readonly limit: number;
}

/** What `queryUsers` answers: one page of listings and the total. */
export interface UserPage {
  /** Every user the filter finds, whatever the page. */
  readonly totalResult: number;
  readonly users: readonly UserListing[];
}

