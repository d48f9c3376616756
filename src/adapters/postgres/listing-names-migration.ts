import { foldForSearch } from "../../core/users/user-listing.js";
import type { SqlSession } from "./sql-database.js";

/**
 * Version 7: the folded copies of the given, family and nick names, by which `listUsers` sorts
 * those names ignoring case (as it sorts usernames, emails and display names by theirs). Collation
 * "C" lower-cases ASCII letters only, which is the library's whole fold of ASCII text, so this SQL
 * fills every listing whose names are ASCII; `migrate(pool)` and `migratePglite(db)` then fold the
 * others in code. A host applying these files with its own tool gets only the SQL's part: such a
 * name then sorts with its other letters as written until the user's next change.
 */
export const LISTING_NAMES_SQL = `
ALTER TABLE human_users_listings
  ADD COLUMN given_name_folded text COLLATE "C" NOT NULL DEFAULT '',
  ADD COLUMN family_name_folded text COLLATE "C" NOT NULL DEFAULT '',
  ADD COLUMN nick_name_folded text COLLATE "C" NOT NULL DEFAULT '';
UPDATE human_users_listings
SET given_name_folded = lower(given_name), family_name_folded = lower(family_name), nick_name_folded = lower(nick_name);
-- The defaults stay: a copy of the release before, still running in a rolling upgrade, writes
-- listings without these columns; they take '' until a current copy writes that user again.
`;

/** Listings folded per round trip. */
const LISTINGS_PER_ROUND = 500;

// A UTF-8 text is ASCII exactly when it has as many bytes as characters.
const nextNonAsciiSql = `
SELECT user_id, given_name, family_name, nick_name FROM human_users_listings
WHERE user_id > $1 AND (octet_length(given_name) <> char_length(given_name)
  OR octet_length(family_name) <> char_length(family_name) OR octet_length(nick_name) <> char_length(nick_name))
ORDER BY user_id LIMIT ${LISTINGS_PER_ROUND}`;

const updateFoldedSql = `
UPDATE human_users_listings l
SET given_name_folded = f.given, family_name_folded = f.family, nick_name_folded = f.nick
FROM json_to_recordset($1::json) AS f(user_id text, given text, family text, nick text)
WHERE l.user_id = f.user_id`;

interface NamesRow {
  readonly user_id: string;
  readonly given_name: string;
  readonly family_name: string;
  readonly nick_name: string;
}

/**
 * Listings with no folded names at all: listed after the SQL's update ran (by the backfill of
 * version 3, when `migrate()` runs both steps after a host's tool applied the SQL files).
 */
const foldUnfoldedAsciiSql = `
UPDATE human_users_listings
SET given_name_folded = lower(given_name), family_name_folded = lower(family_name), nick_name_folded = lower(nick_name)
WHERE given_name_folded = '' AND family_name_folded = '' AND nick_name_folded = ''
  AND (given_name <> '' OR family_name <> '' OR nick_name <> '')`;

/** Folds the names the SQL could not (any that is not ASCII); returns how many listings it changed. */
export async function foldListingNames(tx: SqlSession): Promise<number> {
  await tx.query(foldUnfoldedAsciiSql);
  let after = "";
  let folded = 0;
  for (;;) {
    const rows = (await tx.query(nextNonAsciiSql, [after])).rows as NamesRow[];
    const last = rows[rows.length - 1];
    if (last === undefined) return folded;
    const updates = rows.map((row) => ({
      user_id: row.user_id,
      given: foldForSearch(row.given_name),
      family: foldForSearch(row.family_name),
      nick: foldForSearch(row.nick_name),
    }));
    await tx.query(updateFoldedSql, [JSON.stringify(updates)]);
    folded += rows.length;
    after = last.user_id;
  }
}
