import { claimKey } from "../../core/claims.js";
import type { ClaimHolder, StoredEvent, UniqueClaim } from "../../ports/storage.js";
import { eventsOfUsersSql } from "./listings-migration.js";
import { toEvent } from "./rows.js";
import type { SqlSession } from "./sql-database.js";

/** The asked claims that somebody holds, each with its holder. $1 the claims. */
const holdersSql = `
SELECT c.kind, c.scope, c.key, h.user_id
FROM json_to_recordset($1::json) AS c(kind text, scope text, key text)
JOIN human_users_claims AS h ON h.kind = c.kind AND h.scope = c.scope AND h.key = c.key`;

/**
 * `findClaimHolders`: two statements for any number of claims (the holders, then all their
 * events), where asking claim by claim costs two round trips per held claim: what a re-run of an
 * import, whose every row is already there, spent its time on.
 */
export async function findClaimHolders(db: SqlSession, claims: readonly UniqueClaim[]): Promise<readonly ClaimHolder[]> {
  if (claims.length === 0) return [];
  const asked = new Map(claims.map((claim) => [claimKey(claim), claim] as const));
  const { rows } = await db.query(holdersSql, [JSON.stringify([...asked.values()].map(({ kind, scope, key }) => ({ kind, scope, key })))]);
  const held = rows as readonly { kind: UniqueClaim["kind"]; scope: string; key: string; user_id: string }[];
  if (held.length === 0) return [];
  const userIds = [...new Set(held.map((row) => row.user_id))];
  const events = new Map<string, StoredEvent[]>(userIds.map((userId) => [userId, []]));
  for (const row of (await db.query(eventsOfUsersSql, [JSON.stringify(userIds)])).rows) {
    const event = toEvent(row);
    events.get(event.aggregateId)?.push(event);
  }
  return held.map((row) => {
    const claim = { kind: row.kind, scope: row.scope, key: row.key };
    return { claim: asked.get(claimKey(claim)) ?? claim, userId: row.user_id, events: events.get(row.user_id) ?? [] };
  });
}
