// The INSERTs of events and notifications, over rows from any source (JSON documents or arrays
// per column), so that every statement writes the same columns from the same members.

/** Events from `rows` (aliased `e`, with the port's member names). */
export function insertEventRows(rows: string): string {
  return `INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload)
  SELECT e."aggregateId", e.sequence, e.type, e."orgId", e."createdAt", e.payload
  FROM ${rows}`;
}

/** Notifications from `rows` (aliased `n`), leased until `lease` when it is not null. */
export function insertNotificationRows(rows: string, lease: string): string {
  return `INSERT INTO human_users_outbox (id, kind, user_id, org_id, recipient, code, link, locale, display_name, username, created_at, expires_at, leased_until)
  SELECT n.id, n.kind, n."userId", n."orgId", n.recipient, n.code, n.link, n.locale, n."displayName", n.username, n."createdAt", n."expiresAt", ${lease}::timestamptz
  FROM ${rows}`;
}
