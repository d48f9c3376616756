// The listings table (migration 3) as the statements write and read it: one row per user, the
// `UserListing` an append carries, replaced by every append in the same statement as its events.
import type { UserListing } from "../../ports/user-listing.js";
import type { ArrayColumn } from "./column-arrays.js";

/** Each column with the `UserListing` member it holds and its type, in the table's order. */
const COLUMNS: readonly (readonly [column: string, member: keyof UserListing, type: string])[] = [
  ["user_id", "userId", "text"],
  ["org_id", "orgId", "text"],
  ["sequence", "sequence", "integer"],
  ["created_at", "createdAt", "timestamptz"],
  ["changed_at", "changedAt", "timestamptz"],
  ["state", "state", "text"],
  ["username", "username", "text"],
  ["given_name", "givenName", "text"],
  ["family_name", "familyName", "text"],
  ["nick_name", "nickName", "text"],
  ["display_name", "displayName", "text"],
  ["preferred_language", "preferredLanguage", "text"],
  ["gender", "gender", "text"],
  ["email", "email", "text"],
  ["email_verified", "emailVerified", "boolean"],
  ["phone", "phone", "text"],
  ["phone_verified", "phoneVerified", "boolean"],
  ["password_change_required", "passwordChangeRequired", "boolean"],
  ["password_changed_at", "passwordChangedAt", "timestamptz"],
  ["username_folded", "usernameFolded", "text"],
  ["email_folded", "emailFolded", "text"],
  ["display_name_folded", "displayNameFolded", "text"],
  // Since version 7 (listing-names-migration.ts).
  ["given_name_folded", "givenNameFolded", "text"],
  ["family_name_folded", "familyNameFolded", "text"],
  ["nick_name_folded", "nickNameFolded", "text"],
];

/** The columns version 7 added; version 3's own backfill writes the others. */
export const COLUMNS_SINCE_VERSION_7: readonly string[] = ["given_name_folded", "family_name_folded", "nick_name_folded"];

/** The columns of `COLUMNS` that are not in `left`, as the statements below spell them. */
export function listingColumnsWithout(left: readonly string[]): {
  readonly columns: string;
  readonly record: string;
  readonly values: (alias: string) => string;
} {
  const kept = COLUMNS.filter(([column]) => !left.includes(column));
  return {
    columns: kept.map(([column]) => column).join(", "),
    record: kept.map(([, member, type]) => `"${member}" ${type}`).join(", "),
    values: (alias) => kept.map(([, member]) => `${alias}."${member}"`).join(", "),
  };
}

const ALL = listingColumnsWithout([]);

export const LISTING_COLUMNS = ALL.columns;

/** A listing as `json_to_record` / `json_to_recordset` expand it: the port's member names. */
export const LISTING_RECORD = ALL.record;

/** The listing's columns as `unnest` reads them from one array each (see column-arrays.ts). */
export const LISTING_ARRAY_COLUMNS: readonly ArrayColumn<UserListing>[] = COLUMNS.map(([, member, type]) => ({ member, type }));

/** The record's members in column order, read from the record aliased `alias`. */
export const listingValues = ALL.values;

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
