// Why an append was refused, read in the port's order (its claims, its stream, then its
// notifications' ids), on any session: the pool after a single append failed, or the transaction
// of a bulk batch (batch-write.ts). One reading, so that both answer alike.
import { firstRepeatedClaim, sameClaim } from "../../core/claims.js";
import { firstTakenNotificationId } from "../../core/notification-ids.js";
import type { AppendOutcome, UniqueClaim, UserAppend } from "../../ports/storage.js";
import { toClaim } from "./rows.js";
import type { SqlSession } from "./sql-database.js";
import { heldClaimsSql, lastSequenceSql, storedNotificationIdsSql } from "./statements.js";

/** Claims as the statements take them: a JSON array of kind, scope and key. */
export function toJsonClaims(claims: readonly UniqueClaim[]): string {
  return JSON.stringify(claims.map(({ kind, scope, key }) => ({ kind, scope, key })));
}

/** The claims among `claims` that a stored user holds, in the order asked. */
export async function findHeldClaims(session: SqlSession, claims: readonly UniqueClaim[]): Promise<readonly UniqueClaim[]> {
  if (claims.length === 0) return [];
  const held = (await session.query(heldClaimsSql, [toJsonClaims(claims)])).rows.map(toClaim);
  // Answer in the order asked, whatever order the join produced.
  return claims.filter((claim) => held.some((candidate) => sameClaim(candidate, claim))).map(toClaim);
}

/** The last sequence of a user's stream; 0 when it has none. */
export async function lastSequence(session: SqlSession, userId: string): Promise<number> {
  const row = (await session.query(lastSequenceSql, [userId])).rows[0] as { last?: unknown } | undefined;
  return Number(row?.last ?? 0);
}

/** The ids among the writes' notifications that stored notifications have (one query; none when they have no notification). */
export async function storedNotificationIds(session: SqlSession, writes: readonly UserAppend[]): Promise<ReadonlySet<string>> {
  const ids = writes.flatMap((write) => write.notifications.map((notification) => notification.id));
  if (ids.length === 0) return new Set();
  return new Set((await session.query(storedNotificationIdsSql, [ids])).rows.map((row) => String((row as { id?: unknown }).id)));
}

/** The first notification id of `write` that is stored, or that an earlier notification of it has. */
export function takenNotificationId(write: UserAppend, stored: ReadonlySet<string>): string | undefined {
  return firstTakenNotificationId(write.notifications, (id) => stored.has(id));
}

/**
 * Why `append` is refused by its claims or its stream, in the port's order; undefined when neither
 * refuses it (any more). A new user's stream is looked at after its claims, a change's before.
 */
export async function claimOrStreamRefusal(session: SqlSession, append: UserAppend): Promise<AppendOutcome | undefined> {
  const claimRefusal = async (): Promise<AppendOutcome | undefined> => {
    const conflict = (await findHeldClaims(session, append.claims))[0] ?? firstRepeatedClaim(append.claims);
    return conflict === undefined ? undefined : { ok: false, reason: "claim-held", conflict: toClaim(conflict) };
  };
  const last = await lastSequence(session, append.userId);
  if (append.expectedSequence > 0) {
    if (last === 0) return { ok: false, reason: "user-not-found" };
    if (last !== append.expectedSequence) return { ok: false, reason: "sequence-conflict", actualSequence: last };
    return claimRefusal();
  }
  return (await claimRefusal()) ?? (last !== 0 ? { ok: false, reason: "sequence-conflict", actualSequence: last } : undefined);
}

/** Why `append` is refused for a notification id that is taken, stored or repeated; undefined when none is. */
export async function notificationRefusal(session: SqlSession, append: UserAppend, stored?: ReadonlySet<string>): Promise<AppendOutcome | undefined> {
  const taken = takenNotificationId(append, stored ?? (await storedNotificationIds(session, [append])));
  return taken === undefined ? undefined : { ok: false, reason: "notification-id-taken", notificationId: taken };
}
