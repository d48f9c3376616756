import { foldUser } from "../../core/users/fold-user.js";
import { userListing } from "../../core/users/user-listing.js";
import type { StoredEvent, UserListing } from "../../ports/storage.js";
import { COLUMNS_SINCE_VERSION_7, listingColumnsWithout } from "./listing-sql.js";
import { toEvent } from "./rows.js";
import type { SqlSession } from "./sql-database.js";

/**
 * Version 3: the listings `listUsers` reads, one row per user, written by every append in the
 * same statement as its events. Texts are in collation "C", so that they sort by code points in
 * every database and a prefix is a range of the plain B-tree index. Each searchable text has an
 * index as given and one on its case-folded copy; organizations and creation times have one with
 * the user id, the tie-break every order ends with.
 */
export const LISTINGS_SQL = `
CREATE TABLE human_users_listings (
  user_id text COLLATE "C" PRIMARY KEY,
  org_id text COLLATE "C" NOT NULL,
  sequence integer NOT NULL,
  created_at timestamptz NOT NULL,
  changed_at timestamptz NOT NULL,
  state text NOT NULL,
  username text COLLATE "C" NOT NULL,
  given_name text COLLATE "C" NOT NULL,
  family_name text COLLATE "C" NOT NULL,
  nick_name text COLLATE "C" NOT NULL,
  display_name text COLLATE "C" NOT NULL,
  preferred_language text NOT NULL,
  gender text NOT NULL,
  email text COLLATE "C" NOT NULL,
  email_verified boolean NOT NULL,
  phone text COLLATE "C",
  phone_verified boolean NOT NULL,
  password_change_required boolean NOT NULL,
  password_changed_at timestamptz,
  -- Case-folded by the library (NFKC_Casefold), which PostgreSQL cannot do.
  username_folded text COLLATE "C" NOT NULL,
  email_folded text COLLATE "C" NOT NULL,
  display_name_folded text COLLATE "C" NOT NULL
);
CREATE INDEX human_users_listings_username ON human_users_listings (username);
CREATE INDEX human_users_listings_username_folded ON human_users_listings (username_folded);
CREATE INDEX human_users_listings_email ON human_users_listings (email);
CREATE INDEX human_users_listings_email_folded ON human_users_listings (email_folded);
CREATE INDEX human_users_listings_display_name ON human_users_listings (display_name);
CREATE INDEX human_users_listings_display_name_folded ON human_users_listings (display_name_folded);
CREATE INDEX human_users_listings_org ON human_users_listings (org_id, user_id);
CREATE INDEX human_users_listings_created ON human_users_listings (created_at, user_id);

-- Users written before this version get their listing from their events, which needs the
-- library's fold: migrate(pool) and migratePglite(db) run that step in code. A host applying these
-- files with its own tool must run it too (or those users stay out of listUsers until their next change).
`;

/** Users whose listings are made per round trip. */
const USERS_PER_ROUND = 500;

const nextUsersSql = `
SELECT DISTINCT aggregate_id FROM human_users_events WHERE aggregate_id > $1 ORDER BY aggregate_id LIMIT ${USERS_PER_ROUND}`;

export const eventsOfUsersSql = `
SELECT type, aggregate_id, org_id, sequence,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, payload::text AS payload
FROM human_users_events
WHERE aggregate_id = ANY (ARRAY(SELECT json_array_elements_text($1::json)))
ORDER BY aggregate_id, sequence`;

// The table as version 3 made it: later versions' columns are filled by their own migrations.
const VERSION_3 = listingColumnsWithout(COLUMNS_SINCE_VERSION_7);
const insertListingsSql = `
INSERT INTO human_users_listings (${VERSION_3.columns})
SELECT ${VERSION_3.values("l")} FROM json_to_recordset($1::json) AS l(${VERSION_3.record})
ON CONFLICT (user_id) DO NOTHING`;

function listingsOf(events: readonly StoredEvent[]): UserListing[] {
  const byUser = new Map<string, StoredEvent[]>();
  for (const event of events) {
    const stream = byUser.get(event.aggregateId);
    if (stream === undefined) byUser.set(event.aggregateId, [event]);
    else stream.push(event);
  }
  const listings: UserListing[] = [];
  for (const stream of byUser.values()) {
    const state = foldUser(stream);
    if (state !== undefined) listings.push(userListing(state));
  }
  return listings;
}

/**
 * Writes the listing of every user that has events, from their fold; returns how many were
 * written. A user listed already (written by an append after a host's tool applied the SQL, when
 * `migrate()` runs this step later) keeps its listing.
 */
export async function backfillListings(tx: SqlSession): Promise<number> {
  let after = "";
  let written = 0;
  for (;;) {
    const ids = (await tx.query(nextUsersSql, [after])).rows.map((row) => (row as { aggregate_id: string }).aggregate_id);
    const last = ids[ids.length - 1];
    if (last === undefined) return written;
    const events = (await tx.query(eventsOfUsersSql, [JSON.stringify(ids)])).rows.map(toEvent);
    const listings = listingsOf(events);
    if (listings.length > 0) await tx.query(insertListingsSql, [JSON.stringify(listings)]);
    written += listings.length;
    after = last;
  }
}
