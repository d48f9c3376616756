// The SQL the store runs. Values travel as JSON documents expanded by json_to_recordset, so one
// parameter carries a whole list and both drivers (pg, PGlite) serialize it the same way; several
// new users' rows travel as one array per column instead (see new-user-rows.ts). Times
// come back formatted by the database as `Date.toISOString()` would, whatever type parsers a host
// has installed.
import { WITHDRAWN_NOTIFICATION_ERROR } from "../../ports/outbox.js";
import { LISTING_COLUMNS, LISTING_RECORD, LISTING_UPSERT, listingPlaceholders, listingValues } from "./listing-sql.js";
import { insertEventRows, insertNotificationRows } from "./insert-rows.js";
import { CLAIM_PARAMS, claimRows, EVENT_PARAMS, eventRows, leasedNotificationRows, LISTING_PARAMS, listingRows, NOTIFICATION_PARAMS } from "./new-user-rows.js";

/** `column` as RFC 3339 UTC with milliseconds. */
function iso(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The order every writer inserts claims in. The claims' primary key decides who wins each claim
 * (a writer inserting a key another one holds uncommitted waits for it, then skips the key, or
 * fails, if it committed); taken in one global order, writers wanting overlapping claims queue one behind
 * another instead of deadlocking. No advisory lock is needed, so the statements also run on
 * databases without them.
 */
export const claimOrder = `ORDER BY c.kind COLLATE "C", c.scope COLLATE "C", c.key COLLATE "C"`;

const insertEvents = insertEventRows(`json_to_recordset($2::json) AS e("aggregateId" text, sequence integer, type text, "orgId" text, "createdAt" timestamptz, payload jsonb)`);

/**
 * Notifications from parameter `list` (a JSON array), leased until `lease` when it is not null: a
 * parameter, or `n."leasedUntil"`, each notification's own (absent: null).
 */
function insertNotifications(list: string, lease: string): string {
  return insertNotificationRows(`json_to_recordset(${list}::json) AS n(id text, kind text, "userId" text, "orgId" text, recipient text, code text, link text,
    locale text, "displayName" text, username text, "createdAt" timestamptz, "expiresAt" timestamptz, "leasedUntil" timestamptz)`, lease);
}

/**
 * One append as one statement, its own transaction, one round trip: the stream's last sequence
 * must be the expected one; the claims given up are deleted; the claims taken are inserted in the
 * global order (`ON CONFLICT DO NOTHING` keeps only those won); events and notifications are
 * written only when the sequence matched and every claim was won.
 * Otherwise `human_users_claim_held()` raises HU409, which aborts the statement and so undoes it
 * all; the store then reads why. Two appends racing for one sequence meet at the events' unique
 * index instead (23505).
 * The user's listing is replaced in the same statement, under the same condition.
 * The claims given up are found by primary-key probes (as in heldClaimsSql) and deleted by row
 * address: joined to the JSON (guessed at 100 rows) on a user id no index holds, the generic plan
 * read the whole claims table for every append that gives one up.
 * The notifications are written leased until $8 when it is set: the writer delivers them itself
 * without a lease call, and should it never report on them the workers take them when it is over.
 * The user's pending notifications of the kinds in $9 are made dead under the same condition
 * (their codes no longer work); the statement's snapshot does not see the notifications it writes.
 * $1 claims taken, $2 events, $3 notifications (JSON arrays), $4 the user id, $5 the expected
 * sequence, $6 claims given up, $7 the listing (a JSON object), $8 the lease's end or NULL, $9 the
 * kinds withdrawn (a JSON array).
 */
export const appendSql = `
WITH stream AS (
  SELECT coalesce(max(sequence), 0) = $5::integer AS current FROM human_users_events WHERE aggregate_id = $4
), released AS (
  DELETE FROM human_users_claims h
  WHERE (SELECT current FROM stream) AND h.user_id = $4 AND h.ctid = ANY (ARRAY(
    SELECT held.ctid FROM json_to_recordset($6::json) AS c(kind text, scope text, key text)
    CROSS JOIN LATERAL (
      SELECT x.ctid FROM human_users_claims x WHERE x.kind = c.kind AND x.scope = c.scope AND x.key = c.key LIMIT 1
    ) AS held))
  RETURNING h.kind
), claimed AS (
  INSERT INTO human_users_claims (kind, scope, key, user_id)
  SELECT c.kind, c.scope, c.key, $4 FROM json_to_recordset($1::json) AS c(kind text, scope text, key text)
  WHERE (SELECT current FROM stream)
  ${claimOrder}
  ON CONFLICT DO NOTHING
  RETURNING kind, scope, key
), complete AS (
  SELECT (SELECT current FROM stream) AND count(*) = json_array_length($1::json) AS ok FROM claimed
), events AS (
  ${insertEvents}
  WHERE (SELECT ok FROM complete)
), notifications AS (
  ${insertNotifications("$3", "$8")}
  WHERE (SELECT ok FROM complete)
), listed AS (
  INSERT INTO human_users_listings (${LISTING_COLUMNS})
  SELECT ${listingValues("l")} FROM json_to_record($7::json) AS l(${LISTING_RECORD})
  WHERE (SELECT ok FROM complete)
  ${LISTING_UPSERT}
), withdrawn AS (
  UPDATE human_users_outbox o
  SET state = 'dead', code = '', link = '', leased_until = NULL, retry_at = NULL,
    failed_at = ($2::json->0->>'createdAt')::timestamptz, last_error = '${WITHDRAWN_NOTIFICATION_ERROR}'
  WHERE (SELECT ok FROM complete) AND json_array_length($9::json) > 0 AND o.state = 'pending' AND o.user_id = $4
    AND o.kind = ANY (ARRAY(SELECT json_array_elements_text($9::json)))
)
SELECT CASE WHEN ok THEN true ELSE human_users_claim_held() END AS written FROM complete`;

/**
 * A new user's append (expected sequence 0, no claim given up) as one statement that checks
 * nothing itself: every check is a unique index, and a violation aborts the whole statement, so
 * it writes all or nothing. A claim held by another user meets the claims' primary key (inserted
 * in the global order, so writers queue instead of deadlocking: a key held uncommitted makes the
 * insert wait, then fail if the holder commits); a stream that exists already meets the listings'
 * primary key or the events' unique index. Each is SQLSTATE 23505, and the store reads why in the
 * port's order, as after HU409. Measured against `appendSql` on one connection, this costs the
 * database about 40 % less (no `ON CONFLICT`, no counting, no stream probe, no gate per write),
 * and it answers no row for the driver to parse.
 * $1 claims, $2 events (JSON arrays), $3 the user id, then the listing one column a parameter
 * from $4 (see listingParams); with notifications, then those (a JSON array) and the lease's end or NULL.
 */
function newUserAppend(withNotifications: boolean): string {
  const afterListing = 4 + LISTING_COLUMNS.split(", ").length;
  const notifications = withNotifications ? `, notifications AS (
  ${insertNotifications(`$${afterListing}`, `$${afterListing + 1}`)}
)` : "";
  return `
WITH claimed AS (
  INSERT INTO human_users_claims (kind, scope, key, user_id)
  SELECT c.kind, c.scope, c.key, $3 FROM json_to_recordset($1::json) AS c(kind text, scope text, key text)
  ${claimOrder}
), events AS (
  ${insertEvents}
)${notifications}
INSERT INTO human_users_listings (${LISTING_COLUMNS}) VALUES (${listingPlaceholders(4)})`;
}

export const newUserAppendSql = newUserAppend(false);
export const newUserAppendWithNotificationsSql = newUserAppend(true);

/**
 * Several new users' appends as one statement, all or nothing, checked as `newUserAppend` checks
 * one: any user's claim held or stream taken aborts it all (23505), and each is then written alone
 * (see grouped-writes.ts). The rows travel as one array per column (see new-user-rows.ts): the
 * claims, each with its writer's user id, from $1, then the events, then the listings; with
 * notifications, then those and the end of each one's lease (NULL for none). One parameter each
 * however many users.
 */
function newUsersAppend(withNotifications: boolean): string {
  const firstEvent = 1 + CLAIM_PARAMS;
  const firstListing = firstEvent + EVENT_PARAMS;
  const firstNotification = firstListing + LISTING_PARAMS;
  const notifications = withNotifications ? `, notifications AS (
  ${insertNotificationRows(leasedNotificationRows(firstNotification, firstNotification + NOTIFICATION_PARAMS), 'n."leasedUntil"')}
)` : "";
  return `
WITH claimed AS (
  INSERT INTO human_users_claims (kind, scope, key, user_id)
  SELECT c.kind, c.scope, c.key, c.writer FROM ${claimRows(1)}
  ${claimOrder}
), events AS (
  ${insertEventRows(eventRows(firstEvent))}
)${notifications}
INSERT INTO human_users_listings (${LISTING_COLUMNS})
SELECT ${listingValues("l")} FROM ${listingRows(firstListing)}`;
}

export const newUsersAppendSql = newUsersAppend(false);
export const newUsersAppendWithNotificationsSql = newUsersAppend(true);

/** The stream's last sequence (0 when it does not exist). $1 the user id. */
export const lastSequenceSql = `SELECT coalesce(max(sequence), 0) AS last FROM human_users_events WHERE aggregate_id = $1`;

/** Which of the ids ($1, a text array) stored notifications have. */
export const storedNotificationIdsSql = `SELECT id FROM human_users_outbox WHERE id = ANY($1::text[])`;

/** LATERAL ... LIMIT 1 makes one primary-key probe per asked claim, never a scan of the table. */
export const heldClaimsSql = `
SELECT c.kind, c.scope, c.key
FROM json_to_recordset($1::json) AS c(kind text, scope text, key text)
CROSS JOIN LATERAL (
  SELECT 1 FROM human_users_claims h WHERE h.kind = c.kind AND h.scope = c.scope AND h.key = c.key LIMIT 1
) AS held`;

const eventColumns = `type, aggregate_id, org_id, sequence, ${iso("created_at")} AS created_at, payload::text AS payload`;

export const loadEventsSql = `SELECT ${eventColumns} FROM human_users_events WHERE aggregate_id = $1 ORDER BY sequence`;

/** The holder of one claim: a primary-key probe. $1 kind, $2 scope, $3 key. */
export const claimHolderSql = `SELECT user_id FROM human_users_claims WHERE kind = $1 AND scope = $2 AND key = $3`;

const outboxColumns = `id, kind, user_id, org_id, recipient, code, link, locale, display_name, username,
  ${iso("created_at")} AS created_at, ${iso("expires_at")} AS expires_at, attempts, state,
  ${iso("leased_until")} AS leased_until, ${iso("retry_at")} AS retry_at, ${iso("delivered_at")} AS delivered_at,
  ${iso("failed_at")} AS failed_at, last_error`;

/**
 * Due: pending, not leased (or the lease is over), not waiting for a retry. `SKIP LOCKED` lets
 * parallel workers each take different rows instead of waiting for or doubling each other. The
 * rows are handed out in writing order: an UPDATE returns them in whatever order its join found
 * them (a hash join once the outbox is large), so they are sorted again after it.
 * $1 now, $2 lease end, $3 limit, then the filter's parameters.
 */
function leaseSql(filter: string): string {
  return `
WITH leased AS (
UPDATE human_users_outbox AS o SET leased_until = $2::timestamptz
FROM (
  SELECT position FROM human_users_outbox
  WHERE state = 'pending'
    AND (leased_until IS NULL OR leased_until <= $1::timestamptz)
    AND (retry_at IS NULL OR retry_at <= $1::timestamptz)
    ${filter}
  ORDER BY position
  LIMIT $3
  FOR UPDATE SKIP LOCKED
) AS due
WHERE o.position = due.position
-- Unqualified names are o's: the subquery yields only "position".
RETURNING o.position AS lease_order, ${outboxColumns}
)
SELECT * FROM leased ORDER BY lease_order`;
}

export const leaseDueSql = leaseSql("");

/** Only the named ids ($4, a JSON array), found through the unique index on id however long the backlog. */
export const leaseIdsSql = leaseSql("AND id = ANY (ARRAY(SELECT json_array_elements_text($4::json)))");

/**
 * Deliveries reported together: $1 a JSON array of {id, at}. The function plans its update for the
 * ids given (see delivery-reports-migration.ts), so this statement is prepared like the others.
 */
export const deliveredSql = `SELECT human_users_mark_delivered($1::json) AS marked`;

/**
 * Without a retry time ($4 NULL) the notification is dead, and its code and link go as on delivery.
 * $5, the reporter's lease end when it gave one: a report from a lease another process has taken
 * since (leased_until moved on, or cleared by that process's own report) changes nothing.
 */
export const failedSql = `
UPDATE human_users_outbox
SET attempts = attempts + 1, failed_at = $2::timestamptz, last_error = $3, leased_until = NULL,
  retry_at = $4::timestamptz,
  state = CASE WHEN $4::timestamptz IS NULL THEN 'dead' ELSE 'pending' END,
  code = CASE WHEN $4::timestamptz IS NULL THEN '' ELSE code END,
  link = CASE WHEN $4::timestamptz IS NULL THEN '' ELSE link END
WHERE id = $1 AND state = 'pending' AND ($5::timestamptz IS NULL OR leased_until = $5::timestamptz)
RETURNING id`;

const organizationColumns = "o.id, o.policy::text AS policy, o.domains::text AS domains";

export const organizationByIdSql = `SELECT ${organizationColumns} FROM human_users_organizations o WHERE o.id = $1`;

export const organizationByDomainSql = `
SELECT ${organizationColumns} FROM human_users_organizations o
WHERE o.id = (SELECT org_id FROM human_users_organization_domains WHERE verified AND lower(domain) = lower($1) LIMIT 1)`;

export const identityProviderSql = `SELECT id, org_id FROM human_users_identity_providers WHERE id = $1`;

/** $1 id, $2 policy (JSON or NULL), $3 domains (JSON array). */
export const upsertOrganizationSql = `
INSERT INTO human_users_organizations (id, policy, domains) VALUES ($1, $2::jsonb, $3::jsonb)
ON CONFLICT (id) DO UPDATE SET policy = excluded.policy, domains = excluded.domains`;

export const deleteDomainsSql = `DELETE FROM human_users_organization_domains WHERE org_id = $1`;

export const insertDomainsSql = `
INSERT INTO human_users_organization_domains (org_id, position, domain, verified)
SELECT $1, d.n - 1, d.value->>'domain', (d.value->>'verified')::boolean
FROM json_array_elements($2::json) WITH ORDINALITY AS d(value, n)`;

export const upsertIdentityProviderSql = `
INSERT INTO human_users_identity_providers (id, org_id) VALUES ($1, $2)
ON CONFLICT (id) DO UPDATE SET org_id = excluded.org_id`;

export const allEventsSql = `SELECT ${eventColumns} FROM human_users_events ORDER BY position`;
export const allClaimsSql = `SELECT kind, scope, key FROM human_users_claims ORDER BY position`;
export const allNotificationsSql = `SELECT ${outboxColumns} FROM human_users_outbox ORDER BY position`;
