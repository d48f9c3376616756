// The listings table (migration 3) as the statements write and read it: one row per user, the
// `UserListing` an append carries, replaced by every append in the same statement as its events.
import type { UserListing } from "../../ports/user-listing.js";

/** A listing as `json_to_record` / `json_to_recordset` expand it: the port's member names. */
export const LISTING_RECORD = `"userId" text, "orgId" text, sequence integer, "createdAt" timestamptz, "changedAt" timestamptz,
  state text, username text, "givenName" text, "familyName" text, "nickName" text, "displayName" text,
  "preferredLanguage" text, gender text, email text, "emailVerified" boolean, phone text, "phoneVerified" boolean,
  "passwordChangeRequired" boolean, "passwordChangedAt" timestamptz, "usernameFolded" text, "emailFolded" text,
  "displayNameFolded" text`;

/** Each column with the `UserListing` member it holds, in the table's order. */
const COLUMNS: readonly (readonly [column: string, member: keyof UserListing])[] = [
  ["user_id", "userId"],
  ["org_id", "orgId"],
  ["sequence", "sequence"],
  ["created_at", "createdAt"],
  ["changed_at", "changedAt"],
  ["state", "state"],
  ["username", "username"],
  ["given_name", "givenName"],
  ["family_name", "familyName"],
  ["nick_name", "nickName"],
  ["display_name", "displayName"],
  ["preferred_language", "preferredLanguage"],
  ["gender", "gender"],
  ["email", "email"],
  ["email_verified", "emailVerified"],
  ["phone", "phone"],
  ["phone_verified", "phoneVerified"],
  ["password_change_required", "passwordChangeRequired"],
  ["password_changed_at", "passwordChangedAt"],
  ["username_folded", "usernameFolded"],
  ["email_folded", "emailFolded"],
  ["display_name_folded", "displayNameFolded"],
];

export const LISTING_COLUMNS = COLUMNS.map(([column]) => column).join(", ");

/** The record's members in column order, read from the record aliased `alias`. */
export function listingValues(alias: string): string {
  return COLUMNS.map(([, member]) => `${alias}."${member}"`).join(", ");
}

/**
 * The listing as one parameter per column, from `$first` on: a new user's append inserts it with
 * `VALUES`, which spares the database parsing a JSON object and expanding it by member name
 * (measured: ~20 µs of ~290 per append on one connection). Absent members are NULL.
 */
export function listingPlaceholders(first: number): string {
  return COLUMNS.map((_, index) => `$${first + index}`).join(", ");
}

export function listingParams(listing: UserListing): unknown[] {
  return COLUMNS.map(([, member]) => listing[member] ?? null);
}

/** A later listing of the same user replaces every column. */
export const LISTING_UPSERT = `ON CONFLICT (user_id) DO UPDATE SET ${COLUMNS.filter(([column]) => column !== "user_id")
  .map(([column]) => `${column} = excluded.${column}`)
  .join(", ")}`;

/** `column` as RFC 3339 UTC with milliseconds, as `Date.toISOString()` writes it. */
function iso(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The columns as rows.ts maps them back to a `UserListing`. */
export const LISTING_SELECT = COLUMNS.map(([column]) =>
  column.endsWith("_at") ? `${iso(`l.${column}`)} AS ${column}` : `l.${column}`,
).join(", ");

export const LISTINGS_TABLE = "human_users_listings";
